"""Refusals: an action that is malformed, and one that the rules do not allow now."""

from __future__ import annotations


class ActionError(ValueError):
    """Base of the engine's refusals."""


class InvalidAction(ActionError):
    """The action is malformed: not an action, unknown card or area, wrong field."""


class IllegalAction(ActionError):
    """The action is well formed but the rules forbid it now.

    ``rule`` names the rule, ``section`` the rulebook section where it is written.
    """

    def __init__(self, message: str, *, rule: str = "", section: str = "") -> None:
        self.rule, self.section = rule, section
        where = f" [{section}]" if section else ""
        super().__init__(f"{message}{where}")


class NoDecision(IllegalAction):
    """The game is over: nobody decides anything."""
