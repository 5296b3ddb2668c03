"""Whatever a save file holds, loading it gives the game or one SaveError naming the file in one
line, and changes nothing on disk: hundreds of single-byte changes and truncations of a real save,
deep nesting, special files (devices, a FIFO, a folder, a symlink to /dev/zero), empty and huge
files, other JSON and other formats, of every game. ``nctui saves check`` says so in one line per
file."""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import msgspec
import pytest

from nctui.cli import main
from nctui.games.nightmare_cathedral.engine.flow import StepResult
from nctui.games.nightmare_cathedral.scenarios import load_scenario_result
from nctui.platform import registry, saves
from nctui.platform.store import Store
from tests.helpers import human_config, in_time, store_moves

NIGHTMARE_CATHEDRAL = registry.game("nightmare-cathedral")

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ROOT / "nctui" / "games" / "nightmare_cathedral" / "practice" / "positions"
GAME_ID = "0123456789ab"
DECISIONS = 60
CHANGES = 300
TRUNCATIONS = 80


class RealSave(NamedTuple):
    data: bytes
    digest: str  # of its last state
    game: str
    decisions: int


def _companion_store(game_id: str) -> Store:
    """A game of ``game_id`` between people, ``DECISIONS`` seeded random decisions in (fewer if it
    ends first)."""
    entry = registry.entry(game_id)
    game = registry.game(game_id)
    bots = registry.simulated(game_id).computer_game(31, entry.levels[:1] * max(2, entry.players[0]))
    config = msgspec.structs.replace(bots, seats=tuple("human" for _ in game.seats(bots)))
    store = Store(game=game, initial=game.new(config))
    rnd = random.Random(31)
    while store.state_id < DECISIONS and game.options(store.state):
        store.dispatch(rnd.choice(game.options(store.state)))
    return store


OTHER_GAMES = [g for g in registry.GAME_IDS if g != "nightmare-cathedral"]


