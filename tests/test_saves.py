"""Save files: round trips along random games, atomic writes, one autosave per game, the folder's
housekeeping (tidy, migrate, lists, locks), version 1 files, and every way a file can be bad."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.bots.random_bot import RandomBot
from nctui.games.nightmare_cathedral.content.loader import get_pack
from nctui.games.nightmare_cathedral.engine import GameConfig, new_game, player_view
from nctui.games.nightmare_cathedral.engine.flow import StepResult
from nctui.platform import registry, saves
from nctui.platform.saves import SaveError, latest_autosave, load, save, save_dir
from nctui.platform.store import Store, StrictPolicy
from tests.helpers import human_config, store_moves

NIGHTMARE_CATHEDRAL = registry.game("nightmare-cathedral")

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ROOT / "nctui" / "games" / "nightmare_cathedral" / "practice" / "positions"
GAME_ID = "0123456789ab"
digest = NIGHTMARE_CATHEDRAL.digest


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A valid save of a game some way in."""
    store = Store(human_config(seed=21))
    store_moves(store, 40, seed=21)
    return save(store, tmp_path / "game.nctui.json", GAME_ID)


def _write(store: Store, path: Path, game_id: str = GAME_ID, *, mtime: float | None = None) -> Path:
    save(store, path, game_id)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def _finished_store(seed: int = 4) -> Store:
    """A bots-only game played to its end."""
    store = Store(GameConfig(players=2, seats=("bot", "bot"), seed=seed))
    while store.state.outcome is None:
        store_moves(store, 500, seed=seed)
    return store


# ----------------------------------------------------------------------------------------------
# Round trips


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 1), (4, 2)])
def test_round_trip_along_a_random_game(tmp_path: Path, players: int, seed: int):
    store = Store(human_config(players, seed))
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    n = 0
    while True:
        if n % 37 == 0 or store.state.decision is None:
            path = save(store, tmp_path / f"at-{n}.nctui.json", GAME_ID)
            loaded = load(path)
            assert loaded.store.state == store.state
            assert loaded.store.state_id == store.state_id == n
            assert loaded.store.actions() == store.actions()
            assert loaded.game is NIGHTMARE_CATHEDRAL and loaded.game_id == GAME_ID and loaded.path == path
        d = store.state.decision
        if d is None:
            break
        store.dispatch(bots[d.seat].choose(player_view(store.state, d.seat)), seat=d.seat)
        n += 1
    assert store.state.phase == "over"
    summary = saves.read_listing(path).summary
    assert summary is not None and summary.finished and summary.result


def test_round_trip_keeps_the_redo_branch(tmp_path: Path):
    store = Store(human_config(seed=5))
    store_moves(store, 30, seed=5)
    end = store.state
    for _ in range(4):
        store.undo()
    loaded = load(save(store, tmp_path / "branch.nctui.json", GAME_ID), policy=StrictPolicy()).store
    assert loaded.state_id == 26 and loaded.state == store.state
    assert loaded.can_redo() and loaded.policy.name == "strict"
    loaded.jump(30)
    assert loaded.state == end


def test_a_game_started_from_a_position_saves_its_start(tmp_path: Path):
    """A start that ``new(config)`` does not give is written whole, and read back (a ``start``
    that is not null once made every such save unloadable)."""
    cfg = human_config(seed=6)
    odd = replace(new_game(cfg).state, time=1)  # not what new_game(cfg) gives
    store = Store(initial=StepResult(state=odd, events=()))
    store_moves(store, 10)
    path = save(store, tmp_path / "pos.nctui.json", GAME_ID)
    assert msgspec.json.decode(path.read_bytes())["start"] is not None
    loaded = load(path).store
    assert loaded.initial.state == odd and loaded.state == store.state
    # A fresh start is only the configuration.
    fresh = Store(cfg)
    store_moves(fresh, 3)
    assert msgspec.json.decode(save(fresh, tmp_path / "fresh.nctui.json", GAME_ID).read_bytes())["start"] is None


