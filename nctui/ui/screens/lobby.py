"""The lobby of a game server, and the screens around it: the person's name (asked the first
time), the rooms of every game with their players, who is connected and how far each game is; a
new room (``NewRoomScreen``: which game, the room's name and the hand-over-to-computer timeout,
then that game's own New game screen in its "room" mode); a room's seats (join a free one, return
to one's own, or watch as a spectator); and the game of a room, played with its game's own screen
(the registry's ``screen``, over the ``RemoteGame`` that shows only this person's seat) made a
room's screen by ``RemoteScreen``: q goes back to the lobby, G gives the seat up.

The screens read what the host last said from the app's ``HostLink`` (``link.rooms``) and send
requests through it; the answers come back as messages to the app (``LobbyApp``), which redraws
the lobby or opens the game. Keyboard only; fits 80x24.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, cast

import msgspec
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from nctui.platform import registry
from nctui.platform.net import turns
from nctui.platform.net.client import RemoteGame
from nctui.platform.net.protocol import RoomInfo, SeatInfo, TurnNotice, WebLinkMade
from nctui.platform.net.turns import DAY, HOUR, TurnClock

from ..textual_ext.placed import ComesUpOnce, MeasuredOptions, PlacedStatic
from ..widgets.decision import DIGIT, HINT
from .load import ConfirmScreen

if TYPE_CHECKING:
    from ..lobby_app import LobbyApp

# How long a person may stay away before a computer plays their seat (the room's creator sets it).
HANDOVER = (
    ("0", "Never"),
    ("60", "After 1 minute"),
    ("300", "After 5 minutes"),
    ("900", "After 15 minutes"),
    ("3600", "After 1 hour"),
)
HANDOVER_DEFAULT = "300"
# Live, or turn-based with a clock (issue 40): a time per move, or a total per player.
PACES: tuple[tuple[TurnClock | None, str], ...] = (
    (None, "Live: everyone plays at once"),
    *(
        (TurnClock(pace="move", seconds=s), f"Turn-based, {turns.describe(TurnClock(seconds=s))}")
        for s in (HOUR, 12 * HOUR, DAY, 3 * DAY, 7 * DAY)
    ),
    *(
        (TurnClock(pace="total", seconds=s), f"Turn-based, {turns.duration(s)} in all per player")
        for s in (3 * DAY, 7 * DAY, 21 * DAY)
    ),
)
ON_TIMEOUT = (("computer", "a computer plays the turn"), ("skip", "the others may skip the turn"))
POLL = 2.0  # seconds between two looks at the rooms while the lobby is shown


def game_title(game_id: str) -> str:
    """A room's game as the lobby names it (the id itself for a game this nctui does not have)."""
    found = registry.entry_named(game_id)
    return found.title if found is not None else game_id


def short_identity(identity: str) -> str:
    """A key's fingerprint in a few characters: 'SHA256:AbCdEfGh…'."""
    return identity if len(identity) <= 16 else f"{identity[:15]}…"


def seat_words(seat: int, info: SeatInfo, me: str, room: RoomInfo | None = None) -> Text:
    """One seat of a room in words: its name as the game calls it, who holds it, whether they
    are connected; in a turn-based room (``room``) the time its clock has left."""
    text = Text(f"{seat + 1} ", style="bold")
    text.append_text(_seat_who(seat, info, me, live=room is None or room.turn is None))
    if room is not None and room.turn is not None and info.left >= 0 and info.holder and not room.finished:
        if room.deciding == seat:
            late = room.expired or info.left <= 0
            text.append(f" to play, {turns.left_words(info.left)}" + ("" if late else " left"), style="bold")
        elif room.turn.pace == "total":
            text.append(f" {turns.left_words(info.left)} left", style=HINT)
    return text


def _seat_who(seat: int, info: SeatInfo, me: str, *, live: bool) -> Text:
    """Who holds a seat (``live``: for how long they have been away; in a turn-based room people
    are away most of the time, and it says nothing)."""
    text = Text()
    label = info.label
    if info.kind == "automa":
        return text.append(f"the {label.name}" if label is not None else "the game's own", style=HINT)
    if label is not None and label.letter != str(seat + 1):  # "Player 2" (letter "2") says no more than "2"
        text.append(f"{label.name} ", style=Style(color=label.colour, bold=True))
    if info.holder:
        text.append("● " if info.connected else "○ ", style="green" if info.connected else HINT)
        text.append(info.holder + (" (you)" if info.identity == me else ""))
        if info.rating:
            text.append(f" {round(info.rating)}", style=HINT)  # their rating of the room's game
        if not info.connected and info.away >= 60 and live:
            text.append(f" away {_duration(info.away)}", style=HINT)
        if info.kind == "bot":
            text.append(" (computer meanwhile)", style=HINT)
        return text
    if info.open and info.kind == "bot":  # given up in a room that hands away seats
        return text.append("free (computer meanwhile)", style=HINT)
    return text.append("computer" if info.kind == "bot" else "free", style=HINT)


