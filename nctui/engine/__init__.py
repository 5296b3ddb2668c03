"""The pure rules engine: frozen Structs in, new Structs out. No I/O, no Textual."""

from .actions import Action, decode_action, encode_action
from .config import GameConfig
from .errors import ActionError, IllegalAction, InvalidAction, NoDecision
from .events import Event
from .flow import StepResult, apply, check, deciding_seat, legal_actions, new_game, step
from .state import Decision, GameState, Outcome, Score
from .views import View, player_view, spectator_view

__all__ = [
    "Action", "ActionError", "Decision", "Event", "GameConfig", "GameState", "IllegalAction", "InvalidAction",
    "NoDecision", "Outcome", "Score", "StepResult", "View", "apply", "check", "deciding_seat", "decode_action",
    "encode_action", "legal_actions", "new_game", "player_view", "spectator_view", "step",
]
