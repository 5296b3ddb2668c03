"""Time the terminal UI as a person sees it: on a real pty, from process start, beside a bare
Textual app started the same way in the same run.

    python benchmarks/ui_latency.py [--runs 5] [--presses 12] [--quiet-ms 250] [--json]

Method. Each program runs as a child process whose stdin/stdout/stderr are the slave side of a
pseudo-terminal (``os.openpty``) sized to 80x24 or 120x40 (``TIOCSWINSZ``) before it starts;
this script is the terminal: it reads the master side and timestamps every chunk of output.
Like a modern terminal it answers Textual's query for synchronized output (``CSI ? 2026 $ p``)
with "supported", so Textual brackets each frame it writes between ``CSI ? 2026 h`` and
``CSI ? 2026 l``: a *frame* is complete when its ``CSI ? 2026 l`` arrives. A program's first
frame, drawn whole, may come before it has read that answer, unbracketed: it is complete once
its last row is drawn (Textual moves the cursor to each row it draws). The screen is
*settled* when no output arrives for ``--quiet-ms``; the settled time is that of the last byte
before the silence (the silence itself is not counted).

- first frame: process start (just before ``Popen``) to the first complete frame, and to the
  settled screen, for ``nctui play --players 2`` (a new hot-seat game, its game screen straight
  away) and for the yardstick: a bare Textual app (a Header, a Static and a Footer) run by the
  same interpreter with the same environment. The ratio nctui / bare is printed; the median of
  ``--runs`` runs is reported (run 1 also fills the content pack's cache and, staying up 2.5 s,
  the parsed CSS's, as a first run of nctui does, see below, and is reported apart as "cold").
- the first key after start: in each warm run of nctui, once its screen has settled, the digit 1
  (the first option of the first decision) to the settled screen: a figure over ``--runs`` - 1
  starts for the one key of a game that draws every panel's new content (the hands dealt);
- key press: in a running game, the digit 1 (choose the first option of the decision due) to
  the first complete frame and to the settled screen, and the CPU time the process used
  (``/proc/PID/stat``; on a busy machine the least noisy figure); when the keyboard passes to the other
  person (the hand-off screen appears) Enter is pressed and timed apart.

Each child gets a fresh save folder and cache folder (``XDG_CACHE_HOME``) per measurement set.
``.pyc`` files: ``PYTHONDONTWRITEBYTECODE=1`` makes Python start without writing them; the
report says whether they exist for textual and nctui (without them start-up is about 2x slower;
here the venv's textual has them and the editable nctui has not, which is unfair to nctui).
``--pyc`` lets the children compile into a temporary ``PYTHONPYCACHEPREFIX`` (run 1 compiles,
the warm runs use them): start-up as on a normal install. The machine may be shared: medians
of several runs, with the load average, and always compare nctui with the yardstick of the
same run.
"""

from __future__ import annotations

import argparse
import fcntl
import importlib.util
import json
import os
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

SIZES = ((80, 24), (120, 40))
SYNC_QUERY = b"\x1b[?2026$p"
SYNC_REPLY = b"\x1b[?2026;2$y"  # DECRPM: mode 2026 is supported (reset)
SYNC_END = b"\x1b[?2026l"
FIRST_RUN_UP = 2.5  # seconds the first run stays up: nctui keeps the CSS it parsed after 2 (ui.app.CSS_KEPT_AFTER)
HANDOFF_WORDS = b"Pass the keyboard"
HANDOFF_GUARD = 0.45  # seconds a hand-off ignores keys (nctui.ui.screens.handoff.GUARD, 0.4) and a margin
ROOT = Path(__file__).resolve().parent.parent

BARE_APP = textwrap.dedent("""
    from textual.app import App
    from textual.widgets import Footer, Header, Static

    class Bare(App):
        BINDINGS = [("q", "quit", "Quit")]

        def compose(self):
            yield Header()
            yield Static("A bare Textual app: the yardstick.")
            yield Footer()

    Bare().run()
""")


