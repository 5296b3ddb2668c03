"""What the rules say about a Nightmarium view, for the screen (which runs no rule)."""

from __future__ import annotations

from functools import cached_property

from . import rules
from .state import Action, NightmariumState


class NightmariumFacts:
    def __init__(self, view: NightmariumState) -> None:
        self.view = view

    @cached_property
    def options(self) -> tuple[Action, ...]:
        """The decision due, if the view's seat makes it (else nothing)."""
        return rules.legal_actions(self.view) if rules.decider(self.view) is not None else ()

    def completed(self, seat: int) -> int:
        return rules.completed(self.view.players[seat])

    @property
    def decider(self) -> int | None:
        return rules.decider(self.view)
