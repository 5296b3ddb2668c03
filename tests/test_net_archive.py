"""The archive and the ratings over the host's socket (issue 40, loopback, bounded): a spectator
watches a live game from its start, steps through it and reaches it live, seeing only what a
spectator sees; a finished game is watched again with everything shown, through a seat's eyes;
the ratings table and a person's page say what the store recorded; the lobby's rooms carry each
person's rating."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from nctui.games.dreamers.state import DreamersConfig
from nctui.platform import registry
from nctui.platform.game import SPECTATOR
from nctui.platform.net import protocol as P, ratings as R
from nctui.platform.net.rooms import Rooms
from tests.test_net_host import Client, run_host

PEOPLE = DreamersConfig(seats=("human", "human"))
GAME = "dreamers"
SEED = (1 << 40) + 40_4040  # a room's seed no other number of a message is likely to equal


def _decide(rooms: Rooms, room_id: str, rnd: random.Random, n: int | None = None) -> None:
    """``n`` decisions of the room's people (None: to the end), chosen at random."""
    room = rooms.get(room_id)
    game, s = room.game, room.session
    done = 0
    while (n is None or done < n) and (seat := game.decider(s.store.state)) is not None:
        s.send(rnd.choice(game.options(s.store.state)), seen_state_id=s.state_id, seat=seat)
        done += 1


def _view(update: P.Update) -> Any:
    return P.payloads(GAME).view(update.view)


def test_a_live_game_watched_from_its_start_then_live(tmp_path: Path) -> None:
    async def body(path: Path, rooms: Rooms) -> None:
        game = registry.game(GAME)
        room = rooms.create(PEOPLE, identity="ann", name="live")
        room.claim(0, "ann", "Ann")
        room.claim(1, "bob", "Bob")
        _decide(rooms, room.id, random.Random(3), 6)
        live = room.session.state_id
        w = await Client.connect(path, "cy")
        await w.send(P.Watch(room=room.id, from_start=True, eyes=1))  # eyes: only once the game is over
        joined = await w.until(P.Joined)
        assert joined.replay and joined.seat == SPECTATOR
        first = await w.until(P.Update)
        store = room.session.store
        assert first.state_id == 0 and first.last_id == live and first.can_redo
        assert _view(first) == game.view(store.entry(0).state, SPECTATOR)
        await w.send(P.Redo())
        one = await w.until(P.Update, lambda m: m.state_id == 1)
        assert _view(one) == game.view(store.entry(1).state, SPECTATOR)
        assert P.payloads(GAME).events(one.events) == tuple(
            game.redact_event(e, SPECTATOR) for e in store.entry(1).events
        )
        await w.send(P.Undo())
        assert (await w.until(P.Update)).state_id == 0
        await w.send(P.Undo())
        assert "start of the game" in (await w.until(P.Refused)).reason
        await w.send(P.Act(action=P.raw(game.options(store.state)[0]), seen_state_id=live))
        assert "nothing is decided" in (await w.until(P.Refused)).reason
        assert room.session.state_id == live
        await w.send(P.UndoTo(state_id=live - 1))
        assert (await w.until(P.Update)).state_id == live - 1
        await w.send(P.Redo())  # now: live from here on
        assert (await w.until(P.Update)).state_id == live
        _decide(rooms, room.id, random.Random(4), 1)
        assert (await w.until(P.Update)).state_id == live + 1  # the game moved: followed live
        seed = str(room.config.seed)
        assert len(seed) > 12 and not [f for f in w.frames if seed.encode() in f]  # no message carries it
        w.close()

    run_host(tmp_path, body, first_seed=SEED)


