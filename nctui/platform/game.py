"""The ``Game`` protocol: one game of the seeds as the store, the saves, the session, the UI shell
and the server see it. Nightmare Cathedral is its first implementation
(``nctui.games.nightmare_cathedral.game``); each companion game (``nctui.games``) is another.

A game is pure: frozen states in, frozen states out, chance from an RNG carried in the state, so
a seed and the list of actions replay it exactly. Everything a person may not see is hidden by
the game itself (``view``, ``redact_event``, ``redact_action``), and the game says which steps
revealed hidden information or a random result (``reveals``), so the strict undo policy never
takes those back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Protocol, TypeVar

import msgspec

C = TypeVar("C")  # configuration
S = TypeVar("S")  # state
A = TypeVar("A")  # action
E = TypeVar("E")  # event
S_co = TypeVar("S_co", covariant=True)
E_co = TypeVar("E_co", covariant=True)

SPECTATOR = -1
SeatKind = Literal["human", "bot", "king"]  # a person at this terminal, a computer player, the King


class Stepped(Protocol[S_co, E_co]):
    """A state reached and the events on the way (the engine's ``StepResult``)."""

    @property
    def state(self) -> S_co: ...

    @property
    def events(self) -> tuple[E_co, ...]: ...


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    """What a list of games says about one (Continue, Load, ``nctui saves list``)."""

    players: tuple[str, ...]  # each seat: "Red (person)", "King", …
    mode: str  # "2 players, Standard", "solo, hard", …
    turn: int
    progress: str  # the game's own measure: "Time 3 of 6, Stage 1", "round 4", …
    finished: bool
    result: str = ""  # who won, once finished


class Bot(Protocol):
    def choose(self, view: Any) -> Any: ...


class Game(Protocol[C, S, A, E]):
    """One kind of game. ``seat`` is an index; ``SPECTATOR`` sees only what is public."""

    id: str  # "nightmare-cathedral", "cathedral", "nightmarium", "dreamers"
    title: str
    config_type: type[C]
    state_type: type[S]
    action_type: Any  # the tagged union actions decode as

    # -- playing ---------------------------------------------------------------------------------
    def new(self, config: C) -> Stepped[S, E]:
        """The game set up from its configuration (its seed) up to the first decision."""

    def step(self, state: S, action: A) -> Stepped[S, E]:
        """The action applied and everything automatic resolved; raises ``ValueError`` (the
        game's refusal, naming the rule) for an action that is not legal now."""

    def decider(self, state: S) -> int | None:
        """The seat whose decision is due (None: the game is over)."""

    def options(self, state: S) -> tuple[A, ...]:
        """Exactly the actions ``step`` accepts now."""

    def seats(self, config: C) -> tuple[SeatKind, ...]:
        """Who plays each seat: a person, a computer player, or (solo) the King of Horrors."""

    def bot(self, config: C, seat: int) -> Bot:
        """The computer player of ``seat`` (seeded from the game's seed and the seat)."""

    # -- secrets ---------------------------------------------------------------------------------
    def view(self, state: S, seat: int) -> Any:
        """What ``seat`` may see (``SPECTATOR``: the public part)."""

    def redact_event(self, event: E, seat: int) -> E: ...

    def redact_action(self, action: A, seat: int, decider: int) -> A: ...

    def facts(self, view: Any) -> Any:
        """What the rules say about a view, for the screens (which run no rule)."""

    def reveals(self, events: tuple[E, ...]) -> str:
        """Why a step with these events cannot be taken back fairly, or ''."""

    # -- words -----------------------------------------------------------------------------------
    def describe_events(self, events: tuple[E, ...], state: S) -> list[str]:
        """Log lines (``events`` already redacted for the reader; ``state`` that reader's view)."""

    def describe_action(self, action: A, state: S, *, secret: bool = False) -> str:
        """A decision in the timeline (``secret``: as another seat reads it)."""

    def summary(self, state: S) -> Summary: ...

    # -- saves -----------------------------------------------------------------------------------
    def config_of(self, state: S) -> C: ...

    def digest(self, state: S) -> str:
        """A fingerprint of the state: a save that replays to another one is damaged."""

    def content_digest(self, config: C) -> str:
        """The content the game was played with (a save from other content cannot replay)."""

    def check_start(self, state: S) -> list[str]:
        """What is wrong with a starting position read from a file (empty: it can be played)."""


GameFactory = Callable[[], Game[Any, Any, Any, Any]]


class Simulated(Protocol):
    """A game the command line can play headless between computer players (``nctui simulate
    --game ID``): each companion game is one."""

    levels: tuple[str, ...]  # its kinds of computer player, weakest first

    def computer_game(self, seed: int, levels: tuple[str, ...]) -> Any:
        """A configuration with a computer player of each level on the seats, in order."""

    def winners(self, state: Any) -> tuple[int, ...] | None:
        """The seats that won (several: shared), or None while the game goes on."""
