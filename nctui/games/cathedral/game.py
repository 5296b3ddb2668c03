"""Cathedral as a ``Game`` (``session.protocol``): the rules, the computer players and the words
behind the protocol the store, saves, session, UI shell and server use. Cathedral has no hidden
information and no chance: every view is the whole state (but for the seed of the computer
players) and no step reveals anything."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

import msgspec
from msgspec.structs import replace

from nctui.platform.game import SeatKind, SeatLabel, Summary, numbered_seats

from . import bots, rules, words
from .facts import CathedralFacts
from .pieces import PieceError, piece_set
from .state import CathedralConfig, CathedralState, Event, Place, StepResult


class Cathedral:
    """The 10x10 city game of seed 004."""

    id = "cathedral"
    title = "Cathedral"
    config_type = CathedralConfig
    state_type = CathedralState
    action_type: Any = Place
    view_type: Any = CathedralState
    event_type: Any = Event

    levels = ("random", "greedy", "strong")

    def computer_game(self, seed: int, levels: tuple[str, ...]) -> CathedralConfig:
        if len(levels) != 2 or any(level not in self.levels for level in levels):
            raise ValueError(f"Cathedral has two seats, each one of {', '.join(self.levels)}")
        return CathedralConfig(seats=("bot", "bot"), levels=(levels[0], levels[1]), seed=seed)  # type: ignore[arg-type]

    def winners(self, state: CathedralState) -> tuple[int, ...] | None:
        return None if state.outcome is None else state.outcome.winners

    def invariants(self, state: CathedralState) -> list[str]:
        """After every decision of a simulated game: the checks of a position read from a file."""
        return self.check_start(state)

    def figures(self, config: Any, finals: Sequence[CathedralState]) -> None:
        """No figures beyond the runner's (wins, decisions, time)."""
        return None

    def new(self, config: CathedralConfig) -> StepResult:
        return rules.new_game(config)

    def step(self, state: CathedralState, action: Place) -> StepResult:
        return rules.step(state, action)

    def decider(self, state: CathedralState) -> int | None:
        return rules.decider(state)

    def options(self, state: CathedralState) -> tuple[Place, ...]:
        return rules.legal_actions(state)

    def seats(self, config: CathedralConfig) -> tuple[SeatKind, ...]:
        return config.seats

    def bot(self, config: CathedralConfig, seat: int) -> bots.AnyBot:
        return bots.make_bot(config.levels[seat], config.seed * 7919 + seat)

    def computer(self, config: CathedralConfig, seat: int, level: str) -> bots.AnyBot:
        return bots.make_bot(level, config.seed * 7919 + seat)  # type: ignore[arg-type]

    # -- secrets: none ---------------------------------------------------------------------------

    def view(self, state: CathedralState, seat: int) -> CathedralState:
        """The whole state but for the seed: it seeds the computer players, and with it a person
        could run a computer player's own code to know its next move."""
        return replace(state, config=replace(state.config, seed=0))

    def view_all(self, state: CathedralState, seat: int) -> CathedralState:
        """Nothing is hidden but the seed, shown once the game is over."""
        return state

    def facts(self, view: CathedralState) -> CathedralFacts:
        return CathedralFacts(view)

    def redact_event(self, event: Event, seat: int) -> Event:
        return event

    def redact_action(self, action: Place, seat: int, decider: int) -> Place:
        return action

    def reveals(self, events: tuple[Event, ...]) -> str:
        return ""

    def with_seed(self, config: CathedralConfig, seed: int) -> CathedralConfig:
        return msgspec.structs.replace(config, seed=seed)

    # -- words -----------------------------------------------------------------------------------

    def describe_events(self, events: tuple[Event, ...], view: CathedralState) -> list[str]:
        return [words.describe_event(e, view.config.games) for e in events]

    def describe_action(self, action: Place, state: CathedralState, *, secret: bool = False) -> str:
        return words.describe_action(action, state)

    def seat_labels(self, view: Any) -> tuple[SeatLabel, ...]:
        return numbered_seats(len(view.config.seats))

    def summary(self, state: CathedralState) -> Summary:
        config = state.config
        kinds = {"human": "person", "bot": "computer"}
        players = tuple(
            f"Player {s + 1} ({kinds[k]}{', ' + config.levels[s] if k == 'bot' else ''})"
            for s, k in enumerate(config.seats)
        )
        mode = "1 game" if config.games == 1 else f"series of {config.games} games"
        progress = f"game {state.game + 1} of {config.games}, {words.plural(state.moves, 'move')}"
        result = ""
        if state.outcome is not None:
            w = state.outcome.winners
            result = "a draw" if len(w) != 1 else f"Player {w[0] + 1} wins"
        return Summary(
            players=players,
            mode=mode,
            turn=state.moves,
            progress=progress,
            finished=state.outcome is not None,
            result=result,
        )

    # -- saves -----------------------------------------------------------------------------------

    def config_of(self, state: CathedralState) -> CathedralConfig:
        return state.config

    def digest(self, state: CathedralState) -> str:
        # JSON, not msgpack: the city masks are 100-bit ints, beyond msgpack's 64
        return hashlib.sha256(msgspec.json.encode(state, order="deterministic")).hexdigest()

    def content_digest(self, config: CathedralConfig) -> str:
        raw = files(__package__).joinpath("pieces.toml").read_bytes()
        return hashlib.sha256(raw).hexdigest()

    def check_start(self, state: CathedralState) -> list[str]:
        """A position read from a file: pieces known, no overlap, squares conserved."""
        try:
            piece_set()
        except PieceError as exc:
            return [str(exc)]
        return rules.problems(state)
