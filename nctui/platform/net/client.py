"""The client side of the host protocol: a connection to the game host (``HostLink``) and a game
seen through it (``RemoteGame``, a ``ui.client.GameClient``).

The link is synchronous and never blocks the caller after it connected: messages to the host go
through a queue and a writer thread; a reader thread turns what the host says into the same
notifications a local ``Session`` gives its listeners (the game screen redraws on them), and
hands everything else (the lobby's rooms, a refusal, a ``Bye``, a lost connection) to the link's
``listener``. The host owns the game: a decision is sent with the state id it was chosen at, a
stale one is refused and the host sends the game as it is now; undo and redo follow the host's
policy (strict) and the answer comes back as an update or a refusal. A ``RemoteGame`` knows only
what the host sent this seat (or the spectator): its view, its events, the public timeline, and
the configuration without its seed. It is a room of any game: the room names it, and its data is
read with that game's types (``protocol.payloads``); what the rules say about a view (``facts``)
is worked out here from the view, as a local ``Session`` does.
"""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from ..game import SPECTATOR, SeatKind, SeatPresence
from ..listeners import Listeners
from ..registry import AnyGame
from ..saves import SaveError
from ..session import SessionError, Update
from ..store import StoreError, TimelineItem
from . import protocol as P

CONNECT_TIMEOUT = 10.0  # seconds to connect and be welcomed
KEEP_VIEWS = 64  # earlier views kept for ``view_at`` (the King's turn shown step by step)

Listener = Callable[[], None]


def shared(new: Any, old: Any) -> Any:
    """``new`` with each of its parts that equals ``old``'s part in the same place taken from
    ``old`` (the whole of ``old`` when they are equal): the views kept for ``view_at`` share what
    did not change between them instead of each holding a copy decoded from its own message (a
    Nightmare Cathedral view is ~18 KiB decoded, of which a decision changes a few parts).
    Frozen msgspec Structs and tuples are shared part by part; anything else whole or not at all."""
    if new is old or type(new) is not type(old):
        return new
    if new == old:
        return old
    if isinstance(new, msgspec.Struct):
        changes = {}
        for name in new.__struct_fields__:
            part = getattr(new, name)
            kept = shared(part, getattr(old, name))
            if kept is not part:
                changes[name] = kept
        return msgspec.structs.replace(new, **changes) if changes else new
    if isinstance(new, tuple) and len(new) == len(old):
        parts = tuple(shared(a, b) for a, b in zip(new, old, strict=True))
        return parts if any(a is not b for a, b in zip(parts, new, strict=True)) else new
    return new


class HostError(Exception):
    """The host cannot be reached or closed the connection; ``str()`` is one line."""


