"""``nctui serve`` killed with SIGKILL mid-game and started again: the room comes back where it was
and play goes on; the fork server and its client processes do not outlive the server; a
turn-based room keeps its clock (issue 40)."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import Any

import msgspec
import pytest

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.platform.net import protocol as P
from nctui.platform.net.store import RoomRecord
from nctui.platform.net.turns import HOUR, TurnClock
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


def _server(tmp_path: Path) -> tuple[tuple[str, ...], Path, Path]:
    """A server's arguments, data folder and host socket."""
    make_key(tmp_path / "k")
    data = tmp_path / "data"
    return ("--authorized-keys", str(tmp_path / "k.pub")), data, data / "run" / "host.sock"


async def _three_decisions(sock: Path, request: P.CreateRoom) -> int:
    """Ann makes the room ``request`` asks for; she and Bob sit and make three decisions."""
    ann = await Client.connect(sock, "SHA256:ann")
    await ann.send(request)
    await ann.until(P.Rooms)
    seats, last = await _seated(sock)
    for _ in range(3):
        await _decide(seats, last)
    return last[0].state_id


def _stored_clock(data: Path) -> tuple[Any, ...]:
    """Each room's turn-based clock as the rooms database holds it (read beside the server)."""
    db = sqlite3.connect(f"file:{data / 'rooms.db'}?mode=ro", uri=True)
    try:
        records = [msgspec.json.decode(r, type=RoomRecord) for (r,) in db.execute("SELECT record FROM rooms")]
    finally:
        db.close()
    return tuple((r.turn, r.clock) for r in records)


@pytest.mark.parametrize("turn", [None, TurnClock(seconds=HOUR)], ids=["live", "turn-based"])
def test_server_killed_and_restarted_restores_the_room_and_play_goes_on(tmp_path: Path, turn: TurnClock | None) -> None:
    """A turn-based room (issue 40) comes back with the same seat's clock running since the same
    moment: the time it had is neither given back nor lost."""
    args, data, sock = _server(tmp_path)
    server = Server(data, *args)
    try:
        request = P.create_room(CFG, name="before the crash", turn=turn)
        reached = asyncio.run(asyncio.wait_for(_three_decisions(sock, request), 60))
        ((stored, clock),) = _stored_clock(data)
        assert stored == turn and (turn is None or (clock.seat >= 0 and clock.since > 0))
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
            if turn is not None:
                await seats[0].send(P.ListRooms())
                (info,) = (await seats[0].until(P.Rooms)).rooms
                assert info.turn == turn and info.deciding == clock.seat
                assert 0 < info.seats[clock.seat].left <= HOUR
                assert _stored_clock(data) == ((turn, clock),)  # the same turn, running since the same moment
            await _decide(seats, last)
            assert last[0].state_id > reached

        asyncio.run(asyncio.wait_for(second(), 60))
        assert not [line for line in again.lines if re.search(r"Traceback|skipped", line)]
    finally:
        assert again.stop() == 0


def test_a_server_stopped_with_people_connected_stores_every_room_and_stops_quietly(tmp_path: Path) -> None:
    """Ctrl+C while two people sit in a room, one over SSH (the lobby took her back to her seat)
    and one on the host's socket: every room is stored before the rooms database closes (no
    "could not store the game", nothing lost: the room comes back with every decision), and the
    fork server stops without a word ("Exception ignored")."""
    import asyncssh

    from nctui.platform.net.client_app import remember_name

    key = make_key(tmp_path / "k")
    args, data, sock = (
        ("--authorized-keys", str(tmp_path / "k.pub")),
        tmp_path / "data",
        tmp_path / "data/run/host.sock",
    )
    ann_id = str(key.get_fingerprint("sha256"))
    server = Server(data, *args)
    try:

        async def play_and_stay() -> int:
            ann, bob = await Client.connect(sock, ann_id), await Client.connect(sock, "SHA256:bob")
            await ann.send(P.create_room(CFG, name="stopped with people in it"))
            (info,) = (await ann.until(P.Rooms)).rooms
            await ann.send(P.JoinSeat(room=info.id, seat=0))
            await bob.send(P.JoinSeat(room=info.id, seat=1))
            seats, last = [ann, bob], [await ann.until(P.Update), await bob.until(P.Update)]
            for _ in range(3):
                await _decide(seats, last)
            ann.close()
            remember_name(str(sock), ann_id, "Ann")  # seen before: no name question
            conn = await asyncssh.connect(
                "127.0.0.1", server.port, username="ann", client_keys=[key], known_hosts=None, agent_path=None
            )
            proc = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
            assert proc.stdin is not None  # the lobby takes her back to her seat
            await bob.until(P.Presence, lambda m: m.seats[0].status == "here")
            server.stop()  # Ctrl+C with both still connected
            conn.close()
            bob.close()
            return last[0].state_id

        reached = asyncio.run(asyncio.wait_for(play_and_stay(), 90))
        assert server.proc.returncode == 0
        said = "\n".join(server.lines)
        assert "could not store" not in said and "Exception ignored" not in said and "Traceback" not in said, said
    finally:
        server.stop()

    again = Server(data, *args)
    try:
        again.wait_for(r"1 room\(s\) back")

        async def back() -> None:
            ann, bob = await Client.connect(sock, ann_id), await Client.connect(sock, "SHA256:bob")
            await ann.send(P.ListRooms())
            (info,) = (await ann.until(P.Rooms)).rooms
            await ann.send(P.JoinSeat(room=info.id, seat=0))
            await bob.send(P.JoinSeat(room=info.id, seat=1))
            assert (await ann.until(P.Update)).state_id == (await bob.until(P.Update)).state_id == reached

        asyncio.run(asyncio.wait_for(back(), 60))
    finally:
        assert again.stop() == 0
