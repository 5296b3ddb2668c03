"""Time opening the screens of the game (rules, help, timeline, card inspector) on a real pty,
beside a bare Textual app opening a screen of text the same way in the same run.

    python benchmarks/ui_screens.py [--sizes 80x24,120x40] [--opens 7] [--json]

Method (``ui_latency.Child``: this script is the terminal). In a running ``nctui play --players
2`` game each key below is pressed, the screen it opens timed from the key to its first complete
frame and to the settled screen (no output for ``--quiet-ms``), then closed with Escape (timed to
the settled screen under it: a lone Escape is read as a key once ``ESCDELAY`` has passed); each key
``--opens`` times, medians reported. The yardstick: a bare Textual app (38 lines of text and a
``Footer``) whose ``?`` opens a ``ModalScreen`` with the help's text in a scrolling box, as
Textual's own widgets do it, timed the same way and interleaved with nctui's keys, so both meet
the same load. Children write and use ``.pyc`` files (a temporary ``PYTHONPYCACHEPREFIX``).
The rules and the help are made while the game waits (``nctui/ui/screens/kept.py``) and kept
once closed: "first open" is the settled time of the first opening of each (made ahead, a
second after the game came up), the medians are mostly of a kept screen opened again.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(__file__))

from ui_latency import ROOT, Child, child_env, parse_sizes

SCREENS = (("R", "rules"), ("?", "help"), ("t", "timeline"), ("i", "card inspector"))

BARE_MODAL = textwrap.dedent(f"""
    import sys
    sys.path.insert(0, {str(ROOT)!r})
    from textual.app import App
    from textual.containers import VerticalScroll
    from textual.screen import ModalScreen
    from textual.widgets import Footer, Static
    from nctui.ui.screens.help import help_text

    class Text(ModalScreen):
        BINDINGS = [("escape", "dismiss", "Close")]
        DEFAULT_CSS = "Text {{ align: center middle; }} #box {{ width: 90; height: auto; max-height: 100%; }}"

        def compose(self):
            with VerticalScroll(id="box"):
                yield Static(help_text())

    class Bare(App):
        BINDINGS = [("question_mark", "open", "Open"), ("q", "quit", "Quit")]

        def compose(self):
            for i in range(38):
                yield Static(f"[b]{{i}}[/b] " + "some [red]words[/red] " * 8)
            yield Footer()

        def action_open(self):
            self.push_screen(Text())

    Bare().run()
""")


def open_times(child: Child, key: bytes, quiet: float) -> tuple[float, float, float]:
    """Seconds from ``key`` to the first complete frame and to the settled screen, and from the
    Escape that closes it to the settled screen under it."""
    t0, mark = child.send(key)
    child.read_until_quiet(quiet, limit=10)
    first, settled = child.frames(mark, t0)
    t1, shut = child.send(b"\x1b")
    child.read_until_quiet(quiet, limit=10)
    _, closed = child.frames(shut, t1)
    if first is None or settled is None or closed is None:
        raise SystemExit(f"no frame after {key!r}: {child.since(max(0, mark - 3))[-400:]!r}")
    return first, settled, closed


def measure(size: tuple[int, int], opens: int, quiet: float, seed: int) -> dict[str, dict[str, float]]:
    with tempfile.TemporaryDirectory() as tmp:
        env = child_env(Path(tmp), True)
        nctui = Child([sys.executable, "-m", "nctui", "play", "--players", "2", "--seed", str(seed)], size, env)
        bare = Child([sys.executable, "-c", BARE_MODAL], size, env)
        times: dict[str, list[tuple[float, float, float]]] = {name: [] for _, name in SCREENS}
        times["bare"] = []
        try:
            for child in (nctui, bare):
                child.read_until_quiet(0.5, limit=30)
            # past the first seconds' work: nctui keeps its parsed CSS after 2 s, and makes the
            # rules and the help once the game has waited 1.5 s
            time.sleep(3.0)
            for _ in range(opens):
                times["bare"].append(open_times(bare, b"?", quiet))
                for key, name in SCREENS:
                    times[name].append(open_times(nctui, key.encode(), quiet))
        finally:
            nctui.close()
            bare.close()
    return {
        name: {
            "first": statistics.median(f for f, _, _ in got),
            "settled": statistics.median(s for _, s, _ in got),
            "settled_max": max(s for _, s, _ in got),
            "first_open": got[0][1],
            "closed": statistics.median(c for _, _, c in got),
        }
        for name, got in times.items()
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="80x24,120x40", help="terminal sizes (default 80x24,120x40)")
    ap.add_argument("--opens", type=int, default=7, help="times each screen is opened per size (default 7)")
    ap.add_argument("--quiet-ms", type=int, default=250, help="silence that means the screen settled (default 250)")
    ap.add_argument("--seed", type=int, default=42, help="seed of the game (default 42)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args()
    result: dict[str, object] = {
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
        "opens": args.opens,
        "sizes": {},
    }
    if not args.json:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(
            f"opening a screen from the game, key to screen on a pty (median of {args.opens}; "
            f"Python {result['python']}, load average {load})"
        )
    for size in parse_sizes(args.sizes):
        figures = measure(size, args.opens, args.quiet_ms / 1000, args.seed)
        result["sizes"][f"{size[0]}x{size[1]}"] = figures  # type: ignore[index]
        if args.json:
            continue
        print(
            f"\n{size[0]}x{size[1]}{'first frame':>33}{'settled':>11}{'max settled':>14}{'first open':>13}"
            f"{'Esc closes':>13}"
        )
        rows = [("bare Textual app: ? a modal of text", "bare")] + [
            (f"nctui {key}: the {name}", name) for key, name in SCREENS
        ]
        for label, name in rows:
            f = figures[name]
            print(
                f"  {label:<38}{f['first'] * 1000:>6.0f} ms{f['settled'] * 1000:>8.0f} ms"
                f"{f['settled_max'] * 1000:>11.0f} ms{f['first_open'] * 1000:>10.0f} ms"
                f"{f['closed'] * 1000:>10.0f} ms"
            )
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
