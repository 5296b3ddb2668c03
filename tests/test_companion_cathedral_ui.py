"""The Cathedral screen at 80x24 and 120x40, driven by Pilot: starting from the title screen,
placing the Cathedral and a building with the keyboard, the preview's refusal and its rule (R),
the computer's answer, undo, two people at one keyboard, saving and continuing."""

from __future__ import annotations

import asyncio

import pytest
from rich.text import Text
from textual.widgets import Static

from nctui.games.cathedral.pieces import CATHEDRAL
from nctui.games.cathedral.state import CathedralConfig, CathedralState
from nctui.games.cathedral.ui.screen import CathedralScreen
from nctui.platform import registry, saves
from nctui.ui.screens.options_new_game import CompanionNewScreen
from nctui.ui.screens.rules import RulesScreen
from nctui.ui.widgets.log import GameLog
from tests.helpers import companion_app, narrow, settle

GAME = registry.game("cathedral")


def status(app) -> str:
    """The status line of the Cathedral screen on top."""
    return narrow(app.screen.query_one("#cat-status", Static).content, Text).plain


def _app(tmp_path, config: CathedralConfig | None = None):
    return companion_app(tmp_path, GAME, config)


def _side(app) -> str:
    return app.screen.query_one("#cat-side-text").content.plain


def _city(app) -> str:
    return app.screen.query_one("#cat-city").content.plain


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_hot_seat_game_starts_from_the_title_and_places_with_the_keyboard(tmp_path, size) -> None:
    async def go() -> None:
        app = _app(tmp_path)
        async with app.run_test(size=size) as pilot:
            await pilot.press("a")
            await pilot.pause()
            assert isinstance(app.screen, CompanionNewScreen)
            await pilot.press("right", "right", "right")  # opponent: another person
            await pilot.press("down", "down", "down", "enter")  # Start
            await pilot.pause()
            assert isinstance(app.screen, CathedralScreen)
            assert "Light" in status(app)
            assert "Cathedral at E4: allowed" in _side(app)
            await pilot.press("enter")  # the Cathedral where the cursor is
            await pilot.pause()
            state: CathedralState = app.game.store.state
            assert state.buildings[0].id == CATHEDRAL and state.to_move == 1
            # Dark: the Academy (the first building), moved to the top-left corner, turned once
            await pilot.press("up", "up", "up", "left", "left", "left", "space")
            await pilot.pause()
            assert "Academy at B1: allowed" in _side(app)  # its top square; the turned shape starts at A1
            assert "<>" in _city(app)
            await pilot.press("enter")
            await pilot.pause()
            state = app.game.store.state
            assert [b.id for b in state.buildings] == [CATHEDRAL, "academy"] and state.to_move == 0
            assert "Ac" not in _city(app).split("\n")[0]  # the header row has letters only
            assert "ac" in _city(app)  # Dark's Academy drawn lower case

    asyncio.run(go())


def test_the_preview_says_why_a_placement_is_not_allowed_and_enter_does_nothing(tmp_path) -> None:
    async def go() -> None:
        app = _app(tmp_path, CathedralConfig(seats=("human", "human")))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")  # the Cathedral at D4 (its squares: E4, D5-F5, E6, E7)
            await pilot.pause()
            await pilot.press("2")  # Dark's second building: the Castle
            await pilot.pause()
            assert "Castle at D4: not allowed" in _side(app)  # its top-left square
            assert "not on another building" in _side(app)
            assert "XX" in _city(app)
            before = app.game.store.state
            await pilot.press("enter")
            await pilot.pause()
            assert app.game.store.state is before
            assert any("not on another building" in m for m in app.seen)

    asyncio.run(go())


def test_the_computer_answers_and_undo_takes_back_the_persons_move(tmp_path) -> None:
    async def go() -> None:
        app = _app(tmp_path, CathedralConfig(seats=("bot", "human"), levels=("greedy", "strong"), seed=4))
        async with app.run_test(size=(80, 24)) as pilot:
            # the computer placed the Cathedral
            assert await settle(pilot, lambda: app.game.store.state.to_move == 1, 10)
            await pilot.pause()
            await pilot.press("down", "down", "down", "down", "down", "enter")  # the Academy at D9
            assert await settle(pilot, lambda: len(app.game.store.state.buildings) == 3, 10)  # and Light answered
            await pilot.pause()
            assert "Dark (you): place a building" in status(app)
            await pilot.press("u")
            await pilot.pause()
            assert await settle(pilot, lambda: len(app.game.store.state.buildings) == 1, 5)

    asyncio.run(go())


def test_q_saves_and_the_game_continues_from_its_autosave(tmp_path) -> None:
    async def go() -> None:
        app = _app(tmp_path, CathedralConfig(seats=("human", "human")))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
        listing = [item for item in saves.list_games(tmp_path) if item.game == "cathedral"]
        assert len(listing) == 1 and listing[0].summary is not None and not listing[0].summary.finished
        loaded = saves.load(listing[0].path)
        assert loaded.store.state.buildings[0].id == CATHEDRAL

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_two_people_share_the_screen_with_no_hand_off(tmp_path, size) -> None:
    """Nothing of Cathedral is hidden: two people at one keyboard place in turn on one screen (no
    hand-off to pass through), the one placing is the one looking, and both read the same log."""

    async def go() -> None:
        app = _app(tmp_path, CathedralConfig(seats=("human", "human")))
        async with app.run_test(size=size) as pilot:
            screen = app.screen
            await pilot.press("enter")  # Light's Cathedral
            await pilot.pause()
            assert app.screen is screen and screen.viewer == 1
            assert "Dark (Player 2): place a building" in status(app)
            await pilot.press("up", "up", "up", "left", "left", "left", "space", "enter")  # Dark's Academy
            await pilot.pause()
            assert app.screen is screen and screen.viewer == 0 and len(app.game.store.state.buildings) == 2
            log = "\n".join(strip.text for strip in screen.query_one(GameLog).lines)
            assert "Cathedral" in log and "Academy" in log

    asyncio.run(go())


def test_a_refused_placement_opens_its_rule_with_R(tmp_path) -> None:
    async def go() -> None:
        app = _app(tmp_path, CathedralConfig(seats=("human", "human")))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter", "2", "enter")  # the Cathedral, then Dark's Castle on top of it
            await pilot.pause()
            assert any("Press R for the rule" in m for m in app.seen)
            await pilot.press("R")
            await pilot.pause()
            rules = app.screen
            assert isinstance(rules, RulesScreen) and rules.shown == "placing"
            assert rules.note is not None and rules.note.startswith("Not allowed: Rule 2")

    asyncio.run(go())
