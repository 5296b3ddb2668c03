"""Print how fast the terminal UI starts and answers a key, headless (Textual's ``run_test``).

    python benchmarks/ui_startup.py [--runs 5] [--presses 30] [--profile]

Figures, not a pass/fail: compare them between changes, and with the yardstick printed beside
them (a bare Textual app's first frame, measured the same way in the same run). For latency as
a person sees it (a real pty, from process start) see ``ui_latency.py``. A "frame" is the moment Textual hands
a rendered screen to its driver (``App._display``; headless, the driver then writes nothing).

- first frame, new game: ``create_app(GameConfig)`` to the first frame of its game screen.
- first frame, continued long game: a finished 4-player game of random players that rather
  act than stop (~800 decisions: the Time track ends every game after a set number of turns,
  and no seed tried gives more) saved to a file; ``saves.load`` (replaying every decision),
  then ``create_app(store)`` to its first frame, which is the Game over dialog over the game.
  The load is also given alone.
- key press: a digit choosing an option of the decision due, to the last frame it causes
  (mean over ``--presses``; hand-offs are passed with Enter, untimed), in a new hot-seat game
  and in the long game taken back 60 decisions.

The first run in the process pays for the imports' lazy parts and the content pack's caches:
it is given apart ("cold") from the median of the others ("warm"). Wall-clock figures: on a
busy machine (see the load average printed first) they vary by a factor of two.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

t_import = time.perf_counter()
from textual.app import App, ComposeResult  # noqa: E402
from textual.screen import Screen  # noqa: E402
from textual.widgets import Footer, Header, Static  # noqa: E402

from nctui.games.nightmare_cathedral.engine import GameConfig, actions as A, player_view  # noqa: E402
from nctui.games.nightmare_cathedral.engine.config import SeatKind  # noqa: E402
from nctui.games.nightmare_cathedral.ui.screens.game import GameScreen  # noqa: E402
from nctui.platform import saves  # noqa: E402
from nctui.platform.store import Store  # noqa: E402
from nctui.ui.app import create_app  # noqa: E402
from nctui.ui.screens.handoff import HandoffScreen  # noqa: E402
from nctui.ui.widgets.decision import DecisionPanel  # noqa: E402

IMPORT_SECONDS = time.perf_counter() - t_import
SIZES = ((80, 24), (120, 40))
NEW = GameConfig(players=2, seats=("human", "human"), seed=42)
LONG_PLAYERS, LONG_SEED = 4, 7  # seed 7: the longest of seeds 1-10


class BusyBot:
    """A random player that rather acts than stops (no Done, no Pass while there is another
    option): the longest games the rules allow, for a long history."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def choose(self, view) -> A.Action:
        options = view.state.decision.options
        busy = [
            a
            for a in options
            if not isinstance(a, (A.Done, A.KeepDreams, A.ReturnFromLimbo)) and a != A.React(kind="pass")
        ]
        return self._random.choice(busy or options)


def long_game(folder: Path) -> Path:
    """A finished 4-player hot-seat game played by BusyBots, saved in ``folder``."""
    human: SeatKind = "human"
    store = Store(GameConfig(players=LONG_PLAYERS, seats=(human,) * LONG_PLAYERS, seed=LONG_SEED))
    bots = [BusyBot(LONG_SEED * 10 + seat) for seat in range(LONG_PLAYERS)]
    while store.state.decision is not None:
        d = store.state.decision
        store.dispatch(bots[d.seat].choose(player_view(store.state, d.seat)), seen_state_id=store.state_id, seat=d.seat)
    return saves.save(store, folder / "long-game.nctui.json", "longgame0001")


def on_frames(app: Any, note: Callable[[Screen[Any]], None]) -> None:
    """Wrap ``app._display`` (Any: the benchmark replaces the app's method): ``note(screen)`` after
    each frame drawn."""
    display = app._display

    def timed(screen: Screen[Any], renderable: object) -> None:
        display(screen, renderable)
        if renderable is not None:
            note(screen)

    app._display = timed


def record_frames(app: App[Any]) -> list[tuple[float, bool]]:
    """Each frame's time, and whether a game screen is on the stack."""
    frames: list[tuple[float, bool]] = []
    on_frames(
        app,
        lambda screen: frames.append((time.perf_counter(), any(isinstance(s, GameScreen) for s in app.screen_stack))),
    )
    return frames


class BareApp(App[None]):
    """The yardstick: a bare Textual app (a Header, a Static and a Footer)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("A bare Textual app: the yardstick.")
        yield Footer()


async def bare_first_frame(size: tuple[int, int]) -> float:
    """Seconds from making a bare Textual app to its first frame (the yardstick)."""
    t0 = time.perf_counter()
    app = BareApp()
    frames: list[float] = []
    on_frames(app, lambda screen: frames.append(time.perf_counter()))
    async with app.run_test(size=size) as pilot:
        for _ in range(400):
            if frames:
                break
            await pilot.pause(0.005)
    return frames[0] - t0


async def first_frame(make_store, size: tuple[int, int], save_dir: Path) -> float:
    """Seconds from making the store (a new game, or loading a save) to the game's first frame."""
    t0 = time.perf_counter()
    app = create_app(make_store(), save_dir=save_dir, bot_delay=3600)
    frames = record_frames(app)
    async with app.run_test(size=size) as pilot:
        for _ in range(400):
            if any(game for _, game in frames):
                break
            await pilot.pause(0.005)
    return next(t for t, game in frames if game) - t0


