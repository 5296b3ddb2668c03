"""The Title screen: New game, Continue (the unfinished games), Load, Practice (positions to play
again), the companion games Cathedral, Nightmarium and Dreamers and Nightmares, the Tutorial (a
guided first game), Rules, Quit.

↑/↓ or j/k move and Enter chooses, or a letter chooses at once (n, c, l, p, a, m, d, t, r, q). Continue is
offered only when there is an unfinished game, and otherwise says why it cannot be chosen; a
damaged autosave is counted on its line (Load lists it with the reason).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from nctui.platform import registry

from ..textual_ext.placed import ComesUpOnce
from ..widgets.decision import DIGIT, HINT
from .load import LoadScreen, continue_words
from .practice import PracticeScreen

if TYPE_CHECKING:
    from ..app import NctuiApp

BANNER = "N I G H T M A R E    C A T H E D R A L"

# (id, key, words) of each item, in menu order.
ITEMS = (
    ("new", "n", "New game"),
    ("continue", "c", "Continue"),
    ("load", "l", "Load a saved game"),
    ("practice", "p", "Practice positions"),
    ("cathedral", "a", "Cathedral — the city game for two"),
    ("nightmarium", "m", "Nightmarium — the card game of Night Terrors, 2-5"),
    ("dreamers", "d", "Dreamers and Nightmares — the dice game, 2-4"),
    ("tutorial", "t", "Tutorial — a guided first game of Nightmare Cathedral"),
    ("rules", "r", "Rules"),
    ("quit", "q", "Quit"),
)


class TitleScreen(ComesUpOnce, Screen[None]):
    """The first screen of a bare ``nctui``."""

    DEFAULT_CSS = """
    TitleScreen { align: center middle; }
    TitleScreen #title-box { width: 72; max-width: 100%; height: auto; }
    TitleScreen #banner { width: 100%; text-align: center; text-style: bold; color: $accent; }
    TitleScreen #subtitle { width: 100%; text-align: center; color: $text-muted; margin-bottom: 1; }
    TitleScreen #menu { height: auto; border: round $accent; padding: 0 1; background: $surface; }
    TitleScreen #menu:focus { border: round $accent; }
    TitleScreen #title-hint { width: 100%; text-align: center; color: $text-muted; }
    """
    BINDINGS = [
        *(Binding(key, f"choose('{item}')", words, show=False, id=f"title.{item}") for item, key, words in ITEMS),
        Binding("j", "move(1)", "Down", show=False, id="title.down"),
        Binding("k", "move(-1)", "Up", show=False, id="title.up"),
    ]
    AUTO_FOCUS = "#menu"

    def compose(self) -> ComposeResult:
        with Vertical(id="title-box"):
            yield Static(BANNER, id="banner")
            yield Static("the board game, in the terminal", id="subtitle")
            yield OptionList(*(Option(self._words(item, key, words), id=item) for item, key, words in ITEMS), id="menu")
            yield Static("↑↓ or j/k move · Enter chooses · or press a letter", id="title-hint")

    def on_mount(self) -> None:
        self._refresh_continue()

    def on_screen_resume(self) -> None:
        self._refresh_continue()  # a game may have been saved since

    def _continue_words(self) -> tuple[str, bool]:
        return continue_words(cast("NctuiApp", self.app).save_dir)

    def _refresh_continue(self) -> None:
        menu = self.query_one("#menu", OptionList)
        words, possible = self._continue_words()
        menu.replace_option_prompt("continue", self._words("continue", "c", "Continue", words))
        if possible:
            menu.enable_option("continue")
        else:
            menu.disable_option("continue")

    def _words(self, item: str, key: str, words: str, note: str = "") -> Text:
        text = Text.assemble((f"{key} ", DIGIT), words)
        if note:
            text.append(f" — {note}", style=HINT)
        return text

    def action_move(self, delta: int) -> None:
        menu = self.query_one("#menu", OptionList)
        (menu.action_cursor_down if delta > 0 else menu.action_cursor_up)()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.action_choose(message.option.id or "")

    def action_choose(self, item: str) -> None:
        app = cast("NctuiApp", self.app)
        if item == "new":
            app.new_game()
        elif item == "tutorial":
            app.start_tutorial()
        elif item == "continue":
            self._continue()
        elif item == "load":
            app.push_screen(LoadScreen(app.save_dir))
        elif item == "practice":
            app.push_screen(PracticeScreen(registry.ENTRIES[0].id, app.save_dir))
        elif item in ("cathedral", "nightmarium", "dreamers"):
            # a companion game's screens are imported when it is chosen
            app.push_screen(registry.load(registry.entry(item).new_game)())
        elif item == "rules":
            self._rules()
        elif item == "quit":
            app.exit()

    def _continue(self) -> None:
        words, possible = self._continue_words()
        if not possible:
            self.notify(
                f"Nothing to continue: {words} (a game autosaves after every decision).",
                title="Continue",
                severity="warning",
            )
            return
        self.app.push_screen(LoadScreen(cast("NctuiApp", self.app).save_dir, unfinished=True))

    def _rules(self) -> None:
        try:  # imported when asked: the rules screen is its own part, and may be missing
            from .rules import rules_screen
        except ModuleNotFoundError as exc:
            if exc.name != f"{__package__}.rules":
                raise
            self.notify("The rules summary is not available in this version yet.", title="Rules", severity="warning")
            return
        self.app.push_screen(rules_screen(self.app))
