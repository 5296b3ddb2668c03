"""RESOLVING ACTIONS AND REACTIONS: effect frames on the stack of what is being resolved.

An effect is pushed as a ``Frame`` with its steps; ``flow.resolve`` starts each step in turn
(``table.STEPS``) and, when a frame has no step left, runs its continuation (``table.CONTINUATIONS``).
"""

from __future__ import annotations

from msgspec.structs import replace

from ..content import schema as cs
from .state import GameState
from .work import Frame, Source, Then


def push(state: GameState, frame: Frame) -> GameState:
    return replace(state, frames=state.frames + (frame,))


def push_effect(
    state: GameState,
    seat: int,
    steps: tuple[cs.Step, ...],
    source: Source,
    *,
    card: str = "",
    must: bool = False,
    then: Then | None = None,
) -> GameState:
    return push(state, Frame(seat=seat, steps=tuple(steps), source=source, card=card, must=must, then=then))
