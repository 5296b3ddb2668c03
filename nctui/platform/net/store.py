"""Where rooms live between server runs: ``RoomStore`` is the interface the rooms use, with its
records (``RoomRecord``, ``StoredRoom``) and its one error (``RoomStoreError``).
``SqliteRoomStore`` (``store_sqlite.py``, a file in the data folder) is the embedded default,
``PostgresRoomStore`` (``store_postgres.py``) a database several hosts may share; both are
``store_sql.SqlRoomStore``'s queries. ``open_store`` picks one from the ``--store`` setting.

A room is its record (its game, name, creator, configuration with its seed, who holds each seat,
seat kinds, hand-over timeout, a turn-based room's clock and where it stands: msgspec JSON) and
its decisions (one row per action, in order, the redo branch included) with the cursor. Each
decision is one transaction: the record, the cursor, the actions dropped from a replaced redo
branch and the new ones. A person's settings (``Prefs``) are kept by identity.

Each finished game's result (``ratings.GameResult``) is recorded once, in one transaction with the
new ratings of its people (``record_result``): a row per person of it (their page's list of
finished games) and, for a rated game, their rating of its game (``ratings``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple, Protocol

import msgspec

from ..game import SeatKind
from .ratings import GameResult, Rating, ResultRow
from .turns import ClockState, Prefs, TurnClock

# 3: turn-based rooms' clocks in the record, people's settings (``people``); 2: the results and
# ratings tables; 1: the room record names its game; 0: every room was Nightmare Cathedral's
SCHEMA_VERSION = 3
FIRST_GAME = "nightmare-cathedral"  # the game of the rooms of a schema 0 database


class Holder(msgspec.Struct, frozen=True):
    identity: str  # the key's fingerprint
    name: str


class RoomRecord(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    game: str = FIRST_GAME  # the registry id of the room's game (a schema 0 record has none)
    name: str
    creator: str  # identity
    config: msgspec.Raw  # the game's configuration as JSON, its seed included (read with the game's type)
    kinds: tuple[SeatKind, ...]  # who plays each seat now (a person's seat handed to a computer: "bot")
    holders: tuple[Holder | None, ...]  # by seat: the person who claimed it
    handover_after: float = 0.0  # seconds away before a computer takes the seat (0: never)
    created: float = 0.0
    finished: float = 0.0  # when the game ended (wall clock; 0: not yet)
    rated: bool = False  # its result moves its people's ratings (``ratings``)
    abandoned: tuple[Holder, ...] = ()  # who gave up a seat of this rated game before its end
    turn: TurnClock | None = None  # a turn-based room's clock (None: a live room)
    clock: ClockState = ClockState()  # where that clock stands (written with each decision)


class StoredRoom(NamedTuple):
    record: RoomRecord
    actions: list[bytes]  # JSON of each action, in order
    cursor: int


class Elsewhere(NamedTuple):
    """A room another live host runs: where that host takes relayed people (``host:port``) and the
    room's lobby line as that host last wrote it (``protocol.RoomInfo`` as JSON)."""

    room: str
    address: str
    info: bytes


class Renewal(NamedTuple):
    """What a host's periodic ``RoomStore.renew`` found: the rooms it took over (their host's lease
    ran out), those of its rooms another host owns now (its own lease had run out), and the rooms
    other live hosts run."""

    taken: tuple[StoredRoom, ...] = ()
    lost: tuple[str, ...] = ()
    elsewhere: tuple[Elsewhere, ...] = ()


class RoomStore(Protocol):
    """What the rooms need of a database. Every method is one transaction; an implementation is
    safe to call from several threads."""

    def load_all(self) -> list[StoredRoom]:
        """Every room, in the order they were first saved; a record that cannot be read is logged
        and left out."""

    def load_room(self, room_id: str) -> StoredRoom | None:
        """One room as stored (whichever host runs it: nothing is claimed), or None."""

    def save(self, record: RoomRecord, *, keep: int, new: list[bytes], cursor: int) -> None:
        """One transaction: the record and cursor; actions beyond the first ``keep`` replaced by
        ``new``."""

    def delete(self, room_id: str) -> None:
        """The room and its decisions, gone (one transaction); its recorded result stays."""

    def renew(self, held: Mapping[str, bytes], *, address: str = "") -> Renewal:
        """A host's lease on its rooms (``held``: their ids and lobby lines, for other hosts'
        lobbies) renewed, the rooms of hosts whose lease ran out taken over, and the host's
        ``address`` for relayed people noted, in one transaction (a database only this host uses:
        nothing)."""

    def issue_ticket(self, identity: str, name: str) -> str:
        """A one-time token that lets another host of this database take ``identity`` in (a
        person relayed to the room it runs), valid ``TICKET_LIFE`` seconds."""

    def redeem_ticket(self, token: str) -> tuple[str, str] | None:
        """The (identity, name) a token was issued for, once; None for a token unknown, used or
        too old."""

    def record_result(self, result: GameResult) -> list[ResultRow]:
        """One transaction: the rows of a finished game's people and, for a rated game, their new
        ratings (``ratings.apply``). Once per room: a room already recorded changes nothing (its
        rows are returned)."""

    def ratings(self, game: str) -> list[Rating]:
        """Every rated person of ``game``, best first."""

    def results(self, identity: str) -> list[ResultRow]:
        """A person's finished games, newest first."""

    def prefs(self, identity: str) -> Prefs:
        """A person's settings (the defaults for a person never seen)."""

    def set_prefs(self, identity: str, prefs: Prefs) -> None:
        """Keep a person's settings (one transaction)."""

    def close(self) -> None: ...


class RoomStoreError(Exception):
    """A rooms database this nctui cannot use; ``str()`` is one line."""


record_decoder = msgspec.json.Decoder(RoomRecord)

TICKET_LIFE = 60.0  # seconds a relay ticket stays good
SQLITE_FILE = "rooms.db"  # the embedded store's file in the data folder


def is_database_url(spec: str) -> bool:
    return spec.startswith(("postgresql://", "postgres://"))


def describe_store(spec: str | None, data: Path) -> str:
    """Where the rooms are, for the server's log: the file, or the database URL without its
    password."""
    if spec is None or not is_database_url(spec):
        return str(data / SQLITE_FILE)
    from urllib.parse import urlsplit

    url = urlsplit(spec)
    if url.password is not None:
        netloc = url.netloc.rsplit("@", 1)[1]
        user = url.username or ""
        spec = url._replace(netloc=f"{user}:***@{netloc}").geturl()
    return spec


def open_store(spec: str | None, data: Path, *, host_id: str = "", lease: float = 30.0) -> RoomStore:
    """The store ``--store`` names: none (the data folder's ``rooms.db``) or a PostgreSQL URL, which
    this host shares with others as ``host_id`` (its rooms' lease: ``lease`` seconds)."""
    if spec is not None and is_database_url(spec):
        from .store_postgres import PostgresRoomStore

        return PostgresRoomStore(spec, host_id=host_id or str(data), lease=lease)
    if spec is not None and spec not in ("sqlite", ""):
        raise RoomStoreError(f"unknown store {spec!r}: give postgresql://USER@HOST/DATABASE or leave --store out")
    from .store_sqlite import SqliteRoomStore

    return SqliteRoomStore(data / SQLITE_FILE)
