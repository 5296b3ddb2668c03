"""Count the instructions the terminal UI executes from process start to its first frame, beside a
bare Textual app counted the same way in the same run.

    python benchmarks/ui_instructions.py [--sizes 80x24,120x40] [--json]

Why. ``ui_latency.py`` times the first frame on a real pty, which is what a person sees; but on a
shared machine the same code's first frame swings by a third between runs, and a change worth
2 % cannot be seen. Instructions (valgrind's callgrind) are the same from run to run (within
0.13 % here: a timer of Textual's may fire once more or less) whatever else the machine does,
so two versions of the code can be compared with a single run each. They are not seconds:
system calls, page faults and the terminal's own work are not counted, and an instruction of
the interpreter is not an instruction of ``memcpy``; the ratio in instructions is higher than
the ratio in time (1.38x against 1.30-1.35x at 120x40 on 2026-11-27).

Method. Each program runs on a pty (``ui_latency.Child``) under ``valgrind --tool=callgrind
--dump-before=getppid``, through a prelude that calls ``os.getppid()`` at each phase boundary
(each call ends a part of the profile) and ends the process as soon as Textual has handed its
first frame to the driver (``App._display``: not the ``CSI ? 2026 l`` that ends a frame on the
pty, which Textual writes only once the terminal's answer about synchronized output has come,
later under valgrind's slowness on some runs). The phases:

- the interpreter and Textual's core (``textual.app`` and the Linux driver): the same for both;
- the program's own imports and set-up, up to ``App.run``;
- ``App.run`` to the first frame: composing, mounting, styling, the layout and the drawing.

Before counting, each program runs once untraced, so that ``.pyc`` files are compiled (into a
temporary ``PYTHONPYCACHEPREFIX``), the content pack is cached and nctui keeps its parsed CSS,
as on a second start. ``PYTHONHASHSEED=0`` makes the counts repeatable.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, os.path.dirname(__file__))

from ui_latency import BARE_APP, FIRST_RUN_UP, Child, child_env, parse_sizes

PHASES = ("interpreter + Textual's core", "imports and set-up", "App.run to the first frame")

PRELUDE = textwrap.dedent("""
    import os
    import textual.app
    from textual.drivers import linux_driver
    os.getppid()  # end of phase 1

    _display = textual.app.App._display
    def _first_frame(self, screen, renderable):
        _display(self, screen, renderable)
        if renderable is not None:  # the first frame, handed to the driver
            os.getppid()  # end of phase 3
            os._exit(0)
    textual.app.App._display = _first_frame

    _run = textual.app.App.run
    def _started(self, *args, **kwargs):
        os.getppid()  # end of phase 2
        return _run(self, *args, **kwargs)
    textual.app.App.run = _started
""")

NCTUI = textwrap.dedent("""
    import sys
    sys.argv = ["nctui", "play", "--players", "2", "--seed", "42"]
    from nctui.cli import main
    main()
