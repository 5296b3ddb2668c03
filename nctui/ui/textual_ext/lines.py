"""A panel drawn line by line, each line's cells kept while it stays the same.

A panel's text changes a line or two at a decision (a marker moves on the Ritual track, a
Follower on the map), yet Textual draws a new text whole: it converts the Rich ``Text`` to its
own ``Content``, wraps it, and makes every line's cells (a ``Strip``) afresh, ~3-9 ms a panel at
120x40. ``TextLines`` and ``CellLines`` are the Textual ``Visual`` of a panel's ``Text`` or
``Cells``: each line is drawn by Textual's own code for that line (so exactly as before), and
kept in the panel's ``LineCache`` under the line's text and styles, its place and the panel's
width and style; the next drawing takes the lines that did not change from there. The same
``Strip`` objects drawn again also let Textual reuse what it made of them (cropped, filtered).
Each line is drawn when Textual first asks for it (``DrawnLines``): Textual asks for the lines in
sight, and a panel taller than its pane (the tracks at 120x40) drew every line at each change.

A line that fits the panel's width (left aligned, no padding, no tab) needs no wrapping: it is
drawn as it is, its segments over the panel's style with the offsets Textual gives them, the same
cells and styles as Textual's ``Content`` makes, without making one (~5 % of the game screen's
first frame, in instructions). A selection of text with the mouse (it styles part of the text) is
drawn the old way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast, overload

from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual.content import Content
from textual.css.types import TextAlign, TextOverflow
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, RulesMap, Visual

Run = tuple[tuple[str, RichStyle], ...]


class LineCache:
    """The lines a panel drew lately: their strips by (place, line), for one width and style,
    the most recently drawn last. Lines of earlier drawings are kept too, up to ``KEEP``: at one
    keyboard the hand, the players and the map go back and forth between two people's views at
    every hand-off."""

    KEEP = 400  # lines (a hundred or so a drawing at 120x40)

    __slots__ = ("heights", "setting", "strips")

    def __init__(self) -> None:
        self.setting: tuple[Any, ...] | None = None
        self.strips: dict[Any, list[Strip]] = {}
        self.heights: dict[tuple[str, int, str, bool], int] = {}

    def take(self, setting: tuple[Any, ...]) -> tuple[Any, ...]:
        """Draw in ``setting`` now (the lines kept are let go if it changed); returns the
        setting kept, to tell by identity whether it is still the one in force."""
        if setting != self.setting:
            self.setting, self.strips = setting, {}
        return self.setting

    def get(self, setting: tuple[Any, ...], key: Any) -> list[Strip] | None:
        """The strips kept for ``key`` in ``setting``, now the most recently drawn."""
        if setting is not self.setting:
            return None
        strips = self.strips.pop(key, None)
        if strips is not None:
            self.strips[key] = strips
        return strips

    def put(self, setting: tuple[Any, ...], key: Any, strips: list[Strip]) -> None:
        """Keep a line just drawn in ``setting``; the least recently drawn beyond ``KEEP`` go."""
        if setting is not self.setting:
            return
        kept = self.strips
        kept[key] = strips
        if len(kept) > self.KEEP:
            del kept[next(iter(kept))]


class DrawnLines(Sequence[Strip]):
    """A panel's lines, each drawn when first asked for. Textual asks a panel for the lines in
    sight only, but draws its whole text first: the tracks at 120x40 show 7 of their ~25 lines.
    ``draw(i)`` gives the strips of the text's line ``i`` (a line may wrap to several)."""

    __slots__ = ("_count", "_draw", "_height", "_next", "_out")

    def __init__(self, draw: Callable[[int], list[Strip]], count: int, height: int | None) -> None:
        self._draw = draw
        self._count = count  # lines of the text
        self._height = height  # strips at most (None: every one)
        self._next = 0  # the next line to draw
        self._out: list[Strip] = []

    def _reach(self, y: int | None) -> list[Strip]:
        """The strips drawn, up to strip ``y`` at least (None: all)."""
        out = self._out
        while self._next < self._count and (y is None or len(out) <= y):
            out.extend(self._draw(self._next))
            self._next += 1
        if self._height is not None and len(out) > self._height:
            del out[self._height :]
        return out

    @overload
    def __getitem__(self, y: int) -> Strip: ...

    @overload
    def __getitem__(self, y: slice) -> list[Strip]: ...

    def __getitem__(self, y: int | slice) -> Strip | list[Strip]:
        if isinstance(y, slice) or y < 0:
            return self._reach(None)[y]
        if self._height is not None and y >= self._height:
            raise IndexError(y)
        return self._reach(y)[y]

    def __len__(self) -> int:
        return len(self._reach(None))


