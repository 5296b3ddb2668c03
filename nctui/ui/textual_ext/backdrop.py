"""The screen under a translucent one (the help, a card, the timeline over the game), tinted.

Textual draws it as a Rich renderable: the screen under it rendered to segments, each segment's
colours blended with the tint, then the segments of all of it split into lines again (about a
third of opening the help at 120x40). ``Backdrop`` takes the lines of the screen under it as
its compositor draws them and tints each style once: the same cells, the same colours.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.color import Color
from textual.geometry import Size
from textual.screen import Screen
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, RulesMap, Visual

NULL_STYLE = RichStyle()
# The lines of each screen last drawn as a backdrop, by the ids of the strips they were made of
_TINTED: WeakKeyDictionary[Screen, dict[tuple[object, ...], tuple[tuple[Strip, ...], Strip]]] = WeakKeyDictionary()


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
        compositor = self.screen._compositor
        size = Size(width, height or compositor.size.height)
        # the compositor's render_strips, each line tinted; a line made of the very same strips
        # of the screen's widgets as a line tinted before (the game has not changed since the
        # last modal screen, or only in part) is that line
        chops = compositor._render_chops(size.region, lambda y: True)[: size.height]
        tint = Tint.of(self.color, style.rich_style)
        before = _TINTED.get(self.screen, {})
        lines: dict[tuple[object, ...], tuple[tuple[Strip, ...], Strip]] = {}
        tinted = []
        for chop in chops:
            parts = tuple(chop.values())
            key = (tint, *map(id, parts))  # the tint itself: kept alive by the key, its id not reused
            done = before.get(key) or lines.get(key)
            if done is None:
                strip = Strip.join(parts)
                done = (
                    parts,
                    Strip(
                        [
                            segment if segment.control else Segment(segment.text, tint(segment.style))
                            for segment in strip
                        ],
                        strip.cell_length,
                    ),
                )
            lines[key] = done  # the parts kept with it: their ids stay theirs
            tinted.append(done[1])
        _TINTED[self.screen] = lines
        return tinted


class Tint:
    """A style as it shows under the translucent screen: no links or actions, its colours
    blended with the tint, over the screen's base style; worked out once per style."""

    _made: dict[tuple[Color, RichStyle], Tint] = {}

    def __init__(self, color: Color, base: RichStyle) -> None:
        self.color, self.base = color, base
        self.done: dict[RichStyle | None, RichStyle] = {}

    @classmethod
    def of(cls, color: Color, base: RichStyle) -> Tint:
        """The one ``Tint`` of ``color`` over ``base`` (each modal screen's is the same)."""
        made = cls._made
        tint = made.get((color, base))
        if tint is None:
            if len(made) > 8:  # another theme: the styles of the others are not met again
                made.clear()
            tint = made[color, base] = cls(color, base)
        return tint

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
            (Color.from_rich_color(style.bgcolor) + color).rich_color if style.bgcolor is not None else None,
        )
        return self.base + (style + blend)
