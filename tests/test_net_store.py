"""The rooms store's contract on both implementations (``open_store``: SQLite and PostgreSQL), and
the PostgreSQL store's leases: a room is one host's at a time, another host takes it over once the
lease ran out (or at once when its host stopped), and a host whose lease ran out cannot write."""

from __future__ import annotations

import time
from collections.abc import Callable

import msgspec
import pytest

from nctui.platform.net.store import Elsewhere, Holder, Renewal, RoomRecord, RoomStore
from nctui.platform.net.store_postgres import LeaseLost, PostgresRoomStore


def _record(room_id: str, name: str = "r") -> RoomRecord:
    return RoomRecord(
        id=room_id,
        game="dreamers",
        name=name,
        creator="SHA256:a",
        config=msgspec.Raw(b'{"seed":1}'),
        kinds=("human", "human"),
        holders=(Holder("SHA256:a", "ann"), None),
    )


def test_rooms_decisions_and_the_redo_branch_come_back_in_order(open_store: Callable[[], RoomStore]) -> None:
    store = open_store()
    try:
        store.save(_record("r2"), keep=0, new=[b'"a"', b'"b"', b'"c"'], cursor=3)
        store.save(_record("r1"), keep=0, new=[b'"x"'], cursor=1)
        store.save(_record("r2", "renamed"), keep=1, new=[b'"d"'], cursor=2)  # a new branch after "a"
        store.save(_record("gone"), keep=0, new=[b'"y"'], cursor=1)
        store.delete("gone")
    finally:
        store.close()
    again = open_store()
    try:
        rooms = again.load_all()
        assert [(r.record.id, r.record.name, r.actions, r.cursor) for r in rooms] == [
            ("r2", "renamed", [b'"a"', b'"d"'], 2),
            ("r1", "r", [b'"x"'], 1),
        ]
        assert rooms[0].record == _record("r2", "renamed")
        assert again.renew({"r1": b"{}", "r2": b"{}"}).lost == ()  # one host: its rooms stay its own
    finally:
        again.close()


def _until_taken(store: RoomStore, held: dict[str, bytes], bound: float = 30.0) -> Renewal:
    """``store.renew`` until it takes a room over (the other host's lease ran out), within ``bound``."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        got = store.renew(held)
        if got.taken:
            return got
        time.sleep(0.05)
    raise AssertionError("no room was taken over")


def test_a_room_is_one_hosts_until_its_lease_runs_out(pg_url: str) -> None:
    a = PostgresRoomStore(pg_url, host_id="a", lease=1.0)
    b = PostgresRoomStore(pg_url, host_id="b", lease=60.0)
    try:
        a.save(_record("r"), keep=0, new=[b'"a"'], cursor=1)
        assert b.load_all() == [] and b.renew({}) == Renewal()  # a's while its lease holds
        with pytest.raises(LeaseLost):
            b.save(_record("r"), keep=0, new=[b'"b"'], cursor=1)  # b cannot write a's room
        # a stops renewing (as if killed): b takes the room over, with every decision a stored
        (taken,) = _until_taken(b, {}).taken
        assert (taken.record.id, taken.actions, taken.cursor) == ("r", [b'"a"'], 1)
        with pytest.raises(LeaseLost):
            a.save(_record("r"), keep=1, new=[b'"late"'], cursor=2)  # a's lease ran out: fenced off
        assert a.renew({"r": b"{}"}).lost == ("r",)
        b.save(_record("r"), keep=1, new=[b'"b"'], cursor=2)
        assert [r.actions for r in b.load_all()] == [[b'"a"', b'"b"']]
    finally:
        a.close()
        b.close()


def test_a_host_that_stops_releases_its_rooms_at_once(pg_url: str) -> None:
    a = PostgresRoomStore(pg_url, host_id="a", lease=3600.0)
    b = PostgresRoomStore(pg_url, host_id="b", lease=3600.0)
    try:
        a.save(_record("r"), keep=0, new=[b'"a"'], cursor=1)
        assert b.renew({}) == Renewal()
        a.close()  # a clean stop: no lease to wait for
        assert [r.record.id for r in b.renew({}).taken] == ["r"]
        again = PostgresRoomStore(pg_url, host_id="a", lease=3600.0)  # a back: b keeps the room
        try:
            assert again.load_all() == []
        finally:
            again.close()
    finally:
        b.close()


def test_a_relay_ticket_lets_its_person_in_once(open_store: Callable[[], RoomStore]) -> None:
    store = open_store()
    try:
        token = store.issue_ticket("SHA256:a", "ann")
        assert store.redeem_ticket(token) == ("SHA256:a", "ann")
        assert store.redeem_ticket(token) is None  # once
        assert store.redeem_ticket("made-up") is None
    finally:
        store.close()


def test_every_live_hosts_rooms_are_listed_with_where_it_takes_people(pg_url: str) -> None:
    a = PostgresRoomStore(pg_url, host_id="a", lease=3600.0)
    b = PostgresRoomStore(pg_url, host_id="b", lease=3600.0)
    try:
        a.save(_record("r"), keep=0, new=[], cursor=0)
        a.renew({"r": b'{"line":1}'}, address="127.0.0.1:5000")
        assert b.renew({}).elsewhere == (Elsewhere("r", "127.0.0.1:5000", b'{"line":1}'),)
        assert a.renew({"r": b"{}"}, address="127.0.0.1:5000").elsewhere == ()  # not its own
        a.close()  # a stops: its room is b's, and listed as nobody else's
        got = b.renew({})
        assert [r.record.id for r in got.taken] == ["r"] and got.elsewhere == ()
    finally:
        b.close()


def test_a_host_whose_lease_ran_out_drops_the_room_the_other_host_plays_on(pg_url: str) -> None:
    """Rooms over two hosts' stores: a's lease runs out (it stopped renewing, as if cut off), b
    takes the room over with every decision and plays on; a's next renewal finds the room lost and
    drops it, writing nothing more of it."""
    from nctui.platform.net.rooms import Rooms
    from tests.test_net_host import seeds
    from tests.test_net_rooms import CFG, _decide

    a = Rooms(PostgresRoomStore(pg_url, host_id="a", lease=1.0), bot_delay=0.0, seeds=seeds(3))
    b = Rooms(PostgresRoomStore(pg_url, host_id="b", lease=60.0), bot_delay=0.0, seeds=seeds(3))
    try:
        room = a.create(CFG, identity="SHA256:a", name="ours")
        _decide(a, room.id, 4)
        reached = room.session.state_id
        deadline = time.monotonic() + 30
        while room.id not in b.rooms:  # b's renewals, until a's lease ran out
            assert time.monotonic() < deadline, "b never took the room over"
            b.renew()
            time.sleep(0.05)
        assert b.get(room.id).session.state_id == reached
        _decide(b, room.id, 1)
        assert a.renew() == (room,) and room.id not in a.rooms and room.deleted
        stored = b.store.load_room(room.id)  # b's decision kept: a wrote nothing over it
        assert stored is not None and stored.cursor == reached + 1
    finally:
        a.close()
        b.close()
