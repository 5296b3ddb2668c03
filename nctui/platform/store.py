"""The state history of one game: every state reached, the decision that led to it, and a cursor.

The engine is pure; the Store is where a game lives while it is played. It keeps one history
entry per accepted decision (the state, the action, the events it produced, the seat that
decided), so undo, redo and the timeline are moves of the cursor, never recomputation.
Replaying the same action from the same state gives the same state, draws included (the RNG
is carried in the state), which is why a redo entry can be reused when its action comes again.

Undo is governed by a policy: ``PracticePolicy`` undoes anything; ``StrictPolicy`` lets a seat
take back only its own decisions that revealed nothing and drew nothing.

The store is written against the ``Game`` protocol (``platform.game``): every game uses it. Its
game is the one given, else the one its configuration or first state is of (the registry).
"""

from collections.abc import Callable
from typing import Any, Literal, NamedTuple, Protocol

import msgspec

from .game import SPECTATOR, Stepped
from .listeners import Listeners
from .registry import AnyGame, game_of

Listener = Callable[["Store"], None]
NO_SEAT = -1  # the seat of the initial entry: nobody decided it


class StoreError(ValueError):
    """The store refused a request (the engine's own refusals are ``ActionError``)."""


class StaleState(StoreError):
    """The action was chosen while looking at a state that is no longer the current one."""


class WrongSeat(StoreError):
    """The action came from a seat that is not the one deciding."""


class UndoRefused(StoreError):
    """The undo policy forbids going back there; the message says why."""


class ReplayError(StoreError):
    """An action of a list being replayed is refused; ``index`` counts from 1."""

    def __init__(self, index: int, action: Any, cause: Exception) -> None:
        self.index, self.action, self.cause = index, action, cause
        super().__init__(f"action {index} ({msgspec.json.encode(action).decode()}) is refused: {cause}")


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """One point of the history: ``state`` was reached when ``seat`` decided ``action``.

    ``revealed`` is why this step cannot be taken back under the strict policy (hidden cards
    came into view, or the RNG was used), or "" when it revealed nothing.
    """

    state: Any
    action: Any  # None for the initial entry
    events: tuple[Any, ...]
    seat: int = NO_SEAT
    revealed: str = ""


class TimelineItem(NamedTuple):
    state_id: int
    seat: int
    summary: str


# ----------------------------------------------------------------------------------------------
# Undo policies


class UndoPolicy(Protocol):
    """Decides whether ``seat`` may move the cursor back to ``target``."""

    name: str

    def refusal(self, store: "Store", seat: int | None, target: int) -> str:
        """Why going back to ``target`` is refused, or "" when it is allowed."""


class PracticePolicy:
    """Undo anything: for learning the rules and trying lines of play."""

    name = "practice"

    def refusal(self, store: "Store", seat: int | None, target: int) -> str:
        return ""


class StrictPolicy:
    """A seat may undo only its own decisions made since the last hidden information was
    revealed, the last random draw, or another seat's decision: a slip of the finger may be
    taken back, but never a look at a card or a roll of the dice."""

    name = "strict"

    def refusal(self, store: "Store", seat: int | None, target: int) -> str:
        if seat is None:
            return "strict undo: say which seat is asking"
        for i in range(store.state_id, target, -1):
            entry = store.entry(i)
            if entry.seat != seat:
                return f"{store.seat_name(entry.seat)} has decided since ({store.summarize(i, secret=True)})"
            if entry.revealed:
                decision = store.summarize(i)
                return f"your decision '{decision}' cannot be taken back: {entry.revealed}"
        return ""


def label_name(game: AnyGame, state: Any, seat: int) -> str:
    """The seat's name as the game labels it (``seat_labels`` of the public view)."""
    try:
        labels = game.seat_labels(game.view(state, SPECTATOR))
    except Exception:  # noqa: BLE001 - a name for a message: never a second failure
        labels = ()
    return labels[seat].name if 0 <= seat < len(labels) else f"seat {seat + 1}"


# ----------------------------------------------------------------------------------------------
# The store


