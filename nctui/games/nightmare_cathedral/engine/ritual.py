"""PERFORM RITUAL, LIMBO and the three kinds of SPACES: climbing the Ritual track.

Each player has 2 Ritual markers (``PlayerState.ritual``); a climb moves one of them into the
next space. A paid step removes one Follower per symbol of the space from an area of that
symbol; those Followers wait on the track until the action or reaction is concluded
(``turn._conclude``). 3 Followers from Limbo, back to the supply, pay for a whole step instead.
Open spaces take any climb; special spaces only a climb whose effect allows them, and offer
their own bonus, resolved in full before climbing on; ritual-only spaces only the Ritual
action's primary effect, paid in full. An effect removes Followers only when it says "paying".
"""

from __future__ import annotations

from msgspec.structs import replace

from ..content import schema as cs
from . import board, events as E, nightmares, units
from .actions import Action, ClimbMarker, Done, PayFollower, PayLimbo, TakeBonus
from .effects import push_effect
from .errors import IllegalAction
from .events import Event
from .ops import remove_one, set_player
from .rules import Refusal, Rule, legal, with_stop
from .state import GameState
from .steps_basic import stop
from .work import BonusWork, ClimbPayWork, ClimbWork, Frame

Events = list[Event]
RITUAL = "PERFORM RITUAL"
LIMBO = "LIMBO"
SECTION = {"open": "SPACES (open)", "special": "SPACES (special)", "ritual": "SPACES (ritual-only)"}
LIMBO_PRICE = 3  # Followers from Limbo that pay for one step
MARKERS = (0, 1)

BONUS_STEPS: dict[str, tuple[cs.Step, ...]] = {
    "movement3": (cs.Move(mp=3),),
    "fort_level": (cs.AddFortLevels(count=1, cost=()),),
    "shaper_convert": (cs.ShaperMove(steps=1), cs.Convert(count=1)),
    "produce2": (cs.Produce(amount=2),),
    "command_nightmare": (cs.CommandNightmare(count=1),),
}


# ---------------------------------------------------------------------------------------------
# The rules, as queries


def spaces(state: GameState) -> tuple[cs.RitualSpace, ...]:
    return board.pack(state).tracks.ritual


def next_index(state: GameState, seat: int, marker: int) -> int:
    """Index in ``spaces`` of the space the marker would enter, or -1 on the last space
    (position p is space p, counted from 1; 0 is the start)."""
    pos = state.players[seat].ritual[marker]
    return pos if pos < len(spaces(state)) else -1


def allowed_kinds(w: ClimbWork, paid: bool) -> frozenset[str]:
    """Open spaces always; special ones when the effect allows; ritual-only ones for the Ritual
    action's primary effect, and only paid. A free step is also limited to the effect's kinds."""
    kinds = {"open"} | ({"special"} if w.special else set())
    if paid:
        return frozenset(kinds | ({"ritual"} if w.primary else set()))
    return frozenset(kinds & set(w.kinds))


def followers_on(state: GameState, seat: int, symbol: str) -> int:
    return sum(a.followers[seat] for a in state.areas if board.symbol_of(state, a.id) == symbol)


def followers_cover(state: GameState, seat: int, cost: tuple[str, ...]) -> bool:
    """One Follower from a matching area for each symbol (an area has one symbol, so paying
    one symbol never takes a Follower another symbol needs)."""
    return all(cost.count(sym) <= followers_on(state, seat, sym) for sym in set(cost))


def can_pay(state: GameState, seat: int, cost: tuple[str, ...]) -> bool:
    return state.players[seat].limbo >= LIMBO_PRICE or followers_cover(state, seat, cost)


def climbable(state: GameState, w: ClimbWork, paid: bool) -> tuple[int, ...]:
    """The markers that may climb one step now (a paid step only if it can be paid in full)."""
    out = []
    for m in MARKERS:
        i = next_index(state, w.seat, m)
        if i < 0 or spaces(state)[i].kind not in allowed_kinds(w, paid):
            continue
        if not paid or can_pay(state, w.seat, spaces(state)[i].cost):
            out.append(m)
    return tuple(out)


def phase(state: GameState, w: ClimbWork) -> tuple[bool, tuple[int, ...]]:
    """(paying?, markers): the paid steps come first; once none is allowed or possible (or the
    player stopped them), the free steps."""
    if w.paid_left != 0:
        markers = climbable(state, w, paid=True)
        if markers:
            return True, markers
    if w.free_left > 0:
        return False, climbable(state, w, paid=False)
    return False, ()


def payments(state: GameState, w: ClimbPayWork) -> tuple[PayFollower | PayLimbo, ...]:
    """A Follower from an area matching an unpaid symbol, when Followers can pay every symbol
    still owed (the space is paid in full: a first Follower that Followers can't follow would
    strand the payment); or, before any symbol is paid, 3 Followers from Limbo for the whole step."""
    candidates: list[PayFollower | PayLimbo] = [PayFollower(area=a.id) for a in state.areas]
    return legal(state, w, candidates + [PayLimbo()], _pay_refusal)


