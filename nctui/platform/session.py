"""One game between people: the ``Session`` owns its store, the kind of each seat, the computer
players' turns (on a worker thread, so keys stay live), the autosave (on another thread, off the
key-press path), the undo policy, the hot-seat hand-off rule and the events each seat has seen.

The screens draw and read keys; they reach the game only through a session (``GameClient`` in
``ui.client`` is the part they use). Listeners are called after every change, from whichever
thread made it: a Textual screen posts itself a message (``post_message`` is thread-safe).

Undo policies (``UndoMode``): hot-seat with two or more people is strict by default (a person
takes back only their own decisions since the last reveal of hidden information, draw of chance
or another seat's decision); solo and practice games undo and redo anything.
"""

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, NamedTuple

from . import registry, saves
from .game import Bot, SeatKind, SeatPresence, Stoppable, Summary
from .listeners import Listeners
from .registry import AnyGame
from .store import PracticePolicy, Store, StoreError, StrictPolicy, TimelineItem, UndoPolicy, UndoRefused

UndoMode = Literal["strict", "practice"]
UNDO_MODES: tuple[UndoMode, ...] = ("strict", "practice")
Listener = Callable[[], None]
CLOSE_WAIT = 3.0  # seconds close() waits for a computer player still thinking
# The autosave is written once the game has been still for AUTOSAVE_QUIET seconds: the screen
# draws the change first (written at once, the save's disk writes took the interpreter from the
# drawing of the key's frame, ~5 ms of a key at 120x40). Computer players deciding one after the
# other do not put it off more than AUTOSAVE_AT_MOST; close() writes what is left.
AUTOSAVE_QUIET = 0.15
AUTOSAVE_AT_MOST = 1.0


class SessionError(Exception):
    """The session cannot start or do what was asked; ``str()`` is one sentence."""


class Update(NamedTuple):
    """What changed since a reader last looked: ``events`` new to it (as its seat may see
    them); ``undone`` when the game went back instead of forward."""

    state_id: int
    events: tuple[Any, ...]
    undone: bool


def default_undo(seats: tuple[SeatKind, ...]) -> UndoMode:
    """Strict when two or more people share the game; practice when one person plays."""
    return "strict" if seats.count("human") >= 2 else "practice"


def policy_for(mode: UndoMode) -> UndoPolicy:
    return StrictPolicy() if mode == "strict" else PracticePolicy()


