"""The Textual app: the Title, New game and Load screens, and the screens over one game (a
``GameClient``: the game's ``Session``), whichever game it is.

``create_app`` builds it for a game to continue (a Session, or a Store), a new game (the
configuration of any game of the registry), or the Title screen (None). The app names no game:
it finds a game's screen, its New game screen and its tutorial through its registry entry
(``screen``, ``new_game``, ``tutorial``). The shared screens are in ``screens/``, the widgets in
``widgets/``. Screens start games through the app (``new_game``, ``start_game``, ``open_game``);
a started game replaces every screen below it, so the stack is always one game and what is
shown over it. The app closes the session it replaces, and its own when it ends (the autosave
written one last time, the game's lock released).
"""

from __future__ import annotations

import asyncio
import gc
import signal
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from time import monotonic
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.await_remove import AwaitRemove
from textual.dom import DOMNode
from textual.driver import Driver
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widget import AwaitMount, Widget

from nctui.platform import registry, saves
from nctui.platform.registry import GameEntry
from nctui.platform.session import Session, UndoMode, default_undo, new_session
from nctui.platform.store import Store

from . import theme
from .commands import ScreenCommands
from .screens.shell import GameShell
from .textual_ext import collector, strips
from .textual_ext.driver import TerminalClosed
from .textual_ext.placed import ComesUpOnce, LaidOutAtResume

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.timer import Timer

    from nctui.platform.replay import Replay

# The screens other than the game's are imported when first shown (the Title screen, New game,
# the tutorial, the other games): `nctui play` draws its first frame without them.

BOT_DELAY = 0.6  # seconds a computer player waits after the last change, so people can follow it
CSS_KEPT_AFTER = 2.0  # seconds after start-up the CSS parsed is kept for the next run (NctuiApp.css_cache)

__all__ = ["BOT_DELAY", "NctuiApp", "create_app", "screen_for"]


