"""The app of a person connected to a game server: the lobby first, then the game of the room they
sit in or watch (the room's game's own screen, made a room's by ``lobby.remote_screen``: their
seat only), and back.

The app owns the ``HostLink`` (``net.client``). The link's reader thread posts ``HostNews`` to
the app (``post_message`` is thread-safe); the app, on its own thread, redraws the lobby, opens
the game once its first update arrived, says a refusal in one line (a stale decision is not
one: the host sends the game as it is now and the screen redraws), and on a lost connection
ends with a one-line message and exit code 1.

A person who returns (same identity) goes straight back to their seat: the first list of rooms
that shows a seat of theirs in an unfinished game joins it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from rich.text import Text
from textual.message import Message
from textual.screen import Screen

from nctui.platform.net import protocol as P, turns
from nctui.platform.net.client import HostError, HostLink, LinkNews, RemoteGame
from nctui.platform.net.turns import TurnClock
from nctui.platform.store import UndoRefused

from .app import NctuiApp
from .client import RefusedLater
from .screens.lobby import (
    LobbyScreen,
    NameScreen,
    RemoteScreen,
    my_seat,
    my_turn,
    notice_words,
    remote_screen,
    turn_rule_words,
)
from .screens.timeline import refusal_text

REQUEST_TITLES = {
    "act": "Not allowed",
    "undo": "Undo",
    "undo_to": "Undo",
    "redo": "Redo",
    "join": "Cannot join",
    "watch": "Cannot watch",
    "create": "Cannot create the room",
    "web_link": "Browser link",
    "close_room": "Cannot close the room",
    "skip_turn": "Cannot skip",
    "list_ratings": "Ratings",
    "show_page": "A person's page",
}


LOBBY = "lobby"  # the mode of the lobby after the name question (see LobbyApp.get_default_screen)
EARLY_WAIT = 0.3  # seconds the lobby's first frame waits for the host's rooms (``LobbyApp.connect_early``)


class HostNews(Message):
    """What the host said (posted from the link's reader thread)."""

    def __init__(self, news: LinkNews) -> None:
        self.news = news
        super().__init__()


class LobbyApp(NctuiApp):
    """The lobby and the games of one game server, for the person ``identity``. ``name``: the
    name they chose (None: ask, then ``remember(name)``)."""

    # Each person is a process of the server's: the rules, the help and the timeline made ahead
    # in each (and the rules drawn again at every decision of every game) cost the host ~3 MB and
    # a layout a person. They are made when first opened, then kept (and kept up to date) as at home.
    MAKE_SCREENS_AHEAD = False

    def __init__(
        self, socket_path: Path | str, identity: str, name: str | None, *, remember: Callable[[str], None] | None = None
    ) -> None:
        super().__init__(None)
        self.socket_path = socket_path
        self.identity = identity
        self.person = name
        self.remember = remember
        self.link: HostLink | None = None
        self.remote: RemoteGame | None = None  # the game of the room this person sits in or watches
        self._returned = False  # the first rooms were checked for this person's seat
        # connect_early: the link made on a thread of its own as the app starts, and what the
        # host said before the app ran (posted to it as it mounts)
        self._early_news: list[LinkNews] | None = []
        self._news_lock = threading.Lock()
        self._first_rooms = threading.Event()  # the host's first list of rooms came (or the link failed)
        self._connecting: threading.Thread | None = None
        self._early: HostLink | HostError | None = None

    def get_default_screen(self) -> Screen:
        # a person not yet named sees the question alone first: the lobby is composed after
        return LobbyScreen() if self.person else NameScreen(self.identity)

    def connect_early(self) -> None:
        """Connect to the host now, on a thread, while Textual starts (a person whose name is
        known): the lobby's first frame is drawn once, with their name and the rooms, instead of
        "connecting…" first and the lobby again as the host answered (``take_early_link``)."""
        if self.person and self._connecting is None:
            self._connecting = threading.Thread(
                target=self._link_early, args=(self.person,), name="nctui-connect", daemon=True
            )
            self._connecting.start()

    def _link_early(self, name: str) -> None:
        link = HostLink(self.socket_path, self.identity, name, listener=self._post_news)
        try:
            link.connect()
        except HostError as exc:
            self._early = exc
            self._first_rooms.set()
            return
        self._early = link
        link.list_rooms()

    def take_early_link(self) -> None:
        """The link ``connect_early`` made, once the host listed its rooms (waiting for them up to
        ``EARLY_WAIT``): this person's lobby from its first frame (else it says "connecting…")."""
        if self._connecting is not None and self.link is None:
            self._first_rooms.wait(EARLY_WAIT)
            if isinstance(self._early, HostLink) and not self._early.lost:
                self.link = self._early

    def on_mount(self) -> None:
        with self._news_lock:  # what the host said before the app ran, in its order, then the rest
            early, self._early_news = self._early_news or [], None
            for news in early:
                self.post_message(HostNews(news))
        if not self.person:
            return
        if self._connecting is None:  # after the first frame: the lobby says "connecting…" meanwhile
            self.call_after_refresh(self._connect, self.person)
            return
        self.take_early_link()
        if self.link is None:  # not connected yet (or it failed): said once the thread is done
            self.run_worker(self._early_done, thread=True, name="connect", exit_on_error=False)

    def _early_done(self) -> None:
        assert self._connecting is not None
        self._connecting.join()
        found = self._early
        if isinstance(found, HostLink):
            self.call_from_thread(self._connected, found, listed=True)
        else:
            self.call_from_thread(self.exit, return_code=1, message=f"nctui: {found}")

    def on_name_screen_chosen(self, message: NameScreen.Chosen) -> None:
        self.person = message.name
        if self.remember is not None:
            self.remember(message.name)
        # the lobby as its own mode: the question's screen is the default one and cannot be switched
        self.add_mode(LOBBY, LobbyScreen)
        self.switch_mode(LOBBY)
        self._connect(message.name)

    def _connect(self, name: str) -> None:
        """Connect on a worker thread: the screen stays live while the host answers."""
        self.run_worker(lambda: self._connect_now(name), thread=True, name="connect", exit_on_error=False)

    def _connect_now(self, name: str) -> None:
        link = HostLink(self.socket_path, self.identity, name, listener=self._post_news)
        try:
            link.connect()
        except HostError as exc:
            self.call_from_thread(self.exit, return_code=1, message=f"nctui: {exc}")
            return
        self.call_from_thread(self._connected, link)

    def _connected(self, link: HostLink, *, listed: bool = False) -> None:
        self.link = link
        if link.lost:  # gone before this thread heard of it: its news was not for us yet
            self.exit(return_code=1, message=f"nctui: lost the connection to the game host: {link.lost}")
            return
        if not listed:
            link.list_rooms()
        self._lobby().show_rooms()

    def _post_news(self, news: LinkNews) -> None:
        if news is None or isinstance(news, P.Rooms):
            self._first_rooms.set()
        with self._news_lock:
            if self._early_news is not None:  # the app has not mounted yet
                self._early_news.append(news)
                return
        self.post_message(HostNews(news))

    def on_unmount(self) -> None:
        if self.link is not None:
            self.link.close()

    def _lobby(self) -> LobbyScreen:
        screen = self.screen_stack[0]
        assert isinstance(screen, LobbyScreen)
        return screen

    # -- the host's news -----------------------------------------------------------------------

    def on_host_news(self, message: HostNews) -> None:
        news, link = message.news, self.link
        if link is None or not self.screen_stack or self._exit:
            return  # news that arrived while the app closes
        if news is None or isinstance(news, P.Bye):
            reason = news.reason if isinstance(news, P.Bye) else link.lost
            self.exit(return_code=1, message=f"nctui: lost the connection to the game host: {reason}")
        elif isinstance(news, RemoteGame):
            self._open(news)
        elif isinstance(news, P.Rooms):
            self._lobby().show_rooms()
            self._return_to_seat(news.rooms)
        elif isinstance(news, P.RoomClosed):
            self.remote = None
            self._to_lobby()
            if news.moved:
                self.notify(f"{news.name} is run by another host now: join it again from the lobby.", timeout=10)
            else:
                self.notify(f"{news.name} was closed by the person who made it.", title="Room closed", timeout=10)
        elif isinstance(news, P.TurnNotice):
            self._turn_notice(news)
        elif isinstance(news, P.WebLinkMade):
            self._lobby().show_link(news)
        elif isinstance(news, P.RatingsTable | P.PersonPage):
            from .screens.ratings import PageScreen, RatingsScreen

            me = link.identity
            self.push_screen(RatingsScreen(news, me) if isinstance(news, P.RatingsTable) else PageScreen(news, me))
        elif isinstance(news, P.Refused) and not news.stale:
            self._refused(news)

    def _turn_notice(self, notice: P.TurnNotice) -> None:
        """A turn-based room's news, wherever this person is (the lobby, a game): the lobby's
        status line, a notice, and the bell for their own turn where they allow it."""
        link = self.link
        me = link.identity if link is not None else self.identity
        room = next((r for r in link.rooms if r.id == notice.room), None) if link is not None else None
        mine = notice.what == "your_turn" or (
            room is not None and 0 <= notice.seat < len(room.seats) and room.seats[notice.seat].identity == me
        )
        text = notice_words(notice, mine)
        self._lobby().show_notice(Text(text, style="bold" if mine else ""))
        self.notify(text, title="Your turn" if notice.what == "your_turn" else "Turn-based game", timeout=10)
        if mine and link is not None and link.prefs.bell:
            self.bell()
        if isinstance(self.screen, LobbyScreen):
            self._lobby().action_refresh()

    def toggle_bell(self) -> None:
        """The bell for this person's turn, on or off (the host keeps the setting)."""
        link = self.link
        if link is None:
            return
        link.set_prefs(msgspec.structs.replace(link.prefs, bell=not link.prefs.bell))
        said = "rings when a turn-based game says it is your turn" if link.prefs.bell else "stays silent"
        self.notify(f"The terminal bell {said}.", title="Bell")

    def skip_turn(self, room: str) -> None:
        """Skip the late seat's turn in ``room`` (a computer plays it)."""
        if self.link is not None:
            self.link.send(P.SkipTurn(room=room))

    def _refused(self, refused: P.Refused) -> None:
        """A request the host did not carry out, in one line (an undo with the policy's rule)."""
        game = next((s for s in reversed(self.screen_stack) if isinstance(s, RemoteScreen)), None)
        if refused.request == "act" and game is not None:
            # a refusal of a decision reads as in a game played here (the game's screen says it)
            game.post_message(RefusedLater(refused.reason, rule=refused.rule, section=refused.section))
            return
        title = REQUEST_TITLES.get(refused.request, "Refused")
        text = refused.reason[:1].upper() + refused.reason[1:]
        if refused.request in ("undo", "undo_to", "redo") and self.remote is not None and self.remote.replay:
            title = "Replay"  # watching from the start: a step that cannot be taken
        elif refused.request in ("undo", "undo_to", "redo") and self.remote is not None:
            text = refusal_text(UndoRefused(refused.reason), self.remote.undo_policy)
        self.notify(text, title=title, severity="warning", timeout=8)

    def _return_to_seat(self, rooms: tuple[P.RoomInfo, ...]) -> None:
        """The first rooms after connecting: a person who holds a seat goes back to it."""
        if self._returned:
            return
        self._returned = True
        waiting = [r.name for r in rooms if r.turn is not None and my_turn(r, self.identity)]
        if waiting:  # turn-based games that waited for this person meanwhile: said at once
            games = "1 game" if len(waiting) == 1 else f"{len(waiting)} games"
            self._lobby().show_notice(Text(f"Your turn in {games}: {', '.join(waiting)}.", style="bold"))
        mine = my_seat(rooms, self.identity)
        if mine is not None:
            room, seat = mine
            self.notify(f"Back to your seat in {room.name}.", title="Welcome back")
            self.join_seat(room.id, seat)

    def on_refused_later(self, message: RefusedLater) -> None:
        """A refused decision the game's screen did not say itself: the reason, and the rule and
        the rulebook section the game named."""
        where = f"Rulebook: {message.section}." if message.section else ""
        title = f"Not allowed: {message.rule}" if message.rule else "Not allowed"
        reason = message.reason[:1].upper() + message.reason[1:]
        self.notify("\n".join(line for line in (reason, where) if line), title=title, severity="warning", timeout=8)

    def _open(self, game: RemoteGame) -> None:
        self._to_lobby()
        self.remote = game
        self.push_screen(remote_screen(game))
        turn = game.room.turn
        if turn is not None and game.seat >= 0 and not game.replay:
            seat = game.room.seats[game.seat] if game.seat < len(game.room.seats) else None
            left = f" You have {turns.left_words(seat.left)} left." if seat is not None and seat.left >= 0 else ""
            self.notify(f"{turn_rule_words(turn)}{left}", title="Turn-based game", timeout=8)
        if game.replay:
            self.notify(
                f"Watching {game.room.name} from its start: u back, r forward, t any decision"
                + (", everything shown (the game is over)." if game.room.finished else "; live once you reach now."),
                title="Watching from the start",
                timeout=8,
            )
        elif game.seat < 0:
            self.notify(
                f"You are watching {game.room.name} as a spectator: no seat is yours. q goes back to the lobby.",
                title="Watching",
                timeout=8,
            )

    def _to_lobby(self) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()

    # -- requests ------------------------------------------------------------------------------

    def join_seat(self, room: str, seat: int) -> None:
        if self.link is not None:
            self.link.send(P.JoinSeat(room=room, seat=seat))

    def browser_link(self) -> None:
        """Ask the host for a personal link that logs a browser in as this person."""
        if self.link is not None:
            self.link.send(P.WebLink())

    def close_room(self, room: str) -> None:
        if self.link is not None:
            self.link.send(P.CloseRoom(room=room))

    def watch_room(self, room: str, *, from_start: bool = False, eyes: int = -1) -> None:
        """Watch ``room``; ``from_start``: step through it from its first decision (a finished
        game: everything shown, through ``eyes``' eyes)."""
        if self.link is not None:
            self.link.send(P.Watch(room=room, from_start=from_start, eyes=eyes))

    def show_ratings(self, game: str) -> None:
        """The host's players of ``game``, best first (the host answers: ``RatingsScreen``)."""
        if self.link is not None:
            self.link.send(P.ListRatings(game=game))

    def show_page(self, identity: str = "") -> None:
        """A person's page ('' this person's own; the host answers: ``PageScreen``)."""
        if self.link is not None:
            self.link.send(P.ShowPage(identity=identity))

    def create_room(
        self, config: Any, name: str, handover_after: float, turn: TurnClock | None = None, *, rated: bool = True
    ) -> None:
        """A room of ``config``'s game (its seed is left out: the host draws one); ``turn``: a
        turn-based room's clock; ``rated``: its result moves its people's ratings."""
        if self.link is not None:
            self.link.send(P.create_room(config, name=name, handover_after=handover_after, turn=turn, rated=rated))

    def give_up_seat(self) -> None:
        """Leave the seat for good (the host frees it) and go back to the lobby."""
        self.remote = None
        self._to_lobby()
        if self.link is not None:
            self.link.send(P.GiveUp())

    def leave_room(self) -> None:
        """Back to the lobby; the seat stays this person's."""
        self.remote = None
        self._to_lobby()
        if self.link is not None:
            self.link.leave()

    def new_game(self, config: Any = None, *, seed: int | None = None) -> None:
        """After a game (its game over screen's n): a new room of the same game."""
        game = self.remote.game.id if self.remote is not None else None
        self.leave_room()
        self._lobby().action_new_room(game)
