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

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple, Protocol, TypeVar, runtime_checkable

import msgspec

C = TypeVar("C")  # configuration
S = TypeVar("S")  # state
A = TypeVar("A")  # action
E = TypeVar("E")  # event
S_co = TypeVar("S_co", covariant=True)
E_co = TypeVar("E_co", covariant=True)

SPECTATOR = -1
PlayerKind = Literal["human", "bot"]  # who a game's settings may put on a seat: a person or a computer player
# Who plays a seat: a person, a computer player (the session runs it), or the game's own automaton
# (the solo King of Horrors), whose turns the rules resolve: it is never asked to decide.
SeatKind = Literal["human", "bot", "automa"]


# The seats' colours every game draws from (each use also shows the seat's letter). Chosen so that
# in 256 colours they stay four different colours (``ui.theme.seat_colours_256``, tested).
PALETTE = {"red": "#ff6b6b", "blue": "#6b9bff", "green": "#5fd75f", "yellow": "#ffd75f", "purple": "#c38cff"}


class SeatLabel(msgspec.Struct, frozen=True, kw_only=True):
    """A seat as every screen names it: "Red" with the letter "R" in red; colour is never the
    only cue (the letter goes with it)."""

    name: str
    letter: str
    colour: str  # "#rrggbb"


# Where the person holding a seat of a game on a server is (issue 37.6): connected, away (the
# seat waits for them), a computer plays the seat (a computer seat, or one handed over while its
# person is away), or a person's seat nobody holds.
PresenceStatus = Literal["here", "away", "computer", "free"]


class SeatPresence(msgspec.Struct, frozen=True, kw_only=True):
    """Who holds a seat of a game on a server and whether they are there, as every seat may know
    it (the host sends it: ``net.protocol.Presence``): a name and a status, nothing of the game
    and no identity. A game's players panel says it next to the seat (a game at one keyboard has
    none: its panel names the computer seats as it always did)."""

    name: str = ""  # the name of the person holding the seat ('' nobody holds it)
    status: PresenceStatus = "here"
    away: float = 0.0  # seconds its person has been away, in whole minutes (0: under a minute, or here)
    turn_based: bool = False  # a turn-based game: being away is how it is played (said no more)
    left: float = -1.0  # a turn-based game: seconds left on the clock of the seat to play, whole minutes (-1: none)


class Stepped(Protocol[S_co, E_co]):
    """A state reached and the events on the way (the engine's ``StepResult``)."""

    @property
    def state(self) -> S_co: ...

    @property
    def events(self) -> tuple[E_co, ...]: ...


def numbered_seats(count: int) -> tuple[SeatLabel, ...]:
    """ "Player 1" (letter "1"), "Player 2", … in the palette's colours: the seats of a game
    whose seats have no names of their own."""
    colours = tuple(PALETTE.values())
    return tuple(
        SeatLabel(name=f"Player {s + 1}", letter=str(s + 1), colour=colours[s % len(colours)]) for s in range(count)
    )


# A summary's bounds: a file's summary is read for every list of saves, and printed; one far larger
# than any game writes is refused as the file's damage (``nctui saves list``, Continue, Load).
SUMMARY_WORDS = 200  # characters of a line
SUMMARY_SEATS = 16
SummaryLine = Annotated[str, msgspec.Meta(max_length=SUMMARY_WORDS)]


def _cut(text: str) -> str:
    return text if len(text) <= SUMMARY_WORDS else text[: SUMMARY_WORDS - 1] + "…"


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    """What a list of games says about one (Continue, Load, ``nctui saves list``)."""

    players: Annotated[tuple[SummaryLine, ...], msgspec.Meta(max_length=SUMMARY_SEATS)]  # "Red (person)", "King", …
    mode: SummaryLine  # "2 players, Standard", "solo, hard", …
    turn: Annotated[int, msgspec.Meta(ge=0, le=1_000_000)]
    progress: SummaryLine  # the game's own measure: "Time 3 of 6, Stage 1", "round 4", …
    finished: bool
    result: SummaryLine = ""  # who won, once finished

    def bounded(self) -> Summary:
        """This summary within its bounds (what a save writes: it is read back with them)."""
        return Summary(
            players=tuple(_cut(p) for p in self.players[:SUMMARY_SEATS]),
            mode=_cut(self.mode),
            turn=min(max(self.turn, 0), 1_000_000),
            progress=_cut(self.progress),
            finished=self.finished,
            result=_cut(self.result),
        )


class Bot(Protocol):
    def choose(self, view: Any) -> Any: ...


@runtime_checkable
class Stoppable(Protocol):
    """A computer player that thinks long (a search) and can be told, from another thread, to
    end the decision it is taking now with its best choice so far (the session does when the
    game moves on or closes)."""

    def stop(self) -> None: ...


class Figures(msgspec.Struct, frozen=True, kw_only=True):
    """A game's own figures of a run of simulated games (``Simulated.figures``): the report of
    ``nctui simulate`` carries them as its ``extra`` field (JSON) and prints their ``lines``."""

    def lines(self) -> list[str]:
        """The figures for people, one line each."""
        return []