def test_state_digest_is_deterministic_across_processes():
    """msgpack of the state must not depend on hash seeds (set ordering) or the process."""
    cfg = human_config(seed=3)
    store = Store(cfg)
    store_moves(store, 60, seed=3)
    here = digest(store.state)
    assert here == digest(msgspec.msgpack.decode(msgspec.msgpack.encode(store.state), type=type(store.state)))
    code = (
        "import sys, msgspec\n"
        "from nctui.games.nightmare_cathedral.engine import GameConfig\n"
        "from nctui.platform.store import Store\n"
        "from nctui.platform import registry\nNIGHTMARE_CATHEDRAL = registry.game('nightmare-cathedral')\n"
        "from nctui.games.nightmare_cathedral.engine.actions import Action\n"
        "acts = msgspec.json.decode(sys.stdin.buffer.read(), type=list[Action])\n"
        f"cfg = msgspec.json.decode({msgspec.json.encode(cfg).decode()!r}, type=GameConfig)\n"
        "print(NIGHTMARE_CATHEDRAL.digest(Store(cfg, actions=acts).state))\n"
    )
    actions = msgspec.json.encode(list(store.actions()))
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
        out = subprocess.run([sys.executable, "-c", code], input=actions, capture_output=True, env=env, check=True)
        assert out.stdout.decode().strip() == here


# ----------------------------------------------------------------------------------------------
# Atomic writing, folders


def test_atomic_write_leaves_no_temp_file(tmp_path: Path):
    store = Store(human_config())
    store_moves(store, 5)
    path = save(store, tmp_path / "a.nctui.json", GAME_ID)
    save(store, path, GAME_ID)  # over an existing file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.nctui.json"]


def test_a_failed_write_keeps_the_old_file_and_no_temp_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store = Store(human_config())
    path = save(store, tmp_path / "a.nctui.json", GAME_ID)
    before = path.read_bytes()
    store_moves(store, 5)

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saves.os, "replace", broken_replace)
    with pytest.raises(SaveError, match=r"a\.nctui\.json: cannot write: No space left on device"):
        save(store, path, GAME_ID)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["a.nctui.json"]


