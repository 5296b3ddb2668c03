"""The lobby of turn-based rooms (issue 40), Pilot at 80x24 against a real host in this process
whose clock is a ``ManualClock``: a turn-based room made on the New room screen with its clock
and rule; a person's games first, those where it is their turn on top with the time they have
left; it becoming their turn said on the lobby's status line (and the bell, when they allow it:
``a``, kept by the host), in the lobby and inside another game; a late turn skipped with ``s``."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from textual.widgets import Button, Input, Static

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.platform.net.turns import DAY, HOUR, Prefs, TurnClock
from nctui.ui.lobby_app import LobbyApp
from nctui.ui.screens.lobby import LobbyScreen, NewRoomScreen, RemoteScreen, SeatScreen, room_words
from tests.helpers import narrow, present
from tests.test_net_lobby import ANN, BOB, CY, SMALL, HostThread, Person, until, wait_for
from tests.test_net_turns import ManualClock

CFG = GameConfig(players=2, seats=("human", "human"), seed=42)


def _status(app: LobbyApp) -> str:
    return str(app.screen_stack[0].query_one("#lobby-status", Static).render())


def _room(turn_host: HostThread, name: str, turn: TurnClock | None, *, creator: str = ANN) -> Any:
    room = turn_host.rooms.create(CFG, identity=creator, name=name, turn=turn)
    return room


def _sit(room: Any, first: tuple[str, str], second: tuple[str, str], mine_first: bool) -> None:
    """Two people at the room's seats, the deciding seat to ``first``'s person if ``mine_first``."""
    deciding = present(room.session.deciding_seat())
    a, b = (first, second) if mine_first else (second, first)
    room.claim(deciding, *a)
    room.claim(1 - deciding, *b)


def test_a_turn_based_room_is_made_on_the_new_room_screen(turn_host: HostThread) -> None:
    async def go() -> None:
        app = LobbyApp(turn_host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: app.link is not None and isinstance(app.screen, LobbyScreen), "the lobby")
            await pilot.press("n")
            screen = narrow(app.screen, NewRoomScreen)
            screen.query_one("#room-name", Input).value = "Slow"
            await pilot.press("tab", "tab")  # the game, the name, then Play
            for _ in range(3):  # Live, 1 hour, 12 hours, 1 day a move
                await pilot.press("right")
            await pilot.press("tab", "right")  # when the clock runs out: the others may skip
            assert "1 day a move" in str(screen.query_one("#pace").render())
            assert "skip" in str(screen.query_one("#on-timeout").render())
            await pilot.press("enter")
            await until(
                pilot,
                lambda: "Create the room" in str(narrow(app.screen.query("#start")[0], Button).label),
                "its settings",
            )
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, SeatScreen), "the new room's seats")
            record = turn_host.room().record
            assert record.turn == TurnClock(pace="move", seconds=DAY, on_timeout="skip")
            assert record.handover_after == 0
            assert "turn-based, 1 day a move" in str(app.screen.query_one(Static).render())
            said = "\n".join(str(w.render()) for w in app.screen.query(Static))
            assert "1 day for each move; when a clock runs out, the others may skip the turn (s)" in said

    asyncio.run(go())


def test_my_games_first_my_turn_on_top_with_the_time_left(turn_host: HostThread, turn_clock: ManualClock) -> None:
    """Cy's live room, a room of Ann's where it is Bob's turn, and two where it is Ann's (3 h and
    20 h left): Ann's lobby lists her turns first, the least time left on top, then her other
    game, then the rest; she is not sent into any of them (many games at once)."""
    ann, bob = (ANN, "Ann"), (BOB, "Bob")
    _room(turn_host, "cy's", None, creator=CY)
    waiting = _room(turn_host, "waiting", TurnClock(seconds=DAY))
    _sit(waiting, ann, bob, mine_first=False)
    later = _room(turn_host, "later", TurnClock(seconds=DAY))
    _sit(later, ann, bob, mine_first=True)
    turn_clock.advance(4 * HOUR)
    soon = _room(turn_host, "soon", TurnClock(seconds=DAY))
    _sit(soon, ann, bob, mine_first=True)
    turn_clock.advance(17 * HOUR)  # later: 3 h left; soon: 7 h left
    bank = _room(turn_host, "bank", TurnClock(pace="total", seconds=3 * DAY))
    _sit(bank, ann, bob, mine_first=True)

    async def go() -> None:
        app = LobbyApp(turn_host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            lobby = await until(
                pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.shown and app.screen, ""
            )
            assert [r.name for r in lobby.shown] == ["later", "soon", "bank", "waiting", "cy's"]
            await until(pilot, lambda: "Your turn in 3 games: later, soon, bank." in _status(app), "the status line")
            words = [room_words(r, ANN).plain for r in lobby.shown]
            assert words[0].startswith("▶ your turn") and "to play, 3 h left" in words[0]
            assert "turn-based, 1 day a move" in words[0] and "to play, 7 h left" in words[1]
            assert "to play, 3 d left" in words[2] and "turn-based, 3 days in all" in words[2]
            assert "your turn" not in words[3] and "Bob to play, 3 h left" in words[3]
            await pilot.pause(0.3)
            assert isinstance(app.screen, LobbyScreen)  # not taken to a seat

    asyncio.run(go())


def test_told_of_my_turn_in_the_lobby_and_in_another_game_with_the_bell(
    turn_host: HostThread, turn_clock: ManualClock
) -> None:
    ann, bob = (ANN, "Ann"), (BOB, "Bob")
    one = _room(turn_host, "one", TurnClock(seconds=DAY))
    _sit(one, ann, bob, mine_first=False)
    two = _room(turn_host, "two", TurnClock(seconds=HOUR))
    _sit(two, ann, bob, mine_first=False)
    turn_host.rooms.store.set_prefs(ANN, Prefs(bell=False))
    bob_link = Person(turn_host.path, BOB, "Bob")

    def bob_plays(room: Any) -> None:
        """Bob's whole turn in ``room``."""
        game = bob_link.sit(
            room.id, room.record.holders.index(next(h for h in room.record.holders if h.identity == BOB))
        )
        s = room.session
        while s.deciding_seat() == game.seat:
            bob_link.decide_first_option()
            wait_for(lambda n=s.state_id: game.state_id > n or s.deciding_seat() != game.seat, "Bob's decision")
        bob_link.link.leave()

    async def go() -> None:
        app = LobbyApp(turn_host.path, ANN, "Ann")
        rings: list[int] = []
        app.bell = lambda: rings.append(1)  # type: ignore[method-assign]
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.shown, "the rooms")
            await pilot.press("a")  # the bell on: the host keeps it
            await until(pilot, lambda: turn_host.rooms.store.prefs(ANN).bell, "the bell kept")
            await asyncio.to_thread(bob_plays, one)
            await until(pilot, lambda: "Your turn in one" in _status(app), "the status line")
            assert rings == [1]
            # Ann in another game: it becomes her turn in "two"
            app.join_seat(one.id, one.seat_of(ANN))
            await until(pilot, lambda: isinstance(app.screen, RemoteScreen), "Ann's game")
            game = narrow(app.screen, RemoteScreen)
            mine = one.seat_of(ANN)
            await until(pilot, lambda: "Ann, 1 d left" in cast(Any, game).presence_words(mine), "her time in the game")
            joined = "Turn-based: 1 day for each move; when a clock runs out, a computer plays the turn."
            await until(pilot, lambda: any(n.message.startswith(joined) for n in app._notifications), "the clock said")
            await asyncio.to_thread(bob_plays, two)
            await until(pilot, lambda: "Your turn in two" in _status(app), "the status line under the game")
            assert len(rings) == 2
            assert any("Your turn in two" in n.message for n in app._notifications)  # the notice over the game
            # her clock in two runs out while she plays one: told, a computer plays it
            turn_clock.advance(HOUR)
            await until(pilot, lambda: "Your clock ran out in two" in _status(app), "the clock's news")
            await until(pilot, lambda: two.session.deciding_seat() == two.seat_of(BOB), "the computer's move")

    asyncio.run(go())
    bob_link.link.close()


