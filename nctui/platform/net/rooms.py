"""Rooms: the games one host owns, of any game of the registry. A room is a ``Session`` (strict
undo, computer seats and the King played host-side by the session's own worker, no autosave: the
room store keeps it) with the people who claimed its seats (by identity, the key's fingerprint),
who is connected now, and the hand-over rule: a person away longer than the room's
``handover_after`` has their seat played by a computer until they return.

Every change of a room's game is written to its ``RoomStore`` in one transaction; ``Rooms(store)``
brings every stored room back by replaying its decisions with its game (the record names it).

A turn-based room (issue 40, ``net/turns.py``) has a clock: the seat to decide has a time per move
or a total for the game; where the clock stands is written with each decision (so a restart,
SIGKILL too, loses no time), the host's tick (``Rooms.clock_due``) applies the room's rule when
it runs out (a computer plays the turn, or the others may skip it: ``Room.skip``), and the people
of the room are told (``Notice``: whose turn it is, whose clock ran out), with a log line.

A room's seed is the host's: drawn when the room is made (whatever seed the request had) and
never sent (``Room.public_config`` has seed 0): with the seed and the public decisions anyone
could replay every hidden card.
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec

from .. import registry
from ..game import SPECTATOR, SeatLabel, SeatPresence
from ..registry import AnyGame
from ..session import Session
from ..store import ReplayError, Store, StoreError
from . import protocol as P, ratings as R, turns
from .store import Holder, RoomRecord, RoomStore, StoredRoom

log = logging.getLogger("nctui.platform.net")
MAX_NAME = 40
_info_encoder = msgspec.json.Encoder()
_info_decoder = msgspec.json.Decoder(P.RoomInfo)
LATE_TURN_MAX = 500  # decisions a computer makes for one late turn at most (a turn is a few)
Now = Callable[[], float]  # the host's time source (wall-clock seconds); tests give one they advance


class Notice(NamedTuple):
    """News of a turn-based room for some of its people: the host sends ``message`` to every
    connection of ``people`` (``elsewhere``: only those not in this room, who see it already)."""

    message: P.TurnNotice
    people: tuple[str, ...]
    elsewhere: bool = False


class RoomError(Exception):
    """A room request refused; ``str()`` is one line."""


def clean_name(text: str) -> str:
    """A name as others will read it: printable, one line, at most ``MAX_NAME`` characters."""
    return "".join(c for c in text if c.isprintable())[:MAX_NAME].strip()


def fresh_seed() -> int:
    """A room's seed: nobody can guess it."""
    return secrets.randbits(32)


def replayed(stored: StoredRoom) -> tuple[Store, tuple[Any, ...]]:
    """A stored room's game with its decisions replayed (its seed and all), and the decisions;
    ``RoomError`` in one line when it cannot be."""
    rec = stored.record
    game = registry.game_named(rec.game)
    if game is None:
        raise RoomError(f"it is of the game {rec.game!r}, which this nctui does not have")
    data = P.payloads(game.id)  # the stored configuration and actions are JSON as on the wire
    try:
        actions = tuple(data.action(a) for a in stored.actions)
        return Store(data.config(rec.config), game=game, actions=actions, cursor=stored.cursor), actions
    except (ReplayError, ValueError, P.ProtocolError) as exc:
        raise RoomError(str(exc).splitlines()[0]) from None


class RatingCache:
    """Each game's ratings by identity, read from the store when first asked and again after a
    result of that game was recorded here (what the lobby shows beside each person's name)."""

    def __init__(self, store: RoomStore) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._games: dict[str, dict[str, float]] = {}

    def of(self, game: str) -> dict[str, float]:
        with self._lock:
            found = self._games.get(game)
        if found is None:
            try:
                found = {r.identity: r.rating for r in self.store.ratings(game)}
            except Exception as exc:  # noqa: BLE001 - the lobby without ratings, said in the log
                log.error("the ratings of %s could not be read: %s", game, exc)
                return {}
            with self._lock:
                self._games[game] = found
        return found

    def forget(self, game: str) -> None:
        with self._lock:
            self._games.pop(game, None)


