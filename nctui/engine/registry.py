"""Where each rule module plugs in: what starts a step, what a work in progress asks, what
handles an action, how a refusal is explained, what runs when an effect frame ends.

Modules register with the decorators at import time; ``flow`` imports them all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, TypeVar

if TYPE_CHECKING:
    from .errors import IllegalAction
    from .events import Event
    from .state import Decision, GameState
    from .work import Frame

F = TypeVar("F", bound=Callable)

STARTERS: dict[type, Callable[["GameState", "Frame", object, list["Event"]], "GameState"]] = {}
DECIDERS: dict[type, Callable[["GameState"], "Decision | None"]] = {}
HANDLERS: dict[type, Callable[["GameState", object, list["Event"]], "GameState"]] = {}
EXPLAINERS: dict[type, Callable[["GameState", object], "IllegalAction"]] = {}
CONTINUATIONS: dict[str, Callable[["GameState", "Frame", list["Event"]], "GameState"]] = {}


def _register(table: dict, key) -> Callable[[F], F]:
    def deco(fn: F) -> F:
        if key in table:
            raise RuntimeError(f"{key!r} is registered twice")
        table[key] = fn
        return fn

    return deco


def starts(step_type: type) -> Callable[[F], F]:
    """``fn(state, frame, step, ev) -> state``: begin resolving a step (maybe setting work)."""
    return _register(STARTERS, step_type)


def decides(work_type: type) -> Callable[[F], F]:
    """``fn(state) -> Decision | None``: the decision a work in progress asks (None: it's done)."""
    return _register(DECIDERS, work_type)


def handles(action_type: type, work: type | None = None) -> Callable[[F], F]:
    """``fn(state, action, ev) -> state``: apply a legal action (then call effects.resolve).
    With ``work``, only while that kind of work is in progress (one action, several uses)."""
    return _register(HANDLERS, action_type if work is None else (action_type, work))


def handler_for(action: object, work: object) -> Callable:
    return HANDLERS.get((type(action), type(work))) or HANDLERS[type(action)]


def explains(action_type: type, work: type | None = None, *, absent: bool = False) -> Callable[[F], F]:
    """``fn(state, action) -> IllegalAction``: why an action of this type isn't allowed now.

    Plain: asked when the decision offers other actions of this type. With ``work``: asked
    whenever that kind of work is in progress. With ``absent``: asked when the decision offers
    no action of this type at all (e.g. a Dream card in the middle of an action)."""
    key = (action_type, work) if work is not None else ("absent", action_type) if absent else action_type
    return _register(EXPLAINERS, key)


def explainer_for(action: object, work: object, offered: bool) -> Callable | None:
    """The explainer that knows best why ``action`` is refused now, if any."""
    by_work = EXPLAINERS.get((type(action), type(work)))
    if by_work is not None:
        return by_work
    return EXPLAINERS.get(type(action) if offered else ("absent", type(action)))


def continues(name: str) -> Callable[[F], F]:
    """``fn(state, frame, ev) -> state``: what happens when a frame with ``then=name`` ends."""
    return _register(CONTINUATIONS, name)
