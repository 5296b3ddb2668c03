"""A whole turn-based game of every registered game between two people who are never connected
together for long (issue 40): each decision is made by a fresh connection (connect, see in the
lobby that it is your turn, sit, decide, disconnect); once, Bob stays away until his clock runs
out: a computer plays his turn, the log says so, and Ann, in the lobby, is told (and then that it
is her turn). The host runs in this process with a ``ManualClock``: nothing waits for the hour."""

from __future__ import annotations

import logging
from typing import Any

import msgspec
import pytest

from nctui.platform import registry
from nctui.platform.net import protocol as P
from nctui.platform.net.client import HostLink, LinkNews
from nctui.platform.net.turns import HOUR, TurnClock
from nctui.ui.screens.lobby import my_turn
from tests.test_net_lobby import ANN, BOB, HostThread, wait_for
from tests.test_net_turns import ManualClock

PEOPLE = {0: (ANN, "Ann"), 1: (BOB, "Bob")}
MAX_DECISIONS = 1500  # a whole game of any of the four is a few hundred at most


def _two_people(game_id: str) -> Any:
    bots = registry.simulated(game_id).computer_game(7, ("random", "random"))
    return msgspec.structs.replace(bots, seats=("human", "human"))


class Visit:
    """One person connected for a moment: their lobby, then their seat."""

    def __init__(self, turn_host: HostThread, seat: int) -> None:
        self.identity, name = PEOPLE[seat]
        self.news: list[LinkNews] = []
        self.link = HostLink(turn_host.path, self.identity, name, listener=self.news.append).connect()

    def lobby(self, room_id: str) -> P.RoomInfo:
        self.link.list_rooms()
        return wait_for(lambda: next((r for r in self.link.rooms if r.id == room_id), None), "the lobby's rooms")

    def notices(self) -> list[P.TurnNotice]:
        return [n for n in self.news if isinstance(n, P.TurnNotice)]

    def close(self) -> None:
        self.link.close()


def _bob_stays_away(turn_host: HostThread, turn_clock: ManualClock, room: Any, sim: Any) -> None:
    """Bob's hour runs out: a computer plays his turn; Ann, in the lobby, is told, then that it is
    her turn."""
    session = room.session
    watching = Visit(turn_host, 0)
    watching.lobby(room.id)
    before = session.state_id
    turn_clock.advance(HOUR)
    late = wait_for(lambda: [n for n in watching.notices() if n.what == "ran_out"], "Ann told")
    assert (late[0].seat, late[0].rule, late[0].room_name) == (1, "computer", "by post")
    wait_for(lambda: session.deciding_seat() != 1 or sim.winners(session.store.state), "the computer's turn")
    assert session.state_id > before
    assert all(session.seat_of(i) == 1 for i in range(before + 1, session.state_id + 1))
    if session.deciding_seat() == 0:
        wait_for(lambda: [n for n in watching.notices() if n.what == "your_turn"], "Ann's turn said")
    watching.close()


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_a_whole_turn_based_game_with_disconnects_and_one_clock_run_out(
    game_id: str, turn_host: HostThread, turn_clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="nctui.platform.net")
    config = _two_people(game_id)
    sim = registry.simulated(game_id)
    players = [sim.computer(config, seat, "random") for seat in (0, 1)]
    ann = Visit(turn_host, 0)
    ann.link.send(P.create_room(config, name="by post", turn=TurnClock(seconds=HOUR)))
    room = wait_for(lambda: next(iter(turn_host.rooms.rooms.values()), None), "the room")
    ann.close()
    for seat in (0, 1):  # each takes a seat, and goes
        visit = Visit(turn_host, seat)
        visit.link.send(P.JoinSeat(room=room.id, seat=seat))
        wait_for(lambda v=visit: v.link.game, "the seat")
        visit.close()
    session = room.session
    decisions, ran_out = 0, False
    while sim.winners(session.store.state) is None:
        assert decisions < MAX_DECISIONS, "the game does not end"
        seat = session.deciding_seat()
        assert seat in (0, 1)
        if not ran_out and seat == 1 and decisions >= 3:
            _bob_stays_away(turn_host, turn_clock, room, sim)
            ran_out = True
            continue
        visit = Visit(turn_host, seat)
        info = visit.lobby(room.id)
        assert my_turn(info, visit.identity) and info.seats[seat].left > 0  # the lobby says so
        visit.link.send(P.JoinSeat(room=room.id, seat=seat))
        now = session.state_id
        game = wait_for(lambda v=visit, n=now: (g := v.link.game) is not None and g.state_id == n and g, "the game")
        game.send(players[seat].choose(game.view(seat)), seen_state_id=now, seat=seat)
        wait_for(lambda n=now: session.state_id > n, "the decision taken")
        visit.close()
        decisions += 1
    assert ran_out, "Bob's clock never ran out"
    assert decisions > 3
    assert any("ran out: a computer plays the turn" in r.getMessage() for r in caplog.records)
    wait_for(lambda: room.record.finished > 0, "the room's end kept")
    assert room.record.clock.seat == -1  # a finished game runs no clock
