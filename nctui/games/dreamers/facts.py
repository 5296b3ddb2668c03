"""What the rules say about a view of the dice game, for the screen (which runs no rule)."""

from __future__ import annotations

from functools import cached_property

from . import rules
from .state import Action, DreamersState


class DreamersFacts:
    def __init__(self, view: DreamersState) -> None:
        self.view = view

    @cached_property
    def options(self) -> tuple[Action, ...]:
        return rules.legal_actions(self.view) if rules.decider(self.view) is not None else ()

    def power(self, seat: int) -> int:
        return rules.power(self.view.seats[seat])

    def exhaustion(self, seat: int) -> int:
        return rules.exhaustion(self.view.seats[seat].card)

    def shadow_limit(self) -> int:
        return rules.shadow_limit(self.view)

    def nightmare_of(self, colour: int) -> int:
        return rules.nightmare_of(self.view, colour)

    def nightmare_card(self, colour: int) -> tuple[str, str]:
        """(what faces it takes, its ability id) for the Nightmare of ``colour``."""
        card = rules.card_of_colour(self.view, colour)
        return card.takes, card.ability