class Session:
    """One game being played. ``autosave``: keep ``autosave/<game_id>.nctui.json`` up to date
    (and hold the game's lock, so no other process plays it at once). ``bot_delay``: seconds a
    computer player waits after the last change before it decides, so people can follow."""

    seat: int | None = None  # every person's seat is played at this keyboard (``ui.client.GameClient``)

    def __init__(
        self,
        store: Store,
        *,
        game_id: str | None = None,
        folder: Path | str | None = None,
        undo: UndoMode | None = None,
        autosave: bool = True,
        bot_delay: float = 0.0,
    ) -> None:
        self.store = store
        self.game: AnyGame = store.game
        self.game_id = game_id or saves.new_id()
        self.folder = saves.save_dir(folder)
        self.seat_kinds: tuple[SeatKind, ...] = tuple(self.game.seats(store.config))
        self.presence: tuple[SeatPresence, ...] = ()  # at one keyboard nobody is away (``GameClient.presence``)
        self.undo_mode: UndoMode = undo or default_undo(self.seat_kinds)
        store.policy = policy_for(self.undo_mode)
        self.bot_delay = max(bot_delay, 0.0)
        self.autosave_path: Path | None = saves.autosave_path(self.game_id, self.folder) if autosave else None
        self._lock: saves.GameLock | None = None
        if autosave:
            self._lock = saves.GameLock(self.game_id, self.folder)
            if not self._lock.acquired:
                raise SessionError("this game is open in another nctui: finish or quit it there first")
        self._cond = threading.Condition(threading.RLock())
        self._listeners = Listeners[Listener]()
        self._bots: dict[int, Bot] = {}
        self._closed = False
        self._changed_at = time.monotonic()
        self._bot_failed_at = -1  # the revision at which a computer player failed (it waits for a change)
        self.thinking: int | None = None  # the seat whose computer player is deciding
        self.bot_error = ""
        self.autosave_error = ""
        self._save_lock = threading.Lock()
        self._written = -1  # the store revision last written to the autosave
        self._attempted = -1  # the revision last tried (a failing folder is not retried in a loop)
        self._unsubscribe = store.subscribe(self._store_changed)
        self._threads: list[threading.Thread] = []

    # -- life --------------------------------------------------------------------------------------

    def start(self) -> "Session":
        """Start the computer players' and the autosave's threads; returns the session."""
        if not self._threads:
            self._threads = [threading.Thread(target=self._computer_loop, name="nctui-computer", daemon=True)]
            if self.autosave_path is not None:
                self._threads.append(threading.Thread(target=self._autosave_loop, name="nctui-autosave", daemon=True))
            for t in self._threads:
                t.start()
        return self

    def close(self, *, save: bool = True) -> Path | None:
        """Stop the threads, write the autosave one last time (not with ``save`` False: a game
        opened and not played) and release the game's lock; returns the autosave written (None:
        no autosave, or it failed: ``autosave_error``)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            thinking = self.thinking
        if thinking is not None:
            self._stop_thinking(thinking)
        for t in self._threads:
            if t is not threading.current_thread():
                t.join(CLOSE_WAIT)
        path = None
        if self.autosave_path is not None and save:
            try:
                path = self.flush()
            except saves.SaveError:
                path = None
        self._unsubscribe()
        if self._lock is not None:
            self._lock.release()
        return path

    @property
    def lock(self) -> threading.Condition:
        """The session's (re-entrant) lock: hold it to read several things of one moment."""
        return self._cond

    @property
    def closed(self) -> bool:
        return self._closed

    # -- listeners ---------------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener()`` after every change (from the thread that made it)."""
        return self._listeners.add(listener)

    def _notify(self) -> None:
        for listener in self._listeners:
            listener()

    def _store_changed(self, _store: Store) -> None:
        with self._cond:
            self._changed_at = time.monotonic()
            self._cond.notify_all()
            thinking = self.thinking  # a computer deciding on a game that moved on: its choice is moot
        if thinking is not None:
            self._stop_thinking(thinking)
        self._notify()

    def _stop_thinking(self, seat: int) -> None:
        """Ask the computer player of ``seat`` to end its decision now, if it can be stopped."""
        bot = self._bots.get(seat)
        if isinstance(bot, Stoppable):
            bot.stop()

    # -- reading -----------------------------------------------------------------------------------

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
    def rewinds(self) -> int:
        """How many times the game went back (undo, a jump back): a client that saw state N
        before the latest rewind cannot trust what it has after the rewind point."""
        return self.store.rewinds

    @property
    def last_id(self) -> int:
        with self._cond:
            return self.store.last_id

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i, kind in enumerate(self.seat_kinds) if kind == "human")

    @property
    def hotseat(self) -> bool:
        """Two or more people at one keyboard: each one's hand stays hidden from the others."""
        return len(self.humans) >= 2

    def is_computer(self, seat: int | None) -> bool:
        return seat is not None and 0 <= seat < len(self.seat_kinds) and self.seat_kinds[seat] == "bot"

    def set_seat_kind(self, seat: int, kind: SeatKind) -> None:
        """Who plays ``seat`` from now on: a server hands the seat of a person who stayed away to a
        computer player ("bot"), and gives it back ("human") when they return."""
        with self._cond:
            kinds = list(self.seat_kinds)
            kinds[seat] = kind
            self.seat_kinds = tuple(kinds)
            self._cond.notify_all()
        self._notify()

    def deciding_seat(self) -> int | None:
        return self.game.decider(self.store.state)

    def view(self, seat: int) -> Any:
        return self.game.view(self.store.state, seat)

    def facts(self, seat: int) -> Any:
        """What the rules say about ``seat``'s view (area control, the score so far, …)."""
        return self.game.facts(self.view(seat))

    def view_at(self, state_id: int, seat: int) -> Any:
        """A seat's view of an earlier point of the timeline."""
        with self._cond:
            state = self.store.entry(state_id).state
        return self.game.view(state, seat)

    def facts_at(self, state_id: int, seat: int) -> Any:
        """What the rules said about a seat's view at an earlier point (the board as it was)."""
        return self.game.facts(self.view_at(state_id, seat))

    def event_states(self, since: int) -> tuple[int, ...]:
        """For each event ``events(since, …)`` returns, the state id it led to: the King's turn
        shows the board as of the step being read."""
        with self._cond:
            now = self.store.state_id
            return tuple(i for i in range(max(since + 1, 0), now + 1) for _ in self.store.entry(i).events)

    def events(self, since: int, seat: int) -> Update:
        """The events after state ``since`` up to now, as ``seat`` may see them."""
        with self._cond:
            now = self.store.state_id
            if now < since:
                return Update(now, (), True)
            return Update(now, tuple(self.store.events_since(since, seat)), False)

    def timeline(self, seat: int, start: int = 0) -> list[TimelineItem]:
        """The timeline as ``seat`` may read it, from state ``start`` on (a server sends what is new)."""
        with self._cond:
            return self.store.timeline(viewer=seat, start=start)

    def seat_of(self, state_id: int) -> int:
        """The seat that decided the decision leading to ``state_id`` (-1 for the start)."""
        with self._cond:
            return self.store.entry(state_id).seat

    def summary(self) -> Summary:
        return self.game.summary(self.store.state)

    # -- deciding ----------------------------------------------------------------------------------

    def send(self, action: Any, *, seen_state_id: int, seat: int) -> None:
        """Decide for ``seat``; raises the game's refusal (a ``ValueError`` naming the rule) or a
        ``StoreError`` (the game moved on, or it is not this seat's decision)."""
        with self._cond:
            self.store.dispatch(action, seen_state_id=seen_state_id, seat=seat)

    # -- undo and redo -----------------------------------------------------------------------------

    @property
    def undo_policy(self) -> str:
        return self.undo_mode

    def undo(self, seat: int) -> None:
        """Back to before the last decision of a person (a computer's decisions after it are taken
        back with it: otherwise the computer would decide again at once), as the policy allows
        ``seat``; ``UndoRefused`` says why not."""
        with self._cond:
            if self.store.state_id == 0:
                raise UndoRefused("nothing to undo: this is the start of the game")
            target = self.store.state_id - 1
            while target > 0 and self._computer_decided(target):
                target -= 1
            self.store.jump(target, seat=seat)

    def redo(self, seat: int | None = None) -> None:
        """Forward one decision along the redo branch, and on through the computers' decisions.
        ``seat``: the seat asking (online): it gets back only a decision of its own."""
        with self._cond:
            why = self._not_yours(seat, self._redo_target())
            if why:
                raise UndoRefused(why)
            self.store.redo()
            while self.store.can_redo() and self._computer_decided(self.store.state_id):
                self.store.redo()

    def can_redo(self, seat: int | None = None) -> bool:
        with self._cond:
            return self.store.can_redo() and not self._not_yours(seat, self._redo_target())

    def _redo_target(self) -> int:
        """The state one redo reaches: the next decision, and the computers' decisions after it."""
        target = self.store.state_id + (1 if self.store.can_redo() else 0)
        while target < self.store.last_id and self._computer_decided(target):
            target += 1
        return target

    def _not_yours(self, seat: int | None, target: int) -> str:
        """Why ``seat`` may not go forward to ``target`` along the redo branch ('' when it may):
        every person's decision on the way must be its own (a computer's or the King's are passed over)."""
        if seat is None or seat < 0:
            return "" if seat is None else "a spectator cannot redo"
        for i in range(self.store.state_id + 1, target + 1):
            other = self.store.entry(i).seat
            if other != seat and 0 <= other < len(self.seat_kinds) and self.seat_kinds[other] == "human":
                return (
                    f"cannot redo: the next decision undone is {self.store.seat_name(other)}'s; only they can redo it"
                )
        return ""

    def undo_to(self, state_id: int, *, seat: int) -> None:
        """Move to ``state_id`` of the timeline: back as the undo policy allows ``seat``, or
        forward along the redo branch over its own decisions only (and the computers')."""
        with self._cond:
            if state_id > self.store.state_id:
                why = self._not_yours(seat, min(state_id, self.store.last_id))
                if why:
                    raise UndoRefused(why)
            self.store.jump(state_id, seat=seat)

    def _computer_decided(self, state_id: int) -> bool:
        """Whether the decision taken at ``state_id`` was a computer's, in a game people play
        too (undo and redo pass over those)."""
        return (
            bool(self.humans)
            and state_id < self.store.last_id
            and self.is_computer(self.store.entry(state_id + 1).seat)
        )

    # -- hot-seat ----------------------------------------------------------------------------------

    def handoff_to(self, viewer: int, *, first: bool = False) -> int | None:
        """Hot-seat: the person the keyboard must pass to before anything of the next view is
        drawn, or None. ``first``: the game was just opened, and whoever opened it may not be the
        person deciding (a computer deciding first: hand back to ``viewer``)."""
        seat = self.deciding_seat()
        if not self.hotseat or seat is None:
            return None
        if first:
            return viewer if self.is_computer(seat) else seat
        return seat if not self.is_computer(seat) and seat != viewer else None

    # -- computer players --------------------------------------------------------------------------

    def bot_for(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = self.game.bot(self.config, seat)
        return bot

    def _computer_due(self) -> int | None:
        """The computer seat to decide now, or None."""
        if self._closed or self.store.revision == self._bot_failed_at:
            return None
        seat = self.deciding_seat()
        return seat if self.is_computer(seat) else None

    def _computer_loop(self) -> None:
        while True:
            with self._cond:
                while (seat := self._computer_due()) is None:
                    if self._closed:
                        return
                    self._cond.wait()
                revision = self.store.revision
                if not self._paced(revision):
                    continue
                state_id, view = self.store.state_id, self.view(seat)
                self.thinking = seat
            self._notify()
            self._computer_decides(seat, revision, state_id, view)

    def _paced(self, revision: int) -> bool:
        """Wait (lock held, released while waiting) until ``bot_delay`` has passed since the last
        change; False when the game changed meanwhile."""
        while not self._closed and self.store.revision == revision:
            left = self._changed_at + self.bot_delay - time.monotonic()
            if left <= 0:
                return True
            self._cond.wait(left)
        return False

    def _computer_decides(self, seat: int, revision: int, state_id: int, view: Any) -> None:
        error = ""
        try:
            action = self.bot_for(seat).choose(view)
        except Exception as exc:  # noqa: BLE001 - a broken computer player must not take the game down
            action, error = None, f"{type(exc).__name__}: {exc}"
        with self._cond:
            self.thinking = None
            if not error and not self._closed and self.store.revision == revision:
                try:
                    self.store.dispatch(action, seen_state_id=state_id, seat=seat)
                    self.bot_error = ""
                except (ValueError, StoreError) as exc:
                    error = str(exc)
            if error:
                self.bot_error = f"the computer player of {self.store.seat_name(seat)} failed: {error}"
                self._bot_failed_at = self.store.revision
        self._notify()

    def decide_for(self, seat: int) -> bool:
        """A computer player makes ``seat``'s decision now, whoever plays the seat (a turn-based
        room whose clock ran out); False when it is not that seat's decision, the game moved on
        meanwhile, or the computer player failed (``bot_error`` says how)."""
        with self._cond:
            if self._closed or self.deciding_seat() != seat:
                return False
            revision, state_id, view = self.store.revision, self.store.state_id, self.view(seat)
        try:
            action = self.bot_for(seat).choose(view)
        except Exception as exc:  # noqa: BLE001 - a broken computer player must not take the game down
            with self._cond:
                self.bot_error = (
                    f"the computer player of {self.store.seat_name(seat)} failed: {type(exc).__name__}: {exc}"
                )
            self._notify()
            return False
        with self._cond:
            if self._closed or self.store.revision != revision:
                return False
            self.store.dispatch(action, seen_state_id=state_id, seat=seat)
        return True

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until no computer player is due or thinking (tests, scripts); False on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self.thinking is not None or self._computer_due() is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.05))
        return True

    # -- saving ------------------------------------------------------------------------------------

    def save(self, path: Path | str) -> Path:
        """Save under a name (atomic); raises ``SaveError``."""
        with self._cond:
            data = saves.encode(self.store, self.game_id, undo=self.undo_mode)
        saves.write_atomic(Path(path), data)
        return Path(path)

    def save_position(self, path: Path | str, *, name: str = "") -> Path:
        """Save the position now as a scenario file (docs/scenarios.md; atomic); raises
        ``SaveError``, or ``SessionError`` for a game without scenario files."""
        positions = registry.positions(self.game.id)
        if positions is None:
            raise SessionError(f"{self.game.title} has no scenario files")
        with self._cond:
            state = self.store.state
        saves.write_atomic(Path(path), positions.position_text(state, name=name).encode("utf-8"))
        return Path(path)

    def advise(self, seat: int) -> list[str]:
        """The practice hint for ``seat``'s decision, in words (the planner on the seat's view
        only). Takes a moment: call it off the UI thread."""
        advisor = registry.advisor(self.game.id)
        if advisor is None:
            raise SessionError(f"{self.game.title} has no hints")
        with self._cond:
            view = self.view(seat)
        return list(advisor.advise(self.config, view))

    def flush(self) -> Path:
        """Write the autosave now if anything changed since it was last written; returns its
        path. Raises ``SaveError`` (and ``SessionError`` when this session does not autosave)."""
        if self.autosave_path is None:
            raise SessionError("this game is not autosaved")
        self._write_autosave()
        if self.autosave_error:
            raise saves.SaveError(self.autosave_path, self.autosave_error)
        if not saves.is_there(self.autosave_path):  # "saved" is said only of a file that is there
            raise saves.SaveError(self.autosave_path, "is not there: the game could not be saved")
        return self.autosave_path

    def _autosave_loop(self) -> None:
        while True:
            with self._cond:
                while not self._closed and self.store.revision == self._attempted:
                    self._cond.wait()
                first = time.monotonic()
                while not self._closed:
                    left = min(self._changed_at + AUTOSAVE_QUIET, first + AUTOSAVE_AT_MOST) - time.monotonic()
                    if left <= 0:
                        break
                    self._cond.wait(left)
                if self._closed:
                    return
            self._write_autosave()

    def _write_autosave(self) -> None:
        assert self.autosave_path is not None
        with self._save_lock:
            with self._cond:
                revision = self.store.revision
                self._attempted = revision
                if revision == self._written and saves.is_there(self.autosave_path):
                    return  # written, and still there (a file deleted meanwhile is written again)
                try:
                    data = saves.encode(self.store, self.game_id, undo=self.undo_mode)
                except saves.SaveError as exc:
                    self._autosave_failed(exc)
                    return
            try:
                saves.write_atomic(self.autosave_path, data)
            except saves.SaveError as exc:
                self._autosave_failed(exc)
                return
            self._written = revision
            changed, self.autosave_error = bool(self.autosave_error), ""
        if changed:
            self._notify()

    def _autosave_failed(self, exc: saves.SaveError) -> None:
        first = not self.autosave_error
        self.autosave_error = exc.problem
        if first:
            self._notify()


