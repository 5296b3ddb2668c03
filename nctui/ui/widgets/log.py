"""The game log: one line per event, in plain words. Not focusable, so the arrow keys stay
with the decision list; scroll it with the mouse wheel, or PgUp/PgDn while it is the panel
selected with Tab.

Each line is wrapped once, at the width the log has when the line is written; the log is
often hidden (small terminals) or resized, so it keeps what it was given and wraps the latest
lines again whenever its width changes. Of many lines (a continued game, a log shown after a
long time hidden) only the newest that fill it twice over are wrapped, the older ones as it is
scrolled up to them; older still come from ``older`` (the game's screen describes the events of
a long game's earlier decisions only when they are scrolled to).

A ``ScrollView`` of its own lines rather than Textual's ``RichLog``: the log writes only
``Text``, and ``RichLog``'s module imports Rich's pretty printer and, through it, ``attrs``
(~13 ms of every start-up, before the first frame).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
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
MIN_WRAPPED = 40  # lines wrapped from the newest at least (and twice the log's height), the rest when scrolled to
OLDER_AT_ONCE = 40  # older lines wrapped at a time, as the log is scrolled up to them
# what switch() keeps of each person's log
KEPT = ("lines", "_written", "_start_line", "_widest", "_wrapped_at", "_held", "_unwrapped", "older")
OlderLines = Callable[[], Sequence["Text | str"] | None]  # the lines before those written, newest last; None: no more


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
        self._unwrapped = 0  # the oldest lines written, not wrapped yet (wrapped when scrolled to)
        self.older: OlderLines | None = None  # asked for lines older than all written, once scrolled to the top
        self._older_due = False  # older lines to be wrapped once the scroll that reached them is done
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
        if len(lines) > self._enough():
            self._wrap_newest()
            return
        self._wrap_all(lines)
        self._sized()

    def _enough(self) -> int:
        """How many of the newest lines are wrapped at least: twice the log's height."""
        return max(MIN_WRAPPED, 2 * self.scrollable_content_region.height)

    def _wrap_newest(self) -> None:
        """The lines wrapped again from the newest, as many as fill the log twice over (the older
        ones as they are scrolled to): a log shown after a long game hidden wrapped 400."""
        written = self._written
        self.lines = []
        self._line_cache.clear()
        self._start_line = self._widest = self._held = 0
        newest = min(len(written), self._enough())
        self._unwrapped = len(written) - newest
        self._wrap_all([written[k] for k in range(len(written) - newest, len(written))])
        self._sized()
        self.refresh()

    def _wrap_all(self, lines: Sequence[Text | str]) -> None:
        width = max(self.scrollable_content_region.width, MIN_WIDTH)
        console = self.app.console
        for content in lines:
            self._wrap(content, width, console)

    def _sized(self) -> None:
        """The log's new height, and the newest line in sight unless scrolled back."""
        self.virtual_size = Size(self._widest, len(self.lines))
        if self.is_anchored and not self._anchor_released:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self._older_soon()

    def _wrap(self, content: Text | str, width: int, console: Console) -> None:
        """``content`` wrapped at ``width`` (the log's), its lines added (the oldest dropped past
        MAX_LINES)."""
        text = Text(content) if isinstance(content, str) else content
        strips = wrapped(text, width, console)
        self.lines.extend(strips)
        if len(self.lines) > MAX_LINES:
            self._start_line += len(self.lines) - MAX_LINES
            self.lines = self.lines[-MAX_LINES:]
            self.refresh()
        self._widest = max(self._widest, width)

    def clear(self) -> Self:
        self.lines = []
        self._line_cache.clear()
        self._start_line = self._widest = self._held = self._unwrapped = 0
        self._written.clear()
        self.older = None
        self.virtual_size = Size(0, 0)
        self.refresh()
        return self

    def switch(self, shown: object, to: object, mark: int) -> int:
        """Keep what the log holds under ``shown``, with ``mark`` (how far it was written: a
        state id), and hold what was kept under ``to`` instead: its mark, or -1 when nothing was
        kept (write it afresh). Hot seat: each person's log, written through their eyes, comes
        back as they left it, and only what happened since is written; writing a long game's log
        again took ~180 ms a hand-off."""
        self._kept[shown] = (mark, *(getattr(self, name) for name in KEPT))
        kept = self._kept.pop(to, None)
        # fresh containers: the kept ones stay as they were
        self.lines, self._written = [], deque(maxlen=MAX_LINES)
        self._line_cache.clear()
        self._start_line = self._widest = self._held = self._unwrapped = 0
        self.older = None
        if kept is None:
            self.virtual_size = Size(0, 0)
            self.refresh()
            return -1
        mark = kept[0]
        for name, value in zip(KEPT, kept[1:], strict=True):
            setattr(self, name, value)
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
            held, self._held = self._held, 0
            if held > self._enough():
                self._wrap_newest()
            elif held:
                self._wrap_all([self._written[k] for k in range(len(self._written) - held, len(self._written))])
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
        """The lines wrapped again at ``width``: the newest, the older ones as they are
        scrolled to (wrapping costs up to a millisecond a line)."""
        self._wrapped_at = width
        self._wrap_newest()

    def _write_held(self) -> None:
        """Shown again (or laid out at last): the lines held meanwhile, wrapped at its width now."""
        held, self._held = self._held, 0
        if held > self._enough():
            self._wrap_newest()
        elif held:
            self._wrap_all([self._written[k] for k in range(len(self._written) - held, len(self._written))])
            self._sized()

    # -- older lines, as the log is scrolled up to them -----------------------------------------

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._older_soon()

    def _older_soon(self) -> None:
        """Near the top of what is wrapped (or not a screenful): the older lines wrapped (and, all
        wrapped, asked of ``older``) once the scroll that reached them is done."""
        if (
            not self._older_due
            and (self._unwrapped or self.older is not None)
            and self.scroll_y < self.scrollable_content_region.height
        ):
            self._older_due = True
            self.call_later(self._wrap_older)

    def _wrap_older(self) -> None:
        """Older lines above the wrapped ones, the view kept where it was."""
        self._older_due = False
        if not self._size_known or self._held or self.scrollable_content_region.width <= 0:
            return
        if not self._unwrapped and self.older is not None:
            more = self.older() if len(self._written) < MAX_LINES else None
            if more is None or len(self._written) + len(more) > MAX_LINES:
                self.older = None  # no more of them kept: the timeline lists every decision
                more = ["… earlier lines: the timeline (t) lists every decision"] if more else []
            self._written.extendleft(reversed(more))
            self._unwrapped = len(more)
        if not self._unwrapped:
            return
        count = min(self._unwrapped, OLDER_AT_ONCE)
        start = self._unwrapped - count
        newest, self.lines = self.lines, []
        self._wrap_all([self._written[k] for k in range(start, self._unwrapped)])
        added = len(self.lines)
        self.lines.extend(newest)
        self._unwrapped = start
        self._start_line -= added  # the line cache's keys stay each line's own
        self.virtual_size = Size(self._widest, len(self.lines))
        self.scroll_to(y=self.scroll_y + added, animate=False, immediate=True)
        self.refresh()
        self._older_soon()

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
