"""Two ``nctui serve`` hosts on one PostgreSQL database (``--store``): a room is the host's that
made it, listed in both hosts' lobbies; a person on the other host plays in it through that host
(relayed to the owner); the owner killed with SIGKILL mid-game, the other host takes the room over
once the lease ran out, with every decision, and play goes on there. Loopback only, every process
stopped by its PID."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from nctui.platform.net import protocol as P
from tests.serve_helpers import Server, make_key, wait_gone
from tests.test_net_host import Client
from tests.test_net_serve_restart import CFG, _decide, _seated


async def _until_listed(client: Client, room: str) -> None:
    """The room in ``client``'s host's lobby (the other host writes its rooms at each renewal)."""
    while True:
        await client.send(P.ListRooms())
        if room in [r.id for r in (await client.until(P.Rooms)).rooms]:
            return
        await asyncio.sleep(0.1)  # the next look; the caller bounds the wait


def test_a_killed_hosts_room_goes_on_on_the_other_host_with_every_decision(tmp_path: Path, pg_url: str) -> None:
    make_key(tmp_path / "k")
    args = ("--authorized-keys", str(tmp_path / "k.pub"), "--store", pg_url, "--lease", "2")
    first = Server(tmp_path / "a", *args)
    other = None
    try:
        other = Server(tmp_path / "b", *args)
        sock_a, sock_b = (tmp_path / d / "run" / "host.sock" for d in "ab")
        fork_pid = int(first.wait_for(r"fork server ready \(pid (\d+)\)").group(1))

        async def play() -> None:
            ann = await Client.connect(sock_a, "SHA256:ann")
            await ann.send(P.create_room(CFG, name="shared"))
            (info,) = (await ann.until(P.Rooms)).rooms
            bob = await Client.connect(sock_b, "SHA256:bob")  # on the other host
            await asyncio.wait_for(_until_listed(bob, info.id), 30)
            await ann.send(P.JoinSeat(room=info.id, seat=0))
            await bob.send(P.JoinSeat(room=info.id, seat=1))  # b relays Bob to a, which runs the room
            seats, last = [ann, bob], [await ann.until(P.Update), await bob.until(P.Update)]
            for _ in range(3):
                await _decide(seats, last)
            reached = last[0].state_id
            assert reached == last[1].state_id

            await asyncio.to_thread(first.kill)  # SIGKILL mid-game: no goodbye, no release
            moved = await bob.until(P.RoomClosed)  # b tells Bob the room is run elsewhere now
            assert moved.room == info.id and moved.moved
            await asyncio.to_thread(other.wait_for, rf"room {info.id} taken over", 60)

            seats, last = await _seated(sock_b)  # Ann and Bob both on b now
            assert last[0].state_id == last[1].state_id == reached  # no decision lost
            await _decide(seats, last)
            assert last[0].state_id == reached + 1

        asyncio.run(asyncio.wait_for(play(), 150))
        assert wait_gone(fork_pid), "the fork server outlived its host"
        assert [line for line in other.lines if "relayed to" in line]
        assert not [line for line in other.lines if re.search(r"Traceback|could not", line)]
    finally:
        first.stop()
        if other is not None:
            assert other.stop() == 0