""")

PROGRAMS = {"bare": BARE_APP, "nctui": NCTUI}
LABELS = {"bare": "bare Textual app (yardstick)", "nctui": "nctui play --players 2"}


def warm(program: str, size: tuple[int, int], env: dict[str, str]) -> None:
    """One untraced start: compiles the .pyc files, fills the pack cache and (staying up) the
    parsed CSS's. Without the parsed CSS kept, nctui's count would include parsing it (~250 M)."""
    child = Child([sys.executable, "-c", PROGRAMS[program]], size, env)
    try:
        child.read_until_quiet(0.5, 60)
        kept = Path(env["XDG_CACHE_HOME"]) / "nctui" / "packs"
        deadline = time.monotonic() + FIRST_RUN_UP + 20
        time.sleep(FIRST_RUN_UP)
        while program == "nctui" and not any(kept.glob("css-*.pickle")) and time.monotonic() < deadline:
            time.sleep(0.25)  # a busy machine: the app keeps its CSS a while after its first frame
    finally:
        child.close()
    if program == "nctui" and not any(kept.glob("css-*.pickle")):
        raise SystemExit("ui_instructions: nctui did not keep its parsed CSS; the count would include parsing it")


def count(program: str, size: tuple[int, int], env: dict[str, str], out: Path) -> list[int]:
    """Instructions of each phase (``PHASES``) of one traced start."""
    argv = [
        "valgrind",
        "--tool=callgrind",
        "--dump-before=getppid",
        f"--callgrind-out-file={out}",
        f"--log-file={out}.log",
        sys.executable,
        "-c",
        PRELUDE + PROGRAMS[program],
    ]
    child = Child(argv, size, env)
    try:
        child.read_until_quiet(20.0, 600)  # under valgrind a start takes ~50x as long
        child.proc.wait(timeout=120)  # it ends itself after the first frame
    except subprocess.TimeoutExpired:
        raise SystemExit(f"ui_instructions: {program} did not end after its first frame (see {out}.log)") from None
    finally:
        child.close()
    parts = []
    for i in range(1, len(PHASES) + 1):
        part = Path(f"{out}.{i}")
        if not part.exists():
            raise SystemExit(f"{program}: no first frame under valgrind (see {out}.log)")
        parts.append(_total(part))
    return parts


def _total(part: Path) -> int:
    for line in part.read_text(errors="replace").splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise SystemExit(f"{part}: no instruction count in it")


def measure(size: tuple[int, int]) -> dict[str, list[int]]:
    with tempfile.TemporaryDirectory() as tmp:
        env = child_env(Path(tmp), pyc=True) | {"PYTHONHASHSEED": "0"}
        env.pop("NCTUI_CACHE_DIR", None)  # the caches go under this run's XDG_CACHE_HOME
        for program in PROGRAMS:
            warm(program, size, env)
        with ThreadPoolExecutor(len(PROGRAMS)) as pool:  # one per core: each count is its own
            jobs = {p: pool.submit(count, p, size, env, Path(tmp) / f"{p}.callgrind") for p in PROGRAMS}
            return {p: job.result() for p, job in jobs.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="80x24,120x40", help="terminal sizes (default 80x24,120x40)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:  # ``make bench`` goes on with the other benchmarks
        print("ui_instructions: skipped, valgrind is not installed (Debian's package valgrind)", file=sys.stderr)
        return
    result: dict[str, object] = {"python": sys.version.split()[0], "phases": PHASES, "sizes": {}}
    if not args.json:
        print(
            f"nctui start-up to the first frame in instructions (callgrind, Python {result['python']}; "
            "the counts do not move with the machine's load)"
        )
    for size in parse_sizes(args.sizes):
        tag = f"{size[0]}x{size[1]}"
        if not args.json and sys.stderr.isatty():
            sys.stderr.write(f"{tag}: counting (about a minute)...\r")
        counts = measure(size)
        totals = {p: sum(c) for p, c in counts.items()}
        figures = {
            "phases": counts,
            "totals": totals,
            "ratio": totals["nctui"] / totals["bare"],
            "extra": {name: n - b for name, n, b in zip(PHASES, counts["nctui"], counts["bare"], strict=True)},
        }
        result["sizes"][tag] = figures  # type: ignore[index]
        if not args.json:
            print(f"\n{tag}: millions of instructions{'':<8}{'bare app':>10}{'nctui':>10}{'nctui - bare':>14}")
            for i, name in enumerate(PHASES):
                b, n = counts["bare"][i], counts["nctui"][i]
                print(f"  {name:<36}{b / 1e6:>10.1f}{n / 1e6:>10.1f}{(n - b) / 1e6:>14.1f}")
            print(
                f"  {'total':<36}{totals['bare'] / 1e6:>10.1f}{totals['nctui'] / 1e6:>10.1f}"
                f"{(totals['nctui'] - totals['bare']) / 1e6:>14.1f}"
            )
            print(f"  {'ratio nctui / bare':<36}{figures['ratio']:>20.3f}x")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