class RemoteGame:
    """One room's game as the host shows it to this client's seat (``seat``; -1: a spectator).
    Fed by the link's reader thread; read by the UI thread (every field is replaced whole).
    ``ProtocolError`` for a room of a game this nctui does not have."""

    autosave_error = ""
    autosave_path: Path | None = None

    def __init__(self, link: HostLink, joined: P.Joined) -> None:
        self.link = link
        self.room = joined.room
        self.seat = joined.seat  # this terminal plays this seat only (SPECTATOR: it watches)
        self.replay = joined.replay  # watched from its start: undo and redo step through it
        self.payloads = P.payloads(joined.room.game)
        self.game: AnyGame = self.payloads.game
        self._config = self.payloads.config(joined.config)
        self._policy = joined.undo_policy
        self.game_id = joined.room.id
        self.seat_kinds: tuple[SeatKind, ...] = tuple(s.kind for s in joined.room.seats)
        self.seats = joined.room.seats
        self.presence: tuple[SeatPresence, ...] = ()  # who holds each seat, whether they are there (the host's)
        self.thinking: int | None = None
        self.bot_error = ""
        self._update: P.Update | None = None
        self._events: list[tuple[int, Any]] = []  # (the state id an event led to, the event)
        self._views: dict[int, Any] = {}  # state id → the view received then (the last KEEP_VIEWS)
        self._facts: dict[int, tuple[Any, Any]] = {}  # id of a view kept → (it, its facts), made when asked
        self._listeners = Listeners[Listener]()
        self.ready = threading.Event()  # the first update arrived

    # -- fed by the reader thread ----------------------------------------------------------------

    def apply(self, update: P.Update) -> None:
        """The host's news: the game as this seat sees it now, and the events since ``since``
        (``ProtocolError`` when the game's data does not read as the game's)."""
        view, news = self.payloads.view(update.view), self.payloads.events(update.events)
        if self._views:  # what did not change since the newest view kept is that view's (~18 KiB a view less)
            view = shared(view, self._views[max(self._views)])
        if update.since < 0:  # the whole story again (first update, or a refresh)
            events = []
        else:
            events = [(i, e) for i, e in self._events if i <= update.state_id] if update.undone else list(self._events)
        events += [(update.state_id, e) for e in news]
        self._events = events
        # a new dict, not the old one changed: the UI thread may be reading that one
        views = {i: v for i, v in self._views.items() if i != update.state_id}
        views[update.state_id] = view
        while len(views) > KEEP_VIEWS:
            del views[min(views)]
        self._views = views
        self.seat_kinds = tuple(s.kind for s in update.seats)
        self.seats = update.seats
        self.thinking, self.bot_error = update.thinking, update.bot_error
        if update.timeline_from > 0 and self._update is not None:  # what is new: keep the entries before it
            kept = tuple(t for t in self._update.timeline if t.state_id < update.timeline_from)
            update = msgspec.structs.replace(update, timeline=kept + update.timeline)
        self._update = update
        self.ready.set()
        for listener in self._listeners:
            listener()

    def apply_presence(self, presence: P.Presence) -> None:
        """Who holds each seat and whether they are there, as the host says now: the players
        panel redraws (once the game has arrived)."""
        self.presence = presence.seats
        if self._update is not None:
            for listener in self._listeners:
                listener()

    def _now(self) -> P.Update:
        if self._update is None:
            raise SessionError("the game has not arrived from the host yet")
        return self._update

    # -- GameClient: reading ---------------------------------------------------------------------

    @property
    def config(self) -> Any:
        """The game's configuration, its seed 0 (the host keeps the seed)."""
        return self._config

    @property
    def state_id(self) -> int:
        return self._now().state_id

    @property
    def revision(self) -> int:
        return self._now().revision

    @property
    def last_id(self) -> int:
        return self._now().last_id

    @property
    def hotseat(self) -> bool:
        return False  # one person per terminal: nobody else's hand is ever drawn here

    def is_computer(self, seat: int | None) -> bool:
        return seat is not None and 0 <= seat < len(self.seat_kinds) and self.seat_kinds[seat] == "bot"

    def deciding_seat(self) -> int | None:
        return self._now().deciding

    def _kept(self, state_id: int) -> int:
        """The state id of the view kept for ``state_id``: the nearest earlier one (else the present's)."""
        now = self._now().state_id
        earlier = [i for i in self._views if i <= state_id]
        return max(earlier) if earlier and state_id < now else now

    def view(self, seat: int) -> Any:
        """This client's view, whatever ``seat`` is asked: the host sends no other."""
        return self._views[self._kept(self._now().state_id)]

    def view_at(self, state_id: int, seat: int) -> Any:
        """The view this client received at ``state_id`` (the nearest earlier one it kept)."""
        return self._views[self._kept(state_id)]

    def facts(self, seat: int) -> Any:
        """What the rules say about this client's view (the game's ``facts``, as a Session gives them)."""
        return self.facts_at(self._now().state_id, seat)

    def facts_at(self, state_id: int, seat: int) -> Any:
        """What the rules said about ``view_at(state_id)``: made once per view kept."""
        views, made = self._views, self._facts
        view = views[self._kept(state_id)]
        found = made.get(id(view))
        if found is None or found[0] is not view:
            found = (view, self.game.facts(view))
            kept = {id(v) for v in views.values()}
            self._facts = {k: f for k, f in made.items() if k in kept} | {id(view): found}
        return found[1]

    def event_states(self, since: int) -> tuple[int, ...]:
        return tuple(i for i, _ in self._events if i > since)

    def events(self, since: int, seat: int) -> Update:
        now = self._now().state_id
        if now < since:
            return Update(now, (), True)
        return Update(now, tuple(e for i, e in self._events if i > since), False)

    def timeline(self, seat: int) -> list[TimelineItem]:
        return [TimelineItem(t.state_id, t.seat, t.summary) for t in self._now().timeline]

    def seat_of(self, state_id: int) -> int:
        return next((t.seat for t in self._now().timeline if t.state_id == state_id), -1)

    # -- GameClient: deciding (queued: keys never wait for the network) -------------------------

    def send(self, action: Any, *, seen_state_id: int, seat: int) -> None:
        if seat != self.seat or self.seat == SPECTATOR:
            raise StoreError(
                f"this terminal decides only for seat {self.seat + 1}"
                if self.seat >= 0
                else "a spectator cannot change the game"
            )
        self.link.send(P.act(action, seen_state_id))

    @property
    def undo_policy(self) -> str:
        return self._policy

    def undo(self, seat: int) -> None:
        self.link.send(P.Undo())

    def redo(self) -> None:
        self.link.send(P.Redo())

    def can_redo(self) -> bool:
        return self._now().can_redo

    def undo_to(self, state_id: int, *, seat: int) -> None:
        self.link.send(P.UndoTo(state_id=state_id))

    # -- GameClient: hot-seat (none online) and saving (the host keeps the game) -----------------

    def handoff_to(self, viewer: int, *, first: bool = False) -> int | None:
        return None

    def save(self, path: Path | str) -> Path:
        raise SaveError(path, "a game on a server is kept by the server: it cannot be saved here")

    def flush(self) -> Path:
        raise SessionError("a game on a server is kept by the server")

    def save_position(self, path: Path | str, *, name: str = "") -> Path:
        raise SaveError(
            path, "a game on a server is kept by the server: its position (hidden cards included) cannot be saved here"
        )

    def advise(self, seat: int) -> list[str]:
        raise SessionError("hints are for practice games played here, not for a game on a server")

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._listeners.add(listener)

    def close(self) -> None:
        self._listeners.clear()


