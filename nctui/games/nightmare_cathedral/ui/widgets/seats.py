"""The seats of Nightmare Cathedral drawn in their colours, with their letter and name."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from nctui.ui.widgets.common import SEAT_COLOURS

from ...describe import seat_letter, seat_name
from ...engine.state import GameState


def seat_style(state: GameState, seat: int, *, bold: bool = True) -> Style:
    if 0 <= seat < len(state.players):
        return Style(color=SEAT_COLOURS.get(state.players[seat].colour, "white"), bold=bold)
    return Style(bold=bold)


def seat_tag(state: GameState, seat: int) -> Text:
    """'R Red' in the seat's colour."""
    return Text(f"{seat_letter(state, seat)} {seat_name(state, seat)}", style=seat_style(state, seat))
