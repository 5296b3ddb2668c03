"""The keys of the game screen, as a modal."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen

from ..textual_ext.placed import ComesUpOnce, Pane, PlacedStatic
from .kept import kept_screen, prepare, warm_backdrop

HELP = """\
[b]Nightmare Cathedral — keys[/b]

  [b]1[/b]–[b]9[/b]        choose that option of the current page (from the cursors too)
  [b]↑[/b] [b]↓[/b]        move the highlight (across pages)
  [b]←[/b] [b]→[/b]        previous / next page of options
  [b]Enter[/b]      choose the highlighted option (a click works too)
  [b]u[/b]          undo your last decision (and the computer's since)
  [b]r[/b]          redo
  [b]R[/b]          the rules, at the decision due (or at the rule just refused)
  [b]t[/b]          the timeline: every decision; Enter jumps back there (or forward, ↷ redo)
{keeping}  [b]g[/b]          the scores, once the game is over
  [b]ctrl+p[/b]     the command palette: every key here, by name
  [b]Tab[/b] [b]⇧Tab[/b]   next / previous panel (small terminals show one above the options)
  [b]b[/b] [b]m[/b] [b]c[/b]      a cursor on the board, matrix or hand (arrows/hjkl; Enter chooses the
             option for the area, space or card under it; Tab or Esc back)
  [b]i[/b]          the card inspector (←/→ other cards; i or q closes); on the board's
             cursor, the area inspector: the area in full, ←/→ the other areas
  [b]l[/b]          show the log (small terminals)
  [b]PgUp[/b] [b]PgDn[/b]  scroll the selected panel
  [b]q[/b]          {quit}
  [b]?[/b]          this help

[b]The board[/b]
  [b]◉E Name[/b]    an area: its symbol (glyph and letter) and name
  [b]R2 B1[/b]      Followers: the seat's letter (R, B, G, Y) and how many
  [b]s2[/b]         Shadows
  [b]⌂R2[/b]        a Fort of Red with 2 levels; [b]★[/b] marks a Fortress
  [b]♦R[/b]         Red's Shaper; [b]K[/b] the King's units in solo
  [b]N3[/b]         Nightmare 3;  [b]♚R[/b] Red controls this contested area
  [u]Name[/u]       an option of the decision due
  [reverse]Name[/reverse]       a Marked Area (its symbol is under the Turn marker)
  ░░░        an area covered in this player count

[b]The Turn track[/b]: letters say whose turn each position is; ▲ the Turn marker, ⚑ the Starting marker.
[b]Players[/b]: Sup supply, Lim Limbo, Hnd hand, Drm Dreams; ▶ deciding, * computer player.

[b]Hot-seat[/b]: when the decision passes to another person, a hand-off screen hides every hand until
that person presses Enter or Space. [b]Solo[/b]: the King's turn is shown a step at a time (Space: next,
a: all, p: stop pacing). Colours: [b]NCTUI_MONO=1[/b] or [b]NO_COLOR[/b] draws in greys; sides keep their letters.

Press ? or q (or Escape) to close."""


LOCAL_KEEPING = """\
  [b]s[/b]          save under a name        [b]o[/b]  load a saved game
  [b]x[/b]          save this position as a scenario (Practice on the title screen lists them)
  [b]h[/b]          a hint in practice games: the planner's choice, its next best options, and why
"""
LOCAL_QUIT = "save and quit (continue later: Continue on the title screen)"
# A game on a server: the server keeps it (every decision stored), hints are for practice here.
SERVER_KEEPING = """\
  [b]s[/b] [b]o[/b] [b]x[/b] [b]h[/b]    not in a game on a server: the server keeps the game and every decision
"""
SERVER_QUIT = "back to the lobby: your seat stays yours (join it again to go on)"


def help_text(*, server: bool = False) -> str:
    """The keys of the game screen: a game here, or a game on a server (``server``)."""
    return HELP.format(keeping=SERVER_KEEPING if server else LOCAL_KEEPING, quit=SERVER_QUIT if server else LOCAL_QUIT)


class HelpScreen(ComesUpOnce, ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="help.close"),
        Binding("question_mark", "dismiss", "Close", show=False, id="help.close-question"),
        Binding("q", "dismiss", "Close", show=False, id="help.close-q"),
    ]

    def __init__(self, *, server: bool = False) -> None:
        super().__init__()
        self.server = server

    def compose(self) -> ComposeResult:
        with Pane(id="help-box"):
            yield PlacedStatic(help_text(server=self.server), id="help-text")


def help_screen(app: App, *, server: bool = False) -> HelpScreen:
    """The app's help (made once and kept: ``screens/kept.py``), at its top."""
    screen = kept_screen(app, _name(server), lambda: HelpScreen(server=server), HelpScreen)
    if screen.is_mounted:
        screen.query_one(Pane).scroll_home(animate=False)
    return screen


def prepare_help_screen(app: App, *, server: bool = False) -> None:
    """Make the help out of sight, ahead of its key (``kept.prepare``); made, tint the screen in
    sight as it shows under it (``kept.warm_backdrop``: the help's, the timeline's, a card's)."""
    screen = kept_screen(app, _name(server), lambda: HelpScreen(server=server), HelpScreen)
    if screen.is_running:
        warm_backdrop(app, _name(server))
    else:
        prepare(app, _name(server), lambda: HelpScreen(server=server), HelpScreen)


def _name(server: bool) -> str:
    return "help-server" if server else "help"
