"""Every word of Cathedral: squares, buildings, refusals, events, decisions, summaries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from . import pieces
from .pieces import LIGHT
from .state import (
    Captured,
    CathedralState,
    Claimed,
    Event,
    GameOver,
    GameResult,
    NextGame,
    NotClaimed,
    Outcome,
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
# what the city's glyphs mean, in two short lines beside it (the help says it at length)
LEGEND = (
    "<> may go here  XX may not  ++ the Cathedral",
    "Ab Light  ab Dark  -- Light's land  ~~ Dark's",
)
TURNS = ("", "turned once", "turned twice", "turned three times")


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


def building_label(building: str, copies: int) -> str:
    """'Tavern 1sq, 2 left': the building, the squares it covers, and how many of it are left."""
    left = f", {copies} left" if copies > 1 else ""
    return f"{pieces.name_of(building)} {pieces.size_of(building)}sq{left}"


def codes_help() -> str:
    """'Ta Tavern, St Stable, ...': every building's two letters on the city."""
    return ", ".join(f"{CODES[b.id]} {b.name}" for b in pieces.piece_set().building)


def game_result(number: int, result: GameResult, who: Callable[[int], str]) -> str:
    """One game of the series in words (rule 7): each side, who played it, its squares left, and
    who won. ``who``: a seat's words ('you', 'the computer', 'Player 2')."""
    light, dark = result.light_seat, 1 - result.light_seat
    left = (result.unplaced[light], result.unplaced[dark])  # by colour
    sides = f"Light ({who(light)}) {plural(left[0], 'square')} left, Dark ({who(dark)}) {left[1]}"
    if left[0] == left[1]:
        outcome = "a draw (rule 7: as many squares left)"
    else:
        winner = 0 if left[0] < left[1] else 1
        why = "placed every building" if min(left) == 0 else "fewer squares left"
        outcome = f"{COLOURS[winner]} ({who((light, dark)[winner])}) wins (rule 7: {why})"
    return f"Game {number + 1}: {sides}: {outcome}."


def series_result(outcome: Outcome, games: int, who: Callable[[int], str]) -> str:
    """The series' end (rule 8) in words: each seat's points and who won; one game: who won it."""
    w = outcome.winners
    if games == 1:
        return "The game is over: " + ("a draw." if len(w) != 1 else f"{who(w[0])} won.")
    points = f"{who(0)} {plural(outcome.points[0], 'point')}, {who(1)} {plural(outcome.points[1], 'point')}"
    result = "a draw" if len(w) != 1 else f"{who(w[0])} won the series"
    return f"The series is over: {points} (each game's squares left; the fewest wins, rule 8): {result}."


def describe_event(event: Event, games: int = 0, who: Callable[[int], str] | None = None) -> str:
    """An event in words; ``games``: the series' length (one game: its end names the sides);
    ``who``: a seat's words, as the screen names the players ('you', 'the computer', 'Player 2';
    by default 'Player 2'). The sides are Light and Dark, who plays each is said in brackets."""
    name = who or (lambda seat: f"Player {seat + 1}")
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
            return f"Game {g + 1}: Light ({name(s)}) places the Cathedral; Dark ({name(1 - s)}) moves first."
        case SeriesOver(points=p, winners=w) if games == 1:
            result = "a draw" if len(w) != 1 else f"{COLOURS[w[0]]} ({name(w[0])}) won"
            return f"Light was {name(0)}, Dark {name(1)}: {result}."
        case SeriesOver(points=p, winners=w):
            result = "a draw" if len(w) != 1 else f"{name(w[0])} won the series"
            return (
                f"The series is over: {name(0)} {plural(p[0], 'point')}, {name(1)} {plural(p[1], 'point')} "
                f"(the sides swapped each game; the fewest points wins); {result}."
            )
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
