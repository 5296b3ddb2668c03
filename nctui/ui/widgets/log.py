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
from textual.geometry import Size
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
        self._replaying = False  # RichLog is writing the lines it kept until its size was known
        self._kept: dict[object, tuple[Any, ...]] = {}  # switch(): each person's log, as they left it

    def write(self, content: RenderableType | object, *args: Any, **kwargs: Any) -> Self:
        if not self._replaying:  # RichLog writes what it kept until its size was known here again
            self._written.append(content)
        if not self._size_known:
            return super().write(content, *args, **kwargs)
        if self.scrollable_content_region.width <= 0:
            # Hidden (small terminals show one panel at a time): wrapped now, the line would be
            # folded at min_width for good; it is wrapped when the log is shown again.
            self._held += 1
            return self
        super().write(content, *args, **kwargs)
        if self.is_anchored and not self._anchor_released:
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

    def switch(self, shown: object, to: object, mark: int) -> int:
        """Keep what the log holds under ``shown``, with ``mark`` (how far it was written: a
        state id), and hold what was kept under ``to`` instead: its mark, or -1 when nothing was
        kept (write it afresh). Hot seat: each person's log, written through their eyes, comes
        back as they left it, and only what happened since is written; writing a long game's log
        again took ~180 ms a hand-off."""
        self._kept[shown] = (mark, self.lines, self._written, self._start_line, self._widest_line_width,
                             self._wrapped_at, self._held, self._deferred_renders)
        kept = self._kept.pop(to, None)
        # fresh containers: the kept ones stay as they were (lines written before the log was
        # ever shown wait in RichLog's deferred renders: they are the person's too)
        self.lines, self._written, self._deferred_renders = [], deque(maxlen=MAX_LINES), deque()
        self._line_cache.clear()
        self._start_line = self._widest_line_width = self._held = 0
        if kept is None:
            self.virtual_size = Size(0, 0)
            self.refresh()
            return -1
        (mark, self.lines, self._written, self._start_line, self._widest_line_width, self._wrapped_at, self._held,
         self._deferred_renders) = kept
        width = self.scrollable_content_region.width
        if self._size_known and width > 0 and self._wrapped_at != width:  # kept at another width
            self._rewrap(width)
        self.virtual_size = Size(self._widest_line_width, len(self.lines))
        if self._size_known and width > 0:
            self._write_held()
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()
        return mark

    def on_resize(self, event: Resize) -> None:
        first = not self._size_known  # the writes held back until now are wrapped right here
        self._replaying = first
        try:
            super().on_resize(event)
        finally:
            self._replaying = False
        width = self.scrollable_content_region.width
        if width <= 0:  # hidden
            return
        if first or width == self._wrapped_at:
            self._wrapped_at = width
            self._write_held()
            return
        self._rewrap(width)

    def _rewrap(self, width: int) -> None:
        """The lines wrapped again at ``width``: the latest only, as wrapping costs about a
        millisecond a line."""
        self._wrapped_at = width
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
