"""Turn-based rooms (issue 40): the clock (a time per move or a total per player) in the room's
record, the seat whose turn it is told wherever they are, a clock that runs out applying the
room's rule (a computer plays the turn, or the others may skip it) with a log line and a notice,
and a restart (the store reopened as after SIGKILL) losing no decision and no time. Time is the
rooms' injected time source (``ManualClock``): nothing here sleeps."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.platform.game import SeatLabel
from nctui.platform.net import protocol as P, turns
from nctui.platform.net.rooms import Notice, RoomError, Rooms
from nctui.platform.net.store import Elsewhere, Renewal
from nctui.platform.net.store_sqlite import SqliteRoomStore
from nctui.platform.net.turns import DAY, HOUR, ClockState, Prefs, TurnClock
from nctui.ui.widgets.common import presence_words
from tests.helpers import narrow, present
from tests.test_net_host import Client, run_host, seeds
from tests.test_net_lobby import HostThread, wait_for

CFG = GameConfig(players=2, seats=("human", "human"), seed=21)
ANN, BOB = "SHA256:ann", "SHA256:bob"


class ManualClock:
    """A time source a test moves on by hand (the host reads it; nobody sleeps)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def clocked_host(tmp: Path, clock: ManualClock) -> Iterator[HostThread]:
    """A host in this process whose rooms keep time by ``clock`` (a fixture's body)."""
    host = HostThread(tmp)
    host.rooms.now = clock  # every room made from now on keeps time by it
    try:
        yield host
    finally:
        host.stop()


def _rooms(path: Path, clock: ManualClock, told: list[Notice] | None = None) -> Rooms:
    rooms = Rooms(SqliteRoomStore(path / "rooms.db"), bot_delay=0.0, seeds=seeds(21), now=clock)
    if told is not None:
        rooms.listeners.append(told.append)
    return rooms


def _decide_once(room: Any) -> None:
    s = room.session
    seat = s.deciding_seat()
    s.send(s.view(seat).state.decision.options[0], seen_state_id=s.state_id, seat=seat)


def _to_turn_of(room: Any, seat: int, limit: int = 200) -> None:
    """The first option at every decision until it is ``seat``'s after the other's."""
    s = room.session
    for _ in range(limit):
        if s.deciding_seat() == seat and room.record.clock.seat == seat:
            return
        _decide_once(room)
    raise AssertionError(f"seat {seat} never came to decide")


def test_the_clock_by_itself() -> None:
    move = TurnClock(pace="move", seconds=DAY)
    start = ClockState()
    running = turns.switch(move, start, 0, 100.0, 2)
    assert (running.seat, running.since, running.used) == (0, 100.0, (0.0, 0.0))
    assert turns.switch(move, running, 0, 500.0, 2) is running  # the same seat: the same turn
    assert turns.left(move, running, 0, 100.0 + HOUR) == DAY - HOUR
    assert turns.left(move, running, 1, 100.0 + HOUR) == DAY  # a whole move ahead
    assert not turns.due(move, running, 100.0 + DAY - 1)
    assert turns.due(move, running, 100.0 + DAY)
    total = TurnClock(pace="total", seconds=3 * DAY)
    after = turns.switch(total, turns.switch(total, start, 0, 0.0, 2), 1, 2 * HOUR, 2)
    assert after.used == (2 * HOUR, 0.0)
    assert turns.left(total, after, 0, 10 * HOUR) == 3 * DAY - 2 * HOUR  # not running: unchanged
    assert turns.left(total, after, 1, 10 * HOUR) == 3 * DAY - 8 * HOUR
    for bad in (TurnClock(pace="move", seconds=60.0), TurnClock(pace="move", seconds=8 * DAY)):
        with pytest.raises(turns.ClockError, match="1 hour to 7 days"):
            turns.checked(bad)
    assert turns.describe(move) == "1 day a move" and turns.describe(total) == "3 days in all"
    assert [turns.left_words(s) for s in (0, 59, 600, 5 * HOUR + 1200, DAY + 3 * HOUR)] == [
        "out of time",
        "under a minute",
        "10 min",
        "5 h 20 min",
        "1 d 3 h",
    ]


