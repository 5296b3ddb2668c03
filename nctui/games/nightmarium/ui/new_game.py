"""A new game of Nightmarium: how many people at this keyboard and how many computer players
(2 to 5 in all), the computer players' level, and the number of Creatures that wins."""

from __future__ import annotations

from typing import Any

from nctui.ui.screens.options_new_game import Setting, new_game_screens

from ..state import NightmariumConfig

SETTINGS: tuple[Setting, ...] = (
    (
        "people",
        "People",
        tuple((n, f"{n} at this keyboard (hands hidden by turns)" if n > 1 else "1: you") for n in (1, 2, 3, 4, 5)),
    ),
    ("computers", "Computers", tuple((n, str(n)) for n in (1, 2, 3, 4, 0))),
    (
        "level",
        "Their level",
        (("planner", "planner (plans its ability chains)"), ("greedy", "greedy"), ("random", "random")),
    ),
    ("goal", "Goal", tuple((n, f"{n} Creatures") for n in (5, 6, 7))),
)


def config_for(values: dict[str, Any], seed: int) -> NightmariumConfig:
    people, computers = values["people"], values["computers"]
    if not 2 <= people + computers <= 5:
        raise ValueError(f"Nightmarium is for 2 to 5 players, not {people + computers}")
    seats = ("human",) * people + ("bot",) * computers
    return NightmariumConfig(
        seats=seats, levels=("planner",) * people + (values["level"],) * computers, creatures=values["goal"], seed=seed
    )


new_game_screen = new_game_screens("Nightmarium", SETTINGS, config_for)
