"""Game configuration: everything chosen before setup."""

from __future__ import annotations

from typing import Literal

import msgspec

SeatKind = Literal["human", "bot", "king"]
# The computer players' levels (``bots.BOTS``, the registry entry's ``levels``; a test checks they
# agree), named here so that a configuration is checked without importing the bots.
COMPUTER_LEVELS = ("random", "greedy", "planner", "expert")
DEFAULT_LEVEL = "planner"  # a computer seat whose level the configuration does not name
COLOURS = ("red", "blue", "green", "yellow")

LENGTHS = ("standard", "variable")
NIGHTMARES = 8  # Nightmare cards, numbered 1 to 8

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

# Solo DIFFICULTY MODIFIERS: one option id each; presets by name.
HARDER = (
    "harder_climb",
    "harder_powered_1",
    "harder_powered_2",
    "harder_devoured",
    "harder_dream_discount",
    "harder_hand_scoring",
)
EASIER = ("easier_conform", "easier_desirable", "easier_ritual", "easier_nightmare")
DIFFICULTY_OPTIONS = HARDER + EASIER
DIFFICULTY_PRESETS: dict[str, tuple[str, ...]] = {
    "easy": EASIER,
    "normal": (),
    # Ours (the rulebook lists modifiers, not levels): measured against the planner, docs/balance.md.
    "hard": ("harder_powered_1", "harder_hand_scoring"),
}


def difficulty_level(difficulty: tuple[str, ...] | list[str]) -> str:
    """The preset these solo modifiers make ('easy', 'normal', 'hard'), else 'custom'."""
    chosen = set(difficulty)
    return next((name for name, options in DIFFICULTY_PRESETS.items() if set(options) == chosen), "custom")


class GameConfig(msgspec.Struct, frozen=True, kw_only=True, cache_hash=True, gc=False):
    """``players``: 1 (solo against the King) to 4. ``seats``: a kind per seat, in clockwise
    order around the table (solo: the human, then the King). ``length``: the Standard or the
    Variable Length Game. ``nightmares``: two numbers (a pair chosen by the players, e.g. one of
    ``SUGGESTED_PAIRS``), or empty for 2 revealed at random (SETUP 20). ``difficulty``: solo
    modifier ids."""

    players: int = 2
    seats: tuple[SeatKind, ...] = ("human", "human")
    colours: tuple[str, ...] = ()
    length: Literal["standard", "variable"] = "standard"
    divergent_paths: bool = False
    nightmares: tuple[int, ...] = ()
    difficulty: tuple[str, ...] = ()
    pack: str = "base"
    seed: int = 0
    levels: tuple[str, ...] = ()  # the computer player's level on each seat ("" or none: DEFAULT_LEVEL)

    @property
    def seat_count(self) -> int:
        return 2 if self.players == 1 else self.players

    def level(self, seat: int) -> str:
        """The level of the computer player of ``seat`` (if it plays one)."""
        return (self.levels[seat] if seat < len(self.levels) else "") or DEFAULT_LEVEL

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
    if config.levels and len(config.levels) != config.seat_count:
        problems.append(f"levels: one per seat ({config.seat_count}), got {len(config.levels)}")
    if not set(config.levels) <= {"", *COMPUTER_LEVELS}:
        problems.append(f"computer levels are {', '.join(COMPUTER_LEVELS)}")
    if config.length not in LENGTHS:
        problems.append(f"length is {' or '.join(LENGTHS)}")
    if config.nightmares and (
        len(config.nightmares) != 2
        or len(set(config.nightmares)) != 2
        or not all(1 <= n <= NIGHTMARES for n in config.nightmares)
    ):
        problems.append(f"nightmares: two different numbers from 1 to {NIGHTMARES}")
    if config.difficulty and config.players > 1:
        problems.append(
            "difficulty modifiers are for solo games only (DIFFICULTY MODIFIERS change the King of "
            "Horrors): leave them out with 2 to 4 players"
        )
    unknown = [d for d in config.difficulty if d not in DIFFICULTY_OPTIONS]
    if unknown:
        problems.append(f"difficulty options are {', '.join(DIFFICULTY_OPTIONS)}; not {', '.join(unknown)}")
    if {"harder_powered_1", "harder_powered_2"} <= set(config.difficulty):
        problems.append(
            "difficulty: harder_powered_1 or harder_powered_2, not both (DIFFICULTY MODIFIERS: the King "
            "starts with 1 or 2 powered-up actions)"
        )
    if not 0 <= config.seed < 2**64:
        problems.append("seed: a whole number from 0 to 2**64-1")
    return problems


def nightmare_pair(text: str) -> tuple[int, ...]:
    """CHOOSING NIGHTMARES: "3,7" (two numbers), a suggested pair by name ("lots-of-conflict"),
    or "random" (empty: revealed at random during setup). Raises ValueError in words."""
    words = text.strip().lower()
    if words in ("", "random"):
        return ()
    if words in SUGGESTED_PAIRS:
        return SUGGESTED_PAIRS[words]
    try:
        pair = tuple(int(n) for n in words.replace(" ", "").split(","))
    except ValueError:
        pair = ()
    if len(pair) != 2 or len(set(pair)) != 2 or not all(1 <= n <= NIGHTMARES for n in pair):
        raise ValueError(
            f'nightmares: two different numbers from 1 to {NIGHTMARES} (e.g. 3,7), "random", '
            f"or a suggested pair: {', '.join(SUGGESTED_PAIRS)}; not {text!r}"
        )
    return pair


def difficulty(text: str) -> tuple[str, ...]:
    """DIFFICULTY MODIFIERS: a preset ("easy", "normal", "hard") or comma-separated option ids.
    Raises ValueError in words."""
    words = text.strip().lower()
    if words in DIFFICULTY_PRESETS:
        return DIFFICULTY_PRESETS[words]
    ids = tuple(dict.fromkeys(w for w in words.replace(" ", "").split(",") if w))
    unknown = [d for d in ids if d not in DIFFICULTY_OPTIONS]
    if unknown:
        raise ValueError(
            f"difficulty: easy, normal, hard, or comma-separated ids from {', '.join(DIFFICULTY_OPTIONS)}"
            f"; not {', '.join(unknown)}"
        )
    return ids