def room_heading(room: RoomInfo) -> Text:
    """A room's name, game, mode and progress, on one line (a turn-based room: its clock)."""
    head = Text.assemble(
        (room.name, "bold"), "  ", (game_title(room.game), "bold"), f" · {room.mode} · {room.progress}"
    )
    if room.turn is not None:
        head.append(f" · turn-based, {turns.describe(room.turn)}", style=HINT)
    return head


def my_turn(room: RoomInfo, me: str) -> bool:
    """Whether it is ``me``'s decision in ``room`` (a game going on)."""
    return not room.finished and 0 <= room.deciding < len(room.seats) and room.seats[room.deciding].identity == me


def mine(room: RoomInfo, me: str) -> bool:
    return any(s.identity == me for s in room.seats)


def lobby_order(rooms: tuple[RoomInfo, ...], me: str) -> tuple[RoomInfo, ...]:
    """The lobby's order for ``me``: their games first, those where it is their turn on top
    (the least time left first), then the other rooms, each group as the host listed it."""

    def key(item: tuple[int, RoomInfo]) -> tuple[int, float, int]:
        index, room = item
        if my_turn(room, me):
            left = room.seats[room.deciding].left
            return (0, left if left >= 0 else float("inf"), index)
        return (1 if mine(room, me) and not room.finished else 2, 0.0, index)

    return tuple(room for _, room in sorted(enumerate(rooms), key=key))


def room_words(room: RoomInfo, me: str) -> Text:
    """A room on two lines: its name, game, mode and progress; its seats and spectators."""
    head = room_heading(room)
    if my_turn(room, me) and room.turn is not None:
        head = Text("▶ your turn  ", style="bold reverse").append_text(head)
    if room.finished:
        head.append(" · over", style=HINT)
    if room.rated and sum(1 for s in room.seats if s.holder or s.open or s.kind == "human") >= 2:
        head.append(" · rated", style=HINT)
    seats = Text("   ")
    for i, seat in enumerate(room.seats):
        if i:
            seats.append(" · ")
        seats.append_text(seat_words(i, seat, me, room))
    if room.spectators:
        seats.append(f" · {room.spectators} watching", style=HINT)
    return head.append("\n").append_text(seats)


def notice_words(notice: TurnNotice, me_seat: bool) -> str:
    """A turn-based room's news in one sentence (``me_seat``: the seat is the reader's own)."""
    where = f"in {notice.room_name}"
    if notice.what == "your_turn":
        return f"Your turn {where}: {turns.left_words(notice.left)} left."
    if notice.what == "skipped":
        whose = "your" if me_seat else f"{notice.seat_name}'s"
        return f"{notice.by} skipped {whose} turn {where}: a computer plays it."
    if notice.rule == "computer":
        owner = "Your" if me_seat else f"{notice.seat_name}'s"
        return f"{owner} clock ran out {where}: a computer plays the turn."
    if me_seat:
        return f"Your clock ran out {where}: the others may skip your turn (a computer would play it)."
    return f"{notice.seat_name}'s clock ran out {where}: s in the lobby skips the turn (a computer plays it)."


def turn_rule_words(turn: TurnClock) -> str:
    """A turn-based room's clock and its rule, in one sentence."""
    clock = (
        f"{turns.duration(turn.seconds)} for each move"
        if turn.pace == "move"
        else (f"{turns.duration(turn.seconds)} for each player's whole game")
    )
    then = "a computer plays the turn" if turn.on_timeout == "computer" else "the others may skip the turn (s)"
    return f"Turn-based: {clock}; when a clock runs out, {then}. Play when you can."


def my_seat(rooms: tuple[RoomInfo, ...], identity: str) -> tuple[RoomInfo, int] | None:
    """The seat ``identity`` holds in an unfinished live room (where a returning person goes
    back; turn-based games, many at once, wait in the lobby's list)."""
    for room in rooms:
        if room.turn is not None:
            continue
        for i, seat in enumerate(room.seats):
            if seat.identity == identity and not room.finished:
                return room, i
    return None


