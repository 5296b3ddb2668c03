"""The rooms store written once in the SQL both databases speak: ``SqlRoomStore`` implements every
``RoomStore`` method over two hooks a database gives (``_transaction``: one transaction under the
store's lock, yielding its cursor; ``_write_room``: the room's row). SQLite (``store_sqlite.py``)
and PostgreSQL (``store_postgres.py``) are its subclasses, so a method added here serves both.

Queries use ``?`` parameters; PostgreSQL's driver gets them as ``%s`` (``Dialect.param``). The
tables other than ``rooms`` are the same in both (``TABLES``, in SQLite's types; PostgreSQL's
through ``Dialect.types``).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import msgspec

from .ratings import GameResult, Rating, ResultRow, apply
from .store import TICKET_LIFE, Renewal, RoomRecord, StoredRoom, record_decoder
from .turns import Prefs

log = logging.getLogger("nctui.platform.net")

TABLES = """
CREATE TABLE IF NOT EXISTS decisions (room TEXT NOT NULL, idx INTEGER NOT NULL, action BLOB NOT NULL,
                                      PRIMARY KEY (room, idx));
CREATE TABLE IF NOT EXISTS results (room TEXT NOT NULL, identity TEXT NOT NULL, ended REAL NOT NULL,
                                    row BLOB NOT NULL, PRIMARY KEY (room, identity));
CREATE INDEX IF NOT EXISTS results_by_identity ON results (identity, ended);
CREATE TABLE IF NOT EXISTS ratings (game TEXT NOT NULL, identity TEXT NOT NULL, rating REAL NOT NULL,
                                    record BLOB NOT NULL, PRIMARY KEY (game, identity));
