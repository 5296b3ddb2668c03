"""Solo: the King of Horrors' turn (KING'S TURN), one panel per turn, read at the player's pace.

The engine has already resolved the King's turn when this screen opens: it presents the events
of the decisions just taken that belong to the King's turn, one line per step (Space/Enter: the
next, ``a``: all at once), with the Horror Die once it is rolled and the Day spaces of the
Action Matrix (the King's Dreamer ♛ and its Cultists ●) as they were before the roll, then as
they are after the Dreamer moved. The King's later decisions of the same turn are added to the
open panel (``add``), so a turn reads as one list; the list scrolls (↑/↓, PgUp/PgDn, Home/End)
and, once every step is shown, ends with what the turn changed. ``p`` turns the pacing off for
the rest of the game (the log still has every line). Dismissed with whether to keep pacing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...describe import describe_changes, describe_event, words_for
from ...engine.events import Event, KingHorrorDie
from ...engine.state import GameState

KING_STEP = Style(bold=True)
DIE = Style(bold=True, reverse=True)


class KingStep(NamedTuple):
    kind: str
    text: str
    value: int


def king_turn_events(events: Iterable[Event], king_seat: int, *, during: bool) -> list[Event]:
    """The events of ``events`` that happen in a King's turn: from a ``turn_begins`` of the
    King's seat (or from the start when ``during``: the decision was taken inside the King's
    turn) to the next ``turn_begins`` of another seat. Empty when the King itself did nothing
    there (a conflict the player just finished, say): nothing to pace."""
    mine: list[Event] = []
    inside = during
    for e in events:
        if e.kind == "turn_begins":
            inside = e.seat == king_seat
        if inside:
            mine.append(e)
    return mine if any(e.kind.startswith("king_") for e in mine) else []


def king_steps(events: Iterable[Event], state: GameState) -> list[KingStep]:
    return [KingStep(e.kind, describe_event(e, state), e.value if isinstance(e, KingHorrorDie) else 0)
            for e in events]


def matrix_line(state: GameState | None) -> Text:
    """The Day spaces in the King's rondel order: ♛ on the Dreamer's, ● per Cultist."""
    t = Text(no_wrap=True, overflow="ellipsis")
    if state is None or state.king is None:
        return t
    k = state.king
    w = words_for(state.pack)
    for i, action in enumerate(w.pack.matrix.rondel):
        if i:
            t.append(" → ", Style(dim=True))
        here = action == k.dreamer
        t.append(("♛" if here else "") + w.day_short(action), Style(bold=here, reverse=here))
        cultists = k.day_cultists[i] if i < len(k.day_cultists) else 0
        t.append(" " + ("●" * cultists if cultists else "·"))
    return t


def die_face(value: int) -> Text:
    """The Horror Die on one line: the panel's lines go to the steps at 80x24."""
    return Text.assemble(("the Horror Die ", Style(bold=True)), (f" {value} ", DIE))


