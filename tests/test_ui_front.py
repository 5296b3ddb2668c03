"""The screens before the game (Title, New game, Load) and the app's flow between them, driven
by Pilot at 80x24."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.widgets import Input, OptionList

from nctui.games.nightmare_cathedral.engine.config import DIFFICULTY_PRESETS, GameConfig
from nctui.games.nightmare_cathedral.ui.screens.game import GameScreen
from nctui.games.nightmare_cathedral.ui.screens.new_game import NewGameScreen
from nctui.platform import saves
from nctui.platform.store import Store
from nctui.ui.app import create_app
from nctui.ui.screens.load import LoadScreen
from nctui.ui.screens.title import TitleScreen
from tests.helpers import app_settled, narrow, wait_for

SIZE = (80, 24)
SEED = 2024


def run(coro):
    return asyncio.run(coro)


def _front(tmp_path):
    """The app of a bare ``nctui``, its notifications recorded in ``app.seen``."""
    app: Any = create_app(None, save_dir=tmp_path, bot_delay=0.01)  # Any: it gains an attribute, ``seen``
    app.seen = []
    app.notify = lambda message, **kw: app.seen.append(message)
    return app


def _value(app, name: str) -> str:
    return app.screen.query_one(f"#{name}").value


def _problems(app) -> str:
    return app.screen.query_one("#problems").content.plain


async def _to_new_game(pilot, seed: int = SEED) -> NewGameScreen:
    """From the Title screen to the New game screen, with a known seed."""
    await pilot.press("n")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, NewGameScreen)
    seed_box = screen.query_one("#seed", Input)
    seed_box.value = str(seed)
    await pilot.pause()
    return screen


async def _focus(pilot, name: str, limit: int = 20) -> None:
    """Move down the form with the arrow key until ``name`` has the focus."""
    for _ in range(limit):
        if pilot.app.focused is not None and pilot.app.focused.id == name:
            return
        await pilot.press("down")
    raise AssertionError(f"never reached #{name}; focus on {pilot.app.focused}")


async def _start(pilot) -> GameScreen:
    await pilot.press("ctrl+s")  # works in an input too (s types into one)
    await pilot.pause()
    assert not isinstance(pilot.app.screen, NewGameScreen), pilot.app.seen
    return pilot.app.game_screen()


async def _past_handoff(pilot) -> None:
    """Hot-seat: the keyboard is passed to the deciding person (the hand-off screen, if shown)."""
    await app_settled(pilot.app)
    if not isinstance(pilot.app.screen, GameScreen):
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, GameScreen), "the game after the hand-off")
    assert isinstance(pilot.app.screen, GameScreen)


# ------------------------------------------------------------------------------------------
# Title


def test_title_menu_keys(tmp_path):
    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            menu = app.screen.query_one("#menu", OptionList)
            assert app.focused is menu and menu.highlighted == 0
            assert menu.get_option("continue").disabled  # nothing saved yet, and it says so
            assert "no unfinished game" in menu.get_option("continue").prompt.plain
            # a line for each game (registry order), then Continue, Load, Finished games, Practice,
            # Tutorial, Rules, Quit
            ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
            assert ids == [
                "game:nightmare-cathedral",
                "game:cathedral",
                "game:nightmarium",
                "game:dreamers",
                "continue",
                "load",
                "finished",
                "practice",
                "tutorial",
                "rules",
                "quit",
            ]
            assert "Nightmare Cathedral — the board game" in menu.get_option_at_index(0).prompt.plain
            await pilot.press("j", "j", "j", "j")
            await pilot.pause()
            assert menu.highlighted == 5  # Continue is skipped while disabled
            await pilot.press("k", "down", "down")
            await pilot.pause()
            assert menu.highlighted == 6
            await pilot.press("c")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen) and "Nothing to continue" in app.seen[-1]
            await pilot.press("l")
            await pilot.pause()
            assert isinstance(app.screen, LoadScreen)
            await pilot.press("b")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            await pilot.press("up", "enter")  # Load again, by the highlight
            await pilot.pause()
            assert isinstance(app.screen, LoadScreen)
            await pilot.press("escape")
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, NewGameScreen)
            await pilot.press("b")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            await pilot.press("q")
            await pilot.pause()
        assert not app.is_running
        assert not list(tmp_path.iterdir())  # quitting the title writes nothing

    run(go())


def test_rules_item_asks_which_game_and_opens_its_rules(tmp_path):
    """Every game has a rules summary: r asks which game (its letter or Enter), Escape goes back."""
    from nctui.ui.screens.rules import RulesScreen
    from nctui.ui.screens.title import GamePicker

    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, GamePicker)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            await pilot.press("r", "a")  # Cathedral's
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen) and app.screen.summary.title.startswith("Cathedral")
            await pilot.press("q")
            await pilot.pause()
            await pilot.press("r", "enter")  # the first game's, by the highlight
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            assert app.screen.summary.title.startswith("Nightmare Cathedral")

    run(go())


def test_rules_item_says_so_when_the_rules_screen_is_missing(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "nctui.ui.screens.rules", None)  # the import fails as if absent

    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r", "n")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            assert "rules summary is not available" in app.seen[-1]

    run(go())


def test_ctrl_q_quits_the_title_at_once(tmp_path):
    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("ctrl+q")
            await pilot.pause()
        assert not app.is_running

    run(go())


# ------------------------------------------------------------------------------------------
# New game


def test_new_solo_game_with_a_difficulty_preset_and_a_modifier(tmp_path):
    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await _to_new_game(pilot)
            assert app.focused.id == "mode"
            assert not app.screen.query_one("#difficulty").display  # hot-seat: no difficulty
            await pilot.press("right")  # Solo against the King
            await pilot.pause()
            assert _value(app, "mode") == "solo"
            assert not app.screen.query_one("#players").display and not app.screen.query_one("#seat-0").display
            await _focus(pilot, "difficulty")
            await pilot.press("right")  # normal → hard
            await pilot.pause()
            assert _value(app, "difficulty") == "hard"
            assert _value(app, "mod-harder_powered_1") == "on" and _value(app, "mod-easier_ritual") == "off"
            await _focus(pilot, "mod-easier_ritual")
            await pilot.press("space")  # a modifier by itself: the preset becomes custom
            await pilot.pause()
            assert _value(app, "difficulty") == "custom"
            assert "custom difficulty" in _problems(app) and f"seed {SEED}" in _problems(app)
            game = await _start(pilot)
            config = app.store.state.config
            assert config.players == 1 and config.seats == ("human", "king") and config.seed == SEED
            assert config.difficulty == (*DIFFICULTY_PRESETS["hard"], "easier_ritual")
            assert game is app.game_screen() and len(app.screen_stack) == 1

    run(go())


def test_harder_powered_modifiers_exclude_each_other(tmp_path):
    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await _to_new_game(pilot)
            await pilot.press("right")
            await _focus(pilot, "mod-harder_powered_1")
            await pilot.press("enter")
            await pilot.press("down", "enter")  # harder_powered_2 on: 1 goes off (1 or 2, not both)
            await pilot.pause()
            assert _value(app, "mod-harder_powered_2") == "on" and _value(app, "mod-harder_powered_1") == "off"

    run(go())


def test_new_hot_seat_game_with_a_computer_seat(tmp_path):
    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await _to_new_game(pilot)
            assert not app.screen.query_one("#seat-2").display
            await pilot.press("down", "right")  # 3 players
            await pilot.pause()
            assert app.screen.query_one("#seat-2").display and not app.screen.query_one("#seat-3").display
            await _focus(pilot, "seat-2")
            await pilot.press("enter")  # Computer
            await _focus(pilot, "length")
            await pilot.press("l")  # Variable Length
            await pilot.press("down", "space")  # Divergent Paths on
            await pilot.press("down", "right", "right")  # Nightmares: the second suggested pair
            await pilot.pause()
            assert "2 players" not in _problems(app) and "3 players (1 computer)" in _problems(app)
            await _start(pilot)
            config = app.store.state.config
            assert config.players == 3 and config.seats == ("human", "human", "bot")
            assert config.length == "variable" and config.divergent_paths and config.nightmares == (3, 7)
            assert config.seed == SEED and config.difficulty == ()

    run(go())


def test_the_seed_is_shown_random_and_used(tmp_path):
    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n")
            await pilot.pause()
            shown = _value(app, "seed")
            assert shown.isdigit() and f"seed {shown}" in _problems(app)
            await pilot.press("b", "n")
            await pilot.pause()
            assert _value(app, "seed") != shown  # a new random seed each time
            await _focus(pilot, "seed")
            await pilot.press(*["backspace"] * 20, "7", "x", "7")  # only digits go in
            await pilot.pause()
            assert _value(app, "seed") == "77"
            await _start(pilot)
            assert app.store.state.config.seed == 77

    run(go())


def test_invalid_settings_get_a_message_and_nothing_is_lost(tmp_path):
    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await _to_new_game(pilot)
            await pilot.press("down", "right")  # 3 players
            await _focus(pilot, "nightmares")
            await pilot.press("left")  # Choose two numbers
            await pilot.pause()
            assert _value(app, "nightmares") == "choose"
            await _focus(pilot, "numbers")
            await pilot.press("3", ",", "3")
            await pilot.pause()
            assert "✗ Nightmares: type two different numbers from 1 to 8" in _problems(app)
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, NewGameScreen) and "need fixing" in app.seen[-1]
            assert _value(app, "numbers") == "3,3" and _value(app, "players") == "3"
            await pilot.press("backspace", "7")
            await pilot.pause()
            assert "✗" not in _problems(app)
            await _start(pilot)
            assert app.store.state.config.nightmares == (3, 7) and app.store.state.config.players == 3

    run(go())


def test_a_game_the_engine_refuses_says_why_and_stays(tmp_path):
    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            app.new_game(GameConfig(pack="no-such-pack"), seed=5)
            await pilot.pause()
            await pilot.press("s")
            await pilot.pause()
            assert isinstance(app.screen, NewGameScreen)
            assert "no such content pack" in _problems(app) and "no such content pack" in app.seen[-1]
            assert app.game is None

    run(go())


def test_start_again_replaces_the_game_and_keeps_its_settings(tmp_path):
    config = GameConfig(players=3, seats=("human", "bot", "human"), length="variable", nightmares=(4, 8), seed=1)

    async def go():
        app = create_app(config, save_dir=tmp_path, bot_delay=30)
        async with app.run_test(size=SIZE) as pilot:
            old = app.game_screen()
            app.new_game()  # what the game-over screen's "start again" calls
            await pilot.pause()
            assert isinstance(app.screen, NewGameScreen)
            assert _value(app, "players") == "3" and _value(app, "seat-1") == "bot"
            assert _value(app, "length") == "variable" and _value(app, "nightmares") == "strategic-end"
            assert _value(app, "seed") != "1"
            app.screen.query_one("#seed", Input).value = "99"
            await pilot.press("s")
            await pilot.pause()
            new = app.game_screen()
            assert new is not old and app.screen_stack == [new]
            assert app.store.state.config == GameConfig(
                players=3, seats=("human", "bot", "human"), length="variable", nightmares=(4, 8), seed=99
            )
            assert not old.is_attached  # the old game's screen is gone with its timers

    run(go())


# ------------------------------------------------------------------------------------------
# Continue and Load


def _saved_game(seed: int, decisions: int) -> Store:
    store = Store(GameConfig(seed=seed))
    for _ in range(decisions):
        store.dispatch(store.state.decision.options[0])
    return store


def _autosave(tmp_path, store: Store, game_id: str, when: float) -> Path:
    """``store`` as the autosave of game ``game_id``, last written at ``when`` (seconds)."""
    path = saves.save(store, saves.autosave_path(game_id, tmp_path), game_id)
    os.utime(path, (when, when))
    return path


def test_continue_lists_the_unfinished_games_newest_first_and_plays_one(tmp_path):
    older = _autosave(tmp_path, _saved_game(seed=8, decisions=2), "0000000000aa", 1_000_000)
    newer_store = _saved_game(seed=9, decisions=3)
    newer = _autosave(tmp_path, newer_store, "0000000000bb", 2_000_000)
    older_bytes = older.read_bytes()

    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            menu = app.screen.query_one("#menu", OptionList)
            option = menu.get_option("continue")
            assert not option.disabled and "Red, Blue: 2 players, Standard" in option.prompt.plain
            assert "and 1 more" in option.prompt.plain
            await pilot.press("c")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, LoadScreen) and screen.unfinished
            assert [g.path for g in screen.games] == [newer, older]
            rows = screen.query_one("#saves", OptionList)
            first = narrow(rows.get_option_at_index(0).prompt, Text).plain
            assert "Red (person), Blue (person)" in first and "2 players, Standard" in first
            await pilot.press("enter")
            await pilot.pause()
            assert app.game_screen() and app.store.state == newer_store.state
            assert app.game.game_id == "0000000000bb"  # its own autosave: the same game goes on
            await _past_handoff(pilot)
            await pilot.press("1")  # play on, then quit: saved first
            await pilot.pause()
            await pilot.press("ctrl+q")
            await pilot.pause()
        assert saves.load(newer).store.state_id == 4
        assert older.read_bytes() == older_bytes  # the other game is untouched

    run(go())


def test_load_lists_saves_a_broken_one_says_why_and_delete_asks(tmp_path):
    good = saves.save(_saved_game(seed=3, decisions=1), tmp_path / "good.nctui.json", "0000000000cc")
    (tmp_path / "broken.nctui.json").write_text("{this is not a save")
    gone = saves.save(_saved_game(seed=4, decisions=1), tmp_path / "gone.nctui.json", "0000000000dd")
    good_bytes = good.read_bytes()

    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("l")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, LoadScreen)
            menu = screen.query_one("#saves", OptionList)
            names = [g.path.name for g in screen.games]
            rows = {name: narrow(menu.get_option_at_index(i).prompt, Text).plain for i, name in enumerate(names)}
            assert set(rows) == {"good.nctui.json", "broken.nctui.json", "gone.nctui.json"}
            assert "2 players, Standard · setup · good" in rows["good.nctui.json"]
            assert "cannot be loaded" in rows["broken.nctui.json"]
            # d asks first; n keeps the file, y deletes it
            await pilot.press(*(["j"] * names.index("gone.nctui.json")), "d")
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            assert gone.exists() and app.screen is screen
            await pilot.press("d")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
            assert not gone.exists() and [g.path.name for g in screen.games] == [n for n in names if n != gone.name]
            names = [g.path.name for g in screen.games]
            menu.highlighted = names.index("broken.nctui.json")
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is screen and "broken.nctui.json" in app.seen[-1]
            assert "not valid JSON" in app.seen[-1]
            menu.highlighted = names.index("good.nctui.json")
            await pilot.press("enter")
            await pilot.pause()
            assert app.game_screen() and app.store.state == saves.load(good).store.state
            assert app.game.game_id != "0000000000cc"  # a named save plays on as a game of its own
        assert good.read_bytes() == good_bytes  # playing on writes the new game's autosave, not the named save

    run(go())


def test_load_marks_a_save_that_no_longer_replays(tmp_path):
    path = saves.save(_saved_game(seed=5, decisions=2), tmp_path / "edited.nctui.json", "0000000000ee")
    data = json.loads(path.read_text())
    data["actions"][1] = data["actions"][0]  # the first decision again: refused on replay
    path.write_text(json.dumps(data))

    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("l")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, LoadScreen)
            await wait_for(pilot, lambda: screen.checked, "the saves replayed (on a worker thread)")
            row = narrow(screen.query_one("#saves", OptionList).get_option_at_index(0).prompt, Text).plain
            assert "cannot be loaded: cannot be replayed: action 2 of 2 is refused" in row
            await pilot.press("enter")
            await app_settled(app)
            assert app.screen is screen and "cannot be replayed" in app.seen[-1]

    run(go())


def test_the_title_screen_draws_with_a_damaged_autosave_and_says_so(tmp_path):
    folder = tmp_path / saves.AUTOSAVES
    folder.mkdir()
    (folder / "0123456789ab.nctui.json").write_bytes(b'{"format": "nctui-save", "version": 2, "game": \xff')

    async def go():
        app = _front(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)
            option = app.screen.query_one("#menu", OptionList).get_option("continue")
            assert option.disabled and "1 damaged save: see Load" in narrow(option.prompt, Text).plain

    run(go())


def test_load_with_no_saves_says_so(tmp_path):
    async def go():
        app = _front(tmp_path / "none")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("l")
            await pilot.pause()
            assert "No saved games" in app.screen.query_one("#load-empty").content
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, LoadScreen)

    run(go())


# ------------------------------------------------------------------------------------------
# Snapshots


def test_title_snapshot(snap_compare, tmp_path):
    assert snap_compare(create_app(None, save_dir=tmp_path), terminal_size=SIZE)


def test_new_game_snapshot(snap_compare, tmp_path):
    async def open_new_game(pilot):
        pilot.app.new_game(seed=SEED)
        await pilot.pause()

    assert snap_compare(create_app(None, save_dir=tmp_path), terminal_size=SIZE, run_before=open_new_game)


def test_new_game_solo_snapshot(snap_compare, tmp_path):
    async def open_new_game(pilot):
        pilot.app.new_game(
            GameConfig(players=1, seats=("human", "king"), difficulty=DIFFICULTY_PRESETS["hard"]), seed=SEED
        )
        await pilot.pause()

    assert snap_compare(create_app(None, save_dir=tmp_path), terminal_size=SIZE, run_before=open_new_game)
