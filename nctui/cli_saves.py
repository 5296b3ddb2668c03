"""``nctui saves``: the save folder from a shell (and for a server's admin).

``nctui saves list [--json] [--check]`` lists every save, newest first, as Continue and Load show
them; ``nctui saves check FILE…`` replays each file and prints one line per file: ``ok`` or the
reason it cannot be loaded (exit code 1 when any cannot); ``nctui saves export-room ROOM FILE``
writes a finished game of a server's rooms as a save file (``net/export.py``). Nothing else here
writes a file, and no file content, however broken, gets more than its one line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from .platform import saves

T = TypeVar("T")


def add_parser(
    make: Callable[..., argparse.ArgumentParser | None], add_save_dir: Callable[[argparse.ArgumentParser], None]
) -> None:
    """``nctui saves``, made by ``make`` (``cli._command``: None when only named)."""
    p = make(
        "saves",
        help="list the saved games or check save files",
        description="List the saved games (as Continue and Load show them) or check save files.",
    )
    if p is None:
        return
    cmds = p.add_subparsers(dest="saves_command", metavar="ACTION", parser_class=type(p), required=True)
    ls = cmds.add_parser(
        "list",
        help="every save, newest first",
        description="Every save of the save folder, newest first: its id, whether it is finished, "
        "who plays, the mode, the turn and when it was last played.",
    )
    ls.add_argument("--json", action="store_true", help="one JSON array of objects, for scripts")
    ls.add_argument("--check", action="store_true", help="replay every save to say which no longer loads (slower)")
    add_save_dir(ls)
    check = cmds.add_parser(
        "check",
        help="say whether save files can be loaded",
        description="Replay each file; print one line per file: ok, or why it cannot be "
        "loaded. Exit code 1 when any cannot.",
    )
    check.add_argument("files", nargs="+", metavar="FILE", type=_file)
    export = cmds.add_parser(
        "export-room",
        help="a finished game of a server's rooms as a save file (nctui replay FILE opens it)",
        description="Write the finished game of a room of nctui serve's data folder as a save file: nctui "
        "replay FILE watches it again on any machine, every hand shown. Reads the rooms database only; a game "
        "not over is refused.",
    )
    export.add_argument("room", metavar="ROOM", help="the room's id (as the server's log names it)")
    export.add_argument("file", metavar="FILE", type=_file, help="the save file to write")
    export.add_argument("--data", metavar="DIR", type=_file, default=None, help="the server's data folder")
    export.add_argument(
        "--store", metavar="URL", default=None, help="the PostgreSQL database of the server's --store instead"
    )


def _file(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("the file name cannot be empty")
    return text


def run(args: argparse.Namespace) -> int:
    """``nctui saves list`` or ``nctui saves check``; returns the exit code."""
    if args.saves_command == "list":
        return _list(args.save_dir, as_json=args.json, check=args.check)
    if args.saves_command == "export-room":
        return _export_room(args.room, Path(args.file), args.data, args.store)
    return _check([Path(f) for f in args.files])


def _export_room(room: str, out: Path, data: str | None, database: str | None = None) -> int:
    from .platform.net.export import ExportError, export_room
    from .platform.net.serve import default_data

    try:
        written = export_room(Path(data) if data else default_data(), room, out, database=database)
    except ExportError as exc:
        print(f"nctui saves export-room: error: {exc}", file=sys.stderr)
        return 2
    print(f"Wrote {written}: nctui replay {written} watches it again.")
    return 0


def _list(folder: str | None, *, as_json: bool, check: bool) -> int:
    from .platform import saves

    games = saves.list_games(folder)
    if check:
        games = [g._replace(problem=g.problem or saves.problem(g.path)) for g in _progress(games, "checking")]
    if as_json:
        import json  # here only: the game's start-up does without it

        print(json.dumps([_record(g) for g in games], ensure_ascii=False))
        return 0
    if not games:
        print(f"No saves in {saves.save_dir(folder)}.")
        return 0
    for g in games:
        print(_line(g))
    return 0


def _record(g: saves.Listing) -> dict[str, object]:
    from .platform import saves

    s = g.summary
    return {
        "id": g.game_id,
        "file": str(g.path),
        "game": g.game,
        "finished": bool(s and s.finished),
        "players": list(s.players) if s else [],
        "mode": s.mode if s else "",
        "turn": s.turn if s else 0,
        "progress": s.progress if s else "",
        "result": s.result if s else "",
        "updated": g.updated,
        "autosave": g.path.parent.name == saves.AUTOSAVES,
        "problem": g.problem,
    }


def _line(g: saves.Listing) -> str:
    """One line per save, whatever its file is called and its summary says."""
    from .platform.saves import one_line

    s = g.summary
    path = one_line(str(g.path))
    if s is None:
        return f"{path}: cannot be loaded: {g.problem}"
    state = f"finished, {s.result}" if s.finished else f"turn {s.turn}, {s.progress}"
    tail = f"  ✗ cannot be loaded: {g.problem}" if g.problem else ""
    text = f"{one_line(g.game_id) or '-':12}  {one_line(g.updated):25}  {s.mode}; {state}; {', '.join(s.players)}"
    return f"{one_line(text)}  {path}{tail}"


def _check(files: list[Path]) -> int:
    from .platform import saves

    bad = 0
    for path in files:  # each file's line is the progress
        why = saves.problem(path)
        print(f"{saves.one_line(str(path))}: {'ok' if not why else why}")
        bad += bool(why)
    return 1 if bad else 0


def _progress(items: list[T], what: str) -> Iterator[T]:
    """The items one by one, with 'checking 3/10' on stderr as each is worked on (on a terminal)."""
    show = sys.stderr.isatty() and len(items) > 1
    for i, item in enumerate(items, 1):
        if show:
            sys.stderr.write(f"\r{what} {i}/{len(items)}")
            sys.stderr.flush()
        yield item
    if show:
        sys.stderr.write("\r" + " " * 30 + "\r")
        sys.stderr.flush()