class Simulated(Protocol):
    """A game played headless between computer players (``nctui simulate --game ID``, played by
    ``platform.runner``): every game is one. Its levels are on its registry entry."""

    def computer_game(self, seed: int, levels: tuple[str, ...]) -> Any:
        """A configuration with a computer player of each level on the seats, in order
        (``ValueError``, in words, for a number of seats or a level the game does not have)."""

    def computer(self, config: Any, seat: int, level: str) -> Bot:
        """The computer player of ``level`` for ``seat`` (seeded from the game's seed and the seat)."""

    def winners(self, state: Any) -> tuple[int, ...] | None:
        """The seats that won (several: shared), or None while the game goes on."""

    def invariants(self, state: Any) -> list[str]:
        """What is wrong with a state reached by play, in words (empty: every invariant of the
        rules holds). Checked after setup and after every decision of a simulated game, so it is
        as quick as the game can make it (``check_start`` checks a file's position more fully)."""

    def figures(self, config: Any, finals: Sequence[Any]) -> Figures | None:
        """The game's own figures of a run (``config``: its first game's; ``finals``: the last
        state of every game that ended without error), or None when it has none beyond the
        runner's (wins, decisions, time)."""


class Advisor(Protocol):
    """A game that gives hints (its entry says ``hints``)."""

    def advise(self, config: Any, view: Any) -> list[str]:
        """The hint for the decision of ``view``'s seat, in words, seeing only the view."""


class PositionError(ValueError):
    """A position file that cannot be played: ``str()`` says all that is wrong, ``one_line()``
    the first thing (for a notification)."""

    def one_line(self) -> str:
        return str(self).splitlines()[0] if str(self) else "it cannot be played"


class Position(NamedTuple):
    """A practice position in a list: a bundled one or the user's own file."""

    path: Path
    name: str
    description: str
    own: bool  # the user's (else bundled)
    problem: str = ""  # why the file cannot be listed ('' when it can)


class Positions(Protocol):
    """A game whose positions are saved as files and played again (its entry says ``scenarios``)."""

    def position_text(self, state: Any, *, name: str = "") -> str:
        """A file of ``state``: loading it gives the same position."""

    def load_position(self, path: Any) -> Stepped[Any, Any]:
        """The position of a file (``PositionError`` when it cannot be played)."""


@runtime_checkable
class RuleRefusal(Protocol):
    """A game's refusal (a ``ValueError``) that names the rule and the rulebook section it
    applies, apart from its words: a server sends both, so a client says them as a game played
    there would (Nightmare Cathedral's ``IllegalAction``)."""

    rule: str
    section: str


class Game(Protocol[C, S, A, E]):
    """One kind of game. ``seat`` is an index; ``SPECTATOR`` sees only what is public."""

    id: str  # "nightmare-cathedral", "cathedral", "nightmarium", "dreamers"
    title: str
    config_type: type[C]
    state_type: type[S]
    # What travels between a server and its clients, each decoded with the game's own type:
    action_type: Any  # the tagged union actions decode as
    view_type: Any  # what ``view`` returns
    event_type: Any  # the tagged union events decode as

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

    def view_all(self, state: S, seat: int) -> Any:
        """``seat``'s view with nothing hidden (every hand, every deck, the seed): what anyone may
        see of a game once it is over (a replay, ``platform.replay``), asked only of the states of
        a game that ended. Of the type of ``view``, so the game's screens draw it as they are."""

    def redact_event(self, event: E, seat: int) -> E: ...

    def redact_action(self, action: A, seat: int, decider: int) -> A: ...

    def facts(self, view: Any) -> Any:
        """What the rules say about a view, for the screens (which run no rule)."""

    def reveals(self, events: tuple[E, ...]) -> str:
        """Why a step with these events cannot be taken back fairly, or ''."""

    def with_seed(self, config: C, seed: int) -> C:
        """``config`` with another seed: a server draws each room's seed and shows every client
        the configuration with seed 0 (the seed and the public decisions replay every hidden card
        and every computer player's choice)."""

    # -- words -----------------------------------------------------------------------------------
    def describe_events(self, events: tuple[E, ...], view: Any) -> list[str]:
        """Log lines (``events`` already redacted for the reader; ``view`` that reader's view)."""

    def describe_action(self, action: A, state: S, *, secret: bool = False) -> str:
        """A decision in the timeline (``secret``: as another seat reads it)."""

    def summary(self, state: S) -> Summary: ...

    def seat_labels(self, view: Any) -> tuple[SeatLabel, ...]:
        """Each seat's name, letter and colour, as the shared screens (hand-off, timeline, lobby,
        log) show them."""

    # -- saves -----------------------------------------------------------------------------------
    def config_of(self, state: S) -> C: ...

    def digest(self, state: S) -> str:
        """A fingerprint of the state: a save that replays to another one is damaged."""

    def content_digest(self, config: C) -> str:
        """The content the game was played with (a save from other content cannot replay);
        ``ValueError`` when the content cannot be read."""

    def check_start(self, state: S) -> list[str]:
        """What is wrong with a starting position read from a file (empty: it can be played)."""