def limbo_pays(state: GameState, w: ClimbPayWork, limbo: int) -> bool:
    """LIMBO: 3 Followers from Limbo pay for the whole step, so only before any symbol is paid."""
    return w.owed == spaces(state)[next_index(state, w.seat, w.marker)].cost and limbo >= LIMBO_PRICE


def still_payable(state: GameState, w: ClimbPayWork, limbo: int) -> bool:
    """Whether the space being paid for can still be paid in full with ``limbo`` Followers left
    in Limbo."""
    return followers_cover(state, w.seat, w.owed) or limbo_pays(state, w, limbo)


# ---------------------------------------------------------------------------------------------
# Climbing


def start_climb(state: GameState, frame: Frame, step: cs.Climb, ev: Events) -> GameState:
    """``steps`` = 0 with ``paid``: any number of paid steps; an unpaid ``steps`` is free."""
    paid_left = (step.steps or -1) if step.paid else 0
    free_left = step.free + (0 if step.paid else step.steps)
    return replace(
        state,
        work=ClimbWork(
            seat=frame.seat,
            paid_left=paid_left,
            free_left=free_left,
            special=step.special,
            primary=step.primary,
            kinds=tuple(step.kinds),
            must=frame.must,
        ),
    )


def _climb_options(state: GameState, w: ClimbWork) -> tuple[Action, ...]:
    paid, markers = phase(state, w)
    optional = not w.must or (paid and w.paid_left < 0)
    return with_stop(tuple(ClimbMarker(marker=m) for m in markers), optional)


def _climb_refusal(state: GameState, w: ClimbWork, action: ClimbMarker) -> Refusal:
    if action.marker not in MARKERS:
        return IllegalAction("you have 2 Ritual markers: 0 and 1", rule="2 Ritual markers", section=RITUAL)
    if action.marker in phase(state, w)[1]:
        return None
    i = next_index(state, w.seat, action.marker)
    if i < 0:
        return IllegalAction(
            "this marker is on the last space of the Ritual track", rule="the track ends", section=RITUAL
        )
    space = spaces(state)[i]
    paid, _ = phase(state, w)
    if space.kind == "special" and not w.special:
        return IllegalAction(
            f"space {i + 1} is a special space: only an effect that allows it may enter it",
            rule="special spaces need an effect that allows them",
            section=SECTION["special"],
        )
    if space.kind == "ritual" and not (paid and w.primary):
        return IllegalAction(
            f"space {i + 1} is ritual-only: only the Ritual action's primary effect, paid in full, may enter it",
            rule="ritual-only spaces",
            section=SECTION["ritual"],
        )
    if paid:
        return IllegalAction(
            f"you can't pay for space {i + 1}: it takes a Follower from an area of each symbol "
            f"({', '.join(space.cost)}), or 3 Followers from Limbo",
            rule="paying to climb",
            section=RITUAL,
        )
    return IllegalAction(
        f"this free step may only enter {' or '.join(sorted(allowed_kinds(w, False)))} spaces",
        rule="the effect names the spaces it allows",
        section=SECTION[space.kind],
    )


def _climb(state: GameState, w: ClimbWork, action: ClimbMarker | Done, ev: Events) -> GameState:
    paid, _ = phase(state, w)
    if isinstance(action, Done):  # stopping the paid steps leaves the free ones; stopping those ends the climb
        if paid and w.free_left > 0:
            ev.append(E.Stopped(seat=w.seat, decision="climb"))
            return replace(state, work=replace(w, paid_left=0))
        return stop(state, w, ev)
    if not paid:
        return enter(state, replace(w, free_left=w.free_left - 1), action.marker, ev)
    cost = spaces(state)[next_index(state, w.seat, action.marker)].cost
    return paid_progress(state, ClimbPayWork(seat=w.seat, marker=action.marker, owed=cost, climb=w), ev)


CLIMB = Rule(ClimbWork, (ClimbMarker,), _climb_options, _climb_refusal, _climb)


def _pay_options(state: GameState, w: ClimbPayWork) -> tuple[Action, ...]:
    return payments(state, w)


def _pay_refusal(state: GameState, w: ClimbPayWork, action: PayFollower | PayLimbo) -> Refusal:
    limbo = state.players[w.seat].limbo
    if isinstance(action, PayLimbo):
        if limbo < LIMBO_PRICE:
            return IllegalAction(
                f"you have {limbo} Followers in Limbo: a step costs 3 of them, and with fewer Limbo can't be used",
                rule="3 Followers from Limbo per step",
                section=LIMBO,
            )
        if not limbo_pays(state, w, limbo):
            return IllegalAction(
                "3 Followers from Limbo pay for a whole step: this one is partly paid with Followers already",
                rule="Limbo pays a whole step",
                section=LIMBO,
            )
        return None
    if action.area not in board.area_index(state):
        return IllegalAction(f"{action.area!r} is not an area in play", rule="areas in play", section="KEY CONCEPTS")
    if not board.area(state, action.area).followers[w.seat]:
        return IllegalAction(f"you have no Follower in {action.area}", rule="remove your own Follower", section=RITUAL)
    if not followers_cover(state, w.seat, w.owed):
        return IllegalAction(
            f"your Followers on the board can't pay all of this space ({', '.join(w.owed)}): it is "
            "paid in full, so pay the whole step with 3 Followers from Limbo",
            rule="pay in full",
            section=RITUAL,
        )
    symbol = board.symbol_of(state, action.area)
    if symbol not in w.owed:
        return IllegalAction(
            f"{action.area} shows {symbol}: a Follower paying to climb must come from an area "
            f"matching a symbol still unpaid on the space ({', '.join(w.owed)})",
            rule="pay with Followers from matching areas",
            section=RITUAL,
        )
    return None


