"""The game host: an asyncio server on a Unix socket speaking ``net.protocol`` to client processes.

A connection says ``Hello`` (the protocol version, its identity, a name) first; a client of
another version is told so in one line and closed. Then it lists, creates (of any game of the
registry), joins or watches rooms and, seated, sends decisions with the state id it saw, each
read with the room's game's types. Each connection receives only its seat's view and events (or
the spectator's), and never a game's seed. Anything malformed closes that connection with a
one-line ``Bye``; nothing else is affected.

The socket sits in a folder only the server's user can enter: the SSH front's client processes
say who connected (the key's fingerprint it checked), and the host trusts them.

Several hosts on one database (``store_postgres``): a person joining a room another host runs is
relayed there (``Relay``: a TCP link to that host's ``link`` socket, let in by a one-time ticket
from the database, every message passed on as it is); the lease is renewed off the event loop
every ``renew_every`` seconds (``Rooms.renew``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from pathlib import Path

from .. import registry
from ..game import SPECTATOR, RuleRefusal, SeatPresence
from ..store import StaleState, StoreError
from . import protocol as P
from .datadir import bound_inode, unlink_own
from .limits import Occupancy
from .rooms import Notice, Room, RoomError, Rooms, clean_name
from .weblogin import WebLogins

log = logging.getLogger("nctui.platform.net")
HELLO_TIMEOUT = 10.0


class Connection:
    def __init__(self, host: Host, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.host = host
        self.reader = reader
        self.writer = writer
        self.identity = ""
        self.name = ""
        self.room: Room | None = None
        self.seat = SPECTATOR
        self.sent = -1  # the state id the last update brought
        self.sent_rewinds: int | None = None  # the game's rewinds as of that update
        self.sent_presence: tuple[SeatPresence, ...] | None = None  # the room's presence as last sent
        # A spectator watching from the start (``Watch.from_start``): the decision they look at
        # (None: live), through whose eyes (a finished game), and how many steps they took
        self.replay_at: int | None = None
        self.eyes = SPECTATOR
        self.moves = 0
        self._stale = False  # the game changed since the last update: send one
        self._wake = asyncio.Event()
        self._unsubscribe = None
        self._loop = asyncio.get_running_loop()
        self.expect: str | None = None  # a relayed person: the identity their ticket was issued for
        self.relay: Relay | None = None  # in a room another host runs: the link to that host

    async def read(self) -> P.ClientMessage:
        header = await self.reader.readexactly(P.HEADER.size)
        length = P.frame_length(header, limit=self.host.max_frame)
        return P.decode_client(await self.reader.readexactly(length))

    async def send(self, msg: P._Msg) -> None:
        self.writer.write(P.frame(msg, limit=P.MAX_FRAME))
        await self.writer.drain()

    async def run(self) -> None:
        pusher = None
        try:
            hello = await asyncio.wait_for(self.read(), HELLO_TIMEOUT)
            if not isinstance(hello, P.Hello):
                raise P.ProtocolError("the first message must be hello")
            if hello.version != P.VERSION:
                raise P.ProtocolError(f"protocol version {hello.version} is not {P.VERSION}: update nctui")
            if self.expect is not None and hello.identity != self.expect:
                raise P.ProtocolError("a relayed connection of another person than its ticket's")
            self.identity, self.name = hello.identity, clean_name(hello.name) or hello.identity[-8:]
            prefs = self.host.rooms.store.prefs(self.identity)
            await self.send(P.Welcome(version=P.VERSION, name=self.name, prefs=prefs))
            pusher = asyncio.create_task(self._push())
            while True:
                await self.handle(await self.read())
        except P.ProtocolError as exc:
            log.info("client %s closed: %s", self.identity or "?", exc)
            with contextlib.suppress(Exception):
                await self.send(P.Bye(reason=str(exc)))
        except (asyncio.IncompleteReadError, ConnectionError, TimeoutError):
            pass
        finally:
            if pusher is not None:
                pusher.cancel()
            self.leave()
            self.end_relay()
            self.writer.close()

    # -- requests ------------------------------------------------------------------------------

    async def handle(self, msg: P.ClientMessage) -> None:
        rooms = self.host.rooms
        request = str(msg.__struct_config__.tag)
        try:
            if isinstance(msg, P.Hello):
                raise P.ProtocolError("hello twice")
            if self.relay is not None:
                if not isinstance(msg, LOBBY):
                    await self.relay.send(msg)  # a decision, undo, …: for the host that runs the room
                    return
                self.end_relay()  # back in the lobby: this host's
            if isinstance(msg, P.JoinSeat | P.Watch) and (address := rooms.where(msg.room)) is not None:
                self.leave()
                self.relay = await Relay.open(self, address, msg)
            elif isinstance(msg, P.ListRooms):
                await self.send(P.Rooms(rooms=rooms.list(finished=msg.finished)))
            elif isinstance(msg, P.CreateRoom):
                if registry.entry_named(msg.game) is None:
                    raise RoomError(f"this server has no game {msg.game!r}")
                config = P.payloads(msg.game).config(msg.config)
                room = rooms.create(
                    config,
                    identity=self.identity,
                    name=msg.name,
                    handover_after=msg.handover_after,
                    turn=msg.turn,
                    rated=msg.rated,
                )
                log.info("%s created room %s", self.identity, room.id)
                await self.send(P.Rooms(rooms=rooms.list()))
            elif isinstance(msg, P.JoinSeat):
                room = rooms.get(msg.room)
                room.claim(msg.seat, self.identity, self.name)
                await self.enter(room, msg.seat)
            elif isinstance(msg, P.Watch):
                await self.enter(rooms.get(msg.room), SPECTATOR, from_start=msg.from_start, eyes=msg.eyes)
            elif isinstance(msg, P.ListRatings):
                if registry.entry_named(msg.game) is None:
                    raise RoomError(f"this server has no game {msg.game!r}")
                await self.send(rooms.ratings_table(msg.game))
            elif isinstance(msg, P.ShowPage):
                identity = msg.identity or self.identity
                await self.send(rooms.page(identity, self.name if identity == self.identity else ""))
            elif isinstance(msg, P.Leave):
                self.leave()
                await self.send(P.Rooms(rooms=rooms.list()))
            elif isinstance(msg, P.GiveUp):
                here, seat = self.room, self.seat
                if here is None or seat < 0:
                    raise RoomError("you are not at a seat")
                self.leave()
                here.give_up(seat, self.identity)
                log.info("%s gave up seat %d of room %s", self.identity, seat + 1, here.id)
                await self.send(P.Rooms(rooms=rooms.list()))
            elif isinstance(msg, P.CloseRoom):
                closed = rooms.close_room(msg.room, self.identity)
                log.info("%s closed room %s", self.identity, closed.id)
                await self.host.room_closed(closed)
                await self.send(P.Rooms(rooms=rooms.list()))
            elif isinstance(msg, P.SkipTurn):
                rooms.get(msg.room).skip(self.identity, self.name)
            elif isinstance(msg, P.SetPrefs):
                rooms.store.set_prefs(self.identity, msg.prefs)
            elif isinstance(msg, P.WebLink):
                logins = self.host.logins
                if logins is None:
                    raise RoomError("this server has no web front with logins (--web-port)")
                url, minutes = logins.make_link(self.identity)
                log.info("%s asked for a browser link", self.identity)
                await self.send(P.WebLinkMade(url=url, minutes=minutes))
            elif isinstance(msg, P.Refresh):
                self.sent = -1
                self._game_moved()
            else:
                self.decide(msg)
        except RoomError as exc:
            await self.send(P.Refused(reason=str(exc), request=request))
        except StaleState as exc:
            self._game_moved()
            await self.send(P.Refused(reason=str(exc), stale=True, request=request))
        except (ValueError, StoreError) as exc:  # the game's refusal names the rule
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            rule, section = (exc.rule, exc.section) if isinstance(exc, RuleRefusal) else ("", "")
            await self.send(P.Refused(reason=reason, request=request, rule=rule, section=section))

    def end_relay(self) -> None:
        if self.relay is not None:
            self.relay.close()
            self.relay = None

    async def relay_ended(self, relay: Relay, room: str) -> None:
        """The host that runs the room closed the link (it stopped or died): the person is back in
        this host's lobby, told the room is run elsewhere now (another host takes it over)."""
        if self.relay is not relay:
            return
        self.relay = None
        with contextlib.suppress(Exception):
            await self.send(P.RoomClosed(room=room, name=relay.name, moved=True))
            await self.send(P.Rooms(rooms=self.host.rooms.list()))

    def decide(self, msg: P.Act | P.Undo | P.Redo | P.UndoTo) -> None:
        room = self.room
        if room is None:
            raise RoomError("join a room first")
        if self.replay_at is not None:
            self.step(room, msg)
            return
        if self.seat == SPECTATOR:
            raise RoomError("a spectator cannot change the game")
        s = room.session
        if isinstance(msg, P.Act):
            action = P.payloads(room.game.id).action(msg.action)
            s.send(action, seen_state_id=msg.seen_state_id, seat=self.seat)
            return
        room.may_go_back(self.seat)
        if isinstance(msg, P.Undo):
            s.undo(self.seat)
        elif isinstance(msg, P.Redo):
            s.redo(self.seat)
        else:
            s.undo_to(msg.state_id, seat=self.seat)

    def step(self, room: Room, msg: P.Act | P.Undo | P.Redo | P.UndoTo) -> None:
        """A spectator watching from the start moves through the game: one decision back or
        forward, or to any; reaching where a live game stands, they watch it live."""
        if isinstance(msg, P.Act):
            raise RoomError("you are watching the game from its start: nothing is decided here")
        live = room.session.state_id
        at = min(self.replay_at or 0, live)  # the game may have gone back meanwhile (undo)
        target = at - 1 if isinstance(msg, P.Undo) else at + 1 if isinstance(msg, P.Redo) else msg.state_id
        if target < 0:
            raise RoomError("this is the start of the game")
        if target > live:
            raise RoomError("this is the end of the game" if room.over() else "this is where the game stands now")
        self.moves += 1
        if target == live and not room.over():
            self.replay_at, self.sent = None, -1  # live from now on: the whole story as it stands
        else:
            self.replay_at = target
        self._game_moved()

    async def enter(self, room: Room, seat: int, *, from_start: bool = False, eyes: int = SPECTATOR) -> None:
        self.leave()
        self.room, self.seat, self.sent, self.sent_presence = room, seat, -1, None
        self.replay_at = 0 if from_start and seat == SPECTATOR else None
        # through a seat's eyes only a game that is over: nothing of it is hidden any more
        self.eyes = eyes if self.replay_at is not None and room.over() and 0 <= eyes < len(room.record.kinds) else seat
        self.moves = 0
        room.connect(seat)
        self._unsubscribe = room.session.subscribe(self._changed)  # type: ignore[assignment]
        await self.send(
            P.Joined(
                room=room.info(),
                seat=self.eyes,
                config=room.public_config,
                undo_policy=room.session.undo_policy,
                replay=self.replay_at is not None,
            )
        )
        self._game_moved()

    def leave(self) -> None:
        if self.room is not None:
            if self._unsubscribe is not None:
                self._unsubscribe()
            self.room.disconnect(self.seat)
            self.room = None
            self._unsubscribe = None

    # -- updates -------------------------------------------------------------------------------

    def _changed(self) -> None:
        """A session listener: called from any thread."""
        self._loop.call_soon_threadsafe(self._game_moved)

    def _game_moved(self) -> None:
        self._stale = True
        self._wake.set()

    def presence_due(self, presence: tuple[SeatPresence, ...]) -> None:
        """``presence``: the room's now (the host's tick): woken to send it if it is news here."""
        if presence != self.sent_presence:
            self._wake.set()

    async def _push(self) -> None:
        """Everything this connection is owed, one message after another: the room's presence
        when it changed (first: a game's first frame has its names), the game when it moved."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            room = self.room
            if room is None:
                continue
            presence = room.presence()
            if presence != self.sent_presence:
                self.sent_presence = presence
                await self.send(P.Presence(room=room.id, seats=presence))
            if self._stale:
                self._stale = False
                await self._send_update(room)

    async def _send_update(self, room: Room) -> None:
        if self.replay_at is not None:
            update = room.replay_update(self.eyes, self.sent, self.replay_at, self.moves)
            self.sent = update.state_id
            await self.send(update)
            return
        update = room.update(self.seat, self.sent, self.sent_rewinds)
        moved = self.sent != -1 and update.state_id != self.sent  # a decision made (or undone), not a first view
        self.sent, self.sent_rewinds = update.state_id, update.rewinds
        await self.send(update)
        if moved and self.host.occupancy is not None:
            self.host.occupancy.watch(self.identity)  # watching a game that moves is not idle


# What a person in a room on another host sends that this host answers itself (it ends the relay)
LOBBY = (P.ListRooms, P.CreateRoom, P.JoinSeat, P.Watch, P.Leave, P.CloseRoom, P.WebLink)


class Relay:
    """A person of this host in a room another host of the shared database runs: a TCP link to
    that host (its ``Host.link``), opened with a one-time ticket from the database, over which the
    person's messages go on as they came and every message of that host comes back as it is."""

    def __init__(self, conn: Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, room: str) -> None:
        self.conn, self.reader, self.writer, self.room = conn, reader, writer, room
        self.name = room
        self._pump = asyncio.create_task(self._back())

    @classmethod
    async def open(cls, conn: Connection, address: str, join: P.JoinSeat | P.Watch) -> Relay:
        rooms = conn.host.rooms
        try:
            token = (await asyncio.to_thread(rooms.store.issue_ticket, conn.identity, conn.name)).encode()
            host, _, port = address.rpartition(":")
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host.strip("[]"), int(port), limit=P.MAX_FRAME + P.HEADER.size), HELLO_TIMEOUT
            )
        except (OSError, ValueError, TimeoutError) as exc:
            raise RoomError(f"the host that runs this room cannot be reached: {exc}") from None
        writer.write(P.HEADER.pack(len(token)) + token)
        writer.write(P.frame(P.Hello(version=P.VERSION, identity=conn.identity, name=conn.name)))
        try:
            welcome = await asyncio.wait_for(_read_host(reader), HELLO_TIMEOUT)
        except (asyncio.IncompleteReadError, ConnectionError, TimeoutError, P.ProtocolError) as exc:
            writer.close()
            raise RoomError(f"the host that runs this room did not take you in: {exc or 'closed'}") from None
        if not isinstance(welcome, P.Welcome):
            writer.close()
            raise RoomError("the host that runs this room did not take you in")
        log.info("%s relayed to %s for room %s", conn.identity, address, join.room)
        relay = cls(conn, reader, writer, join.room)
        far = rooms.elsewhere.get(join.room)
        if far is not None:
            relay.name = far[1].name
        await relay.send(join)
        return relay

    async def send(self, msg: P.ClientMessage) -> None:
        try:
            self.writer.write(P.frame(msg))
            await self.writer.drain()
        except (ConnectionError, OSError):
            pass  # that host is gone: the pump reads the end and tells the person (``relay_ended``)

    async def _back(self) -> None:
        """That host's messages to the person, frame by frame, as they are."""
        occupancy = self.conn.host.occupancy
        try:
            while True:
                header = await self.reader.readexactly(P.HEADER.size)
                payload = await self.reader.readexactly(P.frame_length(header))
                self.conn.writer.write(header + payload)
                await self.conn.writer.drain()
                if occupancy is not None and payload.startswith(b'{"t":"update"'):
                    occupancy.watch(self.conn.identity)  # a game that moves, watched through the relay: not idle
        except (asyncio.IncompleteReadError, ConnectionError, P.ProtocolError):
            pass
        await self.conn.relay_ended(self, self.room)

    def close(self) -> None:
        self._pump.cancel()
        self.writer.close()


