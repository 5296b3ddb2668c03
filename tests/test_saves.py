"""Save files: round trips along random games, atomic writes, and every way a file can be bad."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from nctui import saves
from nctui.bots.random_bot import RandomBot
from nctui.content.loader import get_pack
from nctui.engine import new_game, player_view
from nctui.saves import SaveError, autosave, latest_autosave, load, save, save_dir, state_digest
from nctui.store import Store, StrictPolicy
from tests.helpers import human_config, store_moves

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A valid save of a game some way in."""
    store = Store(human_config(seed=21))
    store_moves(store, 40, seed=21)
    return save(store, tmp_path / "game.nctui.json")


# ----------------------------------------------------------------------------------------------
# Round trips


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 1), (4, 2)])
def test_round_trip_along_a_random_game(tmp_path: Path, players: int, seed: int):
    store = Store(human_config(players, seed))
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    n = 0
    while True:
        if n % 37 == 0 or store.state.decision is None:
            path = save(store, tmp_path / f"at-{n}.nctui.json")
            loaded = load(path)
            assert loaded.state == store.state
            assert loaded.state_id == store.state_id == n
            assert loaded.actions() == store.actions()
        d = store.state.decision
        if d is None:
            break
        store.dispatch(bots[d.seat].choose(player_view(store.state, d.seat)), seat=d.seat)
        n += 1
    assert store.state.phase == "over"


def test_round_trip_keeps_the_redo_branch(tmp_path: Path):
    store = Store(human_config(seed=5))
    store_moves(store, 30, seed=5)
    end = store.state
    for _ in range(4):
        store.undo()
    loaded = load(save(store, tmp_path / "branch.nctui.json"), policy=StrictPolicy())
    assert loaded.state_id == 26 and loaded.state == store.state
    assert loaded.can_redo() and loaded.policy.name == "strict"
    loaded.jump(30)
    assert loaded.state == end


def test_a_game_started_from_a_position_saves_its_start(tmp_path: Path):
    cfg = human_config(seed=6)
    start = new_game(cfg).state
    from msgspec.structs import replace

    odd = replace(start, time=1)  # not what new_game(cfg) gives
    store = Store(initial=type(new_game(cfg))(state=odd, events=()))
    store_moves(store, 10)
    loaded = load(save(store, tmp_path / "pos.nctui.json"))
    assert loaded.initial.state == odd and loaded.state == store.state
    assert msgspec.json.decode((tmp_path / "pos.nctui.json").read_bytes())["start"] is not None


def test_state_digest_is_deterministic_across_processes():
    """msgpack of the state must not depend on hash seeds (set ordering) or the process."""
    cfg = human_config(seed=3)
    store = Store(cfg)
    store_moves(store, 60, seed=3)
    here = state_digest(store.state)
    assert here == state_digest(msgspec.msgpack.decode(msgspec.msgpack.encode(store.state),
                                                         type=type(store.state)))
    code = (
        "import sys, msgspec\n"
        "from nctui.engine import GameConfig\n"
        "from nctui.store import Store\n"
        "from nctui.saves import state_digest\n"
        "from nctui.engine.actions import Action\n"
        "acts = msgspec.json.decode(sys.stdin.buffer.read(), type=list[Action])\n"
        f"cfg = msgspec.json.decode({msgspec.json.encode(cfg).decode()!r}, type=GameConfig)\n"
        "print(state_digest(Store(cfg, actions=acts).state))\n"
    )
    actions = msgspec.json.encode(list(store.actions()))
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
        out = subprocess.run([sys.executable, "-c", code], input=actions, capture_output=True, env=env, check=True)
        assert out.stdout.decode().strip() == here


# ----------------------------------------------------------------------------------------------
# Atomic writing, folders, autosave


def test_atomic_write_leaves_no_temp_file(tmp_path: Path):
    store = Store(human_config())
    store_moves(store, 5)
    path = save(store, tmp_path / "a.nctui.json")
    save(store, path)  # over an existing file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.nctui.json"]


