"""The panel indicator of small terminals: which panel is shown, and the keys that
cycle the panels (Tab / shift+Tab) and put a cursor on one (b, m, c). While the board's cursor
is active it shows what is under the cursor instead (``note``, in full: on two or three lines if need be)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from ..textual_ext.placed import PlacedOnce
from .common import wrap_cells

HINT = Style(color="#9a9aaa")
SHOWN = Style(reverse=True, bold=True)

# (panel id, its name on the indicator), in Tab order.
PANELS: tuple[tuple[str, str], ...] = (
    ("board", "Board"),
    ("matrix", "Matrix"),
    ("hand", "Hand"),
    ("tracks", "Tracks"),
    ("players", "Players"),
    ("log", "Log"),
)

KEYS = {"board": "b", "matrix": "m", "hand": "c", "log": "l"}  # the key that shows (and focuses) each


def panel_title(panel: str, name: str, shown: bool) -> str:
    """A panel's title on big terminals: 'Board · b', '▶ Tracks' for the selected one."""
    key = f" · {KEYS[panel]}" if panel in KEYS else ""
    return f"{'▶ ' if shown else ''}{name}{key}"


class PanelTabs(PlacedOnce, Widget):
    """Draws the panel names with ``shown`` in reverse video; holds nothing else."""

    DEFAULT_CSS = """
    PanelTabs { height: auto; width: 100%; }
    """

    shown: reactive[str] = reactive("board")
    note: reactive[Text | None] = reactive(None)  # shown instead of the names (the board's cursor)

    def _lines(self, note: Text | None, width: int | None = None) -> int:
        return len(wrap_cells(note, width or self.size.width or 80)) if note is not None else 1

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # the lines of the note at the width the layout gives (a note shown on big terminals
        # had no width yet: measured at another, its last line was cut)
        return self._lines(self.note, width)

    def watch_note(self, old: Text | None, new: Text | None) -> None:
        self.set_class(new is not None, "-note")  # big terminals show the line only for a note
        # a new layout only when the height changes: most cursor moves repaint the line alone
        self.refresh(layout=self._lines(old) != self._lines(new))

    def render(self) -> Text:
        if self.note is not None:  # in full, on as many lines as it takes
            return Text("\n", end="").join(wrap_cells(self.note, self.size.width or 80))
        t = Text(no_wrap=True, overflow="ellipsis", end="")
        t.append("Tab", Style(bold=True))
        t.append("▸ ", HINT)
        for k, (panel, name) in enumerate(PANELS):
            if k:
                t.append(" ")
            t.append(f" {name} ", SHOWN if panel == self.shown else Style())
        hint = "  b/m/c: cursor"
        if t.cell_len + len(hint) <= self.size.width:
            t.append(hint, HINT)
        return t
