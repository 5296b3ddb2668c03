"""Where the Dreamers and Nightmares rules summary (``rules_summary.toml``) explains the decision
due. A refusal names its rulebook section ("Shadow of Envy: ..."), which the summary's sections
name too (``options_game``)."""

from __future__ import annotations

from ..state import DreamersState

# Each phase of a turn: (the section, the decision in words)
PHASE_TOPICS = {
    "track": ("turn", "choose a Sleep Track"),
    "return": ("turn", "return two of the dreams drawn"),
    "roll": ("roll", "reroll, or resolve the dreams rolled"),
    "shadow": ("roll", "which Shadow to resolve next"),
    "envy": ("shadows", "Shadow of Envy: a dream to reroll"),
    "fear": ("shadows", "Shadow of Primeval Fear: an Exhaust dream to move"),
    "imprison": ("shadows", "Shadow of Imprisonment: an Exhaust dream to turn on its side"),
    "ability": ("nightmares", "a Nightmare's ability"),
    "tie": ("rows", "the Nightmare to become"),
    "rest": ("rest", "Rest or Dream Again"),
    "nightmare": ("nightmares", "Consume Power or Send Minions"),
    "minion_return": ("nightmares", "the Minion to return"),
    "minion_give": ("nightmares", "the Dreamer to send the other to"),
}


def decision_topic(view: DreamersState) -> tuple[str, str | None]:
    """The section of the decision due, and the line shown above it."""
    topic, words = PHASE_TOPICS.get(view.phase, ("game-end", ""))
    return topic, f"The decision due: {words}" if words else None
