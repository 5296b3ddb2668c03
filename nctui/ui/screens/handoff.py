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

from collections.abc import Callable
from time import monotonic
from typing import ClassVar, Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.layout import DockArrangeResult
from textual.screen import Screen
from textual.scrollbar import ScrollBar
from textual.widget import Widget

from ..textual_ext.placed import Box, ComesUpOnce, Pane, PlacedStatic

HandoffResult = Literal["go", "undo", "quit"]

# Seconds a hand-off (and the decision after it) ignores keys: a quick double press that chose an
# option must not also pass the keyboard, and one that passed it must not also choose an option.
GUARD = 0.4
SHORT = 30  # terminal heights below this get a shorter news list (the box fits 24 lines)
TINY = 16  # and below this no news and no blank lines: the instruction fits 40x12


class NewsBox(Pane):
    """The news since a person last looked, the newest line in view from the layout that sizes
    the box (Textual's anchor scrolls a layout late: the box was first drawn at its oldest lines,
    then laid out and drawn again ~40 ms later); the older lines scroll up."""

    following = True  # kept at the newest line (until scrolled up)

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        result = super().arrange(size, optimal)
        if self.following:
            newest = max(0, result.spatial_map.total_region.bottom - size.height)
            self.set_reactive(Widget.scroll_y, float(newest))
            self.set_reactive(Widget.scroll_target_y, float(newest))
            bar = self.vertical_scrollbar
            bar.set_reactive(ScrollBar.position, float(newest))  # its thumb at the bottom too
        return result


