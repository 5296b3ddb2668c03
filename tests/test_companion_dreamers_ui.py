"""The dice game's screen driven by Pilot at 80x24 and 120x40: from the title screen, a turn
chosen with digits (track, returns, resolve, rest) against a computer player."""

from __future__ import annotations

import asyncio

import pytest

from nctui.games.dreamers.state import DreamersConfig
from nctui.games.dreamers.ui.screen import DreamersScreen
from nctui.platform import registry
from nctui.ui.screens.options_new_game import CompanionNewScreen
from tests.helpers import companion_app, plain, settle

DREAMERS = registry.game("dreamers")


def _app(tmp_path, config: DreamersConfig | None = None):
    return companion_app(tmp_path, DREAMERS, config)


def _text(app, name: str) -> str:
    return plain(app, name)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_turn_from_the_title_against_the_computer(tmp_path, size) -> None:
    async def go() -> None:
        app = _app(tmp_path)
        async with app.run_test(size=size) as pilot:
            await pilot.press("d")
            await pilot.pause()
            assert isinstance(app.screen, CompanionNewScreen)
            await pilot.press("up", "enter")  # Start: you and one computer
            await pilot.pause()
            assert isinstance(app.screen, DreamersScreen)
            assert "Bag: D 20  E 20  I 20  F 20" in _text(app, "dr-table")
            await pilot.press("1")  # Light Sleep: four dreams drawn
            await pilot.pause()
            state = app.game.store.state
            assert state.phase == "return" and len(state.drawn) == 4
            assert "Drawn:" in _text(app, "dr-card")
            await pilot.press("1")
            await pilot.pause()
            await pilot.press("1")  # two returned: two rolled
            await pilot.pause()
            assert app.game.store.state.phase == "roll" and "Rolled:" in _text(app, "dr-card")
            await pilot.press("1")  # Resolve
            await pilot.pause()
            # the person's decisions (the first option each time: Rest comes before Dream Again)
            # until the computer has played a turn and it is the person's again; on the
            # computer's turn the person may have to decide too (its Shadow of Envy)
            game = app.game

            def my_turn_again() -> bool:
                state = game.store.state
                return state.phase == "over" or (state.turns >= 2 and state.turn == 0)

            for _ in range(60):
                if my_turn_again():
                    break
                if game.deciding_seat() == 0:
                    await pilot.press("1")
                await pilot.pause(0.05)
            assert await settle(pilot, my_turn_again)
            assert any(m.startswith("Chosen: ") for m in app.seen)

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_two_people_share_the_screen_with_no_hand_off(tmp_path, size) -> None:
    """Nothing of the dice game is hidden: two people at one keyboard decide in turn on one screen
    (no hand-off), the one deciding is the one looking and has the options."""

    async def go() -> None:
        app = _app(tmp_path, DreamersConfig(seats=("human", "human"), levels=("gambler", "gambler"), seed=5))
        async with app.run_test(size=size) as pilot:
            screen = app.screen
            for _ in range(60):
                if app.game.deciding_seat() != 0:
                    break
                await pilot.press("1")
                await pilot.pause()
                assert app.screen is screen  # never a hand-off
            assert app.game.deciding_seat() == 1
            await pilot.pause()
            assert app.screen is screen and screen.viewer == 1 and screen.options()
            assert "Player 2" in _text(app, "dr-status")

    asyncio.run(go())
