"""All the wording of the game: names, the decision due, its options, events, the timeline.

The engine speaks in types (Works, actions, events); this package puts them into words for the
log, the decision panel, the hand-off, the King's turn and the timeline. Nothing here decides
anything or looks at secrets: a viewer's state and redacted events are all it needs.
"""

from .actions import describe_action, describe_choice, describe_option, describe_secret_action
from .changes import describe_changes
from .context import describe_context
from .decisions import describe_decision
from .events import describe_event, describe_events, why_irreversible
from .king_reasons import king_reasons
from .names import END_REASONS, SEAT_LETTERS, Words, plural, seat_letter, seat_name, side_name, words_for

__all__ = [
    "END_REASONS",
    "SEAT_LETTERS",
    "Words",
    "describe_action",
    "describe_changes",
    "describe_choice",
    "describe_context",
    "describe_decision",
    "describe_event",
    "describe_events",
    "describe_option",
    "describe_secret_action",
    "king_reasons",
    "plural",
    "seat_letter",
    "seat_name",
    "side_name",
    "why_irreversible",
    "words_for",
]