def test_a_finished_game_watched_again_shows_everything_and_ratings(tmp_path: Path) -> None:
    async def body(path: Path, rooms: Rooms) -> None:
        game = registry.game(GAME)
        room = rooms.create(PEOPLE, identity="ann", name="done")
        room.claim(0, "ann", "Ann")
        room.claim(1, "bob", "Bob")
        _decide(rooms, room.id, random.Random(5))
        assert room.over()
        store = room.session.store
        a = await Client.connect(path, "ann")
        await a.send(P.Watch(room=room.id, from_start=True, eyes=1))
        joined = await a.until(P.Joined)
        assert joined.replay and joined.seat == 1
        first = await a.until(P.Update)
        assert first.state_id == 0 and first.last_id == store.state_id
        assert _view(first) == game.view_all(store.entry(0).state, 1)  # nothing hidden: the RNG too
        await a.send(P.UndoTo(state_id=store.state_id))
        end = await a.until(P.Update, lambda m: m.state_id == store.state_id)
        assert _view(end) == game.view_all(store.state, 1)
        await a.send(P.Redo())
        assert "end of the game" in (await a.until(P.Refused)).reason

        await a.send(P.ListRatings(game=GAME))
        table = await a.until(P.RatingsTable)
        assert {r.identity for r in table.ratings} == {"ann", "bob"}
        assert [r.rating for r in table.ratings] == sorted((r.rating for r in table.ratings), reverse=True)
        await a.send(P.ShowPage())
        page = await a.until(P.PersonPage)
        assert page.identity == "ann" and page.name == "Ann" and [r.room for r in page.results] == [room.id]
        assert page.results[0].rated and page.results[0].place in (R.WON, R.LOST)
        await a.send(P.Leave())
        rooms_now = (await a.until(P.Rooms)).rooms
        await a.send(P.ListRooms(finished=True))
        (info,) = (await a.until(P.Rooms, lambda m: m.rooms and m.rooms[0].finished)).rooms
        assert rooms_now is not None and info.rated
        assert {s.holder: s.rating for s in info.seats} == {r.name: r.rating for r in table.ratings}
        await a.send(P.ListRatings(game="chess"))
        assert "no game 'chess'" in (await a.until(P.Refused)).reason
        a.close()

    run_host(tmp_path, body)


def test_the_lobby_shows_ratings_a_page_and_watches_a_finished_game_again(tmp_path: Path) -> None:
    """Pilot at 80x24: the lobby names each person's rating; p opens this person's page, Enter on
    its finished game watches it again from its start (r forward, u back, q the lobby); g the
    ratings of the room's game, Enter a person's page; W a live room from its start."""
    from nctui.ui.lobby_app import LobbyApp
    from nctui.ui.screens.lobby import LobbyScreen, RemoteScreen, room_words
    from nctui.ui.screens.ratings import PageScreen, RatingsScreen
    from tests.test_net_lobby import HostThread, run, until

    host = HostThread(tmp_path)
    try:
        done = host.rooms.create(PEOPLE, identity="ann", name="done")
        done.claim(0, "ann", "Ann")
        done.claim(1, "bob", "Bob")
        _decide(host.rooms, done.id, random.Random(5))
        ann_rating = round(next(r.rating for r in host.rooms.store.ratings(GAME) if r.identity == "ann"))

        async def go() -> None:
            app = LobbyApp(host.path, "ann", "Ann")
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.shown, "rooms")
                lobby: Any = app.screen
                assert f"Ann (you) {ann_rating}" in room_words(lobby.shown[0], "ann").plain
                assert "rated" in room_words(lobby.shown[0], "ann").plain
                await pilot.press("p")
                page = await until(pilot, lambda: isinstance(app.screen, PageScreen) and app.screen, "the page")
                assert [r.room for r in page.page.results] == [done.id]
                await pilot.press("enter")
                await until(
                    pilot,
                    lambda: isinstance(app.screen, RemoteScreen) and cast(Any, app.screen).game.ready.is_set(),
                    "replay",
                )
                screen: Any = app.screen
                remote = screen.game
                assert remote.replay and remote.seat == 0 and remote.state_id == 0
                await pilot.press("r")
                await until(pilot, lambda: remote.state_id == 1, "one forward")
                await pilot.press("u")
                await until(pilot, lambda: remote.state_id == 0, "one back")
                assert screen is app.screen
                await pilot.press("q")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
                await pilot.press("g")
                table = await until(pilot, lambda: isinstance(app.screen, RatingsScreen) and app.screen, "ratings")
                assert table.table.game == GAME and {r.name for r in table.table.ratings} == {"Ann", "Bob"}
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, PageScreen), "a person's page")
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, RatingsScreen), "back to the ratings")
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
                live = host.rooms.create(PEOPLE, identity="bob", name="live")
                live.claim(0, "bob", "Bob")
                live.claim(1, "cy", "Cy")
                _decide(host.rooms, live.id, random.Random(6), 3)
                await pilot.press("r")
                await until(pilot, lambda: len(lobby.shown) == 2, "the new room")
                lobby.query_one("#rooms").highlighted = next(i for i, r in enumerate(lobby.shown) if r.id == live.id)
                await pilot.press("W")
                await until(
                    pilot,
                    lambda: isinstance(app.screen, RemoteScreen) and cast(Any, app.screen).game.room.id == live.id,
                    "the live room from its start",
                )
                watched = cast(Any, app.screen).game
                await until(pilot, lambda: watched.ready.is_set() and watched.state_id == 0, "its start")
                assert watched.replay and watched.seat == SPECTATOR

        run(go())
    finally:
        host.stop()


