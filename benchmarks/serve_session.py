"""Print the memory of each connected session and connect-to-first-frame of ``nctui serve``,
paired with a bare Textual app served the same way (same run, same fork-server path).

    python benchmarks/serve_session.py [--sessions 10] [--rounds 5]

- PSS per session: ``--sessions`` people connect over SSH (loopback, asyncssh's client, an 80x24
  pty), each enters a name and sits in the lobby; then ``Pss`` of each client process (its share
  of every page it maps: pages shared with the fork server and the other clients count a fraction)
  and ``Private`` (pages only it has) from ``/proc/PID/smaps_rollup``; the fork server's own PSS is
  given apart. Goal: at most 25 MB PSS per session.
- connect-to-first-frame: from ``asyncssh.connect`` to the first screen's text on the pty (the
  name prompt; the bare app's one line), one connection at a time, ``--rounds`` times each,
  alternating nctui and bare; the medians and their ratio. Goal: at most 1.3x. Also a returning
  person's (their name remembered): the lobby is their first screen.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from serve_common import FIRST_FRAME, LOBBY, Session, children, fork_servers, memory_kib, server


async def first_frames(folder: Path, rounds: int) -> dict[str, list[float]]:
    """Connect-to-first-frame of the bare app, of nctui for a person never named (the name
    question) and of a returning person (their name remembered: the lobby), interleaved."""
    times: dict[str, list[float]] = {"bare": [], "nctui": [], "returning": []}
    async with (
        server(folder / "bare", "bare") as (bare_port, (bare_key,)),
        server(folder / "nctui", "nctui", people=2) as (port, (key, returning)),
    ):
        ports = {
            "bare": (bare_port, bare_key, FIRST_FRAME["bare"]),
            "nctui": (port, key, FIRST_FRAME["nctui"]),
            "returning": (port, returning, LOBBY),
        }  # `key` is never named: the name prompt each time
        s, _ = await Session.open(port, returning, FIRST_FRAME["nctui"])
        s.proc.stdin.write(b"Ret\r")
        await s.until(LOBBY)
        s.close()
        for app in times:  # one untimed connection each: the first pays for lazy parts
            s, _ = await Session.open(*ports[app])
            s.close()
        for _ in range(rounds):
            for app in times:
                s, took = await Session.open(*ports[app])
                times[app].append(took)
                s.close()
                await asyncio.sleep(0.2)
    return times


async def memory(folder: Path, sessions: int, app: str) -> tuple[list[dict[str, int]], dict[str, int]]:
    async with server(folder / f"mem-{app}", app, people=sessions) as (port, keys):
        opened = []
        for i, key in enumerate(keys):
            s, _ = await Session.open(port, key, FIRST_FRAME[app], username=f"p{i}")
            if app == "nctui":
                s.proc.stdin.write(f"player {i}\r".encode())
            opened.append(s)
        await asyncio.sleep(2.0)  # the lobby drawn, the rooms asked for
        (fork,) = fork_servers()
        per = [memory_kib(pid) for pid in children(fork)]
        own = memory_kib(fork)
        for s in opened:
            s.close()
        return per, own


def mb(kib: float) -> str:
    return f"{kib / 1024:.1f} MB"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"serve: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="nctui-bench-") as tmp:
        folder = Path(tmp)
        for app in ("bare", "nctui"):
            per, own = await memory(folder, args.sessions, app)
            pss = statistics.mean(m["Pss"] for m in per)
            private = statistics.mean(m["Private"] for m in per)
            print(
                f"serve: {app:5} {len(per)} sessions: PSS {mb(pss)} per session (private {mb(private)}, "
                f"RSS {mb(statistics.mean(m['Rss'] for m in per))}); fork server PSS {mb(own['Pss'])}"
                + ("  [goal: <= 25 MB]" if app == "nctui" else "  [yardstick]")
            )
        times = await first_frames(folder, args.rounds)
        bare, nctui, back = (statistics.median(times[app]) for app in ("bare", "nctui", "returning"))
        print(
            f"serve: connect to first frame, median of {args.rounds}: bare Textual app {bare * 1000:.0f} ms, "
            f"nctui {nctui * 1000:.0f} ms: {nctui / bare:.2f}x  [goal: <= 1.3x]"
        )
        print(
            f"serve: a returning person's first frame (the lobby), median of {args.rounds}: {back * 1000:.0f} ms: "
            f"{back / bare:.2f}x the bare app's"
        )


if __name__ == "__main__":
    asyncio.run(main())
