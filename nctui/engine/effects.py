"""RESOLVING ACTIONS AND REACTIONS: the loop that resolves effect frames step by step.

``resolve`` runs until a decision is due: the current work's decider asks it, or a frame's
continuation (e.g. "the Day action is done") moves the turn on and sets the next decision.
"""

from __future__ import annotations

from msgspec.structs import replace

from ..content import schema as cs
from .events import Event
from .registry import CONTINUATIONS, DECIDERS, STARTERS
from .state import GameState
from .work import Frame

Events = list[Event]


def push(state: GameState, frame: Frame) -> GameState:
    return replace(state, frames=state.frames + (frame,))


def push_effect(state: GameState, seat: int, steps: tuple, source: str, *, card: str = "", must: bool = False,
                then: str = "") -> GameState:
    return push(state, Frame(seat=seat, steps=tuple(steps), source=source, card=card, must=must, then=then))


def resolve(state: GameState, ev: Events) -> GameState:
    """Resolve automatic steps until a decision is due."""
    while True:
        if state.work is not None:
            decision = DECIDERS[type(state.work)](state)
            if decision is None:  # nothing left to ask: the step is complete
                state = replace(state, work=None)
                continue
            return replace(state, decision=decision)
        if not state.frames:
            return state
        top = state.frames[-1]
        if not top.steps:
            state = replace(state, frames=state.frames[:-1])
            if top.then:
                state = CONTINUATIONS[top.then](state, top, ev)
            continue
        step = top.steps[0]
        state = replace(state, frames=state.frames[:-1] + (replace(top, steps=top.steps[1:]),))
        state = STARTERS[type(step)](state, top, step, ev)


def implemented(steps: tuple) -> bool:
    """Whether every step of an effect can be resolved by the engine today."""
    for step in steps:
        if type(step) not in STARTERS:
            return False
        if isinstance(step, cs.Choose) and not all(implemented(opt) for opt in step.options):
            return False
    return True


def current_frame_seat(state: GameState) -> int:
    return state.frames[-1].seat if state.frames else state.active