def test_the_turn_passes_with_notices_and_the_clock_is_kept(tmp_path: Path) -> None:
    clock, told = ManualClock(), list[Notice]()
    rooms = _rooms(tmp_path, clock, told)
    try:
        room = rooms.create(CFG, identity=ANN, name="slow", handover_after=300, turn=TurnClock(seconds=DAY))
        assert room.record.handover_after == 0  # away is normal here: no seat is handed over for it
        assert room.info().turn == TurnClock(seconds=DAY)
        room.claim(0, ANN, "Ann")
        room.claim(1, BOB, "Bob")
        first = present(room.session.deciding_seat())
        assert room.record.clock.seat == first and room.record.clock.since == clock.t
        assert [(n.message.what, n.people, n.elsewhere) for n in told] == [("your_turn", ((ANN, BOB)[first],), True)]
        clock.advance(5 * HOUR)
        seats = room.info().seats
        assert seats[first].left == DAY - 5 * HOUR and seats[1 - first].left == DAY
        presence = room.presence()  # the players panel: the seat to play says its time, nobody is away
        assert [(p.turn_based, p.left) for p in presence] == [
            (True, DAY - 5 * HOUR if i == first else -1.0) for i in range(2)
        ]
        names = ("Ann", "Bob")
        assert presence_words(presence[first]) == f"{names[first]}, 19 h left"
        assert presence_words(presence[1 - first]) == names[1 - first]
        _to_turn_of(room, 1 - first)
        assert told[-1].message.what == "your_turn" and told[-1].people == ((ANN, BOB)[1 - first],)
        assert told[-1].message.left == DAY and told[-1].message.room_name == "slow"
        with pytest.raises(RoomError, match="only decisions of the turn you are playing"):
            room.may_go_back(first)  # the turn passed on: taking it back would restart the clock
        room.may_go_back(1 - first)
        # what is stored is the room's clock: reopened (as after SIGKILL: the first store never closed)
        clock.advance(HOUR)
        again = _rooms(tmp_path, clock)
        back = again.get(room.id)
        assert back.record.clock == room.record.clock and back.record.turn == room.record.turn
        assert back.session.state_id == room.session.state_id
        assert back.info().seats[1 - first].left == DAY - HOUR  # the hour kept running while it was down
        again.close()
    finally:
        rooms.close()


