"""Load and validate a content pack.

A pack is a folder of TOML files, each decoded into a typed Struct of ``schema``. Any problem
raises ``ContentError`` naming the file, the entry and the field. Beyond types, the loader
checks references (symbols, actions, Night spaces, suits) and the counts the rulebook gives.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec

from nctui.platform.safeio import BadInput, check_depth, read_bounded

from . import schema as s

PACKS_DIR = Path(__file__).parent / "packs"
MAX_BYTES = 16 * 1024 * 1024  # the base pack's largest file is ~100 KB

# file name -> (attribute of Pack, schema type)
FILES: dict[str, tuple[str, type]] = {
    "pack.toml": ("info", s.PackInfo),
    "board.toml": ("board", s.Board),
    "matrix.toml": ("matrix", s.Matrix),
    "tracks.toml": ("tracks", s.Tracks),
    "cards.toml": ("cards", s.Cards),
}


class ContentError(ValueError):
    """A content file is missing, malformed or inconsistent."""

    def __init__(self, file: str, entry: str, problem: str) -> None:
        self.file, self.entry, self.problem = file, entry, problem
        super().__init__(f"{file}: {entry}: {problem}")


class SideMap(msgspec.Struct, frozen=True, kw_only=True):
    """A board side with what the grid implies: adjacency and the Cathedral's neighbours."""

    side: s.BoardSide
    adjacency: tuple[tuple[str, tuple[str, ...]], ...]  # area id -> adjacent area ids
    adjacent_cathedral: frozenset[str]
    cells: tuple[tuple[str, int, int], ...]  # (area id or "#", row, col)
    rows: int
    cols: int


class Pack(msgspec.Struct, frozen=True, kw_only=True):
    info: s.PackInfo
    board: s.Board
    matrix: s.Matrix
    tracks: s.Tracks
    cards: s.Cards
    sides: tuple[SideMap, ...]
    digest: str  # sha256 of the files, recorded in saves


def _read(path: Path) -> bytes:
    """The file's bytes: a regular file only, at most MAX_BYTES (never a FIFO or a device)."""
    try:
        return read_bounded(path, MAX_BYTES)
    except BadInput as exc:
        raise ContentError(
            path.name, "(file)", "cannot read: no such file" if str(exc) == "no such file" else str(exc)
        ) from exc


# Every number of a pack is a small count (the base pack's largest is 18), and no list is long (its
# longest: 96 development cards): a negative attack, 2^70 VP or a 100,000-space track is refused.
MAX_NUMBER = 99
MAX_ITEMS = 200


def _in_range(name: str, value: Any, where: str = "") -> None:
    """Raise ContentError naming the entry of ``value`` (decoded) holding a number outside
    0-``MAX_NUMBER`` or a list of more than ``MAX_ITEMS``."""
    if isinstance(value, bool) or value is None or isinstance(value, str | float):
        return
    if isinstance(value, int):
        if not 0 <= value <= MAX_NUMBER:
            raise ContentError(name, where or "(top level)", f"{value} is outside 0-{MAX_NUMBER}")
        return
    if isinstance(value, msgspec.Struct):
        for field in value.__struct_fields__:
            _in_range(name, getattr(value, field), f"{where}.{field}" if where else field)
    elif isinstance(value, tuple | list | frozenset | dict):
        if len(value) > MAX_ITEMS:
            raise ContentError(name, where or "(top level)", f"{len(value)} entries: more than {MAX_ITEMS}")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            _in_range(name, item, f"{where}[{getattr(item, 'id', key)}]")


def _decode(name: str, raw: bytes, typ: type) -> Any:
    try:
        check_depth(raw)
        decoded: Any = msgspec.toml.decode(raw, type=typ)
        _in_range(name, decoded)
        return decoded
    except BadInput as exc:
        raise ContentError(name, "(syntax)", f"the file {exc}") from exc
    except msgspec.ValidationError as exc:
        problem, _, where = str(exc).partition(" - at `")
        raise ContentError(name, _entry(raw, where.rstrip("`")) if where else "(top level)", problem) from exc
    except (msgspec.DecodeError, RecursionError) as exc:
        raise ContentError(name, "(syntax)", str(exc)) from exc
    except UnicodeDecodeError as exc:
        raise ContentError(name, "(syntax)", f"not UTF-8 text (byte {exc.start})") from exc


def _entry(raw: bytes, where: str) -> str:
    """Turn msgspec's `$.sides[0].areas[3].symbol` into `sides[small].areas[ash-nave].symbol`,
    naming list entries by their id where they have one."""
    import re
    import tomllib

    try:
        node: Any = tomllib.loads(raw.decode())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return where
    out: list[str] = []
    for name, index in re.findall(r"\.?([^.\[\]]+)?(?:\[(\d+)\])?", where.removeprefix("$")):
        if name:
            out.append(("." if out else "") + name)
            node = node.get(name) if isinstance(node, dict) else None
        if index:
            node = node[int(index)] if isinstance(node, list) and int(index) < len(node) else None
            keys = ("id", "piece", "action", "number")
            key = next((node[k] for k in keys if isinstance(node, dict) and k in node), index)
            out.append(f"[{key}]")
    return "".join(out) or where


