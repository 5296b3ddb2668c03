"""Nightmarium as a ``Game`` (``session.protocol``)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

import msgspec

from nctui.platform.game import SeatKind, SeatLabel, Summary, numbered_seats

from . import bots, rules, secrets, words
from .cards import CardError, all_cards
from .facts import NightmariumFacts
from .state import Action, Event, NightmariumConfig, NightmariumState, StepResult


class Nightmarium:
    """The card game of seed 003."""

    id = "nightmarium"
    title = "Nightmarium"
    config_type = NightmariumConfig
    state_type = NightmariumState
    action_type: Any = Action
    view_type: Any = NightmariumState
    event_type: Any = Event
    levels = ("random", "greedy", "planner")

    def computer_game(self, seed: int, levels: tuple[str, ...]) -> NightmariumConfig:
        if not 2 <= len(levels) <= 5 or any(level not in self.levels for level in levels):
            raise ValueError(f"Nightmarium has 2 to 5 seats, each one of {', '.join(self.levels)}")
        return NightmariumConfig(seats=("bot",) * len(levels), levels=levels, seed=seed)  # type: ignore[arg-type]

    def winners(self, state: NightmariumState) -> tuple[int, ...] | None:
        return None if state.winner is None else (state.winner,)

    def invariants(self, state: NightmariumState) -> list[str]:
        """After every decision of a simulated game: the checks of a position read from a file."""
        return self.check_start(state)

    def figures(self, config: Any, finals: Sequence[NightmariumState]) -> None:
        """No figures beyond the runner's (wins, decisions, time)."""
        return None

    def new(self, config: NightmariumConfig) -> StepResult:
        return rules.new_game(config)

    def step(self, state: NightmariumState, action: Action) -> StepResult:
        return rules.step(state, action)

    def decider(self, state: NightmariumState) -> int | None:
        return rules.decider(state)

    def options(self, state: NightmariumState) -> tuple[Action, ...]:
        return rules.legal_actions(state)

    def seats(self, config: NightmariumConfig) -> tuple[SeatKind, ...]:
        return config.seats

    def bot(self, config: NightmariumConfig, seat: int) -> bots.AnyBot:
        return bots.make_bot(config.levels[seat], config.seed * 7919 + seat)

    def computer(self, config: NightmariumConfig, seat: int, level: str) -> bots.AnyBot:
        return bots.make_bot(level, config.seed * 7919 + seat)

    def view(self, state: NightmariumState, seat: int) -> NightmariumState:
        return secrets.view(state, seat)

    def view_all(self, state: NightmariumState, seat: int) -> NightmariumState:
        return secrets.view_all(state, seat)

    def facts(self, view: NightmariumState) -> NightmariumFacts:
        return NightmariumFacts(view)

    def redact_event(self, event: Event, seat: int) -> Event:
        return secrets.redact_event(event, seat)

    def redact_action(self, action: Action, seat: int, decider: int) -> Action:
        return secrets.redact_action(action, seat, decider)

    def reveals(self, events: tuple[Event, ...]) -> str:
        return secrets.reveals(events)

    def with_seed(self, config: NightmariumConfig, seed: int) -> NightmariumConfig:
        return msgspec.structs.replace(config, seed=seed)

    def describe_events(self, events: tuple[Event, ...], view: NightmariumState) -> list[str]:
        return [words.describe_event(e) for e in events]

    def describe_action(self, action: Action, state: NightmariumState, *, secret: bool = False) -> str:
        return words.describe_action(action, state, secret=secret and secrets.is_secret(action))

    def seat_labels(self, view: Any) -> tuple[SeatLabel, ...]:
        return numbered_seats(len(view.config.seats))

    def summary(self, state: NightmariumState) -> Summary:
        config = state.config
        kinds = {"human": "person", "bot": "computer"}
        players = tuple(
            f"Player {s + 1} ({kinds[k]}{', ' + config.levels[s] if k == 'bot' else ''})"
            for s, k in enumerate(config.seats)
        )
        best = max(rules.completed(p) for p in state.players)
        progress = f"round {state.turns // len(state.players) + 1}, most Creatures {best} of {config.creatures}"
        result = "" if state.winner is None else f"Player {state.winner + 1} wins"
        return Summary(
            players=players,
            mode=f"{len(config.seats)} players, to {config.creatures} Creatures",
            turn=state.turns + 1,
            progress=progress,
            finished=state.winner is not None,
            result=result,
        )

    def config_of(self, state: NightmariumState) -> NightmariumConfig:
        return state.config

    def digest(self, state: NightmariumState) -> str:
        return hashlib.sha256(msgspec.msgpack.encode(state, order="deterministic")).hexdigest()

    def content_digest(self, config: NightmariumConfig) -> str:
        return hashlib.sha256(files(__package__).joinpath("cards.toml").read_bytes()).hexdigest()

    def check_start(self, state: NightmariumState) -> list[str]:
        try:
            all_cards()
        except CardError as exc:
            return [str(exc)]
        return rules.problems(state)
