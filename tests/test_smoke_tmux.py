"""End to end: the real ``nctui`` command in an 80x24 tmux pane, driven by keys, the screen
read back with ``tmux capture-pane``.

Title → New game → solo against the King → the game → an option → q (save and quit), checking
the text on screen at each step and the autosave afterwards. The tmux server is our own (its
own socket, no user configuration) and is killed at the end. Skipped only when tmux is missing
(``.ci/run`` installs it when it can).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nctui.platform import saves
from nctui.ui.screens.handoff import GUARD as HANDOFF_GUARD
from tests.helpers import present

ROOT = Path(__file__).resolve().parent.parent
TMUX = shutil.which("tmux") or "tmux"
DEADLINE = 20.0  # seconds for one screen to appear (a cold start on a slow CI machine)

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it with apt-get when it can)"
)


def _nctui_command() -> list[str]:
    """The installed console script next to this Python when there is one, else ``-m nctui``."""
    script = Path(sys.executable).with_name("nctui")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "nctui"]


class Pane:
    """One tmux session on a private server, 80x24."""

    def __init__(self, socket: str) -> None:
        self.socket = socket
        self.socket_path: str | None = None

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            [TMUX, "-L", self.socket, "-f", os.devnull, *args], capture_output=True, text=True, timeout=10, check=False
        )
        assert done.returncode == 0, f"tmux {' '.join(args)}: {done.stderr}"
        return done.stdout

    def start(self, command: str) -> None:
        self.tmux("new-session", "-d", "-s", "smoke", "-x", "80", "-y", "24", command)
        self.socket_path = self.tmux("display-message", "-p", "#{socket_path}").strip()

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "smoke")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "smoke", *keys)

    def wait_for(self, *words: str, timeout: float = DEADLINE) -> str:
        """The screen once it shows every one of ``words`` (polled; fails at the deadline)."""
        end = time.monotonic() + timeout
        while True:
            text = self.screen()
            if all(w in text for w in words):
                return text
            if time.monotonic() > end:
                pytest.fail(f"the screen never showed {words!r}; it shows:\n{text}")
            time.sleep(0.1)

    def close(self) -> None:
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True, timeout=10, check=False)
        if self.socket_path:  # tmux leaves its socket file behind
            Path(self.socket_path).unlink(missing_ok=True)


@pytest.fixture
def pane():
    p = Pane(f"nctui-smoke-{os.getpid()}")
    try:
        yield p
    finally:
        p.close()


def test_title_new_solo_game_play_and_quit(pane, tmp_path):
    save_dir = tmp_path / "saves"
    env = {"TERM": "xterm-256color", "NCTUI_SAVE_DIR": str(save_dir), "PYTHONPATH": str(ROOT)}
    # Textual draws on stderr: it is left on the pane. After the app, the exit code stays shown.
    nctui = " ".join(["env", *(f"{k}={shlex.quote(v)}" for k, v in env.items()), *map(shlex.quote, _nctui_command())])
    pane.start(nctui + '; echo "[nctui exited: $?]"; sleep 120')

    title = pane.wait_for("N I G H T M A R E", "n Nightmare Cathedral", "Continue", "Load a saved game", "Quit")
    assert "no unfinished game" in title

    pane.keys("n")
    form = pane.wait_for("New game", "Hot-seat at one keyboard", "Seat 2", "Seed", "Ready:")
    shown = re.search(r"Seed +(\d+)", form)
    assert shown, form
    seed = int(shown.group(1))
    assert f"seed {seed}" in form  # the Ready line names the same seed

    pane.keys("Right")  # solo against the King
    pane.wait_for("Solo against the King", "Difficulty", "Harder:")
    pane.keys("s")
    game = pane.wait_for("Turn track")
    assert "1 Start the Turn track at position 1" in game

    pane.keys("1")
    pane.wait_for("corner")  # the solo setup goes on: your corner of the board
    pane.keys("q")
    after = pane.wait_for("[nctui exited: 0]")
    assert "Game saved to" in after

    store = saves.load(present(saves.latest_autosave(save_dir))).store
    assert store.state_id == 1 and store.state.config.players == 1
    assert store.state.config.seed == seed  # the seed shown is the seed played


def option_key(screen: str, words: str) -> str:
    """The digit of the one option on screen that contains ``words``."""
    found = [m.group(1) for m in re.finditer(r"^\s+(\d) (.*)$", screen, re.M) if words in m.group(2)]
    assert len(found) == 1, f"{words!r} should name one option on screen:\n{screen}"
    return found[0]


def choose(pane: Pane, words: str, *also: str) -> None:
    pane.keys(option_key(pane.wait_for(words, *also), words))


def box_is_whole(screen: str) -> bool:
    """Every line of the panel ends on its right border at the last column: no glyph drawn
    wider (or narrower) by the terminal than by Textual shifted it."""
    rows = [line for line in screen.splitlines() if line.startswith("│")]
    return bool(rows) and all(line.rstrip().endswith("│") and len(line.rstrip()) == 80 for line in rows)


def test_a_conflict_between_two_people_through_the_real_command(pane, tmp_path):
    """The rulebook's conflict example (Practice), hot-seat: Green attacks, Blue answers, and
    both see the conflict panel: cards face down, revealed with ⚔/⛨, damage, the winner."""
    save_dir = tmp_path / "saves"
    example = ROOT / "nctui" / "games" / "nightmare_cathedral" / "practice" / "positions" / "conflict-example-2p.toml"
    env = {"TERM": "xterm-256color", "NCTUI_SAVE_DIR": str(save_dir), "PYTHONPATH": str(ROOT)}
    command = [
        "env",
        *(f"{k}={shlex.quote(v)}" for k, v in env.items()),
        *map(shlex.quote, _nctui_command()),
        "play",
        "--scenario",
        shlex.quote(str(example)),
    ]
    pane.start(" ".join(command) + '; echo "[nctui exited: $?]"; sleep 120')

    choose(pane, "Maneuver: perform it")
    choose(pane, "Done (stop here)", "Move your Shaper")  # keep the MP
    choose(pane, "Conflict in Ash Nave: Green against Blue")
    choose(pane, "Bell of the Waking Hour face down (2⚔ 0⛨)")
    choose(pane, "Mortar of Bone face down (1⚔ 1⛨)", "Done (stop here)")
    pane.wait_for("Pass the keyboard to", "when only Blue is looking")
    time.sleep(HANDOFF_GUARD)  # as a person would: a key the moment the hand-off appears is not taken
    pane.keys("Enter")
    time.sleep(HANDOFF_GUARD)  # a choice right after the hand-off is not taken (a double press)
    choose(pane, "Mirror of Plans face down (2⚔ 0⛨)")
    choose(pane, "Cradle Hymn face down (1⚔ 1⛨)", "Done (stop here)")

    panel = pane.wait_for("Conflict in Ash Nave: Green against Blue", "Space: reveal the cards")
    assert "Green 2 Followers against Blue 1 Follower, Fort 2" in panel
    assert "Green plays card 2 face down" in panel and "Bell of the Waking Hour" not in panel
    pane.keys("Space")
    pane.wait_for("Green reveals Bell of the Waking Hour 2⚔ 0⛨, Mortar of Bone 1⚔ 1⛨ = 3⚔ 1⛨")
    pane.keys("a")
    panel = pane.wait_for("Blue wins: it has the Fort there", "After: Green 0 Followers")
    assert box_is_whole(panel), panel
    pane.keys("Space")
    pane.wait_for("Pass the keyboard to", "when only Green is looking")
    time.sleep(HANDOFF_GUARD)
    pane.keys("Enter")
    panel = pane.wait_for("Conflict in Ash Nave: Green against Blue", "Green plays card 1 face down (Bell")
    pane.keys("Escape")
    pane.wait_for("Draw a Dream card")  # the game goes on: Green's Dream card to draw
    pane.keys("q")
    after = pane.wait_for("[nctui exited: 0]")
    assert "Game saved to" in after


def test_the_rules_and_the_help_open_and_escape_closes_them_through_the_real_command(pane, tmp_path):
    """R and ? in a running game (the rules and the help made while it waited), arrows inside
    the rules (an escape sequence, not a lone Escape and two letters), and Escape, read as the
    key once no more bytes follow (ESCDELAY), back to the game each time."""
    env = {"TERM": "xterm-256color", "NCTUI_SAVE_DIR": str(tmp_path / "saves"), "PYTHONPATH": str(ROOT)}
    command = [
        "env",
        *(f"{k}={shlex.quote(v)}" for k, v in env.items()),
        *map(shlex.quote, _nctui_command()),
        "play",
        "--players",
        "2",
        "--seed",
        "5",
    ]
    pane.start(" ".join(command) + '; echo "[nctui exited: $?]"; sleep 120')

    pane.wait_for("Turn track", "Choose the starting position")
    time.sleep(2.5)  # the game waits: the rules and the help are made (1.5 s)
    for _ in range(2):  # made ahead, then kept
        pane.keys("R")
        rules = pane.wait_for("the rules in brief", "The decision due: Choose the starting position", "SETUP")
        assert "CONTROL & PRESENCE" not in rules
        pane.keys("Down")  # the next section of the contents
        pane.wait_for("CONTROL & PRESENCE")
        pane.keys("Escape")
        game = pane.wait_for("Turn track", "Choose the starting position")
        assert "the rules in brief" not in game
    pane.keys("?")
    pane.wait_for("Nightmare Cathedral — keys", "undo your last decision")
    pane.keys("Escape")
    game = pane.wait_for("Turn track", "Choose the starting position")
    assert "Nightmare Cathedral — keys" not in game
    pane.keys("q")
    pane.wait_for("[nctui exited: 0]")


@pytest.mark.parametrize("wrapped", [False, True], ids=["hang-up signal", "end of input"])
def test_the_game_ends_and_is_saved_when_its_terminal_goes_away(pane, tmp_path, wrapped):
    """The terminal closed under a game (an ssh connection dropped): nctui ends, the decision
    made is in the autosave. Run straight in the pane, the hang-up signal reaches it; in a
    session of its own (``setsid``; ``make play`` under a closed terminal is another such case)
    no signal does, only the end of its input, where Textual's driver read on forever at 100%
    of a core."""
    if wrapped and shutil.which("setsid") is None:
        pytest.skip("setsid is not installed")
    save_dir = tmp_path / "saves"
    env = {"TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    command = " ".join(
        [
            "env",
            *(f"{k}={shlex.quote(v)}" for k, v in env.items()),
            *map(shlex.quote, _nctui_command()),
            "play",
            "--players",
            "2",
            "--seed",
            "3",
            "--save-dir",
            shlex.quote(str(save_dir)),
        ]
    )
    pane.start(f"setsid -w {command}" if wrapped else command)
    choose(pane, "Start the Turn track at position 1")
    pane.wait_for("Conquer an area")  # the decision made: the next one on screen
    found = subprocess.run(["pgrep", "-f", "--", f"--save-dir {save_dir}"], capture_output=True, text=True, check=False)
    pids = found.stdout.split()
    pids = [p for p in pids if "setsid" not in Path(f"/proc/{p}/cmdline").read_text().replace("\0", " ")]
    assert pids
    pane.close()  # the terminal is gone
    end = time.monotonic() + DEADLINE
    while any(Path(f"/proc/{p}").exists() for p in pids) and time.monotonic() < end:
        time.sleep(0.1)
    assert not any(Path(f"/proc/{p}").exists() for p in pids), "nctui outlived its terminal"
    store = saves.load(present(saves.latest_autosave(save_dir))).store
    assert store.state_id == 1  # the decision made
