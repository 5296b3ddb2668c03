"""Rooms over sessions with the SQLite store: seats claimed by identity, strict undo, computer seats
played host-side, and every room back after a restart with play going on."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.platform.net.rooms import RoomError, Rooms
from nctui.platform.net.store_sqlite import SqliteRoomStore
from nctui.platform.store import StaleState

CFG = GameConfig(players=2, seats=("human", "human"), seed=21)


def _rooms(tmp_path: Path, **kw: object) -> Rooms:
    return Rooms(SqliteRoomStore(tmp_path / "rooms.db"), bot_delay=0.0, **kw)  # type: ignore[arg-type]


def _decide(rooms: Rooms, room_id: str, n: int) -> None:
    s = rooms.get(room_id).session
    for _ in range(n):
        seat = s.deciding_seat()
        assert seat is not None
        s.send(s.view(seat).state.decision.options[0], seen_state_id=s.state_id, seat=seat)


def test_seats_claimed_by_identity(tmp_path: Path) -> None:
    rooms = _rooms(tmp_path)
    try:
        room = rooms.create(CFG, identity="SHA256:a", name="ours")
        room.claim(0, "SHA256:a", "ann")
        room.claim(0, "SHA256:a", "ann")  # coming back to one's seat
        with pytest.raises(RoomError, match="taken by ann"):
            room.claim(0, "SHA256:b", "bob")
        with pytest.raises(RoomError, match="already sit at seat 1"):
            room.claim(1, "SHA256:a", "ann")
        with pytest.raises(RoomError, match="no seat 5"):
            room.claim(4, "SHA256:b", "bob")
        room.claim(1, "SHA256:b", "bob")
        assert [s.holder for s in room.info().seats] == ["ann", "bob"]
        assert room.session.undo_policy == "strict"
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
    finally:
        rooms.close()


def test_restart_restores_rooms_and_play_goes_on(tmp_path: Path) -> None:
    rooms = _rooms(tmp_path)
    room = rooms.create(CFG, identity="SHA256:a", name="ours")
    room.claim(0, "SHA256:a", "ann")
    _decide(rooms, room.id, 6)
    s = room.session
    state_id, view = s.state_id, s.view(0)
    rooms.close()

    again = _rooms(tmp_path)
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
        assert room.session.seat_kinds[0] == "bot"
        deadline = time.monotonic() + 20
        while room.session.state_id < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert room.session.state_id >= 10  # both seats played by the host's worker
        room.connect(0)
        assert room.session.seat_kinds[0] == "human"
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
