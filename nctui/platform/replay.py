"""A game watched again, decision by decision (issue 40): ``Replay`` is a ``GameClient`` over a
game's whole history (a ``Store``, from a save file or a finished room), read only. Its cursor goes
back and forth (``undo`` one decision back, ``redo`` one forward, ``undo_to`` anywhere: the
timeline), and the game's own screen draws the board and writes the log as of that decision,
through the eyes of one seat (``seat``; ``look_as`` another).

Once the game is over (its last state has no decider) everything it hid may be shown: every view
is the game's ``view_all`` (the other hands, the decks, the seed), every event and decision is
read as its own seat read it. A game not over is shown as its seat saw it.

Nothing is decided in a replay: ``send`` refuses in one line. ``save`` writes the whole game as a
save file (what ``nctui replay FILE`` opens on another machine).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import saves
from .game import SPECTATOR, SeatKind, SeatPresence
from .listeners import Listeners
from .registry import AnyGame
from .session import SessionError, Update
from .store import PracticePolicy, Store, StoreError, TimelineItem

Listener = Callable[[], None]


class ReplayOnly(StoreError):
    """What a replay cannot do (decide, undo a decision for good): one line."""


def is_over(store: Store) -> bool:
    """Whether the game of ``store``'s history ended (its last state has no decider)."""
    return store.game.decider(store.entry(store.last_id).state) is None


class Replay:
    """A game's history watched again (see the module's docstring). ``seat``: whose eyes
    (``SPECTATOR``: a spectator's); ``game_id``: the play's id (a save's, a room's)."""

    undo_policy = "replay"
    presence: tuple[SeatPresence, ...] = ()
    thinking: int | None = None
    bot_error = ""
    autosave_error = ""
    autosave_path: Path | None = None
    hotseat = False

    def __init__(self, store: Store, *, seat: int = 0, game_id: str = "", cursor: int = 0) -> None:
        store.policy = PracticePolicy()
        store.jump(max(0, min(cursor, store.last_id)))
        self.store = store
        self.game: AnyGame = store.game
        self.game_id = game_id or saves.new_id()
        # who played each seat (``kinds``); to the screens every seat a computer played is a
        # person's (``seat_kinds``), or they would say a computer is thinking: nobody thinks here
        self.kinds: tuple[SeatKind, ...] = tuple(self.game.seats(store.config))
        self.seat_kinds: tuple[SeatKind, ...] = tuple("human" if k == "bot" else k for k in self.kinds)
        self.over = is_over(store)  # everything may be shown
        self._seat = seat if -1 <= seat < len(self.seat_kinds) else SPECTATOR
        self._lock = threading.RLock()
        self._listeners = Listeners[Listener]()
        self._unsubscribe = store.subscribe(lambda _store: self._notify())

    # -- who looks ---------------------------------------------------------------------------------

    @property
    def seat(self) -> int:
        return self._seat

    def look_as(self, seat: int) -> None:
        """Watch through ``seat``'s eyes from now on (``SPECTATOR``: a spectator's)."""
        self._seat = seat if 0 <= seat < len(self.seat_kinds) else SPECTATOR
        self._notify()

    # -- the game as of the cursor -----------------------------------------------------------------

    @property
    def config(self) -> Any:
        return self.store.config

    @property
    def state_id(self) -> int:
        return self.store.state_id

    @property
    def revision(self) -> int:
        return self.store.revision

    @property
    def last_id(self) -> int:
        return self.store.last_id

    def is_computer(self, seat: int | None) -> bool:
        return seat is not None and 0 <= seat < len(self.seat_kinds) and self.seat_kinds[seat] == "bot"

    def deciding_seat(self) -> int | None:
        return self.game.decider(self.store.state)

    def _view(self, state: Any, seat: int) -> Any:
        return self.game.view_all(state, seat) if self.over else self.game.view(state, seat)

    def view(self, seat: int) -> Any:
        with self._lock:
            return self._view(self.store.state, seat)

    def view_at(self, state_id: int, seat: int) -> Any:
        with self._lock:
            return self._view(self.store.entry(state_id).state, seat)

    def facts(self, seat: int) -> Any:
        return self.game.facts(self.view(seat))

    def facts_at(self, state_id: int, seat: int) -> Any:
        return self.game.facts(self.view_at(state_id, seat))

    def event_states(self, since: int) -> tuple[int, ...]:
        with self._lock:
            now = self.store.state_id
            return tuple(i for i in range(max(since + 1, 0), now + 1) for _ in self.store.entry(i).events)

    def events(self, since: int, seat: int) -> Update:
        """The events after ``since`` up to the cursor: all of them as they happened once the game
        is over, else as ``seat`` saw them (``undone``: the cursor went back before ``since``)."""
        with self._lock:
            now = self.store.state_id
            if now < since:
                return Update(now, (), True)
            if not self.over:
                return Update(now, tuple(self.store.events_since(since, seat)), False)
            found = [ev for e in (self.store.entry(i) for i in range(max(since + 1, 0), now + 1)) for ev in e.events]
            return Update(now, tuple(found), False)

    def timeline(self, seat: int) -> list[TimelineItem]:
        with self._lock:
            return self.store.timeline(viewer="all" if self.over else seat)

    def seat_of(self, state_id: int) -> int:
        return self.store.entry(state_id).seat

    def handoff_to(self, viewer: int, *, first: bool = False) -> int | None:
        return None  # one person watches: nothing to hand over

    # -- moving the cursor -------------------------------------------------------------------------

    def send(self, action: Any, *, seen_state_id: int, seat: int) -> None:
        raise ReplayOnly("this is a replay: nothing is decided here (u and r step back and forward)")

    def undo(self, seat: int) -> None:
        """One decision back."""
        with self._lock:
            if self.store.state_id == 0:
                raise ReplayOnly("this is the start of the game")
            self.store.jump(self.store.state_id - 1)

    def redo(self) -> None:
        """One decision forward."""
        with self._lock:
            if not self.store.can_redo():
                raise ReplayOnly("this is the end of the game")
            self.store.redo()

    def can_redo(self) -> bool:
        return self.store.can_redo()

    def undo_to(self, state_id: int, *, seat: int) -> None:
        with self._lock:
            self.store.jump(state_id)

    # -- saving ------------------------------------------------------------------------------------

    def save(self, path: Path | str) -> Path:
        """The whole game as a save file (its cursor where the replay stands)."""
        with self._lock:
            data = saves.encode(self.store, self.game_id)
        saves.write_atomic(Path(path), data)
        return Path(path)

    def save_position(self, path: Path | str, *, name: str = "") -> Path:
        raise SessionError("a replay keeps the whole game: save it with s")

    def advise(self, seat: int) -> list[str]:
        return []

    def flush(self) -> Path:
        raise SessionError("a replay is not autosaved")

    # -- listeners ---------------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._listeners.add(listener)

    def _notify(self) -> None:
        for listener in self._listeners:
            listener()

    def close(self) -> None:
        self._unsubscribe()


def first_person(kinds: tuple[SeatKind, ...]) -> int:
    """The seat a replay looks through first: the first person's (else the first seat)."""
    return next((i for i, kind in enumerate(kinds) if kind == "human"), 0)


def open_replay(path: Path | str, *, seat: int | None = None) -> Replay:
    """The replay of a save file, at its start, through ``seat``'s eyes (default: the first
    person's); ``SaveError`` in one line for a file that cannot be read or replayed."""
    loaded = saves.load(path)
    kinds = tuple(loaded.game.seats(loaded.store.config))
    return Replay(loaded.store, seat=first_person(kinds) if seat is None else seat, game_id=loaded.game_id)
