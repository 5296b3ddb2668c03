"""A load benchmark of ``nctui serve``: many scripted people at once, each on their own SSH session
(loopback, asyncssh's client, an 80x24 pty), in the lobby and then playing games; every key timed
to its settled screen.

    python benchmarks/serve_load.py [--sessions 10] [--rounds 8]   # --sessions 50: the full load

The server runs in a process of its own (``serve_common.Server``). Two parts, the same people:

- the lobby: everyone connects at once (people seen before: the lobby is their first screen),
  then each opens the New room screen (``n``), looks at it and closes it (Escape), twice, each
  key after 1-3 s of thought as in the games;
- games: the same people seated two to a room of Nightmare Cathedral beforehand; everyone
  connects at once (the lobby takes each back to their seat: their game's screen), then each room
  plays ``--rounds`` rounds: the person whose turn it is chooses the first option (``1``) and
  the other person looks at the next panel (Tab), each after 1-3 s of thought. A spectator of
  each room over the host's socket says whose turn it is.

A key is timed from writing it to the last byte before its screen stays still for
``serve_common.QUIET`` (its settled screen); a decision is also timed to the other person's
settled screen. Beside the wall-clock figures, the CPU time the whole server used per key while
the games were played (serve process, fork server, client processes) and the memory of each
person in a game. Goal: p95 key to settled screen at most 150 ms with 50 people playing.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from serve_common import (
    Server,
    Terminal,
    connect_settled,
    cpu_seconds,
    load,
    make_keys,
    mb,
    memory_kib,
    pct,
    remember,
    seat,
    watch,
)

from nctui.games.nightmare_cathedral.engine import GameConfig

GOAL_MS = 150
THINK = (1.0, 3.0)  # seconds a person playing thinks before a key
RETRIES = 5  # presses of 1 after the first, when the decision was not taken (the screen was behind)


def figures(name: str, seconds: list[float], goal: bool = True) -> str:
    ms = [s * 1000 for s in seconds]
    return (
        f"serve load: {name:34} {len(ms):4} timed: p50 {pct(ms, 0.5):4.0f} ms, p95 {pct(ms, 0.95):4.0f} ms, "
        f"max {max(ms):4.0f} ms" + (f"  [goal: p95 <= {GOAL_MS} ms]" if goal else "")
    )


async def lobby_person(t: Terminal, rng: random.Random, times: dict[str, list[float]]) -> None:
    for _ in range(2):
        for key, kind in ((b"n", "New room screen (n)"), (b"\x1b", "back to the lobby (Escape)")):
            await asyncio.sleep(rng.uniform(*THINK))
            times[kind].append(await t.press(key))


async def taken(spectator: Any, before: int, wait: float = 3.0) -> bool:
    """Whether the game moved past the state ``before`` within ``wait`` seconds."""
    end = time.monotonic() + wait
    while spectator.game.state_id == before and time.monotonic() < end:
        await asyncio.sleep(0.02)
    return spectator.game.state_id != before


async def play_room(
    pair: list[Terminal], spectator: Any, rounds: int, rng: random.Random, times: dict[str, list[float]]
) -> None:
    for _ in range(rounds):
        game = spectator.game
        decider = game.deciding_seat()
        if decider is None:
            return
        me, other = pair[decider], pair[1 - decider]
        await asyncio.sleep(rng.uniform(*THINK))
        before = game.state_id
        other.recent = b""
        sent = time.perf_counter()
        mine, theirs = await asyncio.gather(me.press(b"1"), other.settle(sent))
        times["a decision (1)"].append(mine)
        times["the decision on the other's screen"].append(theirs)
        for _ in range(RETRIES):  # the person's screen may not have shown the last move yet
            if await taken(spectator, before):
                break
            times["retries"].append(await me.press(b"1"))
        else:
            raise SystemExit("serve load: a decision was not taken")
        await asyncio.sleep(rng.uniform(*THINK))
        times["the next panel (Tab)"].append(await other.press(b"\t"))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10, help="people (an even number)")
    parser.add_argument("--rounds", type=int, default=8, help="decisions per room")
    args = parser.parse_args()
    people = max(2, args.sessions - args.sessions % 2)
    print(f"serve load: {people} people, {load()}")
    rng = random.Random(1)
    with tempfile.TemporaryDirectory(prefix="nctui-load-") as tmp:
        keys = make_keys(Path(tmp), people)
        async with Server.running(Path(tmp)) as server:
            remember(server, keys)
            lobby: dict[str, list[float]] = {"New room screen (n)": [], "back to the lobby (Escape)": []}
            opened = await asyncio.gather(*(connect_settled(server, k, f"p{i}") for i, k in enumerate(keys)))
            print(figures("connect to the settled lobby", [took for _, took in opened], goal=False))
            await asyncio.gather(*(lobby_person(t, random.Random(rng.random()), lobby) for t, _ in opened))
            for kind, seconds in lobby.items():
                print(figures(kind, seconds))
            for t, _ in opened:
                t.close()
            end = time.monotonic() + 15
            while server.clients() and time.monotonic() < end:
                await asyncio.sleep(0.05)

            config = GameConfig(players=2, seats=("human", "human"))
            pairs = [keys[i : i + 2] for i in range(0, people, 2)]
            rooms = await asyncio.to_thread(seat, server, [(config, pair) for pair in pairs])
            spectators = [await asyncio.to_thread(watch, server, room) for room in rooms]
            opened = await asyncio.gather(*(connect_settled(server, k, f"p{i}") for i, k in enumerate(keys)))
            print(figures("connect to the settled game screen", [took for _, took in opened], goal=False))
            terminals = [t for t, _ in opened]
            games: dict[str, list[float]] = {
                "a decision (1)": [],
                "the decision on the other's screen": [],
                "the next panel (Tab)": [],
                "retries": [],
            }
            cpu0, own0, t0 = server.cpu(), cpu_seconds(os.getpid()), time.perf_counter()
            await asyncio.gather(
                *(
                    play_room(
                        terminals[2 * r : 2 * r + 2], spectators[r], args.rounds, random.Random(rng.random()), games
                    )
                    for r in range(len(rooms))
                )
            )
            took = time.perf_counter() - t0
            cpu = server.cpu() - cpu0
            own = cpu_seconds(os.getpid()) - own0
            mem = [memory_kib(pid) for pid in server.clients()]
            for kind, seconds in games.items():
                if kind != "retries":
                    print(figures(kind, seconds))
            print(f"serve load: a decision pressed again (not taken: the screen was behind): {len(games['retries'])}")
            keys_pressed = len(games["a decision (1)"]) + len(games["the next panel (Tab)"])
            print(
                figures(
                    "every key in the games",
                    games["a decision (1)"] + games["the next panel (Tab)"],
                )
            )
            print(
                f"serve load: {keys_pressed} keys in {took:.0f} s ({keys_pressed / took:.1f} a second): the server "
                f"used {cpu:.1f} CPU s ({cpu / keys_pressed * 1000:.0f} ms a key, {cpu / took * 100:.0f} % of one "
                f"core); the benchmark's own SSH clients {own:.1f} CPU s"
            )
            print(
                f"serve load: in the games, per person PSS {mb(statistics.mean(m['Pss'] for m in mem))}, private "
                f"{mb(statistics.mean(m['Private'] for m in mem))} ({len(mem)} client processes)  [goal: <= 25 MB]"
            )
            for t in terminals:
                t.close()
            for s in spectators:
                s.close()
    print(f"serve load: {load()}")


if __name__ == "__main__":
    asyncio.run(main())