class NctuiApp(App[None]):
    """Nightmare Cathedral in the terminal. ``game`` is None until a game is chosen (the
    Title screen comes first)."""

    CSS_PATH = "app.tcss"
    TITLE = "Nightmare Cathedral"
    # Flows: ctrl+p lists every key of the current screen (commands.py).
    ENABLE_COMMAND_PALETTE = True
    COMMANDS = App.COMMANDS | {ScreenCommands}
    # A game's screen makes the rules, the help and the timeline ahead while it waits for a
    # decision (screens/kept.py), and draws the rules again at each new decision: their keys show
    # them at once. A server's client (LobbyApp) makes none ahead (see there).
    MAKE_SCREENS_AHEAD = True

    def __init__(
        self, game: Session | None, *, save_dir: Path | str | None = None, bot_delay: float = BOT_DELAY
    ) -> None:
        strips.install()  # Textual's lines of cells made lighter (ui/strips.py)
        super().__init__()
        self.game = game
        self.save_dir = save_dir
        self.bot_delay = bot_delay
        self.guide: Callable[[Session], Screen] | None = None  # the screen of the guided first game being played
        self.open_tutorial = False  # `nctui tutorial`: start it as soon as the Title screen is up
        self.mono = theme.mono_wanted()  # greys: NCTUI_MONO / NO_COLOR, or set by --mono before running
        self.css_cache: Path | None = None  # where to keep the CSS parsed (`nctui play`: ui/parsed_css.py)
        self.collect_once_drawn = False  # `nctui play`: the collector, off, is turned on after the first frame
        self.replay: Replay | None = None  # `nctui replay FILE`: the game watched again, the app's only screen

    _drawn_at = 0.0  # when the last frame was drawn (time.monotonic)
    _looks: Timer | None = None  # the collector's looks while the app waits (collector.LOOK_FOR)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """A notification, its message always as text (``markup`` is ignored: a widget's
        ``notify`` asks for markup by default): what it says names files, folders, games and
        scenarios, and a name holding ``[x="]`` or ``x[/]y`` broke the screen that said it."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def _display(self, screen: Screen, renderable: RenderableType | None) -> None:
        super()._display(screen, renderable)
        self._drawn_at = monotonic()
        if self._looks is not None and renderable is not None:
            self._looks.resume()  # looked at again once the app waits after this frame
        if renderable is not None and self.collect_once_drawn:
            # What start-up made is out of the collector's sight too (it lives as long as the
            # game): turned on with it young, the collector walked all of it at the next key.
            self.collect_once_drawn = False
            gc.freeze()
            gc.enable()

    def _get_screen(self, screen: Screen | str) -> tuple[Screen, AwaitMount]:
        # Textual's, with a new ComesUpOnce screen not laid out again once mounted (it is laid
        # out as it first resumes: a hand-off came in three frames, not one)
        new = self.get_screen(screen)
        if isinstance(new, ComesUpOnce) and not new.is_running:
            await_mount = LaidOutAtResume(new, self._register(self, new))
            self.call_next(await_mount)
            return new, await_mount
        return super()._get_screen(screen)

    def get_line_filters(self):
        return theme.line_filters(super().get_line_filters(), self.mono)

    def _prune(self, *nodes: Widget, parent: DOMNode | None = None) -> AwaitRemove:
        """Textual's removal of widgets. A screen that closed (the hand-off) is removed after the
        screen under it came back, was laid out and drawn: Textual then lays that one out and
        draws it whole once more (two frames, ~40 ms at 120x40). Not for a screen removed."""
        if parent is self and nodes and all(isinstance(node, Screen) for node in nodes):
            parent = None
        return super()._prune(*nodes, parent=parent)

    @property
    def _background_screens(self) -> list[Screen]:
        """The screens that show through the current one: none under an opaque screen (the
        hand-off). Textual's own list always holds the screen under the current one, so every
        change to the game screen hidden under a hand-off repainted the hand-off, in full, once
        more (five identical frames per hand-off at 120x40)."""
        if self._screen_stack and self._screen_stack[-1].styles.background.a == 1:
            return []
        return super()._background_screens

    @property
    def store(self) -> Store:
        """The game's history (tests and tools; screens use ``game``)."""
        assert self.game is not None
        return self.game.store

    def get_default_screen(self) -> Screen:
        if self.replay is not None:
            from .screens.replay import replay_screen

            return replay_screen(self.replay)
        if self.game is None:
            return title_screen()
        return self._screen_for(self.game)

    def _screen_for(self, session: Session) -> Screen:
        return self.guide(session) if self.guide is not None else screen_for(session)

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this platform; on Linux one that ends the app when its terminal
        goes away (``driver.TerminalDriver``: Textual's went on reading a closed terminal)."""
        driver = super().get_driver_class()
        if driver.__module__ == "textual.drivers.linux_driver" and driver.__name__ == "LinuxDriver":
            from .textual_ext.driver import TerminalDriver

            return TerminalDriver
        return driver

    def on_terminal_closed(self, message: TerminalClosed) -> None:
        self.hang_up()

    def hang_up(self) -> None:
        """The terminal is gone (its input ended, or a hang-up signal): end as on a quit, the
        session saving the game as it closes (killed by the signal, the last decision could
        be lost with the autosave not yet written)."""
        self.exit()

    def _catch_hang_up(self, catch: bool) -> None:
        if self.is_headless:
            return
        with suppress(NotImplementedError, RuntimeError, ValueError):  # no loop or not the main thread
            loop = asyncio.get_running_loop()
            if catch:
                loop.add_signal_handler(signal.SIGHUP, self.hang_up)
            else:
                loop.remove_signal_handler(signal.SIGHUP)

    def on_mount(self) -> None:
        self._catch_hang_up(True)
        self._looks = self.set_interval(collector.LOOK_EVERY, self._collect_while_waiting)
        if self.game is not None:
            # Its computer players and autosave once the game is drawn: the first autosave
            # (0.15 s after the session began) encoded and wrote the game on another thread
            # while the first frame was being drawn, on a slow start or machine.
            self.call_after_refresh(self.game.start)
        elif self.open_tutorial:
            self.call_after_refresh(self.start_tutorial)
        if self.css_cache is not None:  # once the first screen has settled (a killed app keeps it too)
            self.set_timer(CSS_KEPT_AFTER, self._keep_css)

    def _collect_while_waiting(self) -> None:
        waited = monotonic() - self._drawn_at
        collector.collect_while_waiting(waited)
        if waited > collector.LOOK_FOR and self._looks is not None:
            self._looks.pause()  # until the next frame: an idle app wakes for nothing

    def _keep_css(self) -> None:
        from .textual_ext.parsed_css import save_parsed_css

        if self.css_cache is not None:
            save_parsed_css(self.css_cache)

    def on_unmount(self) -> None:
        self._catch_hang_up(False)
        if self.game is not None:
            self.game.close()

    def game_screen(self) -> GameShell:
        """The screen of the game being played (under any dialog shown over it), whichever game it is."""
        screen = self._game_screen()
        if screen is None:
            raise LookupError("no game is being played")
        return screen

    def _game_screen(self) -> GameShell | None:
        return next((s for s in reversed(self.screen_stack) if isinstance(s, GameShell)), None)

    # -- starting games -------------------------------------------------------------------------

    def new_game(self, config: Any = None, *, seed: int | None = None) -> None:
        """Show the New game screen of ``config``'s game, its settings those of ``config``
        (default: the game being played, if any, and its undo policy; none: the first game of the
        registry), with a new seed unless ``seed`` is given."""
        practice = False
        if config is None and self.game is not None:
            config = self.game.config
            practice = self.game.undo_mode == "practice" and default_undo(self.game.seat_kinds) == "strict"
        entry = registry.ENTRIES[0] if config is None else entry_of(config)
        self.push_screen(new_game_screen(entry, config, seed=seed, practice=practice))

    def open_new_game(self, game_id: str) -> None:
        """The New game screen of the game ``game_id`` (the Title screen's line of that game)."""
        self.push_screen(new_game_screen(registry.entry(game_id)))

    def start_game(self, config: Any, *, undo: UndoMode | None = None) -> None:
        """Start a new game of any game (its configuration says which: ``registry.game_of``) and
        play it; a configuration the game refuses raises ValueError (in words) and changes
        nothing. ``undo``: the undo policy (default: strict when two or more people play, else
        practice)."""
        self.open_game(new_session(config, folder=self.save_dir, undo=undo, bot_delay=self.bot_delay))

    def open_game(self, session: Session, *, guide: Callable[[Session], Screen] | None = None) -> None:
        """Play ``session``'s game: its screen (``guide``: the tutorial's) replaces every screen
        (the title, the New game screen, a game that was being played, whose session is closed:
        saved, lock released)."""
        old, self.game, self.guide = self.game, session, guide
        if old is not None and old is not session:
            old.close()
        session.start()
        self._replace_all(self._screen_for(session))

    def _replace_all(self, screen: Screen) -> None:
        """Show ``screen`` in place of every screen (the dialogs and hand-offs over a game too)."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        base = self.screen_stack[0]
        if not base._result_callbacks:
            # Textual 8.2.8: switch_screen drops the replaced screen's result callback, and the
            # default screen was never given one (it is not pushed), so give it the empty one
            # push_screen would have.
            base._push_result_callback(self, None)
        self.switch_screen(screen)

    def start_tutorial(self, game_id: str | None = None) -> None:
        """The guided first game of ``game_id`` (default: the first game whose entry has one),
        as its entry's ``tutorial`` sets it up (Nightmare Cathedral's: Red against a computer
        Blue on a fixed seed, with undo, not autosaved)."""
        entry = registry.entry(game_id) if game_id is not None else next(e for e in registry.ENTRIES if e.tutorial)
        session, guide = registry.load(entry.tutorial)(self.bot_delay)
        self.open_game(session, guide=guide)

    def open_replay(self, replay: Replay) -> None:
        """Watch ``replay`` over the screen shown (q closes it: back there)."""
        from .screens.replay import replay_screen

        self.push_screen(replay_screen(replay))

    def leave_game(self) -> None:
        """Back to the Title screen; the game's session is closed (saved when it autosaves)."""
        old, self.game, self.guide = self.game, None, None
        if old is not None:
            old.close()
        self._replace_all(title_screen())

    async def action_quit(self) -> None:
        """ctrl+q: in a game, save first (like q); elsewhere quit at once."""
        screen = self._game_screen()
        if screen is None:
            self.exit()
        else:
            screen.action_quit_game()


def entry_of(config: Any) -> GameEntry:
    """The registry entry of the game a configuration (or a state) is of."""
    return registry.entry(registry.game_of(config).id)


def screen_for(session: Session) -> Screen:
    """The screen that plays ``session``'s game (its registry entry's ``screen``)."""
    screen: Callable[[Session], Screen] = registry.load(registry.entry(session.game.id).screen)
    return screen(session)


def new_game_screen(entry: GameEntry, config: Any = None, *, seed: int | None = None, practice: bool = False) -> Screen:
    """The New game screen of ``entry``'s game (its entry's ``new_game``), its settings those of
    ``config`` if given, with a new seed unless ``seed`` is given; ``practice``: undo anything."""
    screen: Callable[..., Screen] = registry.load(entry.new_game)
    return screen(config, seed=seed, practice=practice)


def title_screen() -> Screen:
    from .screens.title import TitleScreen

    return TitleScreen()


def create_app(
    game: Any,
    save_dir: Path | str | None = None,
    *,
    bot_delay: float = BOT_DELAY,
    undo: UndoMode | None = None,
) -> NctuiApp:
    """The app for a game: a Session (or a Store) to continue, the configuration of a new game of
    any game of the registry (a bad configuration raises ValueError), a ``Replay`` to watch (its
    only screen), or None for the Title screen. ``save_dir``: where
    saves are listed and autosaves go (default: $NCTUI_SAVE_DIR or the user's data folder); the
    temporary files a killed save left there are removed, and a version 1 autosave is moved
    among the games' autosaves. ``undo``: the undo policy of a new game."""
    saves.tidy(save_dir)
    saves.migrate(save_dir)
    from nctui.platform.replay import Replay

    if isinstance(game, Replay):
        app = NctuiApp(None, save_dir=save_dir, bot_delay=bot_delay)
        app.replay = game
        return app
    if game is None or isinstance(game, Session):
        session = game
    elif isinstance(game, Store):
        session = Session(game, folder=save_dir, undo=undo, bot_delay=bot_delay)
    elif _is_config(game):
        session = new_session(game, folder=save_dir, undo=undo, bot_delay=bot_delay)
    else:
        raise TypeError(
            f"create_app needs a Session, a Store, a game's configuration or None, not {type(game).__name__}"
        )
    return NctuiApp(session, save_dir=save_dir, bot_delay=bot_delay)


def _is_config(value: object) -> bool:
    """Whether ``value`` is the configuration of a game of the registry."""
    entry = registry.entry_of_module(type(value).__module__)
    return entry is not None and isinstance(value, registry.game(entry.id).config_type)
