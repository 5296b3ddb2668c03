"""The Textual app: the screens over one game (a ``GameClient``).

``create_app`` builds it for a game to continue (a Store), a new game (a GameConfig), or
either with the game screen first; the screens are in ``screens/``, the widgets in ``widgets/``.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.screen import Screen

from ..engine.config import GameConfig
from ..store import Store
from .client import GameClient, LocalGame
from .screens.game import BOT_DELAY, GameScreen
from .screens.help import HelpScreen

__all__ = ["NctuiApp", "GameScreen", "HelpScreen", "create_app", "BOT_DELAY"]


class NctuiApp(App[None]):
    """Nightmare Cathedral in the terminal."""

    CSS_PATH = "app.tcss"
    TITLE = "Nightmare Cathedral"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, game: GameClient, *, save_dir: Path | str | None = None, bot_delay: float = BOT_DELAY) -> None:
        super().__init__()
        self.game = game
        self.save_dir = save_dir
        self.bot_delay = bot_delay

    @property
    def store(self) -> Store:
        """The local game's history (tests and tools; screens use ``game``)."""
        assert isinstance(self.game, LocalGame)
        return self.game.store

    def get_default_screen(self) -> Screen:
        return GameScreen(self.game, bot_delay=self.bot_delay)

    def game_screen(self) -> GameScreen:
        screen = self.screen_stack[0]
        assert isinstance(screen, GameScreen)
        return screen

    async def action_quit(self) -> None:  # ctrl+q: save first, like q
        self.game_screen().action_quit_game()


def create_app(store_or_config: Store | GameConfig, save_dir: Path | str | None = None, *,
               bot_delay: float = BOT_DELAY) -> NctuiApp:
    """The app for a game: a Store to continue, or a GameConfig to start a new game
    (a bad configuration raises ValueError). ``save_dir``: where autosaves go (default:
    $NCTUI_SAVE_DIR or the user's data folder)."""
    if isinstance(store_or_config, GameConfig):
        store = Store(store_or_config)
    elif isinstance(store_or_config, Store):
        store = store_or_config
    else:
        raise TypeError(f"create_app needs a Store or a GameConfig, not {type(store_or_config).__name__}")
    return NctuiApp(LocalGame(store, save_dir=save_dir), save_dir=save_dir, bot_delay=bot_delay)
