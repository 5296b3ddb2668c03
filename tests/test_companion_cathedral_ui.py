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
from tests.helpers import app_settled, companion_app, narrow, settle

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
            # Dark: the Academy (the first building) starts where it may go, not on the Cathedral
            assert "Academy at E2: allowed" in _side(app) and "++" in _city(app)
            # moved to the top-left corner, turned once: it turns in place, about its middle square
            await pilot.press(*["up"] * 5, *["left"] * 5)
            await pilot.pause()
            assert "Academy at B1: allowed" in _side(app)  # its top square
            await pilot.press("space")
            await pilot.pause()
            assert "Academy at B1, turned once: allowed" in _side(app)
            rows = _city(app).split("\n")[1:]
            assert all("<>" not in row[3 + 6 :] for row in rows) and all("<>" not in row for row in rows[3:])
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
            await pilot.press("2")  # Dark's second building: the Castle, moved onto the Cathedral
            await pilot.press(*["up"] * 9, *["left"] * 9, *["down"] * 3, *["right"] * 3)
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
            await app_settled(pilot.app)
            await pilot.press("down", "down", "down", "down", "down", "enter")  # the Academy at D9
            assert await settle(pilot, lambda: len(app.game.store.state.buildings) == 3, 10)  # and Light answered
            await app_settled(pilot.app)
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
            # the Cathedral, then Dark's Castle on top of it
            await pilot.press("enter", "2", *["up"] * 9, *["left"] * 9, *["down"] * 3, *["right"] * 3, "enter")
            await pilot.pause()
            assert any("Press R for the rule" in m for m in app.seen)
            await pilot.press("R")
            await pilot.pause()
            rules = app.screen
            assert isinstance(rules, RulesScreen) and rules.shown == "placing"
            assert rules.note is not None and rules.note.startswith("Not allowed: Rule 2")

    asyncio.run(go())


# -- issue 39, companion games: what a new player trips on -------------------------------------------


def _play_to_the_end(app, rng) -> None:
    """Any allowed placements for the people's seats until the series is over (the computer's
    seats play on the session's thread)."""
    from nctui.games.cathedral import rules

    game = app.game
    seat = game.deciding_seat()
    if seat is not None and not game.is_computer(seat):
        state = game.store.state
        game.send(rng.choice(rules.legal_actions(state)), seen_state_id=game.state_id, seat=seat)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_city_has_a_legend_and_the_buildings_say_squares_and_copies(tmp_path, size) -> None:
    """Issue 39 (Cathedral): beside the city, what <>, XX, ++, the letters' case and --/~~ mean;
    'Tavern 1sq, 2 left' is a building's squares and its copies (not '1x2', read as a size); ?
    names every building's two letters."""

    async def go() -> None:
        app = _app(tmp_path, CathedralConfig(seats=("human", "human")))
        async with app.run_test(size=size) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            side = _side(app)
            for glyph in ("<> may go here", "XX may not", "++ the Cathedral", "Ab Light", "ab Dark"):
                assert glyph in side
            assert "-- Light's land" in side and "~~ Dark's" in side
            assert "Tavern 1sq, 2 left" in side and "Academy 5sq" in side and "1x2" not in side
            # each entry on one line, never split
            assert all(not line.rstrip().endswith(("Tavern", "Inn", "Stable")) for line in side.split("\n"))
            await pilot.press("question_mark")
            await pilot.pause()
            helped = app.screen.query_one("#help-text").content
            helped = narrow(helped, Text).plain if isinstance(helped, Text) else str(helped)
            assert "Ta Tavern" in helped and "If Infirmary" in helped and "underlined" in helped

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_next_preview_leaves_the_building_just_placed_in_sight(tmp_path, size) -> None:
    """Issue 39 (Cathedral): after a placement the next building's preview starts at the nearest
    place it may go, so the building just placed shows whole (underlined); moved over a building,
    the preview keeps that building's letters (in red), never hides them under XX."""

    async def go() -> None:
        app = _app(tmp_path, CathedralConfig(seats=("human", "human")))
        async with app.run_test(size=size) as pilot:
            await pilot.press("enter")  # the Cathedral: 6 squares
            await pilot.pause()
            assert _city(app).count("++") == 6 and "allowed (Enter places it)" in _side(app)
            await pilot.press("enter")  # Dark's Academy where the preview started
            await pilot.pause()
            assert _city(app).count("ac") == 5 and _city(app).count("++") == 6
            assert "allowed (Enter places it)" in _side(app)  # Light's preview where it may go
            await pilot.press(*["up"] * 9, *["left"] * 9, *["down"] * 3, *["right"] * 3)  # over the Cathedral
            await pilot.pause()
            assert "not allowed" in _side(app) and _city(app).count("++") == 6

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_turning_four_times_brings_a_building_back_to_its_squares(tmp_path, size) -> None:
    """Issue 39 (Cathedral): a building turns about its middle square (it used to swing about
    its top-left corner): four turns end on the squares it started on; every turn shares a
    square with the one before."""

    async def go() -> None:
        app = _app(tmp_path, CathedralConfig(seats=("human", "human")))
        async with app.run_test(size=size) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            screen = narrow(app.screen, CathedralScreen)
            for number in range(1, 12):
                await pilot.press(str(number) if number < 10 else "tab")
                await pilot.press(*["up"] * 9, *["left"] * 9, *["down"] * 4, *["right"] * 5)  # away from the walls
                await pilot.pause()
                first = last = screen._facts().mask(screen._action())
                for _ in range(4):
                    await pilot.press("space")
                    await pilot.pause()
                    now = screen._facts().mask(screen._action())
                    assert now & last, screen.building
                    last = now
                assert last == first, screen.building

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_enter_on_any_row_of_the_new_game_screen_starts_the_game(tmp_path, size) -> None:
    """Issue 39 (Cathedral): the footer says "Enter starts": Enter on "Opponent" starts the game
    with the settings shown (it used to change the opponent); ←/→ change."""

    async def go() -> None:
        app = _app(tmp_path)
        async with app.run_test(size=size) as pilot:
            await pilot.press("a")
            await pilot.pause()
            assert isinstance(app.screen, CompanionNewScreen)
            await pilot.press("left", "enter")  # the opponent: another person; Enter on that row
            await pilot.pause()
            assert isinstance(app.screen, CathedralScreen)
            assert app.game.config.seats == ("human", "human")

    asyncio.run(go())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("games", [1, 2])
