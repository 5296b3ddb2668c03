"""The host over its Unix socket: two protocol clients join one room and decide, a third watches; a
stale action is refused; a malformed message (or a game's data that is not that game's) closes
only its client."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.platform.net import protocol as P
from nctui.platform.net.host import Host
from nctui.platform.net.rooms import Rooms
from nctui.platform.net.store_sqlite import SqliteRoomStore

CFG = GameConfig(players=2, seats=("human", "human"), seed=31)


def seeds(first: int) -> Callable[[], int]:
    """The rooms' seeds of a test: first, first + 1, … (a host draws them at random)."""
    return itertools.count(first).__next__


def view(update: P.Update, game: str = "nightmare-cathedral") -> Any:
    """The view an update carries, read with its game's types."""
    return P.payloads(game).view(update.view)


def events(update: P.Update, game: str = "nightmare-cathedral") -> tuple[Any, ...]:
    return P.payloads(game).events(update.events)


def first_option(update: P.Update) -> P.Act:
    """Nightmare Cathedral: the first option of the decision the update shows, as a request."""
    return P.act(view(update).state.decision.options[0], update.state_id)


class Client:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.received: list[P.HostMessage] = []
        self.frames: list[bytes] = []  # the payload of each message received, as it came

    @classmethod
    async def connect(cls, path: Path, identity: str) -> Client:
        reader, writer = await asyncio.open_unix_connection(str(path))
        c = cls(reader, writer)
        await c.send(P.Hello(version=P.VERSION, identity=identity, name=identity))
        assert isinstance(await c.recv(), P.Welcome)
        return c

    async def send(self, msg: Any) -> None:
        self.writer.write(P.frame(msg))
        await self.writer.drain()

    async def recv(self) -> P.HostMessage:
        header = await asyncio.wait_for(self.reader.readexactly(4), 10)
        payload = await self.reader.readexactly(P.frame_length(header))
        msg = P.decode_host(payload)
        self.received.append(msg)
        self.frames.append(payload)
        return msg

    # ``test`` is called with the message alone; Callable[..., bool] lets it bind values by default
    # arguments (``lambda m, n=now: ...``), against which mypy infers no type for Callable[[Any], bool].
    async def until(self, kind: type, test: Callable[..., bool] = lambda m: True) -> Any:
        while True:
            msg = await self.recv()
            if isinstance(msg, kind) and test(msg):
                return msg

    def close(self) -> None:
        self.writer.close()


# ``press`` is called with no arguments (Callable[..., None]: it may bind values by default arguments).
async def press_until_taken(watcher: Client, press: Callable[..., None], after: P.Update, wait: float) -> P.Update:
    """Press a key on a person's terminal (``press``) until the host's next update after ``after``
    reaches ``watcher``: a key that reached a screen still drawing the last update is not taken
    (its options were not shown yet), so it is pressed again after ``wait`` seconds."""
    for _ in range(30):
        press()
        try:
            return await asyncio.wait_for(watcher.until(P.Update, lambda m: m.state_id > after.state_id), wait)
        except TimeoutError:
            continue
    raise AssertionError(f"no key was taken at state {after.state_id}")


def run_host(
    tmp_path: Path,
    body: Callable[[Path, Rooms], Awaitable[None]],
    *,
    first_seed: int = 31,
    now: Callable[[], float] = time.time,
) -> None:
    """A host on a temporary socket for ``body``; ``now``: its rooms' time source (turn-based clocks)."""

    async def main() -> None:
        rooms = Rooms(SqliteRoomStore(tmp_path / "rooms.db"), bot_delay=0.0, seeds=seeds(first_seed), now=now)
        host = Host(rooms, tmp_path / "sock" / "host.sock")
        await host.start()
        try:
            await asyncio.wait_for(body(host.path, rooms), 240)
        finally:
            await host.close()
            rooms.close()

    asyncio.run(main())


