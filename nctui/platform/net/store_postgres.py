"""The rooms store on a PostgreSQL server (``--store postgresql://…``), which several hosts may
share: ``PostgresRoomStore`` (psycopg 3), with the queries of ``store_sql.SqlRoomStore``.

Each room is owned by one host at a time: its row names the owner (the host's ``host_id``) and
until when the lease holds (``lease_until``, in the database's clock, so the hosts' clocks do not
matter). A host

- claims, when it starts (``load_all``), its own rooms and every room nobody holds (never owned,
  released by a host that stopped, or whose lease ran out);
- renews its lease on its rooms every third of the lease (``renew``), and in the same transaction
  takes over the rooms of hosts whose lease ran out (replayed from their decisions, as after a
  restart); a room of its own that another host owns now is reported lost;
- writes a decision only while it owns the room (``save``: the row is updated where ``owner`` is
  this host, in the decision's transaction, which also renews that room's lease), so a host whose
  lease ran out can never overwrite the decisions of the host that took its room over
  (``LeaseLost``);
- notes where it takes people relayed from other hosts (``hosts``: its address, with the same
  lease) and each of its rooms' lobby line (``rooms.info``), so that every host's lobby lists every
  live host's rooms (``Renewal.elsewhere``);
- releases its rooms when it stops (``close``), for another host to take over at once.

The schema's version is in ``nctui_meta`` (``SCHEMA_VERSION``): a database of a newer nctui is
refused in one line. Two hosts creating the tables at once are serialised by an advisory lock.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Mapping
from typing import Any

import msgspec

from .store import SCHEMA_VERSION, Elsewhere, Renewal, RoomRecord, RoomStoreError, StoredRoom
from .store_sql import TABLES, Executor, SqlRoomStore

log = logging.getLogger("nctui.platform.net")

NOW = "extract(epoch FROM clock_timestamp())::float8"  # the database's clock, in seconds
SCHEMA_LOCK = 0x6E637475  # the advisory lock taken while the tables are made ("nctu")
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS nctui_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, seq BIGSERIAL, record BYTEA NOT NULL, "
    "cursor INTEGER NOT NULL, owner TEXT, lease_until DOUBLE PRECISION NOT NULL DEFAULT 0);"
    "ALTER TABLE rooms ADD COLUMN IF NOT EXISTS info BYTEA;"  # the room's lobby line, for other hosts
    "CREATE INDEX IF NOT EXISTS rooms_by_owner ON rooms (owner);"
    "CREATE TABLE IF NOT EXISTS hosts (id TEXT PRIMARY KEY, address TEXT NOT NULL, "
    "lease_until DOUBLE PRECISION NOT NULL);" + TABLES.replace("BLOB", "BYTEA").replace("REAL", "DOUBLE PRECISION")
)


class LeaseLost(RoomStoreError):
    """This host no longer owns the room it tried to write: another host took it over."""


def first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


class PostgresRoomStore(SqlRoomStore):
    ORDER = "seq"

    def __init__(self, url: str, *, host_id: str, lease: float = 30.0) -> None:
        super().__init__()
        try:
            import psycopg
        except ImportError:
            raise RoomStoreError("PostgreSQL needs psycopg: pip install 'nctui[postgresql]'") from None
        self._psycopg = psycopg
        self.url = url
        self.host_id = host_id
        self.lease = lease
        self._conn: Any = None
        try:
            self._connect()
            with self._transaction() as q:
                q("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))
                for statement in filter(str.strip, SCHEMA.split(";")):
                    q(statement)
                found = q("SELECT value FROM nctui_meta WHERE key = 'schema'").fetchone()
                if found is not None and found[0] > SCHEMA_VERSION:
                    raise RoomStoreError(
                        f"the rooms database is of a newer nctui (schema {found[0]}; this one knows "
                        f"{SCHEMA_VERSION}): update nctui"
                    )
                q(
                    "INSERT INTO nctui_meta (key, value) VALUES ('schema', ?) ON CONFLICT (key) DO UPDATE "
                    "SET value = excluded.value",
                    (SCHEMA_VERSION,),
                )
        except psycopg.Error as exc:
            self.close()
            raise RoomStoreError(first_line(exc)) from None
        except BaseException:
            self.close()
            raise

    def _connect(self) -> None:
        self._conn = self._psycopg.connect(self.url, autocommit=True, connect_timeout=10)

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Executor]:
        with self._lock:
            if self._conn is None or self._conn.closed or self._conn.broken:
                self._connect()  # the server restarted or the network dropped: a new connection
            conn = self._conn
            with conn.transaction():
                cur = conn.cursor()
                yield Executor(cur.execute, cur.executemany, "%s")

    # -- ownership ------------------------------------------------------------------------------

    def _claim(self, q: Executor, where: str) -> list[StoredRoom]:
        """The rooms of ``where`` (its one parameter: this host's id) made this host's with a fresh
        lease, loaded in the order they were made."""
        rows = q(
            f"UPDATE rooms SET owner = ?, lease_until = {NOW} + ? WHERE {where} RETURNING id, record, cursor, seq",
            (self.host_id, self.lease, self.host_id),
        ).fetchall()
        return self._load(q, [row[:3] for row in sorted(rows, key=lambda row: row[3])])

    def load_all(self) -> list[StoredRoom]:
        """This host's rooms and every room nobody holds, claimed."""
        with self._transaction() as q:
            return self._claim(q, f"owner = ? OR owner IS NULL OR lease_until < {NOW}")

    def renew(self, held: Mapping[str, bytes], *, address: str = "") -> Renewal:
        with self._transaction() as q:
            kept = {
                room_id
                for (room_id,) in q(
                    f"UPDATE rooms SET lease_until = {NOW} + ? WHERE owner = ? RETURNING id", (self.lease, self.host_id)
                ).fetchall()
            }
            q.many(
                "UPDATE rooms SET info = ? WHERE id = ? AND owner = ?",
                [(info, room_id, self.host_id) for room_id, info in held.items() if room_id in kept],
            )
            if address:
                q(
                    f"INSERT INTO hosts (id, address, lease_until) VALUES (?, ?, {NOW} + ?) ON CONFLICT (id) DO UPDATE "
                    "SET address = excluded.address, lease_until = excluded.lease_until",
                    (self.host_id, address, self.lease),
                )
            taken = self._claim(q, f"owner IS NULL OR (owner <> ? AND lease_until < {NOW})")
            elsewhere = q(
                "SELECT r.id, h.address, r.info FROM rooms r JOIN hosts h ON h.id = r.owner WHERE r.owner <> ? "
                f"AND r.lease_until >= {NOW} AND h.lease_until >= {NOW} AND r.info IS NOT NULL ORDER BY r.seq",
                (self.host_id,),
            ).fetchall()
        return Renewal(
            taken=tuple(taken),
            lost=tuple(sorted(set(held) - kept)),
            elsewhere=tuple(Elsewhere(str(r), str(a), bytes(i)) for r, a, i in elsewhere),
        )

    def _write_room(self, q: Executor, record: RoomRecord, cursor: int) -> None:
        encoded = msgspec.json.encode(record)
        updated = q(
            f"UPDATE rooms SET record = ?, cursor = ?, lease_until = {NOW} + ? WHERE id = ? AND owner = ?",
            (encoded, cursor, self.lease, record.id, self.host_id),
        ).rowcount
        if updated:
            return
        inserted = q(
            f"INSERT INTO rooms (id, record, cursor, owner, lease_until) VALUES (?, ?, ?, ?, {NOW} + ?) "
            "ON CONFLICT (id) DO NOTHING",
            (record.id, encoded, cursor, self.host_id, self.lease),
        ).rowcount
        if not inserted:
            raise LeaseLost(f"room {record.id} is another host's now")

    def close(self) -> None:
        """This host's rooms released (another host takes them over at once), the connection closed."""
        with self._lock:
            conn, self._conn = self._conn, None
        if conn is None or conn.closed:
            return
        with contextlib.suppress(self._psycopg.Error):
            if not conn.broken:
                with conn.transaction():
                    conn.execute("UPDATE rooms SET owner = NULL, lease_until = 0 WHERE owner = %s", (self.host_id,))
                    conn.execute("DELETE FROM hosts WHERE id = %s", (self.host_id,))
        conn.close()
