"""The embedded rooms store: ``SqliteRoomStore`` implements ``RoomStore`` (``store.py``) in one file
of the data folder (stdlib sqlite3, WAL mode).

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

import msgspec

from .ratings import GameResult, Rating, ResultRow, apply
from .store import SCHEMA_VERSION, RoomRecord, RoomStoreError, StoredRoom, record_decoder as _record_decoder
from .turns import Prefs

log = logging.getLogger("nctui.platform.net")

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, record BLOB NOT NULL, cursor INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS decisions (room TEXT NOT NULL, idx INTEGER NOT NULL, action BLOB NOT NULL,
                                      PRIMARY KEY (room, idx));
CREATE TABLE IF NOT EXISTS results (room TEXT NOT NULL, identity TEXT NOT NULL, ended REAL NOT NULL,
                                    row BLOB NOT NULL, PRIMARY KEY (room, identity));
CREATE INDEX IF NOT EXISTS results_by_identity ON results (identity, ended);
CREATE TABLE IF NOT EXISTS ratings (game TEXT NOT NULL, identity TEXT NOT NULL, rating REAL NOT NULL,
                                    record BLOB NOT NULL, PRIMARY KEY (game, identity));
CREATE TABLE IF NOT EXISTS people (identity TEXT PRIMARY KEY, prefs BLOB NOT NULL);
"""

_row_decoder = msgspec.json.Decoder(ResultRow)
_rating_decoder = msgspec.json.Decoder(Rating)
_prefs_decoder = msgspec.json.Decoder(Prefs)


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
            # 1 → 2: the results and ratings tables (made by SCHEMA, empty); 2 → 3: a record without
            # a clock is a live room's, the people table (made by SCHEMA, empty)
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

    def prefs(self, identity: str) -> Prefs:
        with self._lock:
            row = self._db.execute("SELECT prefs FROM people WHERE identity = ?", (identity,)).fetchone()
        if row is None:
            return Prefs()
        try:
            return _prefs_decoder.decode(row[0])
        except (msgspec.DecodeError, msgspec.ValidationError):
            return Prefs()  # damaged settings: the defaults (the next change writes them afresh)

    def set_prefs(self, identity: str, prefs: Prefs) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO people (identity, prefs) VALUES (?, ?) ON CONFLICT(identity) DO UPDATE "
                "SET prefs = excluded.prefs",
                (identity, msgspec.json.encode(prefs)),
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()