class NameScreen(ComesUpOnce, Screen[None]):
    """The first time: the name others will see beside this person's key. It is the first screen
    of a person not yet named (the lobby comes after), so the first frame is the question itself."""

    DEFAULT_CSS = """
    NameScreen { align: center middle; }
    NameScreen #name-question { width: 60; height: auto; padding: 0 1; }
    NameScreen Input { width: 60; }
    """

    class Chosen(Message):
        """The person chose ``name``."""

        def __init__(self, name: str) -> None:
            self.name = name
            super().__init__()

    def __init__(self, identity: str) -> None:
        super().__init__()
        self.identity = identity

    def compose(self) -> ComposeResult:
        # one text and the field: the fewer widgets, the sooner a person connecting sees the question
        yield Static(
            Text.assemble(
                ("Welcome. ", "bold"),
                f"Your key: {short_identity(self.identity)}\n",
                "What name should the other players see? (Enter)",
            ),
            id="name-question",
        )
        yield Input(max_length=40, placeholder="your name", id="name")

    def on_mount(self) -> None:
        # the field takes the keys at once, whether or not the terminal or browser tab has told
        # the app it has the focus yet (auto focus waits for that)
        self.query_one(Input).focus()

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        name = message.value.strip()
        if not name:
            self.notify("Type a name (any name; others see it in the lobby).", severity="warning")
            return
        self.post_message(self.Chosen(name))


LOBBY_KEYS = (
    (
        ("↑↓", "rooms"),
        ("Enter", "seats"),
        ("n", "new room"),
        ("w", "watch"),
        ("W", "watch from the start"),
        ("f", "finished"),
    ),
    (("g", "ratings"), ("p", "your page"), ("s", "skip late turn"), ("c", "close your room"), ("b", "browser link")),
    (("a", "bell"), ("r", "refresh"), ("q", "quit"), ("^p", "keys")),
)


def lobby_keys() -> Text:
    """The lobby's keys, every one, in two lines (the lobby's footer: text is drawn at once, where
    a Footer of key widgets would cost a connecting person's first frame a sixth of its time)."""
    text = Text()
    for row, keys in enumerate(LOBBY_KEYS):
        if row:
            text.append("\n")
        for i, (key, does) in enumerate(keys):
            text.append("  " if i else "", style=HINT)
            text.append(key, style="bold")
            text.append(f" {does}", style=HINT)
    return text


class RoomList(MeasuredOptions, OptionList):
    """The lobby's rooms, measured by the layout that places it: drawn whole in the lobby's first
    frame (a plain OptionList drew its lines a frame later)."""


