"""The dice game of Dreamers and Nightmares as a ``Game`` (``platform.game``). Nothing is hidden
but the bag's future (``secrets``): a view is the state without its RNG and its seed, and every
step that drew or rolled a dream is a random result the strict undo policy keeps."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

import msgspec

from nctui.platform.game import SeatKind, SeatLabel, Summary, numbered_seats

from . import bots, rules, secrets, words
from .content import ContentError, content
from .facts import DreamersFacts
from .state import Action, DreamersConfig, DreamersState, Event, StepResult


class Dreamers:
    id = "dreamers"
    title = "Dreamers and Nightmares"
    config_type = DreamersConfig
    state_type = DreamersState
    action_type: Any = Action
    view_type: Any = DreamersState
    event_type: Any = Event
    levels = ("random", "gambler")

    def computer_game(self, seed: int, levels: tuple[str, ...]) -> DreamersConfig:
        if not 2 <= len(levels) <= 4 or any(level not in self.levels for level in levels):
            raise ValueError(f"the dice game has 2 to 4 seats, each one of {', '.join(self.levels)}")
        return DreamersConfig(seats=("bot",) * len(levels), levels=levels, seed=seed)  # type: ignore[arg-type]

    def winners(self, state: DreamersState) -> tuple[int, ...] | None:
        return state.winners if state.phase == "over" else None

    def invariants(self, state: DreamersState) -> list[str]:
        """After every decision of a simulated game: the checks of a position read from a file."""
        return self.check_start(state)

    def figures(self, config: Any, finals: Sequence[DreamersState]) -> None:
        """No figures beyond the runner's (wins, decisions, time)."""
        return None

    def new(self, config: DreamersConfig) -> StepResult:
        return rules.new_game(config)

    def step(self, state: DreamersState, action: Action) -> StepResult:
        return rules.step(state, action)

    def decider(self, state: DreamersState) -> int | None:
        return rules.decider(state)

    def options(self, state: DreamersState) -> tuple[Action, ...]:
        return rules.legal_actions(state)

    def seats(self, config: DreamersConfig) -> tuple[SeatKind, ...]:
        return config.seats

    def bot(self, config: DreamersConfig, seat: int) -> bots.AnyBot:
        return bots.make_bot(config.levels[seat], config.seed * 7919 + seat)

    def computer(self, config: DreamersConfig, seat: int, level: str) -> bots.AnyBot:
        return bots.make_bot(level, config.seed * 7919 + seat)

    def view(self, state: DreamersState, seat: int) -> DreamersState:
        return secrets.view(state, seat)

    def view_all(self, state: DreamersState, seat: int) -> DreamersState:
        return secrets.view_all(state, seat)

    def facts(self, view: DreamersState) -> DreamersFacts:
        return DreamersFacts(view)

    def redact_event(self, event: Event, seat: int) -> Event:
        return event

    def redact_action(self, action: Action, seat: int, decider: int) -> Action:
        return action

    def reveals(self, events: tuple[Event, ...]) -> str:
        return secrets.reveals(events)

    def with_seed(self, config: DreamersConfig, seed: int) -> DreamersConfig:
        return msgspec.structs.replace(config, seed=seed)

    def describe_events(self, events: tuple[Event, ...], view: DreamersState) -> list[str]:
        return [words.describe_event(e) for e in events]

    def describe_action(self, action: Action, state: DreamersState, *, secret: bool = False) -> str:
        return words.describe_action(action, state)

    def seat_labels(self, view: Any) -> tuple[SeatLabel, ...]:
        return numbered_seats(len(view.config.seats))

    def summary(self, state: DreamersState) -> Summary:
        config = state.config
        kinds = {"human": "person", "bot": "computer"}
        players = tuple(
            f"Player {s + 1} ({kinds[k]}{', ' + config.levels[s] if k == 'bot' else ''})"
            for s, k in enumerate(config.seats)
        )
        mode = f"{len(config.seats)} players" + ("" if config.temptation == "none" else ", Temptation")
        progress = (
            f"best Power {max(rules.powers(state))} of {content().power_to_end}, {sum(state.bag)} dreams in the bag"
        )
        result = ""
        if state.phase == "over":
            who = " and ".join(f"Player {w + 1}" for w in state.winners)
            result = who + (" wins" if len(state.winners) == 1 else " share the win")
        return Summary(
            players=players,
            mode=mode,
            turn=state.turns + 1,
            progress=progress,
            finished=state.phase == "over",
            result=result,
        )

    def config_of(self, state: DreamersState) -> DreamersConfig:
        return state.config

    def digest(self, state: DreamersState) -> str:
        return hashlib.sha256(msgspec.msgpack.encode(state, order="deterministic")).hexdigest()

    def content_digest(self, config: DreamersConfig) -> str:
        return hashlib.sha256(files(__package__).joinpath("content.toml").read_bytes()).hexdigest()

    def check_start(self, state: DreamersState) -> list[str]:
        try:
            content()
        except ContentError as exc:
            return [str(exc)]
        return rules.problems(state)
