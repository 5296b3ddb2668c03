"""Turn-based rooms' clocks (issue 40): the creator's choice (``TurnClock``: a time per move, or a
total per player, BGA-style, and what happens when it runs out) and where a room's clock stands
(``ClockState``, kept in the room's record, so a restart, even after SIGKILL, loses no time).

Pure: every function is given ``now``, the host's time source (``Rooms(now=…)``, the wall clock by
default; tests give one they advance), so nothing here reads the time or sleeps.

A seat's clock runs while it is that seat's decision and a person holds it (a computer's turn, a
free seat and a finished game run no clock). A turn is every decision one seat makes in a row: the
per-move clock starts again when the decision passes to another seat; the total clock charges each
seat the time its turns took.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Pace = Literal["move", "total"]  # a time for each move, or a total per player for the whole game
OnTimeout = Literal["computer", "skip"]  # a computer plays the late turn, or the others may skip it

HOUR, DAY = 3600.0, 86400.0
MOVE_LIMITS = (HOUR, 7 * DAY)  # the per-move clock: 1 hour to 7 days
TOTAL_LIMITS = (HOUR, 60 * DAY)  # the total per player


class TurnClock(msgspec.Struct, frozen=True, kw_only=True):
    """A turn-based room's clock, as its creator chose it."""

    pace: Pace = "move"
    seconds: float = DAY  # per move, or each player's total
    on_timeout: OnTimeout = "computer"


class ClockState(msgspec.Struct, frozen=True, kw_only=True):
    """Where a room's clock stands (times are the host's wall clock, in seconds)."""

    seat: int = -1  # whose clock runs (-1: nobody's)
    since: float = 0.0  # when it started running
    used: tuple[float, ...] = ()  # by seat: the time its earlier turns took (the total clock)
    expired: bool = False  # the running turn's clock ran out (its rule was applied or offered)


class Prefs(msgspec.Struct, frozen=True, kw_only=True):
    """A person's settings on a server (the host keeps them by identity, in its store)."""

    bell: bool = False  # ring the terminal's bell when a turn-based game says it is their turn


class ClockError(ValueError):
    """A clock a room cannot have; ``str()`` is one line."""


def checked(clock: TurnClock) -> TurnClock:
    """``clock`` if a room may have it, else ``ClockError`` saying the limits."""
    low, high = MOVE_LIMITS if clock.pace == "move" else TOTAL_LIMITS
    if not low <= clock.seconds <= high:
        what = "a move" if clock.pace == "move" else "each player's total"
        raise ClockError(f"the time for {what} must be {duration(low)} to {duration(high)}")
    return clock


def used(state: ClockState, seat: int) -> float:
    return state.used[seat] if 0 <= seat < len(state.used) else 0.0


def left(clock: TurnClock, state: ClockState, seat: int, now: float) -> float:
    """The seconds ``seat`` has left (never below 0): of its running move, or of its total."""
    running = now - state.since if seat == state.seat else 0.0
    if clock.pace == "move":
        return max(0.0, clock.seconds - running)
    return max(0.0, clock.seconds - used(state, seat) - running)


def switch(clock: TurnClock, state: ClockState, seat: int, now: float, seats: int) -> ClockState:
    """The clock once ``seat`` (-1: nobody) is the one to run: unchanged if it already runs;
    otherwise the seat whose clock ran is charged its turn and ``seat``'s starts now."""
    if seat == state.seat:
        return state
    spent = list(state.used) + [0.0] * (seats - len(state.used))
    if 0 <= state.seat < seats:
        spent[state.seat] += max(0.0, now - state.since)
    return ClockState(seat=seat, since=now, used=tuple(spent), expired=False)


def due(clock: TurnClock, state: ClockState, now: float) -> bool:
    """Whether the running clock has just run out (its rule not applied yet)."""
    return state.seat >= 0 and not state.expired and left(clock, state, state.seat, now) <= 0


def duration(seconds: float) -> str:
    """A clock's time in words: "1 hour", "12 hours", "3 days", "45 minutes"."""
    for unit, name in ((DAY, "day"), (HOUR, "hour"), (60.0, "minute")):
        if seconds >= unit:
            n = int(seconds // unit)
            return f"{n} {name}" + ("s" if n != 1 else "")
    return "under a minute"


def describe(clock: TurnClock) -> str:
    """The clock in a few words: "1 day a move", "7 days in all"."""
    return f"{duration(clock.seconds)} a move" if clock.pace == "move" else f"{duration(clock.seconds)} in all"


def left_words(seconds: float) -> str:
    """Time left, short: "2 d 3 h", "5 h 20 min", "12 min", "out of time"."""
    if seconds <= 0:
        return "out of time"
    minutes = int(seconds // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {mins} min" if mins else f"{hours} h"
    return f"{mins} min" if mins else "under a minute"