def test_a_failed_write_keeps_the_old_file_and_no_temp_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store = Store(human_config())
    path = save(store, tmp_path / "a.nctui.json")
    before = path.read_bytes()
    store_moves(store, 5)

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saves.os, "replace", broken_replace)
    with pytest.raises(SaveError, match=r"a\.nctui\.json: cannot write: No space left on device"):
        save(store, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["a.nctui.json"]


def test_save_dir_argument_env_and_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(saves.ENV_DIR, raising=False)
    default = save_dir()
    assert default.name == "saves" and "nctui" in str(default)
    monkeypatch.setenv(saves.ENV_DIR, str(tmp_path / "env"))
    assert save_dir() == tmp_path / "env"
    assert save_dir(tmp_path / "arg") == tmp_path / "arg"


def test_autosave_and_continue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(saves.ENV_DIR, str(tmp_path / "saves"))
    assert latest_autosave() is None
    store = Store(human_config(seed=13))
    store.subscribe(lambda s: autosave(s))  # after each decision, as the UI does
    store_moves(store, 25, seed=13)
    path = latest_autosave()
    assert path == tmp_path / "saves" / "autosave.nctui.json"
    assert load(path).state == store.state
    assert saves.list_saves() == [path]
    assert sorted(p.name for p in (tmp_path / "saves").iterdir()) == ["autosave.nctui.json"]


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


BAD_FILES = {
    "truncated": (lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]), "not valid JSON"),
    "random bytes": (lambda p: p.write_bytes(random.Random(7).randbytes(600)), "not valid JSON"),
    "empty": (lambda p: p.write_bytes(b""), "is empty"),
    "another format": (lambda p: p.write_text('{"format": "chess-pgn", "version": 1}'), "not an nctui save file"),
    "no format": (lambda p: p.write_text('{"moves": []}'), "not an nctui save file"),
    "a JSON array": (lambda p: p.write_text("[1, 2, 3]"), "not an nctui save file"),
    "newer version": (lambda p: _rewrite(p, lambda d: d.update(version=999)), "newer nctui"),
    "version zero": (lambda p: _rewrite(p, lambda d: d.update(version=0)), "invalid save format version"),
    "missing field": (lambda p: _rewrite(p, lambda d: d.pop("actions")), "is damaged"),
    "unknown field": (lambda p: _rewrite(p, lambda d: d.update(extra=1)), "is damaged"),
    "tampered action list": (lambda p: _rewrite(p, _drop_last_action), "state digest mismatch"),
    "illegal action": (lambda p: _rewrite(p, _illegal_action), "cannot be replayed: action 3"),
    "cursor out of range": (lambda p: _rewrite(p, lambda d: d.update(cursor=10_000)), "cursor 10000"),
    "other pack digest": (lambda p: _rewrite(p, lambda d: d.update(pack_digest="0" * 64)),
                          "different version of content pack"),
    "unknown pack": (lambda p: _rewrite(p, lambda d: (d.update(pack="nope"), d["config"].update(pack="nope"))),
                     "needs content pack 'nope'"),
    "config and pack disagree": (lambda p: _rewrite(p, lambda d: d.update(seed=d["seed"] + 1)), "inconsistent"),
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
    assert message.startswith("game.nctui.json: ") and expected in message
    assert "\n" not in message
    assert saved.read_bytes() == before
    assert sorted(p.name for p in saved.parent.iterdir()) == listing


def test_a_folder_or_a_missing_file_is_a_clear_error(tmp_path: Path):
    folder = tmp_path / "looks-like.nctui.json"
    folder.mkdir()
    with pytest.raises(SaveError, match=r"looks-like\.nctui\.json: is a folder, not a save file"):
        load(folder)
    assert folder.is_dir() and list(folder.iterdir()) == []
    with pytest.raises(SaveError, match=r"missing\.nctui\.json: no such save file"):
        load(tmp_path / "missing.nctui.json")
    assert not (tmp_path / "missing.nctui.json").exists()


def test_save_file_records_what_the_format_promises(saved: Path):
    data = json.loads(saved.read_bytes())
    assert data["format"] == "nctui-save" and data["version"] == 1
    assert data["pack"] == "base" and data["pack_digest"] == get_pack("base").digest
    assert data["seed"] == data["config"]["seed"] == 21
    assert data["cursor"] == len(data["actions"]) == 40
    assert data["start"] is None
    assert data["state_digest"] == state_digest(load(saved).state)
