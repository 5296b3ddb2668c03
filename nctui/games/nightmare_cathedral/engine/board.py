"""KEY CONCEPTS: the board's geometry, area control, presence, Marked Areas."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import Generic, TypeVar

from ..content.loader import Pack, SideMap, get_pack
from .state import AreaState, GameState

SHADOWS_SIDE = -2  # a "side" index for the Shadows
NO_SIDE = -1
NO_FORT = -99  # a seat no Fort belongs to (fort_owner is -1 for "no Fort")
CATHEDRAL = "cathedral"  # where a Nightmare stands in the Cathedral space (GameState.nightmare_at)

P = TypeVar("P")
V = TypeVar("V")


def pack(state: GameState) -> Pack:
    return get_pack(state.pack)


def side_for(p: Pack, players: int) -> SideMap:
    """SETUP 1: the board side for the number of players (solo uses the 1-2 side)."""
    for sm in p.sides:
        if players in sm.side.players:
            return sm
    raise LookupError(f"content pack {p.info.id!r} has no board side for {players} players")


def side_map(state: GameState) -> SideMap:
    return _side(state.pack, state.board_side)


@cache
def _side(pack_id: str, side_id: str) -> SideMap:
    for sm in get_pack(pack_id).sides:
        if sm.side.id == side_id:
            return sm
    raise LookupError(side_id)


@cache
def _adjacency(pack_id: str, side_id: str) -> dict[str, tuple[str, ...]]:
    return dict(_side(pack_id, side_id).adjacency)


@cache
def _symbols(pack_id: str, side_id: str) -> dict[str, str]:
    return {a.id: a.symbol for a in _side(pack_id, side_id).side.areas}


def adjacent(state: GameState, area: str) -> tuple[str, ...]:
    """Areas in play adjacent to ``area`` (covered areas are not in play). The table of a game's
    areas in play is remembered by the identity of its area index (one per set of ids)."""
    index = area_index(state)
    known = _near_memo.get(id(index))
    if known is None or known[0] is not index or known[1] != state.pack or known[2] != state.board_side:
        near = _neighbours(state.pack, state.board_side, tuple(index))
        if len(_near_memo) >= _MEMO_SIZE:
            _near_memo.clear()
        known = _near_memo[id(index)] = (index, state.pack, state.board_side, near)
    return known[3][area]


_near_memo: dict[int, tuple[dict[str, int], str, str, dict[str, tuple[str, ...]]]] = {}


@cache
def _neighbours(pack_id: str, side_id: str, in_play: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    ids = set(in_play)
    return {a: tuple(b for b in near if b in ids) for a, near in _adjacency(pack_id, side_id).items()}


def symbol_of(state: GameState, area: str) -> str:
    return _symbols(state.pack, state.board_side)[area]


def symbols(state: GameState) -> dict[str, str]:
    """Each area's symbol by id (read, never changed)."""
    return _symbols(state.pack, state.board_side)


def is_corner(state: GameState, area: str) -> bool:
    return area in _corners(state.pack, state.board_side)


@cache
def _corners(pack_id: str, side_id: str) -> frozenset[str]:
    return frozenset(a.id for a in _side(pack_id, side_id).side.areas if a.corner)


def adjacent_to_cathedral(state: GameState, area: str) -> bool:
    return area in side_map(state).adjacent_cathedral


class identity_memo(Generic[P, V]):  # lower case: it is used as a decorator
    """Remember ``fn(part)`` by the identity of ``part``, a tuple or frozen Struct of the state
    (immutable all the way down). Consecutive states share every part a decision left alone
    (they are made with ``replace``), so a part is read once, not after every decision. An
    entry holds its part: its id cannot go to another object while the entry lives, and a part
    found by id is checked to be the same object anyway. ``remember(value, part)`` records a
    value known without calling ``fn``."""

    __slots__ = ("fn", "memo")

    def __init__(self, fn: Callable[[P], V]) -> None:
        self.fn = fn
        self.memo: dict[int, tuple[P, V]] = {}

    def remember(self, value: V, part: P) -> None:
        if len(self.memo) >= _MEMO_SIZE:
            self.memo.clear()  # cheaper than tracking age: a forgotten part is read again once
        self.memo[id(part)] = (part, value)

    def __call__(self, part: P) -> V:
        known = self.memo.get(id(part))
        if known is not None and known[0] is part:
            return known[1]
        value = self.fn(part)
        self.remember(value, part)
        return value


_MEMO_SIZE = 256  # entries per memo: the parts of the last hundred positions or so, a few hundred KB at most


def area_index(state: GameState) -> dict[str, int]:
    """Each area in play by id: its place in ``state.areas``. Asked several times per decision;
    the areas in play never change during a game (SETUP 2) and ``replace_area`` hands the index
    on to the tuple it makes, so the ids are mostly not read at all."""
    return _area_index(state.areas)


@identity_memo
def _area_index(areas: tuple[AreaState, ...]) -> dict[str, int]:
    return _index(tuple(a.id for a in areas))


@lru_cache(maxsize=64)
def _index(ids: tuple[str, ...]) -> dict[str, int]:
    return {a: i for i, a in enumerate(ids)}


def area(state: GameState, area_id: str) -> AreaState:
    areas = state.areas
    known = _area_index.memo.get(id(areas))  # ``area_index`` inlined: asked very often
    if known is not None and known[0] is areas:
        return areas[known[1][area_id]]
    return areas[_area_index(areas)[area_id]]


def units(a: AreaState) -> int:
    return sum(a.followers) + a.shadows