class LobbyScreen(ComesUpOnce, Screen[None]):
    """The rooms of the server: Enter opens a room's seats, n a new room, w watches."""

    DEFAULT_CSS = """
    LobbyScreen #lobby-title { background: $panel; padding: 0 1; text-style: bold; width: 100%; }
    LobbyScreen #rooms { height: 1fr; border: round $accent; padding: 0 1; scrollbar-gutter: stable; }
    LobbyScreen #rooms:focus { border: round $accent; }
    LobbyScreen #lobby-hint { padding: 0 1; }
    LobbyScreen #lobby-status { padding: 0 1; height: auto; max-height: 2; }
    """
    BINDINGS = [
        Binding("n", "new_room", "New room", id="lobby.new"),
        Binding("enter", "open_room", "Seats", show=False, id="lobby.open"),
        Binding("w", "watch", "Watch", id="lobby.watch"),
        Binding("W", "watch_from_start", "Watch from the start", key_display="W", id="lobby.watch-start"),
        Binding("g", "ratings", "Ratings", id="lobby.ratings"),
        Binding("p", "page", "Your page", id="lobby.page"),
        Binding("r", "refresh", "Refresh", id="lobby.refresh"),
        Binding("b", "browser_link", "Browser link", id="lobby.browser"),
        Binding("c", "close_room", "Close room", id="lobby.close"),
        Binding("f", "finished", "Finished games", id="lobby.finished"),
        Binding("s", "skip_turn", "Skip a late turn", id="lobby.skip"),
        Binding("a", "bell", "Bell for your turn", id="lobby.bell"),
        Binding("j", "move(1)", "Down", show=False, id="lobby.down"),
        Binding("k", "move(-1)", "Up", show=False, id="lobby.up"),
        Binding("q", "quit", "Quit", id="lobby.quit"),
    ]
    AUTO_FOCUS = "#rooms"

    def __init__(self) -> None:
        super().__init__()
        self.shown: tuple[RoomInfo, ...] = ()
        self.select_new = False  # the next list with a new room highlights it and opens its seats
        self.finished = False  # showing the list of finished games
        self.title_shown = Text()

    @property
    def lobby_app(self) -> LobbyApp:
        return cast("LobbyApp", self.app)

    def compose(self) -> ComposeResult:
        self.lobby_app.take_early_link()  # connected as the app started: the name and the rooms at once
        self.title_shown = self._who()
        # placed once (PlacedStatic): a plain Static's new virtual size laid the lobby out again after its first frame
        yield PlacedStatic(self.title_shown, id="lobby-title")  # in the first frame already
        # the rooms the host listed already, in the first frame too (show_rooms keeps them)
        self.shown = self._rooms()
        yield RoomList(*self._options(self.shown), id="rooms")
        yield PlacedStatic("", id="lobby-status")  # the last turn-based news (whose turn, a clock run out)
        yield PlacedStatic(lobby_keys(), id="lobby-hint")

    def on_mount(self) -> None:
        self.set_interval(POLL, self._poll)
        menu = self.query_one("#rooms", OptionList)
        if self.shown and menu.highlighted is None:  # the rooms listed as it composed: the first highlighted
            menu.highlighted = 0
        self.show_rooms()

    def on_screen_resume(self) -> None:
        self.action_refresh()

    def _poll(self) -> None:
        if self.is_current and self.lobby_app.link is not None:
            self.lobby_app.link.list_rooms(finished=self.finished)

    def _who(self) -> Text:
        """The title: the lobby, and who this person is (once connected)."""
        link = self.lobby_app.link
        who = Text.assemble(("Lobby: finished games" if self.finished else "Lobby", "bold"), "  you: ")
        if link is not None:
            who.append(link.name, style="bold")
            who.append(f" ({short_identity(link.identity)})", style=HINT)
        else:
            who.append("connecting…", style=HINT)
        return who

    def show_who(self) -> None:
        """The title, when it changed: the same one again was drawn again, every 2 s for every
        person in the lobby (at 50 people, a fifth of a core)."""
        who = self._who()
        if who != self.title_shown:
            self.title_shown = who
            self.query_one("#lobby-title", Static).update(who)

    def show_rooms(self) -> None:
        """Draw the rooms the host last listed (keeping the highlighted one)."""
        if not self.is_mounted:
            return  # drawn when mounted
        self.show_who()
        rooms = self._rooms()
        menu = self.query_one("#rooms", OptionList)
        if rooms == self.shown and menu.option_count:
            return  # nothing changed since the last look: the list stays as it is (no flicker)
        before = {r.id for r in self.shown}
        current = self.current()
        self.shown = rooms
        menu.clear_options()
        menu.add_options(self._options(rooms))
        if not rooms:
            return
        fresh = [r for r in rooms if r.id not in before]
        target = fresh[-1] if self.select_new and fresh else current
        if target is not None:
            menu.highlighted = next((i for i, r in enumerate(rooms) if r.id == target.id), 0)
        else:
            menu.highlighted = 0
        if self.select_new and fresh:
            self.select_new = False
            self.action_open_room()

    def _rooms(self) -> tuple[RoomInfo, ...]:
        """The rooms the host last listed, in this person's order."""
        link = self.lobby_app.link
        return lobby_order(link.rooms, link.identity) if link is not None else ()

    def _options(self, rooms: tuple[RoomInfo, ...]) -> list[Option]:
        """The list's lines for ``rooms`` (a line saying there are none)."""
        if not rooms:
            empty = "No finished games yet: f goes back." if self.finished else "No rooms yet: press n to create one."
            return [Option(Text(empty, style=HINT), id="-", disabled=True)]
        link = self.lobby_app.link
        me = link.identity if link is not None else ""
        return [Option(room_words(r, me), id=r.id) for r in rooms]

    def current(self) -> RoomInfo | None:
        menu = self.query_one("#rooms", OptionList)
        index = menu.highlighted
        if index is None or not self.shown or index >= len(self.shown):
            return None
        return self.shown[index]

    # -- keys -----------------------------------------------------------------------------------

    def action_move(self, delta: int) -> None:
        menu = self.query_one("#rooms", OptionList)
        (menu.action_cursor_down if delta > 0 else menu.action_cursor_up)()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.action_open_room()

    def action_refresh(self) -> None:
        if self.lobby_app.link is not None:
            self.lobby_app.link.list_rooms(finished=self.finished)

    def action_finished(self) -> None:
        """f: the list of finished games, and back (a finished room leaves the main list an hour
        after its end)."""
        self.finished = not self.finished
        self.shown = ()
        self.show_who()
        self.action_refresh()

    def action_quit(self) -> None:
        """q: leave the server, after a yes (the seats stay this person's)."""
        self.app.push_screen(
            ConfirmScreen("Leave the server? Your seats stay yours: connect again to go back to them."),
            lambda yes: self.app.exit() if yes else None,
        )

    def action_close_room(self) -> None:
        """c: close the highlighted room for good (its creator only), after a yes: the people in it
        go back to the lobby, told so."""
        room = self.current()
        link = self.lobby_app.link
        if room is None or link is None:
            self.notify("No room chosen.", severity="warning")
            return
        if room.creator != link.identity:
            self.notify("Only the person who made a room can close it.", title="Close room", severity="warning")
            return
        seated = [s.holder for s in room.seats if s.holder and s.identity != link.identity]
        told = f" {', '.join(seated)} will be sent back to the lobby." if seated else ""
        question = f"Close {room.name} for good? Its game is gone for everyone.{told}"
        self.app.push_screen(ConfirmScreen(question), lambda yes: self.lobby_app.close_room(room.id) if yes else None)

    def action_new_room(self, game: str | None = None) -> None:
        """A new room: which game and the room's settings, then the game's own New game screen."""
        self.app.push_screen(NewRoomScreen(game), self._planned)

    def _planned(self, plan: RoomPlan | None) -> None:
        if plan is None:
            return
        screen = registry.load(registry.entry(plan.game).new_game)(mode="room")
        self.app.push_screen(screen, lambda config: self._configured(plan, config))

    def _configured(self, plan: RoomPlan, config: Any) -> None:
        """The game's New game screen gave its configuration (None: left with Escape)."""
        if config is None:
            return
        self.select_new = True
        self.lobby_app.create_room(config, plan.name, plan.handover_after, plan.turn, rated=plan.rated)

    def action_open_room(self) -> None:
        room = self.current()
        if room is None:
            self.notify("No room chosen: n creates one.", severity="warning")
            return
        if self.finished:  # the list of finished games: watch one again
            self.lobby_app.watch_room(room.id, from_start=True, eyes=self._my_seat(room))
            return
        me = self.lobby_app.link.identity if self.lobby_app.link is not None else ""
        self.app.push_screen(SeatScreen(room, me), lambda choice: self._seat_chosen(room.id, choice))

    def _seat_chosen(self, room: str, choice: str | None) -> None:
        """The room whose seats were shown (the list may have changed meanwhile)."""
        if choice == "watch":
            self.lobby_app.watch_room(room)
        elif choice == "from_start":
            info = next((r for r in self.shown if r.id == room), None)
            self.lobby_app.watch_room(room, from_start=True, eyes=self._my_seat(info) if info is not None else -1)
        elif choice is not None:
            self.lobby_app.join_seat(room, int(choice))

    def action_skip_turn(self) -> None:
        """s: skip the turn of the late seat in the highlighted room (a turn-based room whose
        clock ran out and whose rule lets the others skip it): a computer plays it."""
        room = self.current()
        if room is None or room.turn is None:
            self.notify("Choose a turn-based room whose player's clock ran out.", title="Skip", severity="warning")
            return
        if not room.expired:
            self.notify("Nobody's clock has run out in this room.", title="Skip", severity="warning")
            return
        self.lobby_app.skip_turn(room.id)

    def action_bell(self) -> None:
        """a: the terminal bell when a turn-based game says it is your turn, on or off (kept by the server)."""
        self.lobby_app.toggle_bell()

    def show_notice(self, text: Text) -> None:
        """The status line: the last turn-based news."""
        if self.is_mounted:
            self.query_one("#lobby-status", Static).update(text)

    def action_browser_link(self) -> None:
        """b: a personal link for this person's browser (the web front logs it in as them)."""
        self.lobby_app.browser_link()

    def show_link(self, made: WebLinkMade) -> None:
        url = made.url if not made.url.startswith("/") else f"(this server's web address){made.url}"
        self.app.push_screen(LinkScreen(url, made.minutes))

    def action_watch(self) -> None:
        room = self.current()
        if room is None:
            self.notify("No room to watch yet.", severity="warning")
            return
        self.lobby_app.watch_room(room.id)

    def action_watch_from_start(self) -> None:
        """W: watch the room from its first decision (u back, r forward, up to now, then live); a
        finished game with everything shown, through this person's seat's eyes if they sat there."""
        room = self.current()
        if room is None:
            self.notify("No room to watch yet.", severity="warning")
            return
        self.lobby_app.watch_room(room.id, from_start=True, eyes=self._my_seat(room))

    def _my_seat(self, room: RoomInfo) -> int:
        me = self.lobby_app.link.identity if self.lobby_app.link is not None else ""
        return next((i for i, s in enumerate(room.seats) if s.identity == me and me), 0)

    def action_ratings(self) -> None:
        """g: the ratings of the highlighted room's game (or the first game) of this host's players."""
        room = self.current()
        self.lobby_app.show_ratings(room.game if room is not None else registry.GAME_IDS[0])

    def action_page(self) -> None:
        """p: this person's page: their ratings and finished games."""
        self.lobby_app.show_page()