# What the link tells its listener, from the reader thread: a host message (Rooms, Refused, Bye),
# the game just joined (once its first update arrived), or None when the connection is gone.
LinkNews = P.HostMessage | RemoteGame | None


class HostLink:
    """A connection to the host's Unix socket as ``identity``. ``connect()`` says hello and waits
    for the welcome (``HostError`` in one line); then everything runs on two threads."""

    version = P.VERSION  # the protocol this client speaks

    def __init__(
        self, path: Path | str, identity: str, name: str = "", *, listener: Callable[[LinkNews], None] | None = None
    ) -> None:
        self.path = str(path)
        self.identity = identity
        self.name = name
        self.listener = listener or (lambda news: None)
        self.rooms: tuple[P.RoomInfo, ...] = ()
        self.prefs = P.Prefs()  # this person's settings, as the host keeps them
        self.game: RemoteGame | None = None  # the room this client sits in or watches
        self.lost = ""  # why the connection ended ('' while it lives)
        self._sock: socket.socket | None = None
        self._out: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._closing = False
        self._pending: RemoteGame | None = None  # joined, waiting for its first update
        self._reader = P.FrameReader()
        self._early: list[P.HostMessage] = []  # what came with the welcome

    # -- connecting --------------------------------------------------------------------------------

    def connect(self, timeout: float = CONNECT_TIMEOUT) -> HostLink:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(timeout)
            sock.connect(self.path)
            sock.sendall(P.frame(P.Hello(version=self.version, identity=self.identity, name=self.name)))
            reader = P.FrameReader()
            first, *early = self._read_first(sock, reader)
        except (OSError, P.ProtocolError) as exc:
            sock.close()
            raise HostError(f"cannot reach the game host at {self.path}: {_reason(exc)}") from None
        if isinstance(first, P.Bye):
            sock.close()
            raise HostError(f"the game host refused the connection: {first.reason}")
        if not isinstance(first, P.Welcome):
            sock.close()
            raise HostError("the game host answered hello with something else")
        if first.version != self.version:
            sock.close()
            raise HostError(
                f"the game host speaks protocol version {first.version}, this nctui {self.version}: update nctui"
            )
        self.name, self.prefs = first.name, first.prefs
        sock.settimeout(None)
        self._sock, self._reader, self._early = sock, reader, early
        self._threads = [
            threading.Thread(target=self._read_loop, name="nctui-link-read", daemon=True),
            threading.Thread(target=self._write_loop, name="nctui-link-write", daemon=True),
        ]
        for t in self._threads:
            t.start()
        return self

    @staticmethod
    def _read_first(sock: socket.socket, reader: P.FrameReader) -> list[P.HostMessage]:
        """The first message(s) the host sent: the welcome (or a bye), and any that came with it."""
        while True:
            data = sock.recv(65536)
            if not data:
                raise P.ProtocolError("the host closed the connection")
            payloads = reader.feed(data)
            if payloads:
                return [P.decode_host(p) for p in payloads]

    # -- sending -----------------------------------------------------------------------------------

    def send(self, msg: P.ClientMessage) -> None:
        """Queue ``msg`` for the host (returns at once; lost silently once the link is down)."""
        if not self.lost:
            self._out.put(P.frame(msg))

    def list_rooms(self, *, finished: bool = False) -> None:
        """The lobby's rooms (``finished``: the list of finished games)."""
        self.send(P.ListRooms(finished=finished))

    def set_prefs(self, prefs: P.Prefs) -> None:
        """This person's settings from now on (the host keeps them)."""
        self.prefs = prefs
        self.send(P.SetPrefs(prefs=prefs))

    def leave(self) -> None:
        """Back to the lobby: the host answers with the rooms."""
        game, self.game, self._pending = self.game, None, None
        if game is not None:
            game.close()
        self.send(P.Leave())

    def _write_loop(self) -> None:
        sock = self._sock
        assert sock is not None
        while (data := self._out.get()) is not None:
            try:
                sock.sendall(data)
            except OSError as exc:
                self._lost(_reason(exc))
                return

    # -- receiving ---------------------------------------------------------------------------------

    def _read_loop(self) -> None:
        sock = self._sock
        assert sock is not None
        try:
            for msg in self._early:
                self._handle(msg)
            while True:
                data = sock.recv(1 << 16)
                if not data:
                    raise P.ProtocolError("the game host closed the connection")
                for payload in self._reader.feed(data):
                    self._handle(P.decode_host(payload))
        except (OSError, P.ProtocolError) as exc:
            self._lost(_reason(exc))

    def _handle(self, msg: P.HostMessage) -> None:
        if isinstance(msg, P.Update):
            game = self._pending or self.game
            if game is None:
                return  # left meanwhile
            game.apply(msg)
            if msg.undone and msg.since >= 0:
                # events are kept per update, not per decision: after going back, ask for the
                # whole story again so the events up to now are exactly the host's
                self.send(P.Refresh())
            if game is self._pending:
                self.game, self._pending = game, None
                self.listener(game)
            return
        if isinstance(msg, P.Presence):
            game = self._pending or self.game
            if game is not None and game.room.id == msg.room:
                game.apply_presence(msg)
            return
        if isinstance(msg, P.Joined):
            if self.game is not None:
                self.game.close()
            self.game, self._pending = None, None
            try:
                self._pending = RemoteGame(self, msg)
            except P.ProtocolError as exc:  # a room of a game this nctui does not have
                self.send(P.Leave())
                self.listener(P.Refused(reason=str(exc), request="join"))
            return
        if isinstance(msg, P.RoomClosed):
            if self.game is not None and self.game.room.id == msg.room:
                self.game.close()
                self.game = None
            self._pending = None
        if isinstance(msg, P.Rooms):
            self.rooms = msg.rooms
        elif isinstance(msg, P.Bye):
            self.lost = msg.reason
        self.listener(msg)

    def _lost(self, reason: str) -> None:
        if self._closing:
            return
        self._closing = True
        self.lost = self.lost or reason
        self._out.put(None)
        self.listener(None)

    def close(self) -> None:
        """Close the connection (the host keeps the seat for when this identity returns)."""
        self._closing = True
        self._out.put(None)
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
            self._sock.close()
        for t in self._threads:
            if t is not threading.current_thread():
                t.join(2.0)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, P.ProtocolError):
        return str(exc)
    if isinstance(exc, TimeoutError | socket.timeout):
        return "no answer in time"
    return (getattr(exc, "strerror", None) or str(exc) or type(exc).__name__).splitlines()[0]
