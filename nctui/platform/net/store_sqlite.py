"""Where rooms live between server runs: ``RoomStore`` is the small interface the rooms use,
``SqliteRoomStore`` the one implementation (stdlib sqlite3, WAL mode). Another database replaces it
by implementing the same methods.

A room is its record (its game, name, creator, configuration with its seed, who holds each
seat, seat kinds, hand-over timeout: msgspec JSON) and its decisions (one row per action, in
order, the redo branch included) with the cursor. Each decision is one transaction: the record,
the cursor, the actions dropped from a replaced redo branch and the new ones.

Each finished game's result (``ratings.GameResult``) is recorded once, in one transaction with the
new ratings of its people (``record_result``): a row per person of it (their page's list of
finished games) and, for a rated game, their rating of its game (``ratings``).

The database says which form it is in (``PRAGMA user_version``, ``SCHEMA_VERSION``): one of an
older nctui is brought to this form when opened, in one transaction (schema 0, before the game
id: every room was Nightmare Cathedral's), and one of a newer nctui is refused in one line.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from pathlib import Path
from typing import NamedTuple, Protocol

import msgspec

from ..game import SeatKind
from .ratings import GameResult, Rating, ResultRow, apply

log = logging.getLogger("nctui.platform.net")
# 2: the results and ratings tables; 1: the room record names its game; 0: every room was
# Nightmare Cathedral's
SCHEMA_VERSION = 2
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


class StoredRoom(NamedTuple):
    record: RoomRecord
    actions: list[bytes]  # JSON of each action, in order
    cursor: int


class RoomStore(Protocol):
    def load_all(self) -> list[StoredRoom]: ...

    def save(self, record: RoomRecord, *, keep: int, new: list[bytes], cursor: int) -> None:
        """One transaction: the record and cursor; actions beyond the first ``keep`` replaced by
        ``new``."""

    def delete(self, room_id: str) -> None:
        """The room and its decisions, gone (one transaction); its recorded result stays."""

    def record_result(self, result: GameResult) -> list[ResultRow]:
        """One transaction: the rows of a finished game's people and, for a rated game, their new
        ratings (``ratings.apply``). Once per room: a room already recorded changes nothing (its
        rows are returned)."""

    def ratings(self, game: str) -> list[Rating]:
        """Every rated person of ``game``, best first."""

    def results(self, identity: str) -> list[ResultRow]:
        """A person's finished games, newest first."""

    def close(self) -> None: ...


SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, record BLOB NOT NULL, cursor INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS decisions (room TEXT NOT NULL, idx INTEGER NOT NULL, action BLOB NOT NULL,
                                      PRIMARY KEY (room, idx));
CREATE TABLE IF NOT EXISTS results (room TEXT NOT NULL, identity TEXT NOT NULL, ended REAL NOT NULL,
                                    row BLOB NOT NULL, PRIMARY KEY (room, identity));
CREATE INDEX IF NOT EXISTS results_by_identity ON results (identity, ended);
CREATE TABLE IF NOT EXISTS ratings (game TEXT NOT NULL, identity TEXT NOT NULL, rating REAL NOT NULL,
                                    record BLOB NOT NULL, PRIMARY KEY (game, identity));
