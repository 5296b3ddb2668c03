"""The Nightmarium screen driven by Pilot at 80x24 and 120x40: from the title screen, a game
against a computer player; options chosen by digit and Enter; hot-seat hands behind the shared
hand-off screen, which a digit does not lift, each person's log written through their eyes."""

from __future__ import annotations

import asyncio

import pytest

from nctui.games.nightmarium.cards import card
from nctui.games.nightmarium.state import Draw, NightmariumConfig, Play
from nctui.games.nightmarium.ui.screen import NightmariumScreen
from nctui.platform import registry
from nctui.ui.screens.handoff import HandoffScreen
from nctui.ui.screens.options_new_game import CompanionNewScreen
from nctui.ui.screens.shell import GameShell
from nctui.ui.widgets.log import GameLog
from tests.helpers import companion_app, narrow, plain, screen_of, settle

NIGHTMARIUM = registry.game("nightmarium")


def _app(tmp_path, config: NightmariumConfig | None = None):
    return companion_app(tmp_path, NIGHTMARIUM, config)


def _text(app, name: str) -> str:
    return plain(app, name)


def _log(app) -> str:
    return "\n".join(strip.text for strip in app.screen.query_one(GameLog).lines)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_game_against_the_computer_from_the_title(tmp_path, size) -> None:
    async def go() -> None:
        app = _app(tmp_path)
        async with app.run_test(size=size) as pilot:
            await pilot.press("m")
            await pilot.pause()
            assert isinstance(app.screen, CompanionNewScreen)
            await pilot.press("up", "enter")  # Start (1 person, 1 computer)
            await pilot.pause()
            assert isinstance(app.screen, NightmariumScreen)
            hand = app.game.store.state.players[0].hand
            assert len(hand) == 5 and "Legs (" in _text(app, "nm-hand")
            await pilot.press("1")  # Draw a card
            await pilot.pause()
            assert len(app.game.store.state.players[0].hand) == 6
            await pilot.press("enter")  # the highlighted option: Draw a card again
            assert await settle(pilot, lambda: app.game.store.state.turn == 0 and app.game.store.state.turns == 2, 20)
            await pilot.pause()
            assert "Player 1's turn" in _text(app, "nm-status")
            assert any("Chosen: Draw a card" in m for m in app.seen)

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_hot_seat_hands_stay_hidden_behind_the_shared_hand_off_until_enter(tmp_path, size) -> None:
    """Two people: the turn passes through the shared hand-off screen (the seat named by the
    game's seat labels, the choice before echoed); a digit neither lifts it nor chooses; Enter
    shows the next person's hand only, and their log reads the other's draws without the cards."""

    async def go() -> None:
        app = _app(tmp_path, NightmariumConfig(seats=("human", "human"), levels=("planner", "planner"), seed=3))
        async with app.run_test(size=size) as pilot:
            game = narrow(app.screen, GameShell)
            await pilot.press("1", "1")  # Player 1 draws twice: Player 2's turn
            await pilot.pause()
            handoff = app.screen
            assert isinstance(handoff, HandoffScreen) and handoff.seat == 1
            assert handoff.who.plain == "2 Player 2" and handoff.echo == "Player 1 chose: Draw a card"
            before = app.game.store.state
            await pilot.press("1")  # a digit neither lifts the hand-off nor chooses
            await pilot.pause()
            assert app.game.store.state is before and app.screen is handoff
            await pilot.press("enter")
            await pilot.pause()
            assert screen_of(app) is game and game.viewer == 1
            state = app.game.store.state
            names = _text(app, "nm-hand")
            assert all(card(c).name in names for c in state.players[1].hand)
            mine = {card(x).name for x in state.players[1].hand}
            assert not any(card(c).name in names for c in state.players[0].hand if card(c).name not in mine)
            log = _log(app)
            assert log.count("Player 1 draws 1 card.") == 2  # Player 1's draws, as Player 2 may see them
            assert not any(card(c).name in log for c in state.players[0].hand if card(c).name not in mine)
            await pilot.press("1", "1")  # Player 2 draws twice: back to Player 1
            await pilot.pause()
            back = app.screen
            assert isinstance(back, HandoffScreen) and back.seat == 0
            # since Player 1 last looked, in words anyone may read
            assert back.news.count("Player 2 draws 1 card.") == 2 and "— Player 2's turn." in back.news
            await pilot.press("enter")
            await pilot.pause()
            log = _log(app)  # Player 1's own log, as they left it: their cards named
            drawn = [card(c).name for c in app.game.store.state.players[0].hand[-2:]]
            assert all(f"Player 1 draws {name}." in log for name in drawn)
            assert log.count("Player 2 draws 1 card.") == 2

    asyncio.run(go())


def test_a_play_from_the_options_builds_a_creature(tmp_path) -> None:
    async def go() -> None:
        app = _app(tmp_path, NightmariumConfig(seats=("human", "bot"), levels=("planner", "random"), seed=5))
        async with app.run_test(size=(80, 24)) as pilot:
            options = app.screen._shown[1]
            index = next(i for i, a in enumerate(options) if isinstance(a, Play) and a.part == "legs")
            assert Draw() in options and index < 9
            await pilot.press(str(index + 1))
            await pilot.pause()
            state = app.game.store.state
            assert len(state.players[0].creatures) == 1 and state.actions_left == 1
            assert "1:" in _text(app, "nm-players")

    asyncio.run(go())
