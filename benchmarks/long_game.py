"""Does a long game cost more per key than a new one? (issue 39, "Long games stay as quick as new
ones"). In buckets of 100 decisions, a hot-seat game of four people continued at that decision:
the CPU time of each key and screen a person uses, beside a bare Textual app opening and closing
a screen of text in the same run (the yardstick), and whether the last bucket costs no more than
20 % above the first, key by key.

    python benchmarks/long_game.py [--decisions 800] [--repeat 3] [--size 80x24] [--calls] [--json]

The game. Four seats played by a seeded computer player built to make long games (``LongBot``:
it never stops early, no Done, no Pass while anything else is offered, and of the rest it takes
the option after which the next decision has the most options, reading the whole state: a
benchmark's tool, not a player): the first seed (1 and up) whose game is at least ``--decisions``
+ ``AHEAD`` decisions long (seeds 1-12 give 622-892; greedy players give 550-700, a random player
that rather acts 650-770).

The keys. For each bucket start (10, 100, ..., ``--decisions``) a Store replays the actions up to
the first decision from there on that is another person's than the last one's, and an app (Pilot,
in process, no terminal; practice undo, so that u and r act) continues it, its first screen the
hand-off to that person. In this order, each timed from the press to the settled screen (and,
for a key that changes the game, to its autosave written: it runs on its own thread of the same
process): **hand-off** (Enter on the first hand-off after continuing), **made ahead** (what the
game makes out of sight once it waits: the rules, the help, the timeline; ``shell.PREPARE_AFTER``
is put off and this is run once here, where a person reads their screen), **Tab** (the next
panel), **log** (``l`` to show it and ``l`` back), **help** (``?`` and Escape), **timeline** (``t``
and Escape, made ahead before), **decision** (``1``: the first option, again until the keyboard passes
to another person, at most ``DECISIONS`` times), the hand-off that brought (**hand-off after a
decision**), **timeline after a decision** (``t`` and Escape with
the game changed since it was made ahead), **undo** (``u``), **redo** (``r``), **save** (``s`` and
Enter: the file written). A screen a decision brings up (a hand-off, a conflict) is closed
untimed before the next key; a hand-off is read 0.15 s before its Enter (the next person's view
is drawn ahead under it from 0.1 s on, ``shell.REHEARSE_AFTER``). Each key's figure is the median
over ``--repeat`` runs (and, for the keys timed twice in one run, over both); the runs go round
the buckets in turn, after one run that is not counted (the code warm).

Times are CPU seconds of this process (``time.process_time``: every thread, the autosave's too),
the figure a busy machine changes least; on a loaded machine a bucket still moves by ±20 % from
run to run, and the yardstick with it: the verdict compares the last bucket with the first, each
divided by its bucket's yardstick (the bare app measured just after it). ``--calls`` counts each
key's Python function calls instead (cProfile, the app's thread: not the autosave's, nor C code
such as msgspec's), at the first and the last bucket, once: the same figure whatever the load,
for seeing whether a key's work grows with the game. The collector is set as ``nctui play`` sets
it (its thresholds, off until the first frame, then what was made before it frozen).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from msgspec.structs import replace

from nctui.games.nightmare_cathedral.engine import actions as A, new_game, step
from nctui.games.nightmare_cathedral.simulate import make_config
from nctui.platform.store import Store
from tests.helpers import app_settled

AHEAD = 40  # decisions the game must have after the last bucket (the keys decide some)
DECISIONS = 12  # decisions taken at most (``1``) for the keyboard to pass to another person
GOAL = 0.20  # the last bucket no more than 20 % above the first

KEYS = (
    "hand-off",
    "made ahead",
    "Tab",
    "log",
    "help",
    "timeline",
    "decision",
    "hand-off after a decision",
    "timeline after a decision",
    "undo",
    "redo",
    "save",
)


class LongBot:
    """A seeded player that makes long games (the module's docstring); it reads the whole state."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def choose(self, state: Any) -> Any:
        options = state.decision.options
        busy = [
            a
            for a in options
            if not isinstance(a, (A.Done, A.KeepDreams, A.ReturnFromLimbo)) and a != A.React(kind="pass")
        ] or list(options)
        if len(busy) == 1:
            return busy[0]

        def after(action: Any) -> float:
            following = step(state, action).state.decision
            return -1.0 if following is None else len(following.options) + self._random.random()

        return max(busy, key=after)


class Game(NamedTuple):
    config: Any
    actions: list[Any]
    seats: list[int]  # the seat deciding at each state (the one that takes ``actions[i]``)
    seed: int

    def passing_at(self, n: int) -> int:
        """The first state from ``n`` on whose decision is another person's than the last one's: a
        game continued there hands the keyboard to someone new."""
        return next(k for k in range(max(n, 1), len(self.seats)) if self.seats[k] != self.seats[k - 1])


def long_game(decisions: int) -> Game:
    """The first LongBot game of at least ``decisions`` + ``AHEAD`` decisions."""
    for seed in range(1, 40):
        config = make_config(players=4, seed=seed)
        state = new_game(config).state
        bots = [LongBot(seed * 10 + s) for s in range(4)]
        actions: list[Any] = []
        seats: list[int] = []
        while state.decision is not None and len(actions) < decisions + AHEAD:
            seats.append(state.decision.seat)
            action = bots[state.decision.seat].choose(state)
            actions.append(action)
            state = step(state, action).state
        if len(actions) >= decisions + AHEAD:
            return Game(replace(config, seats=("human",) * 4), actions, seats, seed)
    raise SystemExit(f"no game of {decisions + AHEAD} decisions found")


class Run:
    """One app continued at a decision, and the figures of its keys."""

    def __init__(self, app: Any, pilot: Any) -> None:
        self.app, self.pilot = app, pilot
        self.figures: dict[str, list[float]] = defaultdict(list)

    async def settled(self) -> None:
        await app_settled(self.app)
        session = self.app.game
        # a change's autosave (its own thread, 0.15 s after the game was still): waited for
        while session.autosave_path is not None and session._written != session.store.revision:
            await asyncio.sleep(0.01)
        await app_settled(self.app)

    counting = False  # --calls: the Python function calls of this thread, not the CPU time

    async def reading(self) -> None:
        """A person reads the hand-off before Enter: the game draws their view ahead under it
        meanwhile (``shell.REHEARSE_AFTER``), as it does for anyone slower than 0.1 s."""
        from nctui.ui.screens import shell

        await asyncio.sleep(shell.REHEARSE_AFTER + 0.05)
        await self.settled()

    async def timed(self, name: str, *keys: str) -> None:
        async def press() -> None:
            for key in keys:
                await self.pilot.press(key)
                await self.settled()

        await self._measured(name, press)

    async def timed_call(self, name: str, call: Callable[[], None]) -> None:
        async def called() -> None:
            call()
            await self.settled()

        await self._measured(name, called)

    async def _measured(self, name: str, work: Callable[[], Awaitable[None]]) -> None:
        if self.counting:
            profile = cProfile.Profile()
            profile.enable()
            await work()
            profile.disable()
            self.figures[name].append(float(pstats.Stats(profile).total_calls))  # type: ignore[attr-defined]
            return
        t0 = time.process_time()
        await work()
        self.figures[name].append(time.process_time() - t0)

    async def back_to_game(self, *, time_handoff: str = "") -> None:
        """Close what a key brought up over the game (a hand-off: Enter, timed as ``time_handoff``
        if given; anything else: Escape)."""
        from nctui.games.nightmare_cathedral.ui.screens.game import GameScreen
        from nctui.ui.screens.handoff import HandoffScreen

        for _ in range(20):
            screen = self.app.screen
            if isinstance(screen, GameScreen):
                return
            if isinstance(screen, HandoffScreen) and time_handoff:
                await self.reading()
                await self.timed(time_handoff, "enter")
            else:
                await self.pilot.press("enter" if isinstance(screen, HandoffScreen) else "escape")
                await self.settled()
        raise RuntimeError(f"cannot get back to the game from {self.app.screen}")


async def _continued(config: Any, actions: list[Any], n: int, size: tuple[int, int]) -> dict[str, list[float]]:
    from nctui.games.nightmare_cathedral.ui.screens.game import GameScreen
    from nctui.ui.app import create_app
    from nctui.ui.screens.handoff import HandoffScreen
    from nctui.ui.textual_ext.collector import steady_collector

    with tempfile.TemporaryDirectory() as folder:
        store = Store(config, actions=tuple(actions[:n]))
        gc.disable()  # as `nctui play`: off until the first frame, then what was made frozen
        steady_collector()
        app = create_app(store, save_dir=folder, bot_delay=0, undo="practice")
        app.collect_once_drawn = True
        try:
            async with app.run_test(size=size) as pilot:
                run = Run(app, pilot)
                await run.settled()
                assert isinstance(app.screen, HandoffScreen), app.screen
                await run.reading()
                await run.timed("hand-off", "enter")
                await run.back_to_game()
                await run.timed_call("made ahead", app.game_screen()._prepare_screens)
                await run.timed("Tab", "tab")
                await run.timed("log", "l", "l")
                await run.timed("help", "question_mark", "escape")
                await run.timed("timeline", "t", "escape")
                for _ in range(DECISIONS):  # until the keyboard passes to another person
                    await run.timed("decision", "1")
                    if not isinstance(app.screen, GameScreen):
                        break
                await run.back_to_game(time_handoff="hand-off after a decision")
                await run.timed("timeline after a decision", "t", "escape")
                await run.timed("undo", "u")
                await run.back_to_game()
                await run.timed("redo", "r")
                await run.back_to_game(time_handoff="hand-off after a decision")
                await run.timed("save", "s", "enter")
                await run.back_to_game()
                await run.timed("Tab", "tab")
        finally:
            gc.enable()
            gc.unfreeze()
    return run.figures


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
        await app_settled(app)
        run = Run(app, pilot)

        async def opened_and_closed() -> None:
            for key in ("t", "escape"):
                await pilot.press(key)
                await app_settled(app)

        await run._measured("bare app", opened_and_closed)
        return run.figures["bare app"][0]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=800)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--size", default="80x24")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--calls",
        action="store_true",
        help="count each key's Python function calls (the app's thread, cProfile) at the first and last bucket, "
        "once: the same from run to run whatever the load",
    )
    args = parser.parse_args()
    Run.counting = args.calls
    width, height = (int(x) for x in args.size.split("x"))
    size = (width, height)

    from nctui.ui.screens import shell
    from nctui.ui.screens.handoff import HandoffScreen

    shell.PREPARE_AFTER = 3600.0  # made ahead once, where the benchmark says (the docstring)
    HandoffScreen.guard = 0.0  # keys at machine speed are taken
    os.environ.setdefault("NCTUI_SAVE_DIR", tempfile.mkdtemp(prefix="nctui-long-game-"))

    game = long_game(args.decisions)
    config, actions, seed = game.config, game.actions, game.seed
    buckets = [10, *range(100, args.decisions + 1, 100)]
    if args.calls:
        buckets, args.repeat = [buckets[0], buckets[-1]], 1
    load_before = os.getloadavg()[0]
    asyncio.run(_continued(config, actions, game.passing_at(buckets[-1]), size))  # not counted: the code warm
    figures: dict[int, dict[str, list[float]]] = {n: defaultdict(list) for n in buckets}
    bare: dict[int, list[float]] = {n: [] for n in buckets}
    for _ in range(args.repeat):
        for n in buckets:
            for key, values in asyncio.run(_continued(config, actions, game.passing_at(n), size)).items():
                figures[n][key].extend(values)
            bare[n].append(asyncio.run(_bare(size)))
    load_after = os.getloadavg()[0]
    scale = 1 / 1000 if args.calls else 1000  # thousands of calls, or ms
    unit = "thousands of Python function calls (the app's thread)" if args.calls else "CPU ms"
    rows = [
        {
            "decisions": n,
            "continued at": game.passing_at(n),
            **{key: scale * statistics.median(figures[n][key]) for key in KEYS if figures[n][key]},
            "bare app": scale * statistics.median(bare[n]),
        }
        for n in buckets
    ]
    first, last = rows[0], rows[-1]
    # the ratio, and the ratio of each figure to the yardstick of its bucket (the machine's load moves both)
    drift = last["bare app"] / first["bare app"] if first["bare app"] else 1.0
    verdict = {
        key: {
            "first": first[key],
            "last": last[key],
            "ratio": last[key] / first[key] if first[key] else 0.0,
            "to_yardstick": last[key] / first[key] / drift if first[key] else 0.0,
        }
        for key in KEYS
        if key in first and key in last
    }
    result = {
        "game": f"4 people, LongBot seed {seed}, {len(actions)} decisions played ahead",
        "size": args.size,
        "unit": unit,
        "repeat": args.repeat,
        "load": [round(load_before, 1), round(load_after, 1)],
        "rows": rows,
        "verdict": verdict,
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(
        f"{result['game']}, {args.size}, {unit} to the settled screen (median of {args.repeat} runs), "
        f"load {load_before:.1f} -> {load_after:.1f}; the yardstick: a bare app's screen opened and closed"
    )
    print(
        "continued at (the first hand-off to another person from the bucket on): "
        + ", ".join(str(row["continued at"]) for row in rows)
    )
    names = [key for key in KEYS if any(key in row for row in rows)]
    print(
        f"{'key':<26}"
        + "".join(f"{n:>7}" for n in buckets)
        + f"  {'last/first':>10}  {'÷ yardstick':>11}  at most +{GOAL:.0%} (÷ yardstick)"
    )
    for key in [*names, "bare app"]:
        cells = "".join(f"{row.get(key, float('nan')):>7.1f}" for row in rows)
        if key == "bare app":
            print(f"{key:<26}{cells}")
            continue
        if key not in verdict:
            print(f"{key:<26}{cells}  {'':>10}  (not met in the first or the last bucket)")
            continue
        ratio, scaled = verdict[key]["ratio"], verdict[key]["to_yardstick"]
        print(f"{key:<26}{cells}  {ratio:>10.2f}  {scaled:>11.2f}  {'yes' if scaled <= 1 + GOAL else 'NO'}")


if __name__ == "__main__":
    main()