def new_session(
    config: Any,
    *,
    game: AnyGame | None = None,
    folder: Path | str | None = None,
    undo: UndoMode | None = None,
    autosave: bool = True,
    bot_delay: float = 0.0,
) -> Session:
    """A new game (not started: call ``start()``); a configuration the game refuses raises
    ``ValueError``."""
    store = Store(config) if game is None else Store(config, game=game)
    return Session(store, folder=folder, undo=undo, autosave=autosave, bot_delay=bot_delay)


def scenario_session(
    game_id: str,
    path: Path | str,
    *,
    folder: Path | str | None = None,
    autosave: bool = True,
    bot_delay: float = 0.0,
) -> Session:
    """A practice game of ``game_id`` from the position of a file (not started; undo: practice,
    and ``h`` gives hints where the game has them). Saving it records the position as its start.
    Raises ``SessionError`` for a game without position files, and the game's ``ValueError``
    (in words) for a file it cannot play."""
    positions = registry.positions(game_id)
    if positions is None:
        raise SessionError(f"{registry.entry(game_id).title} has no position files")
    store = Store(initial=positions.load_position(Path(path)), game=registry.game(game_id))
    return Session(store, folder=folder, undo="practice", autosave=autosave, bot_delay=bot_delay)


def open_session(
    path: Path | str, *, folder: Path | str | None = None, autosave: bool = True, bot_delay: float = 0.0
) -> Session:
    """The game of a save file (not started). Continuing a game from its autosave keeps its id
    (and its autosave); a save under a name becomes a new game with an autosave of its own, so
    the game it was saved from is never replaced. Raises ``SaveError`` or ``SessionError``."""
    loaded = saves.load(path)
    own = saves.is_autosave(loaded.path, loaded.game_id, folder)
    undo = next((mode for mode in UNDO_MODES if mode == loaded.undo), None)
    return Session(
        loaded.store,
        game_id=loaded.game_id if own else None,
        folder=folder,
        undo=undo,
        autosave=autosave,
        bot_delay=bot_delay,
    )
