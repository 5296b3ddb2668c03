"""The public rules interface: ``legal_actions``, ``apply`` and ``step``.

``apply`` validates an action against the decision held in the state, then resolves
everything up to the next decision. A refusal says which rule forbids the action.
"""

from __future__ import annotations

import msgspec

from . import registry, setup, turn
from . import steps_basic  # noqa: F401  (registers the basic effect steps)
from . import solo  # noqa: F401  (solo setup; imports king_turn)
from . import nightmares  # noqa: F401
from . import dreams  # noqa: F401
from . import cathedral  # noqa: F401
from . import divergent  # noqa: F401
from . import movement  # noqa: F401
from . import fortify  # noqa: F401
from . import ritual  # noqa: F401
from . import conflict  # noqa: F401
from . import king_conflict, king_nightmares  # noqa: F401  (solo: the King's conflicts and Nightmares)
from . import limbo  # LIMBO: taking Followers back comes with every decision
from .actions import ACTION_TYPES, Action, ChooseDay, ChooseTurnStart, Conquer, DiscardDevelopment, DiscardDream
from .actions import KeepDreams, PlaceDreamer, React, TakeDream
from .config import GameConfig
from .errors import IllegalAction, InvalidAction, NoDecision
from .events import Event
from .state import GameState

for _type, _fn in {
    ChooseTurnStart: setup.choose_turn_start,
    Conquer: setup.conquer,
    PlaceDreamer: setup.place_dreamer,
    ChooseDay: turn.choose_day,
    DiscardDream: turn.discard_dream,
    KeepDreams: turn.keep_dreams,
    TakeDream: turn.take_dream,
    DiscardDevelopment: turn.discard_development,
    React: turn.react,
}.items():
    registry.handles(_type)(_fn)

for _type, _fn in {
    Conquer: setup.explain_conquer,
    ChooseDay: turn.explain_day,
    DiscardDevelopment: turn.explain_discard_development,
    React: turn.explain_react,
}.items():
    registry.explains(_type)(_fn)


class StepResult(msgspec.Struct, frozen=True, kw_only=True):
    state: GameState
    events: tuple[Event, ...]


def new_game(config: GameConfig) -> StepResult:
    state, events = setup.new_game(config)
    return StepResult(state=limbo.offer(state), events=tuple(events))


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
    offered = any(type(o) is type(action) for o in d.options)
    explain = registry.explainer_for(action, state.work, offered)
    if explain is not None:
        raise explain(state, action)
    if not offered:
        raise IllegalAction(f"now is the time to decide: {d.prompt} (seat {d.seat}), not to {type(action).__name__}",
                            rule="the decision that is due")
    raise IllegalAction(f"{_describe(action)} is not one of the options: {d.prompt}", rule="the decision's options")


def _describe(action: Action) -> str:
    return msgspec.json.encode(action).decode()


def step(state: GameState, action: Action) -> StepResult:
    """Validate, then resolve up to the next decision; report the events."""
    check(state, action)
    events: list[Event] = []
    handler = registry.handler_for(action, state.work)
    new = handler(state, action, events)
    if new.outcome is None and (new.decision is None or new.decision is state.decision):
        raise RuntimeError(f"engine bug: no new decision after {_describe(action)}")
    return StepResult(state=limbo.offer(new), events=tuple(events))


def apply(state: GameState, action: Action) -> GameState:
    return step(state, action).state
