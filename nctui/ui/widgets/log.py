"""The game log: one line per event, in plain words. Not focusable, so the arrow keys stay
with the decision list; scroll it with the mouse wheel, or PgUp/PgDn while it is the panel
selected with Tab.

Each line is wrapped once, at the width the log has when the line is written; the log is
often hidden (small terminals) or resized, so it keeps what it was given and wraps the latest
lines again whenever its width changes.

A ``ScrollView`` of its own lines rather than Textual's ``RichLog``: the log writes only
``Text``, and ``RichLog``'s module imports Rich's pretty printer and, through it, ``attrs``
(~13 ms of every start-up, before the first frame).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any, Self

from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.events import Resize
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from ..textual_ext.lines import pieces
from ..textual_ext.placed import PlacedOnce, PlacedScrollBar

MAX_LINES = 2000
REWRAP_LINES = 400
MIN_WIDTH = 20  # a line is wrapped at no less (a log narrower than this scrolls sideways)


class GameLog(PlacedOnce, PlacedScrollBar, ScrollView, can_focus=False):
    DEFAULT_CSS = """
    GameLog { height: 1fr; background: $surface; color: $foreground; overflow-y: scroll; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # Each write scrolls to the newest line at once (in the frame that draws it), and the
        # anchor corrects it in the layout if the log's height changes meanwhile. Scrolling up
        # releases the anchor; back at the bottom it holds again.
        self.anchor()
        self.lines: list[Strip] = []  # as wrapped, at most MAX_LINES
        self._start_line = 0  # lines dropped from the top (for the line cache's keys)
        self._widest = 0
        self._line_cache: LRUCache[tuple[int, int, int, int], Strip] = LRUCache(1024)
        self._size_known = False  # laid out once: lines can be wrapped
        self._written: deque[Text | str] = deque(maxlen=MAX_LINES)  # what was written, to wrap again
        self._wrapped_at = 0
        self._held = 0  # lines written while hidden (or before the size was known), not wrapped yet
        self._kept: dict[object, tuple[Any, ...]] = {}  # switch(): each person's log, as they left it

    # -- writing --------------------------------------------------------------------------------

    def write(self, content: Text | str) -> Self:
        self.write_lines((content,))
        return self

    def write_lines(self, lines: Sequence[Text | str]) -> None:
        """Lines added at once: wrapped, then one new height and one scroll for all of them (a
        decision logs several). Of many lines (a continued game's history) only the latest are
        written, since each costs about a millisecond and the first frame must not wait for a
        whole game."""
        if len(lines) > REWRAP_LINES:
            lines = [
                f"… {len(lines) - REWRAP_LINES} earlier lines: the timeline (t) lists every decision",
                *lines[-REWRAP_LINES:],
            ]
        self._written.extend(lines)
        if not self._size_known or self.scrollable_content_region.width <= 0:
            # Hidden (small terminals show one panel at a time): wrapped now, the lines would be
            # folded at the least width for good; they are wrapped when the log is shown.
            self._held += len(lines)
            return
        for content in lines:
            self._wrap(content)
        self._sized()

    def _sized(self) -> None:
        """The log's new height, and the newest line in sight unless scrolled back."""
        self.virtual_size = Size(self._widest, len(self.lines))
        if self.is_anchored and not self._anchor_released:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def _wrap(self, content: Text | str) -> None:
        """``content`` wrapped at the log's width, its lines added (the oldest dropped past
        MAX_LINES)."""
        width = max(self.scrollable_content_region.width, MIN_WIDTH)
        text = Text(content) if isinstance(content, str) else content
        strips = wrapped(text, width, self.app.console)
        self.lines.extend(strips)
        if len(self.lines) > MAX_LINES:
            self._start_line += len(self.lines) - MAX_LINES
            self.lines = self.lines[-MAX_LINES:]
            self.refresh()
        self._widest = max(self._widest, width)

    def clear(self) -> Self:
        self.lines = []
        self._line_cache.clear()
        self._start_line = self._widest = self._held = 0
        self._written.clear()
        self.virtual_size = Size(0, 0)
        self.refresh()
        return self

    def switch(self, shown: object, to: object, mark: int) -> int:
        """Keep what the log holds under ``shown``, with ``mark`` (how far it was written: a
        state id), and hold what was kept under ``to`` instead: its mark, or -1 when nothing was
        kept (write it afresh). Hot seat: each person's log, written through their eyes, comes
        back as they left it, and only what happened since is written; writing a long game's log
        again took ~180 ms a hand-off."""
        self._kept[shown] = (
            mark,
            self.lines,
            self._written,
            self._start_line,
            self._widest,
            self._wrapped_at,
            self._held,
        )
        kept = self._kept.pop(to, None)
        # fresh containers: the kept ones stay as they were
        self.lines, self._written = [], deque(maxlen=MAX_LINES)
        self._line_cache.clear()
        self._start_line = self._widest = self._held = 0
        if kept is None:
            self.virtual_size = Size(0, 0)
            self.refresh()
            return -1
        mark, self.lines, self._written, self._start_line, self._widest, self._wrapped_at, self._held = kept
        width = self.scrollable_content_region.width
        if self._size_known and width > 0 and self._wrapped_at != width:  # kept at another width
            self._rewrap(width)
        self.virtual_size = Size(self._widest, len(self.lines))
        if self._size_known and width > 0:
            self._write_held()
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()
        return mark

    # -- the width ------------------------------------------------------------------------------

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        # The first layout that gives the log a width wraps the lines held until then, so that
        # the frame it draws shows them: on the Resize event after it, they came a layout and a
        # frame later (the game's first frame had an empty log, filled ~30 ms after).
        changed = super()._size_updated(size, virtual_size, container_size, layout)
        width = self.scrollable_content_region.width
        if not self._size_known and width > 0:
            self._size_known, self._wrapped_at = True, width
            held = list(self._written)[-min(self._held, REWRAP_LINES) :] if self._held else []
            self._held = 0
            for content in held:
                self._wrap(content)
            self.set_reactive(Widget.virtual_size, Size(self._widest, len(self.lines)))  # placed: no layout more
            self._scroll_update(self.virtual_size)
            if self.is_anchored and not self._anchor_released:
                self.scroll_end(animate=False, immediate=True, x_axis=False)
        return changed

    def on_resize(self, event: Resize) -> None:
        width = self.scrollable_content_region.width
        if width <= 0:  # hidden
            return
        first, self._size_known = not self._size_known, True
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
        self.write_lines(written)

    def _write_held(self) -> None:
        """Shown again (or laid out at last): the lines held meanwhile, wrapped at its width now."""
        held = list(self._written)[-min(self._held, REWRAP_LINES) :] if self._held else []
        self._held = 0
        for content in held:
            self._wrap(content)
        if held:
            self._sized()

    # -- drawing --------------------------------------------------------------------------------

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.virtual_size.width if self._size_known else container.width

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._line_cache.clear()

    _drawing_style: Style | None = None  # the log's style, found once a drawing (render_lines)

    def render_lines(self, crop: Region) -> list[Strip]:
        # The log's style is found once for all the lines drawn: Textual finds a widget's style
        # by blending the backgrounds of all its ancestors (~60 us), and each line asked for it
        # once or twice (~0.4-0.8 ms a key)
        self._drawing_style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._drawing_style = None

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        index = scroll_y + y
        style = self._drawing_style or self.rich_style
        if index >= len(self.lines):
            return Strip.blank(width, style)
        key = (index + self._start_line, scroll_x, width, self._widest)
        line = self._line_cache.get(key)
        if line is None:
            line = self._line_cache[key] = self.lines[index].crop_extend(scroll_x, scroll_x + width, style)
        return line.apply_style(style)


def wrapped(text: Text, width: int, console: Console) -> list[Strip]:
    """``text`` wrapped at ``width`` as Rich wraps it (``Console.render``), each line ``width``
    cells long. A line that fits (one line, no tab, not longer than ``width``, left to Rich's
    default justification) is drawn from its pieces (``lines.pieces``): the same cells, without
    Rich's wrapping, joining and drawing a stack of spans (~5x the time)."""
    plain = text.plain
    if (
        plain
        and "\n" not in plain
        and "\t" not in plain
        and text.justify in (None, "default")
        and cell_len(plain) <= width
    ):
        # Rich gives the line's own style to every piece of it (as a span of the lines joined)
        own = console.get_style(text.style) if text.style else None
        parts = pieces(text, console) if text.spans else [(plain, own)]
        strips = [Strip([Segment(piece, style) for piece, style in parts if piece])]
    else:
        segments = console.render(text, console.options.update_width(width))
        strips = Strip.from_lines(list(Segment.split_lines(segments))) or [Strip.blank(width)]
    for strip in strips:
        strip.adjust_cell_length(width)
    return strips