def _text_rules(rules: RulesMap) -> tuple[TextAlign, TextOverflow, bool, int]:
    """The rules Textual wraps and aligns a text by: align, overflow, no wrap, line padding."""
    get_rule = rules.get
    return (
        cast(TextAlign, get_rule("text_align", "left")),
        cast(TextOverflow, get_rule("text_overflow", "fold")),
        get_rule("text_wrap", "wrap") == "nowrap",
        cast(int, get_rule("line_pad", 0)),
    )


class TextLines(Visual):
    """A Rich ``Text`` drawn as Textual draws it (as ``Content``), line by line from ``cache``."""

    __slots__ = ("_lines", "cache", "console", "text")

    def __init__(self, text: Text, cache: LineCache, console: Console) -> None:
        self.text = text
        self.cache = cache
        self.console = console
        self._lines: list[tuple[tuple[Any, ...], Text]] | None = None

    def _split(self) -> list[tuple[tuple[Any, ...], Text]]:
        """Each line (as ``Content.split`` divides it) and its key: place, text, spans, style."""
        if self._lines is None:
            self._lines = [
                ((y, line.plain, tuple(line.spans), line.style), line)
                for y, line in enumerate(self.text.split("\n", allow_blank=True))
            ]
        return self._lines

    def _content(self) -> Content:
        return Content.from_rich_text(self.text, self.console)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self._content().get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules: RulesMap) -> int:
        return self._content().get_minimal_width(rules)

    def get_height(self, rules: RulesMap, width: int) -> int:
        """As ``Content.get_height``: the lines the plain text wraps to, remembered by line."""
        _, overflow, no_wrap, line_pad = _text_rules(rules)
        line_pad *= 2
        heights = self.cache.heights
        total = 0
        for (_, plain, _, _), _ in self._split():
            key = (plain, width - line_pad, overflow, no_wrap)
            height = heights.get(key)
            if height is None and "\t" not in plain and cell_len(plain) <= width - line_pad:
                height = 1  # a line that fits: one line, wrapped or not (most lines of the panels)
            if height is None:
                if len(heights) > 512:
                    heights.clear()
                height = heights[key] = len(
                    Content(plain)._wrap_and_format(width - line_pad, overflow=overflow, no_wrap=no_wrap)
                )
            total += height
        return total

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        if not width:
            return []
        if options.selection is not None or options.post_style is not None:
            return self._content().render_strips(width, height, style, options)
        return list(self.drawn_lines(width, height, style, options))

    def drawn_lines(self, width: int, height: int | None, style: Style, options: RenderOptions) -> DrawnLines:
        """``render_strips`` (no selection, no post style), each line drawn when asked for."""
        align, overflow, no_wrap, line_pad = _text_rules(options.rules)
        cache, lines, console = self.cache, self._split(), self.console
        setting = cache.take((width, style, align, overflow, no_wrap, line_pad, options.get_style))
        as_it_is = align in ("left", "start") and not line_pad  # a line that fits is drawn as it is
        base = style.rich_style

        def draw(i: int) -> list[Strip]:
            key, line = lines[i]
            strips = cache.get(setting, key)
            if strips is None and as_it_is and "\t" not in key[1] and cell_len(key[1]) <= width:
                strips = [_as_it_is(line, base, key[0], console)]
                cache.put(setting, key, strips)
            if strips is None:
                formatted = Content.from_rich_text(line, console)._wrap_and_format(
                    width,
                    align=align,
                    overflow=overflow,
                    no_wrap=no_wrap,
                    line_pad=line_pad,
                    tab_size=8,
                    get_style=options.get_style,
                )
                strips = []
                for part in formatted:
                    part.y = key[0]  # its place in the whole text, as Content numbers it
                    strips.append(Strip(*part.to_strip(style)))
                cache.put(setting, key, strips)
            return strips

        return DrawnLines(draw, len(lines) if width else 0, height)


