"""Events: what happened, as data, for the log and the network.

``apply`` returns them alongside the new state; they are never stored in the state. An event
whose ``cards`` are secret carries ``private_to``: every other seat sees them redacted.
"""

from __future__ import annotations

import msgspec

HIDDEN = "?"


class Event(msgspec.Struct, frozen=True, kw_only=True):
    kind: str
    seat: int = -1
    area: str = ""
    cards: tuple[str, ...] = ()
    value: int = 0
    detail: str = ""
    private_to: int = -1  # -1: public; else only this seat sees ``cards``


def plural(n: int, word: str) -> str:
    """'1 Cultist', '3 Cultists': a count in an event's sentence."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def redact(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` may see it (``None``: a spectator)."""
    if event.private_to < 0 or event.private_to == seat:
        return event
    return msgspec.structs.replace(event, cards=tuple(HIDDEN for _ in event.cards))