def test_two_players_decide_a_spectator_watches_stale_refused(tmp_path: Path) -> None:
    async def body(path: Path, rooms: Rooms) -> None:
        a, b, w = [await Client.connect(path, i) for i in ("SHA256:ann", "SHA256:bob", "SHA256:cy")]
        await a.send(P.create_room(CFG, name="friends"))
        (info,) = (await a.until(P.Rooms)).rooms
        await a.send(P.JoinSeat(room=info.id, seat=0))
        await b.send(P.JoinSeat(room=info.id, seat=1))
        await w.send(P.Watch(room=info.id))
        await b.send(P.JoinSeat(room=info.id, seat=0))
        assert "taken" in (await b.until(P.Refused)).reason
        last = {a: await a.until(P.Update), b: await b.until(P.Update)}
        for _ in range(2):  # whoever decides, decides
            up = last[a]
            me = a if up.deciding == 0 else b
            await me.send(first_option(last[me]))
            for c in (a, b):
                last[c] = await c.until(P.Update, lambda m, s=up.state_id: m.state_id > s)
        ua = last[a]
        uw = await w.until(P.Update, lambda m: m.state_id == ua.state_id)
        assert view(uw).seat == -1
        me = a if ua.deciding == 0 else b
        await me.send(msgspec.structs.replace(first_option(last[me]), seen_state_id=0))  # chosen at state 0
        refused = await me.until(P.Refused)
        assert refused.stale and "moved on" in refused.reason
        await w.send(first_option(last[me]))
        assert "spectator" in (await w.until(P.Refused)).reason
        room = rooms.get(info.id)
        assert [s.connected for s in room.seats()] == [True, True]
        for c in (a, b, w):
            c.close()

    run_host(tmp_path, body)


def test_malformed_message_closes_only_its_client(tmp_path: Path) -> None:
    async def body(path: Path, rooms: Rooms) -> None:
        good = await Client.connect(path, "SHA256:good")
        bad = await Client.connect(path, "SHA256:bad")
        bad.writer.write(P.HEADER.pack(3) + b"\x93\x01\x02")
        assert "malformed" in (await bad.until(P.Bye)).reason
        assert await bad.reader.read() == b""
        huge = await Client.connect(path, "SHA256:huge")
        huge.writer.write(P.HEADER.pack(10 << 20))
        assert "limit" in (await huge.until(P.Bye)).reason
        stranger_r, stranger_w = await asyncio.open_unix_connection(str(path))
        stranger_w.write(P.frame(P.Hello(version=99, identity="x")))
        header = await stranger_r.readexactly(4)
        bye = P.decode_host(await stranger_r.readexactly(P.frame_length(header)))
        assert isinstance(bye, P.Bye) and "version 99" in bye.reason
        for nonsense in (  # a game's data that is not the game's: one line, that client only
            P.CreateRoom(game="nightmare-cathedral", config=P.raw({"players": "many"})),
            P.Act(action=P.raw(3), seen_state_id=0),
        ):
            odd = await Client.connect(path, "SHA256:odd")
            if isinstance(nonsense, P.Act):
                await odd.send(P.create_room(CFG, name="odd"))
                (info,) = (await odd.until(P.Rooms)).rooms
                await odd.send(P.JoinSeat(room=info.id, seat=0))
                await odd.until(P.Update)
            await odd.send(nonsense)
            bye = await odd.until(P.Bye)
            assert bye.reason.startswith("malformed") and "\n" not in bye.reason
        unknown = await Client.connect(path, "SHA256:unknown")
        await unknown.send(P.CreateRoom(game="chess", config=P.raw({})))
        assert (await unknown.until(P.Refused)).reason == "this server has no game 'chess'"
        await good.send(P.ListRooms())
        assert isinstance(await good.until(P.Rooms), P.Rooms)
        good.close()

    run_host(tmp_path, body)


def test_a_rules_refusal_names_its_rule_and_section(tmp_path: Path) -> None:
    """A decision the rules forbid is refused with the rule and the rulebook section, so the
    client can say it as a game played here does (R: read the rule)."""
    from nctui.games.nightmare_cathedral.engine.actions import ChooseTurnStart

    async def body(path: Path, rooms: Rooms) -> None:
        a, b = [await Client.connect(path, i) for i in ("SHA256:ann", "SHA256:bob")]
        await a.send(P.create_room(CFG, name="rules"))
        (info,) = (await a.until(P.Rooms)).rooms
        await a.send(P.JoinSeat(room=info.id, seat=0))
        await b.send(P.JoinSeat(room=info.id, seat=1))
        up = {a: await a.until(P.Update), b: await b.until(P.Update)}
        me = a if up[a].deciding == 0 else b
        await me.send(P.act(ChooseTurnStart(position=70), up[me].state_id))
        refused = await me.until(P.Refused)
        assert not refused.stale and refused.request == "act"
        assert (refused.rule, refused.section) == ("the Starting marker", "SETUP 7")
        assert refused.reason == "the Turn track has positions 0 to 11 [SETUP 7]"
        for c in (a, b):
            c.close()

    run_host(tmp_path, body)


