"""What a person types, loads or keeps in the save folder never breaks a screen (issue 41).

Names from a file or a person are shown as text, never as Rich markup: a save, a save folder, a
scenario or a game id holding ``[x="]`` or ``x[/]y`` crashed the Load, Continue and Practice
screens and saving into such a folder, for every game (item 6). An unreadable ``autosave/``
folder, and a save whose summary is huge, leave the title, Continue and Load working (item 7)."""

from __future__ import annotations

import asyncio
import contextlib
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


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_the_autosave_of_every_game_screen_keeps_the_redo_branch(game_id: str, tmp_path: Path) -> None:
    """Cathedral's screen dropped the redo branch from its autosave, where the other games kept it
    (issue 41, item 10): u twice on the game's own screen, q, and the autosave still has both
    decisions undone, to redo."""
    from nctui.platform.session import new_session
    from nctui.ui.app import create_app
    from nctui.ui.screens.handoff import HandoffScreen

    game = registry.game(game_id)
    session = new_session(_people(game_id), game=game, folder=tmp_path, undo="practice")
    for _ in range(6):
        session.store.dispatch(game.options(session.store.state)[0])
    app = create_app(session, save_dir=tmp_path, bot_delay=0)

    async def past_handoff(pilot) -> None:
        await app_settled(app)
        while isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")
            await app_settled(app)

    async def go() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            for _ in range(2):
                await past_handoff(pilot)
                await pilot.press("u")
            await past_handoff(pilot)
            assert session.state_id == 4 and session.store.can_redo()
            await pilot.press("q")
            await app_settled(app)

    asyncio.run(go())
    loaded = saves.load(saves.autosave_path(session.game_id, tmp_path)).store
    assert loaded.state_id == 4 and loaded.can_redo() and len(loaded.all_actions()) == 6


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_a_game_screen_whose_terminal_goes_away_ends_without_a_traceback(game_id: str, tmp_path: Path) -> None:
    """52 of 56 launches whose input ended while a game screen opened drew a traceback (the input
    thread's read of a closed pseudo-terminal failed with EIO, and Textual panicked, a game
    screen mounting meanwhile: ``NoMatches``). The real command on a pseudo-terminal: once the
    game's screen is drawn the terminal closes; nctui ends quietly and the game is saved."""
    import fcntl
    import os
    import pty
    import select
    import struct
    import subprocess
    import sys
    import termios
    import time

    game = registry.game(game_id)
    save = saves.save(
        Store(game=game, initial=game.new(_people(game_id))), tmp_path / f"g{saves.SUFFIX}", "0123456789ab"
    )
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    drawn = tmp_path / "drawn"  # Textual draws on stderr
    nctui = Path(sys.executable).with_name("nctui")
    env = {**os.environ, "NCTUI_SAVE_DIR": str(tmp_path / "saves")}
    with drawn.open("wb") as err:
        app = subprocess.Popen(
            [str(nctui), "play", "--load", str(save)], stdin=slave, stdout=slave, stderr=err, env=env,
            start_new_session=True,
        )  # fmt: skip
    os.close(slave)
    try:
        end = time.monotonic() + 60
        while b"palette" not in drawn.read_bytes():  # the key footer of the game's screen
            assert app.poll() is None and time.monotonic() < end, drawn.read_bytes()[-400:]
            if select.select([master], [], [], 0.05)[0]:
                with contextlib.suppress(OSError):
                    os.read(master, 65536)
        os.close(master)
        assert app.wait(60) == 0
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
    tail = drawn.read_bytes()
    assert b"Traceback" not in tail and b"Errno" not in tail and b"NoMatches" not in tail, tail[-600:]
    assert list((tmp_path / "saves" / "autosave").glob(f"*{saves.SUFFIX}"))


def test_the_input_thread_ends_quietly_when_reading_the_terminal_fails(monkeypatch) -> None:
    """A read of a pseudo-terminal whose other end closed may fail (EIO) rather than give no
    bytes: Textual's input thread then panicked (a traceback, and a game screen mounting meanwhile
    failed with ``NoMatches``). It ends as for the end of input: the app is told the terminal is
    gone and saves the game as it quits."""
    import errno
    import os
    import threading

    from nctui.ui.textual_ext import driver

    read_end, write_end = os.pipe()
    os.write(write_end, b"x")  # something to read: the read itself fails
    sent: list[object] = []
    terminal = driver.TerminalDriver.__new__(driver.TerminalDriver)
    terminal.fileno, terminal.exit_event, terminal._debug = read_end, threading.Event(), False
    terminal.process_message = sent.append  # type: ignore[method-assign, assignment]
    terminal.send_message = sent.append  # type: ignore[method-assign, assignment]

    def failing_read(fd: int, n: int) -> bytes:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(driver.os, "read", failing_read)
    try:
        terminal.run_input_thread()  # returns: it does not read again, nor raise
    finally:
        os.close(read_end)
        os.close(write_end)
    assert [type(m) for m in sent] == [driver.TerminalClosed]
