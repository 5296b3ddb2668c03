"""The keys of a game's screen, as a modal: the game's own, then the shell's (every game's)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen

from ..textual_ext.placed import ComesUpOnce, PlacedStatic, ReadingPane
from .kept import kept_screen, prepare, warm_backdrop

# The keys every game's screen has (``screens/shell.py``), after the game's own.
SHELL_HELP = """\
  [b]u[/b]          undo your last decision (and the computer's since)
  [b]r[/b]          redo
  [b]R[/b]          the rules, at the decision due (or at the rule just refused)
  [b]t[/b]          the timeline: every decision; Enter jumps back there (or forward, ↷ redo)
{keeping}  [b]ctrl+p[/b]     the command palette: every key here, by name
  [b]q[/b]          {quit}
  [b]?[/b]          this help
"""
HANDOFF_NOTE = (
    "[b]Hot-seat[/b]: when the decision passes to another person, a hand-off screen hides every hand "
    "until that person presses Enter or Space."
)
OPEN_NOTE = "[b]Hot-seat[/b]: nothing of this game is hidden: people at one keyboard share the screen."
COLOURS_NOTE = "Colours: [b]NCTUI_MONO=1[/b] or [b]NO_COLOR[/b] draws in greys; seats keep their letters."

LOCAL_KEEPING = """\
  [b]s[/b]          save under a name        [b]o[/b]  load a saved game
"""
LOCAL_QUIT = "save and quit (continue later: Continue on the title screen)"
# A game on a server: the server keeps it (every decision stored), hints are for practice here.
SERVER_KEEPING = """\
  [b]s[/b] [b]o[/b]        not in a game on a server: the server keeps the game and every decision
"""
SERVER_QUIT = "back to the lobby: your seat stays yours (join it again to go on)"


def help_text(
    title: str, keys: str, notes: str = "", *, local_keys: str = "", server: bool = False, hidden: bool = True
) -> str:
    """The help of a game's screen: ``title``'s own ``keys``, the shell's (``local_keys``: the
    game's keys for a game played here, not on a server), then ``notes`` and the shell's
    (``hidden``: the game hides hands, people at one keyboard pass it through the hand-off)."""
    keeping = SERVER_KEEPING if server else LOCAL_KEEPING + local_keys
    shell = SHELL_HELP.format(keeping=keeping, quit=SERVER_QUIT if server else LOCAL_QUIT)
    seats = f"{HANDOFF_NOTE if hidden else OPEN_NOTE} {COLOURS_NOTE}"
    parts = [f"[b]{title} — keys[/b]\n\n{keys}{shell}", notes, seats, "Press ? or q (or Escape) to close."]
    return "\n\n".join(part.strip("\n") for part in parts if part)


class HelpScreen(ComesUpOnce, ModalScreen[None]):
    """The keys, in a pane that scrolls (↑/↓, j/k, PgUp/PgDn, Home/End) on a small terminal."""

    AUTO_FOCUS = "#help-box"
    BINDINGS = [
        Binding("j", "scroll(1)", "Down", show=False, id="help.down"),
        Binding("k", "scroll(-1)", "Up", show=False, id="help.up"),
        Binding("escape", "dismiss", "Close", id="help.close"),
        Binding("question_mark", "dismiss", "Close", show=False, id="help.close-question"),
        Binding("q", "dismiss", "Close", show=False, id="help.close-q"),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def action_scroll(self, lines: int) -> None:
        self.query_one(ReadingPane).scroll_relative(y=lines, animate=False)

    def compose(self) -> ComposeResult:
        with ReadingPane(id="help-box"):
            yield PlacedStatic(self.text, id="help-text")


NAME = "help"  # the kept help's name: one, made again for another text (another game)


def _kept(app: App, text: str) -> HelpScreen:
    return kept_screen(app, NAME, lambda: HelpScreen(text), HelpScreen, fits=lambda kept: kept.text == text)


def help_screen(app: App, text: str) -> HelpScreen:
    """The app's help showing ``text`` (made once and kept: ``screens/kept.py``), at its top."""
    screen = _kept(app, text)
    if screen.is_mounted:
        screen.query_one(ReadingPane).scroll_home(animate=False)
    return screen


def prepare_help_screen(app: App, text: str, *, make: bool = True) -> None:
    """Make the help out of sight, ahead of its key (``kept.prepare``); made, tint the screen in
    sight as it shows under it (``kept.warm_backdrop``: the help's, the timeline's, a card's);
    ``make`` False: only the one made before (none is made)."""
    if not make and not (app.is_screen_installed(NAME) and app.get_screen(NAME).is_running):
        return
    screen = _kept(app, text)
    if screen.is_running:
        warm_backdrop(app, NAME)
    else:
        prepare(app, NAME, lambda: HelpScreen(text), HelpScreen, fits=lambda kept: kept.text == text)
