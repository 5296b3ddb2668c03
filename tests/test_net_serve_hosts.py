"""Two ``nctui serve`` hosts on one PostgreSQL database (``--store``): a room is the host's that
made it; that host killed with SIGKILL mid-game, the other takes the room over once the lease ran
out, with every decision, and play goes on there. Loopback only, every process stopped by its PID."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from nctui.platform.net import protocol as P
from tests.serve_helpers import Server, make_key, wait_gone
from tests.test_net_host import Client
from tests.test_net_serve_restart import CFG, _decide, _seated


def test_a_killed_hosts_room_goes_on_on_the_other_host_with_every_decision(tmp_path: Path, pg_url: str) -> None:
    make_key(tmp_path / "k")
    args = ("--authorized-keys", str(tmp_path / "k.pub"), "--store", pg_url, "--lease", "2")
    first = Server(tmp_path / "a", *args)
    other = None
    try:
        other = Server(tmp_path / "b", *args)
        sock_a, sock_b = (tmp_path / d / "run" / "host.sock" for d in "ab")

        async def on_a() -> int:
            ann = await Client.connect(sock_a, "SHA256:ann")
            await ann.send(P.create_room(CFG, name="shared"))
            await ann.until(P.Rooms)
            seats, last = await _seated(sock_a)
            for _ in range(3):
                await _decide(seats, last)
            watcher = await Client.connect(sock_b, "SHA256:cy")
            await watcher.send(P.ListRooms())
            assert (await watcher.until(P.Rooms)).rooms == ()  # the room is a's: b does not run it
            return last[0].state_id

        reached = asyncio.run(asyncio.wait_for(on_a(), 90))
        fork_pid = int(first.wait_for(r"fork server ready \(pid (\d+)\)").group(1))
        first.kill()  # SIGKILL mid-game: no goodbye, no release
        assert wait_gone(fork_pid), "the fork server outlived its host"
        other.wait_for(r"room \w+ taken over", 60)

        async def on_b() -> None:
            seats, last = await _seated(sock_b)
            assert last[0].state_id == last[1].state_id == reached  # no decision lost
            await _decide(seats, last)
            assert last[0].state_id == reached + 1

        asyncio.run(asyncio.wait_for(on_b(), 90))
        assert not [line for line in other.lines if re.search(r"Traceback|could not", line)]
    finally:
        first.stop()
        if other is not None:
            assert other.stop() == 0
