"""Print the memory of each person connected to ``nctui serve`` (in the lobby and in a game) and
connect-to-settled-screen, beside a bare Textual app served the same way in the same run.

    python benchmarks/serve_session.py [--sessions 10] [--rounds 5]

The server runs in a process of its own (``serve_common.Server``); people connect over SSH
(loopback, asyncssh's client, an 80x24 pty). The yardstick is a bare Textual app (one line of
text) served the same way: its own fork server, the same SSH front, relay and fork path
(``ServeOptions(app="bare")``).

- memory: ``--sessions`` people connect, one after the other, each to a settled screen: the bare
  app; nctui's lobby (people seen before: no name question); then the same people in games (two
  to a room, every game of the registry in turn, seated beforehand: the lobby takes each back to
  their seat). ``Pss`` of each client process (its share of every page: pages shared with the
  fork server and the other clients count a fraction) and ``Private`` (pages only it has), from
  ``/proc/PID/smaps_rollup``; the fork server's and the serve process's own PSS apart, and the
  whole server (all three) per person. Goal: at most 25 MB PSS per person in a game.
- connect to settled screen: from ``asyncssh.connect`` to the last byte before the screen stays
  still for ``serve_common.QUIET`` (not to a marker: the whole first screen, and what follows it
  at once, such as the rooms the host sends), one connection at a time, ``--rounds`` times each,
  interleaved: the bare app, a person seen before (the lobby, the rooms listed), a person seated
  in a game (their game's screen), a first visit (the name question). Medians, with the mean CPU
  time (the kernel counts it in ticks of 10 ms) of the client process to its settled screen
  (``/proc/PID/stat``: on a busy machine the steadier figure) and of the whole server (serve
  process, fork server, client: the SSH handshake and relay too, as the wall-clock time has
  them), each as a ratio of the bare app's. Goal: the lobby at most 1.3x (wall-clock; on a busy
  machine, the whole server's CPU time stands for it).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from serve_common import Server, Terminal, connect_settled, cpu_seconds, load, make_keys, mb, memory_kib, remember, seat

from nctui.platform import registry

GOAL_MB = 25
GOAL_RATIO = 1.3


def room_configs() -> list[Any]:
    """A new game of each game of the registry, every seat a person's (two where it can)."""
    import msgspec

    configs = []
    for entry in registry.ENTRIES:
        game = registry.game(entry.id)
        config = game.config_type()
        configs.append(msgspec.structs.replace(config, seats=("human",) * len(game.seats(config))))
    return configs


async def until_no_clients(server: Server) -> None:
    end = time.monotonic() + 15
    while server.clients() and time.monotonic() < end:
        await asyncio.sleep(0.05)


async def memory_of(server: Server, terminals: list[Terminal]) -> dict[str, float]:
    await asyncio.sleep(0.5)  # the last screens settled; what the host sent meanwhile applied
    per = [memory_kib(pid) for pid in server.clients()]
    fork, serving = memory_kib(server.fork_server())["Pss"], memory_kib(server.proc.pid)["Pss"]
    for t in terminals:
        t.close()
    await until_no_clients(server)
    pss = statistics.mean(m["Pss"] for m in per)
    return {
        "people": len(per),
        "pss": pss,
        "max": max(m["Pss"] for m in per),
        "private": statistics.mean(m["Private"] for m in per),
        "fork": fork,
        "serve": serving,
        "whole": (sum(m["Pss"] for m in per) + fork + serving) / len(per),
    }


def say_memory(what: str, m: dict[str, float], goal: bool) -> None:
    print(
        f"serve: {what:22} {m['people']:.0f} people: PSS {mb(m['pss'])} per person (max {mb(m['max'])}, private "
        f"{mb(m['private'])}); fork server {mb(m['fork'])}, serve process {mb(m['serve'])}; the whole server "
        f"{mb(m['whole'])} per person" + (f"  [goal: <= {GOAL_MB} MB]" if goal else "")
    )


