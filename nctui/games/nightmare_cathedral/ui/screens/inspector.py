"""The card inspector: one card (or Action card stack) in full, in the pack's words; the same
screen is the area inspector (``noun="Area"``: each area of the board in full, from the board's
cursor).

It browses the cards the viewer may see (``widgets.cards.entries``: the hand, the Dreams, every
player's Action cards, the Dreams played, the offer, Reward tiles, the Nightmares, the King's
cards in solo) with the arrow keys; ``i``, ``q`` or Escape close it. It is handed the entries
when it opens and holds nothing of the game.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import ModalScreen

from nctui.ui.textual_ext.placed import ComesUpOnce, PlacedStatic, ReadingPane

from ..widgets.cards import CardEntry

HINT = Style(color="#9a9aaa")


class InspectorScreen(ComesUpOnce, ModalScreen[None]):
    """Shows ``entries[index]``; arrows move among the entries."""

    BINDINGS = [
        Binding("i", "dismiss", "Close", id="inspector.close"),
        Binding("q", "dismiss", "Close", show=False, id="inspector.close-q"),
        Binding("escape", "dismiss", "Close", show=False, id="inspector.close-escape"),
        Binding("right,down,l,j", "browse(1)", "Next card", show=False, id="inspector.next"),
        Binding("left,up,h,k", "browse(-1)", "Previous card", show=False, id="inspector.previous"),
        Binding("home", "jump(0)", "First card", show=False, id="inspector.first"),
        Binding("end", "jump(-1)", "Last card", show=False, id="inspector.last"),
    ]

    index: reactive[int] = reactive(0)

    def __init__(self, entries: Sequence[CardEntry], index: int = 0, *, noun: str = "Card") -> None:
        super().__init__()
        self.entries, self.noun = tuple(entries), noun
        self.set_reactive(InspectorScreen.index, min(max(index, 0), max(len(self.entries) - 1, 0)))

    def compose(self) -> ComposeResult:
        with ReadingPane(id="inspector-box"):
            yield PlacedStatic(id="inspector-card")

    def on_mount(self) -> None:
        self._show()

    def watch_index(self) -> None:
        if self.is_mounted:
            self._show()

    def action_browse(self, delta: int) -> None:
        if self.entries:
            self.index = (self.index + delta) % len(self.entries)

    def action_jump(self, index: int) -> None:
        if self.entries:
            self.index = index % len(self.entries)

    def current(self) -> CardEntry | None:
        return self.entries[self.index] if self.entries else None

    def _show(self) -> None:
        self.query_one("#inspector-card", PlacedStatic).update(render_entry(self.entries, self.index, self.noun))
        self.query_one("#inspector-box").scroll_home(animate=False)


def render_entry(entries: Sequence[CardEntry], index: int, noun: str = "Card") -> Text:
    if not entries:
        return Text(f"No {noun.lower()} to show.\n\ni / q / Esc: close", end="")
    e = entries[index]
    t = Text(end="")
    t.append(f"{noun} {index + 1} of {len(entries)} · {e.where}\n", HINT)
    t.append_text(e.title)
    t.append("\n")
    for line in e.lines:
        t.append_text(line)
        t.append("\n")
    prev_e, next_e = entries[index - 1], entries[(index + 1) % len(entries)]
    t.append(f"\n← {prev_e.title.plain} · → {next_e.title.plain} · i / q / Esc: close", HINT)
    return t