async def _read_host(reader: asyncio.StreamReader) -> P.HostMessage:
    header = await reader.readexactly(P.HEADER.size)
    return P.decode_host(await reader.readexactly(P.frame_length(header)))


class Host:
    def __init__(
        self,
        rooms: Rooms,
        path: Path | str,
        *,
        max_frame: int = 64 * 1024,
        logins: WebLogins | None = None,
        occupancy: Occupancy | None = None,
        renew_every: float = 10.0,
        link: socket.socket | None = None,
    ) -> None:
        self.rooms = rooms
        self.renew_every = renew_every  # seconds between renewals of the rooms' lease (a third of it)
        self.link = link  # the bound socket where other hosts of a shared database relay people to this one
        self.link_address = ""  # "host:port" once listening
        self._link_server: asyncio.AbstractServer | None = None
        self.occupancy = occupancy  # the fronts': the host notes in it when a decision reached a person (idle)
        self.logins = logins  # the web front's logins: personal links for people of the other fronts
        self.path = Path(path)
        self.max_frame = max_frame  # what a client may send (decisions are small)
        self._server: asyncio.AbstractServer | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._inode: int | None = None
        self.connections: set[asyncio.Task[None]] = set()
        self.open: set[Connection] = set()  # the connections, for telling a room's people
        self._loop: asyncio.AbstractEventLoop | None = None
        rooms.listeners.append(self._notice)

    async def start(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self._server = await asyncio.start_unix_server(self._accept, path=str(self.path), limit=self.max_frame)
        self.path.chmod(0o600)
        self._inode = bound_inode(self.path)
        if self.link is not None:
            self._link_server = await asyncio.start_server(self._accept_link, sock=self.link, limit=self.max_frame)
            host, port = self.link.getsockname()[:2]
            self.link_address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
            log.info("relayed people from other hosts come in on %s", self.link_address)
        self._ticker = asyncio.create_task(self._tick())
        self._loop = asyncio.get_running_loop()

    def _notice(self, notice: Notice) -> None:
        """A room's notice (from any thread, the room's lock held): sent from the loop."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self.tell(notice)))

    async def tell(self, notice: Notice) -> None:
        """A turn-based room's news to every connection of the people it is for, wherever they are
        (``elsewhere``: not those in the room, who see it there)."""
        for conn in list(self.open):
            if conn.identity not in notice.people:
                continue
            if notice.elsewhere and conn.room is not None and conn.room.id == notice.message.room:
                continue
            with contextlib.suppress(Exception):
                await conn.send(notice.message)

    async def room_closed(self, room: Room, *, moved: bool = False) -> None:
        """Everyone in ``room`` (just closed, or ``moved`` to another host) back to the lobby, told so."""
        for conn in list(self.open):
            if conn.room is room:
                conn.leave()
                with contextlib.suppress(Exception):
                    await conn.send(P.RoomClosed(room=room.id, name=room.record.name, moved=moved))
                    await conn.send(P.Rooms(rooms=self.rooms.list()))

    async def _accept(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, expect: str | None = None
    ) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.connections.add(task)
        conn = Connection(self, reader, writer)
        conn.expect = expect
        self.open.add(conn)
        try:
            await conn.run()
        except asyncio.CancelledError:
            pass  # the host closes: end quietly (Python 3.11's stream callback logs a cancelled task as an error)
        finally:
            self.connections.discard(task)
            self.open.discard(conn)

    async def _accept_link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """A person relayed by another host of the database: its first frame is the ticket that
        host was issued for them (``RoomStore.issue_ticket``), then the protocol as from a client."""
        try:
            header = await asyncio.wait_for(reader.readexactly(P.HEADER.size), HELLO_TIMEOUT)
            token = await asyncio.wait_for(reader.readexactly(P.frame_length(header, limit=256)), HELLO_TIMEOUT)
            person = await asyncio.to_thread(self.rooms.store.redeem_ticket, token.decode("ascii", "replace"))
        except (asyncio.IncompleteReadError, ConnectionError, TimeoutError, P.ProtocolError):
            person = None
        if person is None:
            log.info("a relayed connection without a good ticket: closed")
            writer.close()
            return
        await self._accept(reader, writer, expect=person[0])

    async def _tick(self) -> None:
        renewing: asyncio.Task[None] | None = None
        last_renewal = 0.0  # the first renewal at once: the other hosts learn where this one is
        while True:
            await asyncio.sleep(min(1.0, self.renew_every))
            self.rooms.hand_over_due()
            self.rooms.clock_due()
            self._presence_tick()
            if time.monotonic() - last_renewal >= self.renew_every and (renewing is None or renewing.done()):
                last_renewal = time.monotonic()
                renewing = asyncio.create_task(self._renew())

    async def _renew(self) -> None:
        """The rooms' lease renewed off the event loop (a database across the network); the people
        of a room another host took over are told it is gone from here."""
        for room in await asyncio.to_thread(self.rooms.renew, self.link_address):
            await self.room_closed(room, moved=True)

    def _presence_tick(self) -> None:
        """Each connection in a room gets its room's presence once it changed: the away minutes
        go on while nobody connects or drops (one look at each room a tick)."""
        now = time.monotonic()
        seen: dict[str, tuple[SeatPresence, ...]] = {}
        for conn in list(self.open):
            room = conn.room
            if room is not None:
                presence = seen.get(room.id)
                if presence is None:
                    presence = seen[room.id] = room.presence(now)
                conn.presence_due(presence)

    async def close(self) -> None:
        if self._notice in self.rooms.listeners:
            self.rooms.listeners.remove(self._notice)
        if self._ticker is not None:
            self._ticker.cancel()
        if self._server is not None:
            self._server.close()
        if self._link_server is not None:
            self._link_server.close()
        tasks = list(self.connections)
        for task in tasks:
            task.cancel()
        if tasks:  # each connection leaves its room (a change the room stores) before the rooms close
            await asyncio.wait(tasks, timeout=5)
        unlink_own(self.path, self._inode)
