"""Issue 39.10: 120x40 uses its room. The decision's options take one row each, two only where
their text wraps; the Players panel never cuts a card's name. Pilot at 80x24 and 120x40."""

from __future__ import annotations

import asyncio

import pytest
from rich.text import Text
from textual.app import App

from nctui.games.nightmare_cathedral.bots import RandomBot
from nctui.games.nightmare_cathedral.describe import words_for
from nctui.games.nightmare_cathedral.engine import GameConfig, player_view
from nctui.games.nightmare_cathedral.ui.widgets.players import PlayersView
from nctui.platform.store import Store
from nctui.ui.app import create_app
from nctui.ui.screens.handoff import HandoffScreen
from nctui.ui.widgets.decision import DecisionPanel, Prompt
from nctui.ui.widgets.tabs import PanelTabs
from tests.helpers import app_settled, nc_screen, play_by_keys, present
from tests.test_solo_setup import solo_setup

SIZES = [(80, 24), (120, 40)]
HOTSEAT = GameConfig(players=2, seats=("human", "human"), seed=42)
LONG = "an option whose words are longer than the panel is wide, so that they take a second row"


def run(coro):
    return asyncio.run(coro)


class Host(App):
    """A decision panel 50 columns wide (the options column at 120x40) and 8 rows, showing
    ``options`` under ``title``; ``chosen``: the options chosen in it."""

    def __init__(self, title: str, options: tuple[str, ...]) -> None:
        super().__init__()
        self.prompt = Prompt(key=1, title=Text(title), options=options)
        self.chosen: list[int] = []

    def on_decision_panel_chosen(self, message: DecisionPanel.Chosen) -> None:
        self.chosen.append(message.index)

    def compose(self):
        panel = DecisionPanel()
        panel.styles.width, panel.styles.height = 50, 8
        yield panel

    def on_mount(self) -> None:
        self.query_one(DecisionPanel).prompt = self.prompt


def _rows(panel: DecisionPanel) -> list[str]:
    return panel.render().plain.split("\n")


def test_a_short_option_takes_one_row_and_only_a_long_one_two():
    """Five options, one long, in 8 rows: one page (each option took 2 rows: 10 rows, 2 pages)."""
    options = ("Ash Nave", LONG, "Bone Cloister", "Salt Spire", "Bell Hollow")

    async def go():
        app = Host("Move a Follower", options)
        async with app.run_test(size=(80, 20)) as pilot:
            await app_settled(app)
            panel = app.query_one(DecisionPanel)
            assert [panel.rows_of(k) for k in range(5)] == [1, 2, 1, 1, 1]
            assert panel.pages() == 1 and panel.page_size() == 5
            rows = _rows(panel)
            assert rows[0] == "Move a Follower" and len(rows) == 1 + 6  # the title, 6 rows for 5 options
            assert rows[1].startswith(" 1 Ash Nave") and rows[2].startswith(" 2 an option")
            assert rows[4].startswith(" 3 Bone Cloister")
            await pilot.press("3")
            await pilot.click(DecisionPanel, offset=(6, 5))  # the row of option 4, under the long one's two
            await pilot.click(DecisionPanel, offset=(6, 3))  # the long one's second row
            await app_settled(app)
            assert app.chosen == [2, 3, 1]

    run(go())


def test_pages_hold_as_many_options_as_their_rows_allow():
    """Twelve options, every third long, in 8 rows: each page as full as its rows allow (a row
    kept for the page line); → turns to the next page's first option; the digits pick on it."""
    options = tuple(LONG if k % 3 == 1 else f"option {k}" for k in range(12))

    async def go():
        app = Host("Choose", options)
        async with app.run_test(size=(80, 20)) as pilot:
            await app_settled(app)
            panel = app.query_one(DecisionPanel)
            room = 8 - 1 - 1  # the title and the page line
            starts = [panel.page_start(p) for p in range(panel.pages())]
            assert starts[0] == 0 and starts == sorted(starts)
            for p, first in enumerate(starts):
                size = panel.page_size(p)
                used = sum(panel.rows_of(k) for k in range(first, first + size))
                assert used <= room
                if first + size < len(options):  # a page that is followed: the next option did not fit
                    assert used + panel.rows_of(first + size) > room
            assert sum(panel.page_size(p) for p in range(panel.pages())) == 12
            assert panel.pages() == 3  # 2 rows each: 4 pages of 3
            await pilot.press("right")
            await app_settled(app)
            assert panel.page() == 1 and panel.highlight == starts[1]
            assert "page 2 of 3" in panel.render().plain
            await pilot.press("2")
            await app_settled(app)
            assert app.chosen == [starts[1] + 1]

    run(go())


