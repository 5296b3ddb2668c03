"""Widgets, screens and a compositor that lay out, style and draw less than Textual would: placed
once per layout (``PlacedOnce``), a screen that comes up in one layout (``ComesUpOnce``,
``MapKeptCompositor``), scrollbars drawn by kind (``PlacedScrollBar``), lists and option lists
measured once (``MeasuredScroll``, ``MeasuredOptions``), and ``Text`` or ``Cells`` drawn line by line (``DrawnByLine``,
``FitsContent``). Textual internals used: ``_compositor.Compositor`` (``reflow``,
``_render_chops``, ``_full_map_invalidated``), ``_time.get_time``,
``Widget._render_cache``/``_layout_cache``/``_size_updated``, ``Screen`` updates (README.md)."""

from __future__ import annotations

from asyncio import create_task, wait
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextlib import suppress
from functools import cache
from typing import TYPE_CHECKING, Any, Self, cast

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual._compositor import Compositor, ReflowResult
from textual._time import get_time
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.dom import NoScreen
from textual.events import Idle, Resize, ScreenResume
from textual.geometry import Region, Size
from textual.layout import DockArrangeResult
from textual.messages import Layout, Update
from textual.renderables.background_screen import BackgroundScreen
from textual.screen import UPDATE_PERIOD, Screen
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.visual import RenderOptions, RulesMap, Visual, visualize
from textual.widget import AwaitMount, Widget, _RenderCache
from textual.widgets import Static

from .backdrop import Backdrop
from .bar_lines import bar_lines
from .lines import CellLines, LineCache, TextLines, pieces

if TYPE_CHECKING:  # annotations only: the option lists are imported by the screens that have them
    from textual.style import Style as VisualStyle
    from textual.timer import Timer
    from textual.widgets.option_list import Option


def style_runs(chars: Sequence[str], styles: Sequence[Style]) -> Iterator[tuple[str, Style]]:
    """A row of cells (one character and one style each) as runs of one style."""
    if not chars:
        return
    start, current = 0, styles[0]
    for x in range(1, len(chars)):
        style = styles[x]
        if style is not current and style != current:  # a row's cells mostly share style objects
            yield "".join(chars[start:x]), current
            start, current = x, style
    yield "".join(chars[start:]), current


def append_cells(text: Text, chars: list[str], styles: list[Style]) -> None:
    """Append a row of cells (one character and one style each) to ``text``, a run per style."""
    for run, style in style_runs(chars, styles):
        text.append(run, style)


Run = tuple[tuple[str, Style], ...]  # a line of Cells: runs of (text, style)


class Cells:
    """Lines of cells drawn as they are: each line a tuple of runs (text, Rich style), never
    wrapped. What a panel drawn cell by cell (the map) renders: Textual turns it into lines of the
    screen ~9x faster than a ``Text`` (no spans to divide, nothing to wrap), and equal ``Cells``
    compare equal (``FitsContent`` draws nothing that did not change)."""

    __slots__ = ("lines", "width")

    def __init__(self, lines: Sequence[Run]) -> None:
        self.lines = tuple(lines)
        self.width = max((sum(len(t) for t, _ in line) for line in self.lines), default=0)

    @staticmethod
    def from_grid(chars: Sequence[Sequence[str]], styles: Sequence[Sequence[Style]]) -> list[Run]:
        """Lines of runs of a grid of cells (one character and one style each)."""
        return [tuple(style_runs(row, row_styles)) for row, row_styles in zip(chars, styles)]

    @staticmethod
    def runs_of(text: Text) -> Run:
        """The runs of a one-line ``Text``."""
        return tuple((piece, style or NO_STYLE) for piece, style in pieces(text, _CONSOLE) if piece and piece != "\n")

    @property
    def plain(self) -> str:
        return "\n".join("".join(t for t, _ in line) for line in self.lines)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cells) and self.lines == other.lines

    __hash__ = None  # type: ignore[assignment]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        new_line = Segment.line()
        for line in self.lines:
            for text, style in line:
                yield Segment(text, style)
            yield new_line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)


NO_STYLE = Style()
_CONSOLE = Console(width=1000, color_system="truecolor", force_terminal=True, legacy_windows=False)


_VISUAL = "_render.visual"  # Widget._render's key in Widget._layout_cache (Textual is pinned exactly)


