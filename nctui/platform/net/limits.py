"""The limits of ``nctui serve`` (each a flag): a light module, so the command line reads the
defaults without loading asyncssh."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    max_sessions: int = 50  # client processes at once, in all
    max_per_peer: int = 4  # connections at once from one address
    idle_timeout: float = 30 * 60.0  # seconds without a key or a decision watched before the session closes (0: never)
    max_buffer: int = 256 * 1024  # bytes waiting in either direction
    login_timeout: float = 30.0  # seconds to log in


class Occupancy:
    """What the fronts share for the caps: the sessions open on every front, and connections per
    address (SSH connections and browser tabs together)."""

    def __init__(self) -> None:
        self.sessions: set[Any] = set()
        self.per_peer: Counter[str] = Counter()
        # identity -> when (time.monotonic) a decision made in a room last reached a connection of
        # that person (the host notes it): a spectator of a live game is not idle
        self.watched: dict[str, float] = {}

    def last_active(self, identity: str | None, last_key: float) -> float:
        """When a session of ``identity`` was last active: its last key, or a decision it watched."""
        return max(last_key, self.watched.get(identity or "", last_key))