class HandoffScreen(ComesUpOnce, Screen[HandoffResult]):
    """ "Pass the keyboard to B Blue": hides every hand until that person presses Enter/Space."""

    DEFAULT_CSS = """
    HandoffScreen { background: $background; align: center middle; }
    #handoff-box { width: 64; max-width: 100%; height: auto; border: heavy $accent; padding: 1 2; }
    #handoff-text { width: 100%; text-align: center; }
    #handoff-echo { width: 100%; text-align: center; margin-top: 1; }
    /* every line of news, scrolled to the newest; at 80x24 the box still fits the screen */
    /* the scrollbar always there: coming and going with the news' length, it laid the screen
       out twice more, one frame each */
    #handoff-news-box { width: 100%; height: auto; max-height: 9; margin-top: 1; overflow-y: scroll; }
    /* a short terminal (80x24): the box, with an echo and a prompt on two lines, fits */
    HandoffScreen.-short #handoff-news-box { max-height: 6; }
    #handoff-news { width: 100%; height: auto; color: $text-muted; }
    HandoffScreen.-tiny #handoff-box { padding: 0 1; }
    HandoffScreen.-tiny #handoff-echo { margin-top: 0; }
    HandoffScreen.-tiny #handoff-news-box { display: none; }
    """
    BINDINGS = [
        Binding("enter", "go", "Show my hand", id="handoff.go"),
        Binding("space", "go", "Show", show=False, id="handoff.go-space"),
        Binding("u", "undo", "Undo the last decision", id="handoff.undo"),
        Binding("q", "quit_game", "Save & quit", id="handoff.quit"),
        # the news scrolls from the keyboard: the box is not focusable, so no key is stolen
        Binding("up", "scroll_news(-1)", "Scroll up", show=False, id="handoff.up"),
        Binding("down", "scroll_news(1)", "Scroll down", show=False, id="handoff.down"),
        Binding("pageup", "scroll_news(-8)", "Page up", show=False, id="handoff.pageup"),
        Binding("pagedown", "scroll_news(8)", "Page down", show=False, id="handoff.pagedown"),
    ]

    guard: ClassVar[float] = GUARD  # tests that press at machine speed set it to 0

    def __init__(
        self,
        seat: int,
        who: Text,
        name: str,
        *,
        decision: str = "",
        context: str = "",
        news: tuple[str, ...] = (),
        echo: str = "",
        on_go: Callable[[], None] | None = None,
    ) -> None:
        """``seat``: the seat the keyboard passes to; ``who``: its tag ('B Blue' in its colour);
        ``name``: its name ('Blue'); ``decision``: the public prompt of its decision;
        ``context``: e.g. 'Turn 3'; ``news``: public log lines since that person last looked;
        ``echo``: the option the person before just picked, in public words ('Blue chose 2:
        Conquer Ash Nave'), so a press that went astray is seen before the keyboard passes."""
        super().__init__()
        self.on_go = on_go  # called just before "go" closes this screen (the next view is drawn under it)
        self.seat, self.who, self.seat_name = seat, who, name
        self.decision, self.context, self.news, self.echo = decision, context, news, echo
        self._ready_at = monotonic() + self.guard  # keys are taken from then on
        self._held = False  # a key came within the guard (the screen says to wait)

    def compose(self) -> ComposeResult:
        # Placed once (widgets.common): the hand-off comes in one layout and one frame; styled
        # once (ComesUpOnce: its class set before its widgets mount).
        self.set_class(self.app.size.height < SHORT, "-short")
        self.set_class(self.app.size.height < TINY, "-tiny")
        with Box(id="handoff-box"):
            if self.echo:
                yield PlacedStatic(Text(self.echo, style="bold"), id="handoff-echo")
            yield PlacedStatic(self._message(), id="handoff-text")
            if self.news:
                with NewsBox(id="handoff-news-box"):
                    yield PlacedStatic(self._news(), id="handoff-news")

    def on_resize(self) -> None:
        self.set_class(self.app.size.height < SHORT, "-short")
        self.set_class(self.app.size.height < TINY, "-tiny")

    @property
    def ready(self) -> bool:
        return monotonic() >= self._ready_at

    def _not_yet(self) -> bool:
        """A key pressed within the guard: not taken, and the screen says so until keys are
        taken. (Said only then: a screen that changed by itself a moment after it appeared
        would cost a redraw on every hand-off.)"""
        if self.ready:
            return False
        if not self._held:
            self._held = True
            self._show_text()
            self.set_timer(self._ready_at - monotonic(), self._show_text)
        return True

    def _show_text(self) -> None:
        self.query_one("#handoff-text", PlacedStatic).update(self._message())

    def _news_box(self) -> NewsBox:
        return self.query_one("#handoff-news-box", NewsBox)

    def action_scroll_news(self, lines: int) -> None:
        if self.news:
            box = self._news_box()
            box.scroll_relative(y=lines, animate=False, immediate=True)
            box.following = box.scroll_target_y >= box.max_scroll_y  # back at the newest: it follows again

    def _message(self) -> Text:
        t = Text()
        tiny = self.app.size.height < TINY  # 40x12: the instruction first, on lines of its own
        gap = "\n" if tiny else "\n\n"
        t.append("Pass the keyboard to" + gap)
        who = self.who.copy()
        who.stylize("bold reverse")
        t.append(" ")
        t.append_text(who)
        t.append(" " + gap)
        if (self.context or self.decision) and not tiny:
            t.append(" · ".join(x for x in (self.context, self.decision) if x) + gap, style="italic")
        if self._held and not self.ready:
            t.append("(a moment: a key pressed just now is not taken)", style="dim")
            return t
        t.append("Press ")
        t.append("Enter", style="bold")
        t.append(" or ")
        t.append("Space", style="bold")
        t.append(f" when only {self.seat_name} is looking.{gap}")
        t.append("u", style="bold")
        t.append(": take back the last decision · ")
        t.append("q", style="bold")
        t.append(": save and quit")
        return t

    def _news(self) -> Text:
        """The latest public lines since this person last looked (a conflict's reveal and result
        happen as the other person decides: this is where its first player learns of them)."""
        t = Text(f"Since you last looked ({len(self.news)}, newest last; ↑/↓ scroll):\n", style="bold")
        t.append("\n".join(f"· {line}" for line in self.news), style="")
        return t

    def action_go(self) -> None:
        if not self._not_yet():
            if self.on_go is not None:
                self.on_go()
            self.dismiss("go")

    def action_undo(self) -> None:
        if not self._not_yet():
            self.dismiss("undo")

    def action_quit_game(self) -> None:
        if not self._not_yet():
            self.dismiss("quit")
