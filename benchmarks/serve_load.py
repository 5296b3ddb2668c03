"""A load benchmark of ``nctui serve``: many scripted people at once, each on their own SSH session
(loopback, asyncssh's client, an 80x24 pty), pressing keys; prints key-to-screen-update latency
(p50, p95) and the memory of each session.

    python benchmarks/serve_load.py [--sessions 10] [--keys 12]   # --sessions 50: the full load

Each person connects (all at once), types a name letter by letter on the first-visit prompt (each
letter is echoed: one update), presses Enter, then opens and closes the New room screen (``n``,
Escape) until ``--keys`` keys were timed, 0.2-0.6 s apart. Latency: from writing the key to the
first bytes of the screen's answer on the pty. Memory: PSS and private pages of each client
process while everyone is connected (``/proc/PID/smaps_rollup``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from serve_common import FIRST_FRAME, Session, children, fork_servers, memory_kib, server


async def person(i: int, port: int, key: object, keys: int, latencies: list[float], rng: random.Random) -> Session:
    s, _ = await Session.open(port, key, FIRST_FRAME["nctui"], username=f"p{i}")  # type: ignore[arg-type]
    name = f"player{i:02d}"
    script = [c.encode() for c in name] + [b"\r"] + [b"n", b"\x1b"] * keys
    timed = 0
    for k in script:
        await asyncio.sleep(rng.uniform(0.2, 0.6))
        took = await s.key_to_update(k)
        if k != b"\r":
            latencies.append(took)
            timed += 1
            if timed >= keys:
                break
    return s


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--keys", type=int, default=12, help="keys timed per person")
    args = parser.parse_args()
    print(f"serve load: {args.sessions} sessions, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    rng = random.Random(1)
    latencies: list[float] = []
    with tempfile.TemporaryDirectory(prefix="nctui-load-") as tmp:
        async with server(Path(tmp), "nctui", people=args.sessions) as (port, keys):
            t0 = time.perf_counter()
            sessions = await asyncio.gather(
                *(person(i, port, k, args.keys, latencies, random.Random(rng.random())) for i, k in enumerate(keys))
            )
            took = time.perf_counter() - t0
            (fork,) = fork_servers()
            mem = [memory_kib(pid) for pid in children(fork)]
            for s in sessions:
                s.close()
    ms = [x * 1000 for x in latencies]
    print(
        f"serve load: {len(ms)} keys in {took:.0f} s: key to screen update p50 {pct(ms, 0.5):.0f} ms, "
        f"p95 {pct(ms, 0.95):.0f} ms, max {max(ms):.0f} ms"
    )
    print(
        f"serve load: per session PSS {statistics.mean(m['Pss'] for m in mem) / 1024:.1f} MB, "
        f"private {statistics.mean(m['Private'] for m in mem) / 1024:.1f} MB "
        f"({len(mem)} client processes)"
    )


if __name__ == "__main__":
    asyncio.run(main())