@dataclass
class Child:
    """A program running on a pty that this script reads as its terminal."""

    argv: list[str]
    size: tuple[int, int]
    env: dict[str, str]
    t_start: float = 0.0
    chunks: list[tuple[float, bytes]] = field(default_factory=list)  # (time, bytes) of each read

    def __post_init__(self) -> None:
        master, slave = os.openpty()
        cols, rows = self.size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.master = master
        self.t_start = time.perf_counter()
        self.proc = subprocess.Popen(
            self.argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=self.env,
            cwd=ROOT,
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self._tail = b""

    def read_until_quiet(self, quiet: float, limit: float) -> None:
        """Read output until a frame has come and then no output for ``quiet`` seconds (or
        ``limit`` seconds pass). A frame has come at the end of synchronized output or once the
        last row is drawn: a first frame drawn before the terminal's answer about synchronized
        output was read has no end mark (see ``frames``), and waiting for a later frame's mark
        counted the kept screens' set-up 1.5 s later (a pointer shape written) as settling."""
        deadline = time.perf_counter() + limit
        framed = False
        last_row = f"\x1b[{self.size[1]};1H".encode()
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([self.master], [], [], quiet if framed else deadline - time.perf_counter())
            if not ready:
                if framed:
                    return
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the child is gone
                return
            now = time.perf_counter()
            if not data:
                return
            self.chunks.append((now, data))
            if SYNC_QUERY in self._tail + data:  # answer as a terminal with synchronized output
                os.write(self.master, SYNC_REPLY)
            framed = framed or SYNC_END in self._tail + data or last_row in self._tail + data
            self._tail = data[-16:]

    def send(self, keys: bytes) -> tuple[float, int]:
        """Write ``keys`` as typed; returns the time and the index of the next chunk."""
        mark = len(self.chunks)
        t = time.perf_counter()
        os.write(self.master, keys)
        return t, mark

    def since(self, mark: int) -> bytes:
        return b"".join(data for _, data in self.chunks[mark:])

    def frames(self, mark: int, t0: float, whole: bool = False) -> tuple[float | None, float | None]:
        """Seconds from ``t0`` to the first complete frame after chunk ``mark`` and to the last
        byte (the settled screen); None when nothing came. ``whole``: the first frame draws the
        whole screen, complete once its last row is drawn. Textual brackets a frame with
        synchronized output's marks only once the terminal has answered that it supports them,
        and a program busy starting draws its first frame before it has read the answer: that
        frame ends with no mark, and the first mark was a later frame's (nctui's first frame
        was counted 20-50 ms late while a second frame followed it)."""
        if len(self.chunks) <= mark:
            return None, None
        settled = self.chunks[-1][0] - t0
        last_row = f"\x1b[{self.size[1]};1H".encode()  # Textual moves to each row it draws
        carry = b""
        for t, data in self.chunks[mark:]:
            if SYNC_END in carry + data or (whole and last_row in carry + data):
                return t - t0, settled
            carry = data[-16:]
        return settled, settled

    def cpu(self) -> float:
        """CPU seconds the child has used (user + system): less sensitive to a busy machine
        than wall-clock time, in steps of a clock tick (10 ms)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        os.close(self.master)


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """``--sizes``: terminal sizes as COLSxROWS, comma-separated (a clear message for anything else)."""
    sizes = []
    for item in text.split(","):
        cols, _, rows = item.strip().partition("x")
        if not (cols.isdigit() and rows.isdigit() and int(cols) >= 20 and int(rows) >= 10):
            raise SystemExit(f"--sizes: {item!r} is not a terminal size such as 80x24")
        sizes.append((int(cols), int(rows)))
    return sizes


def child_env(tmp: Path, pyc: bool) -> dict[str, str]:
    env = dict(os.environ)
    if pyc:  # compiled once into a folder of this run's own (the venv is left alone)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    env.update(
        TERM="xterm-256color",
        COLORTERM="truecolor",
        XDG_CACHE_HOME=str(tmp / "cache"),
        NCTUI_SAVE_DIR=str(tmp / "saves"),
        TEXTUAL_ALLOW_SIGNALS="",
    )
    env.pop("NO_COLOR", None)
    env.pop("TEXTUAL", None)
    env.pop("TMUX", None)
    return env


def start_figures(
    argv: list[str],
    size: tuple[int, int],
    env: dict[str, str],
    quiet: float,
    linger: float = 0.0,
    key: bytes | None = None,
) -> tuple[float, float, float, float | None]:
    """Seconds from process start to the first complete frame and to the settled screen, the
    CPU seconds the process used until it settled, and with ``key``, the seconds from that key
    pressed once the screen settled to the settled screen again (None: nothing drawn); the
    program is left running ``linger`` seconds more before it is stopped."""
    child = Child(argv, size, env)
    after_key = None
    try:
        child.read_until_quiet(quiet, limit=30)
        first, settled = child.frames(0, child.t_start, whole=True)
        cpu = child.cpu()
        if key is not None and first is not None:
            t0, mark = child.send(key)
            child.read_until_quiet(quiet, limit=5)
            after_key = child.frames(mark, t0)[1]
        time.sleep(linger)
    finally:
        child.close()
    if first is None or settled is None:
        raise SystemExit(f"no frame from {' '.join(argv)}: {child.since(0)[-400:]!r}")
    return first, settled, cpu, after_key


def key_figures(
    argv: list[str], size: tuple[int, int], env: dict[str, str], quiet: float, presses: int
) -> dict[str, list[tuple[float, float, float]]]:
    """Time ``presses`` digit presses (choose option 1) in a running game: (first frame, settled,
    CPU seconds used) of each; Enter presses on the hand-off screen are timed apart."""
    out: dict[str, list[tuple[float, float, float]]] = {"option": [], "handoff": []}
    child = Child(argv, size, env)
    try:
        child.read_until_quiet(quiet, limit=30)
        on_handoff = HANDOFF_WORDS in child.since(0)
        tries, drawn_at = 0, 0  # drawn_at: the chunk where the last key that drew something began
        taken_from = 0.0  # after Enter on a hand-off, keys are taken from then on
        while len(out["option"]) < presses and tries < 4 * presses:
            tries += 1
            kind, keys = ("handoff", b"\r") if on_handoff else ("option", b"1")
            if on_handoff:  # as a person would: a key the moment the hand-off appears is not taken
                time.sleep(max(0.0, HANDOFF_GUARD - (time.perf_counter() - child.chunks[-1][0])))
            else:  # nor a digit the moment the hand-off closed (it said "Not taken", in a toast)
                time.sleep(max(0.0, taken_from - time.perf_counter()))
            cpu = child.cpu()
            t0, mark = child.send(keys)
            if kind == "handoff":
                taken_from = t0 + HANDOFF_GUARD
            child.read_until_quiet(quiet, limit=5)
            first, settled = child.frames(mark, t0)
            if first is not None and settled is not None:
                out[kind].append((first, settled, child.cpu() - cpu))
                drawn_at = mark
            # On a busy machine the hand-off may be drawn after a silence: look at all output
            # since this key (a key that drew nothing was pressed on a hand-off seen late).
            on_handoff = kind == "option" and HANDOFF_WORDS in child.since(drawn_at)
            if first is None and not on_handoff:
                raise SystemExit(f"no frame after {keys!r}: {child.since(max(0, mark - 3))[-400:]!r}")
    finally:
        child.close()
    return out


def pyc_state() -> str:
    """Whether compiled .pyc files exist for textual and nctui (the start-up doubles without)."""
    found = []
    for name in ("textual.app", "nctui.cli"):
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec else None
        ok = bool(origin) and Path(importlib.util.cache_from_source(origin)).exists()  # type: ignore[arg-type]
        found.append(f"{name.split('.')[0]} {'yes' if ok else 'no'}")
    dont = os.environ.get("PYTHONDONTWRITEBYTECODE") or "unset"
    return f".pyc files: {', '.join(found)} (PYTHONDONTWRITEBYTECODE={dont})"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.0f} ms"


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="start-ups of each program per size (default 5)")
    ap.add_argument("--presses", type=int, default=12, help="option keys timed per size (default 12)")
    ap.add_argument("--quiet-ms", type=int, default=250, help="silence that means the screen settled (default 250)")
    ap.add_argument("--seed", type=int, default=42, help="seed of the game played (default 42)")
    ap.add_argument(
        "--pyc",
        action="store_true",
        help="let the children write and use .pyc files (in a temporary PYTHONPYCACHEPREFIX): "
        "start-up as on a normal install; run 1 compiles",
    )
    ap.add_argument("--sizes", default="80x24,120x40", help="terminal sizes (default 80x24,120x40)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args()
    quiet = args.quiet_ms / 1000

    nctui = [sys.executable, "-m", "nctui", "play", "--players", "2", "--seed", str(args.seed)]
    bare = [sys.executable, "-c", BARE_APP]
    result: dict[str, object] = {
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
        "pyc": "children write and use .pyc files (PYTHONPYCACHEPREFIX)" if args.pyc else pyc_state(),
        "quiet_ms": args.quiet_ms,
        "runs": args.runs,
        "sizes": {},
    }
    if not args.json:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"nctui UI latency on a pty (Python {result['python']}, {os.cpu_count()} CPUs, load average {load})")
        print(f"{result['pyc']}; settled = no output for {args.quiet_ms} ms")
    sizes = parse_sizes(args.sizes)
    for size in sizes:
        tag = f"{size[0]}x{size[1]}"
        with tempfile.TemporaryDirectory() as tmp:
            env = child_env(Path(tmp), args.pyc)
            runs = {"bare": [], "nctui": []}  # type: dict[str, list[tuple[float, float, float, float | None]]]
            for run in range(args.runs):  # interleaved, so both meet the same load
                runs["bare"].append(start_figures(bare, size, env, quiet))
                # run 1 is a first run: up long enough to keep the CSS it parsed for the next ones;
                # in the others the first option key after start is timed too
                runs["nctui"].append(
                    start_figures(
                        nctui,
                        size,
                        env,
                        quiet,
                        linger=FIRST_RUN_UP if run == 0 else 0.0,
                        key=None if run == 0 else b"1",
                    )
                )
            keys = key_figures(nctui, size, env, quiet, args.presses)
        figures: dict[str, float | int] = {}
        for name in ("bare", "nctui"):
            warm = runs[name][1:] or runs[name]
            figures[f"{name}_first_cold"] = runs[name][0][0]
            figures[f"{name}_first"] = median([f for f, _, _, _ in warm])
            figures[f"{name}_settled"] = median([s for _, s, _, _ in warm])
            figures[f"{name}_cpu"] = median([c for _, _, c, _ in warm])
        after_start = [k for _, _, _, k in runs["nctui"][1:] if k is not None]
        figures["first_key_presses"] = len(after_start)
        if after_start:
            figures["first_key_settled"] = median(after_start)
            figures["first_key_settled_max"] = max(after_start)
        for what in ("first", "settled", "cpu"):
            figures[f"ratio_{what}"] = figures[f"nctui_{what}"] / figures[f"bare_{what}"]
        # Each warm run is a pair (the bare app, then nctui, under the same load): the median of
        # the pairs' ratios holds better than the ratio of the medians when the machine's speed
        # drifts between runs (the bare app's first frame swung 420-570 ms in an hour).
        pairs = sorted(n[0] / b[0] for b, n in zip(runs["bare"][1:], runs["nctui"][1:], strict=True)) or [
            figures["ratio_first"]
        ]
        figures["pair_ratio_first"] = median(pairs)
        figures["pair_ratio_first_quartiles"] = (pairs[len(pairs) // 4], pairs[(3 * len(pairs)) // 4])  # type: ignore[assignment]
        for kind, times in keys.items():
            figures[f"{kind}_presses"] = len(times)
            if times:
                figures[f"{kind}_first"] = median([f for f, _, _ in times])
                figures[f"{kind}_settled"] = median([s for _, s, _ in times])
                figures[f"{kind}_settled_max"] = max(s for _, s, _ in times)
                figures[f"{kind}_cpu_mean"] = statistics.mean(c for _, _, c in times)
        result["sizes"][tag] = figures  # type: ignore[index]
        if not args.json:
            f = figures
            print(f"\n{tag}: start-up (median of {max(args.runs - 1, 1)} warm runs; cold = run 1)")
            print(f"  {'':<34}{'first frame':>12}{'settled':>11}{'CPU used':>11}{'cold first':>12}")
            for name, label in (("bare", "bare Textual app (yardstick)"), ("nctui", "nctui play --players 2")):
                print(
                    f"  {label:<34}{ms(f[f'{name}_first']):>12}{ms(f[f'{name}_settled']):>11}"
                    f"{ms(f[f'{name}_cpu']):>11}{ms(f[f'{name}_first_cold']):>12}"
                )
            print(
                f"  {'ratio nctui / bare':<34}{f['ratio_first']:>11.2f}x{f['ratio_settled']:>10.2f}x"
                f"{f['ratio_cpu']:>10.2f}x"
            )
            low, high = f["pair_ratio_first_quartiles"]  # type: ignore[misc]
            print(
                f"  {'first frame, median of the pairs':<34}{f['pair_ratio_first']:>11.2f}x"
                f"   quartiles {low:.2f}-{high:.2f}, {max(args.runs - 1, 1)} pairs (bare, then nctui)"
            )
            print(f"{tag}: key press to the screen (median; CPU: mean)")
            for kind, label in (("option", "1: choose an option"), ("handoff", "Enter on the hand-off")):
                if f.get(f"{kind}_presses"):
                    print(
                        f"  {label:<34}{ms(f[f'{kind}_first']):>12}{ms(f[f'{kind}_settled']):>11}"
                        f"{ms(f[f'{kind}_cpu_mean']):>11}   max settled {ms(f[f'{kind}_settled_max']).strip()}, "
                        f"{f[f'{kind}_presses']} presses"
                    )
            if f.get("first_key_presses"):
                print(
                    f"  {'1 right after start (each start)':<34}{'':>12}{ms(f['first_key_settled']):>11}{'':>11}"
                    f"   max settled {ms(f['first_key_settled_max']).strip()}, {f['first_key_presses']} starts"
                )
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