class Room:
    def __init__(
        self,
        record: RoomRecord,
        session: Session,
        store: RoomStore,
        *,
        saved: tuple[Any, ...] = (),
        cursor: int = 0,
        now: Now = time.time,
        tell: Callable[[Notice], None] | None = None,
    ) -> None:
        self.record = record
        self.now = now  # the time source of the room's clock
        self.tell = tell or (lambda notice: None)  # called with each notice (any thread, the room's lock held)
        self._late: threading.Thread | None = None  # a computer playing a late turn
        self._late_failed = -1  # the game's revision when a late turn's computer gave up (not retried before a change)
        self.session = session
        self.game: AnyGame = session.game
        self.ratings: RatingCache | None = None  # its people's ratings, for the lobby (``Rooms`` sets it)
        self.config: Any = session.config  # with its seed: never sent
        self.public_config = P.raw(self.game.with_seed(self.config, 0))  # what every client is told
        self._labels: tuple[int, tuple[SeatLabel, ...]] = (-1, ())  # (state id, the seats' labels then)
        self._store = store
        self._lock = session.lock  # one lock for the room and its game: no order to get wrong
        self._saved = saved  # the actions as stored
        self._saved_cursor = cursor
        self.deleted = False  # closed by its creator (``Rooms.close_room``)
        self.stored_for_good = False  # the host stops: stored one last time (``Rooms.close``), then never again
        self.connections: dict[int, int] = {}  # seat (SPECTATOR too) → open connections
        self.away_since: dict[int, float] = {}  # claimed seat → when its person left
        for seat, kind in enumerate(record.kinds):
            if kind != session.seat_kinds[seat]:
                session.set_seat_kind(seat, kind)
        started = time.monotonic()
        for seat, holder in enumerate(record.holders):
            if holder is not None:
                self.away_since[seat] = started
        session.subscribe(self._changed)
        session.store.seat_namer = self.seat_name

    @property
    def id(self) -> str:
        return self.record.id

    # -- seats ---------------------------------------------------------------------------------

    def seat_of(self, identity: str) -> int | None:
        return next((i for i, h in enumerate(self.record.holders) if h is not None and h.identity == identity), None)

    def claim(self, seat: int, identity: str, name: str) -> None:
        """``identity`` takes ``seat`` (or returns to it); ``RoomError`` says why not."""
        with self._lock:
            if not 0 <= seat < len(self.record.holders):
                raise RoomError(f"this room has no seat {seat + 1}")
            holder = self.record.holders[seat]
            if holder is not None and holder.identity != identity:
                raise RoomError(f"{self.label_name(seat)} is taken by {holder.name}")
            if holder is None:
                if self.game.seats(self.config)[seat] != "human":
                    raise RoomError(f"{self.label_name(seat)} is played by the computer")
                mine = self.seat_of(identity)
                if mine is not None:
                    raise RoomError(f"you already sit at {self.label_name(mine)} in this room")
                holders = list(self.record.holders)
                holders[seat] = Holder(identity, name)
                self._set(holders=tuple(holders))

    def give_up(self, seat: int, identity: str) -> None:
        """The person at ``seat`` leaves it for good: free for another person to claim; in a room
        that hands away seats (``handover_after``) the computer plays it until then."""
        with self._lock:
            holder = self.record.holders[seat] if 0 <= seat < len(self.record.holders) else None
            if holder is None or holder.identity != identity:
                raise RoomError("you hold no seat here to give up")
            holders = list(self.record.holders)
            holders[seat] = None
            abandoned = self.record.abandoned
            if self.record.rated and not self.record.finished and holder not in abandoned:
                abandoned += (holder,)  # a loss for them when the game ends (``ratings``)
            self._set(holders=tuple(holders), abandoned=abandoned)
            self.away_since.pop(seat, None)
            if self.record.handover_after > 0 and self.record.kinds[seat] == "human":
                self._give(seat, "bot")
        self._announce()

    def connect(self, seat: int) -> None:
        with self._lock:
            self.connections[seat] = self.connections.get(seat, 0) + 1
            self.away_since.pop(seat, None)
            if seat >= 0 and self.record.kinds[seat] == "bot" and self.record.holders[seat] is not None:
                self._give(seat, "human")
        self._announce()

    def disconnect(self, seat: int) -> None:
        with self._lock:
            left = self.connections.get(seat, 0) - 1
            if left > 0:
                self.connections[seat] = left
                return
            self.connections.pop(seat, None)
            if seat >= 0 and self.record.holders[seat] is not None:
                self.away_since[seat] = time.monotonic()
        self._announce()

    def _announce(self) -> None:
        """Tell the room's listeners (the host's connections) that who is connected changed."""
        if self.record.kinds:
            self.session.set_seat_kind(0, self.session.seat_kinds[0])

    def hand_over_due(self, now: float) -> list[int]:
        """Hand every seat whose person stayed away too long to a computer; the seats handed."""
        after = self.record.handover_after
        if after <= 0:
            return []
        with self._lock:
            due = [s for s, t in self.away_since.items() if now - t >= after and self.record.kinds[s] == "human"]
            for seat in due:
                self._give(seat, "bot")
            return due

    def _give(self, seat: int, kind: Any) -> None:
        kinds = list(self.record.kinds)
        kinds[seat] = kind
        self._set(kinds=tuple(kinds))
        self.session.set_seat_kind(seat, kind)

    def _set(self, **changes: Any) -> None:
        self.record = msgspec.structs.replace(self.record, **changes)
        self.persist()

    # -- what others see -----------------------------------------------------------------------

    def labels(self, view: Any = None) -> tuple[SeatLabel, ...]:
        """Each seat's name, letter and colour (public: read off ``view``, or the spectator's)."""
        s = self.session
        with s.lock:
            made_at, labels = self._labels
            if made_at != s.state_id or not labels:
                labels = self.game.seat_labels(view if view is not None else s.view(SPECTATOR))
                self._labels = (s.state_id, labels)
            return labels

    def label_name(self, seat: int) -> str:
        labels = self.labels()
        return labels[seat].name if 0 <= seat < len(labels) else f"seat {seat + 1}"

    def seat_name(self, seat: int) -> str:
        """A seat as refusals name it: its colour or name in the game, and who holds it
        ("Blue (Ann)")."""
        name = self.label_name(seat)
        holder = self.record.holders[seat] if 0 <= seat < len(self.record.holders) else None
        return f"{name} ({holder.name})" if holder is not None else name

    def seats(self, view: Any = None) -> tuple[P.SeatInfo, ...]:
        people = self.game.seats(self.config)
        labels = self.labels(view)
        now, wall = time.monotonic(), self.now()
        rated = self.ratings.of(self.game.id) if self.ratings is not None else {}
        return tuple(
            P.SeatInfo(
                kind=kind,
                label=labels[i] if i < len(labels) else None,
                holder=h.name if h is not None else "",
                connected=self.connections.get(i, 0) > 0,
                identity=h.identity if h is not None else "",
                open=h is None and people[i] == "human",
                away=(now - self.away_since[i]) // 60 * 60 if h is not None and i in self.away_since else 0.0,
                left=_minutes(self.left(i, wall)),
                rating=rated.get(h.identity, 0.0) if h is not None else 0.0,
            )
            for i, (kind, h) in enumerate(zip(self.session.seat_kinds, self.record.holders))
        )

    def left(self, seat: int, now: float | None = None) -> float:
        """Seconds left on ``seat``'s clock (-1: a live room, or a seat no person plays)."""
        turn = self.record.turn
        if turn is None or self.game.seats(self.config)[seat] != "human":
            return -1.0
        return turns.left(turn, self.record.clock, seat, self.now() if now is None else now)

    def presence(self, now: float | None = None) -> tuple[SeatPresence, ...]:
        """Who holds each seat and whether they are there (issue 37.6): what every seat's players
        panel says. Away times in whole minutes, so it changes at most once a minute a seat."""
        now = time.monotonic() if now is None else now
        with self._lock:
            seats = tuple(
                self._presence(seat, kind, holder, now)
                for seat, (kind, holder) in enumerate(zip(self.session.seat_kinds, self.record.holders))
            )
            if self.record.turn is None:
                return seats
            running, wall = self.record.clock.seat, self.now()
            return tuple(
                msgspec.structs.replace(p, turn_based=True, left=_minutes(self.left(i, wall)) if i == running else -1.0)
                for i, p in enumerate(seats)
            )

    def _presence(self, seat: int, kind: Any, holder: Holder | None, now: float) -> SeatPresence:
        if holder is None:
            return SeatPresence(status="free" if kind == "human" else "computer")
        since = self.away_since.get(seat)
        away = (now - since) // 60 * 60 if since is not None else 0.0
        if kind != "human":
            return SeatPresence(name=holder.name, status="computer", away=away)
        if self.connections.get(seat, 0) > 0:
            return SeatPresence(name=holder.name)
        return SeatPresence(name=holder.name, status="away", away=away)

    def info(self) -> P.RoomInfo:
        with self.session.lock:
            summary = self.session.summary()
        return P.RoomInfo(
            id=self.id,
            game=self.game.id,
            name=self.record.name,
            mode=summary.mode,
            progress=summary.progress,
            finished=summary.finished,
            seats=self.seats(),
            spectators=self.connections.get(SPECTATOR, 0),
            handover_after=self.record.handover_after,
            creator=self.record.creator,
            turn=self.record.turn,
            deciding=self._decider(),
            expired=self.record.clock.expired,
            rated=self.record.rated,
        )

    def _decider(self) -> int:
        seat = self.session.deciding_seat()
        return -1 if seat is None or self.session.summary().finished else seat

    def update(self, seat: int, since: int, rewinds: int | None = None) -> P.Update:
        """The game as ``seat`` sees it, with the events after state ``since``; ``rewinds``: the
        session's ``rewinds`` when the client got state ``since`` (another one: the game went back
        meanwhile and may have gone forward again, so the client gets the whole story)."""
        s = self.session
        with s.lock:
            if rewinds is not None and rewinds != s.rewinds:
                since = -1
            news = s.events(since, seat)
            view = s.view(seat)
            # the timeline's entries up to ``since`` have not changed unless the game went back
            start = 0 if since < 0 or news.undone else since + 1
            return P.Update(
                state_id=s.state_id,
                last_id=s.last_id,
                revision=s.revision,
                since=since,
                undone=news.undone,
                view=P.raw(view),
                events=P.raw(news.events),
                timeline=tuple(P.TimelineEntry(*item) for item in s.timeline(seat, start)),
                timeline_from=start,
                rewinds=s.rewinds,
                seats=self.seats(view),
                deciding=s.deciding_seat(),
                thinking=s.thinking,
                can_redo=s.can_redo(seat),
                bot_error=s.bot_error,
            )

    def over(self) -> bool:
        """Whether the game ended: everything it hid may be shown (a replay of it)."""
        return bool(self.record.finished) and self.session.deciding_seat() is None

    def replay_update(self, seat: int, since: int, at: int, moves: int = 0) -> P.Update:
        """The game as ``seat`` saw it at decision ``at`` (at most where it stands), with the events
        after ``since`` up to it (``undone``: ``at`` is before ``since``): a spectator stepping
        through it from its start (``Watch.from_start``; ``moves``: how many steps they took, so
        that each step is news). Once the game is over nothing is hidden (``view_all``, every event
        as it happened, the timeline in full); before, ``seat`` must be the spectator's."""
        s, game = self.session, self.game
        with s.lock:
            store = s.store
            over = self.over()
            if not over:
                seat = SPECTATOR  # a live game's past is shown as a spectator saw it
            at = max(0, min(at, s.state_id))
            state = store.entry(at).state
            view = game.view_all(state, seat) if over else game.view(state, seat)
            undone = since > at
            first = at if undone else since
            events = [ev for i in range(max(first + 1, 0), at + 1) for ev in store.entry(i).events]
            if not over:
                events = [game.redact_event(ev, seat) for ev in events]
            timeline = store.timeline(viewer="all" if over else seat)[: s.state_id + 1]
            return P.Update(
                state_id=at,
                last_id=s.state_id,
                revision=s.revision + moves,
                since=since,
                undone=undone,
                view=P.raw(view),
                events=P.raw(events),
                timeline=tuple(P.TimelineEntry(*item) for item in timeline),
                rewinds=s.rewinds,
                seats=self.seats(view),
                deciding=game.decider(state),
                thinking=None,
                can_redo=at < s.state_id,
            )

    # -- the store -----------------------------------------------------------------------------

    def _changed(self) -> None:
        self.persist()

    def persist(self) -> None:
        """Write what changed since the last write: one transaction."""
        with self._lock:
            if self.deleted or self.stored_for_good:
                return  # closed by its creator, or the host stopped: nothing of it is written again
            ended = not self.record.finished and self.session.summary().finished
            if ended:
                self.record = msgspec.structs.replace(self.record, finished=time.time())  # when it ended
            self._clock_moved()
            store = self.session.store
            actions, cursor = store.all_actions(), store.state_id
            keep = 0
            for old, new in zip(self._saved, actions):
                if old != new:
                    break
                keep += 1
            fresh = [msgspec.json.encode(a) for a in actions[keep:]]
            try:
                self._store.save(self.record, keep=keep, new=fresh, cursor=cursor)
            except Exception as exc:  # noqa: BLE001 - a failing disk must not stop the game; it is logged
                log.error("room %s: could not store the game: %s", self.id, exc)
                return
            self._saved, self._saved_cursor = actions, cursor
            if ended:
                self.record_result()

    def result(self) -> R.GameResult:
        """The finished game's places: who won, who lost, who abandoned it (``ratings``)."""
        state = self.session.store.state
        winners = registry.simulated(self.game.id).winners(state) or ()
        people = {seat: (h.identity, h.name) for seat, h in enumerate(self.record.holders) if h is not None}
        places = R.places_of(winners, people, {h.identity: h.name for h in self.record.abandoned})
        return R.GameResult(
            room=self.id,
            game=self.game.id,
            room_name=self.record.name,
            ended=self.record.finished,
            rated=self.record.rated,
            result=self.session.summary().result,
            places=places,
        )

    def record_result(self) -> None:
        """The finished game in its people's records, and their ratings moved if it is rated."""
        try:
            self._store.record_result(self.result())
        except Exception as exc:  # noqa: BLE001 - a failing disk must not stop the game; it is logged
            log.error("room %s: could not record the result: %s", self.id, exc)
        if self.ratings is not None:
            self.ratings.forget(self.game.id)

    # -- a turn-based room's clock ---------------------------------------------------------------

    def _clock_seat(self) -> int:
        """The seat whose clock runs now: the deciding seat, if a person holds it and plays it."""
        seat = self._decider()
        if seat < 0 or seat >= len(self.record.holders) or self.record.holders[seat] is None:
            return -1
        return seat if self.record.kinds[seat] == "human" else -1

    def _clock_moved(self) -> None:
        """The clock after a change (lock held, before the record is written): the turn passed to
        another seat, whose person is told (wherever they are but here)."""
        turn = self.record.turn
        if turn is None:
            return
        before = self.record.clock
        seat = self._clock_seat()
        clock = turns.switch(turn, before, seat, self.now(), len(self.record.kinds))
        if clock == before:
            return
        self.record = msgspec.structs.replace(self.record, clock=clock)
        holder = self.record.holders[seat] if seat >= 0 else None
        if holder is not None:
            left = turns.left(turn, clock, seat, clock.since)
            self._tell("your_turn", seat, (holder.identity,), elsewhere=True, left=left)

    def _tell(self, what: Any, seat: int, people: tuple[str, ...], *, elsewhere: bool = False, **more: Any) -> None:
        message = P.TurnNotice(
            room=self.id, room_name=self.record.name, what=what, seat=seat, seat_name=self.seat_name(seat), **more
        )
        self.tell(Notice(message, people, elsewhere))

    def may_go_back(self, seat: int) -> None:
        """Undo and redo in a turn-based room: only decisions of the turn ``seat`` is playing (a
        turn taken back once the decision passed on would start the per-move clock afresh, and a
        late turn a computer played could be undone); ``RoomError`` says so."""
        if self.record.turn is not None and self.record.clock.seat != seat:
            raise RoomError("in a turn-based game you can take back only decisions of the turn you are playing")

    def people(self) -> tuple[str, ...]:
        """The identities holding a seat here."""
        return tuple(h.identity for h in self.record.holders if h is not None)

    def clock_due(self, now: float | None = None) -> bool:
        """Apply the room's rule if the running clock has run out (the host's tick): logged, and
        the room's people told; a computer then plays the turn (the "computer" rule, also after a
        restart that came between the clock running out and the turn played). True if it ran out now."""
        turn = self.record.turn
        if turn is None:
            return False
        with self._lock:
            if self.deleted:
                return False
            clock = self.record.clock
            now = self.now() if now is None else now
            if not turns.due(turn, clock, now):
                if clock.expired and turn.on_timeout == "computer" and clock.seat >= 0:
                    self._play_late(clock.seat)  # after a restart, or after a change since the computer failed
                return False
            seat = clock.seat
            self._set(clock=msgspec.structs.replace(clock, expired=True))
            rule = turn.on_timeout
            log.info(
                "room %s: the clock of %s ran out: %s",
                self.id,
                self.seat_name(seat),
                "a computer plays the turn" if rule == "computer" else "the others may skip the turn",
            )
            self._tell("ran_out", seat, self.people(), rule=rule)
            if rule == "computer":
                self._play_late(seat)
            return True

    def skip(self, identity: str, name: str) -> int:
        """``identity`` skips the turn of the seat whose clock ran out (a room whose rule lets the
        others skip it): a computer plays it. The seat skipped; ``RoomError`` says why not."""
        turn = self.record.turn
        with self._lock:
            clock = self.record.clock
            if turn is None or turn.on_timeout != "skip":
                raise RoomError("this room's turns cannot be skipped")
            mine = self.seat_of(identity)
            if mine is None:
                raise RoomError("only a person sitting in this room may skip a turn")
            if clock.seat < 0 or not clock.expired:
                raise RoomError("nobody's clock has run out here")
            if mine == clock.seat:
                raise RoomError("your own clock ran out: make your decision (only the others may skip it)")
            seat = clock.seat
            log.info("room %s: %s skipped the turn of %s: a computer plays it", self.id, identity, self.seat_name(seat))
            self._tell("skipped", seat, self.people(), rule="skip", by=clean_name(name))
            self._play_late(seat)
            return seat

    def _play_late(self, seat: int) -> None:
        """A computer plays ``seat``'s turn (every decision of it in a row), on a thread of its own."""
        if (self._late is not None and self._late.is_alive()) or self.session.revision == self._late_failed:
            return
        self._late = threading.Thread(target=self._late_turn, args=(seat,), name="nctui-late-turn", daemon=True)
        self._late.start()

    def _late_turn(self, seat: int) -> None:
        for _ in range(LATE_TURN_MAX):
            with self._lock:
                if self.deleted or self.record.clock.seat != seat or not self.record.clock.expired:
                    return  # the turn is over (or the person decided meanwhile)
            try:
                if not self.session.decide_for(seat):
                    with self._lock:
                        self._late_failed = self.session.revision
                    return
            except (ValueError, StoreError) as exc:  # the game moved on meanwhile: look again
                log.info("room %s: a late turn's decision was not taken: %s", self.id, str(exc).splitlines()[0])

    def close(self) -> None:
        self.session.close()