@pytest.fixture(scope="module", params=["new-game", "from-a-position", *OTHER_GAMES])
def real_save(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> RealSave:
    """The bytes of a real save ~60 decisions in, and the digest of its last state: a game of
    Nightmare Cathedral from its configuration, or one started from a scenario's position (its
    start is in the file), or a game of each other game of the registry."""
    if request.param == "new-game":
        store = Store(human_config(seed=31))
    elif request.param == "from-a-position":
        state, events = load_scenario_result(POSITIONS / "crowded-centre-3p.toml")
        store = Store(initial=StepResult(state=state, events=tuple(events)))
    else:
        store = _companion_store(request.param)
    if store.game is NIGHTMARE_CATHEDRAL:
        store_moves(store, DECISIONS, seed=31)
        assert store.state_id == DECISIONS
    assert store.state_id > 10
    path = saves.save(store, tmp_path_factory.mktemp("real") / "game.nctui.json", GAME_ID)
    assert (json.loads(path.read_bytes())["start"] is None) == (request.param != "from-a-position")
    return RealSave(path.read_bytes(), store.game.digest(store.state), store.game.id, store.state_id)


def _snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder``: a regular file's bytes, else what it is (never read)."""
    out: dict[str, bytes | str] = {}
    for p in sorted(folder.rglob("*")):
        rel = str(p.relative_to(folder))
        if p.is_symlink():
            out[rel] = f"symlink to {os.readlink(p)}"
        elif p.is_dir():
            out[rel] = "folder"
        elif p.is_file():
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            out[rel] = "special"
    return out


def _load_or_save_error(path: Path) -> saves.Loaded | saves.SaveError:
    """What loading ``path`` gives: the game, or the SaveError (any other exception fails)."""
    try:
        return saves.load(path)
    except saves.SaveError as exc:
        return exc


def _assert_one_line_naming(err: saves.SaveError, path: Path) -> None:
    message = str(err)
    assert message.startswith(f"{path.name}: ") and len(message) > len(path.name) + 2, message
    assert "\n" not in message and "\r" not in message, message
    assert err.path == path


# ----------------------------------------------------------------------------------------------
# A real save, changed one byte at a time or cut short


def _variants(data: bytes) -> list[tuple[str, bytes]]:
    rng = random.Random(20240607)
    out = []
    for _ in range(CHANGES):
        at = rng.randrange(len(data))
        byte = rng.randrange(256)
        if byte == data[at]:
            byte = (byte + 1) % 256
        out.append((f"byte {at} -> {byte:#04x}", data[:at] + bytes([byte]) + data[at + 1 :]))
    for _ in range(TRUNCATIONS):
        cut = rng.randrange(len(data))
        out.append((f"cut at {cut}", data[:cut]))
    return out


def test_single_byte_changes_and_truncations_give_a_save_error_or_the_same_game(tmp_path: Path, real_save: RealSave):
    data, last_digest = real_save.data, real_save.digest
    loaded = refused = 0
    path = tmp_path / "game.nctui.json"
    for what, variant in _variants(data):
        path.write_bytes(variant)
        before = _snapshot(tmp_path)
        result = _load_or_save_error(path)
        assert _snapshot(tmp_path) == before, f"{what}: loading changed the folder"
        if isinstance(result, saves.SaveError):
            _assert_one_line_naming(result, path)
            refused += 1
        else:
            # A change the game does not depend on (the summary, the time, a space, the id, the
            # cursor within the actions): the very same game, replayed to the same last state.
            store = result.store
            assert store.game.id == real_save.game, what
            assert store.game.digest(store.entry(store.last_id).state) == last_digest, what
            assert store.last_id == real_save.decisions, what
            loaded += 1
    assert refused > loaded > 0  # most changes are caught; some are harmless


# ----------------------------------------------------------------------------------------------
# Files that are not saves at all


def _deep_list(n: int) -> bytes:
    return b"[" * n


def _deep_object(n: int) -> bytes:
    return b'{"a":' * n + b"1" + b"}" * n


def _deep_inside_a_save(data: bytes) -> bytes:
    """A real save whose first action is nested deeper than any decoder should recurse."""
    d = json.loads(data)
    d["actions"][0] = json.loads(b"[" * 200 + b"]" * 200)
    return json.dumps(d).encode()


def _newer(data: bytes) -> bytes:
    d = json.loads(data)
    d["version"] = 99
    return json.dumps(d).encode()


# name -> (what to write, words of the SaveError)
CONTENTS: dict[str, tuple[Callable[[bytes], bytes], str]] = {
    "empty": (lambda _: b"", "is empty"),
    "whitespace only": (lambda _: b" \n\t\r\n  ", "is empty"),
    "deep list": (lambda _: _deep_list(100_000), "nested more than"),
    "deep object": (lambda _: _deep_object(20_000), "nested more than"),
    "deep list, closed": (lambda _: b"[" * 5000 + b"]" * 5000, "nested more than"),
    "deep inside a save": (_deep_inside_a_save, "nested more than"),
    "invalid UTF-8": (lambda _: b'{"format": "nctui-save", "version": 2, "game": "\xff\xfe"}', "not UTF-8 text"),
    "latin-1 text": (lambda d: d.replace(b'"human"', b'"h\xe9man"', 1), "not UTF-8 text"),
    "a JSON array": (lambda _: b"[1, 2, 3]", "not an nctui save file"),
    "a JSON number": (lambda _: b"42", "not an nctui save file"),
    "a JSON string": (lambda _: b'"nctui-save"', "not an nctui save file"),
    "JSON null": (lambda _: b"null", "not an nctui save file"),
    "a number then junk": (lambda _: b"1 } junk", "not valid JSON"),
    "a newer version": (_newer, "was written by a newer nctui (save format version 99"),
    "a foreign format": (lambda _: b'{"format": "chess-pgn", "version": 1, "moves": []}', "not an nctui save file"),
    "no format": (lambda _: b'{"version": 2}', "has no format name"),
    "binary noise": (lambda _: random.Random(3).randbytes(4096), "is damaged or not a save file"),
    "NUL bytes": (lambda _: bytes(1000), "is damaged or not a save file"),
}


@pytest.mark.parametrize("kind", list(CONTENTS))
def test_files_that_are_not_saves_give_one_line(tmp_path: Path, real_save: RealSave, kind: str):
    write, words = CONTENTS[kind]
    path = tmp_path / "bad.nctui.json"
    path.write_bytes(write(real_save[0]))
    before = _snapshot(tmp_path)
    with pytest.raises(saves.SaveError) as err:
        in_time(lambda: saves.load(path))
    _assert_one_line_naming(err.value, path)
    assert words in err.value.problem, err.value.problem
    with pytest.raises(saves.SaveError):
        saves.read_listing(path)
    assert _snapshot(tmp_path) == before


def _huge(path: Path) -> Path:
    """A sparse file just over the size cap (nothing is written, nothing should be read)."""
    with open(path, "wb") as f:
        f.truncate(saves.MAX_BYTES + 1)
    return path


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _folder(path: Path) -> Path:
    path.mkdir()
    (path / "inside.nctui.json").write_text("{}")
    return path


def _link(target: str) -> Callable[[Path], Path]:
    def make(path: Path) -> Path:
        path.symlink_to(target)
        return path

    return make


# name -> (how to make it at a path, words of the SaveError)
SPECIAL: dict[str, tuple[Callable[[Path], Path], str]] = {
    "a huge file": (_huge, f"is {saves.MAX_BYTES + 1} bytes, far too large"),
    "/dev/zero": (lambda _: Path("/dev/zero"), "is not a regular file"),
    "/dev/urandom": (lambda _: Path("/dev/urandom"), "is not a regular file"),
    "/dev/null": (lambda _: Path("/dev/null"), "is not a regular file"),
    "a FIFO": (_fifo, "is not a regular file"),
    "a folder": (_folder, "is a folder, not a file"),
    "a symlink to /dev/zero": (_link("/dev/zero"), "is not a regular file"),
    "a symlink to nowhere": (_link("/no/such/file"), "no such save file"),
    "a missing file": (lambda p: p, "no such save file"),
}


@pytest.mark.parametrize("kind", list(SPECIAL))
def test_special_files_are_refused_without_reading_them(tmp_path: Path, kind: str):
    make, words = SPECIAL[kind]
    if kind.startswith("/dev/") and not Path(kind).exists():
        pytest.skip(f"no {kind} here")
    path = make(tmp_path / "special.nctui.json")
    before = _snapshot(tmp_path)
    with pytest.raises(saves.SaveError) as err:
        in_time(lambda: saves.load(path))
    _assert_one_line_naming(err.value, path)
    assert words in err.value.problem, err.value.problem
    assert _snapshot(tmp_path) == before


def test_a_file_that_grows_past_the_cap_while_read_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The size is checked on the open file as it is read, not only by its size beforehand."""
    from nctui.platform import safeio

    path = tmp_path / "growing.nctui.json"
    path.write_bytes(b" " * 100)
    real_fstat = os.fstat

    def small_fstat(fd: int) -> os.stat_result:
        info = real_fstat(fd)
        return os.stat_result((info.st_mode, *info[1:6], 10, *info[7:]))  # claims 10 bytes

    monkeypatch.setattr(safeio.os, "fstat", small_fstat)
    with pytest.raises(safeio.BadInput, match="more than 50 bytes"):
        safeio.read_bounded(path, 50)


def test_the_lists_and_the_check_command_give_one_line_per_bad_file(
    tmp_path: Path, real_save: RealSave, capsys: pytest.CaptureFixture[str]
):
    folder = tmp_path / "saves"
    (folder / "autosave").mkdir(parents=True)
    good = folder / "good.nctui.json"
    good.write_bytes(real_save[0])
    files = [good]
    for kind, (write, _) in CONTENTS.items():
        path = folder / f"{kind.replace(' ', '-').replace(',', '')}.nctui.json"
        path.write_bytes(write(real_save[0]))
        files.append(path)
    for kind, (make, _) in SPECIAL.items():
        if kind.startswith("/dev/") and not Path(kind).exists():
            continue
        files.append(make(folder / "autosave" / f"{kind.replace(' ', '-').replace('/', '')}.nctui.json"))
    newline = folder / "new\nline.nctui.json"
    newline.write_bytes(b"[")
    files.append(newline)
    before = _snapshot(tmp_path)

    code = in_time(lambda: main(["saves", "check", *map(str, files)]))
    out, err = capsys.readouterr()
    assert code == 1 and err == "" and "Traceback" not in out
    lines = out.splitlines()
    assert len(lines) == len(files)
    assert lines[0] == f"{good}: ok"
    for path, line in zip(files[1:], lines[1:]):
        assert line.startswith(f"{saves.one_line(str(path))}: ") and not line.endswith(": ok"), line

    # The lists read every regular save file of the folder (special files are not listed).
    games = in_time(lambda: saves.list_games(folder, check=True))
    assert {g.path for g in games if not g.problem} == {good}
    assert all(g.problem and "\n" not in g.problem for g in games if g.path != good)
    assert in_time(lambda: saves.unfinished(folder)) == []
    for argv in (
        ["saves", "list", "--save-dir", str(folder)],
        ["saves", "list", "--check", "--save-dir", str(folder)],
        ["saves", "list", "--json", "--check", "--save-dir", str(folder)],
    ):
        assert in_time(lambda argv=argv: main(argv)) == 0
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        if "--json" in argv:
            assert len(json.loads(out)) == len(games)
        else:
            assert len(out.splitlines()) == len(games)
    assert _snapshot(tmp_path) == before
