"""Small helpers shared by the widgets of every game: the seats' colours and tags, text cut and packed to a
width, cursors moved across a panel, and the message a panel posts when something on it is picked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message

from nctui.platform.game import PALETTE, SeatLabel, SeatPresence
from nctui.platform.net.turns import left_words

SEAT_COLOURS = PALETTE  # the seats' colours by name (nctui.platform.game)


def label_style(label: SeatLabel, *, bold: bool = True) -> Style:
    """A seat's colour (as the game's ``seat_labels`` name it), bold."""
    return Style(color=label.colour or None, bold=bold)


def label_tag(label: SeatLabel) -> Text:
    """'R Red' in the seat's colour: its letter goes with the colour, never the colour alone."""
    return Text(f"{label.letter} {label.name}", style=label_style(label))


PRESENCE_NAME = 16  # cells of a holder's name in a players panel (a name may have 40)


def away_words(seconds: float) -> str:
    """'away', 'away 3 min', 'away 2 h 5 min': how long a person has been away."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return "away"
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return f"away {minutes} min"
    return f"away {hours} h" + (f" {minutes} min" if minutes else "")


def presence_words(presence: SeatPresence) -> str:
    """A seat of a game on a server in a players panel (issue 37.6): 'Ann', 'Ann, away 3 min',
    'computer for Ann, away 6 min' (a computer plays while she is away), 'computer', 'free seat';
    in a turn-based game the seat to play says its time left ('Bob, 5 h 20 min left'), nobody
    is said to be away."""
    name = clip(presence.name, PRESENCE_NAME)
    if presence.turn_based and presence.status in ("here", "away"):  # away is how a turn-based game is played
        return f"{name}, {left_words(presence.left)} left" if presence.left >= 0 else name
    if presence.status == "here":
        return name
    if presence.status == "away":
        return f"{name}, {away_words(presence.away)}"
    if presence.status == "computer":
        return f"computer for {name}, {away_words(presence.away)}" if name else "computer"
    return "free seat"


def clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells with an ellipsis."""
    if width <= 0:
        return ""
    if len(text) <= width:
        return text
    return text[: width - 1] + "…" if width > 1 else text[:width]


def pack_parts(parts: Sequence[str], width: int, indent: str = "") -> list[str]:
    """The non-empty parts joined by ' · ' on as many lines as ``width`` needs (each line
    starts with ``indent``); a part never splits."""
    lines: list[str] = []
    for part in filter(None, parts):
        if lines and len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += " · " + part
        else:
            lines.append(indent + part)
    return lines


def wrap_cells(text: Text, width: int) -> list[Text]:
    """``text`` broken at spaces into lines of at most ``width`` cells, nothing cut (a word longer
    than a line is split). Every glyph drawn is one cell wide (tests/test_glyph_widths.py), so a
    character is a cell."""
    width = max(width, 1)
    plain, offsets, start = text.plain, [], 0
    while len(plain) - start > width:
        cut = plain.rfind(" ", start, start + width + 1)
        cut = cut + 1 if cut > start else start + width
        offsets.append(cut)
        start = cut
    lines = list(text.divide(offsets))
    for line in lines:
        line.rstrip()
        line.end = ""
    return lines


# -- cursors on the board and the matrix ----------------------------------------------------------

CURSOR_BINDINGS = (
    # (key, direction (dy, dx), binding id suffix); arrows and hjkl both move the cursor
    ("up", (-1, 0), "up"),
    ("down", (1, 0), "down"),
    ("left", (0, -1), "left"),
    ("right", (0, 1), "right"),
    ("k", (-1, 0), "k"),
    ("j", (1, 0), "j"),
    ("h", (0, -1), "h"),
    ("l", (0, 1), "l"),
)


def cursor_bindings(prefix: str) -> list[BindingType]:
    """Arrow keys and hjkl moving a widget's cursor, and Enter picking what is under it."""
    out: list[BindingType] = [
        Binding(key, f"move({dy}, {dx})", "Move", show=False, id=f"{prefix}.cursor-{name}")
        for key, (dy, dx), name in CURSOR_BINDINGS
    ]
    out.append(Binding("enter", "pick", "Pick", id=f"{prefix}.pick"))
    return out


def nearest(points: Mapping[str, tuple[float, float]], current: str, dy: int, dx: int) -> str:
    """The point one step from ``current`` in the direction (dy, dx): the closest one lying that
    way, straight lines first. ``current`` itself when nothing lies that way."""
    y0, x0 = points[current]
    best, best_cost = current, float("inf")
    for key, (y, x) in points.items():
        ahead = (y - y0) * dy + (x - x0) * dx  # distance along the direction
        if key == current or ahead <= 0:
            continue
        aside = abs((y - y0) * dx) + abs((x - x0) * dy)  # distance across it
        cost = ahead + 2 * aside
        if cost < best_cost:
            best, best_cost = key, cost
    return best


class OptionsPicked(Message):
    """The player picked ``what`` (an area, a space, a card) on a panel; ``indices``: the options
    of the due decision that choose it (the screen sends one, or lets the player pick among
    several in the decision list)."""

    def __init__(self, what: str, indices: tuple[int, ...]) -> None:
        self.what, self.indices = what, indices
        super().__init__()
