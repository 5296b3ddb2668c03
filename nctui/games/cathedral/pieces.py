"""The buildings of Cathedral as data (``pieces.toml``) and their placements on the 10x10 city.

Rule 2: "a move consists of placing a building anywhere in the city so that it is lined up with
the squares". The city is a 100-bit mask (bit ``row * 10 + col``); a placement is the mask of
the squares it covers. A building turns to any of its four rotations; it is not turned over
(a building has a top), so the chiral Abbey and Academy of Dark are the mirror images of Light's,
as in the published sets (docs/cathedral.md).
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files

import msgspec

SIZE = 10
FULL = (1 << (SIZE * SIZE)) - 1
LIGHT, DARK = 0, 1
CATHEDRAL = "cathedral"

Cells = tuple[tuple[int, int], ...]  # (row, col), sorted, the top-left at row 0 and col 0


class Building(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    shape: list[str]
    copies: int = 1
    chiral: bool = False


class CathedralPiece(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    shape: list[str]


class PieceSet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cathedral: CathedralPiece
    building: list[Building]


class Placement(msgspec.Struct, frozen=True):
    """One building turned one way (``turn``) with its top-left corner at (row, col)."""

    turn: int
    row: int
    col: int
    mask: int


class PieceError(ValueError):
    """The piece data is wrong (one line, naming the building)."""


def _cells(shape: list[str], what: str) -> Cells:
    cells = tuple(sorted((r, c) for r, line in enumerate(shape) for c, ch in enumerate(line) if ch == "#"))
    if not cells or any(ch not in ".#" for line in shape for ch in line):
        raise PieceError(f"{what}: a shape is rows of '#' and '.' with at least one '#'")
    if not _connected(cells):
        raise PieceError(f"{what}: the squares of a building meet side to side")
    return _normal(cells)


def _connected(cells: Cells) -> bool:
    todo, seen = [cells[0]], {cells[0]}
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def _normal(cells: Cells) -> Cells:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


@cache
def turns(cells: Cells) -> tuple[Cells, ...]:
    """The distinct rotations of a shape, in a fixed order (the first is the shape as drawn)."""
    out: list[Cells] = []
    shape = cells
    for _ in range(4):
        if shape not in out:
            out.append(shape)
        shape = _normal(tuple((c, -r) for r, c in shape))  # a quarter turn clockwise
    return tuple(out)


@cache
def pivots(cells: Cells) -> tuple[tuple[int, int], ...]:
    """For each of ``turns(cells)``, where the square nearest the shape's middle lies in it: the
    square a turn keeps still (the screen turns a building about it, so it turns in place)."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    middle = ((min(rows) + max(rows)) / 2, (min(cols) + max(cols)) / 2)
    pivot = min(cells, key=lambda rc: (abs(rc[0] - middle[0]) + abs(rc[1] - middle[1]), rc))
    out = []
    shape, square = cells, pivot
    for _ in range(len(turns(cells))):
        out.append(square)
        turned = tuple((c, -r) for r, c in shape)  # a quarter turn clockwise, as ``turns``
        top, left = min(r for r, _ in turned), min(c for _, c in turned)
        shape = _normal(turned)
        square = (square[1] - top, -square[0] - left)
    return tuple(out)


def mirror(cells: Cells) -> Cells:
    return _normal(tuple((r, -c) for r, c in cells))


def load(text: str | None = None) -> PieceSet:
    """The piece set (``pieces.toml`` unless ``text``), checked: unique ids, shapes that fit the
    city, side-to-side squares."""
    raw = files(__package__).joinpath("pieces.toml").read_text(encoding="utf-8") if text is None else text
    try:
        pieces = msgspec.convert(tomllib.loads(raw), PieceSet)
    except (tomllib.TOMLDecodeError, msgspec.ValidationError) as exc:
        raise PieceError(f"pieces.toml: {exc}") from None
    ids = [b.id for b in pieces.building]
    if len(set(ids)) != len(ids) or CATHEDRAL in ids:
        raise PieceError("pieces.toml: building ids must be unique and not 'cathedral'")
    for b in pieces.building:
        if b.copies < 1:
            raise PieceError(f"{b.id}: copies must be at least 1")
        _cells(b.shape, b.id)
    _cells(pieces.cathedral.shape, CATHEDRAL)
    return pieces


@cache
def piece_set() -> PieceSet:
    return load()


@cache
def shape_of(building: str, colour: int) -> Cells:
    """The shape of ``building`` in ``colour``'s set (Dark's chiral buildings mirrored)."""
    if building == CATHEDRAL:
        return _cells(piece_set().cathedral.shape, CATHEDRAL)
    b = building_named(building)
    cells = _cells(b.shape, b.id)
    return mirror(cells) if b.chiral and colour == DARK else cells


@cache
def building_named(building: str) -> Building:
    for b in piece_set().building:
        if b.id == building:
            return b
    raise KeyError(building)


def name_of(building: str) -> str:
    return piece_set().cathedral.name if building == CATHEDRAL else building_named(building).name


def size_of(building: str) -> int:
    return len(shape_of(building, LIGHT))


@cache
def starting_supply() -> tuple[str, ...]:
    """Each side's buildings, largest first (rule 1: all of them are to be placed)."""
    out = [b.id for b in piece_set().building for _ in range(b.copies)]
    return tuple(sorted(out, key=lambda i: (-size_of(i), i)))


def mask_of(cells: Cells, row: int, col: int) -> int:
    mask = 0
    for r, c in cells:
        mask |= 1 << ((row + r) * SIZE + col + c)
    return mask


@cache
def placements(building: str, colour: int) -> tuple[Placement, ...]:
    """Every way ``building`` lies in the city lined up with the squares."""
    out = []
    for t, cells in enumerate(turns(shape_of(building, colour))):
        height = 1 + max(r for r, _ in cells)
        width = 1 + max(c for _, c in cells)
        for row in range(SIZE - height + 1):
            for col in range(SIZE - width + 1):
                out.append(Placement(t, row, col, mask_of(cells, row, col)))
    return tuple(out)


@cache
def placement(building: str, colour: int, turn: int, row: int, col: int) -> Placement | None:
    """The placement named by an action, or None when it does not lie inside the city."""
    shapes = turns(shape_of(building, colour))
    if not 0 <= turn < len(shapes):
        return None
    cells = shapes[turn]
    if any(not (0 <= row + r < SIZE and 0 <= col + c < SIZE) for r, c in cells):
        return None
    return Placement(turn, row, col, mask_of(cells, row, col))


def squares(mask: int) -> list[tuple[int, int]]:
    """The (row, col) of every square in a mask."""
    out = []
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        out.append(divmod(i, SIZE))
        mask ^= low
    return out
