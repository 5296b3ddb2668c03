"""FORTIFY: adding Fort levels, each paid with Followers removed from any area.

KEY CONCEPTS (FORT LEVELS, AREA CONTROL, FORTRESS), FORTIFY, FORT LEVELS and REWARDS AND
CONSEQUENCES ("there can never be more than 1 Fort in any area").

A level is built first, then its cost is paid one Follower at a time (``FortWork.owed``): a
level is offered only when the player has enough Followers on the board to pay for it in full,
and once built it must be paid before anything else happens. The areas controlled when the
step began stay buildable for the whole step (``FortWork.controlled``), so paying with the last
Followers of an area does not stop a Fort level going there.
"""

from __future__ import annotations

from msgspec.structs import replace

from ..content import schema as cs
from . import board, events as E, units
from .actions import Action, BuildFortLevel, Done, PayFollower
from .errors import IllegalAction
from .events import Event
from .rules import Refusal, Rule, with_stop
from .state import GameState
from .steps_basic import stop
from .work import FortPayWork, FortWork, Frame

Events = list[Event]
MAX_LEVELS = 3  # FORT LEVELS
SECTION_EFFECT = "RESOLVING ACTIONS AND REACTIONS"

_WHERE_WORDS = {
    "fort": "an area holding one of your Forts",
    "fortress": "your Fortress area",
    "marked": "a Marked Area",
    "shaper": "the area of your Shaper",
}


def start_fortify(state: GameState, frame: Frame, step: cs.AddFortLevels, ev: Events) -> GameState:
    """Levels beyond the printed costs are free (an empty ``cost`` = every level free)."""
    costs = tuple(step.cost[i] if i < len(step.cost) else 0 for i in range(step.count))
    controlled = board.areas_matching(state, frame.seat, "controlled")
    return replace(
        state,
        work=FortWork(
            seat=frame.seat,
            costs=costs,
            where=step.where,
            existing_only=step.existing_only,
            controlled=controlled,
            must=frame.must,
        ),
    )


def _in_reach(state: GameState, w: FortWork, area_id: str) -> bool:
    """The effect's area filter, with control as it was when the step began (FORTIFY)."""
    if w.where == "controlled":
        return area_id in w.controlled
    under_control = area_id in w.controlled or board.controller(board.area(state, area_id)) == w.seat
    return under_control and area_id in board.areas_matching(state, w.seat, w.where)


def refusal(state: GameState, w: FortWork, area_id: str) -> IllegalAction | None:
    """Why the next Fort level may not go into ``area_id`` now (None: it may)."""
    if area_id not in board.area_index(state):
        return IllegalAction(f"{area_id} is not an area in play", rule="areas in play", section="SETUP")
    a = board.area(state, area_id)
    if state.players[w.seat].forts <= 0:
        return IllegalAction(
            "you have no Fort level left in your supply", rule="10 Fort levels each", section="COMPONENTS"
        )
    if a.fort_owner not in (-1, w.seat):
        return IllegalAction(
            f"{area_id} already holds another player's Fort: there can never be more than 1 Fort in any area",
            rule="never more than 1 Fort in an area",
            section="REWARDS AND CONSEQUENCES",
        )
    if a.fort_levels >= MAX_LEVELS:
        return IllegalAction(
            f"the Fort in {area_id} already has {MAX_LEVELS} levels: a Fort has at most {MAX_LEVELS} levels",
            rule="a Fort has at most 3 levels",
            section="FORT LEVELS",
        )
    if w.existing_only and a.fort_owner != w.seat:
        return IllegalAction(
            f"this effect adds a level only to one of your existing Forts, and {area_id} holds none",
            rule="onto an existing Fort only",
            section=SECTION_EFFECT,
        )
    if not _in_reach(state, w, area_id):
        if w.where == "controlled":
            return IllegalAction(
                f"you did not control {area_id} when you began adding these Fort levels: they go "
                "only into areas you control",
                rule="build in controlled areas",
                section="FORTIFY",
            )
        return IllegalAction(
            f"this effect builds only in {_WHERE_WORDS.get(w.where, w.where)} that you control",
            rule="the effect's areas",
            section=SECTION_EFFECT,
        )
    have = units.on_board(state, w.seat)
    if have < w.costs[0]:
        return IllegalAction(
            f"this Fort level costs {w.costs[0]} Followers and you have only {have} on the board",
            rule="pay a Fort level in full",
            section="FORTIFY",
        )
    return None


def _build_options(state: GameState, w: FortWork) -> tuple[Action, ...]:
    if not w.costs:
        return ()
    # the predicates of ``refusal``, without building refusals (every area of ``state.areas`` is in play)
    if state.players[w.seat].forts <= 0 or units.on_board(state, w.seat) < w.costs[0]:
        return ()
    return with_stop(
        tuple(
            BuildFortLevel(area=a.id)
            for a in state.areas
            if a.fort_owner in (-1, w.seat)
            and a.fort_levels < MAX_LEVELS
            and not (w.existing_only and a.fort_owner != w.seat)
            and _in_reach(state, w, a.id)
        ),
        not w.must,
    )


def _build_refusal(state: GameState, w: FortWork, action: BuildFortLevel) -> Refusal:
    return refusal(state, w, action.area)


def _build(state: GameState, w: FortWork, action: BuildFortLevel | Done, ev: Events) -> GameState:
    if isinstance(action, Done):
        return stop(state, w, ev)
    state = units.add_fort_level(state, w.seat, action.area)
    ev.append(E.FortLevelBuilt(seat=w.seat, area=action.area, levels=board.area(state, action.area).fort_levels))
    rest = replace(w, costs=w.costs[1:])
    if w.costs[0] <= 0:
        return replace(state, work=rest)
    return replace(state, work=FortPayWork(seat=w.seat, owed=w.costs[0], rest=rest))


BUILD_FORT_LEVEL = Rule(FortWork, (BuildFortLevel,), _build_options, _build_refusal, _build)


def _pay_options(state: GameState, w: FortPayWork) -> tuple[Action, ...]:
    """The level is built: its cost must be paid in full, one Follower at a time."""
    if w.owed <= 0:
        return ()
    # the predicates of ``_pay_refusal`` (every area of ``state.areas`` is in play)
    return tuple(PayFollower(area=a.id) for a in state.areas if a.followers[w.seat] > 0)


def _pay_refusal(state: GameState, w: FortPayWork, action: PayFollower) -> Refusal:
    """Why a Follower can't pay for a Fort level from ``action.area``."""
    if action.area not in board.area_index(state):
        return IllegalAction(f"{action.area} is not an area in play", rule="areas in play", section="SETUP")
    if board.area(state, action.area).followers[w.seat] <= 0:
        return IllegalAction(
            f"you have no Follower in {action.area} to remove", rule="pay with your own Followers", section="FORTIFY"
        )
    return None


def _pay(state: GameState, w: FortPayWork, action: PayFollower, ev: Events) -> GameState:
    """FORTIFY: removed Followers go back to the supply (not to Limbo); once paid, the next level."""
    state = units.remove(state, w.seat, action.area, 1)
    ev.append(E.FollowerRemoved(seat=w.seat, area=action.area, for_fort=True))
    owed = w.owed - 1
    return replace(state, work=replace(w, owed=owed) if owed > 0 else w.rest)


PAY_FORT_LEVEL = Rule(FortPayWork, (PayFollower,), _pay_options, _pay_refusal, _pay)
