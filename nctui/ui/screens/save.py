"""Save the game under a name: a small modal with the file name, in the save folder.

The name defaults to the date and the turn ('2025-01-31-turn-3'); the save suffix is added.
Names with a folder in them, and the autosave's own name, are refused with a message; an
existing file is replaced only when Enter is pressed a second time. A failed save says why and
keeps the modal open: nothing is lost. Dismissed with the path written, or None.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from nctui.platform import saves
from nctui.platform.session import SessionError

from ..client import GameClient
from ..textual_ext.placed import ComesUpOnce


def quit_after_saving(screen: Screen, game: GameClient, *, armed: bool, hint: str) -> bool:
    """Save the game, then quit with where it was saved and ``hint`` (how to continue). If saving
    fails, say so and quit only when ``armed`` (the second request); whether the app is quitting."""
    try:
        path = game.flush()
    except (saves.SaveError, SessionError):
        path = None
    if path is None and not armed:
        screen.notify(
            "The game could not be saved. Press q again to quit without saving.",
            title="Not saved",
            severity="error",
            timeout=10,
        )
        return False
    screen.app.exit(message=f"Game saved to {path}. {hint}" if path else None)
    return True


def default_name(turn: int, *, prefix: str = "", today: datetime.date | None = None) -> str:
    """'2025-01-31-turn-3' (with ``prefix``: 'replay-2025-01-31-turn-3')."""
    day = (today or datetime.date.today()).isoformat()
    return f"{prefix}{day}-turn-{turn}"


def save_path(folder: Path, name: str, suffix: str = saves.SUFFIX) -> Path:
    """The file for ``name`` in ``folder``; ValueError with a sentence when the name is unusable."""
    name = name.strip().removesuffix(suffix)
    if not name:
        raise ValueError("Type a name for the save.")
    if "/" in name or "\\" in name or name in (".", "..") or name.startswith("."):
        raise ValueError(f"'{name}' is not a plain file name: saves go in {folder}.")
    if name == saves.AUTOSAVES:
        raise ValueError("That name is kept for the autosaves of older versions: choose another.")
    return folder / (name + suffix)


class SaveScreen(ComesUpOnce, ModalScreen[Path | None]):
    """The file name to save the game under (Enter saves; Escape or ctrl+g cancels)."""

    DEFAULT_CSS = """
    SaveScreen { align: center middle; }
    #save-box { width: 70; max-width: 100%; height: auto; background: $panel; border: round $accent;
                padding: 0 1; }
    #save-message { height: auto; }
    #save-message.-error { color: $error; }
    #save-hint { color: $text-muted; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="save.cancel"),
        Binding("ctrl+g", "cancel", "Cancel", show=False, id="save.cancel-g"),
    ]

    def __init__(
        self,
        game: GameClient,
        folder: Path,
        name: str,
        *,
        title: str = "Save the game",
        suffix: str = saves.SUFFIX,
        write: Callable[[Path], Path] | None = None,
    ) -> None:
        """``write`` saves to the path chosen (default: the game's save); ``suffix`` ends its name."""
        super().__init__()
        self.game, self.folder, self.default = game, folder, name
        self.title_text = title
        self.suffix = suffix
        self.write = write or game.save
        self._confirm: Path | None = None  # a file that exists, to be replaced on a second Enter

    def compose(self) -> ComposeResult:
        with Vertical(id="save-box"):
            title = Text(self.title_text, style="bold")
            title.append(f"  (in {self.folder})", style="not bold")
            yield Static(title, id="save-title")
            yield Input(value=self.default, placeholder="file name", id="save-name")
            yield Static("", id="save-message")
            yield Static("Enter: save · Escape or ctrl+g: cancel", id="save-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_changed(self, message: Input.Changed) -> None:
        self._confirm = None

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        try:
            path = save_path(self.folder, message.value, self.suffix)
        except ValueError as exc:
            self._say(str(exc), error=True)
            return
        if path.exists() and self._confirm != path:
            self._confirm = path
            self._say(f"{path.name} exists. Press Enter again to replace it, or change the name.", error=True)
            return
        try:
            written = self.write(path)
        except (saves.SaveError, SessionError) as exc:
            self._say(f"Not saved: {exc}", error=True)
            return
        self.dismiss(written)

    def _say(self, text: str, *, error: bool) -> None:
        message = self.query_one("#save-message", Static)
        message.update(Text(text))
        message.set_class(error, "-error")

    def action_cancel(self) -> None:
        self.dismiss(None)
