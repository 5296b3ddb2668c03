"""The conflict panel (CONFLICTS 1-12): each conflict just resolved, read at the player's pace.

It opens over the game once a conflict a person took part in is over (in hot-seat, for the other
person after the hand-off too); before that, as far as it went, when a person must decide in it
(the tie, a retreat, the Victory), so the cards and damage are read first; and with ``f`` for
the latest conflicts at any time. A conflict
reads in stages, as at the table: the sides with their units and Fort levels and the cards
played face down; Space reveals them with their ⚔ Attacks and ⛨ Defences; then the damage and
losses; then the winner, the retreat, the Victory or Defeat effect and what is left. ``a``
shows everything; the text scrolls (↑/↓, PgUp/PgDn); Enter/Space at the end or Escape close.
The lines come from ``describe.conflicts``: the panel holds no game state of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from nctui.ui.textual_ext.placed import ComesUpOnce

from ...describe.conflicts import ConflictLine, ConflictReport
from ...engine.state import GameState
from ..widgets.seats import seat_style

# The stage each kind of line is shown at: cards face down, revealed, damage, the outcome.
STAGE = {"sides": 0, "cards": 0, "reveal": 1, "damage": 2, "winner": 3, "retreat": 3, "effect": 3, "after": 3}
STAGES = 4
HINTS = ("Space: reveal the cards", "Space: damage and losses", "Space: the winner", "Space: close")
TITLE = Style(bold=True, underline=True)


class ConflictScreen(ComesUpOnce, ModalScreen[None]):
    """Conflicts, a stage per Space; ``a`` all; Escape closes."""

    DEFAULT_CSS = """
    ConflictScreen { align: center middle; }
    #conflict-box { width: 100%; max-width: 100; height: 80%; min-height: 12; background: $panel;
                    border: round $warning; padding: 0 1; }
    #conflict-lines { height: 1fr; }
    #conflict-hint { height: 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("space", "next", "Next", id="conflict.next"),
        Binding("enter", "next", "Next", show=False, id="conflict.next-enter"),
        Binding("a", "all", "Show all", id="conflict.all"),
        Binding("escape", "close", "Close", id="conflict.close"),
        Binding("x", "close", "Close", show=False, id="conflict.close-x"),
        Binding("up", "scroll(-1)", "Scroll up", show=False, id="conflict.up"),
        Binding("down", "scroll(1)", "Scroll down", show=False, id="conflict.down"),
        Binding("pageup", "scroll(-8)", "Page up", show=False, id="conflict.pageup"),
        Binding("pagedown", "scroll(8)", "Page down", show=False, id="conflict.pagedown"),
    ]

    def __init__(
        self,
        reports: Sequence[ConflictReport],
        state: GameState,
        *,
        paced: bool = True,
        whole: Sequence[bool] = (),
    ) -> None:
        """``reports``: the conflicts to show, in order; ``state``: the viewer's state (names);
        ``paced``: start at the cards face down (False: everything at once); ``whole``: for each
        report, whether it is shown at once (read up to a decision already)."""
        super().__init__()
        self.reports, self.state = tuple(reports), state
        self.whole = tuple(whole) + (False,) * (len(self.reports) - len(whole))
        self.conflict = 0  # the conflict being revealed
        self.stage = self._first_stage(0) if paced else STAGES - 1
        if not paced:
            self.conflict = max(len(self.reports) - 1, 0)

    def compose(self) -> ComposeResult:
        with Vertical(id="conflict-box"):
            with VerticalScroll(id="conflict-lines", can_focus=False):
                yield Static(id="conflict-text")
            yield Static(id="conflict-hint")

    def on_mount(self) -> None:
        self._draw()

    def _first_stage(self, conflict: int) -> int:
        return STAGES - 1 if conflict < len(self.whole) and self.whole[conflict] else 0

    @property
    def done(self) -> bool:
        return self.conflict >= len(self.reports) - 1 and self.stage >= STAGES - 1

    def text(self) -> Text:
        """Every conflict up to the one being revealed, each up to its stage."""
        out = Text()
        for i, report in enumerate(self.reports[: self.conflict + 1]):
            stage = self.stage if i == self.conflict else STAGES - 1
            if i:
                out.append("\n\n")
            head = report.title(self.state)
            if len(self.reports) > 1:
                head = f"{i + 1} of {len(self.reports)} · {head}"
            out.append(head, TITLE)
            if not report.done and stage >= STAGES - 1:
                out.append("\n(still being resolved)", Style(italic=True))
            for line in report.lines:
                if STAGE.get(line.kind, 0) <= stage:
                    out.append("\n")
                    out.append_text(self._line(line))
        return out

    def _line(self, line: ConflictLine) -> Text:
        style = seat_style(self.state, line.side, bold=line.kind in ("winner", "reveal"))
        if line.kind == "after":
            style = Style(italic=True)
        bullet = "" if line.kind == "sides" else "  " if line.text.startswith(" ") else "· "
        return Text(bullet + line.text, style)

    def _draw(self) -> None:
        self.query_one("#conflict-text", Static).update(self.text())
        self.call_after_refresh(self._lines().scroll_end, animate=False)
        hint = "Space: next conflict" if self.stage >= STAGES - 1 and not self.done else HINTS[self.stage]
        self.query_one("#conflict-hint", Static).update(
            Text(f"{hint} · a: all · ↑/↓ scroll · Esc: close", no_wrap=True, overflow="ellipsis")
        )

    def _lines(self) -> VerticalScroll:
        return self.query_one("#conflict-lines", VerticalScroll)

    def action_next(self) -> None:
        if self.done:
            self.dismiss(None)
            return
        if self.stage < STAGES - 1:
            self.stage += 1
        else:
            self.conflict += 1
            self.stage = self._first_stage(self.conflict)
        self._draw()

    def action_all(self) -> None:
        self.conflict, self.stage = max(len(self.reports) - 1, 0), STAGES - 1
        self._draw()

    def action_scroll(self, lines: int) -> None:
        self._lines().scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