class LinkScreen(ModalScreen[None]):
    """A personal link for the browser, shown whole (it may be wider than a notice)."""

    DEFAULT_CSS = """
    LinkScreen { align: center middle; }
    LinkScreen #link-box { width: 100%; max-width: 120; height: auto; border: round $accent; background: $surface;
                           padding: 0 1; }
    """
    BINDINGS = [Binding("escape,enter,b,q", "close", "Close", id="link.close")]

    def __init__(self, url: str, minutes: int) -> None:
        super().__init__()
        self.url, self.minutes = url, minutes

    def compose(self) -> ComposeResult:
        with Vertical(id="link-box"):
            yield Static(Text("Your browser link", style="bold"))
            yield Static(Text(self.url, overflow="fold"), id="link-url")
            yield Static(
                Text(
                    f"Open it in your browser within {self.minutes} minutes; it works once and logs that browser "
                    "in as you (your seats, your name). Keep it to yourself. Enter closes.",
                    style=HINT,
                )
            )

    def action_close(self) -> None:
        self.dismiss(None)


class SeatScreen(ModalScreen[str | None]):
    """A room's seats: join a free one, return to one's own, watch, or watch from the start.
    Dismissed with the seat number as text, "watch", "from_start", or None (Escape)."""

    DEFAULT_CSS = """
    SeatScreen { align: center middle; }
    SeatScreen #seat-box { width: 64; max-width: 100%; height: auto; border: round $accent; background: $surface;
                           padding: 0 1; }
    SeatScreen OptionList { height: auto; max-height: 10; border: none; padding: 0; }
    """
    BINDINGS = [
        Binding("escape,b", "cancel", "Back", id="seats.back"),
        Binding("w", "pick('watch')", "Watch", id="seats.watch"),
        Binding("W", "pick('from_start')", "Watch from the start", key_display="W", id="seats.from-start"),
    ]
    AUTO_FOCUS = "#seats"

    def __init__(self, room: RoomInfo, me: str) -> None:
        super().__init__()
        self.room, self.me = room, me

    def compose(self) -> ComposeResult:
        room = self.room
        options = []
        mine = any(s.identity == self.me for s in room.seats)
        for i, seat in enumerate(room.seats):
            text = seat_words(i, seat, self.me, room)
            if seat.identity == self.me:
                text.append(" — Enter returns to your seat", style=HINT)
                options.append(Option(text, id=str(i)))
            elif (seat.open or seat.kind == "human") and not seat.holder and not mine and not room.finished:
                text.append(" — Enter takes it", style=HINT)
                options.append(Option(text, id=str(i)))
            else:
                options.append(Option(text, id=str(i), disabled=True))
        options.append(Option(Text.assemble(("w ", DIGIT), "Watch as a spectator"), id="watch"))
        again = "Watch it again from the start, every hand shown" if room.finished else "Watch from the start"
        options.append(Option(Text.assemble(("W ", DIGIT), again), id="from_start"))
        with Vertical(id="seat-box"):
            yield Static(room_heading(room))
            if room.handover_after:
                yield Static(
                    Text(
                        f"A computer plays the seat of a person away for {_duration(room.handover_after)}.", style=HINT
                    )
                )
            if room.turn is not None:
                yield Static(Text(turn_rule_words(room.turn), style=HINT))
            yield OptionList(*options, id="seats")

    def on_mount(self) -> None:
        menu = self.query_one("#seats", OptionList)
        menu.highlighted = next((i for i in range(menu.option_count) if not menu.get_option_at_index(i).disabled), 0)

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.action_pick(message.option.id or "")

    def action_pick(self, choice: str) -> None:
        self.dismiss(choice)

    def action_cancel(self) -> None:
        self.dismiss(None)


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes >= 60 and minutes % 60 == 0:
        return f"{minutes // 60} hour" + ("s" if minutes > 60 else "")
    return f"{minutes} minute" + ("s" if minutes != 1 else "")


