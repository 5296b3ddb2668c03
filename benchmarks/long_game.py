"""Does a long game cost more per key than a new one? (issue 39, "Long games stay as quick as new
ones"). In buckets of 100 decisions, a hot-seat game of four people continued at that decision:
the CPU time of the first hand-off's Enter (the person's view and log drawn) and of opening the
timeline (``t``) and closing it, beside a bare Textual app opening and closing a screen of text
the same way in the same run (the yardstick).

    python benchmarks/long_game.py [--decisions 600] [--repeat 3] [--size 80x24] [--json]

Method: one game between greedy computer players is played up to ``--decisions`` decisions
(seed 1 and up, the first game that long: a game of four greedy players has 550-700). For each
bucket start (10, 100, 200, ...) a Store replays that many actions and an app (Pilot,
in-process, no terminal) continues it: its first screen is the hand-off. Enter, then ``t`` and
Escape, are timed in CPU seconds of this process (``time.process_time``: the figure a busy
machine changes least) up to the settled screen. Each figure is the median of ``--repeat``
runs; the goal is every bucket within ±20 % of the first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from msgspec.structs import replace

from nctui.games.nightmare_cathedral.bots import BOTS
from nctui.games.nightmare_cathedral.engine import new_game, player_view, step
from nctui.games.nightmare_cathedral.simulate import make_config
from nctui.platform.store import Store
from tests.helpers import app_settled


def long_game(decisions: int) -> tuple[object, list[object]]:
    """The configuration and actions of the first seeded greedy game of at least ``decisions``."""
    for seed in range(1, 40):
        config = make_config(players=4, seed=seed)
        state = new_game(config).state
        bots = {s: BOTS["greedy"](seed=seed * 10 + s) for s in range(4)}
        actions: list[object] = []
        while state.decision is not None and len(actions) < decisions + 5:
            seat = state.decision.seat
            action = bots[seat].choose(player_view(state, seat))
            actions.append(action)
            state = step(state, action).state
        if len(actions) >= decisions + 5:
            return replace(config, seats=("human",) * 4), actions
    raise SystemExit(f"no greedy game of {decisions} decisions found")


async def _continued(config: object, actions: list[object], n: int, size: tuple[int, int], folder: str):
    from nctui.ui.app import create_app
    from nctui.ui.screens.handoff import HandoffScreen

    store = Store(config, actions=tuple(actions[:n]))
    app = create_app(store, save_dir=folder, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await app_settled(app)
        assert isinstance(app.screen, HandoffScreen), app.screen
        t0 = time.process_time()
        await pilot.press("enter")
        await app_settled(app)
        handoff = time.process_time() - t0
        t0 = time.process_time()
        await pilot.press("t")
        await app_settled(app)
        await pilot.press("escape")
        await app_settled(app)
        timeline = time.process_time() - t0
    return handoff, timeline


async def _bare(size: tuple[int, int]) -> float:
    """The yardstick: a bare Textual app's key opening a screen of text, and Escape closing it."""
    from textual.app import App
    from textual.containers import VerticalScroll
    from textual.screen import ModalScreen
    from textual.widgets import Footer, Static

    class Text(ModalScreen[None]):
        BINDINGS: ClassVar = [("escape", "dismiss", "Close")]

        def compose(self):
            with VerticalScroll():
                yield Static("\n".join(f"line {i}: " + "some words " * 6 for i in range(200)))

    class Bare(App[None]):
        BINDINGS: ClassVar = [("t", "open", "Open")]

        def compose(self):
            for i in range(20):
                yield Static(f"[b]{i}[/b] " + "some [red]words[/red] " * 8)
            yield Footer()

        def action_open(self) -> None:
            self.push_screen(Text())

    app = Bare()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        t0 = time.process_time()
        await pilot.press("t")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        return time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--size", default="80x24")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    size = tuple(int(x) for x in args.size.split("x"))
    assert len(size) == 2
    config, actions = long_game(args.decisions)
    buckets = [10, *range(100, args.decisions + 1, 100)]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        os.environ["NCTUI_SAVE_DIR"] = folder
        for n in buckets:
            runs = [asyncio.run(_continued(config, actions, n, size, folder)) for _ in range(args.repeat)]
            bare = [asyncio.run(_bare(size)) for _ in range(args.repeat)]
            rows.append(
                {
                    "decisions": n,
                    "handoff_ms": 1000 * statistics.median(r[0] for r in runs),
                    "timeline_ms": 1000 * statistics.median(r[1] for r in runs),
                    "bare_ms": 1000 * statistics.median(bare),
                }
            )
    first = rows[0]
    for row in rows:
        row["handoff_vs_first"] = row["handoff_ms"] / first["handoff_ms"] if first["handoff_ms"] else 0.0
        row["timeline_vs_first"] = row["timeline_ms"] / first["timeline_ms"] if first["timeline_ms"] else 0.0
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"4 people, {args.size}, CPU ms (median of {args.repeat}); the yardstick: a bare app's screen open+close")
    print(f"{'decision':>9} {'hand-off':>9} {'× first':>8} {'timeline':>9} {'× first':>8} {'bare app':>9}")
    for row in rows:
        print(
            f"{row['decisions']:>9} {row['handoff_ms']:>9.1f} {row['handoff_vs_first']:>8.2f} "
            f"{row['timeline_ms']:>9.1f} {row['timeline_vs_first']:>8.2f} {row['bare_ms']:>9.1f}"
        )


if __name__ == "__main__":
    main()
