"""The one small interface between the UI and a game.

Widgets and screens never touch the Store or the full state: they ask a ``GameClient`` for a
seat's view, its facts (what the rules say about the view: area control, the score so far, …)
and the new events, and send actions with the state id they saw. A computer player is the
game's too: the screen asks the client what it decides (the UI runs no bot). ``LocalGame``
implements it over a Store (hot-seat and solo at one keyboard); a networked game implements the
same protocol over a connection, and the screens don't change.

Which seat decides, the seats' kinds and the timeline's summaries are public; hands, decks and
the RNG are only ever seen through ``player_view``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, Protocol

from .. import saves
from ..engine.actions import Action
from ..engine.config import GameConfig
from ..engine.events import Event
from ..engine.facts import Facts, facts
from ..engine.views import View, player_view
from ..session.protocol import Bot
from ..store import Store, StoreError, TimelineItem

Listener = Callable[[], None]


class Update(NamedTuple):
    """What changed since a listener last looked: ``events`` new to it (as ``seat`` may see
    them); ``undone`` when the game went back instead of forward."""

    state_id: int
    events: tuple[Event, ...]
    undone: bool


class GameClient(Protocol):
    """A game as the UI sees it."""

    @property
    def config(self) -> GameConfig: ...

    @property
    def state_id(self) -> int: ...

    @property
    def revision(self) -> int: ...

    @property
    def last_id(self) -> int:
        """The last state id of the timeline (beyond ``state_id`` when redo is possible)."""

    def deciding_seat(self) -> int | None:
        """The seat whose decision is due (None when none is: the game is over)."""

    def view(self, seat: int) -> View: ...

    def facts(self, seat: int) -> Facts:
        """What the rules say about ``seat``'s view (``engine.facts``): the UI runs no rule."""

    def events(self, since: int, seat: int) -> Update:
        """The events after state ``since`` up to now, as ``seat`` may see them."""

    def send(self, action: Action, *, seen_state_id: int, seat: int) -> None:
        """Decide for ``seat``; raises the engine's ``ActionError`` (which names the rule) or a
        ``StoreError`` (stale state, wrong seat)."""

    def bot_choice(self, seat: int) -> Action:
        """What the computer player of ``seat`` decides now, from that seat's view (raises
        whatever the computer player raises)."""

    def undo_to(self, state_id: int, *, seat: int) -> None:
        """Move to ``state_id`` of the timeline: back as the undo policy allows ``seat``
        (else ``StoreError`` saying why), or forward along the redo branch."""

    def redo(self) -> None: ...

    def can_redo(self) -> bool: ...

    def timeline(self, seat: int) -> list[TimelineItem]: ...

    def seat_of(self, state_id: int) -> int:
        """The seat that decided the decision leading to ``state_id`` (-1 for the start)."""

    # -- flows (timeline, King's turn) --
    @property
    def undo_policy(self) -> str:
        """The undo policy's name: "practice" (anything) or "strict" (see store.StrictPolicy)."""

    def view_at(self, state_id: int, seat: int) -> View:
        """A seat's view of an earlier point of the timeline."""

    def save(self, path: Path | str) -> Path: ...

    def autosave(self) -> Path: ...

    def subscribe(self, listener: Listener) -> Callable[[], None]: ...


class LocalGame:
    """A ``GameClient`` over a Store in this process."""

    def __init__(self, store: Store, *, save_dir: Path | str | None = None) -> None:
        self.store = store
        self.save_dir = save_dir
        self._bots: dict[int, Bot] = {}  # made on their first decision, each keeping its own RNG

    @property
    def config(self) -> GameConfig:
        return self.store.initial.state.config

    @property
    def state_id(self) -> int:
        return self.store.state_id

    @property
    def revision(self) -> int:
        return self.store.revision

    @property
    def last_id(self) -> int:
        return self.store.last_id

    def deciding_seat(self) -> int | None:
        d = self.store.state.decision
        return None if d is None else d.seat

    def view(self, seat: int) -> View:
        return player_view(self.store.state, seat)

    def facts(self, seat: int) -> Facts:
        return facts(player_view(self.store.state, seat))

    def view_at(self, state_id: int, seat: int) -> View:
        """A seat's view of an earlier point (the King's turn shown from where it began)."""
        return player_view(self.store.entry(state_id).state, seat)

    def events(self, since: int, seat: int) -> Update:
        now = self.store.state_id
        if now < since:
            return Update(now, (), True)
        return Update(now, tuple(self.store.events_since(since, seat)), False)

    def send(self, action: Action, *, seen_state_id: int, seat: int) -> None:
        self.store.dispatch(action, seen_state_id=seen_state_id, seat=seat)

    def bot_choice(self, seat: int) -> Action:
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = self.store.game.bot(self.config, seat)
        return bot.choose(self.view(seat))

    def undo_to(self, state_id: int, *, seat: int) -> None:
        self.store.jump(state_id, seat=seat)

    def redo(self) -> None:
        self.store.redo()

    def can_redo(self) -> bool:
        return self.store.can_redo()

    def timeline(self, seat: int) -> list[TimelineItem]:
        return self.store.timeline(viewer=seat)

    def seat_of(self, state_id: int) -> int:
        return self.store.entry(state_id).seat

    @property
    def undo_policy(self) -> str:  # flows: the timeline explains refusals by the policy
        return self.store.policy.name

    def save(self, path: Path | str) -> Path:
        return saves.save(self.store, path)

    def autosave(self) -> Path:
        return saves.autosave(self.store, self.save_dir)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self.store.subscribe(lambda _store: listener())


__all__ = ["GameClient", "LocalGame", "StoreError", "Update"]
