"""Rooms over sessions with the SQLite store (and PostgreSQL's where a test takes ``open_store``):
seats claimed by identity, strict undo, computer seats played host-side, rooms of every game, each
room's seed the host's, every room back after a restart with play going on, and a database of the
schema before the game id brought forward."""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.platform import registry
from nctui.platform.net import protocol as P
from nctui.platform.net.rooms import RoomError, Rooms
from nctui.platform.net.store import SCHEMA_VERSION, Holder, RoomStore, RoomStoreError
from nctui.platform.net.store_sqlite import SqliteRoomStore
from nctui.platform.store import StaleState, UndoRefused
from tests.test_net_host import seeds

CFG = GameConfig(players=2, seats=("human", "human"), seed=21)


def _rooms(tmp_path: Path) -> Rooms:
    return Rooms(SqliteRoomStore(tmp_path / "rooms.db"), bot_delay=0.0, seeds=seeds(21))


def _rooms_of(open_store: Callable[[], RoomStore]) -> Rooms:
    return Rooms(open_store(), bot_delay=0.0, seeds=seeds(21))


def _decide(rooms: Rooms, room_id: str, n: int) -> None:
    s = rooms.get(room_id).session
    for _ in range(n):
        seat = s.deciding_seat()
        assert seat is not None
        s.send(s.view(seat).state.decision.options[0], seen_state_id=s.state_id, seat=seat)


def kind_of(room: Any, seat: int) -> str:
    """The seat's kind now (read afresh: mypy keeps an earlier ``==`` narrowing of the read across calls)."""
    return room.session.seat_kinds[seat]


def test_seats_claimed_by_identity(tmp_path: Path) -> None:
    rooms = _rooms(tmp_path)
    try:
        room = rooms.create(CFG, identity="SHA256:a", name="ours")
        room.claim(0, "SHA256:a", "ann")
        room.claim(0, "SHA256:a", "ann")  # coming back to one's seat
        with pytest.raises(RoomError, match="Red is taken by ann"):
            room.claim(0, "SHA256:b", "bob")
        with pytest.raises(RoomError, match="already sit at Red in this room"):
            room.claim(1, "SHA256:a", "ann")
        with pytest.raises(RoomError, match="no seat 5"):
            room.claim(4, "SHA256:b", "bob")
        room.claim(1, "SHA256:b", "bob")
        assert [s.holder for s in room.info().seats] == ["ann", "bob"]
        assert room.session.undo_policy == "strict"
    finally:
        rooms.close()


def test_redo_gives_back_only_your_own_decision_and_refusals_name_seats(tmp_path: Path) -> None:
    """Online, redo is per seat: Bob cannot redo the decision Ann took back (the refusal names her
    seat by its colour and her name), Ann can; undo refusals name seats the same way."""
    rooms = _rooms(tmp_path)
    try:
        room = rooms.create(CFG, identity="SHA256:a", name="redo")
        room.claim(0, "SHA256:a", "Ann")
        room.claim(1, "SHA256:b", "Bob")
        s = room.session
        for _ in range(60):  # to a decision without a reveal: it may be taken back
            _decide(rooms, room.id, 1)
            last = s.store.entry(s.state_id)
            if not last.revealed and last.seat in (0, 1):
                break
        else:
            pytest.skip("no plain decision in the first 60 of this seed")
        mine, other = last.seat, 1 - last.seat
        names = {0: "Red (Ann)", 1: "Blue (Bob)"}
        with pytest.raises(UndoRefused, match=rf"{re.escape(names[mine])} has decided since"):
            s.undo(other)
        before = s.state_id
        s.undo(mine)
        assert s.state_id == before - 1
        assert s.can_redo(mine) and not s.can_redo(other)
        assert room.update(other, -1).can_redo is False and room.update(mine, -1).can_redo is True
        with pytest.raises(UndoRefused, match=rf"the next decision undone is {re.escape(names[mine])}'s"):
            s.redo(other)
        with pytest.raises(UndoRefused, match="only they can redo it"):
            s.undo_to(before, seat=other)
        assert s.state_id == before - 1
        s.redo(mine)
        assert s.state_id == before
    finally:
        rooms.close()


