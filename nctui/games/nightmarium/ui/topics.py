"""Where Nightmarium's rules summary (``rules_summary.toml``) explains the decision due. A refusal
names its rulebook section ("Action C: ..."), which the summary's sections name too
(``options_game``)."""

from __future__ import annotations

from ..state import NightmariumState
from ..words import ABILITY_NAMES


def decision_topic(view: NightmariumState) -> tuple[str, str | None]:
    """The section of the decision due, and the line shown above it (the order of ``rules._why``)."""
    if view.winner is not None:
        return "turn", None
    if view.pure is not None:
        return "abilities", "The decision due: a discard for a pure-legion Creature"
    if view.revealed:
        return "creature-abilities", "The decision due: where the Herald's card goes"
    if view.activation is not None and view.activation.abilities:
        return "creature-abilities", f"The decision due: {ABILITY_NAMES[view.activation.abilities[0]]}"
    if view.exchange is not None:
        return "actions", "The decision due: the cards to discard (action B)"
    return "actions", "The decision due: one of your two actions"
