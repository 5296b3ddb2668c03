"""The Nightmarium screen driven by Pilot at 80x24 and 120x40: from the title screen, a game
against a computer player; options chosen by digit and Enter; hot-seat hands under a cover that a
digit does not lift."""

from __future__ import annotations

import asyncio

import pytest

from nctui.games.nightmarium.cards import card
from nctui.games.nightmarium.state import Draw, NightmariumConfig, Play
from nctui.games.nightmarium.ui.screen import NightmariumScreen
from nctui.platform import registry
from nctui.ui.screens.options_new_game import CompanionNewScreen
from tests.helpers import companion_app, plain, settle

NIGHTMARIUM = registry.game("nightmarium")


def _app(tmp_path, config: NightmariumConfig | None = None):
    return companion_app(tmp_path, NIGHTMARIUM, config)


def _text(app, name: str) -> str:
    return plain(app, name)


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


def test_hot_seat_hands_stay_covered_until_enter(tmp_path) -> None:
    async def go() -> None:
        app = _app(tmp_path, NightmariumConfig(seats=("human", "human"), levels=("planner", "planner"), seed=3))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("1", "1")  # Player 1 draws twice: Player 2's turn
            await pilot.pause()
            screen = app.screen
            assert screen.has_class("-covered") and "Player 2, take the keyboard" in _text(app, "nm-cover")
            before = app.game.store.state
            await pilot.press("1")  # a digit neither lifts the cover nor chooses
            await pilot.pause()
            assert app.game.store.state is before and screen.has_class("-covered")
            await pilot.press("enter")
            await pilot.pause()
            assert not screen.has_class("-covered")
            names = _text(app, "nm-hand")
            assert all(card(c).name in names for c in app.game.store.state.players[1].hand)
            assert not any(
                card(c).name in names
                for c in app.game.store.state.players[0].hand
                if card(c).name not in {card(x).name for x in app.game.store.state.players[1].hand}
            )

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
