"""Everything about what Dreamers and Nightmares hides, in one module. Nothing on the table is
hidden (seed 002: the cards, the dreams drawn and rolled, how many dreams of each colour are in
the bag); only the bag's future is, which is the RNG, and the seed it started from (with either,
and the public list of decisions, anyone could know the next draw and roll). A step that drew or
rolled a dream is a random result the strict undo policy keeps."""

from __future__ import annotations

from msgspec.structs import replace

from nctui.platform.rng import Rng

from .state import Drawn, DreamersState, Event, Rerolled, Rolled, RowFilled


def view(state: DreamersState, seat: int) -> DreamersState:
    """The state as any seat or a spectator sees it: without its RNG and its seed."""
    return replace(state, rng=Rng(), config=replace(state.config, seed=0))


def view_all(state: DreamersState, seat: int) -> DreamersState:
    """Once the game is over nothing is secret: the bag's RNG and the seed too (a replay)."""
    return state


def _drew(event: Event) -> bool:
    """Whether the event is a dream drawn or rolled: the dreams drawn for a track, a roll or a
    reroll, and the dream drawn when the Exhaust row fills (step 4: its colour's Power goes back;
    ``colour`` -1: the bag was empty, nothing was drawn)."""
    if isinstance(event, RowFilled):
        return event.row == "exhaust" and event.colour >= 0
    return isinstance(event, Drawn | Rolled | Rerolled)


def reveals(events: tuple[Event, ...]) -> str:
    """Why a step cannot be taken back fairly (a dream was drawn or rolled), or ''."""
    if any(_drew(e) for e in events):
        return "dreams were drawn or rolled"
    return ""
