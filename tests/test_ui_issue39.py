"""What a new player trips on (issue 39), each at 80x24 and 120x40 with Pilot."""

from __future__ import annotations

import asyncio

import pytest

from nctui.games.nightmare_cathedral.engine import StepResult
from nctui.games.nightmare_cathedral.ui.widgets.hand import HandView
from nctui.platform.store import Store
from nctui.ui.app import create_app
from nctui.ui.widgets.decision import DecisionPanel
from tests.helpers import app_settled
from tests.test_king_conflict import area0, shape, start
from tests.test_solo_setup import solo_setup

SIZES = [(80, 24), (120, 40)]


def run(coro):
    return asyncio.run(coro)


def _flat(text: str) -> str:
    """The words of a panel with its wrapping undone."""
    return " ".join(text.split())


def _king_revealed():
    """Solo: you control the area, so the King's cards are revealed before you play yours."""
    state = solo_setup()
    a = area0(state)
    return start(shape(state, a, you=2, king=1, hand=("basic-combat", "basic-combat")), a)


@pytest.mark.parametrize("size", SIZES)
def test_the_card_decision_shows_the_kings_revealed_cards_and_both_sides(tmp_path, size):
    """Issue 39.1: CONFLICTS 2 / solo RESOLVING CONFLICTS AGAINST THE KING: you play after
    seeing the King's cards, so the decision names them, beside both sides' units."""

    async def go():
        app = create_app(Store(initial=StepResult(state=_king_revealed(), events=())), save_dir=tmp_path)
        async with app.run_test(size=size):
            await app_settled(app)
            text = _flat(app.screen.query_one(DecisionPanel).render().plain)
            assert "Red 2 Followers vs King 1 Follower" in text
            assert "King: Grasp of the King (1⚔ 0⛨), revealed" in text
            assert "in this conflict: Grasp of the King 1⚔ 0⛨" in _flat(app.screen.query_one(HandView).render().plain)

    run(go())


def test_conflict_decision_snapshot(snap_compare, tmp_path):
    """Issue 39.1: the card decision of a solo conflict, the King's cards revealed."""
    app = create_app(Store(initial=StepResult(state=_king_revealed(), events=())), save_dir=tmp_path)
    assert snap_compare(app, terminal_size=(80, 24))


@pytest.mark.parametrize("size", SIZES)
def test_the_rules_screen_settles_after_a_burst_of_downs(tmp_path, size):
    """Issue 39.2: five Downs in one burst (a held arrow key) end on the fifth section below,
    shown, and the screen then stays still (it used to flip between two sections forever)."""
    from nctui.ui.screens.rules import ContentsList, RulesScreen

    async def go():
        app = create_app(Store(initial=StepResult(state=_king_revealed(), events=())), save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            await pilot.press("R")
            await app_settled(app)
            screen = app.screen
            assert isinstance(screen, RulesScreen)
            contents = screen.query_one(ContentsList)
            start = contents.highlighted or 0
            for _ in range(5):
                contents.action_cursor_down()  # one burst: no message handled in between
            await app_settled(app)
            assert contents.highlighted == start + 5
            assert screen.shown == contents.get_option_at_index(start + 5).id

    run(go())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("keys", [("end",), ("pagedown",) * 6, ("down",) * 80, ("j",) * 80])
def test_the_help_scrolls_to_its_end(tmp_path, size, keys):
    """Issue 39.3: the help is taller than 80x24; Down, PgDn, End and j reach its last line."""
    from nctui.ui.screens.help import HelpScreen
    from nctui.ui.textual_ext.placed import ReadingPane

    async def go():
        app = create_app(Store(initial=StepResult(state=_king_revealed(), events=())), save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            await pilot.press("question_mark")
            await app_settled(app)
            assert isinstance(app.screen, HelpScreen)
            box = app.screen.query_one(ReadingPane)
            await pilot.press(*keys)
            await app_settled(app)
            assert box.scroll_y == box.max_scroll_y and (size[1] > 24 or box.max_scroll_y > 0)
            assert "Press ? or q (or Escape) to close." in app.screen.query_one("#help-text").render().plain

    run(go())
