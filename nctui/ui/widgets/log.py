"""The game log: one line per event, in plain words. Not focusable, so the arrow keys stay
with the decision list; scroll it with the mouse wheel, or PgUp/PgDn while it is the panel
selected with Tab.

A RichLog wraps a line once, at the width it has when the line is written; the log is often
hidden (small terminals) or resized, so it keeps what it was given and wraps the latest
lines again whenever its width changes.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Self

from rich.console import RenderableType
from textual.events import Resize
from textual.widgets import RichLog

from .common import PlacedOnce, PlacedScrollBar

MAX_LINES = 2000
REWRAP_LINES = 400


class GameLog(PlacedOnce, PlacedScrollBar, RichLog, can_focus=False):
    DEFAULT_CSS = """
    GameLog { height: 1fr; }
    """

    def __init__(self, **kwargs) -> None:
        # auto_scroll off (it scrolls after the next frame, in a frame of its own): each write
        # scrolls to the newest line at once, and the anchor corrects it in the layout if the
        # log's height changes meanwhile. Scrolling up releases the anchor; back at the bottom it
        # holds again.
        super().__init__(wrap=True, markup=False, highlight=False, max_lines=MAX_LINES, min_width=20,
                         auto_scroll=False, **kwargs)
        self.anchor()
        self._written: deque = deque(maxlen=MAX_LINES)
        self._wrapped_at = 0
        self._held = 0  # lines written while hidden, not wrapped yet

    def write(self, content: RenderableType | object, *args: Any, **kwargs: Any) -> Self:
        self._written.append(content)
        if self._size_known and self.scrollable_content_region.width <= 0:
            # Hidden (small terminals show one panel at a time): wrapped now, the line would be
            # folded at min_width for good; it is wrapped when the log is shown again.
            self._held += 1
            return self
        super().write(content, *args, **kwargs)
        if self._size_known and self.is_anchored and not self._anchor_released:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        return self

    def write_lines(self, lines: list) -> None:
        """Many lines at once (a continued game's history): only the latest are written, since
        each costs about a millisecond and the first frame must not wait for a whole game."""
        if len(lines) > REWRAP_LINES:
            self.write(f"… {len(lines) - REWRAP_LINES} earlier lines: the timeline (t) lists every decision")
            lines = lines[-REWRAP_LINES:]
        for line in lines:
            self.write(line)

    def clear(self) -> Self:
        self._written.clear()
        self._held = 0
        return super().clear()

    def on_resize(self, event: Resize) -> None:
        first = not self._size_known  # the writes held back until now are wrapped right here
        super().on_resize(event)
        width = self.scrollable_content_region.width
        if width <= 0:  # hidden
            return
        if first or width == self._wrapped_at:
            self._wrapped_at = width
            self._write_held()
            return
        self._wrapped_at = width
        # Wrapping costs about a millisecond a line: the latest lines only, after a resize.
        written = list(self._written)[-REWRAP_LINES:]
        self.clear()
        for content in written:
            self.write(content)

    def _write_held(self) -> None:
        """Shown again: the lines held while it was hidden, wrapped at its width now."""
        held = list(self._written)[-min(self._held, REWRAP_LINES):] if self._held else []
        self._held = 0
        for content in held:
            super().write(content)