RATED = ("rated: the result moves each person's rating", "not rated: a friendly game")


class RoomPlan(NamedTuple):
    """A new room before its game's settings: which game, its name, its hand-over timeout, and
    a turn-based room's clock (None: live)."""

    game: str
    name: str
    handover_after: float
    turn: TurnClock | None = None
    rated: bool = True  # its result moves its people's ratings (two people or more)


class Cycle(Static, can_focus=True):
    """One setting on one line: ←/→ (or space) goes through its values ("◀ value ▶"); Enter is
    the screen's ``submit``."""

    DEFAULT_CSS = """
    Cycle { width: 1fr; height: 1; }
    Cycle:focus { background: $boost; text-style: bold; }
    """
    BINDINGS = [
        Binding("left", "turn(-1)", "Previous", show=False, id="cycle.previous"),
        Binding("right,space", "turn(1)", "Next", show=False, id="cycle.next"),
        Binding("enter", "screen.submit", "Go on", show=False, id="cycle.submit"),
    ]

    def __init__(self, words: tuple[str, ...], *, index: int = 0, id: str | None = None) -> None:
        super().__init__(id=id)
        self.words, self.index = words, index

    def on_mount(self) -> None:
        self._draw()

    def action_turn(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.words)
        self._draw()

    def _draw(self) -> None:
        self.update(Text.assemble(("◀ ", HINT), self.words[self.index], (" ▶", HINT)))


