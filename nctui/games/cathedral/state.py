"""The data of a Cathedral game: configuration, state, actions and events (frozen Structs; the
city as 100-bit masks so a step shares everything it does not change)."""

from __future__ import annotations

from typing import Literal

import msgspec

from nctui.platform.game import PlayerKind as SeatKind

Level = Literal["random", "greedy", "strong"]
Colour = int  # pieces.LIGHT or pieces.DARK


class CathedralConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``seats``: who plays each seat; ``levels``: each computer seat's player; ``games``: the
    length of the series (rule 8); seat 0 has Light (places the Cathedral) in the first game."""

    seats: tuple[SeatKind, SeatKind] = ("human", "bot")
    levels: tuple[Level, Level] = ("strong", "strong")
    games: int = 1
    seed: int = 0


class Building(msgspec.Struct, frozen=True):
    """A building in the city: ``colour`` None for the Cathedral."""

    id: str
    colour: Colour | None
    mask: int


class GameResult(msgspec.Struct, frozen=True):
    """One game of the series: each seat's unplaced squares (rule 7 and 8)."""

    unplaced: tuple[int, int]  # by seat
    light_seat: int


class Outcome(msgspec.Struct, frozen=True):
    """The series is over: its points by seat and the winners (both: a draw)."""

    points: tuple[int, int]
    winners: tuple[int, ...]


class CathedralState(msgspec.Struct, frozen=True, kw_only=True):
    config: CathedralConfig
    game: int = 0  # which game of the series
    phase: Literal["cathedral", "build", "over"] = "cathedral"
    to_move: Colour = 0  # Light places the Cathedral
    buildings: tuple[Building, ...] = ()
    supply: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # by colour
    territory: tuple[int, int] = (0, 0)  # by colour
    placed_first: tuple[bool, bool] = (False, False)  # by colour: its first building is down
    cathedral_gone: bool = False
    results: tuple[GameResult, ...] = ()
    moves: int = 0
    outcome: Outcome | None = None


# -- actions ----------------------------------------------------------------------------------------


class Place(msgspec.Struct, frozen=True, tag="place"):
    """Rule 2: place ``building`` (or "cathedral") turned ``turn`` with its top-left at (row, col)."""

    building: str
    turn: int
    row: int
    col: int


Action = Place


# -- events -----------------------------------------------------------------------------------------


class Placed(msgspec.Struct, frozen=True, tag="placed"):
    building: str
    colour: Colour | None
    mask: int


class Claimed(msgspec.Struct, frozen=True, tag="claimed"):
    """Rule 4: a part of the city enclosed by ``colour`` became its property."""

    colour: Colour
    mask: int


class Captured(msgspec.Struct, frozen=True, tag="captured"):
    """Rule 5: the one building (or the Cathedral) enclosed was removed."""

    by: Colour
    building: str
    owner: Colour | None
    mask: int


class NotClaimed(msgspec.Struct, frozen=True, tag="not_claimed"):
    """Rule 5: an enclosed part holds two or more buildings (or it is the first move, rule 4)."""

    colour: Colour
    mask: int
    reason: Literal["two_or_more", "first_move"]


class Passed(msgspec.Struct, frozen=True, tag="passed"):
    """``colour`` cannot place any building; the other plays on (rule 6)."""

    colour: Colour


class GameOver(msgspec.Struct, frozen=True, tag="game_over"):
    """Rule 6 and 7: neither can move; ``winner`` None is a draw."""

    game: int
    unplaced: tuple[int, int]  # by colour
    winner: Colour | None
    light_seat: int


class NextGame(msgspec.Struct, frozen=True, tag="next_game"):
    """Rule 8: the next game of the series, roles swapped."""

    game: int
    light_seat: int


class SeriesOver(msgspec.Struct, frozen=True, tag="series_over"):
    points: tuple[int, int]  # by seat
    winners: tuple[int, ...]


Event = Placed | Claimed | Captured | NotClaimed | Passed | GameOver | NextGame | SeriesOver


class StepResult(msgspec.Struct, frozen=True):
    state: CathedralState
    events: tuple[Event, ...]
