"""The screen under a translucent one (the help, a card, the timeline over the game), tinted.

Textual draws it as a Rich renderable: the screen under it rendered to segments, each segment's
colours blended with the tint, then the segments of all of it split into lines again (about a
third of opening the help at 120x40). ``Backdrop`` takes the lines of the screen under it as
its compositor draws them and tints each style once: the same cells, the same colours.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.color import Color
from textual.geometry import Size
from textual.screen import Screen
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, RulesMap, Visual

NULL_STYLE = RichStyle()


class Backdrop(Visual):
    """``screen`` drawn under a translucent screen, tinted with ``color`` (what Textual's
    ``BackgroundScreen`` draws)."""

    def __init__(self, screen: Screen, color: Color) -> None:
        self.screen, self.color = screen, color

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.screen._compositor.size.height

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        under = self.screen._compositor.render_strips(Size(width, height or self.screen._compositor.size.height))
        tint = Tint(self.color, style.rich_style)
        return [Strip([segment if segment.control else Segment(segment.text, tint(segment.style))
                       for segment in strip], strip.cell_length) for strip in under]


class Tint:
    """A style as it shows under the translucent screen: no links or actions, its colours
    blended with the tint, over the screen's base style; worked out once per style."""

    def __init__(self, color: Color, base: RichStyle) -> None:
        self.color, self.base = color, base
        self.done: dict[RichStyle | None, RichStyle] = {}

    def __call__(self, style: RichStyle | None) -> RichStyle:
        tinted = self.done.get(style)
        if tinted is None:
            tinted = self.done[style] = self._tinted(NULL_STYLE if style is None else style.clear_meta_and_links())
        return tinted

    def _tinted(self, style: RichStyle) -> RichStyle:
        color = self.color
        if color.a == 0:
            return self.base + style
        blend = RichStyle.from_color(
            (Color.from_rich_color(style.color) + color).rich_color if style.color is not None else None,
            (Color.from_rich_color(style.bgcolor) + color).rich_color if style.bgcolor is not None else None)
        return self.base + (style + blend)
