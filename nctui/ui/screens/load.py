"""The Load screen: the saves in the save folder, newest first; Enter continues one.

Each row says what is cheap to know without replaying the game (the file's header: players,
mode, decisions so far, seed) and when it was written. A save that cannot be read or replayed
says why, in ``SaveError``'s words, and the list stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, cast

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ... import saves
from ...engine.config import DIFFICULTY_PRESETS, GameConfig
from ..widgets.decision import HINT

if TYPE_CHECKING:
    from ..app import NctuiApp

BROKEN = Style(color="#ff8787")


def difficulty_level(difficulty: Sequence[str]) -> str:
    """The preset these solo modifiers make ('easy', 'normal', 'hard'), else 'custom'."""
    chosen = set(difficulty)
    return next((name for name, options in DIFFICULTY_PRESETS.items() if set(options) == chosen), "custom")


def describe_config(config: GameConfig) -> str:
    """Who plays and how, in a few words: '3 players (1 computer), Variable Length'; solo: the
    difficulty preset, or 'custom'."""
    if config.players == 1:
        who = f"solo against the King ({difficulty_level(config.difficulty)} difficulty)"
    else:
        bots = config.seats.count("bot")
        who = f"{config.players} players" + (f" ({bots} computer)" if bots else "")
    extras = [w for w, on in (("Variable Length", config.length == "variable"),
                              ("Divergent Paths", config.divergent_paths)) if on]
    return ", ".join([who, *extras])


def save_words(path: Path) -> tuple[str, bool]:
    """What a save holds, in a few words from its header (no replay), and whether it could be
    read; when it cannot, why."""
    try:
        header = saves.decode(path.read_bytes(), path)
    except saves.SaveError as exc:
        return f"cannot be loaded: {exc}", False
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}", False
    return f"{describe_config(header.config)} · decision {header.cursor} · seed {header.seed}", True


def describe_save(path: Path) -> Text:
    """A save file's row: its name and date, then what it holds (or why it cannot be loaded)."""
    when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
    words, ok = save_words(path)
    return Text.assemble((path.name, "bold"), ("  " + when, HINT), ("\n  " + words, HINT if ok else BROKEN))


def play_save(screen: Screen, path: Path) -> bool:
    """Replay the save into a game and play it; a save that cannot be loaded says why (and the
    screen stays)."""
    try:
        store = saves.load(path)
    except saves.SaveError as exc:
        screen.notify(str(exc), title="Cannot load this save", severity="error", timeout=10)
        return False
    cast("NctuiApp", screen.app).open_game(store)
    return True


class LoadScreen(Screen[None]):
    """The save files of the save folder; Enter loads the highlighted one."""

    DEFAULT_CSS = """
    LoadScreen #load-title { background: $panel; color: $text; padding: 0 1; text-style: bold; width: 100%; }
    LoadScreen #saves { height: 1fr; border: none; padding: 0 1; }
    LoadScreen #load-empty { padding: 1 2; }
    LoadScreen #load-hint { padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("j", "move(1)", "Down", show=False, id="load.down"),
        Binding("k", "move(-1)", "Up", show=False, id="load.up"),
        Binding("escape,b", "back", "Back", key_display="b", id="load.back"),
    ]
    AUTO_FOCUS = "#saves"

    def __init__(self, folder: Path | str | None = None) -> None:
        super().__init__()
        self.folder = saves.save_dir(folder)
        self.paths = saves.list_saves(self.folder)

    def compose(self) -> ComposeResult:
        yield Static(f"Load a saved game — {self.folder}", id="load-title")
        yield OptionList(*(Option(describe_save(path), id=str(i)) for i, path in enumerate(self.paths)), id="saves")
        if not self.paths:
            yield Static(f"No saved games in {self.folder} yet. A game autosaves after every decision.",
                         id="load-empty")
        yield Static("↑↓ or j/k choose · Enter load · b or Escape back", id="load-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#saves").display = bool(self.paths)

    def action_move(self, delta: int) -> None:
        menu = self.query_one("#saves", OptionList)
        (menu.action_cursor_down if delta > 0 else menu.action_cursor_up)()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.load(self.paths[int(message.option.id or 0)])

    def load(self, path: Path) -> bool:
        return play_save(self, path)

    def action_back(self) -> None:
        self.dismiss()
