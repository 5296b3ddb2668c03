"""The Title screen, built from the registry: a line for each game (its key, title and blurb: n
Nightmare Cathedral, a Cathedral, m Nightmarium, d Dreamers and Nightmares) that opens its New
game screen; Continue (the unfinished games of every game), Load, Finished games (watched again);
Practice, Tutorial and Rules
for the games whose entries have them (one such game: the item opens it; several: it asks
which); Quit.

↑/↓ or j/k move and Enter chooses, or a letter chooses at once (c, l, f, p, t, r, q and each game's).
Continue is offered only when there is an unfinished game, and otherwise says why it cannot be
chosen; a damaged autosave is counted on its line (Load lists it with the reason).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from nctui.platform import registry
from nctui.platform.registry import GameEntry

from ..textual_ext.placed import ComesUpOnce
from ..widgets.decision import DIGIT, HINT
from .load import LoadScreen, continue_words
from .practice import PracticeScreen

if TYPE_CHECKING:
    from ..app import NctuiApp

BANNER = "N I G H T M A R E    C A T H E D R A L"
GAME = "game:"  # the id of a game's line: "game:cathedral"


class Item(NamedTuple):
    """A line of the menu: its id, its key, its words and (dimmed) what it is."""

    id: str
    key: str
    words: str
    note: str = ""


def with_capability(item: str) -> tuple[GameEntry, ...]:
    """The games whose entries have what ``item`` opens ("practice", "tutorial" or "rules")."""
    has = {"practice": lambda e: e.practice, "tutorial": lambda e: e.tutorial, "rules": lambda e: e.rules}[item]
    return tuple(e for e in registry.ENTRIES if has(e))


# The items for the games whose entries have them: (id, key, words, the note for one game, for several).
ACROSS = (
    ("practice", "p", "Practice positions", "of", "choose the game"),
    ("tutorial", "t", "Tutorial", "a guided first game of", "choose the game"),
    ("rules", "r", "Rules", "of", "of each game, in brief"),
)


def menu_items() -> tuple[Item, ...]:
    """The menu, in order: the games, then what works across them."""
    across = []
    for item, key, words, one, several in ACROSS:
        entries = with_capability(item)
        if entries:
            note = f"{one} {entries[0].title}" if len(entries) == 1 else several
            across.append(Item(item, key, words, note))
    return (
        *(Item(GAME + e.id, e.key, e.title, e.blurb) for e in registry.ENTRIES),
        Item("continue", "c", "Continue"),
        Item("load", "l", "Load a saved game"),
        Item("finished", "f", "Finished games", "watch one again, decision by decision"),
        *across,
        Item("quit", "q", "Quit"),
    )


def item_text(item: Item, note: str = "") -> Text:
    text = Text.assemble((f"{item.key} ", DIGIT), item.words)
    note = note or item.note
    if note:
        text.append(f" — {note}", style=HINT)
    return text


class GamePicker(ComesUpOnce, ModalScreen[str | None]):
    """Which game (of ``entries``) to open ``what`` of: its letter or Enter picks it, Escape none."""

    DEFAULT_CSS = """
    GamePicker { align: center middle; }
    GamePicker #picker-box { width: 60; max-width: 100%; height: auto; background: $panel;
                             border: round $accent; padding: 0 1; }
    GamePicker #picker-list { height: auto; border: none; background: $panel; }
    GamePicker #picker-hint { color: $text-muted; }
    """
    BINDINGS = [Binding("escape,b", "dismiss(None)", "Back", id="picker.back")]
    AUTO_FOCUS = "#picker-list"

    def __init__(self, what: str, entries: tuple[GameEntry, ...]) -> None:
        super().__init__()
        self.what, self.entries = what, entries

    def compose(self) -> ComposeResult:
        with Vertical(id="picker-box"):
            yield Static(Text(f"{self.what}: which game?", style="bold"), id="picker-title")
            yield OptionList(
                *(Option(item_text(Item(e.id, e.key, e.title)), id=e.id) for e in self.entries), id="picker-list"
            )
            yield Static("↑↓ move · Enter or a letter chooses · Esc back", id="picker-hint")

    def on_key(self, event) -> None:
        chosen = next((e.id for e in self.entries if e.key == event.character), None)
        if chosen is not None:
            event.stop()
            self.dismiss(chosen)

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.dismiss(message.option.id)


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
        *(
            Binding(i.key, f"choose('{i.id}')", i.words, show=False, id=f"title.{i.id.replace(':', '-')}")
            for i in menu_items()
        ),
        Binding("j", "move(1)", "Down", show=False, id="title.down"),
        Binding("k", "move(-1)", "Up", show=False, id="title.up"),
    ]
    AUTO_FOCUS = "#menu"

    def compose(self) -> ComposeResult:
        with Vertical(id="title-box"):
            yield Static(BANNER, id="banner")
            yield Static("the board game, in the terminal", id="subtitle")
            yield OptionList(*(Option(item_text(i), id=i.id) for i in menu_items()), id="menu")
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
        menu.replace_option_prompt("continue", item_text(Item("continue", "c", "Continue"), words))
        if possible:
            menu.enable_option("continue")
        else:
            menu.disable_option("continue")

    def action_move(self, delta: int) -> None:
        menu = self.query_one("#menu", OptionList)
        (menu.action_cursor_down if delta > 0 else menu.action_cursor_up)()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.action_choose(message.option.id or "")

    def action_choose(self, item: str) -> None:
        app = cast("NctuiApp", self.app)
        if item.startswith(GAME):
            app.open_new_game(item.removeprefix(GAME))  # a game's screens are imported when it is chosen
        elif item == "continue":
            self._continue()
        elif item == "load":
            app.push_screen(LoadScreen(app.save_dir))
        elif item == "finished":
            app.push_screen(LoadScreen(app.save_dir, finished=True))
        elif item in ("practice", "tutorial", "rules"):
            self._for_a_game(item)
        elif item == "quit":
            app.exit()

    def _for_a_game(self, item: str) -> None:
        """Practice, Tutorial or Rules of the one game that has it, or of the game chosen."""
        entries = with_capability(item)
        if len(entries) == 1:
            self._open(item, entries[0].id)
        elif entries:
            words = next(i.words for i in menu_items() if i.id == item)
            self.app.push_screen(GamePicker(words, entries), lambda game_id: self._open(item, game_id))

    def _open(self, item: str, game_id: str | None) -> None:
        app = cast("NctuiApp", self.app)
        if game_id is None:
            return
        if item == "practice":
            app.push_screen(PracticeScreen(game_id, app.save_dir))
        elif item == "tutorial":
            app.start_tutorial(game_id)
        else:
            self._rules(registry.entry(game_id).rules)

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

    def _rules(self, ref: str) -> None:
        try:  # imported when asked: the rules screen is its own part, and may be missing
            from .rules import rules_screen
        except ModuleNotFoundError as exc:
            if exc.name != f"{__package__}.rules":
                raise
            self.notify("The rules summary is not available in this version yet.", title="Rules", severity="warning")
            return
        self.app.push_screen(rules_screen(self.app, ref))