CREATE TABLE IF NOT EXISTS people (identity TEXT PRIMARY KEY, prefs BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS tickets (token TEXT PRIMARY KEY, identity TEXT NOT NULL, name TEXT NOT NULL,
                                    issued REAL NOT NULL);
"""

_row_decoder = msgspec.json.Decoder(ResultRow)
_rating_decoder = msgspec.json.Decoder(Rating)
_prefs_decoder = msgspec.json.Decoder(Prefs)


def _hashed(token: str) -> str:
    """A ticket as stored: its SHA-256 (a database reader cannot use a ticket)."""
    return hashlib.sha256(token.encode()).hexdigest()


class Cursor(Protocol):
    """What both drivers' cursors give (sqlite3.Cursor, psycopg.Cursor)."""

    @property
    def rowcount(self) -> int: ...

    def fetchall(self) -> list[Any]: ...

    def fetchone(self) -> Any: ...


class Executor:
    """One transaction's queries, ``?`` parameters turned into the driver's."""

    def __init__(self, run: Any, many: Any, param: str) -> None:
        self._run, self._many, self._param = run, many, param

    def __call__(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        return self._run(self._sql(sql), tuple(params))

    def many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        if rows:
            self._many(self._sql(sql), rows)

    def _sql(self, sql: str) -> str:
        return sql if self._param == "?" else sql.replace("?", self._param)


class SqlRoomStore:
    """``RoomStore`` in portable SQL; a subclass opens the database and gives ``_transaction``
    (and may write a room's row its own way: ``_write_room``)."""

    ORDER = "rowid"  # the rooms' column of the order they were first saved in

    def __init__(self) -> None:
        self._lock = threading.Lock()

    # -- what a database gives ----------------------------------------------------------------

    def _transaction(self) -> contextlib.AbstractContextManager[Executor]:
        raise NotImplementedError

    def _write_room(self, q: Executor, record: RoomRecord, cursor: int) -> None:
        q(
            "INSERT INTO rooms (id, record, cursor) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE "
            "SET record = excluded.record, cursor = excluded.cursor",
            (record.id, msgspec.json.encode(record), cursor),
        )

    # -- RoomStore ------------------------------------------------------------------------------

    def load_all(self) -> list[StoredRoom]:
        with self._transaction() as q:
            return self._load(q, q(f"SELECT id, record, cursor FROM rooms ORDER BY {self.ORDER}").fetchall())

    def load_room(self, room_id: str) -> StoredRoom | None:
        with self._transaction() as q:
            found = self._load(q, q("SELECT id, record, cursor FROM rooms WHERE id = ?", (room_id,)).fetchall())
        return found[0] if found else None

    def _load(self, q: Executor, rows: list[Any]) -> list[StoredRoom]:
        """The rooms of ``rows`` (id, record, cursor) with their decisions; a record that cannot be
        read is logged and left out."""
        out = []
        for room_id, record, cursor in rows:
            try:
                decoded = record_decoder.decode(record)
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                log.error("room %s could not be read: %s", room_id, str(exc).splitlines()[0])
                continue
            found = q("SELECT action FROM decisions WHERE room = ? ORDER BY idx", (room_id,)).fetchall()
            out.append(StoredRoom(decoded, [bytes(a) for (a,) in found], int(cursor)))
        return out

    def save(self, record: RoomRecord, *, keep: int, new: list[bytes], cursor: int) -> None:
        with self._transaction() as q:
            self._write_room(q, record, cursor)
            q("DELETE FROM decisions WHERE room = ? AND idx >= ?", (record.id, keep))
            q.many(
                "INSERT INTO decisions (room, idx, action) VALUES (?, ?, ?)",
                [(record.id, keep + i, a) for i, a in enumerate(new)],
            )

    def delete(self, room_id: str) -> None:
        with self._transaction() as q:
            q("DELETE FROM decisions WHERE room = ?", (room_id,))
            q("DELETE FROM rooms WHERE id = ?", (room_id,))

    def renew(self, held: Mapping[str, bytes], *, address: str = "") -> Renewal:
        """One host per database (the data folder's lock): nothing to renew or take over."""
        return Renewal()

    def issue_ticket(self, identity: str, name: str) -> str:
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self._transaction() as q:
            q("DELETE FROM tickets WHERE issued < ?", (now - TICKET_LIFE,))
            q(
                "INSERT INTO tickets (token, identity, name, issued) VALUES (?, ?, ?, ?)",
                (_hashed(token), identity, name, now),
            )
        return token

    def redeem_ticket(self, token: str) -> tuple[str, str] | None:
        with self._transaction() as q:
            found = q("SELECT identity, name, issued FROM tickets WHERE token = ?", (_hashed(token),)).fetchone()
            q("DELETE FROM tickets WHERE token = ?", (_hashed(token),))
        if found is None or time.time() - found[2] > TICKET_LIFE:
            return None
        return str(found[0]), str(found[1])

    def record_result(self, result: GameResult) -> list[ResultRow]:
        with self._transaction() as q:
            done = q("SELECT row FROM results WHERE room = ?", (result.room,)).fetchall()
            if done:
                return [_row_decoder.decode(r) for (r,) in done]
            current = {}
            for p in result.places:
                found = q(
                    "SELECT record FROM ratings WHERE game = ? AND identity = ?", (result.game, p.identity)
                ).fetchone()
                if found is not None:
                    current[p.identity] = _rating_decoder.decode(found[0])
            ratings, rows = apply(result, current)
            q.many(
                "INSERT INTO ratings (game, identity, rating, record) VALUES (?, ?, ?, ?) ON CONFLICT(game, "
                "identity) DO UPDATE SET rating = excluded.rating, record = excluded.record",
                [(r.game, r.identity, r.rating, msgspec.json.encode(r)) for r in ratings],
            )
            q.many(
                "INSERT INTO results (room, identity, ended, row) VALUES (?, ?, ?, ?)",
                [(row.room, identity, row.ended, msgspec.json.encode(row)) for identity, row in rows],
            )
        return [row for _, row in rows]

    def ratings(self, game: str) -> list[Rating]:
        with self._transaction() as q:
            found = q("SELECT record FROM ratings WHERE game = ? ORDER BY rating DESC, identity", (game,)).fetchall()
        return [_rating_decoder.decode(r) for (r,) in found]

    def results(self, identity: str) -> list[ResultRow]:
        with self._transaction() as q:
            found = q("SELECT row FROM results WHERE identity = ? ORDER BY ended DESC, room", (identity,)).fetchall()
        return [_row_decoder.decode(r) for (r,) in found]

    def prefs(self, identity: str) -> Prefs:
        with self._transaction() as q:
            row = q("SELECT prefs FROM people WHERE identity = ?", (identity,)).fetchone()
        if row is None:
            return Prefs()
        try:
            return _prefs_decoder.decode(row[0])
        except (msgspec.DecodeError, msgspec.ValidationError):
            return Prefs()  # damaged settings: the defaults (the next change writes them afresh)

    def set_prefs(self, identity: str, prefs: Prefs) -> None:
        with self._transaction() as q:
            q(
                "INSERT INTO people (identity, prefs) VALUES (?, ?) ON CONFLICT(identity) DO UPDATE "
                "SET prefs = excluded.prefs",
                (identity, msgspec.json.encode(prefs)),
            )
