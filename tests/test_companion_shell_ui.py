"""The shared shell in each companion game (Cathedral, Nightmarium, Dreamers and Nightmares),
driven by Pilot at 80x24 and 120x40: the same keys as Nightmare Cathedral's game screen (t the
timeline and a jump back, u undo, r redo, s save, o load, ? help, R the game's own rules at the
decision due, q save and quit), the same log widget and footer."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from nctui.games.cathedral.state import CathedralConfig
from nctui.games.dreamers.state import DreamersConfig
from nctui.games.nightmarium.state import NightmariumConfig
from nctui.platform import registry, saves
from nctui.ui.screens.help import HelpScreen
from nctui.ui.screens.load import LoadScreen
from nctui.ui.screens.rules import RulesScreen
from nctui.ui.screens.save import SaveScreen
from nctui.ui.screens.shell import GameShell
from nctui.ui.screens.timeline import TimelineList, TimelineScreen
from nctui.ui.widgets.footer import KeyFooter
from nctui.ui.widgets.log import GameLog
from tests.helpers import app_settled, companion_app, settle

# Each game against a computer player, and the key that takes the person's first decision.
GAMES: dict[str, tuple[Any, str]] = {
    "cathedral": (CathedralConfig(seats=("human", "bot"), levels=("strong", "random"), seed=4), "enter"),
    "nightmarium": (NightmariumConfig(seats=("human", "bot"), levels=("planner", "random"), seed=5), "1"),
    "dreamers": (DreamersConfig(seats=("human", "bot"), levels=("gambler", "random"), seed=5), "1"),
}
SIZES = [(80, 24), (120, 40)]


def _app(tmp_path, game_id: str):
    config, _ = GAMES[game_id]
    return companion_app(tmp_path, registry.game(game_id), config)


async def _my_turn(pilot) -> None:
    """Until the person decides and no computer player thinks."""
    game = pilot.app.game
    assert await settle(pilot, lambda: game.deciding_seat() == 0 and game.thinking is None)
    await app_settled(pilot.app)


async def _back_to_the_game(pilot) -> None:
    assert await settle(pilot, lambda: isinstance(pilot.app.screen, GameShell))
    await app_settled(pilot.app)


def _log(app) -> str:
    return "\n".join(strip.text for strip in app.screen.query_one(GameLog).lines)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_undo_redo_and_the_timeline_jump_back(tmp_path, game_id, size) -> None:
    async def go() -> None:
        app = _app(tmp_path, game_id)
        _, key = GAMES[game_id]
        async with app.run_test(size=size) as pilot:
            await _my_turn(pilot)
            screen = app.screen
            assert isinstance(screen, GameShell) and screen.query(KeyFooter)
            await pilot.press(key)
            assert await settle(pilot, lambda: app.game.state_id >= 1)
            await _my_turn(pilot)
            reached = app.game.state_id
            assert "undone" not in _log(app)
            await pilot.press("u")
            assert await settle(pilot, lambda: app.game.state_id == 0)
            await app_settled(pilot.app)
            assert "↶ undone: back to decision 0" in _log(app)  # the shared log says so
            await pilot.press("r")
            assert await settle(pilot, lambda: app.game.state_id == reached)
            await pilot.press("t")
            await pilot.pause()
            timeline = app.screen
            assert isinstance(timeline, TimelineScreen)
            assert timeline.query_one("#timeline-list", TimelineList).option_count == reached + 1
            await pilot.press("home", "enter")  # the start of the game
            await _back_to_the_game(pilot)
            assert app.screen is screen and app.game.state_id == 0
            assert app.game.can_redo()  # the jump back keeps the way forward

    asyncio.run(go())


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_help_and_the_games_own_rules_at_the_decision_due(tmp_path, game_id, size) -> None:
    async def go() -> None:
        app = _app(tmp_path, game_id)
        entry = registry.entry(game_id)
        async with app.run_test(size=size) as pilot:
            await _my_turn(pilot)
            screen = app.screen
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            assert app.screen.text.startswith(f"[b]{entry.title} — keys[/b]")
            assert "the timeline" in app.screen.text and "Save & quit" not in app.screen.text
            await pilot.press("escape")
            await _back_to_the_game(pilot)
            await pilot.press("R")
            await pilot.pause()
            rules = app.screen
            assert isinstance(rules, RulesScreen) and rules.ref == entry.rules
            assert rules.summary.title.startswith(entry.title)
            topic, note = screen.decision_topic()
            assert rules.shown == topic and note is not None and note.startswith("The decision due")
            await pilot.press("q")
            await _back_to_the_game(pilot)
            assert app.screen is screen

    asyncio.run(go())


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_s_saves_o_loads_and_q_saves_and_quits(tmp_path, game_id, size) -> None:
    async def go() -> None:
        app = _app(tmp_path, game_id)
        _, key = GAMES[game_id]
        async with app.run_test(size=size) as pilot:
            await _my_turn(pilot)
            await pilot.press(key)
            assert await settle(pilot, lambda: app.game.state_id >= 1)
            await _my_turn(pilot)
            await pilot.press("s")
            await pilot.pause()
            assert isinstance(app.screen, SaveScreen)
            assert app.screen.default.startswith(f"{game_id}-")
            await pilot.press("enter")
            await _back_to_the_game(pilot)
            assert any(m.startswith("Saved to") for m in app.seen)
            await pilot.press("o")
            await pilot.pause()
            assert isinstance(app.screen, LoadScreen)
            await pilot.press("escape")
            await _back_to_the_game(pilot)
            reached = app.game.state_id
            await pilot.press("q")
            await pilot.pause()
        assert not app.is_running
        listing = [item for item in saves.list_games(tmp_path) if item.game == game_id]
        named = [item for item in listing if item.path.name.startswith(f"{game_id}-")]
        assert len(named) == 1 and len(listing) == 2  # the save under a name, and the autosave
        autosave = next(item for item in listing if item is not named[0])
        assert saves.load(autosave.path).store.state_id == reached

    asyncio.run(go())