class NewRoomScreen(ModalScreen["RoomPlan | None"]):
    """A new room: its game (every game of the registry), its name, and when a computer takes the
    seat of a person who stayed away. Enter goes on to that game's own New game screen (its
    "room" mode); Escape goes back. Undo is always strict online (the host's policy)."""

    DEFAULT_CSS = """
    NewRoomScreen { align: center middle; }
    NewRoomScreen #room-box { width: 72; max-width: 100%; height: auto; border: round $accent; background: $surface;
                              padding: 0 1; }
    NewRoomScreen OptionList, NewRoomScreen OptionList:focus { height: auto; border: none; padding: 0 0 0 1; }
    NewRoomScreen OptionList:focus { background: $boost; }
    NewRoomScreen .field { height: auto; }
    NewRoomScreen .field Label { width: 18; }
    NewRoomScreen .field Input { width: 30; margin-right: 2; }
    NewRoomScreen .note { color: $text-muted; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Back", id="room.back"),
        Binding("down", "app.focus_next", "Next field", show=False, id="room.next-field"),
        Binding("up", "app.focus_previous", "Previous field", show=False, id="room.previous-field"),
    ]
    AUTO_FOCUS = "#room-game"

    def __init__(self, game: str | None = None) -> None:
        """``game``: the game chosen at first (the room just played, for another of the same)."""
        super().__init__()
        self.first = game

    def compose(self) -> ComposeResult:
        games = [
            Option(Text.assemble((f"{e.title:<26}", "bold"), (_players(e.players), HINT)), id=e.id)
            for e in registry.ENTRIES
        ]
        with Vertical(id="room-box"):
            yield Static(Text("New room on this server", style="bold"))
            yield Static(Text("Game (↑↓):", style=HINT))
            yield OptionList(*games, id="room-game")
            with Horizontal(classes="field"):
                yield Label("Room name")
                yield Input(max_length=40, placeholder="e.g. Friday game", compact=True, id="room-name")
                yield Static("shown in the lobby", classes="note")
            with Horizontal(classes="field"):
                yield Label("Play")
                yield Cycle(tuple(words for _, words in PACES), id="pace")
            with Horizontal(classes="field"):
                yield Label("Clock runs out")
                yield Cycle(tuple(words for _, words in ON_TIMEOUT), id="on-timeout")
            with Horizontal(classes="field"):
                yield Label("Ratings")
                yield Cycle(RATED, id="rated")
            yield Static(Text("Seat to computer (live: a person away for):", style=HINT))
            yield OptionList(*(Option(words, id=value) for value, words in HANDOVER), id="handover")
            yield Static(Text("Tab: next field · ←→ change · Enter: the game's settings · Esc: back", style=HINT))

    def on_mount(self) -> None:
        games = self.query_one("#room-game", OptionList)
        games.highlighted = next((i for i, e in enumerate(registry.ENTRIES) if e.id == self.first), 0)
        handover = self.query_one("#handover", OptionList)
        handover.highlighted = next(i for i, (value, _) in enumerate(HANDOVER) if value == HANDOVER_DEFAULT)

    def plan(self) -> RoomPlan:
        """The room the screen describes now."""
        games = self.query_one("#room-game", OptionList)
        handover = self.query_one("#handover", OptionList)
        turn = PACES[self.query_one("#pace", Cycle).index][0]
        if turn is not None:
            rule = ON_TIMEOUT[self.query_one("#on-timeout", Cycle).index][0]
            turn = msgspec.structs.replace(turn, on_timeout="skip" if rule == "skip" else "computer")
        return RoomPlan(
            game=registry.ENTRIES[games.highlighted or 0].id,
            name=self.query_one("#room-name", Input).value,
            handover_after=float(HANDOVER[handover.highlighted or 0][0]),
            turn=turn,
            rated=self.query_one("#rated", Cycle).index == 0,
        )

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.dismiss(self.plan())

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        self.dismiss(self.plan())

    def action_submit(self) -> None:
        """Enter on a ``Cycle`` (the lists and the name field say it themselves): on to the game."""
        self.dismiss(self.plan())

    def action_cancel(self) -> None:
        self.dismiss(None)


def _players(players: tuple[int, int]) -> str:
    low, high = players
    if low == high:
        return f"{low} players"
    return f"{low}-{high} players" if low > 1 else f"solo or 2-{high} players"


if TYPE_CHECKING:
    _ScreenMixin = Screen[Any]
else:  # a plain class: Textual takes a screen's CSS type names along its first DOM base only, so
    _ScreenMixin = object  # the game's screen, mixed in after this, keeps its CSS

# The keys a game's screen has in a room on a server, over its own (``remote_screen``).
REMOTE_BINDINGS = [
    Binding("q", "quit_game", "Lobby", id="game.quit"),
    Binding("G", "give_up_seat", "Give up seat", key_display="G", id="game.give-up"),
    Binding("o", "load", "Load", show=False, id="game.load"),
]


class RemoteScreen(_ScreenMixin):
    """A game's own screen in a room on a server (mixed in before it by ``remote_screen``): it
    shows this person's seat only (the ``RemoteGame``'s), q goes back to the lobby (the seat stays
    theirs), G gives the seat up for good, and nothing is loaded from this machine's saves."""

    QUIT_WORDS = "back to the lobby"

    @property
    def remote(self) -> RemoteGame:
        return cast(RemoteGame, cast(Any, self).game)

    def action_quit_game(self) -> None:
        cast("LobbyApp", self.app).leave_room()

    def action_load(self) -> None:
        self.notify("A game on a server is the server's: load your own games in nctui itself.", title="Load")

    def action_give_up_seat(self) -> None:
        """G: leave this seat for good (after a yes): another person may take it, or the computer
        plays it in a room that hands away seats. q keeps the seat yours."""
        if self.remote.seat < 0:
            self.notify("A spectator holds no seat.", title="Give up", severity="warning")
            return
        question = (
            f"Give up your seat in {self.remote.room.name} for good? Another person may take it (or the computer "
            "plays it, if the room hands away seats). q leaves the game and keeps the seat yours."
        )
        self.app.push_screen(ConfirmScreen(question), self._give_up)

    def _give_up(self, yes: bool | None) -> None:
        if yes:
            cast("LobbyApp", self.app).give_up_seat()


# The keys of a game watched from its start (``Watch.from_start``): u and r step through it.
REMOTE_REPLAY_BINDINGS = [
    Binding("u", "undo", "Back", id="game.undo"),
    Binding("r", "redo", "Forward", id="game.redo"),
    *REMOTE_BINDINGS,
]

_remote_classes: dict[tuple[type[Screen[Any]], bool], type[Screen[Any]]] = {}


def remote_screen(game: RemoteGame) -> Screen[Any]:
    """The screen that plays ``game`` (a room of any game): the game's own (its registry entry's
    ``screen``, a Screen class given the ``RemoteGame``), made a room's screen by ``RemoteScreen``
    (one class per game's screen, made the first time)."""
    base = registry.load(registry.entry(game.game.id).screen)
    made = _remote_classes.get((base, game.replay))
    if made is None:
        namespace = {"BINDINGS": REMOTE_REPLAY_BINDINGS if game.replay else REMOTE_BINDINGS, "__module__": __name__}
        name = f"Remote{'Replay' if game.replay else ''}{base.__name__}"
        made = _remote_classes[base, game.replay] = type(name, (RemoteScreen, base), namespace)
    return cast(Any, made)(game)
