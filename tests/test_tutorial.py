"""The guided first game (issue 12): from the Title screen (t) or `nctui tutorial`, Red against a
computer Blue on a fixed seed, each decision explained beside the board; followed to its end,
then left with Escape for the Title screen. Pilot at 80x24 and 120x40."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from nctui.games.nightmare_cathedral.describe.tutorial import EXPLAIN, INTRO, done, now, tutorial_lines
from nctui.games.nightmare_cathedral.ui.screens.tutorial import TutorialScreen
from nctui.platform import registry
from nctui.ui.app import NctuiApp
from nctui.ui.screens.title import TitleScreen
from nctui.ui.widgets.decision import DecisionPanel
from tests.helpers import present


def _panel(app) -> str:
    return str(app.screen.query_one("#tutorial", Static).render())


async def _settle(pilot, app) -> None:
    """Wait for the computer player's moves (no delay) to be drawn."""
    for _ in range(50):
        await pilot.pause()
        game = app.game
        if game is None or game.deciding_seat() != 1:
            return
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_tutorial_is_followed_to_its_end_and_left_with_escape(tmp_path, size):
    async def go():
        app = NctuiApp(None, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            await pilot.press("t")
            await _settle(pilot, app)
            assert isinstance(app.screen, TutorialScreen)
            assert INTRO in _panel(app)
            explained = set()
            for _ in range(400):
                if "Tutorial complete" in _panel(app):
                    break
                state = present(app.game).view(0).state
                if state.decision is not None and state.decision.seat == 0:
                    explained.add(state.decision.kind)
                    assert EXPLAIN[state.decision.kind][:40] in " ".join(_panel(app).split()), state.decision.kind
                    assert f"Now: {now(state, 0)[:30]}" in " ".join(_panel(app).split())
                    panel = app.screen.query_one(DecisionPanel)
                    panel.focus()
                    await pilot.press("1")
                await _settle(pilot, app)
            assert "Tutorial complete" in _panel(app)
            assert {"conquer", "place_dreamer", "choose_day", "react"} <= explained
            assert present(app.game).store.state.players[0].turns == 2
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen) and app.game is None
            assert not list(tmp_path.rglob("*.nctui.json"))  # the tutorial is not kept

    asyncio.run(go())


def test_escape_leaves_the_tutorial_at_once(tmp_path):
    async def go():
        app = NctuiApp(None, save_dir=tmp_path, bot_delay=0)
        app.open_tutorial = True  # `nctui tutorial`
        async with app.run_test(size=(80, 24)) as pilot:
            await _settle(pilot, app)
            assert isinstance(app.screen, TutorialScreen)
            await pilot.press("b")  # the board cursor: Escape goes back to the options first
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TutorialScreen) and isinstance(app.focused, DecisionPanel)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)

    asyncio.run(go())


def test_nctui_tutorial_is_a_command():
    from nctui.cli import build_parser, main

    assert build_parser().parse_args(["tutorial"]).command == "tutorial"
    assert main(["tutorial", "--help"]) == 0


def test_every_decision_of_the_scenario_is_explained_by_its_kind_and_in_this_game():
    """The fixed scenario, its first option each time: no decision falls back to the generic
    words, and each says what it means here ("Now: Blue performs Maneuver; …")."""
    from nctui.games.nightmare_cathedral.engine import new_game, player_view
    from nctui.games.nightmare_cathedral.engine.flow import step
    from nctui.games.nightmare_cathedral.ui.screens.tutorial import TUTORIAL

    NIGHTMARE_CATHEDRAL = registry.game("nightmare-cathedral")

    state, bot = new_game(TUTORIAL).state, NIGHTMARE_CATHEDRAL.bot(TUTORIAL, 1)
    met = []
    while not done(state, 0):
        d = present(state.decision)
        if d.seat == 0:
            view = player_view(state, 0).state
            lines = tutorial_lines(view, 0)
            assert d.kind in EXPLAIN and EXPLAIN[d.kind] in lines[-2], d.kind
            assert lines[-1].startswith("Now: ") and len(lines[-1]) > 20, d.kind
            met.append((d.kind, lines[-1]))
        state = step(state, d.options[0] if d.seat == 0 else bot.choose(player_view(state, 1))).state
    kinds = {k for k, _ in met}
    assert {"conquer", "place_dreamer", "react", "choose_day", "climb", "build_fort_level"} <= kinds
    assert any("Blue performs" in line for k, line in met if k == "react")
