"""Practice: positions to play again and again. The bundled ones (``positions/``: the
rulebooks' worked examples and a few more) and the user's own scenarios (``saves.scenario_dir``,
where ``x`` in a game saves one). Scenario files are described in docs/scenarios.md.

Listing reads only each file's ``[scenario]`` table (its name and description); a file that
cannot be read is listed with the reason, so a broken file of one's own is not silently missing.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from nctui.platform import saves
from nctui.platform.game import Position
from nctui.platform.safeio import BadInput, read_bounded

BUNDLED = Path(__file__).resolve().parent / "positions"
SUFFIX = ".toml"
MAX_BYTES = 1024 * 1024  # as nctui.games.nightmare_cathedral.scenarios: a scenario file is a few KB


class _Info(msgspec.Struct, frozen=True):
    name: str = ""
    description: str = ""


class _Head(msgspec.Struct, frozen=True):
    scenario: _Info = _Info()


def read_position(path: Path, *, own: bool) -> Position:
    """The name and description of a scenario file (its file name when it names none)."""
    title = path.name.removesuffix(SUFFIX)
    try:
        head = msgspec.toml.decode(read_bounded(path, MAX_BYTES), type=_Head)
    except (BadInput, msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, RecursionError) as exc:
        return Position(path, title, "", own, saves.one_line(str(exc)))
    return Position(path, head.scenario.name or title, head.scenario.description, own)


def positions(folder: Path | str | None = None) -> list[Position]:
    """The bundled positions, then the user's own (in ``saves.scenario_dir(folder)``), by file name."""
    own_dir = saves.scenario_dir(folder)
    own = sorted(own_dir.glob(f"*{SUFFIX}")) if own_dir.is_dir() else []
    return [read_position(p, own=False) for p in sorted(BUNDLED.glob(f"*{SUFFIX}"))] + [
        read_position(p, own=True) for p in own if p.is_file()
    ]
