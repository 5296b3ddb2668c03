"""A new game of Cathedral: the opponent (a person at this keyboard or a computer player of a
level), your side in the first game, and how many games the series has (rule 8)."""

from __future__ import annotations

from typing import Any

from nctui.ui.screens.options_new_game import Setting, new_game_screens

from ..state import CathedralConfig

SETTINGS: tuple[Setting, ...] = (
    (
        "opponent",
        "Opponent",
        (
            ("strong", "the computer, strong"),
            ("greedy", "the computer, greedy"),
            ("random", "the computer, random"),
            ("person", "another person at this keyboard"),
        ),
    ),
    (
        "side",
        "You play",
        (("light", "Light: you place the Cathedral, Dark moves first"), ("dark", "Dark: you move first")),
    ),
    ("games", "Games", tuple((n, f"{n} (the sides swap each game; fewest squares left wins)") for n in (1, 2, 4, 6))),
)


def config_for(values: dict[str, Any], seed: int) -> CathedralConfig:
    """Seat 0 has Light in the first game; with a computer opponent, the person takes ``side``."""
    opponent, games = values["opponent"], values["games"]
    if opponent == "person":
        return CathedralConfig(seats=("human", "human"), games=games, seed=seed)
    if values["side"] == "light":
        return CathedralConfig(seats=("human", "bot"), levels=("strong", opponent), games=games, seed=seed)
    return CathedralConfig(seats=("bot", "human"), levels=(opponent, "strong"), games=games, seed=seed)


new_game_screen = new_game_screens("Cathedral", SETTINGS, config_for)