async def key_presses(
    store: Store, size: tuple[int, int], presses: int, save_dir: Path
) -> tuple[list[float], list[float]]:
    """Seconds from each digit pressed to the first frame showing the next decision, and to the
    last frame it caused (the screen settled)."""
    app = create_app(store, save_dir=save_dir, bot_delay=3600)
    shown: list[tuple[float, object]] = []  # each frame: its time, the decision panel's prompt

    def prompt_shown(screen: Screen[Any]) -> None:
        if isinstance(screen, GameScreen):
            shown.append((time.perf_counter(), screen.query_one(DecisionPanel).prompt))

    on_frames(app, prompt_shown)
    rng = random.Random(7)
    first: list[float] = []
    last: list[float] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        while len(first) < presses and store.state.decision is not None:
            if isinstance(app.screen, HandoffScreen):
                await pilot.press("enter")
                await pilot.pause()
                continue
            if not isinstance(app.screen, GameScreen):  # a conflict's panel, the King's turn: read, closed
                await pilot.press("escape")
                await pilot.pause()
                continue
            panel = app.screen.query_one(DecisionPanel)
            old = panel.prompt
            assert old is not None, "a game screen with a decision due shows its prompt"
            digit = rng.randint(1, min(panel.page_size(), len(old.options)))
            before, t0 = len(shown), time.perf_counter()
            await pilot.press(str(digit))
            await pilot.pause()
            new = [t for t, prompt in shown[before:] if prompt is not old]
            if new:  # (not when the keyboard passes to another person: the hand-off is drawn)
                first.append(new[0] - t0)
                last.append(shown[-1][0] - t0)
    return first, last


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def row(name: str, runs: list[float]) -> str:
    warm = statistics.median(runs[1:]) if len(runs) > 1 else runs[0]
    return f"{name:<44}{ms(runs[0])}  {ms(warm)}  {ms(max(runs))}"


def press_row(name: str, times: list[float]) -> str:
    return f"{name:<44}{ms(statistics.mean(times))}  {ms(statistics.median(times))}  {ms(max(times))}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="runs of each first-frame figure (the first is cold)")
    ap.add_argument("--presses", type=int, default=30, help="digit presses timed per key-press figure")
    ap.add_argument("--profile", action="store_true", help="profile one continued long game's first frame")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        t = time.perf_counter()
        path = long_game(folder)
        played = time.perf_counter() - t
        t = time.perf_counter()
        long_store = saves.load(path).store
        load = time.perf_counter() - t
        decisions = long_store.last_id

        load_avg = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(
            f"nctui UI startup, headless (Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
            f"load average {load_avg})"
        )
        print(f"imports (nctui.ui.app, textual)             {ms(IMPORT_SECONDS)}")
        print(
            f"long game: {LONG_PLAYERS} players, seed {LONG_SEED}, {decisions} decisions, "
            f"played in {played:.2f} s; {path.stat().st_size // 1024} KiB saved"
        )
        print(f"  load (replay every decision)              {ms(load)}")
        print()
        print(f"{'first frame of the game screen':<44}{'cold':>10}  {'warm':>10}  {'max':>10}")
        for size in SIZES:
            tag = f"{size[0]}x{size[1]}"
            runs = [asyncio.run(bare_first_frame(size)) for _ in range(args.runs)]
            print(row(f"  bare Textual app (yardstick), {tag}", runs))
            runs = [asyncio.run(first_frame(lambda: Store(NEW), size, folder)) for _ in range(args.runs)]
            print(row(f"  new game, {tag}", runs))
            runs = [asyncio.run(first_frame(lambda: saves.load(path).store, size, folder)) for _ in range(args.runs)]
            print(row(f"  continued long game (load + frame), {tag}", runs))
        print()
        print(f"{'key press (a digit) to the frame':<44}{'mean':>10}  {'median':>10}  {'max':>10}")
        for size in SIZES:
            tag = f"{size[0]}x{size[1]}"
            long_store = saves.load(path).store
            long_store.jump(long_store.last_id - 60)
            for name, store in (("new game", Store(NEW)), ("long game", long_store)):
                first, last = asyncio.run(key_presses(store, size, args.presses, folder))
                print(press_row(f"  {name}, {tag}: next decision drawn", first))
                print(press_row(f"  {name}, {tag}: screen settled", last))
        print(f"({args.presses} presses each; a press that passes the keyboard on is not counted)")

        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            asyncio.run(first_frame(lambda: saves.load(path).store, SIZES[1], folder))
            profiler.disable()
            print("\nProfile: a continued long game's first frame at 120x40 (cumulative, top 25)")
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
