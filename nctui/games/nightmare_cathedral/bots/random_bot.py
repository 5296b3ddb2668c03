"""A bot that picks uniformly among the legal actions, from its own seeded generator."""

from __future__ import annotations

import random

from ..engine.actions import Action
from ..engine.views import View


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: View) -> Action:
        d = view.state.decision
        if d is None or d.seat != view.seat or not d.options:
            raise ValueError("the bot was asked to decide when it has no decision")
        return self._random.choice(d.options)