def test_a_room_made_not_rated_on_the_new_room_screen(tmp_path: Path) -> None:
    """Pilot at 80x24: the New room screen's Ratings field (←/→) makes a friendly room: its
    record is not rated, and the lobby does not mark it so; its seats offer W, from the start."""
    from textual.widgets import Button, Input

    from nctui.ui.lobby_app import LobbyApp
    from nctui.ui.screens.lobby import LobbyScreen, NewRoomScreen, RemoteScreen, SeatScreen, room_words
    from tests.helpers import narrow
    from tests.test_net_lobby import HostThread, run, until

    host = HostThread(tmp_path)
    try:

        async def go() -> None:
            app = LobbyApp(host.path, "ann", "Ann")
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: app.link is not None and isinstance(app.screen, LobbyScreen), "the lobby")
                await pilot.press("n")
                screen = narrow(app.screen, NewRoomScreen)
                screen.query_one("#room-name", Input).value = "Friendly"
                screen.query_one("#rated").focus()
                await pilot.press("right")
                assert "not rated" in str(screen.query_one("#rated").render())
                await pilot.press("enter")
                await until(
                    pilot,
                    lambda: "Create the room" in str(narrow(app.screen.query("#start")[0], Button).label),
                    "its settings",
                )
                await pilot.press("s")
                await until(pilot, lambda: isinstance(app.screen, SeatScreen), "the new room's seats")
                (room,) = host.rooms.rooms.values()
                assert not room.record.rated and not room.info().rated
                assert "rated" not in room_words(room.info(), "ann").plain
                await pilot.press("W")  # its seats offer to watch it from the start too
                await until(
                    pilot,
                    lambda: isinstance(app.screen, RemoteScreen) and cast(Any, app.screen).game.replay,
                    "the room from its start",
                )

        run(go())
    finally:
        host.stop()


def test_a_finished_room_exported_by_the_admin_is_watched_with_nctui_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], open_store: Callable[[], Any]
) -> None:
    """``nctui saves export-room ROOM FILE --data DIR`` (or ``--store URL``: both stores) writes a
    finished room's game as a save file that ``nctui replay`` opens: the same decisions, the game
    over; a game not over, or no such room, is refused in one line."""
    from nctui import cli
    from nctui.platform.replay import open_replay
    from tests.test_net_host import seeds

    opened = open_store()
    url = getattr(opened, "url", None)  # PostgreSQL's; SQLite's is the data folder's rooms.db
    where = ["--data", str(tmp_path)] if url is None else ["--store", url]
    rooms = Rooms(opened, bot_delay=0.0, seeds=seeds(7))
    try:
        done = rooms.create(PEOPLE, identity="ann", name="done")
        going = rooms.create(PEOPLE, identity="ann", name="going")
        for room in (done, going):
            room.claim(0, "ann", "Ann")
            room.claim(1, "bob", "Bob")
        _decide(rooms, done.id, random.Random(8))
        _decide(rooms, going.id, random.Random(9), 3)
        final, actions = done.session.store.state, done.session.store.all_actions()
    finally:
        rooms.close()
    out = tmp_path / "elsewhere" / "done.nctui.json"
    assert cli.main(["saves", "export-room", done.id, str(out), *where]) == 0
    assert "nctui replay" in capsys.readouterr().out
    replay = open_replay(out)
    assert replay.over and replay.state_id == 0 and replay.store.all_actions() == actions
    replay.undo_to(replay.last_id, seat=0)
    assert replay.store.state == final
    for room_id, words in ((going.id, "is not over"), ("nope", "there is no room 'nope'")):
        assert cli.main(["saves", "export-room", room_id, str(tmp_path / "x.nctui.json"), *where]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1 and "Traceback" not in err