class PlacedOnce:
    """A widget whose virtual size changes only when a layout gives it a new size, so that
    layout has placed everything already. Textual sets the new virtual size as a reactive that
    asks for a layout of the whole screen again, and that one for the scrollbars' a third: three
    layouts where one does (each laying out and redrawing up to a hundred lines at 120x40).
    Scrollbars are still updated in the first."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)  # type: ignore[misc]


class MapKeptCompositor(Compositor):
    """Textual's compositor, answering the questions asked during a layout ("where is this
    widget, how big?") from the map of the layout before (a widget not in it is not placed yet,
    as the layout itself treats it), and those after it from the map it just made. Textual marks
    a new screen's map out of date until asked once, and then lays the whole screen out again
    to answer: during the screen's first layout (nested in it) and after it, two or three
    layouts of every widget more before the first frame of the game screen."""

    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        self._full_map_invalidated = False
        result = super().reflow(parent, size)
        self._full_map_invalidated = False  # the map just made covers every widget
        return result

    def _render_chops(self, crop: Region, is_rendered_line: Callable[[int], bool]) -> Sequence[Mapping[int, Strip]]:
        """Textual's ``_render_chops``, asking each widget only for the lines where something
        of it shows. Textual paints from the front back, the first strip for each cut of a line
        wins, yet it asked every widget for all of its lines: the screen, the body and the columns
        under the panels, every pane under its panel (~10 ms of the first frame at 120x40), and
        on a partial update every widget across the changed lines' span. A widget is asked for
        the rows from the first to the last line to draw where one of its cuts is still open."""
        cuts = self.cuts
        chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
        crop_overlaps = crop.overlaps
        for widget, (region, clip) in self.visible_widgets.items():
            if not crop_overlaps(clip):
                continue
            x, y, width, height = region.intersection(clip)
            if not (width and height):
                continue
            first_cut, last_cut = x, x + width
            rows = [
                line
                for line in range(y, y + height)
                if is_rendered_line(line) and _open_cut(chops[line], cuts[line], first_cut, last_cut)
            ]
            if not rows:
                continue
            top, bottom = rows[0], rows[-1] + 1
            strips = widget.render_lines(Region(x - region.x, top - region.y, width, bottom - top))
            for line, strip in zip(range(top, bottom), strips):
                if not is_rendered_line(line):
                    continue
                if strip.cell_length < width:
                    # Drawn narrower than the map places it (drawn at the width of a layout the
                    # map has not caught up with): as wide, or ``divide`` gives no part at all and
                    # the widget's lines are dropped (the pane under it drawn instead: blank).
                    strip = strip.extend_cell_length(width)
                chops_line = chops[line]
                final_cuts = [cut for cut in cuts[line] if last_cut >= cut >= first_cut]
                for cut, part in zip(final_cuts, strip.divide([cut - x for cut in final_cuts[1:]])):
                    if chops_line.get(cut) is None:
                        chops_line[cut] = part
        return cast("Sequence[Mapping[int, Strip]]", chops)


def _open_cut(chops_line: dict[int, Strip | None], cut_set: list[int], first: int, last: int) -> bool:
    """Whether a cut of a line between ``first`` and ``last`` has no strip yet."""
    get = chops_line.get
    return any(get(cut) is None for cut in cut_set if first <= cut < last)


class ComesUpOnce:
    """A screen (mixin) that comes up in one styling and one layout: its compositor is a
    ``MapKeptCompositor``, and it is not styled again, every widget of it, as it first comes
    up (Textual does that right after styling each widget as it mounted, when nothing changed
    since: ~20 ms for the game screen). Set the classes a screen needs before its widgets mount
    (in ``compose``)."""

    _resumed = False
    _drawn_whole = False  # the first resume laid the screen out and drew all of it
    _laid_out_at = 0.0  # when (textual._time) the first resume's layout began
    _compositor: Compositor

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._compositor = MapKeptCompositor()

    def breakpoint_classes(self, size: Size) -> dict[str, bool]:
        """The classes of the screen's breakpoints (``HORIZONTAL_BREAKPOINTS``, ``VERTICAL_``)
        at ``size``, as Textual sets them on a resize: set in ``compose``, the resize after the
        first layout changes no class (it styled the screen again and laid it out once more)."""
        screen = cast(Screen, self)
        classes: dict[str, bool] = {}
        for value, points in (
            (size.width, screen.HORIZONTAL_BREAKPOINTS or screen.app.HORIZONTAL_BREAKPOINTS),
            (size.height, screen.VERTICAL_BREAKPOINTS or screen.app.VERTICAL_BREAKPOINTS),
        ):
            if points:
                classes.update((name, False) for _, name in points)
                classes.update((name, True) for name in screen._get_breakpoint_classes(value, points))
        return classes

    _styled_in: str | None = None  # the app's theme its widgets were last styled in

    def _on_screen_resume(self, event: ScreenResume) -> None:
        # Textual calls this before its own handler of the event (each class of the MRO in turn)
        theme, self._styled_in = self._styled_in, cast(Screen, self).app.theme
        if self._resumed and theme == self._styled_in:
            # A kept screen opened again (screens/kept.py): Textual styles every widget of it
            # again as it comes back, in case the theme changed meanwhile (the rules: each
            # scrollbar then asked for a layout, and a second frame followed)
            event.refresh_styles = False
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False
            screen = cast(Screen, self)
            if screen.is_attached and screen._size != screen.app.size:
                # Textual's handler lays the new screen out and draws all of it, then asks for the
                # whole screen to be drawn again: one more frame, nothing changed (refresh below)
                self._drawn_whole = True
                self._laid_out_at = get_time()
                screen.call_next(self._came_up)

    async def _on_layout(self, message: Layout) -> None:
        # Textual calls this before its own handler. A layout asked for before the first
        # resume's layout (widgets as they mounted) was done by it: laid out again, once more
        # than needed.
        if message.time < self._laid_out_at:
            message.stop()
            message.prevent_default()

    async def _on_update(self, message: Update) -> None:
        # The same for a widget to draw again, asked for before that layout: it drew everything
        await self._on_layout(message)  # type: ignore[arg-type]

    def _came_up(self) -> None:
        """Right after the first resume (its layout and frame): what was asked before them is
        done. Textual keeps those asks (a layout, the screen or widgets to draw) and served them
        again, a layout and two frames more, ~50 ms after the screen came up."""
        self._drawn_whole = False
        screen = cast(Screen, self)
        if screen.is_current:
            screen._layout_required = screen._repaint_required = False
            screen._dirty_widgets.clear()
        # Its update timer, made paused, sleeps a whole period (1/60 s) from its first resume
        # before its first tick: the first key's frame waited for it, ~17 ms more at 120x40.
        # One tick now, with nothing to do; a frame then waits for the timer's next tick only.
        screen._update_timer.resume()

    def _on_timer_update(self) -> None:
        # A screen to lay out and draw whole (it came back from under another, its panels
        # changed meanwhile): Textual drew the layout's changes in a frame, then the whole screen
        # in another. One frame: the layout's, of the whole screen.
        screen = cast(Screen, self)
        if (
            screen._repaint_required
            and not screen._layout_required
            and not screen._dirty_widgets
            and screen.is_attached
            and screen.app.screen is not screen
        ):
            # Textual asks the screen under a new one to draw itself whole as the new one comes
            # (nothing in it changed): under a translucent screen that drew the new one again,
            # a frame more. The new one draws it as its backdrop, and it is drawn whole again
            # as it comes back.
            screen._repaint_required = False
        if screen._layout_required and screen._repaint_required and screen.is_current and self._compositor.size:
            screen._repaint_required = False
            self._compositor._dirty_regions.add(self._compositor.size.region)
        self._ticked_at = get_time()
        super()._on_timer_update()  # type: ignore[misc]

    _frame_at = 0.0  # when (textual._time) the screen last drew a frame
    _ticked_at = -1.0  # when its update timer last ticked
    _draw_due: Timer | None = None  # a frame to draw a period after the last (_on_idle)

    async def _on_idle(self, event: Idle) -> None:
        # Textual calls this before its own handler, which resumes the screen's update timer.
        # The timer ticks at once when it has not ticked for a while (a key's first frame); but
        # after a tick it sleeps to its grid, one to two periods: a frame asked for right after
        # another (the board's cursor moved, then the line telling what is under it) came 17-33
        # ms after the first. It is drawn a period after the last frame instead (Textual's rate).
        screen = cast(Screen, self)
        if (
            screen.app._batch_count
            or not screen.is_current
            or screen._recompose_required
            or not (
                screen._layout_required or screen._scroll_required or screen._repaint_required or screen._dirty_widgets
            )
            or get_time() - self._ticked_at >= 2 * UPDATE_PERIOD
        ):
            return  # Textual's handler: the timer ticks at once, or there is nothing to draw
        event.prevent_default()
        if self._draw_due is None:
            delay = max(self._frame_at + UPDATE_PERIOD - get_time(), 0.001)  # a Textual timer's least
            self._draw_due = screen.set_timer(delay, self._draw_now, name="draw_due")

    def _draw_now(self) -> None:
        """The frame asked for after a tick of the update timer, drawn a period after the last."""
        self._draw_due = None
        screen = cast(Screen, self)
        if screen.is_current and not screen.app._batch_count:
            screen._on_timer_update()

    _asked_before_layout: set[Widget] | None = None  # while a layout runs: widgets to draw asked before it

    def _refresh_layout(self, size: Size | None = None, scroll: bool = False) -> None:
        screen = cast(Screen, self)
        self._asked_before_layout = {w for w in screen._compositor.visible_widgets if w._repaint_required}
        try:
            super()._refresh_layout(size, scroll)  # type: ignore[misc]
        finally:
            self._asked_before_layout = None
        if screen.is_current:
            self._frame_at = get_time()

    def _compositor_refresh(self) -> None:
        # Widgets asked to draw again by the layout itself (a log scrolled to its new end, a
        # scrollbar's new size) are drawn in the layout's frame: Textual drew them again in a
        # frame of their own right after, the same lines (two frames for a key at 120x40).
        before = self._asked_before_layout
        if before is not None:
            compositor = self._compositor
            during = {w for w in compositor.visible_widgets if w._repaint_required and w not in before}
            if during:
                compositor.update_widgets(during)
                for widget in during:
                    widget._repaint_required = False
        screen = cast(Screen, self)
        if screen is screen.app.screen:
            self._frame_at = get_time()
        super()._compositor_refresh()  # type: ignore[misc]

    def _screen_resized(self, size: Size) -> None:
        # Textual lays a screen out again on every Resize event, and a new screen's first layout
        # sends it one, of the size it was just laid out at: one more layout and frame
        screen = cast(Screen, self)
        if size == self._compositor.size and not screen._layout_required:
            return
        super()._screen_resized(size)  # type: ignore[misc]

    def render(self) -> RenderableType:
        rendered = super().render()  # type: ignore[misc]
        if isinstance(rendered, BackgroundScreen):  # the game under this screen: tinted line by line
            # a Visual: what a widget renders may be one (Screen.render is typed more narrowly)
            return cast(RenderableType, Backdrop(rendered.screen, rendered.color))
        return cast(RenderableType, rendered)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        if self._drawn_whole and not (regions or layout or recompose):
            return self  # within the first resume: the whole screen is drawn already
        return cast(
            Self,
            super().refresh(  # type: ignore[misc]
                *regions,
                repaint=repaint,
                layout=layout,
                recompose=recompose,
            ),
        )


class LaidOutAtResume(AwaitMount):
    """Textual's wait for a new screen to mount, without its layout of the whole screen once
    mounted: a ``ComesUpOnce`` screen is laid out and drawn as it first resumes, after its
    widgets mounted, and that layout came after, one more frame (``NctuiApp._get_screen``)."""

    def __await__(self) -> Generator[None, None, None]:
        async def await_mount() -> None:
            if self._widgets:
                await wait([create_task(widget._mounted_event.wait(), name="await mount") for widget in self._widgets])
                with suppress(NoScreen):
                    self._parent.app._update_mouse_over(self._parent.screen)

        return await_mount().__await__()


class _PlacedScrollBar(PlacedOnce, ScrollBar):
    """A vertical scrollbar placed by the layout that found it is needed. Made and drawn in that
    layout, it is drawn before Textual has finished mounting it, and Textual marks nothing to
    draw again for a change before then (a list scrolled to its highlight right after the first
    frame kept its thumb at the top): once mounted, it is drawn again if it changed since."""

    _drawn: tuple[object, ...] | None = None  # what it was drawn from

    def _state(self) -> tuple[object, ...]:
        return self.position, self.window_size, self.window_virtual_size, self.size, self.grabbed, self.mouse_over

    def render(self) -> RenderableType:
        self._drawn = self._state()
        return super().render()

    def render_lines(self, crop: Region) -> list[Strip]:
        # each kind of line drawn once (bar_lines.py: 7.7 ms of the first frame at 120x40)
        lines = bar_lines(self, crop)
        return super().render_lines(crop) if lines is None else lines

    def on_mount(self) -> None:
        if self._drawn is not None and self._drawn != self._state():
            self.call_later(self.refresh)  # mounted once this handler is done


class PlacedScrollBar:
    """A scrolling widget whose vertical scrollbar is ``PlacedOnce`` too."""

    _vertical_scrollbar: ScrollBar | None

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        # Textual's own property, with a scrollbar that asks for no second layout
        if self._vertical_scrollbar is None:
            self._vertical_scrollbar = bar = _PlacedScrollBar(
                vertical=True,
                name="vertical",
                thickness=self.scrollbar_size_vertical,  # type: ignore[attr-defined]
            )
            bar.display = False
            self.app._start_widget(self, bar)  # type: ignore[attr-defined]
        return self._vertical_scrollbar

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        """Textual shows a scrollbar a layout late: it decides from the size of the content the
        layout before found, so the bar was not in the map of the layout that called for it,
        and the screen was arranged once more to find it. A pane whose scrollbar keeps its
        column (``scrollbar-gutter: stable``: its content's width is the same either way) shows
        the one its content calls for in the same layout."""
        result: DockArrangeResult = super().arrange(size, optimal)  # type: ignore[misc]
        styles = self.styles  # type: ignore[attr-defined]
        if not optimal and styles.overflow_y == "auto" and styles.overflow_x != "auto":
            needed = result.total_region.bottom > size.height
            if needed != self.show_vertical_scrollbar:  # type: ignore[attr-defined]
                if styles.scrollbar_gutter != "stable":
                    # Without a kept column the content is as wide as the pane less the bar: laid
                    # out again at the width it has with (or without) it, here. Textual found the
                    # bar needed a layout late, and laid the whole screen out once more (a panel
                    # shown for the first time at 80x24: two layouts and two frames for a Tab).
                    bar = styles.scrollbar_size_vertical
                    size = Size(max(size.width - bar, 0) if needed else size.width + bar, size.height)
                    result = super().arrange(size, optimal)  # type: ignore[misc]
                self.set_reactive(Widget.show_vertical_scrollbar, needed)  # type: ignore[attr-defined]
                # The bar is shown (or hidden) by this layout: Textual sets its display after
                # it, and that asked for a layout of the whole screen more (a hand growing past
                # its pane at 120x40: two layouts for one key)
                self.vertical_scrollbar.styles.set_rule("display", "block" if needed else "none")
        return result

    def _refresh_scrollbars(self) -> None:
        # A bar that is always shown (overflow-y: scroll, the log) made hidden, as Textual makes
        # each, was shown by the layout that first placed it, and that asked for a layout of the
        # whole screen more (the log shown for the first time at 80x24: two layouts for a Tab).
        # Its place is the same either way: shown quietly.
        bar = self._vertical_scrollbar
        if bar is not None and not bar.display and self.styles.overflow_y == "scroll":  # type: ignore[attr-defined]
            bar.styles.set_rule("display", "block")
        super()._refresh_scrollbars()  # type: ignore[misc]

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        changed = super()._size_updated(size, virtual_size, container_size, layout)  # type: ignore[misc]
        bar = self._vertical_scrollbar
        if bar is not None and bar.display and bar._repaint_required and self.screen.is_current:  # type: ignore[attr-defined]
            # The scrollbar's new position, asked for during this layout, is drawn in this
            # layout's frame (it came in a frame of its own, ~30 ms after it).
            self.screen._compositor.update_widgets({bar})  # type: ignore[attr-defined]
            bar._repaint_required = False
        return changed


class MeasuredScroll(PlacedScrollBar):
    """A ``ScrollView`` of lines (mixin) whose scrollbar keeps its column, measured by the layout
    that places it (``get_content_height`` at the width its lines are drawn at), which shows the
    scrollbar they need and sets that virtual size; ``scroll_when_placed``: scrolled to its
    highlight (``scroll_to_highlight``) by that layout, once."""

    _measured: Size | None = None
    scroll_when_placed = False  # scroll to the highlight in the layout that places it (once)

    def _get_scrollable_region(self, region: Region) -> Region:
        styles = self.styles  # type: ignore[attr-defined]
        if styles.scrollbar_gutter == "stable" and styles.overflow_y == "auto" and region.width > 0:
            width = max(region.width - styles.scrollbar_size_vertical, 1)
            height = cast(Widget, self).get_content_height(region.size, region.size, width)
            self._measured = measured = Size(width, height)
            needed = measured.height > region.height
            if needed != self.show_vertical_scrollbar:  # type: ignore[attr-defined]
                self.set_reactive(Widget.show_vertical_scrollbar, needed)  # type: ignore[attr-defined]
                self.vertical_scrollbar.styles.set_rule("display", "block" if needed else "none")  # as arrange
        return cast(Region, super()._get_scrollable_region(region))  # type: ignore[misc]

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        if self._measured is not None:  # a ScrollView takes its virtual size from itself
            self.set_reactive(Widget.virtual_size, self._measured)  # type: ignore[attr-defined]
        changed = super()._size_updated(size, self._measured or virtual_size, container_size, layout=False)
        if self.scroll_when_placed and size:
            # Scrolled after the first frame (call_after_refresh), a list longer than its box
            # (the timeline of a long game) was drawn at its top, then again: a second frame
            # ~30-40 ms later. Scrolled here, the layout's frame draws it there.
            self.scroll_when_placed = False
            self.scroll_to_highlight()  # type: ignore[attr-defined]
        return changed


class MeasuredOptions(MeasuredScroll):
    """An ``OptionList`` (mixin) measured by the layout that places it (``MeasuredScroll``).
    Textual gave it the size of its region as its virtual size, and the lines' own height came
    as it was drawn: a layout of the whole screen more, and one more for the scrollbar that
    height called for (the rules' contents: three layouts to open the rules)."""

    _lines_width = 0  # the width its lines were last made at

    def _one_line(self, option: Option, width: int) -> bool:
        """Whether the prompt is a plain string (no markup) or a ``Text`` of one line that fits
        in ``width``: one line, drawn as its own segments."""
        prompt = option.prompt
        plain = prompt.plain if isinstance(prompt, Text) else prompt if isinstance(prompt, str) else None
        return (
            plain is not None
            and (isinstance(prompt, Text) or not cast(Any, self)._markup)
            and "\n" not in plain
            and cell_len(plain) <= width
        )

    def _option_height(self, option: Option, width: int) -> int:
        """Lines of ``option`` at ``width`` (its padding off): one for a prompt of one line that
        fits, without Textual making its Content and wrapping it (measured, then its lines made,
        every option of the timeline of a long game was made and wrapped twice: ~15 ms); else
        Textual's."""
        if self._one_line(option, width):
            return 1
        return cast(int, self._get_visual(option).get_height(self.styles, width))  # type: ignore[attr-defined]

    def _get_option_render(self, option: Option, style: VisualStyle) -> list[Strip]:
        # Textual's, but a prompt of one line that fits is drawn from its own segments over the
        # option's style, each with the offset Textual gives it: the same cells and styles
        # (a test compares them), without Textual's Content (~0.4 ms an option in sight: the
        # rules' contents, the timeline)
        widget = cast(Any, self)
        width = widget.scrollable_content_region.width - widget._get_left_gutter_width()
        padding = widget.get_component_styles("option-list--option").padding
        if padding or option._divider or not self._one_line(option, width):
            return cast(list[Strip], super()._get_option_render(option, style))  # type: ignore[misc]
        key = (option, style, padding)
        strips: list[Strip] | None = widget._option_render_cache.get(key)
        if strips is None:
            base, prompt = style.rich_style, option.prompt
            segments, offset = [], 0
            for segment in (
                prompt.render(widget.app.console, end="") if isinstance(prompt, Text) else [Segment(cast(str, prompt))]
            ):
                text = segment.text
                segments.append(
                    Segment(
                        text,
                        (base + segment.style if segment.style else base) + Style.from_meta({"offset": (offset, 0)}),
                    )
                )
                offset += len(text)
            meta = {"option": widget._option_to_index[option]}
            strips = [Strip(segments).extend_cell_length(width, base).apply_meta(meta)]
            widget._option_render_cache[key] = strips
        return strips

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # Textual's, the lines of each option from _option_height
        options = self.options  # type: ignore[attr-defined]
        width -= self.get_component_styles("option-list--option").padding.width  # type: ignore[attr-defined]
        return sum(
            self._option_height(option, width) + (1 if option._divider and index < len(options) - 1 else 0)
            for index, option in enumerate(options)
        )

    def _update_lines(self) -> None:
        # Textual's, the lines of each option from _option_height
        region = self.scrollable_content_region  # type: ignore[attr-defined]
        if not region:
            return
        cache = self._line_cache  # type: ignore[attr-defined]
        lines = cache.lines
        options = self.options  # type: ignore[attr-defined]
        next_index = lines[-1][0] + 1 if lines else 0
        width = region.width - self._get_left_gutter_width()  # type: ignore[attr-defined]
        if next_index < len(options):
            room = width - self.get_component_styles("option-list--option").padding.width  # type: ignore[attr-defined]
            for index, option in enumerate(options[next_index:], next_index):
                cache.index_to_line[index] = len(lines)
                count = cache.heights[index] = self._option_height(option, room) + option._divider
                lines.extend((index, line) for line in range(count))
        virtual_size = Size(width, len(lines) - (1 if options and options[-1]._divider else 0))
        widget = cast(Widget, self)
        if virtual_size != widget.virtual_size:
            widget.virtual_size = virtual_size
            widget._scroll_update(virtual_size)
        if lines:
            self._lines_width = region.width

    def _on_resize(self, event: Resize | None = None) -> None:
        # Textual makes every line again and draws the list after each resize: right after a
        # screen comes up, a frame more. Its lines only change with its width.
        if (
            event is not None
            and self._line_cache.lines  # type: ignore[attr-defined]
            and self._lines_width == self.scrollable_content_region.width  # type: ignore[attr-defined]
        ):
            event.prevent_default()


class Pane(PlacedOnce, PlacedScrollBar, VerticalScroll, can_focus=False):
    """A scrolling pane around one panel of the game screen."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # A pane that keeps its scrollbar's column (scrollbar-gutter: stable) places its panel
        # beside it: measured at that width, as it is placed. Textual measured the panel a
        # column wider for the pane's height (its text rendered twice before the first frame,
        # and the pane's height from a width the panel does not have).
        styles = self.styles
        if styles.scrollbar_gutter == "stable" and styles.overflow_y == "auto" and width > 0:
            width = max(width - styles.scrollbar_size_vertical, 1)
        return super().get_content_height(container, viewport, width)


class ReadingPane(Pane, can_focus=True):
    """A ``Pane`` that takes the focus, its text scrolled by the keys (the rules, a card)."""


class Box(PlacedOnce, Vertical):
    """A column of widgets (``Vertical``), placed once."""

    def render_lines(self, crop: Region) -> list[Strip]:
        # A column draws nothing of its own but its background and side borders: every line the
        # same, drawn once (Textual draws each, through its styles: the big game screen's column
        # B, 38 lines, ~3 ms of its first frame and of each frame that resizes the panels)
        styles = self.styles
        (top, _), _, (bottom, _), _ = styles.border
        (outline_top, _), _, (outline_bottom, _), _ = styles.outline
        if (
            top
            or bottom
            or outline_top
            or outline_bottom
            or styles.padding.top
            or styles.padding.bottom
            or self._border_title is not None
            or self._border_subtitle is not None
            or crop.height < 2
            or not self.is_container
            or str(styles.keyline[0]) != "none"
        ):
            return super().render_lines(crop)
        return super().render_lines(Region(crop.x, 0, crop.width, 1)) * crop.height


class Row(PlacedOnce, Horizontal):
    """A row of widgets (``Horizontal``), placed once."""


class PlacedStatic(PlacedOnce, Static):
    """A ``Static``, placed once."""


@cache
def _own_reactives(cls: type[Widget]) -> tuple[str, ...]:
    return tuple(name for name in cls._reactives if name not in Widget._reactives)


class DrawnByLine:
    """A widget (mixin) whose ``Text`` or ``Cells`` Textual draws line by line, each line kept
    while it stays the same (``widgets/lines.py``): a decision changes a few lines of a panel."""

    _lines: LineCache | None = None  # the lines drawn lately

    def _visual_of(self, content: object) -> Visual:
        """What Textual draws of ``content``: a ``Text`` or ``Cells`` line by line (any other
        renderable as Textual does)."""
        widget = cast(Widget, self)
        if self._lines is None:
            self._lines = LineCache()
        if isinstance(content, Text):
            return TextLines(content, self._lines, widget.app.console)
        if isinstance(content, Cells):
            return CellLines(content.lines, content.width, self._lines)
        return visualize(widget, content, markup=widget._render_markup)

    def _render(self) -> Visual:
        # Textual's Widget._render, with the visual above
        widget = cast(Widget, self)
        visual = widget._layout_cache.get(_VISUAL)
        if not isinstance(visual, Visual):
            content = self.rendered()
            visual = widget._layout_cache[_VISUAL] = self._visual_of(content)
            self._drew(content)
        return visual

    def _drew(self, content: object) -> None:
        """Called with what ``render`` gave, once drawn into the widget's visual."""

    def _render_content(self) -> None:
        # Textual's Widget._render_content, each line drawn when Textual first asks for it (the
        # lines in sight): as Visual.to_strips draws a panel's text (no selection under way, the
        # content aligned top left; its link styling has nothing to do: no text here is a link)
        widget = cast(Widget, self)
        visual = self._render()
        if (
            not isinstance(visual, TextLines | CellLines)
            or widget.text_selection is not None
            or widget.styles.content_align != ("left", "top")
        ):
            super()._render_content()  # type: ignore[misc]
            return
        width, height = widget.size
        options = RenderOptions(widget._get_style, cast(RulesMap, widget.styles), None, None)  # as to_strips has it
        lines = visual.drawn_lines(width, height, widget.visual_style, options)
        widget._render_cache = _RenderCache(widget.size, cast(list[Strip], lines))  # read by index only
        widget._dirty_regions.clear()

    # A rehearsal: what the widget would draw with other values of its reactive attributes,
    # drawn ahead into its line cache and kept with those values (the same objects), shown
    # nowhere. Hot seat: while the hand-off screen is up, the next person's view is drawn ahead,
    # out of sight; their Enter then finds its texts and lines made.
    _rehearsed: tuple[tuple[object, ...], object] | None = None  # (inputs, what render() gave)

    def _inputs(self) -> tuple[object, ...]:
        """What ``render`` draws from: the size, the focus, the reactive attributes of the
        widget's own class (not Textual's: scrolling, hovering)."""
        widget = cast(Widget, self)
        return (widget.size, widget.has_focus, *(getattr(widget, name) for name in _own_reactives(type(widget))))

    def rehearse(self, values: Mapping[str, object]) -> None:
        """Render as if the reactive attributes ``values`` were set (none is: no watcher runs,
        nothing is refreshed), draw that into the line cache, and keep it for ``rendered``."""
        widget = cast(Widget, self)
        if not widget.size.width:
            return
        reactives = widget._reactives
        saved = {name: getattr(widget, name) for name in values}
        try:
            for name, value in values.items():
                widget.set_reactive(reactives[name], value)
            inputs, content = self._inputs(), widget.render()
        finally:
            for name, value in saved.items():
                widget.set_reactive(reactives[name], value)
        self._rehearsed = (inputs, content)
        Visual.to_strips(widget, self._visual_of(content), widget.size.width, None, widget.visual_style)

    def rendered(self) -> object:
        """``render()``; or what the rehearsal rendered, when every input is the same (the same
        size and focus, the same attributes: mostly the very same objects)."""
        rehearsed, self._rehearsed = self._rehearsed, None
        if rehearsed is not None:
            inputs, content = rehearsed
            now = self._inputs()
            if now[:2] == inputs[:2] and all(a is b or a == b for a, b in zip(now[2:], inputs[2:], strict=True)):
                return content
            self._rehearsed = rehearsed  # not drawn yet: kept for a later drawing
        return cast(Widget, self).render()


class FitsContent(DrawnByLine, PlacedOnce, Widget):
    """A widget sized to its content (``height: auto``), redrawn only when what it draws
    changed, and laying the screen out again only when its height changed. Every change hands
    new views to every panel; most panels draw the same as before (the tracks, often the board
    and the players), and Textual's drawing of a panel (its text to lines of cells) costs ten
    times what ``render`` does, and a layout of the whole screen more: at 120x40 they made a
    key press cost ~100 ms. Its ``view``, ``facts`` and ``bots`` reactives are declared with
    ``repaint=False``: their watchers here call ``refit_later`` (once for several attributes
    set together), which renders, compares with what was drawn, and refreshes if needed."""

    _refit_due = False
    _drawn: object = None  # (width, focus, text) last drawn by a refit
    _drawn_key: object = None  # (width, focus, render_key()) of that drawing
    _refitting = False
    _measuring = 0  # the width a layout measures the content at (0: the widget's own)
    _measured: tuple[int, Visual, object] | None = None  # (width, what it draws, what render gave) as
    # measured or refitted last
    _measured_with: tuple[object, ...] | None = None  # the inputs (``_inputs``) of a measure

    @property
    def content_width(self) -> int:
        """The width ``render`` draws at: the widget's, or the one a layout measures it at."""
        return self._measuring or self.size.width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if not width or width == self.size.width:
            return super().get_content_height(container, viewport, width)
        # A layout that gives this panel a new width measures it at that width: measured at its
        # old one, the height was wrong until one more layout of the whole screen. The first
        # layout measures a panel in a pane of height auto twice (the pane, then the panel).
        inputs = self._inputs()
        known = self._measured_with
        if (
            known is not None
            and self._measured is not None
            and self._measured[0] == width
            and known[:2] == inputs[:2]
            and all(a is b for a, b in zip(known[2:], inputs[2:], strict=True))
        ):
            visual = self._measured[1]
        else:
            self._measuring = width
            try:
                content = self.render()
            finally:
                self._measuring = 0
            visual = self._visual_of(content)
            self._measured, self._measured_with = (width, visual, content), inputs
        return visual.get_height(self.styles, width)  # type: ignore[arg-type]  # as Textual itself calls it

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        # Drawn from what the layout measured it with at its new width (its text and the lines
        # it wrapped to): Textual drops the widget's drawing as the layout places it, and drew
        # every panel a second time for its first frame.
        changed = super()._size_updated(size, virtual_size, container_size, layout)
        measured, self._measured = self._measured, None
        if measured is not None and measured[0] == size.width - self.styles.gutter.width:
            self._layout_cache[_VISUAL] = measured[1]
            known = self._measured_with
            if (
                known is not None
                and known[1] == (inputs := self._inputs())[1]
                and all(a is b for a, b in zip(known[2:], inputs[2:], strict=True))
            ):
                self._drew(measured[2])  # measured at this width with what is set now
        return changed

    def _drew(self, content: object) -> None:
        # What is drawn now, as a refit notes it: the first change after a layout that drew the
        # panel (the game's first frame) compares with it, not redrawing every panel.
        width = self.size.width
        if width and not self._measuring:
            key = self.render_key()
            self._drawn = (width, self.has_focus, content)
            self._drawn_key = None if key is None else (width, self.has_focus, key)

    def render_key(self) -> tuple[object, ...] | None:
        """What ``render`` draws from, as a key compared with the last one drawn: the same key,
        the same drawing, and the refit renders nothing (a panel's ``render`` costs 1-2 ms at
        120x40, and most keys change a few panels). The parts of the view and facts it holds
        are read by a function next to the panel's render function, and a test checks that
        ``render`` reads no field of the engine's structs that the key does not. None: no key
        (``render`` runs on every change)."""
        return None

    def _watch_view(self) -> None:
        self.refit_later()

    def _watch_facts(self) -> None:
        self.refit_later()

    def _watch_bots(self) -> None:
        self.refit_later()

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        if not self._refitting:  # drawn for another reason (a cursor, a resize): compare afresh
            self._drawn = None
            self._drawn_key = None
            self._measured = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def refit_later(self) -> None:
        if not self._refit_due:
            self._refit_due = True
            self.call_next(self._refit)

    def _refit(self) -> None:
        self._refit_due = False
        width = self.size.width
        if not width:  # not laid out yet (or hidden)
            self._drawn = None
            self.refresh(layout=True)
            return
        key = self.render_key()
        if key is not None:
            key = (width, self.has_focus, key)
            if key == self._drawn_key:
                return
        content = self.rendered()
        drawn = (width, self.has_focus, content)
        if drawn == self._drawn:
            self._drawn_key = key
            return
        # Measured and drawn from this one rendering: Textual's cached height (kept per width) and
        # cached visual would otherwise be the previous content's, so the panel kept its old height
        # until the next change, and a second rendering drew it.
        visual = self._visual_of(content)
        self.clear_cached_dimensions()
        self._layout_cache[_VISUAL] = visual
        layout = self.get_content_height(self.app.size, self.app.size, width) != self.size.height
        self._refitting = True
        try:
            self.refresh(layout=layout)
        finally:
            self._refitting = False
        self._layout_cache[_VISUAL] = visual
        self._drawn, self._drawn_key = drawn, key
        self._measured = (width, visual, content)  # and when the layout this asks for places it (_size_updated)
        self._measured_with = None  # not a measure: not taken for one