def _minutes(left: float) -> float:
    """Time left as others are told it: whole minutes, rounded up (-1 stays: no clock)."""
    return -1.0 if left < 0 else math.ceil(left / 60) * 60.0


class Rooms:
    """Every room of this host, of any game of the registry, brought back from ``store`` at start.
    ``seeds``: where each new room's seed comes from (tests give their own)."""

    def __init__(
        self,
        store: RoomStore,
        *,
        bot_delay: float = 0.6,
        max_rooms: int = 200,
        seeds: Callable[[], int] = fresh_seed,
        now: Now = time.time,
    ) -> None:
        self.store = store
        self.now = now  # the time source of turn-based rooms' clocks
        self.listeners: list[Callable[[Notice], None]] = []  # the host: told each room's notices
        self.bot_delay = bot_delay
        self.max_rooms = max_rooms
        self.seeds = seeds
        self.ratings = RatingCache(store)
        self._lock = threading.Lock()
        self.rooms: dict[str, Room] = {}
        # the rooms other hosts of a shared database run: room id → (their address, lobby line)
        self.elsewhere: dict[str, tuple[str, P.RoomInfo]] = {}
        for stored in store.load_all():
            room = self._restore(stored)
            if room is not None:
                self.rooms[room.id] = room
        for room in self.rooms.values():
            room.session.start()

    def _restore(self, stored: StoredRoom) -> Room | None:
        """A stored room with its decisions replayed, or None (said in the log) when it cannot be."""
        rec = stored.record
        try:
            st, actions = replayed(stored)
        except RoomError as exc:
            log.error("room %s could not be restored: %s", rec.id, exc)
            return None
        session = self._session(st, rec.id)
        room = Room(rec, session, self.store, saved=actions, cursor=stored.cursor, now=self.now, tell=self._tell)
        room.ratings = self.ratings
        return room

    def _tell(self, notice: Notice) -> None:
        for listener in self.listeners:
            listener(notice)

    def _session(self, store: Store, room_id: str) -> Session:
        return Session(store, game_id=room_id, undo="strict", autosave=False, bot_delay=self.bot_delay)

    def list(self, *, finished: bool = False, now: float | None = None) -> tuple[P.RoomInfo, ...]:
        """The lobby's rooms: every room but those finished more than ``FINISHED_SHOWN`` ago
        (``finished``: the finished rooms only, the list of finished games)."""
        now = time.time() if now is None else now
        with self._lock:
            rooms = list(self.rooms.values())
            far = tuple(info for room_id, (_, info) in self.elsewhere.items() if room_id not in self.rooms)
        if finished:
            return tuple(r.info() for r in rooms if r.record.finished) + tuple(i for i in far if i.finished)
        here = tuple(r.info() for r in rooms if not r.record.finished or now - r.record.finished < P.FINISHED_SHOWN)
        return here + tuple(i for i in far if not i.finished)

    def where(self, room_id: str) -> str | None:
        """The address of the host that runs ``room_id`` when another host does (None: here, or
        nowhere)."""
        with self._lock:
            if room_id in self.rooms:
                return None
            far = self.elsewhere.get(room_id)
        return None if far is None else far[0]

    def ratings_table(self, game: str) -> P.RatingsTable:
        """The host's players of ``game``, best first."""
        return P.RatingsTable(game=game, ratings=tuple(self.store.ratings(game)[: P.TABLE_ROWS]))

    def page(self, identity: str, name: str = "") -> P.PersonPage:
        """A person's page: their rating of each game, their finished games (newest first)."""
        ratings = tuple(r for game in registry.GAME_IDS for r in self.store.ratings(game) if r.identity == identity)
        name = next((r.name for r in ratings), name)
        results = tuple(self.store.results(identity)[: P.PAGE_RESULTS])
        return P.PersonPage(identity=identity, name=name, ratings=ratings, results=results)

    def close_room(self, room_id: str, identity: str) -> Room:
        """Close the room for good (its creator only): it leaves the host and its store."""
        room = self.get(room_id)
        if room.record.creator != identity:
            raise RoomError("only the person who made a room can close it")
        with self._lock:
            self.rooms.pop(room_id, None)
        with room.session.lock:
            room.deleted = True
        room.close()
        self.store.delete(room_id)
        return room

    def get(self, room_id: str) -> Room:
        with self._lock:
            room = self.rooms.get(room_id)
        if room is None:
            raise RoomError(f"no room {room_id!r}")
        return room

    def create(
        self,
        config: Any,
        *,
        identity: str,
        name: str = "",
        handover_after: float = 0.0,
        rated: bool = True,
        turn: turns.TurnClock | None = None,
    ) -> Room:
        """A new room of ``config``'s game, with a seed of the host's (its creator does not sit
        yet); ``rated``: its result moves ratings (when two people or more play it); ``turn``: a
        turn-based room's clock (its seats are never handed over for being away). ``RoomError``
        for a configuration the game refuses or a clock out of bounds."""
        if turn is not None:
            try:
                turn = turns.checked(turn)
            except turns.ClockError as exc:
                raise RoomError(str(exc)) from None
            handover_after = 0.0
        with self._lock:  # the finished games kept do not count
            if sum(not r.record.finished for r in self.rooms.values()) >= self.max_rooms:
                raise RoomError(f"this server has its limit of {self.max_rooms} rooms")
        try:
            game = registry.game_of(config)
            config = game.with_seed(config, self.seeds())
            store = Store(config, game=game)
        except (ValueError, TypeError) as exc:
            raise RoomError(f"cannot start this game: {str(exc).splitlines()[0]}") from None
        kinds = tuple(game.seats(config))
        if "human" not in kinds:
            raise RoomError("a room needs at least one seat for a person")
        room_id = secrets.token_hex(4)
        record = RoomRecord(
            id=room_id,
            name=clean_name(name) or f"room {room_id}",
            game=game.id,
            creator=identity,
            config=P.raw(config),
            kinds=kinds,
            holders=(None,) * len(kinds),
            handover_after=max(0.0, min(handover_after, 7 * 86400.0)),
            created=time.time(),
            rated=rated,
            turn=turn,
        )
        room = Room(record, self._session(store, room_id), self.store, now=self.now, tell=self._tell)
        room.ratings = self.ratings
        room.persist()
        with self._lock:
            self.rooms[room_id] = room
        room.session.start()
        return room

    def _tell_far_turns(
        self, before: dict[str, tuple[str, P.RoomInfo]], after: dict[str, tuple[str, P.RoomInfo]]
    ) -> None:
        """A turn-based room another host runs whose turn passed to a person: they are told here
        too (``Room._clock_moved`` tells only the running host's people), a renewal late at most.
        A room first seen now tells nobody: its turn did not pass, this host only learnt of it."""
        for room_id, (_, info) in after.items():
            was = before.get(room_id)
            if info.turn is None or was is None or was[1].deciding == info.deciding:
                continue
            if not 0 <= info.deciding < len(info.seats):
                continue
            seat = info.seats[info.deciding]
            if seat.kind != "human" or not seat.identity:
                continue
            name = seat.label.name if seat.label is not None else f"Seat {info.deciding + 1}"
            message = P.TurnNotice(
                room=room_id,
                room_name=info.name,
                what="your_turn",
                seat=info.deciding,
                seat_name=f"{name} ({seat.holder})" if seat.holder else name,
                left=max(seat.left, 0.0),
            )
            self._tell(Notice(message, (seat.identity,), True))

    def renew(self, address: str = "") -> tuple[Room, ...]:
        """The store's lease on this host's rooms renewed and the rooms of a host whose lease ran
        out taken over (``RoomStore.renew``: a database several hosts share); the rooms other hosts
        run noted for the lobby (``elsewhere``). Returns this host's rooms that another host owns
        now, gone from here (their people are to be told)."""
        with self._lock:
            rooms = list(self.rooms.values())
        held = {room.id: _info_encoder.encode(room.info()) for room in rooms}
        try:
            got = self.store.renew(held, address=address)
        except Exception as exc:  # noqa: BLE001 - the database away for a while: said, tried again next time
            log.error("could not renew this host's rooms: %s", (str(exc).splitlines() or [repr(exc)])[0])
            return ()
        elsewhere = {}
        for far in got.elsewhere:
            try:
                elsewhere[far.room] = (far.address, _info_decoder.decode(far.info))
            except (msgspec.DecodeError, msgspec.ValidationError):
                continue  # a lobby line of another nctui: that room is not listed here
        self._tell_far_turns(self.elsewhere, elsewhere)
        self.elsewhere = elsewhere
        lost: tuple[Room, ...] = ()
        for room_id in got.lost:
            with self._lock:
                room = self.rooms.pop(room_id, None)
            if room is not None:
                with room.session.lock:
                    room.deleted = True  # another host's now: nothing of it is written from here
                room.close()
                log.info("room %s: another host owns it now", room_id)
                lost += (room,)
        for stored in got.taken:
            with self._lock:
                if stored.record.id in self.rooms:
                    continue
            taken = self._restore(stored)
            if taken is None:
                continue
            with self._lock:
                self.rooms[taken.id] = taken
            taken.session.start()
            log.info("room %s taken over (its host's lease ran out)", taken.id)
        return lost

    def hand_over_due(self) -> None:
        now = time.monotonic()
        with self._lock:
            rooms = list(self.rooms.values())
        for room in rooms:
            for seat in room.hand_over_due(now):
                log.info("room %s: seat %d handed to a computer player", room.id, seat + 1)

    def clock_due(self) -> None:
        """Every turn-based room whose running clock has run out applies its rule (the host's tick)."""
        now = self.now()
        with self._lock:
            rooms = list(self.rooms.values())
        for room in rooms:
            room.clock_due(now)

    def close(self) -> None:
        """The host stops: each room stored one last time (what changed as its people dropped),
        then no more, before the rooms database closes (a room written after that was lost, and
        logged as "could not store the game" for every room with people in it)."""
        with self._lock:
            rooms = list(self.rooms.values())
        for room in rooms:
            room.persist()
            with room.session.lock:
                room.stored_for_good = True
            room.close()
        self.store.close()