def _as_it_is(line: Text, base: RichStyle, y: int, console: Console) -> Strip:
    """A line that fits, as Textual's ``Content`` draws it (left aligned, no wrapping): its
    segments over the panel's style, each with the offset Textual gives it (its first
    character's place in the line, and the line's in the text), without making the Content."""
    segments, x = [], 0
    for text, style in pieces(line, console):
        segments.append(Segment(text, (base + style if style else base) + _offset(x, y)))
        x += len(text)
    return Strip(segments)


_offsets: dict[tuple[int, int], RichStyle] = {}


def _offset(x: int, y: int) -> RichStyle:
    """The style carrying a cell's offset, as Textual makes it (``Style.from_meta``), made once
    for each place (a style's link id, the one part that differs, is not part of its equality)."""
    style = _offsets.get((x, y))
    if style is None:
        if len(_offsets) > 50_000:
            _offsets.clear()
        style = _offsets[x, y] = RichStyle.from_meta({"offset": (x, y)})
    return style


def pieces(line: Text, console: Console) -> list[tuple[str, RichStyle | None]]:
    """``line.render(console, end="")`` as (text, style) pairs: the same pieces and styles. A
    line whose spans follow one another without overlapping (lines built by ``append``) is cut
    at its spans here, each piece in the line's style plus its span's; Rich's general drawing
    (a stack of the spans open at each offset) took two fifths of drawing a line."""
    spans = line.spans
    if not spans:
        return [(line.plain, None)]
    last, length = 0, len(line.plain)
    for span in spans:
        if span.start < last or span.end < span.start or span.end > length:
            return [(segment.text, segment.style) for segment in line.render(console, end="")]
        last = span.end
    get_style = console.get_style
    null = RichStyle.null()
    base = get_style(line.style, default=null)
    text, at = line.plain, 0
    out: list[tuple[str, RichStyle | None]] = []
    for span in spans:
        if span.start > at:
            out.append((text[at : span.start], base))
        if span.end > span.start:
            out.append((text[span.start : span.end], base + get_style(span.style, default=null)))
        at = span.end
    if len(text) > at:
        out.append((text[at:], base))
    return out


class CellLines(Visual):
    """Lines of runs (``Cells``) drawn as Textual draws a Rich renderable (each run in the
    panel's style plus its own, a line longer than the panel cut), line by line from ``cache``."""

    __slots__ = ("cache", "lines", "width")

    def __init__(self, lines: Sequence[Run], width: int, cache: LineCache) -> None:
        self.lines = lines
        self.width = width
        self.cache = cache

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return len(self.lines)

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        return list(self.drawn_lines(width, height, style, options))

    def drawn_lines(self, width: int, height: int | None, style: Style, options: RenderOptions) -> DrawnLines:
        """``render_strips``, each line drawn when asked for."""
        base = style.rich_style
        cache, lines = self.cache, self.lines
        setting = cache.take((width, base))
        styled: dict[RichStyle, RichStyle] = {}

        def draw(i: int) -> list[Strip]:
            key = (i, lines[i])
            strips = cache.get(setting, key)
            if strips is None:
                segments = []
                for text, run_style in key[1]:
                    combined = styled.get(run_style)
                    if combined is None:
                        combined = styled[run_style] = base + run_style if base else run_style
                    segments.append(Segment(text, combined))
                strip = Strip(segments)
                strips = [strip.crop(0, width) if strip.cell_length > width else strip]
                cache.put(setting, key, strips)
            return strips

        return DrawnLines(draw, len(lines), height)
