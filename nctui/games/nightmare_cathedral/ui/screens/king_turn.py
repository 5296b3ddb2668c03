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

from collections.abc import Callable, Sequence
from typing import NamedTuple

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from nctui.ui.textual_ext.placed import ComesUpOnce

from ...describe import describe_changes, describe_event, king_reasons, words_for
from ...engine.events import Event, KingHorrorDie
from ...engine.state import GameState

KING_STEP = Style(bold=True)
WHY = Style(dim=True, italic=True)
READING = Style(reverse=True)
DIE = Style(bold=True, reverse=True)


class KingStep(NamedTuple):
    kind: str
    text: str
    value: int
    why: str = ""  # the rule or the card/die that made the King do it ('' for others' events)
    at: int = -1  # the position the board shows while the step is read (a state id; -1: the present)
    area: str = ""  # the area the step acts on: the board outlines it while the step is read


def king_turn_indices(events: Sequence[Event], king_seat: int, *, during: bool) -> list[int]:
    """The indices of the events of ``events`` that happen in a King's turn: from a
    ``turn_begins`` of the King's seat (or from the start when ``during``: the decision was
    taken inside the King's turn) to the next ``turn_begins`` of another seat. Empty when the
    King itself did nothing there (a conflict the player just finished, say): nothing to pace."""
    mine: list[int] = []
    inside = during
    for i, e in enumerate(events):
        if e.kind == "turn_begins":
            inside = e.seat == king_seat
        if inside:
            mine.append(i)
    return mine if any(events[i].kind.startswith("king_") for i in mine) else []


def king_turn_events(events: Sequence[Event], king_seat: int, *, during: bool) -> list[Event]:
    return [events[i] for i in king_turn_indices(events, king_seat, during=during)]


def king_steps(
    events: Sequence[Event], state: GameState, at: Sequence[int] = (), context: Sequence[Event] = ()
) -> list[KingStep]:
    """A line per event, with why the King did it (``describe.king_reasons``, read after the
    turn's earlier events ``context``: the action being resolved) and, from ``at``, the state id
    position the board shows while each is read."""
    whys = king_reasons([*context, *events], words_for(state.pack))[len(context) :]
    return [
        KingStep(
            e.kind,
            describe_event(e, state),
            e.value if isinstance(e, KingHorrorDie) else 0,
            whys[i],
            at[i] if i < len(at) else -1,
            str(getattr(e, "area", "")),
        )
        for i, e in enumerate(events)
    ]


def board_positions(led_to: Sequence[int]) -> list[int]:
    """For events that led to the state ids ``led_to`` (one decision's events share its id), the
    position to show while each is read: the one before its decision, but for the decision's
    last event the one after it. The history keeps a position per decision, not per event:
    this way the board never shows what is still to be read."""
    return [n if i + 1 == len(led_to) or led_to[i + 1] != n else n - 1 for i, n in enumerate(led_to)]


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


