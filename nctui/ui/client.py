"""The one small interface between the UI and a game, of any game of the registry.

Widgets and screens never touch the Store or the full state: they ask a ``GameClient`` for a
seat's view, its facts (what the rules say about the view: area control, the score so far, …)
and the new events, and send actions with the state id they saw. Views, facts, events and
actions are the game's own types (``Any`` here: the game's screen knows them). A ``Session``
(``nctui.platform.session``) implements it in this process (hot-seat and solo at one keyboard:
computer players decide on a worker thread, autosave off the key-press path: the UI runs no bot
and no rule); a game on a server (``nctui.platform.net.client.RemoteGame``) implements the same
protocol over a connection, for one seat (``seat``), and the screens don't change.

Which seat decides, the seats' kinds and the timeline's summaries are public; hands, decks and
the RNG are only ever seen through a seat's view.

Also here, what the UI and a game's screens agree on besides: how a New game screen ends
(``NewGameMode``) and how a refusal that came later (from a server) reaches the game's screen
(``RefusedLater``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, Protocol

from textual.message import Message

from nctui.platform.game import SeatKind, SeatPresence
from nctui.platform.session import Session, SessionError, Update
from nctui.platform.store import StoreError, TimelineItem

Listener = Callable[[], None]

# How a game's New game screen (its registry entry's ``new_game``, called with the mode) ends:
# "play" starts the game here; "room" dismisses the screen with the configuration (the lobby of
# a server makes a room of it), the seed left to the server.
NewGameMode = Literal["play", "room"]


class RefusedLater(Message):
    """The game refused a decision after ``send`` had returned (a server's answer comes later):
    posted to the game's screen, which says it as it says a refusal ``send`` raises (a screen
    that does not handle it leaves it to the app). ``rule`` and ``section``: what the game's
    refusal names (``platform.game.RuleRefusal``), or ''."""

    def __init__(self, reason: str, *, rule: str = "", section: str = "") -> None:
        self.reason, self.rule, self.section = reason, rule, section
        super().__init__()


class GameClient(Protocol):
    """A game as the UI sees it. Listeners may be called from another thread."""

    @property
    def config(self) -> Any:
        """The game's configuration (a game on a server: its seed 0)."""

    @property
    def state_id(self) -> int: ...

    @property
    def revision(self) -> int: ...

    @property
    def last_id(self) -> int:
        """The last state id of the timeline (beyond ``state_id`` when redo is possible)."""

    seat_kinds: tuple[SeatKind, ...]
    # A game on a server: who holds each seat and whether they are there (the host's, live); at
    # one keyboard empty (the players panels name the computer seats as they always did).
    presence: tuple[SeatPresence, ...]
    thinking: int | None  # the computer seat deciding now
    bot_error: str  # why a computer player stopped ('' when none did)
    autosave_error: str  # why the last autosave failed ('' when it worked)
    game_id: str
    autosave_path: Path | None

    @property
    def seat(self) -> int | None:
        """The one seat this terminal shows and decides for (a game on a server; SPECTATOR: it
        watches), or None: every person's seat at this keyboard (hot-seat, solo)."""

    @property
    def hotseat(self) -> bool: ...

    def is_computer(self, seat: int | None) -> bool: ...

    def deciding_seat(self) -> int | None:
        """The seat whose decision is due (None when none is: the game is over)."""

    def view(self, seat: int) -> Any: ...

    def view_at(self, state_id: int, seat: int) -> Any:
        """A seat's view of an earlier point of the timeline."""

    def facts_at(self, state_id: int, seat: int) -> Any:
        """What the rules said about ``view_at(state_id, seat)``."""

    def event_states(self, since: int) -> tuple[int, ...]:
        """For each event ``events(since, seat)`` returns, the state id it led to."""

    def facts(self, seat: int) -> Any:
        """What the rules say about ``seat``'s view (the game's ``facts``): the UI runs no rule."""

    def events(self, since: int, seat: int) -> Update:
        """The events after state ``since`` up to now, as ``seat`` may see them."""

    def send(self, action: Any, *, seen_state_id: int, seat: int) -> None:
        """Decide for ``seat``; raises the game's refusal (a ``ValueError`` naming the rule) or a
        ``StoreError`` (stale state, wrong seat). A game on a server queues it: its refusal comes
        later (``RefusedLater``)."""

    # -- undo ----------------------------------------------------------------------------------
    @property
    def undo_policy(self) -> str:
        """ "practice" (anything) or "strict" (see store.StrictPolicy)."""

    def undo(self, seat: int) -> None:
        """Back to before the last person's decision, as the policy allows ``seat``."""

    def redo(self) -> None: ...

    def can_redo(self) -> bool: ...

    def undo_to(self, state_id: int, *, seat: int) -> None:
        """Move to ``state_id`` of the timeline: back as the undo policy allows ``seat``
        (else ``StoreError`` saying why), or forward along the redo branch."""

    def timeline(self, seat: int) -> list[TimelineItem]: ...

    def seat_of(self, state_id: int) -> int:
        """The seat that decided the decision leading to ``state_id`` (-1 for the start)."""

    # -- hot-seat ------------------------------------------------------------------------------
    def handoff_to(self, viewer: int, *, first: bool = False) -> int | None: ...

    # -- saving --------------------------------------------------------------------------------
    def save(self, path: Path | str) -> Path: ...

    def save_position(self, path: Path | str, *, name: str = "") -> Path:
        """Save the position now as a scenario file; raises ``SaveError`` or ``SessionError``."""

    def advise(self, seat: int) -> list[str]:
        """The practice hint for ``seat``'s decision, in words (slow: call it off the UI thread)."""

    def flush(self) -> Path:
        """Write the autosave now; raises ``SaveError`` saying why it could not."""

    def subscribe(self, listener: Listener) -> Callable[[], None]: ...


__all__ = ["GameClient", "NewGameMode", "RefusedLater", "Session", "SessionError", "StoreError", "Update"]
