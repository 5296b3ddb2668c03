"""Where rooms live between server runs: ``RoomStore`` is the small interface the rooms use,
``SqliteRoomStore`` the one implementation (stdlib sqlite3, WAL mode). Another database replaces it
by implementing the same three methods.

A room is its record (name, creator, configuration, who holds each seat, seat kinds, hand-over
timeout: msgspec JSON) and its decisions (one row per action, in order, the redo branch included)
with the cursor. Each decision is one transaction: the record, the cursor, the actions dropped
from a replaced redo branch and the new ones.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import NamedTuple, Protocol

import msgspec

from nctui.games.nightmare_cathedral.engine.config import GameConfig

from ..game import SeatKind


class Holder(msgspec.Struct, frozen=True):
    identity: str  # the key's fingerprint
    name: str


class RoomRecord(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    creator: str  # identity
    config: GameConfig
    kinds: tuple[SeatKind, ...]  # who plays each seat now (a person's seat handed to a computer: "bot")
    holders: tuple[Holder | None, ...]  # by seat: the person who claimed it
    handover_after: float = 0.0  # seconds away before a computer takes the seat (0: never)
    created: float = 0.0


class StoredRoom(NamedTuple):
    record: RoomRecord
    actions: list[bytes]  # JSON of each action, in order
    cursor: int


class RoomStore(Protocol):
    def load_all(self) -> list[StoredRoom]: ...

    def save(self, record: RoomRecord, *, keep: int, new: list[bytes], cursor: int) -> None:
        """One transaction: the record and cursor; actions beyond the first ``keep`` replaced by
        ``new``."""

    def close(self) -> None: ...


SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, record BLOB NOT NULL, cursor INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS decisions (room TEXT NOT NULL, idx INTEGER NOT NULL, action BLOB NOT NULL,
                                      PRIMARY KEY (room, idx));
"""

_record_decoder = msgspec.json.Decoder(RoomRecord)


class SqliteRoomStore:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    def load_all(self) -> list[StoredRoom]:
        with self._lock:
            rows = self._db.execute("SELECT id, record, cursor FROM rooms ORDER BY rowid").fetchall()
            out = []
            for room_id, record, cursor in rows:
                actions = [
                    a
                    for (a,) in self._db.execute("SELECT action FROM decisions WHERE room = ? ORDER BY idx", (room_id,))
                ]
                out.append(StoredRoom(_record_decoder.decode(record), actions, int(cursor)))
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

    def close(self) -> None:
        with self._lock:
            self._db.close()
