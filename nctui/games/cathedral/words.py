"""Every word of Cathedral: squares, buildings, refusals, events, decisions, summaries."""

from __future__ import annotations

from typing import Literal

from . import pieces
from .pieces import LIGHT
from .state import (
    Captured,
    CathedralState,
    Claimed,
    Event,
    GameOver,
    NextGame,
    NotClaimed,
    Passed,
    Place,
    Placed,
    SeriesOver,
)

Reason = Literal["over", "cathedral_first", "not_in_supply", "turn", "outside", "overlap", "territory"]

REFUSALS: dict[Reason, str] = {
    "over": "Rule 6: the game is over; no building can be placed",
    "cathedral_first": "Rule 3: Light places the Cathedral first; then buildings are placed",
    "not_in_supply": "Rule 1: that building is not in the mover's supply",
    "turn": "Rule 2: a building turns only to one of its rotations",
    "outside": "Rule 2: a building is placed within the city walls, lined up with the squares",
    "overlap": "Rule 2: a building is placed on free squares, not on another building",
    "territory": "Rule 4: the opponent's property is closed to your buildings",
}

COLOURS = ("Light", "Dark")
# two letters for each building on the city's squares (Light's drawn upper case, Dark's lower)
CODES = {
    "cathedral": "++",
    "tavern": "Ta",
    "stable": "St",
    "inn": "In",
    "bridge": "Br",
    "square": "Sq",
    "manor": "Ma",
    "abbey": "Ab",
    "academy": "Ac",
    "infirmary": "If",
    "castle": "Ca",
    "tower": "To",
}
COLUMNS = "ABCDEFGHIJ"


def colour_name(colour: int | None) -> str:
    return "the Cathedral" if colour is None else COLOURS[colour]


def square(row: int, col: int) -> str:
    """'A1' is the top-left square; columns A-J, rows 1-10."""
    return f"{COLUMNS[col]}{row + 1}"


def where(mask: int) -> str:
    cells = pieces.squares(mask)
    top = min(cells)
    return square(*top)


def seat_colour(state: CathedralState, seat: int) -> int:
    light = state.game % 2  # rule 8: the roles alternate
    return LIGHT if seat == light else 1 - LIGHT


def seat_name(state: CathedralState, seat: int) -> str:
    return f"Player {seat + 1}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe_event(event: Event) -> str:
    match event:
        case Placed(building=b, colour=c, mask=m):
            if c is None:
                return f"Light places the Cathedral at {where(m)}."
            return f"{COLOURS[c]} places the {pieces.name_of(b)} at {where(m)}."
        case Claimed(colour=c, mask=m):
            return f"{COLOURS[c]} encloses {plural(m.bit_count(), 'square')}: it is {COLOURS[c]}'s property."
        case Captured(by=by, building=b, owner=o, mask=m):
            if o is None:
                return f"{COLOURS[by]} encloses the Cathedral alone and removes it for the rest of the game."
            return (
                f"{COLOURS[by]} encloses {COLOURS[o]}'s {pieces.name_of(b)} alone and removes it: "
                f"it goes back to {COLOURS[o]}'s supply."
            )
        case NotClaimed(colour=c, mask=m, reason=r):
            why = "it holds two or more buildings" if r == "two_or_more" else "no space is claimed on a first move"
            return f"{COLOURS[c]} encloses {plural(m.bit_count(), 'square')} but claims nothing: {why}."
        case Passed(colour=c):
            return f"{COLOURS[c]} cannot place any building; {COLOURS[1 - c]} plays on."
        case GameOver(game=g, unplaced=u, winner=w):
            score = f"Light {plural(u[0], 'square')} unplaced, Dark {plural(u[1], 'square')}"
            result = "a draw" if w is None else f"{COLOURS[w]} wins"
            return f"Game {g + 1} is over: {score}; {result}."
        case NextGame(game=g, light_seat=s):
            return (
                f"Game {g + 1}: Player {s + 1} has Light and places the Cathedral; Player {2 - s} (Dark) moves first."
            )
        case SeriesOver(points=p, winners=w):
            who = "a draw" if len(w) != 1 else f"Player {w[0] + 1} wins the series"
            return f"The series is over: Player 1 {plural(p[0], 'point')}, Player 2 {plural(p[1], 'point')}; {who}."
    raise TypeError(f"not a Cathedral event: {event!r}")


def describe_action(action: Place, state: CathedralState) -> str:
    mask = pieces.placement(action.building, max(state.to_move, 0), action.turn, action.row, action.col)
    at = square(action.row, action.col) if mask is None else where(mask.mask)
    name = pieces.name_of(action.building)
    return f"{COLOURS[state.to_move] if action.building != pieces.CATHEDRAL else 'Light'}: {name} at {at}"


def decision(state: CathedralState) -> str:
    if state.phase == "over":
        return "The series is over."
    if state.phase == "cathedral":
        return "Light: place the Cathedral anywhere in the city."
    return f"{COLOURS[state.to_move]}: place a building."