def test_bad_configuration_is_one_line(tmp_path: Path) -> None:
    rooms = _rooms(tmp_path)
    try:
        with pytest.raises(RoomError) as info:
            rooms.create(GameConfig(players=7, seats=("human",) * 7), identity="x")
        assert "\n" not in str(info.value)
        with pytest.raises(RoomError, match="one seat for a person"):
            rooms.create(GameConfig(players=2, seats=("bot", "bot")), identity="x")
        with pytest.raises(RoomError, match="of no registered game"):
            rooms.create(msgspec.Struct(), identity="x")
    finally:
        rooms.close()


def test_restart_restores_rooms_and_play_goes_on(open_store: Callable[[], RoomStore]) -> None:
    """Both stores (SQLite, PostgreSQL): the contract."""
    rooms = _rooms_of(open_store)
    room = rooms.create(CFG, identity="SHA256:a", name="ours")
    room.claim(0, "SHA256:a", "ann")
    _decide(rooms, room.id, 6)
    s = room.session
    state_id, view = s.state_id, s.view(0)
    rooms.close()

    again = _rooms_of(open_store)
    try:
        back = again.get(room.id)
        assert back.session.state_id == state_id and back.session.view(0) == view
        assert back.record.holders[0] is not None and back.record.holders[0].name == "ann"
        _decide(again, room.id, 3)
        assert back.session.state_id == state_id + 3
        with pytest.raises(StaleState):
            seat = back.session.deciding_seat()
            assert seat is not None
            back.session.send(back.session.view(seat).state.decision.options[0], seen_state_id=0, seat=seat)
    finally:
        again.close()


def test_computer_seat_plays_host_side_and_hand_over(tmp_path: Path) -> None:
    rooms = _rooms(tmp_path)
    try:
        room = rooms.create(GameConfig(players=2, seats=("human", "bot"), seed=5), identity="a", handover_after=0.01)
        room.claim(0, "a", "ann")
        room.connect(0)
        room.disconnect(0)
        time.sleep(0.05)
        rooms.hand_over_due()
        assert kind_of(room, 0) == "bot"
        deadline = time.monotonic() + 20
        while room.session.state_id < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert room.session.state_id >= 10  # both seats played by the host's worker
        room.connect(0)
        assert kind_of(room, 0) == "human"
    finally:
        rooms.close()


def test_updates_carry_only_the_new_timeline_and_the_whole_story_after_a_rewind(tmp_path: Path) -> None:
    """An update after state N sends the timeline's entries after N (the client keeps the rest);
    the first update, and any after the game went back (even if it went forward again past N
    before the client heard), send everything."""
    rooms = _rooms(tmp_path)
    try:
        room = rooms.create(CFG, identity="SHA256:a", name="deltas")
        first = room.update(0, -1)
        assert first.timeline_from == 0 and [t.state_id for t in first.timeline] == [0]
        _decide(rooms, room.id, 3)
        later = room.update(0, first.state_id, first.rewinds)
        assert later.timeline_from == 1 and [t.state_id for t in later.timeline] == [1, 2, 3]
        assert later.since == first.state_id and len(later.events) > 0
        s = room.session
        s.undo(s.seat_of(s.state_id))  # back to 2, then forward again to 3 and 4 by other decisions
        _decide(rooms, room.id, 2)
        after = room.update(0, later.state_id, later.rewinds)
        assert after.since == -1 and after.timeline_from == 0  # the whole story again
        assert [t.state_id for t in after.timeline] == list(range(s.state_id + 1))
        assert [t.summary for t in after.timeline] == [t.summary for t in s.timeline(0)]
    finally:
        rooms.close()


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_a_room_of_each_game_keeps_its_seed_and_comes_back(open_store: Callable[[], RoomStore], game_id: str) -> None:
    """Any game of the registry has rooms; the seed is the host's (drawn, whatever the request
    said), shown to nobody (the room's public configuration has seed 0), and the room comes back
    after a restart, its game and seed kept (both stores)."""
    game, entry = registry.game(game_id), registry.entry(game_id)
    bots = registry.simulated(game_id).computer_game(5, entry.levels[-1:] * max(2, entry.players[0]))
    people = tuple("human" if k == "bot" else k for k in game.seats(bots))
    config = msgspec.structs.replace(bots, seats=people)
    rooms = _rooms_of(open_store)
    room = rooms.create(config, identity="SHA256:a", name="any")
    assert room.record.game == game_id and room.info().game == game_id
    assert room.config == game.with_seed(config, 21)  # the host's seed, not the request's 5
    assert P.payloads(game_id).config(room.public_config) == game.with_seed(config, 0)
    assert all(s.label is not None for s in room.info().seats if s.kind != "automa")
    s = room.session
    for _ in range(3):
        seat = s.deciding_seat()
        assert seat is not None
        s.send(game.options(s.store.state)[0], seen_state_id=s.state_id, seat=seat)
    state_id, digest = s.state_id, game.digest(s.store.state)
    rooms.close()
    again = _rooms_of(open_store)
    try:
        back = again.get(room.id)
        assert back.game is game and back.config == room.config
        assert back.session.state_id == state_id and game.digest(back.session.store.state) == digest
    finally:
        again.close()