"""

_record_decoder = msgspec.json.Decoder(RoomRecord)
_row_decoder = msgspec.json.Decoder(ResultRow)
_rating_decoder = msgspec.json.Decoder(Rating)


class RoomStoreError(Exception):
    """A rooms database this nctui cannot use; ``str()`` is one line."""


class SqliteRoomStore:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # the file made 0600 before SQLite opens it: its -wal and -shm files take its mode
        os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600))
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            self._migrate()
        except BaseException:
            self._db.close()
            raise

    def _migrate(self) -> None:
        """Bring an older database to ``SCHEMA_VERSION`` (one transaction); refuse a newer one."""
        db = self._db
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise RoomStoreError(
                f"the rooms database {self.path} is of a newer nctui (schema {version}; this one knows "
                f"{SCHEMA_VERSION}): update nctui"
            )
        if version == SCHEMA_VERSION:
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            # schema 0 → 1: each record names its game (the decoder's default: Nightmare Cathedral);
            # 1 → 2: the results and ratings tables (made by SCHEMA, empty)
            for room_id, record in db.execute("SELECT id, record FROM rooms").fetchall() if version < 1 else ():
                try:
                    upgraded = msgspec.json.encode(_record_decoder.decode(record))
                except (msgspec.DecodeError, msgspec.ValidationError):
                    continue  # a damaged record stays as it is: loading it says what is wrong
                db.execute("UPDATE rooms SET record = ? WHERE id = ?", (upgraded, room_id))
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def load_all(self) -> list[StoredRoom]:
        with self._lock:
            rows = self._db.execute("SELECT id, record, cursor FROM rooms ORDER BY rowid").fetchall()
            out = []
            for room_id, record, cursor in rows:
                try:
                    decoded = _record_decoder.decode(record)
                except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                    log.error("room %s could not be read: %s", room_id, str(exc).splitlines()[0])
                    continue
                actions = [
                    a
                    for (a,) in self._db.execute("SELECT action FROM decisions WHERE room = ? ORDER BY idx", (room_id,))
                ]
                out.append(StoredRoom(decoded, actions, int(cursor)))
            return out

    def save(self, record: RoomRecord, *, keep: int, new: list[bytes], cursor: int) -> None:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(
                    "INSERT INTO rooms (id, record, cursor) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE "
                    "SET record = excluded.record, cursor = excluded.cursor",
                    (record.id, msgspec.json.encode(record), cursor),
                )
                db.execute("DELETE FROM decisions WHERE room = ? AND idx >= ?", (record.id, keep))
                db.executemany(
                    "INSERT INTO decisions (room, idx, action) VALUES (?, ?, ?)",
                    [(record.id, keep + i, a) for i, a in enumerate(new)],
                )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def delete(self, room_id: str) -> None:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("DELETE FROM decisions WHERE room = ?", (room_id,))
                db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def record_result(self, result: GameResult) -> list[ResultRow]:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                done = db.execute("SELECT row FROM results WHERE room = ?", (result.room,)).fetchall()
                if done:
                    db.execute("COMMIT")
                    return [_row_decoder.decode(r) for (r,) in done]
                current = {}
                for p in result.places:
                    found = db.execute(
                        "SELECT record FROM ratings WHERE game = ? AND identity = ?", (result.game, p.identity)
                    ).fetchone()
                    if found is not None:
                        current[p.identity] = _rating_decoder.decode(found[0])
                ratings, rows = apply(result, current)
                db.executemany(
                    "INSERT INTO ratings (game, identity, rating, record) VALUES (?, ?, ?, ?) ON CONFLICT(game, "
                    "identity) DO UPDATE SET rating = excluded.rating, record = excluded.record",
                    [(r.game, r.identity, r.rating, msgspec.json.encode(r)) for r in ratings],
                )
                db.executemany(
                    "INSERT INTO results (room, identity, ended, row) VALUES (?, ?, ?, ?)",
                    [(row.room, identity, row.ended, msgspec.json.encode(row)) for identity, row in rows],
                )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            return [row for _, row in rows]

    def ratings(self, game: str) -> list[Rating]:
        with self._lock:
            found = self._db.execute(
                "SELECT record FROM ratings WHERE game = ? ORDER BY rating DESC, identity", (game,)
            ).fetchall()
        return [_rating_decoder.decode(r) for (r,) in found]

    def results(self, identity: str) -> list[ResultRow]:
        with self._lock:
            found = self._db.execute(
                "SELECT row FROM results WHERE identity = ? ORDER BY ended DESC, room", (identity,)
            ).fetchall()
        return [_row_decoder.decode(r) for (r,) in found]

    def close(self) -> None:
        with self._lock:
            self._db.close()
