"""The King of Horrors commands Nightmares (solo rulebook: COMMANDING NIGHTMARES, DEVOURING UNITS).

The King commands the Nightmare without its marker Cultist, then moves the marker onto it, and
resolves that Nightmare's King's Nightmare card ``times`` times: a move (Area Selection cards
among several areas; none: a random adjacent area and the ``failure`` effect), then the effect
in the Nightmare's area. Its steps resolve automatically; a conflict waits for your cards, so
the resolution's progress waits in a frame (``KingCommandResume``) and resumes afterwards.
"""

from __future__ import annotations

from msgspec.structs import replace

from ..content import schema as cs
from . import board, conflict, events as E, units
from .effects import push
from .events import Event
from .king import king, king_climbs, king_draws, select_area, set_king
from .king_combat import margin, possible, you
from .nightmares import CATHEDRAL, candidates, devour, location, reachable, set_location
from .state import GameState
from .work import ConflictWork, Frame, KingCommand, KingCommandResume

Events = list[Event]
SHADOWS = board.SHADOWS_SIDE


def king_card(state: GameState, number: int) -> cs.KingNightmareCard | None:
    return next((c for c in board.pack(state).cards.king_nightmares if c.number == number), None)


def king_command_nightmare(state: GameState, then: KingCommand, ev: Events) -> GameState:
    """COMMANDING NIGHTMARES: the King commands the Nightmare without its marker Cultist."""
    k = king(state)
    if state.stage < 2 or len(state.nightmares) < 2:
        return state
    if all((k.seat, n) in state.commanded for n in state.nightmares):
        ev.append(E.KingNightmareSkipped(seat=k.seat, why="both"))
        return state
    if state.commanding:  # a Nightmare ability brought the King here: no other command
        ev.append(E.KingNightmareSkipped(seat=k.seat, why="commanding"))
        return state
    i = 1 - k.nightmare_marker
    n = state.nightmares[i]
    card = king_card(state, n)
    if card is None or not location(state, n):
        return state
    ev.append(E.KingCommandsNightmare(seat=k.seat, number=n))
    state = set_king(state, replace(k, nightmare_marker=i))
    state = replace(state, commanded=state.commanded + ((k.seat, n),), commanding=n, visited=(location(state, n),))
    times = max(1, card.times - 1) if "easier_nightmare" in state.config.difficulty else card.times
    return _run(state, KingCommandResume(number=n, left=times), ev)


def _run(state: GameState, p: KingCommandResume, ev: Events) -> GameState:
    card = king_card(state, p.number)
    assert card is not None
    while p.left > 0:
        if p.step < 0:
            state, failed = _move(state, card, ev)
            p = replace(p, step=0, failed=failed)
        steps = (card.failure if p.failed else card.effect).steps
        if p.step >= len(steps):
            p = replace(p, left=p.left - 1, step=-1)
            continue
        step, p = steps[p.step], replace(p, step=p.step + 1)
        if isinstance(step, cs.ResolveConflicts):
            started = _conflict(state, p, ev)
            if started is not None:
                return started
            continue
        state = _resolve_step(state, step, ev)
    return _end(state, card, ev)


def _end(state: GameState, card: cs.KingNightmareCard, ev: Events) -> GameState:
    n = state.commanding
    if card.returns:
        ev.append(E.NightmareReturns(seat=king(state).seat, number=n, source=location(state, n)))
        state = set_location(state, n, CATHEDRAL)
    return replace(state, commanding=0, visited=())


def _move(state: GameState, card: cs.KingNightmareCard, ev: Events) -> tuple[GameState, bool]:
    """Into an adjacent area matching ``toward`` (Area Selection cards among several; areas it
    has been to excluded); with none, into a random adjacent area, and the resolution fails."""
    seat = king(state).seat
    move = cs.NightmareMove(toward=card.toward, anywhere=card.anywhere)
    fits = candidates(state, seat, move)
    failed = not fits
    if failed:
        fits = reachable(state, replace(move, toward="any")) or _adjacent(state)
    if not fits:
        return state, True
    to, state = select_area(state, fits, "nightmare", ev)
    n = state.commanding
    ev.append(E.NightmareMoves(seat=seat, number=n, source=location(state, n), to=to))
    if failed:
        ev.append(E.KingNightmareFailure(seat=seat, number=n, area=to))
    return replace(set_location(state, n, to), visited=state.visited + (to,)), failed