# A rooms database as nctui wrote it before rooms named their game (schema 0): one room of
# Nightmare Cathedral, Ann at seat 1, three decisions (written by that version: these bytes).
OLD_SCHEMA = """
CREATE TABLE rooms (id TEXT PRIMARY KEY, record BLOB NOT NULL, cursor INTEGER NOT NULL);
CREATE TABLE decisions (room TEXT NOT NULL, idx INTEGER NOT NULL, action BLOB NOT NULL, PRIMARY KEY (room, idx));
"""
OLD_RECORD = (
    b'{"id":"56eb31de","name":"old","creator":"SHA256:a","config":{"players":2,"seats":["human","human"],'
    b'"colours":[],"length":"standard","divergent_paths":false,"nightmares":[],"difficulty":[],"pack":"base",'
    b'"seed":21},"kinds":["human","human"],"holders":[{"identity":"SHA256:a","name":"ann"},null],'
    b'"handover_after":0.0,"created":1796167300.9100235}'
)
OLD_DECISIONS = (
    b'{"a":"turn_start","position":0}',
    b'{"a":"conquer","area":"weeping-orchard"}',
    b'{"a":"conquer","area":"bell-hollow"}',
)


def _old_database(path: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.execute("INSERT INTO rooms VALUES (?, ?, ?)", ("56eb31de", OLD_RECORD, 3))
    db.executemany("INSERT INTO decisions VALUES (?, ?, ?)", [("56eb31de", i, a) for i, a in enumerate(OLD_DECISIONS)])
    db.commit()
    db.close()


def test_a_database_of_the_schema_before_the_game_id_is_brought_forward(tmp_path: Path) -> None:
    """Its rooms are Nightmare Cathedral's: each record is written again naming its game (one
    transaction, the schema version set), the room comes back as it was and play goes on; the
    next start finds nothing to do."""
    _old_database(tmp_path / "rooms.db")
    rooms = _rooms(tmp_path)
    try:
        room = rooms.get("56eb31de")
        assert room.record.game == "nightmare-cathedral" and room.config == CFG
        assert room.session.state_id == 3 and room.record.holders[0] == Holder("SHA256:a", "ann")
        _decide(rooms, room.id, 2)
    finally:
        rooms.close()
    db = sqlite3.connect(tmp_path / "rooms.db")
    try:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        (record,) = db.execute("SELECT record FROM rooms").fetchone()
        assert msgspec.json.decode(record)["game"] == "nightmare-cathedral"
        assert db.execute("SELECT COUNT(*) FROM decisions").fetchone() == (5,)
    finally:
        db.close()
    again = _rooms(tmp_path)
    try:
        assert again.get("56eb31de").session.state_id == 5
    finally:
        again.close()


def test_a_database_of_a_newer_nctui_is_refused_in_one_line(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "rooms.db")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(RoomStoreError) as info:
        SqliteRoomStore(tmp_path / "rooms.db")
    assert "newer nctui" in str(info.value) and "\n" not in str(info.value)


def test_a_room_of_a_game_this_nctui_does_not_have_is_left_out_and_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    rooms = _rooms(tmp_path)
    room = rooms.create(CFG, identity="SHA256:a")
    rooms.close()
    db = sqlite3.connect(tmp_path / "rooms.db")
    record = msgspec.json.decode(db.execute("SELECT record FROM rooms").fetchone()[0])
    db.execute("UPDATE rooms SET record = ?", (msgspec.json.encode({**record, "game": "chess"}),))
    db.commit()
    db.close()
    again = _rooms(tmp_path)
    try:
        assert again.rooms == {}
        assert f"room {room.id} could not be restored: it is of the game 'chess'" in caplog.text
    finally:
        again.close()
