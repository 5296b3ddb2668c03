"""A new game of Dreamers and Nightmares: people and computer players (2 to 4 in all), the
computer players' level, and the Nightmare of Temptation variant."""

from __future__ import annotations

from typing import Any

from nctui.ui.screens.options_new_game import Setting, new_game_screens

from ..state import DreamersConfig

SETTINGS: tuple[Setting, ...] = (
    ("people", "People", tuple((n, f"{n} at this keyboard" if n > 1 else "1: you") for n in (1, 2, 3, 4))),
    ("computers", "Computers", tuple((n, str(n)) for n in (1, 2, 3, 0))),
    ("level", "Their level", (("gambler", "gambler (presses its luck by expected value)"), ("random", "random"))),
    ("temptation", "Temptation", (("none", "not used"), ("envy", "replaces Envy"), ("fear", "replaces Primeval Fear"))),
)


def config_for(values: dict[str, Any], seed: int) -> DreamersConfig:
    people, computers = values["people"], values["computers"]
    if not 2 <= people + computers <= 4:
        raise ValueError(f"the dice game is for 2 to 4 players, not {people + computers}")
    return DreamersConfig(
        seats=("human",) * people + ("bot",) * computers,
        levels=("gambler",) * people + (values["level"],) * computers,
        temptation=values["temptation"],
        seed=seed,
    )


new_game_screen = new_game_screens("Dreamers and Nightmares", SETTINGS, config_for)