class KingTurnScreen(ComesUpOnce, ModalScreen[bool]):
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
        # the steps scroll from the keyboard (the list is not focusable: no key is stolen)
        Binding("up", "step(-1)", "Previous step", show=False, id="king.up"),
        Binding("down", "step(1)", "Next step shown", show=False, id="king.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="king.pageup"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="king.pagedown"),
        Binding("home", "edge(0)", "Top", show=False, id="king.home"),
        Binding("end", "edge(1)", "Bottom", show=False, id="king.end"),
    ]

    def __init__(
        self,
        steps: list[KingStep],
        before: GameState | None,
        after: GameState,
        *,
        read: int = 0,
        show_at: Callable[[int | None, str], None] | None = None,
    ) -> None:
        """``steps``: the turn's steps so far; ``before``: the position as the turn began;
        ``read``: how many of the steps were shown before (the turn goes on after a decision of
        the player's: the panel comes back with the whole turn, at the first new step);
        ``show_at``: called with the position (state id) and area of the step being read (the
        board behind shows them), with None when the panel closes (the board shows the present)."""
        super().__init__()
        self.steps, self.before, self.after = steps, before, after
        self.shown = min(read + 1, len(steps))  # how many steps are on screen
        self.reading = self.shown - 1  # the step under the cursor (↑/↓ move it)
        self.pacing = True
        self.show_at = show_at
        self._starts: list[int] = []  # the line each shown step starts on, to scroll to the cursor

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
        head = Text(f"The King's turn · step {self.reading + 1} of {len(self.steps)}", style="bold")
        if die is not None:
            head.append(" · ")
            head.append_text(die_face(die))
        board = Text("Day spaces ", style=Style(dim=True))
        board.append_text(matrix_line(self.after if moved or self.before is None else self.before))
        self.query_one("#king-head", Static).update(Group(head, board))
        lines = Text()
        width = max(self._lines().content_region.width, 20) if self.is_mounted else 76
        self._starts = []
        row = 0
        for i, step in enumerate(seen):
            line = Text("▸ " if i == self.reading else "· ", READING if i == self.reading else Style())
            line.append(step.text, KING_STEP if step.kind.startswith("king_") else Style())
            if step.why:  # a run of the same step (Followers placed one by one) says its rule once
                same = i and seen[i - 1].kind == step.kind and seen[i - 1].why == step.why
                line.append(" — the same rule" if same else f" — {step.why}", WHY)
            self._starts.append(row)
            row += len(line.wrap(self.app.console, width)) if self.is_mounted else 1
            if i:
                lines.append("\n")
            lines.append_text(line)
        if self.done:
            changes = self.summary()
            lines.append(
                "\n\nWhat the turn changed:" if changes else "\n\nThe turn changed nothing on the board.",
                Style(bold=True, underline=True),
            )
            for change in changes:
                lines.append(f"\n  {change}")
        self.query_one("#king-text", Static).update(lines)
        if follow:  # the step being read in view; ↑/↓ move through the steps
            self.call_after_refresh(self._scroll_to_reading)
        self._show_board()
        more = "Space: next · a: all · " if not self.done else "Space: close · "
        self.query_one("#king-hint", Static).update(
            Text(more + "↑/↓: steps · PgUp/PgDn · p: stop pacing · Esc: close", no_wrap=True, overflow="ellipsis")
        )

    def _scroll_to_reading(self) -> None:
        box = self._lines()
        if (self.reading >= len(self.steps) - 1 and self.done) or not self._starts:
            box.scroll_end(animate=False)  # the last step: the summary below it in view too
            return
        top = self._starts[min(self.reading, len(self._starts) - 1)]
        height = max(box.content_region.height, 1)
        if top < box.scroll_y or top >= box.scroll_y + height - 1:
            box.scroll_to(y=max(top - height // 2, 0), animate=False)

    def _show_board(self) -> None:
        """The board behind shows the position after the step being read."""
        if self.show_at is not None and 0 <= self.reading < len(self.steps) and self.steps[self.reading].at >= 0:
            self.show_at(self.steps[self.reading].at, self.steps[self.reading].area)

    def _close(self, pacing: bool) -> None:
        if self.show_at is not None:
            self.show_at(None, "")  # the board shows the present again
        self.dismiss(pacing)

    def _lines(self) -> VerticalScroll:
        return self.query_one("#king-lines", VerticalScroll)

    def action_step(self, by: int) -> None:
        """↑/↓: the cursor to the previous/next step shown; the board follows it."""
        reading = max(0, min(self.reading + by, self.shown - 1))
        if reading != self.reading:
            self.reading = reading
            self._draw()
        elif by > 0:  # on the last step: read the summary below it
            self._lines().scroll_relative(y=1, animate=False)
        else:
            self._lines().scroll_relative(y=-1, animate=False)

    def action_page(self, pages: int) -> None:
        """PgUp/PgDn: a page of lines; the cursor goes to the first step on the new page."""
        box = self._lines()
        y = max(0.0, min(box.scroll_y + pages * max(box.content_region.height - 1, 1), box.max_scroll_y))
        box.scroll_to(y=y, animate=False)
        self._read_from(y)

    def action_edge(self, end: int) -> None:
        box = self._lines()
        y = box.max_scroll_y if end else 0
        box.scroll_to(y=y, animate=False)
        self._read_from(y)

    def _read_from(self, y: float) -> None:
        """The cursor on the first step starting at line ``y`` or below, without scrolling."""
        reading = next((i for i, top in enumerate(self._starts) if top >= y), len(self._starts) - 1)
        if 0 <= reading != self.reading:
            self.reading = reading
            self._draw(follow=False)

    def action_next(self) -> None:
        if self.done:
            self._close(self.pacing)
            return
        self.shown += 1
        self.reading = self.shown - 1
        self._draw()

    def action_all(self) -> None:
        self.shown = len(self.steps)
        self.reading = self.shown - 1
        self._draw()

    def action_stop_pacing(self) -> None:
        self.pacing = False
        self.notify(
            "The King's turns will no longer be paced (they stay in the log). "
            "Turn pacing back on from the command palette (ctrl+p).",
            title="King's turn",
        )
        self._close(False)

    def action_close(self) -> None:
        self._close(self.pacing)
