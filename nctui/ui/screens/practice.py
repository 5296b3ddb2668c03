"""The Practice screen (title screen, p): positions to play again and again: the bundled ones
(the rulebooks' worked examples and a few more) and the user's own scenario files (``x`` in a
game saves one). Enter plays the highlighted position as a new practice game (undo anything,
``h`` for a hint); a file that cannot be played says why in one line and the screen stays.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from nctui.platform import registry, saves
from nctui.platform.game import Position, PositionError
from nctui.platform.session import SessionError, scenario_session

from ..textual_ext.placed import ComesUpOnce
from ..widgets.decision import HINT
from ..widgets.footer import KeyFooter

if TYPE_CHECKING:
    from ..app import NctuiApp


def position_text(p: Position) -> Text:
    """One line of the list: the name, whose it is, the description (or why it cannot be read)."""
    text = Text(p.name, style="bold")
    if p.own:
        text.append("  (yours)", style=HINT)
    if p.problem:
        text.append(f" — cannot be read: {p.problem}", style="red")
    elif p.description:
        text.append(f" — {p.description}", style=HINT)
    return text


def play_position(screen: Screen, game_id: str, path: Path) -> bool:
    """Start a practice game of ``game_id`` at the position of ``path``; a file that cannot be
    played says why (one line) and the screen stays."""
    app = cast("NctuiApp", screen.app)
    try:
        session = scenario_session(game_id, path, folder=app.save_dir, bot_delay=app.bot_delay)
    except PositionError as exc:
        screen.notify(exc.one_line(), title="Cannot play this position", severity="error", timeout=10)
        return False
    except SessionError as exc:
        screen.notify(str(exc), title="Cannot play this position", severity="error", timeout=10)
        return False
    app.open_game(session)
    return True


class PracticeScreen(ComesUpOnce, Screen[None]):
    """The practice positions; Enter plays the highlighted one."""

    DEFAULT_CSS = """
    PracticeScreen #practice-title { background: $panel; color: $text; padding: 0 1; text-style: bold; width: 100%; }
    PracticeScreen #positions { height: 1fr; border: none; padding: 0 1; }
    PracticeScreen #practice-hint { padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("j", "move(1)", "Down", show=False, id="practice.down"),
        Binding("k", "move(-1)", "Up", show=False, id="practice.up"),
        Binding("escape,b", "back", "Back", key_display="b", id="practice.back"),
    ]
    AUTO_FOCUS = "#positions"

    def __init__(self, game_id: str, folder: Path | str | None = None) -> None:
        super().__init__()
        self.game_id = game_id
        self.folder = folder
        listing = registry.entry(game_id).practice
        self.positions: list[Position] = registry.load(listing)(folder) if listing else []

    def compose(self) -> ComposeResult:
        title = registry.entry(self.game_id).title
        yield Static(Text(f"Practice {title} — play a position again and again"), id="practice-title")
        yield OptionList(*(Option(position_text(p), id=str(i)) for i, p in enumerate(self.positions)), id="positions")
        yield Static(
            Text(
                f"Yours: {saves.scenario_dir(self.folder)} (x in a game saves the position there) · Enter play · b back"
            ),
            id="practice-hint",
        )
        yield KeyFooter()

    def action_move(self, delta: int) -> None:
        menu = self.query_one("#positions", OptionList)
        (menu.action_cursor_down if delta > 0 else menu.action_cursor_up)()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        p = self.positions[int(message.option.id or 0)]
        if p.problem:
            self.notify(f"{p.path.name}: {p.problem}", title="Cannot play this position", severity="error", timeout=10)
            return
        play_position(self, self.game_id, p.path)

    def action_back(self) -> None:
        self.dismiss()