def _grid(side: s.BoardSide, file: str) -> SideMap:
    rows = [r.split() for r in side.grid.strip().splitlines() if r.strip()]
    entry = f"sides[{side.id}].grid"
    if not rows or len({len(r) for r in rows}) != 1:
        raise ContentError(file, entry, "every grid row must have the same number of cells")
    by_cell = {a.cell: a.id for a in side.areas}
    if len(by_cell) != len(side.areas):
        raise ContentError(file, f"sides[{side.id}].areas", "two areas share a cell code")
    cells: list[tuple[str, int, int]] = []
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            if code == ".":
                continue
            if code == "#":
                cells.append(("#", r, c))
            elif code in by_cell:
                cells.append((by_cell[code], r, c))
            else:
                raise ContentError(file, entry, f"cell code {code!r} at row {r} col {c} is no area")
    at = {(r, c): a for a, r, c in cells}
    adj: dict[str, set[str]] = {a.id: set() for a in side.areas}
    near_cathedral: set[str] = set()
    for (r, c), a in at.items():
        for dr, dc in ((0, 1), (1, 0)):
            b = at.get((r + dr, c + dc))
            if b is None or b == a:
                continue
            if "#" in (a, b):
                near_cathedral.add(b if a == "#" else a)
            else:
                adj[a].add(b)
                adj[b].add(a)
    for area in side.areas:
        if area.id not in {a for a, _, _ in cells}:
            raise ContentError(file, f"sides[{side.id}].areas[{area.id}]", "has no cell in the grid")
        if not _connected([(r, c) for a, r, c in cells if a == area.id]):
            raise ContentError(file, f"sides[{side.id}].areas[{area.id}]", "its cells are not connected")
    return SideMap(
        side=side,
        adjacency=tuple((a, tuple(sorted(adj[a]))) for a in sorted(adj)),
        adjacent_cathedral=frozenset(near_cathedral),
        cells=tuple(cells),
        rows=len(rows),
        cols=len(rows[0]),
    )


def _connected(points: list[tuple[int, int]]) -> bool:
    todo, seen = [points[0]], {points[0]}
    pts = set(points)
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in pts and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(pts)


def load_pack(folder: Path | str, *, cached: bool = False) -> Pack:
    """Read, decode and validate the pack in ``folder``; with ``cached``, a pack validated
    before from the same files comes from the cache (``content.cache``) instead."""
    folder = Path(folder)
    if cached:
        from . import cache

        pack_stamp = cache.pack_stamp(folder, FILES)
        pack = cache.load(pack_stamp) if pack_stamp is not None else None
        if pack is None:
            pack = load_pack(folder)
            if pack_stamp is not None:
                cache.store(pack_stamp, pack)
        return pack
    import hashlib  # here, not at the top: a start-up that finds its pack cached hashes nothing

    raws: dict[str, bytes] = {}
    digest = hashlib.sha256()
    for name in FILES:
        path = folder / name
        if not path.exists():
            raise ContentError(name, "(file)", f"missing from pack folder {folder}")
        raws[name] = _read(path)
        digest.update(name.encode() + b"\0" + raws[name])
    parts: dict[str, Any] = {attr: _decode(name, raws[name], typ) for name, (attr, typ) in FILES.items()}
    sides = tuple(_grid(side, "board.toml") for side in parts["board"].sides)
    pack = Pack(**parts, sides=sides, digest=digest.hexdigest())
    from .validate import validate

    validate(pack)
    return pack


_CACHE: dict[str, Pack] = {}
PACK_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a pack's folder name


def register(pack: Pack) -> None:
    """Make a pack available by id (tests register hand-built packs this way)."""
    _CACHE[pack.info.id] = pack


def known_pack(pack_id: str) -> bool:
    """Whether ``pack_id`` names a pack folder (the name checked first: never a path)."""
    try:
        return bool(PACK_ID.fullmatch(pack_id)) and (PACKS_DIR / pack_id).is_dir()
    except OSError:
        return False


def get_pack(pack_id: str = "base") -> Pack:
    """The pack with this id, loaded once from ``packs/<id>`` and then shared."""
    if pack_id not in _CACHE:
        if not known_pack(pack_id):
            raise ContentError(pack_id[:64] + ("…" if len(pack_id) > 64 else ""), "(pack)", "no such content pack")
        folder = PACKS_DIR / pack_id
        pack = load_pack(folder, cached=True)
        if pack.info.id != pack_id:
            raise ContentError("pack.toml", "id", f"says {pack.info.id!r}, folder is {pack_id!r}")
        _CACHE[pack_id] = pack
    return _CACHE[pack_id]


def counts(items: Any, key: str) -> Counter:
    return Counter(getattr(i, key) for i in items)
