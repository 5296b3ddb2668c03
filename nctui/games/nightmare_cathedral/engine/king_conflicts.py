"""The King of Horrors' desired conflicts after its Maneuver (solo rulebook: MANEUVER 1-5).

The King draws Area Selection cards and, in each area drawn, resolves the conflicts it finds
desirable (``king_combat.desirable``), those involving you first, up to 3 conflicts or 3 cards.
A conflict may wait for your cards, so the loop's progress waits in a frame (``KingLoop``)
whose continuation counts the result and goes on.
"""

from __future__ import annotations

from msgspec.structs import replace

from nctui.platform import rng

from . import board, conflict, events as E
from .effects import push
from .events import Event
from .king import area_selection_cards, king
from .king_combat import desirable, margin, possible, you
from .king_dreams import place_on_dream
from .state import GameState
from .work import ConflictWork, Frame, KingConflicts, KingLoop

Events = list[Event]
MAX_CONFLICTS = 3  # MANEUVER 5: 3 conflicts resolved or 3 cards drawn


def wanted(state: GameState, area_id: str, skip: tuple[tuple[int, int], ...] = ()) -> tuple[tuple[int, int], ...]:
    """MANEUVER 3: its desired conflicts in the area, those involving you first, then the most
    in its favour."""
    seat = you(state)
    pairs = [p for p in possible(state, area_id) if p not in skip and desirable(state, area_id, p)]
    return tuple(sorted(pairs, key=lambda p: (seat not in p, -margin(state, area_id, p))))


def king_conflicts(state: GameState, then: KingConflicts, ev: Events) -> GameState:
    """MANEUVER 1-5, once its MP are spent."""
    return _loop(state, KingLoop(), ev)


def _loop(state: GameState, p: KingLoop, ev: Events) -> GameState:
    seat = king(state).seat
    if p.resolved >= MAX_CONFLICTS:
        return state
    if p.area and (pairs := wanted(state, p.area, p.fought)):
        return _fight(state, p, pairs[0], ev)
    cards = tuple(c for c in _area_cards(state) if c not in p.drawn and possible(state, c))
    if len(p.drawn) >= MAX_CONFLICTS or not cards:
        ev.append(E.KingConflictsEnd(seat=seat, resolved=p.resolved))
        return state
    deck, r = rng.shuffle(state.rng, cards)
    state = replace(state, rng=r)
    area = deck[0]
    ev.append(E.KingConflictCard(seat=seat, area=area))
    p = replace(p, drawn=p.drawn + (area,), area=area, fought=())
    if not wanted(state, area):
        ev.append(E.KingConflictSkipped(seat=seat, area=area))
    return _loop(state, p, ev)


def _area_cards(state: GameState) -> tuple[str, ...]:
    return tuple(c for c in area_selection_cards(state) if c in board.area_index(state))


def _fight(state: GameState, p: KingLoop, sides: tuple[int, int], ev: Events) -> GameState:
    seat = king(state).seat
    wins = (state.players[seat].conflicts_won, state.players[you(state)].conflicts_won)
    p = replace(p, sides=sides, wins=wins, fought=p.fought + (sides,))
    state = push(state, Frame(seat=seat, steps=(), source="king_conflicts", then=p))
    return conflict.begin(state, ConflictWork(seat=seat, left=1), p.area, sides, ev)


def conflict_done(state: GameState, then: KingLoop, ev: Events) -> GameState:
    """MANEUVER: a Cultist on a Dream for each conflict the King wins, or not involving it, you lose."""
    seat = king(state).seat
    king_won = state.players[seat].conflicts_won > then.wins[0]
    you_lost = seat not in then.sides and state.players[you(state)].conflicts_won == then.wins[1]
    if king_won or you_lost:
        state = place_on_dream(state, ev, "conflict")
    return _loop(state, replace(then, resolved=then.resolved + 1), ev)