def is_empty(a: AreaState) -> bool:
    """No units and no Fort: controlled by Shadows (AREA CONTROL)."""
    return units(a) == 0 and a.fort_levels == 0


def controller(a: AreaState) -> int:
    """AREA CONTROL: a seat, SHADOWS_SIDE, or NO_SIDE for a tie."""
    if a.fort_levels > 0:
        return a.fort_owner
    if units(a) == 0:
        return SHADOWS_SIDE
    counts = list(a.followers) + [a.shadows]
    best = max(counts)
    if counts.count(best) > 1:
        return NO_SIDE
    i = counts.index(best)
    return SHADOWS_SIDE if i == len(a.followers) else i


def sides_in(a: AreaState) -> tuple[int, ...]:
    """The sides with units and/or Forts in an area: seats in order, then the Shadows."""
    owner = a.fort_owner  # ``present`` for each seat, inlined
    sides = [s for s, n in enumerate(a.followers) if n > 0 or s == owner]
    if a.shadows:
        sides.append(SHADOWS_SIDE)
    return tuple(sides)


def present(a: AreaState, seat: int) -> bool:
    """AREA PRESENCE: at least 1 Fort or 1 Follower."""
    return a.followers[seat] > 0 or a.fort_owner == seat


def marked_symbol(state: GameState) -> str:
    """MARKED AREA: the symbol under the Turn marker."""
    if state.turn_pos < 0:
        return ""
    return pack(state).tracks.turn[state.turn_pos]


def marked_areas(state: GameState) -> tuple[str, ...]:
    sym = marked_symbol(state)
    return tuple(a.id for a in state.areas if symbol_of(state, a.id) == sym)


def turn_owner(state: GameState, position: int) -> int:
    """SETUP 8: Player markers fill the Turn track clockwise from the Starting marker, one seat
    per position in table order, beginning with the first player."""
    n = len(state.players)
    track = len(pack(state).tracks.turn)
    return (state.first_player + (position - state.turn_start) % track) % n


def replace_area(state: GameState, new: AreaState) -> tuple[AreaState, ...]:
    index = area_index(state)
    i = index[new.id]
    areas = state.areas[:i] + (new,) + state.areas[i + 1 :]
    _area_index.remember(index, areas)  # the same ids in the same places
    return areas


def nightmare_areas(state: GameState) -> tuple[str, ...]:
    """CURRENT AREA: the area of the Nightmare being commanded; when none is, every area holding
    a Nightmare. A Nightmare in the Cathedral space (or still on its card) is in no area."""
    at = dict(zip(state.nightmares, state.nightmare_at))
    held = (at.get(state.commanding, ""),) if state.commanding else tuple(at.values())
    return tuple(a for a in held if a and a != CATHEDRAL)


def areas_matching(state: GameState, seat: int, where: str) -> tuple[str, ...]:
    """The areas an effect's area filter (content.schema.AreaFilter) names, for ``seat``. The
    filters that read the areas alone are remembered by the identity of ``state.areas`` (the
    areas of one game: one board side)."""
    if where not in _AREAS_ALONE:
        return _areas_matching(state, seat, where)
    areas = state.areas
    key = (id(areas), seat, where)
    known = _matching_memo.get(key)
    if known is not None and known[0] is areas:
        return known[1]
    found = _areas_matching(state, seat, where)
    if len(_matching_memo) >= _MEMO_SIZE * 4:
        _matching_memo.clear()
    _matching_memo[key] = (areas, found)
    return found


_AREAS_ALONE = frozenset(
    {"any", "controlled", "fort", "presence", "empty", "shadows", "adjacent_cathedral", "fortress", "corner"}
)
_matching_memo: dict[tuple[int, int, str], tuple[tuple[AreaState, ...], tuple[str, ...]]] = {}


def _areas_matching(state: GameState, seat: int, where: str) -> tuple[str, ...]:
    areas = state.areas
    match where:
        case "any":
            return tuple(a.id for a in areas)
        case "controlled":
            return tuple(a.id for a in areas if controller(a) == seat)
        case "fort":
            return tuple(a.id for a in areas if a.fort_owner == seat)
        case "marked" | "marked_or_fort":
            marked = set(marked_areas(state))
            fort = seat if where == "marked_or_fort" else NO_FORT
            return tuple(a.id for a in areas if a.id in marked or a.fort_owner == fort)
        case "presence":
            return tuple(a.id for a in areas if present(a, seat))
        case "empty":
            return tuple(a.id for a in areas if is_empty(a))
        case "shadows":
            return tuple(a.id for a in areas if a.shadows > 0)
        case "adjacent_cathedral":
            return tuple(a.id for a in areas if adjacent_to_cathedral(state, a.id))
        case "shaper" | "adjacent_shaper":
            shaper = state.players[seat].shaper if seat >= 0 else ""
            near = (shaper,) if where == "shaper" else adjacent(state, shaper) if shaper else ()
            return tuple(a.id for a in areas if a.id in near)
        case "fortress":
            return tuple(a.id for a in areas if a.fortress == seat)
        case "corner":
            return tuple(a.id for a in areas if is_corner(state, a.id))
        case "nightmare":
            held = nightmare_areas(state)
            return tuple(a.id for a in areas if a.id in held)
    raise ValueError(f"unknown area filter {where!r}")


def stage2_cards_added(state: GameState) -> bool:
    """The Stage II space has been resolved (THE NIGHTMARE CATHEDRAL: Stage 2 cards added to the
    game): its piece is built (from the Cathedral track, or off the Divergent Paths sideboard)."""
    stage2 = {c.piece for c in pack(state).tracks.cathedral if "stage2" in c.icons}
    return bool(stage2.intersection(state.cathedral_built))