def test_the_end_says_who_had_light_and_dark_and_why_they_won(tmp_path, size, games) -> None:
    """Issue 39 (Cathedral): the result names the sides as the game does (Light and Dark) with
    who played them ("you", "the computer"), each side's squares left and the rule that decides;
    a series adds each player's points (it used to say only "Player 2 wins the series")."""
    import random

    async def go() -> None:
        config = CathedralConfig(seats=("human", "bot"), levels=("strong", "random"), games=games, seed=3)
        app = _app(tmp_path, config)
        rng = random.Random(games)
        async with app.run_test(size=size) as pilot:
            done = lambda: app.game.store.state.outcome is not None  # noqa: E731
            while not done():
                _play_to_the_end(app, rng)
                await settle(pilot, lambda: done() or not app.game.is_computer(app.game.deciding_seat()))
            await app_settled(pilot.app)
            state: CathedralState = app.game.store.state
            side = _side(app)
            assert state.outcome is not None
            assert "Game 1: Light (you)" in side and "Dark (the computer)" in side
            assert "squares left" in side and "(rule 7: " in side
            if games == 2:
                assert "Game 2: Light (the computer)" in side and "Dark (you)" in side
                assert "The series is over: you " in side and "the fewest wins, rule 8" in side
            else:
                assert "The game is over:" in side
            assert "Player 1" not in side and "Player 2" not in side
            assert "you won" in status(app) or "the computer won" in status(app) or "a draw" in status(app)
            # the log names the sides as the screen does (it said "Player 1 played Light, Player 2 Dark")
            log = "\n".join(str(line) for line in app.screen.query_one(GameLog)._written)
            assert "Player 1" not in log and "Player 2" not in log
            if games == 2:
                assert "Game 2: Light (the computer) places the Cathedral; Dark (you) moves first." in log
                assert "The series is over: you " in log
            else:
                assert "Light was you, Dark the computer: " in log

    asyncio.run(go())


def test_cathedral_legend_snapshot(snap_compare, tmp_path) -> None:
    """Issue 39 (Cathedral): the city with its legend, the buildings with their squares and
    copies, the preview where it may go beside the building just placed (hot seat, 80x24)."""
    from nctui.platform.session import new_session
    from nctui.ui.app import create_app

    session = new_session(CathedralConfig(seats=("human", "human")), game=GAME, folder=tmp_path, autosave=False)

    async def three_placements(pilot) -> None:
        await pilot.press("enter")  # the Cathedral
        await pilot.pause()
        await pilot.press("enter")  # Dark's Academy where the preview starts
        await pilot.pause()
        await pilot.press("enter")  # Light's Academy
        await pilot.pause()

    app = create_app(session, save_dir=tmp_path, bot_delay=0.0)
    assert snap_compare(app, terminal_size=(80, 24), run_before=three_placements)
