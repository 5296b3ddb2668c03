"""What a person types, loads or keeps in the save folder never breaks a screen (issue 41).

Names from a file or a person are shown as text, never as Rich markup: a save, a save folder, a
scenario or a game id holding ``[x="]`` or ``x[/]y`` crashed the Load, Continue and Practice
screens and saving into such a folder, for every game (item 6). An unreadable ``autosave/``
folder, and a save whose summary is huge, leave the title, Continue and Load working (item 7)."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import msgspec
import pytest
from textual.widgets import Input

from nctui.platform import registry, saves
from nctui.platform.store import Store
from nctui.ui.app import NctuiApp
from nctui.ui.screens.load import LoadScreen
from nctui.ui.screens.practice import PracticeScreen
from nctui.ui.screens.save import SaveScreen
from tests.helpers import app_settled

NAMES = ('[x="]', "x[/]y", "[bold]b[/bold][link=x]")  # in a folder's path ("/" makes a folder of it), a game id


def _file(name: str) -> str:
    """``name`` as a file's name (no "/" in it: markup all the same)."""
    return name.replace("/", "") + ' [x="] [b]'


def _people(game_id: str):
    """A configuration of ``game_id`` with a person at every seat of its fewest (at least two)."""
    entry = registry.entry(game_id)
    bots = registry.simulated(game_id).computer_game(3, entry.levels[:1] * max(2, entry.players[0]))
    return msgspec.structs.replace(bots, seats=tuple("human" for _ in registry.game(game_id).seats(bots)))


def _folder(tmp_path: Path, game_id: str, name: str) -> Path:
    """A save folder called ``name`` holding a save called ``name`` of ``game_id``, its autosave,
    and a save of a game called ``name``."""
    folder = tmp_path / f"saves {name}"
    game = registry.game(game_id)
    store = Store(game=game, initial=game.new(_people(game_id)))
    named = saves.save(store, folder / f"{_file(name)}{saves.SUFFIX}", saves.new_id())
    saves.save(store, saves.autosave_path(saves.new_id(), folder), saves.new_id())
    foreign = msgspec.json.decode(named.read_bytes())
    foreign["game"] = name
    (folder / f"other {_file(name)}{saves.SUFFIX}").write_bytes(msgspec.json.encode(foreign))
    return folder


async def _until(app: NctuiApp, screen: type) -> None:
    await app_settled(app)
    assert isinstance(app.screen, screen), f"{type(app.screen).__name__}, not {screen.__name__}"


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_names_holding_markup_are_shown_as_text(game_id: str, name: str, tmp_path: Path) -> None:
    folder = _folder(tmp_path, game_id, name)

    async def go() -> None:
        app = NctuiApp(None, save_dir=folder, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await app_settled(app)
            for key in ("c", "l"):  # Continue, then Load: the folder in the title, the saves listed
                await pilot.press(key)
                await _until(app, LoadScreen)
                await pilot.press("escape")
                await app_settled(app)
            await pilot.press("l")
            await _until(app, LoadScreen)
            load = app.screen
            assert isinstance(load, LoadScreen)
            foreign = next(g.path for g in load.games if g.path.name.startswith("other"))
            assert not load.load(foreign)  # a game this nctui does not have: said, as text
            assert load.load(folder / f"{_file(name)}{saves.SUFFIX}")
            await app_settled(app)
            await pilot.press("enter")  # the hand-off (a hot-seat game) or a decision
            await app_settled(app)
            if isinstance(app.screen, SaveScreen):
                await pilot.press("escape")
                await app_settled(app)
            await pilot.press("s")
            await _until(app, SaveScreen)
            app.screen.query_one(Input).value = f"again {_file(name)}"
            await pilot.press("enter")
            await app_settled(app)
            assert (folder / f"again {_file(name)}{saves.SUFFIX}").is_file()
            assert not isinstance(app.screen, SaveScreen)

    asyncio.run(go())


@pytest.mark.parametrize("name", NAMES)
def test_a_scenario_named_with_markup_is_listed_and_played(name: str, tmp_path: Path) -> None:
    game_id = next(e.id for e in registry.ENTRIES if e.practice)
    folder = tmp_path / f"saves {name}"
    bundled = registry.load(registry.entry(game_id).practice)(None)
    (folder / "scenarios").mkdir(parents=True)
    shutil.copy(bundled[0].path, folder / "scenarios" / f"{_file(name)}{bundled[0].path.suffix}")
    (folder / "scenarios" / f"broken {_file(name)}{bundled[0].path.suffix}").write_text('[x="]\n')

    async def go() -> None:
        app = NctuiApp(None, save_dir=folder, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await app_settled(app)
            await pilot.press("p")
            await _until(app, PracticeScreen)
            practice = app.screen
            assert isinstance(practice, PracticeScreen)
            names = [p.path.name for p in practice.positions]
            for wanted in (f"broken {_file(name)}.toml", f"{_file(name)}.toml"):
                assert wanted in names
                menu = practice.query_one("#positions")
                menu.highlighted = names.index(wanted)  # type: ignore[attr-defined]
                await pilot.press("enter")
                await app_settled(app)
                # the broken one says why (as text) and the list stays; the other is played
                assert isinstance(app.screen, PracticeScreen) == wanted.startswith("broken")

    asyncio.run(go())


def test_the_title_continue_and_load_with_an_unreadable_autosave_folder(tmp_path: Path, monkeypatch) -> None:
    from tests.test_cli import unreadable

    (tmp_path / "autosave").mkdir()
    game = registry.game("cathedral")
    saves.save(Store(game=game, initial=game.new(_people("cathedral"))), tmp_path / f"a{saves.SUFFIX}", "0123456789ab")
    unreadable(monkeypatch, tmp_path / "autosave")

    async def go() -> None:
        app = NctuiApp(None, save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await app_settled(app)
            await pilot.press("l")
            await _until(app, LoadScreen)
            assert [g.path.name for g in app.screen.games] == [f"a{saves.SUFFIX}"]  # type: ignore[attr-defined]
            await pilot.press("escape", "c")
            await app_settled(app)

    asyncio.run(go())
