"""UNIT LIMIT and moving pieces between supplies, the board, Limbo and the Ritual track."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from msgspec.structs import replace

from . import board, cards
from .ops import set_player
from .state import UNIT_LIMIT, AreaState, GameState

SHADOWS = board.SHADOWS_SIDE


def follower_limits(state: GameState, seat: int) -> tuple[int, int]:
    """UNIT LIMIT: (normal limit, limit in one area) printed on the seat's current Fortify card
    (the top of its stack: an Upgrade covers for good)."""
    return _limits(state.pack, cards.action_card_id(state, seat, "fortify"))


@cache
def _limits(pack_id: str, card_id: str) -> tuple[int, int]:
    card = cards.card_in(pack_id, card_id)
    base = getattr(card, "unit_limit", 0) or UNIT_LIMIT
    return base, max(base, getattr(card, "unit_limit_one_area", 0) or 0)


def count(a: AreaState, side: int) -> int:
    return a.shadows if side == SHADOWS else a.followers[side]


def room(state: GameState, side: int, area_id: str) -> int:
    """UNIT LIMIT: how many more units of ``side`` the area may take. Shadows: 3 per area. A
    player: the limit on their Fortify card, and a higher "in one area" limit that only one of
    their areas at a time may use (still the normal limit in every other area). The King: 3, 4
    in every area once Stage 2 cards are added."""
    a = board.area(state, area_id)
    if side == SHADOWS:
        return max(0, UNIT_LIMIT - a.shadows)
    return _room(state, side, area_id, a.followers[side])


def room_after_leaving(state: GameState, side: int, source: str, to: str) -> int:
    """``room`` in ``to`` for one of the side's Followers leaving ``source`` (a move counts it
    gone from its area: it may carry a 4th Follower out of the one crowded area)."""
    return _room(state, side, to, board.area(state, to).followers[side], leaving=source)


def king_unit_limit(state: GameState) -> int:
    """SOLO, ACTION ACTIVATION: the King's Unit Limit, 3 per area, "increased to 4 per area (not for
    just one area like a player) once Stage 2 cards are added to the game" (the Stage II space)."""
    return 4 if board.stage2_cards_added(state) else 3


def _room(state: GameState, side: int, area_id: str, there: int, *, leaving: str = "") -> int:
    return max(0, limit_in(state, side)(area_id, leaving) - there)


def limit_in(state: GameState, side: int) -> Callable[[str, str], int]:
    """UNIT LIMIT: the side's limit in an area (``limit(area_id, leaving)``, ``leaving`` the area a
    moving Follower leaves, or ""): the King's in every area; a player's normal limit, or the
    higher "in one area" limit if no other of their areas already holds more than the normal
    limit. Asked once for all the areas of a position (every Follower move is checked)."""
    if state.king is not None and side == state.king.seat:
        king = king_unit_limit(state)
        return lambda area_id, leaving: king
    base, one = follower_limits(state, side)
    if one <= base:
        return lambda area_id, leaving: base
    over = [(o.id, o.followers[side]) for o in state.areas if o.followers[side] > base]

    def limit(area_id: str, leaving: str) -> int:
        crowded = any(n - (i == leaving) > base for i, n in over if i != area_id)
        return base if crowded else one

    return limit


def on_board(state: GameState, side: int) -> int:
    """The side's units in all areas of the board."""
    return sum(count(a, side) for a in state.areas)


def supply(state: GameState, side: int) -> int:
    return state.shadows if side == SHADOWS else state.players[side].supply


def _set_count(a: AreaState, side: int, n: int) -> AreaState:
    if side == SHADOWS:
        return replace(a, shadows=n)
    f = list(a.followers)
    f[side] = n
    return replace(a, followers=tuple(f))


def place(state: GameState, side: int, area_id: str, n: int = 1) -> GameState:
    """Put ``n`` units of ``side`` from its supply into the area (callers check room)."""
    a = board.area(state, area_id)
    state = replace(state, areas=board.replace_area(state, _set_count(a, side, count(a, side) + n)))
    if side == SHADOWS:
        return replace(state, shadows=state.shadows - n)
    pl = state.players[side]
    return set_player(state, replace(pl, supply=pl.supply - n))


