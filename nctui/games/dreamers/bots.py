"""Computer players for the dice game: random, and a gambler that presses its luck by expected
value. The game has no hidden hands: a view is the state without the RNG's future."""

from __future__ import annotations

import random
from math import comb

from . import rules
from .content import content
from .state import (
    Action,
    ChooseTrack,
    Consume,
    DreamAgain,
    DreamersState,
    Give,
    PickDie,
    Reroll,
    Resolve,
    Rest,
    SendMinions,
    ShadowNext,
    Skip,
    UseAbility,
)


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: DreamersState) -> Action:
        return self.rng.choice(rules.legal_actions(view))


def odds(colour: int, face: str) -> float:
    faces = content().colour[colour].faces
    return faces.count(face) / len(faces)


def gain(colour: int) -> float:
    """Expected Power of one dream of ``colour``."""
    faces = content().colour[colour].faces
    return sum(rules.VALUE.get(f, 0) for f in faces) / len(faces)


def danger(state: DreamersState, seat: int) -> float:
    """How close a Dreamer is to losing its turn's work: Hunt spaces left, Exhaust spaces left."""
    card = state.seats[seat].card
    c = content()
    hunt_left = c.hunt_limit - len(card.hunt)
    exhaust_left = c.exhaust_limit - rules.exhaustion(card)
    return 1.0 / max(hunt_left, 0.5) + 0.5 / max(exhaust_left, 0.5)


def risk_of_next(state: DreamersState, seat: int, dice: float) -> float:
    """The chance that ``dice`` more dreams (average colours) bring the Hunt row to its limit."""
    card = state.seats[seat].card
    need = content().hunt_limit - len(card.hunt)
    p = sum(odds(c, "hunt") for c in range(4)) / 4
    # the chance of at least ``need`` Hunts among ``dice`` dreams (binomial tail)
    n = int(dice)
    return sum(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(need, n + 1))


class GamblerBot:
    """Presses its luck by expected value: deeper sleep and another dream while the chance of
    losing the turn's work is small, the worst dreams returned, rerolls to dodge a fatal Hunt."""

    def __init__(self, seed: int, *, nerve: float = 0.2) -> None:
        self.rng = random.Random(seed)
        self.nerve = nerve  # the risk of elimination it accepts to dream again

    def choose(self, view: DreamersState) -> Action:
        actions = rules.legal_actions(view)
        seat = rules.decider(view)
        assert seat is not None
        phase = view.phase
        if phase == "track":
            depth = 0 if danger(view, seat) > 1.2 else (1 if danger(view, seat) > 0.7 else 2)
            return ChooseTrack(min(depth, len(content().track) - 1))
        if phase in ("return", "minion_return"):
            worst = min(
                actions,
                key=lambda a: (
                    gain(a.colour) - 2 * odds(a.colour, "hunt")  # type: ignore[union-attr]
                    if phase == "return"
                    else -(gain(a.colour))  # type: ignore[union-attr]
                ),
            )
            return worst
        if phase == "roll":
            return self._reroll(view, seat, actions)
        if phase == "shadow":  # the order of the Shadows; it rerolls only in the roll phase
            nexts = [a for a in actions if isinstance(a, ShadowNext)]
            return nexts[0] if len(nexts) == 1 else self.rng.choice(nexts)
        if phase == "envy":  # against the Dreamer: reroll its best Power
            picks = [a for a in actions if isinstance(a, PickDie)]
            powers = [p for p in picks if p.row == "power"]
            return (powers or picks)[0]
        if phase == "fear":
            card = view.seats[seat].card
            move = len(card.hunt) + 1 < content().hunt_limit - 1 and rules.exhaustion(card) >= 2
            return next((a for a in actions if isinstance(a, PickDie)), Skip()) if move else Skip()
        if phase == "ability":
            return UseAbility()
        if phase == "rest":
            return self._rest(view, seat, actions)
        if phase == "nightmare":
            eats = [a for a in actions if isinstance(a, Consume)]
            if eats:
                return max(eats, key=lambda a: (rules.VALUE[a.face], rules.power(view.seats[a.seat])))
            return SendMinions()
        if phase == "minion_give":
            return max(
                (a for a in actions if isinstance(a, Give)),
                key=lambda a: (len(view.seats[a.seat].card.hunt), rules.power(view.seats[a.seat])),
            )
        return self.rng.choice(actions)

    def _reroll(self, view: DreamersState, seat: int, actions: tuple[Action, ...]) -> Action:
        card = view.seats[seat].card
        hunts = sum(d.face == "hunt" for d in view.unresolved)
        if len(card.hunt) + hunts >= content().hunt_limit:
            dodges = [a for a in actions if isinstance(a, Reroll) and set(a.faces) == {"hunt"}]
            if dodges:
                return max(dodges, key=lambda a: len(a.faces))
        return Resolve()

    def _rest(self, view: DreamersState, seat: int, actions: tuple[Action, ...]) -> Action:
        if DreamAgain() in actions and Rest() not in actions:
            return DreamAgain()
        if DreamAgain() in actions and rules.power(view.seats[seat]) < content().power_to_end:
            draws = content().track[view.track].draws[view.step + 1] - content().returned
            if risk_of_next(view, seat, draws) < self.nerve and rules.exhaustion(view.seats[seat].card) < 2:
                return DreamAgain()
        return Rest()


AnyBot = RandomBot | GamblerBot


def make_bot(level: str, seed: int) -> AnyBot:
    return RandomBot(seed) if level == "random" else GamblerBot(seed)