def _pay(state: GameState, w: ClimbPayWork, action: PayFollower | PayLimbo, ev: Events) -> GameState:
    space = next_index(state, w.seat, w.marker) + 1
    if isinstance(action, PayLimbo):  # LIMBO: the 3 Followers go back to the supply at once
        state = units.from_limbo(state, w.seat, LIMBO_PRICE)
        ev.append(E.RitualPaidLimbo(seat=w.seat, space=space))
        return paid_progress(state, replace(w, owed=()), ev)
    symbol = board.symbol_of(state, action.area)
    state = units.remove(state, w.seat, action.area, 1, to="track")
    ev.append(E.RitualPaid(seat=w.seat, area=action.area, symbol=symbol, space=space))
    return paid_progress(state, replace(w, owed=remove_one(w.owed, symbol)), ev)


CLIMB_PAY = Rule(ClimbPayWork, (PayFollower, PayLimbo), _pay_options, _pay_refusal, _pay)


def paid_progress(state: GameState, w: ClimbPayWork, ev: Events) -> GameState:
    """Wait for the next payment, or enter the space once it is paid in full."""
    if w.owed:
        return replace(state, work=w)
    c = w.climb
    left = c.paid_left - 1 if c.paid_left > 0 else c.paid_left
    return enter(state, replace(c, paid_left=left), w.marker, ev)


def enter(state: GameState, w: ClimbWork, marker: int, ev: Events) -> GameState:
    """The marker enters the next space; a special space's bonus comes before climbing on."""
    pl = state.players[w.seat]
    pos = pl.ritual[marker] + 1
    ritual = (pos, pl.ritual[1]) if marker == 0 else (pl.ritual[0], pos)
    best = (max(pl.ritual_best[0], ritual[0]), max(pl.ritual_best[1], ritual[1]))
    state = set_player(state, replace(pl, ritual=ritual, ritual_best=best))
    ev.append(E.RitualClimbed(seat=w.seat, marker=marker, space=pos))
    space = spaces(state)[pos - 1]
    if space.kind != "special" or space.bonus == "none":
        return replace(state, work=w)
    state = push_rest(state, w)
    if space.bonus == "command_nightmare" and not nightmares.commandable(state, w.seat):
        # Stage 1: no Nightmare yet; Stage 2: both already commanded by this player this turn
        ev.append(
            E.NoEffectStage1(seat=w.seat, step="command_nightmare")
            if state.stage < 2
            else E.NightmaresUnavailable(seat=w.seat, left=1)
        )
        return replace(state, work=None)
    return replace(state, work=BonusWork(seat=w.seat, space=pos - 1))


def push_rest(state: GameState, w: ClimbWork) -> GameState:
    """The climb still to come waits in its own frame under the bonus."""
    if w.paid_left == 0 and w.free_left == 0:
        return state
    rest = cs.Climb(
        steps=max(w.paid_left, 0),
        paid=w.paid_left != 0,
        free=w.free_left,
        special=w.special,
        primary=w.primary,
        kinds=w.kinds,  # type: ignore[arg-type]
    )
    return push_effect(state, w.seat, (rest,), "climb", must=w.must)


# ---------------------------------------------------------------------------------------------
# Special spaces' bonuses


def _bonus_options(state: GameState, w: BonusWork) -> tuple[Action, ...]:
    return (TakeBonus(take=True), TakeBonus(take=False))


def _bonus_refusal(state: GameState, w: BonusWork, action: TakeBonus) -> Refusal:
    return None


def _bonus(state: GameState, w: BonusWork, action: TakeBonus, ev: Events) -> GameState:
    """The bonus is resolved in full (its own frame) before the climb goes on."""
    bonus = spaces(state)[w.space].bonus
    state = replace(state, work=None)
    if not action.take:
        ev.append(E.RitualBonusIgnored(seat=w.seat, space=w.space + 1, bonus=bonus))
        return state
    ev.append(E.RitualBonus(seat=w.seat, space=w.space + 1, bonus=bonus))
    return push_effect(state, w.seat, BONUS_STEPS[bonus], "bonus")


RITUAL_BONUS = Rule(BonusWork, (TakeBonus,), _bonus_options, _bonus_refusal, _bonus)
