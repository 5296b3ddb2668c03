"""The pure rules engine: frozen Structs in, new Structs out. No I/O, no Textual.

The names below are imported on first use (PEP 562), so a light module of the engine (its
``config``, read by ``nctui --help``) can be imported without the whole rules engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import Action, decode_action, encode_action
    from .config import GameConfig
    from .errors import ActionError, IllegalAction, InvalidAction, NoDecision
    from .events import Event
    from .flow import StepResult, apply, check, deciding_seat, legal_actions, new_game, step
    from .state import Decision, GameState, Outcome, Score
    from .views import View, player_view, spectator_view

_WHERE = {
    "Action": "actions",
    "decode_action": "actions",
    "encode_action": "actions",
    "GameConfig": "config",
    "ActionError": "errors",
    "IllegalAction": "errors",
    "InvalidAction": "errors",
    "NoDecision": "errors",
    "Event": "events",
    "StepResult": "flow",
    "apply": "flow",
    "check": "flow",
    "deciding_seat": "flow",
    "legal_actions": "flow",
    "new_game": "flow",
    "step": "flow",
    "Decision": "state",
    "GameState": "state",
    "Outcome": "state",
    "Score": "state",
    "View": "views",
    "player_view": "views",
    "spectator_view": "views",
}

__all__ = [
    "Action",
    "ActionError",
    "Decision",
    "Event",
    "GameConfig",
    "GameState",
    "IllegalAction",
    "InvalidAction",
    "NoDecision",
    "Outcome",
    "Score",
    "StepResult",
    "View",
    "apply",
    "check",
    "deciding_seat",
    "decode_action",
    "encode_action",
    "legal_actions",
    "new_game",
    "player_view",
    "spectator_view",
    "step",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value  # once: later lookups find it directly
    return value
