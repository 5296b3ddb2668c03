"""The limits of ``nctui serve`` (each a flag): a light module, so the command line reads the
defaults without loading asyncssh."""

from __future__ import annotations

import time
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
    address (SSH connections and browser tabs together); and each person's idle clock.

    Idle is a person's, not a session's: a key on any of their sessions, or a decision made in a
    room one of their connections is in (a spectator of a live game), keeps all their sessions
    open. Only people with a session open on a front are tracked (``opened`` / ``closed``): the
    clocks of a person are dropped with their last session, so the tables stay within the
    sessions' cap."""

    def __init__(self) -> None:
        self.sessions: set[Any] = set()
        self.per_peer: Counter[str] = Counter()
        self.people: Counter[str] = Counter()  # identity -> their sessions open on the fronts
        # identity -> when (time.monotonic) a decision made in a room last reached a connection of
        # that person (the host notes it), and when they last pressed a key on any front
        self.watched: dict[str, float] = {}
        self.typed: dict[str, float] = {}

    def opened(self, identity: str | None) -> None:
        """A session of ``identity`` started on a front."""
        if identity:
            self.people[identity] += 1

    def closed(self, identity: str | None) -> None:
        """A session of ``identity`` ended: the person's clocks go with their last one."""
        if not identity or identity not in self.people:
            return
        self.people[identity] -= 1
        if self.people[identity] <= 0:
            del self.people[identity]
            self.watched.pop(identity, None)
            self.typed.pop(identity, None)

    def key(self, identity: str | None, now: float | None = None) -> None:
        """``identity`` pressed a key on one of their sessions."""
        if identity and identity in self.people:
            self.typed[identity] = time.monotonic() if now is None else now

    def watch(self, identity: str, now: float | None = None) -> None:
        """A decision made in a room reached a connection of ``identity`` (the host says so)."""
        if identity in self.people:
            self.watched[identity] = time.monotonic() if now is None else now

    def last_active(self, identity: str | None, last_key: float) -> float:
        """When ``identity`` was last active: the last key of this session or of any other of
        theirs, or a decision that reached them."""
        who = identity or ""
        return max(last_key, self.typed.get(who, last_key), self.watched.get(who, last_key))


def idle_line(timeout: float) -> str:
    """The line a session closed by the idle timeout ends with: what idle means, in words."""
    span = f"{timeout / 60:g} minutes" if timeout >= 60 else f"{timeout:g} seconds"
    return f"nctui: closed after {span} with no key pressed and no move in a game you are in"