def _check_rows(panel: DecisionPanel) -> None:
    """The options shown take a row each, two where the text is wider than the panel."""
    prompt = present(panel.prompt)
    width = panel.size.width
    first, size = panel.page_start(), panel.page_size()
    for line in range(first, first + size):
        fits = Text(prompt.options[line]).cell_len + 3 <= width
        assert panel.rows_of(line) == (1 if fits else 2), prompt.options[line]
    title = len(panel._title_lines())
    shown = sum(panel.rows_of(k) for k in range(first, first + size))
    if panel.pages() > 1 and first + size < len(prompt.options):
        assert shown + panel.rows_of(first + size) > panel.size.height - title - 1, "a page with room left"
    rows = _rows(panel)
    assert rows[title].startswith(" 1 ") and (size == 1 or rows[title + panel.rows_of(first)].startswith(" 2 "))


@pytest.mark.parametrize("size", SIZES)
def test_the_options_of_a_game_take_the_rows_they_need(tmp_path, size):
    """Forty decisions of a hot-seat game: every option shown takes one row unless it wraps, and
    a page is followed by another only when its next option would not fit."""

    async def go():
        app = create_app(Store(HOTSEAT), save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await play_by_keys(app, pilot, 40, on_decision=_check_rows)

    run(go())


def _all_names(view) -> list[str]:
    """Every card name the Players panel shows: each display's top card, Dreams played, the
    King's Action cards."""
    state = view.state
    w = words_for(state.pack)
    king = state.king.seat if state.king is not None else -1
    names = [w.card(s[-1]) for p in state.players if p.seat != king for s in p.display if s]
    names += [w.card(c) for p in state.players for c in p.dreams_played]
    if state.king is not None:
        names += [c.name for c in w.pack.cards.king_actions]
        names += [w.card(c) for c in state.king.dreams]
    return names


def _with_dreams_played():
    """A hot-seat game in which someone has played a Dream (decision 147, random choices)."""
    store = Store(HOTSEAT)
    bot = RandomBot(4)
    while not any(p.dreams_played for p in store.state.players):
        d = present(store.state.decision)
        store.dispatch(bot.choose(player_view(store.state, d.seat)), seen_state_id=store.state_id, seat=d.seat)
    return store


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["solo", "hot-seat"])
def test_the_players_panel_shows_every_card_name_whole(tmp_path, size, game):
    """Issue 39.10: at 120x40 the King's card names were cut ('Power 0 · Day space c1 · The
    Unho…'): each card name is whole on one line of the panel, at both sizes."""
    from nctui.games.nightmare_cathedral.engine import StepResult

    store = Store(initial=StepResult(state=solo_setup(), events=())) if game == "solo" else _with_dreams_played()

    async def go():
        app = create_app(store, save_dir=tmp_path)
        async with app.run_test(size=size) as pilot:
            await app_settled(app)
            if isinstance(app.screen, HandoffScreen):
                await pilot.press("enter")
                await app_settled(app)
            screen = nc_screen(app)
            while screen.query_one(PanelTabs).shown != "players":  # 80x24: the panel is shown by Tab
                await pilot.press("tab")
                await app_settled(app)
            players = screen.query_one(PlayersView)
            assert players.content_width > 0
            lines = players.render().plain.split("\n")
            assert max(len(line) for line in lines) <= players.content_width
            for name in _all_names(present(players.view)):
                assert any(name in line for line in lines), name

    run(go())