class KingTurnScreen(ModalScreen[bool]):
    """The King's turn, a step per Space/Enter; dismissed with whether to keep pacing."""

    DEFAULT_CSS = """
    /* docked low, so the board and the matrix stay in view above the King's steps */
    KingTurnScreen { align: center bottom; }
    #king-box { width: 100%; height: 70%; min-height: 12; background: $panel; border: round $error;
                padding: 0 1; }
    #king-head { height: auto; }
    #king-lines { height: 1fr; }
    #king-hint { height: 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("space", "next", "Next step", id="king.next"),
        Binding("enter", "next", "Next step", show=False, id="king.next-enter"),
        Binding("a", "all", "All steps", id="king.all"),
        Binding("p", "stop_pacing", "Stop pacing", id="king.stop-pacing"),
        Binding("escape", "close", "Close", id="king.close"),
        Binding("x", "close", "Close", show=False, id="king.close-x"),
        # the steps scroll from the keyboard (the list is not focusable: no key is stolen)
        Binding("up", "scroll(-1)", "Scroll up", show=False, id="king.up"),
        Binding("down", "scroll(1)", "Scroll down", show=False, id="king.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="king.pageup"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="king.pagedown"),
        Binding("home", "edge(0)", "Top", show=False, id="king.home"),
        Binding("end", "edge(1)", "Bottom", show=False, id="king.end"),
    ]

    def __init__(self, steps: list[KingStep], before: GameState | None, after: GameState, *, read: int = 0) -> None:
        """``steps``: the turn's steps so far; ``before``: the position as the turn began;
        ``read``: how many of the steps were shown before (the turn goes on after a decision of
        the player's: the panel comes back with the whole turn, at the first new step)."""
        super().__init__()
        self.steps, self.before, self.after = steps, before, after
        self.shown = min(read + 1, len(steps))  # how many steps are on screen
        self.pacing = True

    def compose(self) -> ComposeResult:
        with Vertical(id="king-box"):
            yield Static(id="king-head")
            with VerticalScroll(id="king-lines", can_focus=False):
                yield Static(id="king-text")
            yield Static(id="king-hint")

    def on_mount(self) -> None:
        self._draw()

    @property
    def done(self) -> bool:
        return self.shown >= len(self.steps)

    def add(self, steps: list[KingStep], after: GameState) -> None:
        """The King's next decisions of the same turn: more steps in this panel, not a new one."""
        self.steps = self.steps + steps
        self.after = after
        if self.is_mounted:
            self._draw(follow=False)

    def summary(self) -> list[str]:
        """What the turn changed, from the position before it to the one after it."""
        return describe_changes(self.before, self.after) if self.before is not None else []

    def _draw(self, *, follow: bool = True) -> None:
        seen = self.steps[: self.shown]
        moved = any(s.kind == "king_dreamer_moves" for s in seen)
        die = next((s.value for s in seen if s.kind == "king_horror_die"), None)
        head = Text(f"The King's turn · step {self.shown} of {len(self.steps)}", style="bold")
        if die is not None:
            head.append(" · ")
            head.append_text(die_face(die))
        board = Text("Day spaces ", style=Style(dim=True))
        board.append_text(matrix_line(self.after if moved or self.before is None else self.before))
        self.query_one("#king-head", Static).update(Group(head, board))
        lines = Text()
        for i, step in enumerate(seen):
            if i:
                lines.append("\n")
            lines.append("· " + step.text, KING_STEP if step.kind.startswith("king_") else Style())
        if self.done:
            changes = self.summary()
            lines.append("\n\nWhat the turn changed:" if changes else "\n\nThe turn changed nothing on the board.",
                         Style(bold=True, underline=True))
            for line in changes:
                lines.append(f"\n  {line}")
        self.query_one("#king-text", Static).update(lines)
        if follow:  # the newest step in view; ↑/PgUp read back
            self.call_after_refresh(self._lines().scroll_end, animate=False)
        more = "Space: next · a: all · " if not self.done else "Space: close · "
        self.query_one("#king-hint", Static).update(
            Text(more + "↑/↓ PgUp/PgDn: scroll · p: stop pacing · x: close", no_wrap=True, overflow="ellipsis"))

    def _lines(self) -> VerticalScroll:
        return self.query_one("#king-lines", VerticalScroll)

    def action_scroll(self, lines: int) -> None:
        self._lines().scroll_relative(y=lines, animate=False)

    def action_page(self, pages: int) -> None:
        box = self._lines()
        box.scroll_relative(y=pages * max(box.content_region.height - 1, 1), animate=False)

    def action_edge(self, end: int) -> None:
        box = self._lines()
        box.scroll_to(y=box.max_scroll_y if end else 0, animate=False)

    def action_next(self) -> None:
        if self.done:
            self.dismiss(self.pacing)
            return
        self.shown += 1
        self._draw()

    def action_all(self) -> None:
        self.shown = len(self.steps)
        self._draw()

    def action_stop_pacing(self) -> None:
        self.pacing = False
        self.notify("The King's turns will no longer be paced (they stay in the log). "
                    "Turn pacing back on from the command palette (ctrl+p).", title="King's turn")
        self.dismiss(False)

    def action_close(self) -> None:
        self.dismiss(self.pacing)
