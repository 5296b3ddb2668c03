"""A bot that plays like an eager beginner: it acts rather than passes, plays every Dream it
can, conforms when it may, climbs, builds, and fights with its strongest cards.

It sees only its seat's view and picks among the legal actions by simple preferences, with
its own seeded generator breaking ties, so games between bots stay reproducible.
"""

from __future__ import annotations

import random

from ..content.loader import get_pack
from ..content.schema import Combat
from ..engine import actions as A
from ..engine.views import View

# Higher is better; actions not listed score 0. Done/pass-like choices score below 0.
PREFERENCE: dict[type, float] = {
    A.PlayDream: 10,
    A.PlayUpgrade: 6,
    A.TakeBonus: 0,  # decided by its field below
    A.TakeVictory: 0,
    A.BuildFortLevel: 4,
    A.ClimbMarker: 4,
    A.ProduceIn: 3,
    A.ConvertUnit: 3,
    A.RecoverTo: 2,
    A.PlayPloy: 2,
    A.StartConflict: 1,
    A.ChooseNightmare: 1,
    A.MoveNightmare: 1,
    A.DevourUnit: 1,
    A.KeepDreams: 1,
    A.ReturnFromLimbo: -1,  # LIMBO: keep them for Rituals unless nothing better (an empty supply waits)
    A.Done: -5,
}


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: View) -> A.Action:
        d = view.state.decision
        if d is None or d.seat != view.seat or not d.options:
            raise ValueError("the bot was asked to decide when it has no decision")
        scored = [(self._score(view, o), self._random.random(), i) for i, o in enumerate(d.options)]
        return d.options[max(scored)[2]]

    def _score(self, view: View, action: A.Action) -> float:
        match action:
            case A.ChooseDay(ignore=ignore):
                return -1 if ignore else 5
            case A.React(kind=kind):
                return {"conform": 5, "dissent": 3, "pass": -1}[kind]
            case A.TakeBonus(take=take) | A.TakeVictory(take=take):
                return 3 if take else 1
            case A.PlayCombatCard(card=card):
                return 1 + self._attack(view, card)
            case A.TakeDream(card=card):
                return 2 if card else 1
            case A.DiscardDream():
                return -2
        return PREFERENCE.get(type(action), 0)

    def _attack(self, view: View, card: str) -> float:
        cards = get_pack(view.state.pack).cards
        c: Combat | None
        if card == cards.basic_combat.id:
            c = cards.basic_combat.combat
        else:
            c = next((d.combat for d in cards.development if d.id == card), None)
        return 0 if c is None else c.attack + 0.5 * c.defense
