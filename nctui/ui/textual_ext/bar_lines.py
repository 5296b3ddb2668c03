"""A vertical scrollbar's lines, drawn as Textual draws them, each kind of line once.

Textual draws a scrollbar as any widget: a Rich renderable (``ScrollBarRender``) rendered through
the console, split into lines, and each line through the widget's styles (``StylesCache``) and
the app's line filters: ~0.2 ms a line. The game screen at 120x40 shows three to five bars, 38
lines in its first frame (7.7 ms of it) and in each frame that resizes the panes. A bar's lines
are of three to five kinds (the track above the thumb, the thumb, the track below it, the
thumb's two ends); ``bar_lines`` draws each kind once, by the same steps, and uses it for every
line of that kind. A bar Textual would draw otherwise (a border, padding, a tint, another
renderer...) is left to Textual (``None``).
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip

NO_SPACING = (0, 0, 0, 0)
_drawn: WeakKeyDictionary[ScrollBar, tuple[tuple[object, ...], list[Strip]]] = WeakKeyDictionary()  # each bar's last
BACK = Color.parse("#555555")  # ScrollBarRender's defaults
BAR = Color.parse("bright_magenta")


def _plain(bar: ScrollBar) -> bool:
    """Whether Textual's drawing of ``bar`` is its renderable's segments over its style only."""
    styles = bar.styles
    return (
        bar.vertical
        and bar.text_selection is None
        and styles.opacity == 1
        and styles.text_opacity == 1
        and not styles.tint.a
        and tuple(styles.padding) == NO_SPACING
        and not any(edge for edge, _ in styles.border)
        and not any(edge for edge, _ in styles.outline)
        and not (styles.has_rule("hatch") and styles.hatch != "none")
        and styles.content_align == ("left", "top")
        and bar._border_title is None
        and bar._border_subtitle is None
    )


def bar_lines(bar: ScrollBar, crop: Region) -> list[Strip] | None:
    """The lines of ``bar`` in ``crop`` (``Widget.render_lines``), or None: not a plain bar."""
    width, height = bar.size
    if not width or not height or not _plain(bar):
        return None
    renderable = bar.render()
    if type(renderable) is not ScrollBarRender:
        return None
    style = renderable.style
    if not isinstance(style, Style):
        return None
    base = bar.visual_style.rich_style
    base_background, background = bar.background_colors
    filters = bar.get_line_filters()
    # drawn from the same as last time: the same strips (a screen over the game tints each line
    # of the game once, and knows a line by its strips)
    key = (
        renderable.virtual_size,
        renderable.window_size,
        renderable.position,
        style,
        width,
        height,
        crop,
        base,
        base_background,
        background,
        *filters,
    )
    kept = _drawn.get(bar)
    if kept is not None and kept[0] == key:
        return list(kept[1])
    segments = renderable.render_bar(
        size=height,
        virtual_size=renderable.virtual_size,
        window_size=renderable.window_size,
        position=renderable.position,
        thickness=width,
        vertical=True,
        back_color=style.bgcolor or BACK,
        bar_color=style.color or BAR,
    ).segments
    if len(segments) != height:
        return None
    inner = bar._styles_cache.get_inner_outer(base_background, background)[0].rich_style
    kinds: dict[int, Strip] = {}  # by the segment's identity: render_bar repeats one per kind

    def line(segment: Segment) -> Strip:
        strip = kinds.get(id(segment))
        if strip is None:
            # as RichVisual (the widget's style under the renderable's), then StylesCache.render_line
            drawn = Strip([Segment(segment.text, base + segment.style)] if base else [segment])
            strip = Strip(drawn.adjust_cell_length(width, inner), width)
            for line_filter in filters:
                strip = strip.apply_filter(line_filter, background)
            kinds[id(segment)] = strip
        return strip

    strips = [line(segments[y]) for y in crop.line_range]
    bar._styles_cache.clear()  # what Textual kept of its own drawing is not this one
    if crop.column_span != (0, width):
        strips = [strip.crop(*crop.column_span) for strip in strips]
    _drawn[bar] = (key, strips)
    return list(strips)
