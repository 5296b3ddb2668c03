"""The public rules interface: ``legal_actions``, ``apply`` and ``step``.

``apply`` validates an action against the decision held in the state, then resolves
everything up to the next decision. A refusal says which rule forbids the action.
"""

from __future__ import annotations

from typing import Callable

import msgspec

from . import setup, turn
from .actions import (
    ACTION_TYPES, Action, ChooseDay, ChooseTurnStart, Conquer, DiscardDevelopment, DiscardDream, KeepDreams,
    PlaceDreamer, React, TakeDream,
)
from .config import GameConfig
from .errors import IllegalAction, InvalidAction, NoDecision
from .events import Event
from .state import GameState


class StepResult(msgspec.Struct, frozen=True, kw_only=True):
    state: GameState
    events: tuple[Event, ...]


Handler = Callable[[GameState, Action, list[Event]], GameState]

HANDLERS: dict[type, Handler] = {
    ChooseTurnStart: setup.choose_turn_start,
    Conquer: setup.conquer,
    PlaceDreamer: setup.place_dreamer,
    ChooseDay: turn.choose_day,
    DiscardDream: turn.discard_dream,
    KeepDreams: turn.keep_dreams,
    TakeDream: turn.take_dream,
    DiscardDevelopment: turn.discard_development,
    React: turn.react,
}

# Which action types answer which decision kind.
ANSWERS: dict[str, tuple[type, ...]] = {
    "turn_start": (ChooseTurnStart,),
    "conquer": (Conquer,),
    "place_dreamer": (PlaceDreamer,),
    "choose_day": (ChooseDay,),
    "discard_dreams": (DiscardDream, KeepDreams),
    "draw_dream": (TakeDream,),
    "discard_development": (DiscardDevelopment,),
    "react": (React,),
}

EXPLAIN: dict[type, Callable[[GameState, Action], IllegalAction]] = {
    Conquer: setup.explain_conquer,
    ChooseDay: turn.explain_day,
    DiscardDevelopment: turn.explain_discard_development,
    React: turn.explain_react,
}


def new_game(config: GameConfig) -> StepResult:
    state, events = setup.new_game(config)
    return StepResult(state=state, events=tuple(events))


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Exactly the actions ``apply`` accepts now (empty once the game is over)."""
    return state.decision.options if state.decision is not None else ()


def deciding_seat(state: GameState) -> int | None:
    return state.decision.seat if state.decision is not None else None


def check(state: GameState, action: object) -> None:
    """Raise InvalidAction or IllegalAction unless ``action`` is legal now."""
    if not isinstance(action, ACTION_TYPES):
        raise InvalidAction(f"not an action: {action!r}")
    d = state.decision
    if d is None:
        raise NoDecision("the game is over: there is nothing to decide", rule="game over", section="GAME END & SCORING")
    if action in d.options:
        return
    if not isinstance(action, ANSWERS[d.kind]):
        raise IllegalAction(f"now is the time to decide: {d.prompt} (seat {d.seat}), not to {type(action).__name__}",
                            rule="the decision that is due")
    explain = EXPLAIN.get(type(action))
    if explain is not None:
        raise explain(state, action)
    raise IllegalAction(f"{_describe(action)} is not one of the options: {d.prompt}", rule="the decision's options")


def _describe(action: Action) -> str:
    return msgspec.json.encode(action).decode()


def step(state: GameState, action: Action) -> StepResult:
    """Validate, then resolve up to the next decision; report the events."""
    check(state, action)
    events: list[Event] = []
    new = HANDLERS[type(action)](state, action, events)
    return StepResult(state=new, events=tuple(events))


def apply(state: GameState, action: Action) -> GameState:
    return step(state, action).state
