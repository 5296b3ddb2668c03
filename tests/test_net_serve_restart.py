"""``nctui serve`` killed with SIGKILL mid-game and started again: the room comes back where it was
and play goes on; the fork server and its client processes do not outlive the server."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.platform.net import protocol as P
from tests.serve_helpers import Server, make_key, wait_gone
from tests.test_net_host import Client, first_option

CFG = GameConfig(players=2, seats=("human", "human"), seed=77)


async def _seated(sock: Path) -> tuple[list[Client], list[P.Update]]:
    """Ann and Bob back in the one room, each on their seat, with the first update each received."""
    ann, bob = await Client.connect(sock, "SHA256:ann"), await Client.connect(sock, "SHA256:bob")
    await ann.send(P.ListRooms())
    (info,) = (await ann.until(P.Rooms)).rooms
    await ann.send(P.JoinSeat(room=info.id, seat=0))
    await bob.send(P.JoinSeat(room=info.id, seat=1))
    return [ann, bob], [await ann.until(P.Update), await bob.until(P.Update)]


async def _decide(seats: list[Client], last: list[P.Update]) -> None:
    """Whoever decides takes the first option; ``last`` becomes the updates after it."""
    up = last[0]
    me = up.deciding
    assert me is not None
    await seats[me].send(first_option(last[me]))
    for i, c in enumerate(seats):
        last[i] = await c.until(P.Update, lambda m, s=up.state_id: m.state_id > s)


def test_server_killed_and_restarted_restores_the_room_and_play_goes_on(tmp_path: Path) -> None:
    make_key(tmp_path / "k")
    args = ("--authorized-keys", str(tmp_path / "k.pub"))
    data = tmp_path / "data"
    sock = data / "run" / "host.sock"
    server = Server(data, *args)
    try:

        async def first() -> int:
            ann = await Client.connect(sock, "SHA256:ann")
            await ann.send(P.create_room(CFG, name="before the crash"))
            await ann.until(P.Rooms)
            seats, last = await _seated(sock)
            for _ in range(3):
                await _decide(seats, last)
            return last[0].state_id

        reached = asyncio.run(asyncio.wait_for(first(), 60))
        fork_pid = int(server.wait_for(r"fork server ready \(pid (\d+)\)").group(1))
        server.kill()  # SIGKILL: no goodbye, no cleanup
        assert wait_gone(fork_pid), "the fork server outlived the server"
    finally:
        server.stop()

    again = Server(data, *args)
    try:
        again.wait_for(r"1 room\(s\) back")

        async def second() -> None:
            seats, last = await _seated(sock)
            assert last[0].state_id == last[1].state_id == reached
            await _decide(seats, last)
            assert last[0].state_id > reached

        asyncio.run(asyncio.wait_for(second(), 60))
        assert not [line for line in again.lines if re.search(r"Traceback|skipped", line)]
    finally:
        assert again.stop() == 0