def _adjacent(state: GameState) -> tuple[str, ...]:
    here = location(state, state.commanding)
    if here == CATHEDRAL:
        return tuple(a.id for a in state.areas if board.adjacent_to_cathedral(state, a.id))
    return tuple(board.adjacent(state, here))


def _here(state: GameState) -> str:
    return location(state, state.commanding)


def _resolve_step(state: GameState, step: cs.Step, ev: Events) -> GameState:
    """The King's Nightmare effects: devour, climb, draw, add Shadows, in the Nightmare's area."""
    if isinstance(step, cs.Devour):
        for _ in range(step.count):
            side = devour_choice(state, _here(state), step.whose)
            if side is None:
                ev.append(E.NothingToDevour(seat=king(state).seat, area=_here(state)))
                break
            state = devour(state, king(state).seat, _here(state), side, ev)
        return state
    if isinstance(step, cs.Climb):  # one step at a time: the harder double climb is for Cathedral pieces only
        for _ in range(max(1, step.free)):
            state = king_climbs(state, "nightmare", ev, steps=1)
        return state
    if isinstance(step, cs.Draw):
        return king_draws(state, step.count, ev)
    if isinstance(step, cs.AddShadows):
        n = min(step.count, state.shadows, units.room(state, SHADOWS, _here(state)))
        if n > 0:
            state = units.place(state, SHADOWS, _here(state), n)
            ev.append(E.ShadowAdded(seat=king(state).seat, area=_here(state), count=n))
        return state
    ev.append(E.KingEffectSkipped(seat=king(state).seat, step=str(type(step).__struct_config__.tag)))
    return state


def devour_order(state: GameState) -> tuple[int, ...]:
    """DEVOURING UNITS: its own Followers first while it has devoured no more Followers than you,
    or no more than the Shadows devoured; otherwise the Shadows before your Followers."""
    seat, other = king(state).seat, you(state)
    mine = state.players[seat].devoured
    if mine <= state.players[other].devoured or mine <= state.devoured_shadows:
        return (seat, SHADOWS, other)
    return (SHADOWS, other, seat)


def devour_choice(state: GameState, area_id: str, whose: str) -> int | None:
    seat = king(state).seat
    allowed = {
        "any": lambda s: True,
        "shadows": lambda s: s == SHADOWS,
        "own": lambda s: s == seat,
        "opponents": lambda s: s >= 0 and s != seat,
    }[whose]
    a = board.area(state, area_id)
    return next((s for s in devour_order(state) if allowed(s) and units.count(a, s) > 0), None)


def _conflict(state: GameState, p: KingCommandResume, ev: Events) -> GameState | None:
    """ "Resolve 1 conflict there": the one most in the King's favour (those involving you first);
    none possible: nothing happens. The rest of the resolution waits in a frame."""
    seat = king(state).seat
    area = _here(state)
    pairs = possible(state, area)
    if not pairs:
        ev.append(E.NoConflictPossible(seat=seat, left=1, area=area))
        return None
    sides = min(pairs, key=lambda s: (you(state) not in s, -margin(state, area, s)))
    state = push(state, Frame(seat=seat, steps=(), source="king_nightmare", then=p))
    return conflict.begin(state, ConflictWork(seat=seat, left=1), area, sides, ev)


def resume(state: GameState, then: KingCommandResume, ev: Events) -> GameState:
    if not state.commanding:  # the conflict's effects ended the command (never with the base pack)
        state = replace(state, commanding=then.number)
    return _run(state, then, ev)