async def memory(folder: Path, sessions: int) -> None:
    people = sessions - sessions % 2
    keys = make_keys(folder / "bare", people)
    async with Server.running(folder / "bare", "bare") as server:
        terminals = [(await connect_settled(server, k, f"p{i}"))[0] for i, k in enumerate(keys)]
        say_memory("bare Textual app", await memory_of(server, terminals), False)
    keys = make_keys(folder / "nctui", people)
    async with Server.running(folder / "nctui") as server:
        remember(server, keys)
        terminals = [(await connect_settled(server, k, f"p{i}"))[0] for i, k in enumerate(keys)]
        say_memory("nctui, the lobby", await memory_of(server, terminals), False)
        configs = room_configs()
        rooms = [(configs[r % len(configs)], keys[2 * r : 2 * r + 2]) for r in range(people // 2)]
        await asyncio.to_thread(seat, server, rooms)
        terminals = [(await connect_settled(server, k, f"p{i}"))[0] for i, k in enumerate(keys)]
        games = ", ".join(sorted({registry.game_of(c).id for c, _ in rooms}))
        say_memory("nctui, in a game", await memory_of(server, terminals), True)
        print(f"serve:   (the games: {games})")


async def connect_once(server: Server, key: Any, username: str) -> tuple[float, float, float]:
    """One connection to its settled screen: the seconds it took, the CPU seconds of its client
    process, and those of the whole server (the SSH front and relay, the host, the fork, the client)."""
    before, used = set(server.clients()), server.cpu()
    t, took = await connect_settled(server, key, username)
    (pid,) = set(server.clients()) - before
    client, whole = cpu_seconds(pid), server.cpu() - used
    t.close()
    await until_no_clients(server)
    return took, client, whole


async def first_screens(folder: Path, rounds: int) -> None:
    bare_keys = make_keys(folder / "first-bare", 1)
    # seen before (the lobby); seated in a game; never seen (the name question); the seated one's partner
    keys = make_keys(folder / "first-nctui", 4)
    kinds = ("bare", "lobby", "game", "first visit")
    figures: dict[str, list[tuple[float, float, float]]] = {k: [] for k in kinds}
    async with (
        Server.running(folder / "first-bare", "bare") as bare,
        Server.running(folder / "first-nctui") as server,
    ):
        remember(server, keys[:1])
        await asyncio.to_thread(seat, server, [(room_configs()[0], [keys[1], keys[3]])])
        targets = {"bare": (bare, bare_keys[0]), "lobby": (server, keys[0]), "game": (server, keys[1])}
        targets["first visit"] = (server, keys[2])
        for _ in range(rounds + 1):  # the first round untimed: the first connection pays for lazy parts
            for kind in kinds:
                where, key = targets[kind]
                figures[kind].append(await connect_once(where, key, "p"))
    # wall-clock: the median; CPU: the mean (counted in ticks of 10 ms, a median of 5 was 20 or 30 ms)
    med = {
        k: [(statistics.median if i == 0 else statistics.mean)(f[i] for f in figures[k][1:]) for i in range(3)]
        for k in kinds
    }
    for kind in kinds:
        (w, c, s), (bw, bc, bs) = med[kind], med["bare"]
        ratio = "" if kind == "bare" else f": {w / bw:.2f}x wall, {c / bc:.2f}x client CPU, {s / bs:.2f}x server CPU"
        goal = f"  [goal: <= {GOAL_RATIO}x]" if kind == "lobby" else ("  [yardstick]" if kind == "bare" else "")
        print(
            f"serve: connect to settled screen, {kind:11} median of {rounds}: {w * 1000:.0f} ms, CPU (mean): client "
            f"{c * 1000:.0f} ms, whole server {s * 1000:.0f} ms{ratio}{goal}"
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10, help="people connected for the memory figures")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"serve: {load()}")
    with tempfile.TemporaryDirectory(prefix="nctui-bench-") as tmp:
        await memory(Path(tmp), max(2, args.sessions))
        await first_screens(Path(tmp), args.rounds)
    print(f"serve: {load()}")


if __name__ == "__main__":
    asyncio.run(main())
