"""Saves never lose a game: two real processes playing in one save folder each keep their own
autosave; a new game after an unfinished one keeps both; one game cannot be played by two
processes at once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nctui.games.nightmare_cathedral.engine.config import GameConfig
from nctui.platform import saves
from nctui.platform.session import SessionError, new_session, open_session
from tests.helpers import human_config, store_moves

ROOT = Path(__file__).resolve().parent.parent
WAIT = 120  # seconds: a child that takes longer has hung

# A process playing one all-computer game in a save folder for a while, then closing it; prints
# "<game id> <state id> <last id> <autosave written>".
PLAY = """
import sys, time
from nctui.games.nightmare_cathedral.engine.config import GameConfig
from nctui.platform.session import new_session

folder, seed, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
session = new_session(GameConfig(players=2, seats=("bot", "bot"), seed=seed), folder=folder, bot_delay=0).start()
print("started", flush=True)
sys.stdin.readline()  # both processes play at once
until = time.monotonic() + seconds
while time.monotonic() < until and session.store.state.outcome is None:
    time.sleep(0.01)
path = session.close()
print(session.game_id, session.store.state_id, session.store.last_id, path or "-", flush=True)
"""

# A process holding a game open (its session not closed) until its stdin closes.
HOLD = """
import sys
from nctui.platform.session import open_session

session = open_session(sys.argv[1], folder=sys.argv[2])
print("open", session.game_id, flush=True)
sys.stdin.read()
session.close()
"""


def _python(code: str, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.is_file())


def test_two_processes_playing_in_one_folder_lose_nothing(tmp_path: Path):
    folder = tmp_path / "saves"
    # The same seed on purpose: the same game twice is still two plays, two ids, two autosaves.
    children = [_python(PLAY, str(folder), "77", "2.0") for _ in range(2)]
    try:
        for child in children:
            assert child.stdout is not None and child.stdout.readline().strip() == "started"
        for child in children:  # go
            assert child.stdin is not None
            child.stdin.write("\n")
            child.stdin.flush()
        results = [child.communicate(timeout=WAIT) for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
    reports: list[tuple[str, int, int, Path]] = []
    for child, (out, err) in zip(children, results):
        assert child.returncode == 0, err
        game, state, last, saved = out.split()
        reports.append((game, int(state), int(last), Path(saved)))
    ids = {r[0] for r in reports}
    assert len(ids) == 2
    autosaves = sorted((folder / "autosave").glob("*.nctui.json"))
    assert autosaves == sorted(saves.autosave_path(i, folder) for i in ids)
    for game_id, state_id, last_id, path in reports:
        assert path == saves.autosave_path(game_id, folder)
        loaded = saves.load(path)
        assert loaded.game_id == game_id and saves.is_autosave(path, game_id, folder)
        assert loaded.store.state_id == state_id > 10 and loaded.store.last_id == last_id
    assert not [n for n in _files(folder) if n.endswith(".tmp")]
    listed = {g.game_id for g in saves.list_games(folder, check=True) if not g.problem}
    assert listed == ids


def test_a_new_game_after_an_unfinished_one_keeps_both(tmp_path: Path):
    folder = tmp_path / "saves"
    first = new_session(human_config(seed=1), folder=folder).start()
    store_moves(first.store, 8, seed=1)
    first_path = first.close()
    assert first_path is not None
    first_bytes = first_path.read_bytes()

    second = new_session(human_config(seed=1), folder=folder).start()  # the same settings: another game
    store_moves(second.store, 5, seed=2)
    second_path = second.close()
    assert second_path is not None and second_path != first_path and second.game_id != first.game_id

    assert first_path.read_bytes() == first_bytes  # nothing replaced the first game's autosave
    os.utime(first_path, (1_000_000_000, 1_000_000_000))  # played first (mtimes may tie within a second)
    assert [g.path for g in saves.unfinished(folder)] == [second_path, first_path]
    assert saves.load(first_path).store.state == first.store.state
    assert saves.load(second_path).store.state == second.store.state

    # Continuing the first game keeps its id and writes its own autosave only.
    again = open_session(first_path, folder=folder).start()
    try:
        assert again.game_id == first.game_id and again.autosave_path == first_path
        store_moves(again.store, 3, seed=3)
    finally:
        again.close()
    assert saves.load(first_path).store.state_id == 11
    assert saves.load(second_path).store.state == second.store.state
    # A named save opened is a new game with an autosave of its own: the original stays as it was.
    named = saves.save(second.store, folder / "named.nctui.json", second.game_id)
    copy = open_session(named, folder=folder)
    try:
        assert copy.game_id not in (first.game_id, second.game_id)
    finally:
        copy.close()
    assert len(saves.unfinished(folder)) == 3


def test_one_game_cannot_be_open_twice_at_once(tmp_path: Path):
    folder = tmp_path / "saves"
    session = new_session(human_config(seed=4), folder=folder).start()
    store_moves(session.store, 4, seed=4)
    path = session.close()
    assert path is not None
    before = path.read_bytes()

    holder = _python(HOLD, str(path), str(folder))
    try:
        assert holder.stdout is not None
        line = holder.stdout.readline().split()
        assert line == ["open", session.game_id], holder.stderr.read() if holder.stderr else ""
        with pytest.raises(SessionError, match="open in another nctui"):
            open_session(path, folder=folder)
        assert path.read_bytes() == before
        # Saved under a name, the same game becomes another one, and opens.
        named = folder / "named.nctui.json"
        named.write_bytes(before)
        other = open_session(named, folder=folder)
        assert other.game_id != session.game_id
        other.close()
    finally:
        holder.communicate("", timeout=WAIT)
    assert holder.returncode == 0
    again = open_session(path, folder=folder)  # the holder is gone: its lock with it
    try:
        assert again.game_id == session.game_id
        with pytest.raises(SessionError, match="open in another nctui"):  # and twice in one process neither
            open_session(path, folder=folder)
    finally:
        again.close()


def test_a_session_of_computer_players_autosaves_as_it_goes(tmp_path: Path):
    """In process, with the threads: the autosave follows the game without being asked."""
    session = new_session(GameConfig(players=2, seats=("bot", "bot"), seed=5), folder=tmp_path, bot_delay=0)
    session.start()
    try:
        deadline = time.monotonic() + WAIT
        while session.store.state_id < 30:
            assert time.monotonic() < deadline and not session.bot_error, session.bot_error
            time.sleep(0.01)
        path = session.flush()
    finally:
        final = session.close()
    assert final == path == saves.autosave_path(session.game_id, tmp_path)
    assert saves.load(path).store.state == session.store.state
