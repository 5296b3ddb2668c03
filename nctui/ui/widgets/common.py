"""Styles and small helpers shared by the widgets."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from ...engine.state import GameState
from ...describe import seat_letter, seat_name

# One colour per seat colour; every use also shows the seat's letter, so colour is never the
# only cue.
SEAT_COLOURS = {"red": "#ff6b6b", "blue": "#6b9bff", "green": "#5fd75f", "yellow": "#ffd75f"}


def seat_style(state: GameState, seat: int, *, bold: bool = True) -> Style:
    if 0 <= seat < len(state.players):
        return Style(color=SEAT_COLOURS.get(state.players[seat].colour, "white"), bold=bold)
    return Style(bold=bold)


def seat_tag(state: GameState, seat: int) -> Text:
    """'R Red' in the seat's colour."""
    return Text(f"{seat_letter(state, seat)} {seat_name(state, seat)}", style=seat_style(state, seat))


def clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells with an ellipsis."""
    if width <= 0:
        return ""
    if len(text) <= width:
        return text
    return text[: width - 1] + "…" if width > 1 else text[:width]
