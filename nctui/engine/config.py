"""Game configuration: everything chosen before setup."""

from __future__ import annotations

from typing import Literal

import msgspec

SeatKind = Literal["human", "bot", "king"]
COLOURS = ("red", "blue", "green", "yellow")

# Named Nightmare pairs suggested by the core rulebook (CHOOSING NIGHTMARES).
SUGGESTED_PAIRS: dict[str, tuple[int, int]] = {
    "ritual-climbing": (1, 5),
    "lots-of-conflict": (3, 7),
    "strategic-end": (4, 8),
    "devoured-competition": (3, 6),
    "quick-end": (2, 8),
    "card-play": (4, 6),
    "very-aggressive": (1, 7),
}


class GameConfig(msgspec.Struct, frozen=True, kw_only=True):
    """``players``: 1 (solo against the King) to 4. ``seats``: a kind per seat, in clockwise
    order around the table (solo: the human, then the King). ``nightmares``: two numbers, or
    empty for a random pair. ``difficulty``: solo modifier ids."""

    players: int = 2
    seats: tuple[SeatKind, ...] = ("human", "human")
    colours: tuple[str, ...] = ()
    length: Literal["standard", "variable"] = "standard"
    divergent_paths: bool = False
    nightmares: tuple[int, ...] = ()
    difficulty: tuple[str, ...] = ()
    pack: str = "base"
    seed: int = 0

    @property
    def seat_count(self) -> int:
        return 2 if self.players == 1 else self.players

    def seat_colours(self) -> tuple[str, ...]:
        return self.colours or COLOURS[: self.seat_count]


def check_config(config: GameConfig) -> list[str]:
    """Every problem with a configuration, in words (empty when it is fine)."""
    problems = []
    if not 1 <= config.players <= 4:
        problems.append("players must be 1 to 4")
    elif len(config.seats) != config.seat_count:
        problems.append(f"{config.players} players need {config.seat_count} seat kinds, got {len(config.seats)}")
    if config.players == 1 and config.seats and config.seats[-1] != "king":
        problems.append("solo play: the second seat is the King of Horrors")
    if config.players > 1 and "king" in config.seats:
        problems.append("the King of Horrors plays only in solo games")
    if config.colours and (len(config.colours) != config.seat_count or len(set(config.colours)) != len(config.colours)):
        problems.append("one distinct colour per seat")
    if config.colours and not set(config.colours) <= set(COLOURS):
        problems.append(f"colours are {', '.join(COLOURS)}")
    if config.nightmares and (len(config.nightmares) != 2 or len(set(config.nightmares)) != 2
                              or not all(1 <= n <= 8 for n in config.nightmares)):
        problems.append("nightmares: two different numbers from 1 to 8")
    if not 0 <= config.seed < 2**64:
        problems.append("seed: a whole number from 0 to 2**64-1")
    return problems
