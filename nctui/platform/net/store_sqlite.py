"""The embedded rooms store: ``SqliteRoomStore`` implements ``RoomStore`` (``store.py``) in one file
of the data folder (stdlib sqlite3, WAL mode), with the queries of ``store_sql.SqlRoomStore``.

The database says which form it is in (``PRAGMA user_version``, ``SCHEMA_VERSION``): one of an
older nctui is brought to this form when opened, in one transaction (schema 0, before the game
id: every room was Nightmare Cathedral's), and one of a newer nctui is refused in one line.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import msgspec

from .store import SCHEMA_VERSION, RoomStoreError, record_decoder
from .store_sql import TABLES, Executor, SqlRoomStore

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, record BLOB NOT NULL, cursor INTEGER NOT NULL);" + TABLES
)


class SqliteRoomStore(SqlRoomStore):
    def __init__(self, path: Path | str) -> None:
        super().__init__()
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # the file made 0600 before SQLite opens it: its -wal and -shm files take its mode
        os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600))
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            self._migrate()
        except BaseException:
            self._db.close()
            raise

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Executor]:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                yield Executor(db.execute, db.executemany, "?")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _migrate(self) -> None:
        """Bring an older database to ``SCHEMA_VERSION`` (one transaction); refuse a newer one."""
        (version,) = self._db.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise RoomStoreError(
                f"the rooms database {self.path} is of a newer nctui (schema {version}; this one knows "
                f"{SCHEMA_VERSION}): update nctui"
            )
        if version == SCHEMA_VERSION:
            return
        with self._transaction() as q:
            # schema 0 → 1: each record names its game (the decoder's default: Nightmare Cathedral);
            # 1 → 2: the results and ratings tables (made by SCHEMA, empty); 2 → 3: a record without
            # a clock is a live room's, the people table (made by SCHEMA, empty)
            for room_id, record in q("SELECT id, record FROM rooms").fetchall() if version < 1 else ():
                try:
                    upgraded = msgspec.json.encode(record_decoder.decode(record))
                except (msgspec.DecodeError, msgspec.ValidationError):
                    continue  # a damaged record stays as it is: loading it says what is wrong
                q("UPDATE rooms SET record = ? WHERE id = ?", (upgraded, room_id))
            q(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self) -> None:
        with self._lock:
            self._db.close()
