"""One line: where the game stands and who decides."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from nctui.ui.textual_ext.placed import DrawnByLine, PlacedOnce

from ...describe import words_for
from ...engine.facts import Facts
from ...engine.views import View
from .seats import seat_style, seat_tag

HINT = Style(color="#9a9aaa")


class StatusLine(DrawnByLine, PlacedOnce, Widget):
    """Turn, Time, the marked symbol (from ``facts``, set before the view) and the deciding seat
    of ``view``, and the undo policy; holds nothing else."""

    DEFAULT_CSS = """
    StatusLine { height: 1; width: 100%; }
    """

    view: reactive[View | None] = reactive(None)
    facts: reactive[Facts | None] = reactive(None)
    bots: reactive[frozenset[int]] = reactive(frozenset())
    undo: reactive[str] = reactive("")  # the undo policy's name

    def render(self) -> Text:
        t = Text(no_wrap=True, overflow="ellipsis", end="")
        if self.view is None or self.facts is None:
            return t
        state = self.view.state
        w = words_for(state.pack)
        time = w.pack.tracks.time
        if state.phase == "setup":
            t.append("Setup")
        else:
            t.append(f"Turn {state.turn_number} · Time {time[min(state.time, len(time) - 1)]}")
            sym = self.facts.marked_symbol
            if sym:
                t.append(" · Marked ")
                t.append(w.symbol(sym), Style(bold=True))
        t.append(" · ")
        if state.outcome is not None:
            t.append("Game over", Style(bold=True))
        elif state.decision is not None:
            seat = state.decision.seat
            t.append_text(seat_tag(state, seat))
            doing = " (computer) is thinking…" if seat in self.bots else " decides"
            t.append(doing, seat_style(state, seat, bold=False))
        hint = f"  {self.undo} undo · ? help" if self.undo else "  ? help"
        t.truncate(max(self.size.width - len(hint), 1), overflow="ellipsis")
        t.pad_right(max(self.size.width - len(hint) - t.cell_len, 0))
        t.append(hint, HINT)
        return t