class Store:
    """The history of one game and a cursor into it.

    ``Store(config)`` starts a new game. ``Store(initial=result, actions=[...], cursor=k)``
    rebuilds a history by replaying ``actions`` from ``result`` (loading a save, a scenario);
    ``cursor`` (default: the last) is where the game stands, later actions are the redo branch.
    """

    def __init__(
        self,
        config: Any = None,
        *,
        game: AnyGame | None = None,
        initial: Stepped[Any, Any] | None = None,
        actions: tuple[Any, ...] | list[Any] = (),
        cursor: int | None = None,
        policy: UndoPolicy | None = None,
    ) -> None:
        if (config is None) == (initial is None):
            raise TypeError("Store needs either a configuration or an initial state")
        self.game = game = game or game_of(config if initial is None else initial.state)
        start = game.new(config) if initial is None else initial
        self.policy: UndoPolicy = policy or PracticePolicy()
        self._history: list[Entry] = [Entry(state=start.state, action=None, events=start.events)]
        self._cursor = 0
        self._listeners = Listeners[Listener]()
        self.revision = 0  # grows on every change of any kind, unlike state_id
        self.rewinds = 0  # grows each time the cursor goes back: what was seen after it may be rewritten
        # How a refusal names a seat (a room on a server adds who holds it); None: its label's name
        self.seat_namer: Callable[[int], str] | None = None
        # Whether the game began with new_game(config), so that the config alone rebuilds it;
        # None: not known (saves find out and remember).
        self.fresh_start: bool | None = True if initial is None else None
        # Each decision's summary as the timeline says it, kept with the entry it was made for
        # (state id, secret) -> (entry, summary): the timeline of a long game, asked for after
        # every change, described every decision again (~40 us each)
        self._summaries: dict[tuple[int, bool], tuple[Entry, str]] = {}
        for i, action in enumerate(actions, 1):
            try:
                self._append(action)
            except ValueError as exc:  # the game's refusal (an ActionError for Nightmare Cathedral)
                raise ReplayError(i, action, exc) from exc
        if cursor is not None:
            if not 0 <= cursor < len(self._history):
                raise StoreError(f"cursor {cursor} is outside the history (0-{len(self._history) - 1})")
            self._cursor = cursor

    # -- reading --------------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self._history[self._cursor].state

    @property
    def config(self) -> Any:
        return self.game.config_of(self._history[0].state)

    @property
    def state_id(self) -> int:
        """The cursor: 0 at the start, one more per accepted decision."""
        return self._cursor

    @property
    def initial(self) -> Entry:
        return self._history[0]

    @property
    def last_id(self) -> int:
        """The state id at the end of the history (beyond the cursor when redo is possible)."""
        return len(self._history) - 1

    def entry(self, state_id: int) -> Entry:
        return self._history[state_id]

    def actions(self) -> tuple[Any, ...]:
        """The decisions from the start to the cursor."""
        return tuple(e.action for e in self._history[1 : self._cursor + 1])

    def all_actions(self) -> tuple[Any, ...]:
        """Every decision in the history, the redo branch included (what a save records)."""
        return tuple(e.action for e in self._history[1:])

    def timeline(self, *, viewer: int | Literal["all"] | None = "all", start: int = 0) -> list[TimelineItem]:
        """(state id, deciding seat, summary) for every entry from ``start``, the redo branch included.

        ``viewer``: a seat (or None, a spectator) whose eyes the summaries are for; other
        seats' secret decisions are then summarized without their cards. "all": everything."""
        return [
            TimelineItem(i, e.seat, self.summarize(i, secret=viewer != "all" and e.seat != viewer))
            for i, e in enumerate(self._history[start:], start=max(start, 0))
        ]

    def summarize(self, state_id: int, *, secret: bool = False) -> str:
        """A short line naming the decision that led to ``state_id``, for the timeline and
        refusal messages; ``secret`` leaves out what only the deciding seat may know."""
        entry = self._history[state_id]
        if entry.action is None:
            return "Setup"
        kept = self._summaries.get((state_id, secret))
        if kept is not None and kept[0] is entry:  # the state before it is the same too: a new one replaces both
            return kept[1]
        summary = self.game.describe_action(entry.action, self._before(state_id), secret=secret)
        self._summaries[(state_id, secret)] = (entry, summary)
        return summary

    def _before(self, state_id: int) -> Any:
        """The state in which the decision leading to ``state_id`` was taken."""
        return self._history[max(state_id - 1, 0)].state

    def events_since(self, state_id: int, seat: int | None) -> list[Any]:
        """The events after ``state_id`` up to the cursor, as ``seat`` may see them
        (``None``: a spectator). ``-1`` includes the setup events of the initial state."""
        viewer = SPECTATOR if seat is None else seat
        out: list[Any] = []
        for e in self._history[max(state_id + 1, 0) : self._cursor + 1]:
            out.extend(self.game.redact_event(ev, viewer) for ev in e.events)
        return out

    def seat_name(self, seat: int) -> str:
        """A seat as a refusal names it: as the game calls it ("Blue", "Player 2"; online also
        who holds it), never by its index."""
        if self.seat_namer is not None:
            return self.seat_namer(seat)
        return label_name(self.game, self.state, seat)

    # -- deciding -------------------------------------------------------------------------------

    def dispatch(self, action: Any, *, seen_state_id: int | None = None, seat: int | None = None) -> Entry:
        """Apply a decision at the cursor.

        ``seen_state_id``: the state id the decider was looking at; a different one means the
        game moved on meanwhile and the action is refused. ``seat``: who sends it; it must be
        the deciding seat. The engine's own refusals (``ActionError``) pass through unchanged.
        """
        if seen_state_id is not None and seen_state_id != self._cursor:
            raise StaleState(
                f"the game has moved on: this action was chosen at state {seen_state_id}, it is now state "
                f"{self._cursor}"
            )
        decider = self.game.decider(self.state)
        if seat is not None and decider is not None and seat != decider:
            raise WrongSeat(f"{self.seat_name(seat)} cannot decide now: it is {self.seat_name(decider)}'s decision")
        redo = self._history[self._cursor + 1] if self._cursor + 1 < len(self._history) else None
        if redo is not None and redo.action == action:
            # The same decision from the same state gives the same result: keep the redo branch.
            self._cursor += 1
        else:
            result = self.game.step(self.state, action)  # raises before anything changes
            del self._history[self._cursor + 1 :]
            self._push(action, result)
        self._changed()
        return self._history[self._cursor]

    def _append(self, action: Any) -> None:
        """Replay one action at the end of the history (building from a list)."""
        self._cursor = len(self._history) - 1
        self._push(action, self.game.step(self._history[-1].state, action))

    def _push(self, action: Any, result: Stepped[Any, Any]) -> None:
        decider = self.game.decider(self.state)
        seat = decider if decider is not None else NO_SEAT
        self._history.append(
            Entry(
                state=result.state,
                action=action,
                events=result.events,
                seat=seat,
                revealed=self.game.reveals(result.events),
            )
        )
        self._cursor = len(self._history) - 1

    # -- moving the cursor ----------------------------------------------------------------------

    def can_undo(self, seat: int | None = None) -> bool:
        return self._cursor > 0 and not self.policy.refusal(self, seat, self._cursor - 1)

    def can_redo(self) -> bool:
        return self._cursor < len(self._history) - 1

    def undo(self, seat: int | None = None) -> None:
        """Back one decision (whoever made it, as the policy allows)."""
        if self._cursor == 0:
            raise UndoRefused("nothing to undo: this is the start of the game")
        self._go_back(seat, self._cursor - 1)

    def undo_mine(self, seat: int) -> None:
        """Hot-seat "undo my last decision": back to just before ``seat``'s latest decision,
        taking back every decision made after it too."""
        mine = [i for i in range(self._cursor, 0, -1) if self._history[i].seat == seat]
        if not mine:
            raise UndoRefused(f"nothing to undo: {self.seat_name(seat)} has made no decision yet")
        self._go_back(seat, mine[0] - 1)

    def redo(self) -> None:
        if not self.can_redo():
            raise StoreError("nothing to redo")
        self._cursor += 1
        self._changed()

    def jump(self, state_id: int, *, seat: int | None = None) -> None:
        """Move to any point of the timeline; going back obeys the undo policy."""
        if not 0 <= state_id < len(self._history):
            raise StoreError(f"no state {state_id} in this game's timeline (0-{len(self._history) - 1})")
        if state_id < self._cursor:
            self._go_back(seat, state_id)
        elif state_id > self._cursor:
            self._cursor = state_id
            self._changed()

    def _go_back(self, seat: int | None, target: int) -> None:
        why = self.policy.refusal(self, seat, target)
        if why:
            raise UndoRefused(f"cannot undo: {why}")
        self._cursor = target
        self.rewinds += 1
        self._changed()

    # -- listeners ------------------------------------------------------------------------------

    def subscribe(self, callback: Listener) -> Callable[[], None]:
        """Call ``callback(store)`` after every change; returns the function that unsubscribes."""
        return self._listeners.add(callback)

    def _changed(self) -> None:
        """Tell every listener; one failing listener does not keep the others uninformed."""
        self.revision += 1
        errors = []
        for callback in self._listeners:
            try:
                callback(self)
            except Exception as exc:  # noqa: BLE001 - re-raised below, after the others ran
                errors.append(exc)
        if errors:
            raise errors[0]
