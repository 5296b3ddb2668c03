"""The hot-seat hand-off: a full screen that hides the whole game while the keyboard passes from
one person to the next.

The game screen pushes it when the decision passes to another human seat, *before* it draws
anything of that seat's view (hand, Dreams, options); it draws the new seat's view only once
this screen is dismissed with "go". Being a full ``Screen`` (not a modal), nothing of the game
shows through. What it shows is public: the seat's name and the decision it faces.

Dismissed with "go" (Enter/Space: the next person is looking), "undo" (u: the previous person
takes back the decision that passed the keyboard) or "quit" (q: save and quit).
"""

from __future__ import annotations

from typing import Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle, Vertical
from textual.screen import Screen
from textual.widgets import Static

HandoffResult = Literal["go", "undo", "quit"]


NEWS_LINES = 7  # the latest lines of news on the hand-off screen (the log holds them all)


class HandoffScreen(Screen[HandoffResult]):
    """"Pass the keyboard to B Blue": hides every hand until that person presses Enter/Space."""

    DEFAULT_CSS = """
    HandoffScreen { background: $background; }
    #handoff-box { width: 64; max-width: 100%; height: auto; border: heavy $accent; padding: 1 2; }
    #handoff-text { width: 100%; text-align: center; }
    #handoff-news { width: 100%; height: auto; max-height: 9; margin-top: 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("enter", "go", "Show my hand", id="handoff.go"),
        Binding("space", "go", "Show", show=False, id="handoff.go-space"),
        Binding("u", "undo", "Undo the last decision", id="handoff.undo"),
        Binding("q", "quit_game", "Save & quit", id="handoff.quit"),
    ]

    def __init__(self, seat: int, who: Text, name: str, *, decision: str = "", context: str = "",
                 news: tuple[str, ...] = ()) -> None:
        """``seat``: the seat the keyboard passes to; ``who``: its tag ('B Blue' in its colour);
        ``name``: its name ('Blue'); ``decision``: the public prompt of its decision;
        ``context``: e.g. 'Turn 3'; ``news``: public log lines since that person last looked."""
        super().__init__()
        self.seat, self.who, self.seat_name = seat, who, name
        self.decision, self.context, self.news = decision, context, news

    def compose(self) -> ComposeResult:
        with Middle(), Center(), Vertical(id="handoff-box"):
            yield Static(self._message(), id="handoff-text")
            if self.news:
                yield Static(self._news(), id="handoff-news")

    def _message(self) -> Text:
        t = Text()
        t.append("Pass the keyboard to\n\n")
        who = self.who.copy()
        who.stylize("bold reverse")
        t.append(" ")
        t.append_text(who)
        t.append(" \n\n")
        if self.context or self.decision:
            t.append(" · ".join(x for x in (self.context, self.decision) if x) + "\n\n", style="italic")
        t.append("Press ")
        t.append("Enter", style="bold")
        t.append(" or ")
        t.append("Space", style="bold")
        t.append(f" when only {self.seat_name} is looking.\n\n")
        t.append("u", style="bold")
        t.append(": take back the last decision · ")
        t.append("q", style="bold")
        t.append(": save and quit")
        return t

    def _news(self) -> Text:
        """The latest public lines since this person last looked (a conflict's reveal and result
        happen as the other person decides: this is where its first player learns of them)."""
        shown = self.news[-NEWS_LINES:]
        t = Text(f"Since you last looked ({len(self.news)} in the log):\n" if len(self.news) > len(shown)
                 else "Since you last looked:\n", style="bold")
        t.append("\n".join(f"· {line}" for line in shown), style="")
        return t

    def action_go(self) -> None:
        self.dismiss("go")

    def action_undo(self) -> None:
        self.dismiss("undo")

    def action_quit_game(self) -> None:
        self.dismiss("quit")
