"""Colour modes: full colour (what the terminal offers, truecolor or 256 colours) and monochrome.

Textual downgrades every colour to the terminal's colour system by itself; the seat colours in
``widgets/common.py`` are chosen so that in 256 colours they stay four different colours
(``seat_colours_256``, tested). Monochrome is asked for with ``--mono``, ``NCTUI_MONO=1`` or
the standard ``NO_COLOR`` (which Textual honours by itself): the app then draws in greys, and
the sides are still told apart by their letters (R, B, G, Y) and symbols, never colour alone.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from rich.color import Color, ColorSystem
from textual.filter import LineFilter, Monochrome

from .widgets.common import SEAT_COLOURS

MONO_ENV = "NCTUI_MONO"


def mono_wanted(flag: bool | None = None, env: Mapping[str, str] | None = None) -> bool:
    """Whether to draw in monochrome: the ``--mono`` flag, else $NCTUI_MONO (any value but
    "", "0", "no", "false") or $NO_COLOR (any value, as no-color.org says)."""
    if flag is not None:
        return flag
    env = os.environ if env is None else env
    mono = env.get(MONO_ENV, "").strip().lower()
    return mono not in ("", "0", "no", "false") or "NO_COLOR" in env


MONOCHROME = Monochrome()


def line_filters(filters: Sequence[LineFilter], mono: bool) -> Sequence[LineFilter]:
    """The app's line filters, plus the greys filter in monochrome (the one Textual itself
    installs for NO_COLOR, so it is never applied twice)."""
    if not mono or any(isinstance(f, Monochrome) for f in filters):
        return filters
    return [*filters, MONOCHROME]


def seat_colours_256() -> dict[str, int]:
    """Each seat colour's number in the 256-colour palette, as a terminal without truecolor
    shows it."""
    return {name: Color.parse(hex_).downgrade(ColorSystem.EIGHT_BIT).number or 0 for name, hex_ in SEAT_COLOURS.items()}
