"""Print how long a decision takes to come back as an update through the game host, beside the
same decisions made on a local Session (the yardstick), in the same run.

    python benchmarks/remote_latency.py [--decisions 200] [--players 2]

A host (rooms in SQLite in a temporary folder, computer players off) runs in this process on a
Unix socket; one ``HostLink`` per seat plays every seat's first option. Timed: from
``RemoteGame.send`` to the update of the new state applied by the deciding seat's reader thread
(the socket both ways, the SQLite transaction, the view built and encoded for every connected
seat, and decoded there). The room's seed is the configuration's (a host draws its own). The
yardstick: ``Session.send`` and ``view`` of the same decisions in this process. Figures, not a
pass/fail; wall-clock, so a busy machine (load average printed) doubles them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import threading
import time
from pathlib import Path

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.platform.net.client import HostLink, RemoteGame
from nctui.platform.net.host import Host
from nctui.platform.net.protocol import JoinSeat
from nctui.platform.net.rooms import Rooms
from nctui.platform.net.store_sqlite import SqliteRoomStore
from nctui.platform.session import Session
from nctui.platform.store import Store

STEP = 10.0  # seconds one decision may take before the run stops


def wait(test, what: str) -> None:
    end = time.monotonic() + STEP
    while not test():
        if time.monotonic() > end:
            raise SystemExit(f"remote_latency: no {what} within {STEP} s")
        time.sleep(0.0002)


def remote(config: GameConfig, decisions: int, folder: Path) -> list[float]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    rooms = Rooms(SqliteRoomStore(folder / "rooms.db"), bot_delay=0.0, seeds=lambda: config.seed)
    host = Host(rooms, folder / "sock" / "host.sock")
    asyncio.run_coroutine_threadsafe(host.start(), loop).result(STEP)
    room = rooms.create(config, identity="bench")
    links: list[HostLink] = []
    games: list[RemoteGame] = []
    for seat in range(config.players):
        link = HostLink(host.path, f"SHA256:seat{seat}", f"seat {seat + 1}").connect()
        link.send(JoinSeat(room=room.id, seat=seat))
        wait(lambda lk=link: lk.game is not None, "seat")
        links.append(link)
        assert link.game is not None
        games.append(link.game)
    session = room.session
    times = []
    try:
        for _ in range(decisions):
            decider = session.deciding_seat()
            if decider is None:
                break
            game = games[decider]
            now = session.state_id
            wait(lambda g=game, n=now: g.state_id == n, "update of the last decision")
            decision = game.view(decider).state.decision
            assert decision is not None
            start = time.perf_counter()
            game.send(decision.options[0], seen_state_id=now, seat=decider)
            wait(lambda g=game, n=now: g.state_id > n, "update")
            times.append(time.perf_counter() - start)
    finally:
        for link in links:
            link.close()
        asyncio.run_coroutine_threadsafe(host.close(), loop).result(STEP)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(STEP)
        rooms.close()
    return times


def local(config: GameConfig, decisions: int) -> list[float]:
    session = Session(Store(config), autosave=False)
    times = []
    for _ in range(decisions):
        seat = session.deciding_seat()
        if seat is None:
            break
        decision = session.view(seat).state.decision
        assert decision is not None
        start = time.perf_counter()
        session.send(decision.options[0], seen_state_id=session.state_id, seat=seat)
        session.view(seat)
        times.append(time.perf_counter() - start)
    return times


def quantile(xs: list[float], q: float) -> float:
    return sorted(xs)[round(q * (len(xs) - 1))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    args = parser.parse_args()
    config = GameConfig(players=args.players, seats=("human",) * args.players, seed=7)
    print(f"load average {os.getloadavg()[0]:.2f}, {args.players} players, up to {args.decisions} decisions")
    with tempfile.TemporaryDirectory() as tmp:
        far = remote(config, args.decisions, Path(tmp))
    near = local(config, args.decisions)
    for name, xs in (("through the host", far), ("local Session (yardstick)", near)):
        print(
            f"{name:>26}: {len(xs)} decisions, p50 {quantile(xs, 0.5):.2f} ms, p95 {quantile(xs, 0.95):.2f} ms, "
            f"max {max(xs) * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