def test_a_late_turn_is_skipped_from_the_lobby(turn_host: HostThread, turn_clock: ManualClock) -> None:
    ann, bob = (ANN, "Ann"), (BOB, "Bob")
    room = _room(turn_host, "wait", TurnClock(seconds=HOUR, on_timeout="skip"))
    _sit(room, ann, bob, mine_first=False)
    late = room.seat_of(BOB)
    assert late == 1  # Blue decides first with this seed: Bob sits there

    async def go() -> None:
        app = LobbyApp(turn_host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            lobby = await until(
                pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.shown and app.screen, ""
            )
            await pilot.press("s")
            await until(pilot, lambda: any("Nobody's clock" in n.message for n in app._notifications), "a refusal")
            turn_clock.advance(HOUR)
            await until(pilot, lambda: "s in the lobby skips the turn" in _status(app), "the clock's news")
            await until(pilot, lambda: lobby.shown and lobby.shown[0].expired, "the room's clock ran out")
            assert "out of time" in room_words(lobby.shown[0], ANN).plain
            await pilot.press("s")
            said = "Ann skipped Blue (Bob)'s turn in wait: a computer plays it."
            await until(pilot, lambda: any(n.message == said for n in app._notifications), "the skip said")
            await until(pilot, lambda: room.session.deciding_seat() != late, "the computer's move")
            await until(pilot, lambda: "Your turn in wait" in _status(app), "Ann's turn next")

    asyncio.run(go())