def test_a_seat_given_up_is_free_for_another_person(tmp_path: Path) -> None:
    """GiveUp: the seat is no longer its person's; in a room without hand-over it waits free for
    another person, who may take it; in a room that hands away seats, the computer plays it at once."""

    async def body(path: Path, rooms: Rooms) -> None:
        a, b, c = [await Client.connect(path, i) for i in ("SHA256:ann", "SHA256:bob", "SHA256:cy")]
        await a.send(P.create_room(CFG, name="keep"))
        await a.send(P.create_room(CFG, name="hand", handover_after=60))
        await a.until(P.Rooms, lambda m: len(m.rooms) == 2)
        keep, hand = [next(r for r in rooms.list() if r.name == n) for n in ("keep", "hand")]
        await a.send(P.JoinSeat(room=keep.id, seat=0))
        await a.until(P.Joined)
        await a.send(P.GiveUp())
        after = await a.until(P.Rooms)
        seat = next(r for r in after.rooms if r.id == keep.id).seats[0]
        assert (seat.holder, seat.kind) == ("", "human")  # free, waiting for a person
        await b.send(P.JoinSeat(room=keep.id, seat=0))
        assert (await b.until(P.Joined)).seat == 0
        await c.send(P.GiveUp())  # not at a seat: refused in one line
        assert "not at a seat" in (await c.until(P.Refused)).reason
        await a.send(P.JoinSeat(room=hand.id, seat=1))
        await a.until(P.Joined)
        await a.send(P.GiveUp())
        seat = next(r for r in (await a.until(P.Rooms)).rooms if r.id == hand.id).seats[1]
        assert (seat.holder, seat.kind, seat.open) == ("", "bot", True)  # the computer plays it until someone takes it
        from nctui.ui.screens.lobby import seat_words

        assert "free (computer meanwhile)" in seat_words(1, seat, "SHA256:cy").plain
        await c.send(P.JoinSeat(room=hand.id, seat=1))
        assert (await c.until(P.Joined)).seat == 1
        assert rooms.get(hand.id).seats()[1].kind == "human"
        for x in (a, b, c):
            x.close()

    run_host(tmp_path, body)


def test_the_creator_closes_a_room_and_its_people_are_told(tmp_path: Path) -> None:
    """Only its creator closes a room; whoever sits in it or watches goes back to the lobby with
    ``RoomClosed``; the room is gone from the lobby and from the store (not back after a restart).
    A room finished over an hour ago leaves the main list and stays in the finished list."""

    async def body(path: Path, rooms: Rooms) -> None:
        ann, bob = await Client.connect(path, "SHA256:ann"), await Client.connect(path, "SHA256:bob")
        await ann.send(P.create_room(CFG, name="to close"))
        (info,) = (await ann.until(P.Rooms)).rooms
        assert info.creator == "SHA256:ann"
        await bob.send(P.JoinSeat(room=info.id, seat=1))
        await bob.until(P.Update)
        await bob.send(P.CloseRoom(room=info.id))
        refused = await bob.until(P.Refused)
        assert refused.reason == "only the person who made a room can close it"
        await ann.send(P.CloseRoom(room=info.id))
        closed = await bob.until(P.RoomClosed)
        assert closed.room == info.id and closed.name == "to close"
        assert (await bob.until(P.Rooms)).rooms == ()
        assert (await ann.until(P.Rooms)).rooms == ()
        assert not [r for r in rooms.store.load_all() if r.record.id == info.id]
        # finished rooms: in the main list for an hour after their end, then in the finished list only
        await ann.send(P.create_room(CFG, name="old game"))
        (old,) = (await ann.until(P.Rooms)).rooms
        room = rooms.get(old.id)
        room.record = msgspec.structs.replace(room.record, finished=time.time() - P.FINISHED_SHOWN - 1)
        await ann.send(P.ListRooms())
        assert (await ann.until(P.Rooms)).rooms == ()
        await ann.send(P.ListRooms(finished=True))
        assert [r.id for r in (await ann.until(P.Rooms)).rooms] == [old.id]
        ann.close()
        bob.close()

    run_host(tmp_path, body)