def remove(state: GameState, side: int, area_id: str, n: int = 1, to: str = "supply") -> GameState:
    """Take ``n`` units of ``side`` off the area to its supply, Limbo ("limbo", Followers only)
    or the Ritual track ("track": paid Followers wait there until the Ritual action ends)."""
    a = board.area(state, area_id)
    state = replace(state, areas=board.replace_area(state, _set_count(a, side, count(a, side) - n)))
    if side == SHADOWS:
        return replace(state, shadows=state.shadows + n)
    pl = state.players[side]
    if to == "limbo":
        pl = replace(pl, limbo=pl.limbo + n)
    elif to == "track":
        pl = replace(pl, on_track=pl.on_track + n)
    else:
        pl = replace(pl, supply=pl.supply + n)
    return set_player(state, pl)


def from_limbo(state: GameState, seat: int, n: int = 1) -> GameState:
    """LIMBO: ``n`` of the seat's Followers leave Limbo for its supply (callers check the count)."""
    pl = state.players[seat]
    return set_player(state, replace(pl, limbo=pl.limbo - n, supply=pl.supply + n))


def refill_would_help(state: GameState, seat: int, options: Callable[[GameState], tuple]) -> bool:
    """Whether a step placing the seat's Followers from its empty supply would have ``options``
    once the Followers in its Limbo were taken back (LIMBO: "at any time"): then the step still
    asks, so that the player may take them back. The King has no Limbo: never for it."""
    pl = state.players[seat]
    if pl.supply > 0 or pl.limbo <= 0:
        return False
    return bool(options(set_player(state, replace(pl, supply=pl.limbo, limbo=0))))


def move(state: GameState, side: int, source: str, to: str, n: int = 1) -> GameState:
    a = board.area(state, source)
    state = replace(state, areas=board.replace_area(state, _set_count(a, side, count(a, side) - n)))
    b = board.area(state, to)
    return replace(state, areas=board.replace_area(state, _set_count(b, side, count(b, side) + n)))


def add_fort_level(state: GameState, seat: int, area_id: str) -> GameState:
    """One Fort level from the seat's supply (callers check FORT LEVELS and the one-Fort rule)."""
    a = board.area(state, area_id)
    state = replace(state, areas=board.replace_area(state, replace(a, fort_owner=seat, fort_levels=a.fort_levels + 1)))
    pl = state.players[seat]
    return set_player(state, replace(pl, forts=pl.forts - 1))


def remove_fort_level(state: GameState, area_id: str) -> GameState:
    """Eliminate one Fort level (back to its owner's supply). FORTRESS: the last level in a
    Fortress area can never be lost, so removing it changes nothing."""
    a = board.area(state, area_id)
    if a.fortress >= 0 and a.fort_levels <= 1:
        return state
    seat = a.fort_owner
    levels = a.fort_levels - 1
    state = replace(
        state, areas=board.replace_area(state, replace(a, fort_levels=levels, fort_owner=seat if levels else -1))
    )
    pl = state.players[seat]
    return set_player(state, replace(pl, forts=pl.forts + 1))


def over_limit(state: GameState, side: int) -> tuple[tuple[str, int], ...]:
    """(area, Followers beyond the side's Unit Limit there), for every area over it."""
    limit = limit_in(state, side)
    return tuple((a.id, n) for a in state.areas if (n := a.followers[side] - limit(a.id, "")) > 0)


def trim_to_limit(state: GameState, seat: int) -> tuple[GameState, tuple[str, ...]]:
    """UNIT LIMIT "at any time": after an Upgrade covers the Fortify card with a lower limit, the
    Followers beyond it go back to the supply, one at a time from the first area over it (the
    "in one area" limit then stays with an area still above the normal one). Returns the areas
    a Follower left, in order (docs/rules-decisions.md)."""
    left: list[str] = []
    while over := over_limit(state, seat):
        state = remove(state, seat, over[0][0])
        left.append(over[0][0])
    return state, tuple(left)
