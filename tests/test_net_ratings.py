"""Ratings (issue 40): a series of games moves ratings exactly as a hand computation of Elo does, a
person who abandons a rated game loses it, computer seats rate nobody, each result is recorded
once, and rooms played to their end record their people's results."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from nctui.games.dreamers.state import DreamersConfig
from nctui.platform import registry
from nctui.platform.net import ratings as R
from nctui.platform.net.rooms import Rooms
from nctui.platform.net.store import RoomStore
from nctui.platform.net.store_sqlite import SqliteRoomStore
from tests.test_net_host import seeds


def _result(room: str, places: list[tuple[str, int]], *, rated: bool = True, game: str = "dreamers") -> R.GameResult:
    return R.GameResult(
        room=room,
        game=game,
        room_name=room,
        ended=float(room[1:]),
        rated=rated,
        places=tuple(R.Placing(identity=i, name=i.title(), seat=s, place=p) for s, (i, p) in enumerate(places)),
    )


def test_a_series_of_games_matches_the_hand_computation(open_store: Callable[[], RoomStore]) -> None:
    """By hand (K 32, divided by the people less one; E(a, b) = 1 / (1 + 10^((b - a) / 400))):
    1. Ann beats Bob, both new: E = 0.5, Ann 1500 + 32 x 0.5 = 1516, Bob 1484.
    2. Bob wins a game of three, Ann and Cy (new) lose: K 16; E(Ann, Bob) = 0.54592,
       E(Ann, Cy) = 0.52301, E(Bob, Cy) = 0.47699. Ann 1516 + 16 x (0 - 0.54592 + 0.5 - 0.52301)
       = 1506.897; Bob 1484 + 16 x (1 - 0.45408 + 1 - 0.47699) = 1501.103; Cy 1500 + 16 x (0.5 -
       0.47699 + 0 - 0.52301) = 1492.
    3. Cy abandons a game against Ann: a loss, whoever won the board. E(Ann, Cy) = 0.52143, Ann
       1506.897 + 32 x 0.47857 = 1522.211, Cy 1476.686.
    A game against the computer only, and one not rated, move nothing. Both stores (SQLite,
    PostgreSQL)."""
    store = open_store()
    try:
        store.record_result(_result("g1", [("ann", R.WON), ("bob", R.LOST)]))
        store.record_result(_result("g2", [("ann", R.LOST), ("bob", R.WON), ("cy", R.LOST)]))
        store.record_result(_result("g3", [("ann", R.LOST), ("cy", R.ABANDONED)]))
        store.record_result(_result("g4", [("ann", R.LOST)]))  # alone against computers
        store.record_result(_result("g5", [("ann", R.LOST), ("bob", R.WON)], rated=False))
        again = store.record_result(_result("g1", [("ann", R.LOST), ("bob", R.WON)]))  # recorded once
        assert [(row.room, row.place) for row in again] == [("g1", R.WON), ("g1", R.LOST)]
        table = {r.identity: r for r in store.ratings("dreamers")}
        assert [r.identity for r in store.ratings("dreamers")] == ["ann", "bob", "cy"]  # best first
        assert table["ann"].rating == pytest.approx(1522.211, abs=0.001)
        assert table["bob"].rating == pytest.approx(1501.103, abs=0.001)
        assert table["cy"].rating == pytest.approx(1476.686, abs=0.001)
        assert (table["ann"].games, table["ann"].wins, table["bob"].wins, table["cy"].games) == (3, 1, 1, 2)
        assert store.ratings("cathedral") == []
        page = store.results("ann")
        assert [row.room for row in page] == ["g5", "g4", "g3", "g2", "g1"]  # newest first
        assert [row.rated for row in page] == [False, False, True, True, True]
        assert page[0].before == page[0].after  # not rated: nothing moved
        assert page[-1].before == R.START and page[-1].after == pytest.approx(1516)
    finally:
        store.close()


def test_a_person_who_abandons_ranks_last_unless_seated_again() -> None:
    places = R.places_of((1,), {0: ("ann", "Ann"), 1: ("bot-seat", "Computer")}, {"cy": "Cy", "ann": "Ann"})
    assert [(p.identity, p.place) for p in places] == [("ann", R.LOST), ("bot-seat", R.WON), ("cy", R.ABANDONED)]


def _play_to_the_end(rooms: Rooms, room_id: str, rnd: random.Random) -> None:
    room = rooms.get(room_id)
    game = room.game
    for _ in range(5000):
        assert room.session.wait_idle(60.0), "a computer player is still deciding"
        state = room.session.store.state
        seat = game.decider(state)
        if seat is None:
            return
        room.session.send(rnd.choice(game.options(state)), seen_state_id=room.session.state_id, seat=seat)
    raise AssertionError("the game did not end")


def test_rooms_played_to_the_end_record_results_and_ratings(tmp_path: Path) -> None:
    """Two people play a Dreamers room to its end: both are rated and each has the game on their
    page; Bob gives up his seat in the second one, and loses it; a room not rated moves nothing."""
    rooms = Rooms(SqliteRoomStore(tmp_path / "rooms.db"), bot_delay=0.0, seeds=seeds(5))
    rnd = random.Random(5)
    winners = registry.simulated("dreamers").winners
    try:
        people = DreamersConfig(seats=("human", "human"))
        first = rooms.create(people, identity="ann", name="first")
        first.claim(0, "ann", "Ann")
        first.claim(1, "bob", "Bob")
        _play_to_the_end(rooms, first.id, rnd)
        won = winners(first.session.store.state) or ()
        table = {r.identity: r.rating for r in rooms.store.ratings("dreamers")}
        assert set(table) == {"ann", "bob"}
        if len(won) == 1:
            assert table[("ann", "bob")[won[0]]] > table[("ann", "bob")[1 - won[0]]]
        assert [row.room for row in rooms.store.results("bob")] == [first.id]

        second = rooms.create(people, identity="ann", name="second", handover_after=1.0)
        second.claim(0, "ann", "Ann")
        second.claim(1, "bob", "Bob")
        second.give_up(1, "bob")  # the computer plays his seat to the end
        _play_to_the_end(rooms, second.id, rnd)
        row = next(r for r in rooms.store.results("bob") if r.room == second.id)
        assert row.place == R.ABANDONED and row.after < row.before

        casual = rooms.create(people, identity="ann", name="casual", rated=False)
        casual.claim(0, "ann", "Ann")
        casual.claim(1, "bob", "Bob")
        before = rooms.store.ratings("dreamers")
        _play_to_the_end(rooms, casual.id, rnd)
        assert rooms.store.ratings("dreamers") == before
        assert not next(r for r in rooms.store.results("ann") if r.room == casual.id).rated
    finally:
        rooms.close()
