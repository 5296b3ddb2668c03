"""Computer players for the dice game: random, and a gambler that presses its luck by expected
value. The game has no hidden hands: a view is the state without the RNG's future, so the gambler
imagines futures by giving the view an RNG of its own (``imagined``) and playing them out."""

from __future__ import annotations

import random
import threading
from functools import cache
from math import comb, exp, sqrt

import msgspec
from msgspec.structs import replace

from nctui.platform.playouts import Z, sequential_halving
from nctui.platform.rng import Rng

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


@cache
def odds(colour: int, face: str) -> float:
    faces = content().colour[colour].faces
    return faces.count(face) / len(faces)


@cache
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
    return _tail(need, int(dice))


@cache
def _tail(need: int, n: int) -> float:
    """The chance of at least ``need`` Hunts among ``n`` dreams of average colours (binomial)."""
    p = sum(odds(c, "hunt") for c in range(4)) / 4
    return sum(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(need, n + 1))


# playouts per searched decision: 128 won 53.9 % of 800 games against 64 (50.4-57.3 %; 64 against
# 32: 51.9 %, within the noise) and 71.0 % of 400 against the rule of thumb, about 0.014 CPU s a
# decision (docs/balance.md)
BUDGET = 128
HORIZON = 1  # turns a playout runs before ``chances`` judges it (0: to the end of the game)
# ``chances``: a logistic of the lead in Power over the square root of the Power both still need,
# fitted to 30,000 games of the rule of thumb against itself (at a turn's end, the other to play)
LEAD = 0.75
TEMPO = -0.3  # the other player plays next
SEARCHED = frozenset({"track", "return", "roll", "rest", "fear", "nightmare", "tie"})
PLAYOUT_STEPS = 3000  # a played-out game ends well before this many decisions (about 75 a game)


def imagined(view: DreamersState, seed: int) -> DreamersState:
    """A full state consistent with the view: the bag's future from an RNG of the player's own
    (the bag's contents are public; only the order of the draws and the rolls is unknown)."""
    return replace(view, rng=Rng(state=seed))


def distinct(view: DreamersState, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The options that lead to different positions (two Exhaust dreams alike: either one)."""
    seen: dict[bytes, Action] = {}
    probe = imagined(view, 0)
    for action in actions:
        after = rules.step(probe, action).state
        seen.setdefault(msgspec.msgpack.encode(after), action)
    return tuple(seen.values())


def candidates(view: DreamersState, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The options worth searching: at Rest, resting fully or dreaming again (returning a single
    dream keeps the rest of the card's dangers); at the roll, resolving or rerolling only dreams
    that are not Power (a reroll spends a Power already)."""
    if view.phase == "rest":
        return tuple(a for a in actions if a in (Rest(), DreamAgain()))
    if view.phase == "roll":
        return tuple(a for a in actions if isinstance(a, Resolve) or not set(a.faces) & set(rules.VALUE))  # type: ignore[union-attr]
    return actions


def chances(state: DreamersState, seat: int) -> float:
    """A game not over judged when a turn ends ("End of the Game": the most Power wins, play
    ends after someone has 15): out of it 0, else a logistic of the lead over the best other
    player still in it per square root of the Power both still need (``LEAD``, ``TEMPO``). A
    lead of 4 is worth little early and much late: 4 against 0 wins 57 %, 14 against 10 78 %
    (the games it was fitted to: 56 % and 70 %; the fixed logistic of the lead before: 79 % both,
    so the search pressed its luck for early Power that wins little)."""
    if state.seats[seat].role == "out":
        return 0.0
    totals = rules.powers(state)
    rival = max((t for i, t in enumerate(totals) if i != seat and state.seats[i].role != "out"), default=0)
    need = max(2 * content().power_to_end - totals[seat] - rival, 1)
    return 1.0 / (1.0 + exp(-(TEMPO + LEAD * (totals[seat] - rival) / sqrt(need))))


class GamblerBot:
    """Presses its luck by expected value. With a ``budget`` each decision of a Dreamer's turn
    (steps 1-5: the Sleep Track, the two dreams returned, the rerolls, Rest or Dream Again,
    Primeval Fear's move) and a Nightmare's is searched: each option is played out to the end of
    the turn (``horizon``; 0: of the game) in imagined futures by the rule of thumb below, and
    the position then judged by ``chances`` (``platform.playouts``: sequential halving, the rule
    of thumb's choice left only for one better by ``z`` standard errors, compared future by
    future; only the options worth it: ``candidates``). ``budget`` 0 is the rule of thumb alone:
    deeper sleep and another dream while the chance of losing the turn's work is small, the
    worst dreams returned, rerolls to dodge a fatal Hunt."""

    def __init__(
        self,
        seed: int,
        *,
        nerve: float = 0.2,
        budget: int = BUDGET,
        horizon: int = HORIZON,
        z: float = Z,
        searched: frozenset[str] = SEARCHED,
    ) -> None:
        self.rng = random.Random(seed)
        self.nerve = nerve  # the risk of elimination it accepts to dream again
        self.budget = budget  # games played out per searched decision
        self.horizon = horizon  # turns a playout runs (0: to the end of the game)
        self.z = z  # standard errors by which an option must beat the rule of thumb's
        self.searched = searched  # the phases whose decisions are searched
        self._stop = threading.Event()
        self._playout = self if budget <= 0 else GamblerBot(seed, nerve=nerve, budget=0)

    def stop(self) -> None:
        """End the decision being searched now, with the best option so far."""
        self._stop.set()

    def choose(self, view: DreamersState) -> Action:
        self._stop.clear()
        actions = rules.legal_actions(view)
        if self.budget > 0 and len(actions) > 1 and view.phase in self.searched:
            return self._search(view, actions)
        return self.rule(view, actions)

    def _search(self, view: DreamersState, actions: tuple[Action, ...]) -> Action:
        seat = rules.decider(view)
        assert seat is not None
        options = distinct(view, candidates(view, actions))
        if len(options) == 1:
            return options[0]
        own = options.index(self.rule(view, options))
        chosen = sequential_halving(
            len(options),
            own,
            self.budget,
            lambda i, future: self._play_out(imagined(view, future), options[i], seat, future),
            self.rng,
            self._stop.is_set,
            self.z,
        )
        return options[chosen]

    def _play_out(self, state: DreamersState, action: Action, seat: int, future: int) -> float:
        """The game after ``action`` played by the rule of thumb (its own choices at random from
        ``future`` too, so that every option meets the same luck) to the end of ``horizon`` turns
        (judged by ``chances``; the final turns are played out) or of the game: a win (shared: its
        part), and a little for the margin of Power."""
        self._playout.rng.seed(future)
        end = state.turns + self.horizon if self.horizon > 0 else None
        state = rules.step(state, action).state
        for _ in range(PLAYOUT_STEPS):
            if rules.decider(state) is None:
                break
            if end is not None and state.turns >= end and state.final is None:
                return chances(state, seat)
            state = rules.step(state, self._playout.rule(state, rules.legal_actions(state))).state
        totals = rules.powers(state)
        margin = totals[seat] - max(t for i, t in enumerate(totals) if i != seat)
        won = 1.0 / len(state.winners) if seat in state.winners else 0.0
        return won + 0.01 * margin / content().power_to_end

    def rule(self, view: DreamersState, actions: tuple[Action, ...]) -> Action:
        """The rule of thumb (``budget`` 0), and the play of every seat in a played-out game."""
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


def make_bot(level: str, seed: int, *, budget: int = BUDGET) -> AnyBot:
    return RandomBot(seed) if level == "random" else GamblerBot(seed, budget=budget)