def test_a_clock_that_runs_out_has_the_computer_play_the_turn(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    clock, told = ManualClock(), list[Notice]()
    rooms = _rooms(tmp_path, clock, told)
    try:
        room = rooms.create(CFG, identity=ANN, name="late", turn=TurnClock(seconds=HOUR))
        room.claim(0, ANN, "Ann")
        room.claim(1, BOB, "Bob")
        late = present(room.session.deciding_seat())
        before = room.session.state_id
        clock.advance(HOUR - 1)
        rooms.clock_due()
        assert room.session.state_id == before and not room.record.clock.expired
        with caplog.at_level(logging.INFO, logger="nctui.platform.net"):
            clock.advance(1)
            rooms.clock_due()
            wait_for(lambda: room.record.clock.seat != late, "the computer to play the late turn")
        assert room.session.state_id > before
        assert all(room.session.store.entry(i).seat == late for i in range(before + 1, room.session.state_id + 1))
        ran_out = [n for n in told if n.message.what == "ran_out"]
        assert len(ran_out) == 1 and set(ran_out[0].people) == {ANN, BOB} and not ran_out[0].elsewhere
        assert ran_out[0].message.rule == "computer" and ran_out[0].message.seat == late
        assert any("ran out: a computer plays the turn" in r.getMessage() for r in caplog.records)
        assert not room.record.clock.expired  # the next seat's clock runs, fresh
    finally:
        rooms.close()


def test_a_restart_between_the_clock_running_out_and_the_computer_playing(tmp_path: Path) -> None:
    """The clock ran out and was written so; the host died before the computer played. Back up,
    the rule still applies: the computer plays the turn (no second notice)."""
    clock = ManualClock()
    rooms = _rooms(tmp_path, clock)
    room = rooms.create(CFG, identity=ANN, name="late", turn=TurnClock(seconds=HOUR))
    room.claim(0, ANN, "Ann")
    room.claim(1, BOB, "Bob")
    late = present(room.session.deciding_seat())
    room._play_late = lambda seat: None  # type: ignore[method-assign]  # the host dies before it plays
    clock.advance(HOUR)
    rooms.clock_due()
    assert room.record.clock.expired
    told: list[Notice] = []
    again = _rooms(tmp_path, clock, told)  # the first store never closed: as after SIGKILL
    try:
        back = again.get(room.id)
        assert back.record.clock.expired and back.record.clock.seat == late
        again.clock_due()
        wait_for(lambda: back.record.clock.seat != late, "the computer to play the late turn")
        assert not [n for n in told if n.message.what == "ran_out"]
    finally:
        again.close()
        rooms.close()


def test_the_others_may_skip_a_late_turn(tmp_path: Path) -> None:
    clock, told = ManualClock(), list[Notice]()
    rooms = _rooms(tmp_path, clock, told)
    try:
        room = rooms.create(CFG, identity=ANN, name="skip", turn=TurnClock(seconds=HOUR, on_timeout="skip"))
        room.claim(0, ANN, "Ann")
        room.claim(1, BOB, "Bob")
        late = present(room.session.deciding_seat())
        people = {0: (ANN, "Ann"), 1: (BOB, "Bob")}
        with pytest.raises(RoomError, match="nobody's clock has run out"):
            room.skip(*people[1 - late])
        clock.advance(HOUR)
        rooms.clock_due()
        before = room.session.state_id
        ran_out = told[-1].message
        assert room.record.clock.expired and (ran_out.what, ran_out.rule) == ("ran_out", "skip")
        assert room.session.state_id == before  # the game waits for the others
        with pytest.raises(RoomError, match="only the others may skip"):
            room.skip(*people[late])
        with pytest.raises(RoomError, match="only a person sitting"):
            room.skip("SHA256:cy", "Cy")
        assert room.skip(*people[1 - late]) == late
        skipped = told[-1].message
        assert (skipped.what, skipped.by) == ("skipped", people[1 - late][1])
        wait_for(lambda: room.record.clock.seat != late, "the computer to play the skipped turn")
    finally:
        rooms.close()


def test_the_total_clock_charges_each_turn(tmp_path: Path) -> None:
    clock = ManualClock()
    rooms = _rooms(tmp_path, clock)
    try:
        room = rooms.create(CFG, identity=ANN, name="bank", turn=TurnClock(pace="total", seconds=3 * DAY))
        room.claim(0, ANN, "Ann")
        room.claim(1, BOB, "Bob")
        first = present(room.session.deciding_seat())
        clock.advance(10 * HOUR)
        _to_turn_of(room, 1 - first)
        assert room.record.clock.used[first] == 10 * HOUR
        assert room.info().seats[first].left == 3 * DAY - 10 * HOUR
    finally:
        rooms.close()


def test_a_live_room_has_no_clock_and_prefs_are_kept(tmp_path: Path) -> None:
    clock = ManualClock()
    rooms = _rooms(tmp_path, clock)
    try:
        room = rooms.create(CFG, identity=ANN, name="live", handover_after=300)
        room.claim(0, ANN, "Ann")
        assert room.record.turn is None and room.record.clock == ClockState()
        assert [s.left for s in room.info().seats] == [-1.0, -1.0]
        with pytest.raises(RoomError, match="1 hour to 7 days"):
            rooms.create(CFG, identity=ANN, turn=TurnClock(seconds=10.0))
        assert rooms.store.prefs(ANN) == Prefs()
        rooms.store.set_prefs(ANN, Prefs(bell=True))
        assert rooms.store.prefs(ANN).bell and not rooms.store.prefs(BOB).bell
        assert P.VERSION >= 6
    finally:
        rooms.close()


def test_over_the_host_the_turn_and_a_late_clock_reach_people_in_the_lobby(tmp_path: Path) -> None:
    """Over the protocol: a turn-based room made with its clock; Bob in the lobby is told it is
    his turn (Ann, at the table, is not told of her own); his clock runs out and Ann, in the
    lobby, is told; Ann skips his turn with ``SkipTurn``; the prefs come with the welcome."""
    clock = ManualClock()

    async def body(path: Path, rooms: Rooms) -> None:
        rooms.store.set_prefs(BOB, Prefs(bell=True))
        ann = await Client.connect(path, ANN)
        bob = await Client.connect(path, BOB)
        assert narrow(bob.received[0], P.Welcome).prefs.bell and not narrow(ann.received[0], P.Welcome).prefs.bell
        await ann.send(P.create_room(CFG, name="slow", turn=TurnClock(seconds=HOUR, on_timeout="skip")))
        (info,) = (await ann.until(P.Rooms)).rooms
        assert info.turn == TurnClock(seconds=HOUR, on_timeout="skip") and info.handover_after == 0
        room = rooms.get(info.id)
        first = present(room.session.deciding_seat())
        people = (ann, bob)
        # the one whose turn it is not sits first, the other sits and leaves: told in the lobby
        waiting, deciding = people[1 - first], people[first]
        await waiting.send(P.JoinSeat(room=info.id, seat=1 - first))
        await waiting.until(P.Update)
        await deciding.send(P.JoinSeat(room=info.id, seat=first))
        await deciding.until(P.Update)
        await deciding.send(P.Leave())
        await deciding.until(P.Rooms)
        await waiting.send(P.Leave())
        await waiting.until(P.Rooms)
        # the first player's seat was claimed while it was their turn, in the room: not told
        assert not [m for m in deciding.received if isinstance(m, P.TurnNotice)]
        await deciding.send(P.JoinSeat(room=info.id, seat=first))
        update = await deciding.until(P.Update)
        s = room.session
        while s.deciding_seat() == first:
            await deciding.send(P.act(s.view(first).state.decision.options[0], s.state_id))
            update = await deciding.until(P.Update, lambda m, n=update.state_id: m.state_id > n)
        told = await waiting.until(P.TurnNotice)
        assert (told.what, told.seat, told.room_name, told.left) == ("your_turn", 1 - first, "slow", HOUR)
        await deciding.send(P.Undo())  # the turn passed on: not taken back (its clock would start afresh)
        refused = await deciding.until(P.Refused)
        assert refused.request == "undo" and "the turn you are playing" in refused.reason
        await deciding.send(P.Leave())
        await deciding.until(P.Rooms)
        clock.advance(HOUR)  # the host's tick sees it within a second
        ran_out = await deciding.until(P.TurnNotice, lambda m: m.what == "ran_out")
        assert (ran_out.seat, ran_out.rule) == (1 - first, "skip")
        before = s.state_id
        await deciding.send(P.SkipTurn(room=info.id))
        skipped = await waiting.until(P.TurnNotice, lambda m: m.what == "skipped")
        assert skipped.by == (ANN, BOB)[first]  # the name the skipper gave (here their identity)
        wait_for(lambda: s.deciding_seat() == first and s.state_id > before, "the skipped turn played")
        await waiting.send(P.SkipTurn(room=info.id))
        assert "nobody's clock" in (await waiting.until(P.Refused)).reason
        await bob.send(P.SetPrefs(prefs=Prefs(bell=False)))
        await bob.send(P.ListRooms())
        await bob.until(P.Rooms)
        assert rooms.store.prefs(BOB) == Prefs()
        for c in people:
            c.close()

    run_host(tmp_path, body, first_seed=21, now=clock)


class _FarStore(SqliteRoomStore):
    """A store whose renewals report one turn-based room another host runs, as the test sets it."""

    far: tuple[Elsewhere, ...] = ()

    def renew(self, held: Any, *, address: str = "") -> Renewal:
        return Renewal(elsewhere=self.far)


def _far_room(deciding: int) -> Elsewhere:
    seats = tuple(
        P.SeatInfo(kind="human", label=SeatLabel(name=name, letter=name[0], colour="#cc3333"), holder=who, identity=who)
        for name, who in (("Red", "ann"), ("Blue", "bob"))
    )
    info = P.RoomInfo(
        id="far1", game="cathedral", name="elsewhere", mode="2 players", progress="", finished=False,
        seats=seats, turn=TurnClock(), deciding=deciding,
    )  # fmt: skip
    return Elsewhere("far1", "127.0.0.1:1", msgspec.json.encode(info))


def test_a_turn_passing_in_a_room_another_host_runs_is_told_here_too(tmp_path: Path) -> None:
    """Several hosts on one database: a person on this host whose turn came in a room another host
    runs is told at this host's next renewal; the first sight of a room tells nobody."""
    store = _FarStore(tmp_path / "rooms.db")
    rooms = Rooms(store, bot_delay=0.0)
    told: list[Notice] = []
    rooms.listeners.append(told.append)
    store.far = (_far_room(0),)
    rooms.renew()
    assert told == []  # first seen: its turn did not pass, this host only learnt of it
    store.far = (_far_room(1),)
    rooms.renew()
    (notice,) = told
    message = narrow(notice.message, P.TurnNotice)
    assert notice.people == ("bob",) and message.what == "your_turn" and message.room == "far1"
    assert message.seat_name == "Blue (bob)"
    rooms.renew()
    assert len(told) == 1  # the same turn: told once
    store.close()