class _Tab:
    """A browser tab as ``IdentityServer._idle`` sees it: what it was told, whether it closed."""

    def __init__(self) -> None:
        self.said = b""
        self.closed = False

    async def send_bytes(self, data: bytes) -> None:
        self.said += data

    async def close(self) -> None:
        self.closed = True


def test_a_spectator_of_a_live_game_is_not_idle_a_silent_lobby_is(tmp_path: Path) -> None:
    """Issue 37.5: idle means no key and no decision reaching the person: the host notes each
    decision that reaches a room's people (``Occupancy.watched``), and the fronts' idle clock
    counts it; a first view (joining) is not a decision, and a person in the lobby stays idle."""
    from nctui.platform.net.limits import Limits, Occupancy
    from nctui.platform.net.webfront import IdentityServer

    occupancy = Occupancy()
    for person in ("SHA256:cy", "SHA256:dee"):  # each with a session open on a front
        occupancy.opened(person)

    async def main() -> None:
        rooms = Rooms(SqliteRoomStore(tmp_path / "rooms.db"), bot_delay=0.0, seeds=seeds(31))
        host = Host(rooms, tmp_path / "sock" / "host.sock", occupancy=occupancy)
        await host.start()
        try:
            await asyncio.wait_for(body(host.path), 60)
        finally:
            await host.close()
            rooms.close()

    async def body(path: Path) -> None:
        a, b, w, lobby = [
            await Client.connect(path, i) for i in ("SHA256:ann", "SHA256:bob", "SHA256:cy", "SHA256:dee")
        ]
        await a.send(P.create_room(CFG, name="friends"))
        (info,) = (await a.until(P.Rooms)).rooms
        await a.send(P.JoinSeat(room=info.id, seat=0))
        await b.send(P.JoinSeat(room=info.id, seat=1))
        await w.send(P.Watch(room=info.id))
        first = await w.until(P.Update)
        assert "SHA256:cy" not in occupancy.watched  # the first view is not a decision being made
        last = {a: await a.until(P.Update), b: await b.until(P.Update)}
        me = a if last[a].deciding == 0 else b
        before = time.monotonic()
        await me.send(first_option(last[me]))
        await w.until(P.Update, lambda m: m.state_id > first.state_id)
        for _ in range(200):  # the host notes it just after sending
            if occupancy.watched.get("SHA256:cy", 0.0) >= before:
                break
            await asyncio.sleep(0.01)
        assert occupancy.last_active("SHA256:cy", 0.0) >= before  # watching a game that moves
        assert occupancy.last_active("SHA256:dee", 5.0) == 5.0  # the lobby: keys only
        assert occupancy.last_active(None, 5.0) == 5.0

        # the web front's idle clock (2 s): kept open while decisions reach the spectator, closed
        # with its line once the game stops moving; the lobby's tab closes after the timeout
        server = IdentityServer("true", host="127.0.0.1", port=0, limits=Limits(idle_timeout=2.0))
        server.occupancy = occupancy
        watching, idle = _Tab(), _Tab()
        start = time.monotonic()
        tasks = [
            asyncio.create_task(server._idle(watching, [start], "SHA256:cy")),  # type: ignore[arg-type]
            asyncio.create_task(server._idle(idle, [start], "SHA256:dee")),  # type: ignore[arg-type]
        ]
        while time.monotonic() - start < 3.0:  # past the timeout: a move every 0.1 s
            occupancy.watched["SHA256:cy"] = time.monotonic()
            await asyncio.sleep(0.1)
        assert idle.closed and not watching.closed
        await asyncio.wait_for(asyncio.gather(*tasks), 10)
        assert watching.closed and idle.closed
        assert b"nctui: closed after 2 seconds with no key pressed and no move in a game you are in" in idle.said
        for c in (a, b, w, lobby):
            c.close()

    asyncio.run(main())