def test_a_folder_that_cannot_be_written_is_one_clear_error(tmp_path: Path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    with pytest.raises(SaveError, match=r"^a\.nctui\.json: cannot write to folder .*not-a-folder"):
        save(Store(human_config()), blocker / "a.nctui.json", GAME_ID)


def test_save_dir_argument_env_and_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(saves.ENV_DIR, raising=False)
    default = save_dir()
    assert default.name == "saves" and "nctui" in str(default)
    monkeypatch.setenv(saves.ENV_DIR, str(tmp_path / "env"))
    assert save_dir() == tmp_path / "env"
    assert saves.autosave_path("abc") == tmp_path / "env" / "autosave" / "abc.nctui.json"
    assert save_dir(tmp_path / "arg") == tmp_path / "arg"


def test_autosave_and_continue(tmp_path: Path):
    """A session keeps its game's own autosave up to date; Continue finds it."""
    from nctui.platform.session import new_session

    folder = tmp_path / "saves"
    assert latest_autosave(folder) is None
    session = new_session(human_config(seed=13), folder=folder).start()
    try:
        store_moves(session.store, 25, seed=13)
        path = session.flush()
    finally:
        session.close()
    assert path == saves.autosave_path(session.game_id, folder)
    assert latest_autosave(folder) == path
    loaded = load(path)
    assert loaded.store.state == session.store.state and loaded.game_id == session.game_id
    assert saves.list_saves(folder) == [path]
    assert sorted(p.name for p in (folder / "autosave").iterdir() if not p.name.endswith(".lock")) == [path.name]


def test_new_ids_are_distinct_and_name_their_autosave(tmp_path: Path):
    ids = {saves.new_id() for _ in range(200)}
    assert len(ids) == 200 and all(len(i) == 12 and int(i, 16) >= 0 for i in ids)
    some = next(iter(ids))
    assert saves.is_autosave(saves.autosave_path(some, tmp_path), some, tmp_path)
    assert not saves.is_autosave(tmp_path / f"{some}.nctui.json", some, tmp_path)
    assert not saves.is_autosave(saves.autosave_path(some, tmp_path), "", tmp_path)


# ----------------------------------------------------------------------------------------------
# The folder: tidy, migrate, the lists, the lock


def _dead_pid() -> int:
    """The id of a process that has ended."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def test_tidy_removes_only_nctuis_own_temp_files_of_ended_processes_or_stale(tmp_path: Path):
    """A killed save's temporary file goes as soon as its process is gone, another's in progress
    stays until it is stale; the user's own ``.*.tmp`` files are never touched, however old
    (issue 41, item 9)."""
    auto = tmp_path / "autosave"
    auto.mkdir()
    old = time.time() - saves.STALE_TEMP - 60
    dead, alive = _dead_pid(), os.getpid()
    gone = [tmp_path / f".game.nctui.json.nctui-{dead}-x1y2.tmp", auto / f".abc.nctui.json.nctui-{dead}-k3_.tmp"]
    stale = [tmp_path / f".b.nctui.json.nctui-{alive}-q1.tmp"]
    fresh = [tmp_path / f".other.nctui.json.nctui-{alive}-z9.tmp", auto / f".def.nctui.json.nctui-{alive}-q1.tmp"]
    users = [tmp_path / ".game.nctui.json.x1y2.tmp", auto / ".notes.tmp", tmp_path / ".x.nctui-1.tmp"]
    kept = [tmp_path / "game.nctui.json", tmp_path / "old.tmp", auto / ".abc.lock", tmp_path / ".hidden", *users]
    for p in gone + stale + fresh + kept:
        p.write_text("x")
    for p in [*stale, *kept]:
        os.utime(p, (old, old))
    saves.tidy(tmp_path)
    assert not any(p.exists() for p in gone + stale)
    assert all(p.exists() for p in fresh + kept)
    saves.tidy(tmp_path / "missing")  # nothing to tidy: no error


def test_a_save_writes_its_temp_file_under_a_name_tidy_knows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    names: list[str] = []
    real = os.replace

    def replace_seen(src, dst):
        names.append(Path(src).name)
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace_seen)
    save(Store(human_config()), tmp_path / "a.nctui.json", GAME_ID)
    assert len(names) == 1 and saves.TEMP.fullmatch(names[0]) and f"-{os.getpid()}-" in names[0]


def test_a_game_leaves_no_lock_file_and_its_autosave_cannot_be_deleted_while_played(tmp_path: Path):
    """Every game left its lock file for good; a save deleted from the Load screen of another
    nctui while the game was played came back as "Game saved to …" with no file (issue 41, items
    3 and 9)."""
    from nctui.platform.session import Session

    session = Session(Store(human_config()), folder=tmp_path).start()
    session.store.dispatch(session.store.state.decision.options[0])
    path = session.flush()
    with pytest.raises(SaveError, match="being played"):
        saves.delete(path)
    assert path.exists()
    path.unlink()  # removed behind nctui's back: the next save writes it again, or says it could not
    assert session.flush() == path and load(path).store.state == session.store.state
    assert session.close() == path
    assert sorted(p.name for p in (tmp_path / "autosave").iterdir()) == [path.name]  # no lock file left
    saves.delete(path)  # no game is played: it goes
    assert not path.exists()


def test_flush_says_saved_only_of_a_file_that_is_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from nctui.platform.session import Session

    session = Session(Store(human_config()), folder=tmp_path)
    session.store.dispatch(session.store.state.decision.options[0])
    path = session.flush()
    path.unlink()
    monkeypatch.setattr(saves, "write_atomic", lambda path, data: None)  # a write that leaves nothing
    with pytest.raises(SaveError, match="not there"):
        session.flush()
    assert session.close() is None


def _v1_bytes(store: Store, **changes) -> bytes:
    """A version 1 save as nctui wrote it before games had ids (one autosave per folder)."""
    config = store.config
    data = {
        "format": "nctui-save",
        "version": 1,
        "pack": config.pack,
        "pack_digest": get_pack(config.pack).digest,
        "config": msgspec.to_builtins(config),
        "seed": config.seed,
        "actions": msgspec.to_builtins(list(store.all_actions())),
        "cursor": store.state_id,
        "state_digest": "f" * 64,  # of the state before the engine's renovation: not compared
        "start": None,
    }
    data.update(changes)
    return json.dumps(data, indent=1).encode()


def test_a_version_1_file_is_read(tmp_path: Path):
    store = Store(human_config(seed=8))
    store_moves(store, 30, seed=8)
    store.undo()
    path = tmp_path / "old.nctui.json"
    path.write_bytes(_v1_bytes(store))
    before = path.read_bytes()
    loaded = load(path)
    assert loaded.store.state == store.state and loaded.store.state_id == 29 and loaded.store.can_redo()
    assert loaded.store.all_actions() == store.all_actions()
    assert len(loaded.game_id) == 12 and loaded.game_id != load(path).game_id  # a named save: a new id each time
    assert saves.read_listing(path).summary is None  # version 1 had no summary
    assert saves.read_listing(path).game_id == ""  # nor an id: a named one gets a new id when opened
    assert path.read_bytes() == before
    # Its digest of the content is still checked.
    path.write_bytes(_v1_bytes(store, pack_digest="0" * 64))
    with pytest.raises(SaveError, match="different version of the game's content"):
        load(path)
    # And so is every action.
    bad = _v1_bytes(store)
    path.write_bytes(bad.replace(b'"turn_start"', b'"no_such_action"', 1))
    with pytest.raises(SaveError, match="is damaged"):
        load(path)


def test_migrate_moves_the_legacy_autosave_among_the_autosaves(tmp_path: Path):
    store = Store(human_config(seed=9))
    store_moves(store, 12, seed=9)
    legacy = tmp_path / saves.LEGACY_AUTOSAVE
    legacy.write_bytes(_v1_bytes(store))
    data = legacy.read_bytes()
    saves.migrate(tmp_path)
    assert not legacy.exists()
    (moved,) = (tmp_path / "autosave").iterdir()
    assert moved.read_bytes() == data and moved.name.endswith(".nctui.json")
    loaded = load(moved)
    game_id = moved.name.removesuffix(".nctui.json")
    assert loaded.game_id == game_id and loaded.store.state == store.state  # continuing it keeps its file
    assert saves.is_autosave(moved, loaded.game_id, tmp_path)
    assert latest_autosave(tmp_path) == moved
    assert saves.read_listing(moved).game_id == game_id  # listed under the id it is continued with
    # A second migrate (no legacy file) changes nothing; a new legacy file gets another id.
    saves.migrate(tmp_path)
    assert list((tmp_path / "autosave").iterdir()) == [moved]
    legacy.write_bytes(data)
    saves.migrate(tmp_path)
    assert len(list((tmp_path / "autosave").iterdir())) == 2 and moved.read_bytes() == data


def test_lists_newest_first_and_continue_offers_only_unfinished_autosaves(tmp_path: Path):
    now = time.time()
    a = Store(human_config(seed=1))
    store_moves(a, 5, seed=1)
    b = Store(human_config(seed=2))
    store_moves(b, 9, seed=2)
    done = _finished_store()
    older = _write(a, saves.autosave_path("aaaaaaaaaaaa", tmp_path), "aaaaaaaaaaaa", mtime=now - 300)
    newer = _write(b, saves.autosave_path("bbbbbbbbbbbb", tmp_path), "bbbbbbbbbbbb", mtime=now - 200)
    finished = _write(done, saves.autosave_path("cccccccccccc", tmp_path), "cccccccccccc", mtime=now - 100)
    named = _write(b, tmp_path / "named.nctui.json", "bbbbbbbbbbbb", mtime=now - 50)
    damaged = tmp_path / "damaged.nctui.json"
    damaged.write_bytes(b'{"format": "nctui-save", "vers')
    os.utime(damaged, (now - 10, now - 10))
    (tmp_path / "notes.txt").write_text("not a save")
    (tmp_path / ".hidden.nctui.json").write_text("{}")

    assert saves.list_saves(tmp_path) == [damaged, named, finished, newer, older]
    games = saves.list_games(tmp_path)
    assert [g.path for g in games] == [damaged, named, finished, newer, older]
    assert games[0].problem.startswith("is damaged or not a save file") and games[0].summary is None
    assert [g.game_id for g in games[1:]] == ["bbbbbbbbbbbb", "cccccccccccc", "bbbbbbbbbbbb", "aaaaaaaaaaaa"]
    assert [g.finished for g in games[1:]] == [False, True, False, False]
    assert games[2].summary is not None and games[2].summary.result
    assert games[3].summary is not None and games[3].summary.turn == b.state.turn_number
    assert [g.path for g in saves.unfinished(tmp_path)] == [newer, older]
    assert latest_autosave(tmp_path) == newer
    os.utime(older, (now, now))  # played last
    assert latest_autosave(tmp_path) == older
    assert load(finished).store.state.outcome is not None  # a finished game stays loadable (a replay)
    assert latest_autosave(tmp_path / "empty") is None and saves.list_games(tmp_path / "empty") == []


def test_a_save_that_no_longer_replays_is_marked_in_the_checked_list(saved: Path):
    data = json.loads(saved.read_bytes())
    data["actions"][2] = {"a": "conquer", "area": "nowhere"}  # still an action, but refused; digests untouched
    saved.write_text(json.dumps(data))
    before = saved.read_bytes()
    why = saves.problem(saved)
    assert why.startswith("cannot be replayed: action 3 of 40 is refused")
    assert "\n" not in why
    (listed,) = saves.list_games(saved.parent)
    assert listed.problem == "" and listed.game_id == GAME_ID  # its header still reads
    (checked,) = saves.list_games(saved.parent, check=True)
    assert checked.problem == why
    assert saved.read_bytes() == before
    assert saves.problem(saved.parent / "missing.nctui.json") == "no such save file"


def test_problem_of_a_good_save_is_empty(saved: Path):
    assert saves.problem(saved) == ""
    (checked,) = saves.list_games(saved.parent, check=True)
    assert checked.problem == "" and not checked.finished


def test_delete(saved: Path):
    saves.delete(saved)
    assert not saved.exists()
    saves.delete(saved)  # already gone: nothing to do


def test_the_game_lock_is_exclusive_within_and_across_processes(tmp_path: Path):
    first = saves.GameLock("abc", tmp_path)
    assert first.acquired and first.path == tmp_path / "autosave" / ".abc.lock"
    assert not saves.GameLock("abc", tmp_path).acquired
    other = saves.GameLock("def", tmp_path)  # another game: its own lock
    assert other.acquired
    first.release()
    other.release()
    again = saves.GameLock("abc", tmp_path)
    assert again.acquired
    again.release()

    code = (
        "import sys\nfrom nctui.platform import saves\n"
        f"lock = saves.GameLock('abc', {str(tmp_path)!r})\n"
        "print('held' if lock.acquired else 'refused', flush=True)\nsys.stdin.read()\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == b"held"
        assert not saves.GameLock("abc", tmp_path).acquired
    finally:
        child.communicate(b"", timeout=30)  # the child ends: the lock goes with it
    after = saves.GameLock("abc", tmp_path)
    assert after.acquired
    after.release()


# ----------------------------------------------------------------------------------------------
# Bad files: one clear SaveError naming the file, and the file left as it was


def _rewrite(path: Path, edit) -> None:
    data = json.loads(path.read_bytes())
    edit(data)
    path.write_text(json.dumps(data))


def _drop_last_action(d: dict) -> None:
    d["actions"] = d["actions"][:-1]
    d["cursor"] = min(d["cursor"], len(d["actions"]))


def _illegal_action(d: dict) -> None:
    d["actions"][2] = {"a": "conquer", "area": "nowhere"}


def _start_of_another_config(d: dict) -> None:
    start = msgspec.to_builtins(new_game(human_config(seed=d["config"]["seed"] + 1)).state)
    d["start"] = start


BAD_FILES = {
    "truncated": (lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]), "not valid JSON"),
    "random bytes": (lambda p: p.write_bytes(random.Random(7).randbytes(600)), "not UTF-8 text: byte 1 is 0xb4"),
    "not JSON": (lambda p: p.write_bytes(b"1 ) not json"), "not valid JSON"),
    "a newline in a key": (
        lambda p: p.write_bytes(p.read_bytes().replace(b'"cursor"', rb'"cur\nsor"')),
        "is damaged: Object contains unknown field `cur\\nsor`",
    ),  # still one line
    "empty": (lambda p: p.write_bytes(b""), "is empty"),
    "another format": (lambda p: p.write_text('{"format": "chess-pgn", "version": 1}'), "not an nctui save file"),
    "no format": (lambda p: p.write_text('{"moves": []}'), "not an nctui save file"),
    "a JSON array": (lambda p: p.write_text("[1, 2, 3]"), "not an nctui save file"),
    "newer version": (lambda p: _rewrite(p, lambda d: d.update(version=999)), "newer nctui"),
    "version zero": (lambda p: _rewrite(p, lambda d: d.update(version=0)), "invalid save format version"),
    "version as text": (lambda p: _rewrite(p, lambda d: d.update(version="2")), "invalid save format version"),
    "missing field": (lambda p: _rewrite(p, lambda d: d.pop("actions")), "is damaged"),
    "unknown field": (lambda p: _rewrite(p, lambda d: d.update(extra=1)), "is damaged"),
    "wrong type": (lambda p: _rewrite(p, lambda d: d.update(cursor="40")), "is damaged"),
    "tampered action list": (lambda p: _rewrite(p, _drop_last_action), "state digest mismatch"),
    "illegal action": (lambda p: _rewrite(p, _illegal_action), "cannot be replayed: action 3"),
    "not an action": (lambda p: _rewrite(p, lambda d: d["actions"].append({"a": "fly"})), "is damaged"),
    "cursor out of range": (lambda p: _rewrite(p, lambda d: d.update(cursor=10_000)), "cursor 10000"),
    "negative cursor": (lambda p: _rewrite(p, lambda d: d.update(cursor=-1)), "cursor -1"),
    "other content digest": (
        lambda p: _rewrite(p, lambda d: d.update(content_digest="0" * 64)),
        "different version of the game's content",
    ),
    "unknown pack": (
        lambda p: _rewrite(p, lambda d: d["config"].update(pack="nope")),
        "needs content that cannot be loaded",
    ),
    "an id that is a path": (
        lambda p: _rewrite(p, lambda d: d.update(id="../../game")),
        "its game id '../../game' is not one nctui writes",
    ),
    "an empty id": (lambda p: _rewrite(p, lambda d: d.update(id="")), "its game id '' is not one nctui writes"),
    "unknown game": (lambda p: _rewrite(p, lambda d: d.update(game="chess")), "a game this nctui does not have"),
    "start of another config": (lambda p: _rewrite(p, _start_of_another_config), "inconsistent"),
    "impossible config": (
        lambda p: _rewrite(p, lambda d: d["config"].update(players=9)),
        "configuration that cannot start a game",
    ),
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_bad_files_raise_one_clear_error_and_stay_untouched(saved: Path, kind: str):
    spoil, expected = BAD_FILES[kind]
    spoil(saved)
    before = saved.read_bytes()
    listing = sorted(p.name for p in saved.parent.iterdir())
    with pytest.raises(SaveError) as err:
        load(saved)
    message = str(err.value)
    assert message.startswith("game.nctui.json: ") and expected in message, message
    assert "\n" not in message
    assert err.value.path == saved and message == f"game.nctui.json: {err.value.problem}"
    assert saves.problem(saved) == err.value.problem
    assert saved.read_bytes() == before
    assert sorted(p.name for p in saved.parent.iterdir()) == listing


def test_a_folder_or_a_missing_file_is_a_clear_error(tmp_path: Path):
    folder = tmp_path / "looks-like.nctui.json"
    folder.mkdir()
    with pytest.raises(SaveError, match=r"^looks-like\.nctui\.json: is a folder, not a file$"):
        load(folder)
    assert folder.is_dir() and list(folder.iterdir()) == []
    with pytest.raises(SaveError, match=r"^missing\.nctui\.json: no such save file$"):
        load(tmp_path / "missing.nctui.json")
    assert not (tmp_path / "missing.nctui.json").exists()
    assert saves.list_saves(tmp_path) == []  # a folder named like a save is not listed


def test_save_file_records_what_the_format_promises(saved: Path):
    data = json.loads(saved.read_bytes())
    assert data["format"] == "nctui-save" and data["version"] == saves.VERSION == 3
    assert data["game"] == "nightmare-cathedral" and data["id"] == GAME_ID
    assert data["content_digest"] == get_pack("base").digest
    assert data["config"]["seed"] == 21 and data["config"]["pack"] == "base"
    assert data["cursor"] == len(data["actions"]) == 40
    assert data["start"] is None
    store = load(saved).store
    assert data["state_digest"] == digest(store.entry(store.last_id).state)
    summary = data["summary"]
    assert summary["players"] == ["Red (person)", "Blue (person)"] and summary["mode"] == "2 players, Standard"
    assert summary["turn"] == store.state.turn_number and summary["finished"] is False
    assert summary["progress"].startswith("Time ")
    assert data["updated"].endswith("+00:00") and data["undo"] == ""
    assert saves.read_listing(saved).updated == data["updated"]


def test_the_undo_policy_is_recorded(tmp_path: Path):
    store = Store(human_config())
    path = tmp_path / "u.nctui.json"
    saves.write_atomic(path, saves.encode(store, GAME_ID, undo="strict"))
    assert json.loads(path.read_bytes())["undo"] == "strict" and load(path).undo == "strict"


# ----------------------------------------------------------------------------------------------
# A save's starting position is checked before play


@pytest.fixture
def started_from_a_position(tmp_path: Path) -> Path:
    """A save of a game started from a scenario's position, a few decisions in."""
    from nctui.games.nightmare_cathedral.scenarios import load_scenario_result

    state, events = load_scenario_result(POSITIONS / "opening-2p.toml")
    store = Store(initial=StepResult(state=state, events=tuple(events)))
    store_moves(store, 6)
    return save(store, tmp_path / "game.nctui.json", GAME_ID)


def _hand_with(card: str):
    def edit(d: dict) -> None:
        d["start"]["players"][0]["hand"].append(card)

    return edit


def _no_actions(edit):
    """The edit, and the actions dropped with the state digest, as if whoever edited the start
    had fixed the rest: only the starting position is left to check."""

    def both(d: dict) -> None:
        edit(d)
        d.update(actions=[], cursor=0, state_digest="")

    return both


START_EDITS = {
    "999 Followers": (
        lambda d: d["start"]["players"][0].update(supply=999),
        "has a starting position that breaks the rules: seat 0: Followers not conserved (999+",
    ),
    "unknown card in a hand": (
        _hand_with("d1-no-such-card"),
        "has a starting position that breaks the rules: an unknown Development card (seat 0): 'd1-no-such-card'",
    ),
    "unknown area": (
        lambda d: d["start"]["players"][1].update(shaper="atlantis"),
        "has a starting position that breaks the rules: seat 1: the Shaper is in no area in play",
    ),
}


@pytest.mark.parametrize("only_the_start", [False, True], ids=["with-actions", "start-only"])
@pytest.mark.parametrize("kind", list(START_EDITS))
def test_a_start_that_breaks_the_rules_is_refused_before_play(
    started_from_a_position: Path, kind: str, only_the_start: bool
):
    path = started_from_a_position
    assert load(path).store.initial.state.turn_start >= 0  # the scenario's start is in the file, and loads
    edit, words = START_EDITS[kind]
    _rewrite(path, _no_actions(edit) if only_the_start else edit)
    before = path.read_bytes()
    with pytest.raises(SaveError) as err:
        load(path)
    assert str(err.value) == f"game.nctui.json: {err.value.problem}" and words in err.value.problem
    assert "\n" not in str(err.value) and path.read_bytes() == before


# -- issue 41, item 8: what is too large is refused early; summaries are bounded -----------------


def test_a_save_of_more_actions_than_any_game_is_refused_before_any_is_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A 12 MB save of 800k actions took 7-38 s: every action was decoded before the replay
    refused the 31st."""
    store = Store(human_config())
    store_moves(store, 3)
    data = msgspec.json.decode(saves.encode(store, GAME_ID))
    data["actions"] = data["actions"] * (saves.MAX_ACTIONS // len(data["actions"]) + 1)
    path = tmp_path / "long.nctui.json"
    path.write_bytes(msgspec.json.encode(data))
    decoded: list[object] = []
    monkeypatch.setattr(saves, "_decoder", lambda typ: decoded.append(typ))  # never asked for
    with pytest.raises(SaveError, match=f"more than any game \\({saves.MAX_ACTIONS}\\)"):
        load(path)
    assert decoded == []


def test_the_actions_are_decoded_by_one_decoder_made_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store = Store(human_config())
    store_moves(store, 40)
    path = save(store, tmp_path / "a.nctui.json", GAME_ID)
    load(path)
    calls: list[object] = []
    real = msgspec.json.decode

    def counted(data, *args, **kwargs):
        calls.append(kwargs.get("type"))
        return real(data, *args, **kwargs)

    monkeypatch.setattr(msgspec.json, "decode", counted)
    assert load(path).store.state == store.state
    action_type = registry.game("nightmare-cathedral").action_type
    assert action_type not in calls  # not one typed decode per action: the kept decoder's
    assert len(calls) < 10


@pytest.mark.parametrize(
    "field, value",
    [
        ("mode", "m" * 10_000_000),
        ("progress", "p" * 300),
        ("result", "r" * 300),
        ("players", ["x" * 300]),
        ("players", ["Red"] * 1000),
        ("turn", 10**15),
    ],
)
def test_a_summary_far_larger_than_any_game_writes_is_refused_and_lists_stay_small(
    field: str, value: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    """A valid save with a 15 MB summary made the title screen take 15-18 s and 2.7 GB, and
    ``saves list`` over 20 of them printed 300 MB (a Cathedral one: ``NoMatches``)."""
    from nctui.cli import main

    game = registry.game("cathedral")
    config = registry.simulated("cathedral").computer_game(1, ("random", "random"))
    path = save(Store(game=game, initial=game.new(config)), tmp_path / "big.nctui.json", GAME_ID)
    data = msgspec.json.decode(path.read_bytes())
    data["summary"][field] = value
    path.write_bytes(msgspec.json.encode(data))
    with pytest.raises(SaveError, match="is damaged"):
        load(path)
    (listing,) = saves.list_games(tmp_path)
    assert listing.summary is None and listing.problem and len(listing.problem) < 300
    assert main(["saves", "list", "--save-dir", str(tmp_path)]) == 0
    assert main(["saves", "list", "--json", "--save-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert len(out) < 2000, len(out)


# -- issue 41, item 10: round trips keep everything ---------------------------------------------


@pytest.mark.parametrize("game_id", [e.id for e in registry.ENTRIES if e.practice])
def test_a_game_from_a_position_keeps_its_first_entrys_events(game_id: str, tmp_path: Path):
    """A game started from a practice position lost the events of its first entry when saved and
    loaded (345 mismatches): its log began empty after a load."""
    from nctui.platform.session import scenario_session

    positions = registry.load(registry.entry(game_id).practice)(None)
    with_events = 0
    for position in positions:
        session = scenario_session(game_id, position.path, folder=tmp_path)
        game = session.game
        session.store.dispatch(game.options(session.store.state)[0])
        path = session.flush()
        loaded = load(path).store
        session.close(save=False)
        assert loaded.initial.events == session.store.initial.events, position.name
        assert loaded.events_since(-1, None) == session.store.events_since(-1, None)
        again = load(save(loaded, tmp_path / f"again{saves.SUFFIX}", GAME_ID)).store  # and once more
        assert again.initial.events == session.store.initial.events
        with_events += bool(session.store.initial.events)
    assert with_events, "no position begins with events: the test would check nothing"


def test_a_version_2_save_reads_without_start_events(tmp_path: Path):
    store = Store(human_config())
    store_moves(store, 5)
    data = msgspec.json.decode(saves.encode(store, GAME_ID))
    data["version"] = 2
    del data["start_events"]
    path = tmp_path / "v2.nctui.json"
    path.write_bytes(msgspec.json.encode(data))
    assert load(path).store.state == store.state
    data["start_events"] = [{"t": "x"}]
    data["version"] = 3
    path.write_bytes(msgspec.json.encode(data))
    with pytest.raises(SaveError, match=r"is damaged|inconsistent"):
        load(path)
