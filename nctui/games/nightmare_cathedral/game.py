"""Nightmare Cathedral as a ``Game`` (``session.protocol``): the engine, its views and secrets, its
computer players and its words, behind the protocol the store, saves, session and server use."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Union

import msgspec

from nctui.platform.game import PALETTE, SeatKind, SeatLabel, Summary

from . import describe
from .content.loader import get_pack
from .engine import actions as A, flow, views
from .engine.config import GameConfig, difficulty_level
from .engine.events import EVENT_TYPES, Event
from .engine.facts import Facts, facts
from .engine.flow import StepResult
from .engine.state import GameState

if TYPE_CHECKING:
    from .simulate import Figures

# The computer players, the practice hint, scenario files and the check of a saved start are
# imported when first used: a game between people draws its first frame without them.


class NightmareCathedral:
    """The board game of the core and solo rulebooks."""

    id = "nightmare-cathedral"
    title = "Nightmare Cathedral"
    config_type = GameConfig
    state_type = GameState
    action_type: Any = A.Action
    view_type: Any = views.View
    event_type: Any = Union[EVENT_TYPES]  # noqa: UP007 - a tuple of types, built at import

    # -- playing -----------------------------------------------------------------------------------

    def new(self, config: GameConfig) -> StepResult:
        return flow.new_game(config)

    def step(self, state: GameState, action: A.Action) -> StepResult:
        return flow.step(state, action)

    def decider(self, state: GameState) -> int | None:
        return flow.deciding_seat(state)

    def options(self, state: GameState) -> tuple[A.Action, ...]:
        return flow.legal_actions(state)

    def seats(self, config: GameConfig) -> tuple[SeatKind, ...]:
        """The King of Horrors is the game's own automaton: its rules play it."""
        return tuple("automa" if kind == "king" else kind for kind in config.seats)

    def bot(self, config: GameConfig, seat: int) -> Any:
        """The computer player of the seat's level (``GameConfig.levels``; the planner when it
        names none)."""
        from .bots import BOTS, bot_seed

        return BOTS[config.level(seat)](bot_seed(config.seed, seat))

    # -- computer games (``Simulated``) ----------------------------------------------------------

    def computer_game(self, seed: int, levels: tuple[str, ...]) -> GameConfig:
        """2-4 computer players, or one alone against the King (a single level)."""
        from .bots import BOTS

        if not 1 <= len(levels) <= 4 or any(level not in BOTS for level in levels):
            raise ValueError(f"Nightmare Cathedral has 1 to 4 seats, each one of {', '.join(sorted(BOTS))}")
        seats: tuple[Any, ...] = ("bot", "king") if len(levels) == 1 else ("bot",) * len(levels)
        return GameConfig(players=len(levels), seats=seats, seed=seed)

    def computer(self, config: GameConfig, seat: int, level: str) -> Any:
        from .bots import BOTS, bot_seed

        return BOTS[level](bot_seed(config.seed, seat))

    def winners(self, state: GameState) -> tuple[int, ...] | None:
        return None if state.outcome is None else tuple(state.outcome.winners)

    def invariants(self, state: GameState) -> list[str]:
        """Every invariant of the rules (``engine.invariants``), quick enough for every decision."""
        return _violations()(state)

    def figures(self, config: GameConfig, finals: Sequence[GameState]) -> Figures:
        """The Nightmare pairs, how the games ended, the King's wins, the scores and the turns."""
        from .simulate import figures

        return figures(config, finals)

    # -- hints and positions (``Advisor``, ``Positions``) ------------------------------------------

    def advise(self, config: GameConfig, view: views.View) -> list[str]:
        """The practice hint for the decision of ``view``'s seat, in words: what the expert (the
        strongest computer player) would choose and the planner's next best options, and why.
        It sees only the view; it takes up to a few seconds (the session asks it off the UI
        thread)."""
        if view.state.decision is None or view.state.decision.seat != view.seat:
            return ["You have no decision to take now."]
        from .bots import ExpertBot, bot_seed
        from .describe.advice import describe_advice

        advice = ExpertBot(bot_seed(config.seed, view.seat)).advise(view)
        return describe_advice(advice, view.state)

    def position_text(self, state: GameState, *, name: str = "") -> str:
        """A scenario file of ``state`` (the complete form): loading it gives the same position."""
        from .scenario_state import scenario_text

        return scenario_text(state, name=name)

    def load_position(self, path: Any) -> StepResult:
        """The position of a scenario file (``scenarios.ScenarioError``, a ``PositionError``)."""
        from pathlib import Path

        from .scenarios import load_scenario_result

        state, events = load_scenario_result(Path(path))
        return StepResult(state=state, events=tuple(events))

    # -- secrets -----------------------------------------------------------------------------------

    def view(self, state: GameState, seat: int) -> views.View:
        return views.player_view(state, seat)

    def view_all(self, state: GameState, seat: int) -> views.View:
        return views.view_all(state, seat)

    def facts(self, view: views.View) -> Facts:
        return facts(view)

    def redact_event(self, event: Event, seat: int) -> Event:
        return views.redact(event, seat)

    def redact_action(self, action: A.Action, seat: int, decider: int) -> A.Action:
        return views.redact_action(action, seat, decider)

    def reveals(self, events: tuple[Event, ...]) -> str:
        event = views.step_reveals(events)
        return "" if event is None else describe.why_irreversible(event)

    def with_seed(self, config: GameConfig, seed: int) -> GameConfig:
        return msgspec.structs.replace(config, seed=seed)

    # -- words -------------------------------------------------------------------------------------

    def describe_events(self, events: tuple[Event, ...], view: views.View) -> list[str]:
        return describe.describe_events(events, view.state)

    def describe_action(self, action: A.Action, state: GameState, *, secret: bool = False) -> str:
        if secret and views.is_secret_action(action):
            return describe.describe_secret_action(action)
        return describe.describe_action(action, state)

    def summary(self, state: GameState) -> Summary:
        config = state.config
        kinds = {"human": "person", "bot": "computer", "king": ""}
        players = tuple(
            f"{describe.seat_name(state, s)}" + (f" ({kinds[k]})" if kinds[k] else "")
            for s, k in enumerate(config.seats)
        )
        time_track = get_pack(state.pack).tracks.time
        progress = f"{_time_words(time_track, state.time)}, Stage {state.stage}" if state.turn_number else "setup"
        result = ""
        if state.outcome is not None:
            names = " and ".join(describe.seat_name(state, w) for w in state.outcome.winners)
            result = f"{names} {'wins' if len(state.outcome.winners) == 1 else 'win'}"
        return Summary(
            players=players,
            mode=mode_words(config),
            turn=state.turn_number,
            progress=progress,
            finished=state.outcome is not None,
            result=result,
        )

    def seat_labels(self, view: views.View) -> tuple[SeatLabel, ...]:
        """Each seat by its colour ("Red", R); the King of Horrors in solo ("King", K)."""
        state = view.state
        seats = range(len(state.config.seats))
        return tuple(
            SeatLabel(
                name=describe.seat_name(state, s),
                letter=describe.seat_letter(state, s),
                colour=PALETTE.get(state.players[s].colour, "#d0d0d0") if s < len(state.players) else "#d0d0d0",
            )
            for s in seats
        )

    # -- saves -------------------------------------------------------------------------------------

    def config_of(self, state: GameState) -> GameConfig:
        return state.config

    def digest(self, state: GameState) -> str:
        """sha256 of the state's canonical msgpack bytes (struct fields in definition order; sets
        and dict keys sorted, so equal states give equal digests)."""
        import hashlib  # here: a start-up needs no digest, and hashlib's import costs ~4 M instructions

        return hashlib.sha256(msgspec.msgpack.encode(state, order="deterministic")).hexdigest()

    def content_digest(self, config: GameConfig) -> str:
        return get_pack(config.pack).digest

    def check_start(self, state: GameState) -> list[str]:
        """Whether a starting position read from a file can be played (``engine.playable``: ids
        known, seats and places in range, pieces and cards conserved), its words included."""
        from .engine import playable  # a saved start: checked as a scenario's is

        wrong = playable.problems(state)
        if wrong:
            return wrong
        try:
            describe.describe_decision(state)
            for option in () if state.decision is None else state.decision.options:
                describe.describe_action(option, state)
            self.summary(state)
        except Exception as exc:  # noqa: BLE001 - whatever is wrong, the position is not playable
            return [f"it cannot be described ({type(exc).__name__}: {exc})"]
        return []


@cache
def _violations() -> Callable[[GameState], list[str]]:
    """``engine.invariants.violations``, imported once a simulated game asks for it (a game between
    people starts without it); cached, since an import statement costs microseconds on every
    decision."""
    from .engine.invariants import violations

    return violations


def mode_words(config: GameConfig) -> str:
    """'2 players, Standard', 'solo, hard, Variable Length, Divergent Paths'."""
    parts = [f"{config.players} players" if config.players > 1 else "solo"]
    if config.players == 1:
        parts.append(difficulty_level(config.difficulty))
    parts.append("Variable Length" if config.length == "variable" else "Standard")
    if config.divergent_paths:
        parts.append("Divergent Paths")
    return ", ".join(parts)


def _time_words(track: tuple[str, ...], time: int) -> str:
    """'Time II of IV' as the header's Time track says it ('the last Time' on the skull)."""
    if time >= len(track) - 1:
        return "the skull of the Time track"
    return f"Time {track[time]} of {track[-2]}"
