"""One rule per kind of decision: what it offers, why it refuses an action, what an action does.

A ``Rule`` is written once: ``options`` are the candidate actions its ``refusal`` lets through
(``legal``), and an action that is not an option is refused with that same predicate's reason,
which names the rule and the rulebook section. ``apply`` receives the Work already typed and
returns the state with its work moved on (or cleared); ``flow`` then resolves everything
automatic up to the next decision, so no rule calls the resolve loop itself.

The rules of the game are listed in one explicit table, ``engine.table``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .actions import Action, Done
from .errors import IllegalAction
from .events import Event
from .state import GameState

W = TypeVar("W")
Events = list[Event]
Refusal = IllegalAction | None


@dataclass(frozen=True, slots=True)
class Rule(Generic[W]):
    """The rule of the decisions a ``work`` type asks.

    ``actions``: the action types its options can be (Done aside). ``options(state, w)``: every
    option (Done included when the player may stop); empty when nothing is left to decide, and
    then the step is over. ``refusal(state, w, action)``: why ``action`` (one of ``actions``) is
    not allowed now, or None. ``apply(state, w, action, ev)``: the action's effect (Done too,
    when offered). The question it asks is worded by ``nctui.games.nightmare_cathedral.describe`` from the Work."""

    work: type[W]
    actions: tuple[type, ...]
    options: Callable[[GameState, W], tuple[Action, ...]]
    refusal: Callable[[GameState, W, Any], Refusal]
    apply: Callable[[GameState, W, Any, Events], GameState]


A = TypeVar("A")


def legal(
    state: GameState, w: W, candidates: Iterable[A], refusal: Callable[[GameState, W, A], Refusal]
) -> tuple[A, ...]:
    """The candidates the rule's own predicate lets through."""
    return tuple(a for a in candidates if refusal(state, w, a) is None)


def with_stop(options: tuple[A, ...], optional: bool) -> tuple[A | Done, ...]:
    """A step's options and, when the player may end it early, Done; nothing when there is
    nothing to choose (the step is over)."""
    if not options:
        return ()
    return options + (Done(),) if optional else options
