"""A finished game of a server's rooms as a save file (``nctui saves export-room ROOM FILE``), for
its host's admin, or for a person over SSH (``ssh HOST export ROOM > FILE``, ``finished_save``):
``nctui replay FILE`` then watches it on any machine, everything shown.

The rooms database (``rooms.db`` of the data folder) is read only (SQLite's read-only mode, so a
running server is not disturbed), or a PostgreSQL database of several hosts (``--store``): the
room is read as it is, claimed by nobody. Only a game that is over is exported: until then its seed and
its hidden cards stay the host's. Every problem is one line (``ExportError``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import msgspec

from .. import saves
from ..store import Store
from .rooms import RoomError, replayed
from .store import SQLITE_FILE, RoomStoreError, StoredRoom, describe_store, record_decoder


class ExportError(Exception):
    """A room that cannot be exported; ``str()`` is one line."""


def export_room(data: Path, room_id: str, out: Path, *, database: str | None = None) -> Path:
    """Write the finished game of room ``room_id`` (of the data folder ``data``, or of the
    PostgreSQL ``database`` several hosts share) to ``out``."""
    stored = _from_file(data, room_id) if database is None else _from_database(database, room_id)
    try:
        return saves.save(_finished(stored, room_id), out, room_id)
    except saves.SaveError as exc:
        raise ExportError(str(exc)) from None


def finished_save(stored: StoredRoom | None, room_id: str) -> bytes:
    """The save file's bytes of room ``room_id``'s finished game, as a person takes it home with
    ``ssh HOST export ROOM > FILE`` (``None``: no such room)."""
    if stored is None:
        raise ExportError(f"there is no room {room_id!r} on this server")
    try:
        return saves.encode(_finished(stored, room_id), room_id)
    except saves.SaveError as exc:
        raise ExportError(str(exc)) from None


def _finished(stored: StoredRoom, room_id: str) -> Store:
    """The room's whole history, refused in one line until its game is over (its seed and hidden
    cards stay the host's until then)."""
    record = stored.record
    try:
        store, _ = replayed(stored)
    except RoomError as exc:
        raise ExportError(f"room {room_id} cannot be replayed: {exc}") from None
    if not record.finished or store.game.decider(store.entry(store.last_id).state) is not None:
        raise ExportError(f"the game of room {room_id} ({record.name}) is not over: its hidden cards stay hidden")
    return store


def _from_file(data: Path, room_id: str) -> StoredRoom:
    """The room as the data folder's ``rooms.db`` has it, read in SQLite's read-only mode."""
    db = data / SQLITE_FILE
    if not db.is_file():
        raise ExportError(f"there is no rooms database in {data} (no {SQLITE_FILE})")
    try:
        con = sqlite3.connect(db.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            row = con.execute("SELECT record, cursor FROM rooms WHERE id = ?", (room_id,)).fetchone()
            found = con.execute("SELECT action FROM decisions WHERE room = ? ORDER BY idx", (room_id,)).fetchall()
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise ExportError(f"the rooms database {db} cannot be read: {exc}") from None
    if row is None:
        raise ExportError(f"there is no room {room_id!r} in {db}")
    try:
        record = record_decoder.decode(row[0])
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ExportError(f"room {room_id} is damaged: {str(exc).splitlines()[0]}") from None
    return StoredRoom(record, [bytes(a) for (a,) in found], int(row[1]))


def _from_database(url: str, room_id: str) -> StoredRoom:
    """The room as a shared PostgreSQL database has it, whichever host runs it (none is disturbed:
    the export claims nothing)."""
    from .store_postgres import PostgresRoomStore

    where = describe_store(url, Path())
    try:
        db = PostgresRoomStore(url, host_id="nctui saves export-room")
    except RoomStoreError as exc:
        raise ExportError(f"the rooms database {where} cannot be read: {exc}") from None
    try:
        stored = db.load_room(room_id)
    finally:
        db.close()
    if stored is None:
        raise ExportError(f"there is no room {room_id!r} in {where}")
    return stored
