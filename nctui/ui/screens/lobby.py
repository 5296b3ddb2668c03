"""The lobby of a game server, and the screens around it: the person's name (asked the first
time), the rooms with their players, who is connected and how far each game is; a new room with
the New game screen's settings plus its name and the hand-over-to-computer timeout; a room's
seats (join a free one, return to one's own, or watch as a spectator); and the game screen of a
room, which shows only this person's seat (``GameScreen(seat=…)``) and leaves back to the lobby.

The screens read what the host last said from the app's ``HostLink`` (``link.rooms``) and send
requests through it; the answers come back as messages to the app (``LobbyApp``), which redraws
the lobby or opens the game. Keyboard only; fits 80x24.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, cast

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from nctui.games.nightmare_cathedral.engine.config import COLOURS, GameConfig
from nctui.games.nightmare_cathedral.engine.errors import IllegalAction
from nctui.games.nightmare_cathedral.ui.screens.game import GameScreen
from nctui.games.nightmare_cathedral.ui.screens.new_game import Choice, NewGameScreen
from nctui.platform.net.protocol import RoomInfo, SeatInfo
from nctui.platform.session import UndoMode

from ..widgets.common import SEAT_COLOURS
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
POLL = 2.0  # seconds between two looks at the rooms while the lobby is shown


def short_identity(identity: str) -> str:
    """A key's fingerprint in a few characters: 'SHA256:AbCdEfGh…'."""
    return identity if len(identity) <= 16 else f"{identity[:15]}…"


def seat_words(seat: int, info: SeatInfo, me: str) -> Text:
    """One seat of a room in words: who holds it, whether they are connected."""
    text = Text(f"{seat + 1} ", style="bold")
    if info.kind != "automa" and seat < len(COLOURS):
        text.append(f"{COLOURS[seat].capitalize()} ", style=Style(color=SEAT_COLOURS.get(COLOURS[seat]), bold=True))
    if info.kind == "automa":
        return text.append("the King", style=HINT)
    if info.holder:
        text.append("● " if info.connected else "○ ", style="green" if info.connected else HINT)
        text.append(info.holder + (" (you)" if info.identity == me else ""))
        if info.kind == "bot":
            text.append(" (computer meanwhile)", style=HINT)
        return text
    if info.open and info.kind == "bot":  # given up in a room that hands away seats
        return text.append("free (computer meanwhile)", style=HINT)
    return text.append("computer" if info.kind == "bot" else "free", style=HINT)


def room_words(room: RoomInfo, me: str) -> Text:
    """A room on two lines: name, mode and progress; its seats and spectators."""
    head = Text.assemble((room.name, "bold"), f"  {room.mode} · {room.progress}")
    if room.finished:
        head.append(" · over", style=HINT)
    seats = Text("   ")
    for i, seat in enumerate(room.seats):
        if i:
            seats.append(" · ")
        seats.append_text(seat_words(i, seat, me))
    if room.spectators:
        seats.append(f" · {room.spectators} watching", style=HINT)
    return head.append("\n").append_text(seats)


def my_seat(rooms: tuple[RoomInfo, ...], identity: str) -> tuple[RoomInfo, int] | None:
    """The seat ``identity`` holds in an unfinished room (where a returning person goes back)."""
    for room in rooms:
        for i, seat in enumerate(room.seats):
            if seat.identity == identity and not room.finished:
                return room, i
    return None


class NameScreen(Screen[None]):
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
    ("↑↓", "rooms"),
    ("Enter", "seats"),
    ("n", "new room"),
    ("w", "watch"),
    ("r", "refresh"),
    ("q", "quit"),
    ("^p", "keys"),
)


def lobby_keys() -> Text:
    """The lobby's keys in one line (the lobby's footer: one line of text is drawn at once, where a
    Footer of key widgets would cost a connecting person's first frame a sixth of its time)."""
    line = Text()
    for i, (key, does) in enumerate(LOBBY_KEYS):
        line.append("  " if i else "", style=HINT)
        line.append(key, style="bold")
        line.append(f" {does}", style=HINT)
    return line


class LobbyScreen(Screen[None]):
    """The rooms of the server: Enter opens a room's seats, n a new room, w watches."""

    DEFAULT_CSS = """
    LobbyScreen #lobby-title { background: $panel; padding: 0 1; text-style: bold; width: 100%; }
    LobbyScreen #rooms { height: 1fr; border: round $accent; padding: 0 1; }
    LobbyScreen #rooms:focus { border: round $accent; }
    LobbyScreen #lobby-hint { padding: 0 1; }
    """
    BINDINGS = [
        Binding("n", "new_room", "New room", id="lobby.new"),
        Binding("enter", "open_room", "Seats", show=False, id="lobby.open"),
        Binding("w", "watch", "Watch", id="lobby.watch"),
        Binding("r", "refresh", "Refresh", id="lobby.refresh"),
        Binding("j", "move(1)", "Down", show=False, id="lobby.down"),
        Binding("k", "move(-1)", "Up", show=False, id="lobby.up"),
        Binding("q", "app.quit", "Quit", id="lobby.quit"),
    ]
    AUTO_FOCUS = "#rooms"

    def __init__(self) -> None:
        super().__init__()
        self.shown: tuple[RoomInfo, ...] = ()
        self.select_new = False  # the next list with a new room highlights it and opens its seats

    @property
    def lobby_app(self) -> LobbyApp:
        return cast("LobbyApp", self.app)

    def compose(self) -> ComposeResult:
        yield Static(self._who(), id="lobby-title")  # in the first frame already
        yield OptionList(id="rooms")
        yield Static(lobby_keys(), id="lobby-hint")

    def on_mount(self) -> None:
        self.set_interval(POLL, self._poll)
        self.show_rooms()

    def on_screen_resume(self) -> None:
        self.action_refresh()

    def _poll(self) -> None:
        if self.is_current and self.lobby_app.link is not None:
            self.lobby_app.link.list_rooms()

    def _who(self) -> Text:
        """The title: the lobby, and who this person is (once connected)."""
        link = self.lobby_app.link
        who = Text.assemble(("Lobby", "bold"), "  you: ")
        if link is not None:
            who.append(link.name, style="bold")
            who.append(f" ({short_identity(link.identity)})", style=HINT)
        else:
            who.append("connecting…", style=HINT)
        return who

    def show_rooms(self) -> None:
        """Draw the rooms the host last listed (keeping the highlighted one)."""
        if not self.is_mounted:
            return  # drawn when mounted
        app = self.lobby_app
        link = app.link
        self.query_one("#lobby-title", Static).update(self._who())
        rooms = link.rooms if link is not None else ()
        menu = self.query_one("#rooms", OptionList)
        if rooms == self.shown and menu.option_count:
            return  # nothing changed since the last look: the list stays as it is (no flicker)
        before = {r.id for r in self.shown}
        current = self.current()
        self.shown = rooms
        menu.clear_options()
        me = link.identity if link is not None else ""
        if not rooms:
            menu.add_option(Option(Text("No rooms yet: press n to create one.", style=HINT), id="-", disabled=True))
            return
        menu.add_options([Option(room_words(r, me), id=r.id) for r in rooms])
        fresh = [r for r in rooms if r.id not in before]
        target = fresh[-1] if self.select_new and fresh else current
        if target is not None:
            menu.highlighted = next((i for i, r in enumerate(rooms) if r.id == target.id), 0)
        else:
            menu.highlighted = 0
        if self.select_new and fresh:
            self.select_new = False
            self.action_open_room()

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
            self.lobby_app.link.list_rooms()

    def action_new_room(self) -> None:
        self.app.push_screen(CreateRoomScreen(None, self._create))

    def _create(self, config: GameConfig, name: str, handover_after: float) -> None:
        self.select_new = True
        self.lobby_app.create_room(config, name, handover_after)

    def action_open_room(self) -> None:
        room = self.current()
        if room is None:
            self.notify("No room chosen: n creates one.", severity="warning")
            return
        me = self.lobby_app.link.identity if self.lobby_app.link is not None else ""
        self.app.push_screen(SeatScreen(room, me), lambda choice: self._seat_chosen(room.id, choice))

    def _seat_chosen(self, room: str, choice: str | None) -> None:
        """The room whose seats were shown (the list may have changed meanwhile)."""
        if choice == "watch":
            self.lobby_app.watch_room(room)
        elif choice is not None:
            self.lobby_app.join_seat(room, int(choice))

    def action_watch(self) -> None:
        room = self.current()
        if room is None:
            self.notify("No room to watch yet.", severity="warning")
            return
        self.lobby_app.watch_room(room.id)


class SeatScreen(ModalScreen[str | None]):
    """A room's seats: join a free one, return to one's own, or watch. Dismissed with the seat
    number as text, "watch", or None (Escape)."""

    DEFAULT_CSS = """
    SeatScreen { align: center middle; }
    SeatScreen #seat-box { width: 64; max-width: 100%; height: auto; border: round $accent; background: $surface;
                           padding: 0 1; }
    SeatScreen OptionList { height: auto; max-height: 10; border: none; padding: 0; }
    """
    BINDINGS = [
        Binding("escape,b", "cancel", "Back", id="seats.back"),
        Binding("w", "pick('watch')", "Watch", id="seats.watch"),
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
            text = seat_words(i, seat, self.me)
            if seat.identity == self.me:
                text.append(" — Enter returns to your seat", style=HINT)
                options.append(Option(text, id=str(i)))
            elif (seat.open or seat.kind == "human") and not seat.holder and not mine and not room.finished:
                text.append(" — Enter takes it", style=HINT)
                options.append(Option(text, id=str(i)))
            else:
                options.append(Option(text, id=str(i), disabled=True))
        options.append(Option(Text.assemble(("w ", DIGIT), "Watch as a spectator"), id="watch"))
        with Vertical(id="seat-box"):
            yield Static(Text.assemble((room.name, "bold"), f"  {room.mode} · {room.progress}"))
            if room.handover_after:
                yield Static(
                    Text(
                        f"A computer plays the seat of a person away for {_duration(room.handover_after)}.", style=HINT
                    )
                )
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


class CreateRoomScreen(NewGameScreen):
    """A new room: the New game screen's settings, plus the room's name and when a computer takes
    the seat of a person who stayed away. Undo is always strict online (the host's policy)."""

    HEADING = "New room on this server"
    MODES = (("hotseat", "2-4 players, each at their own terminal"), ("solo", "Solo against the King"))
    START = "Create the room"

    def __init__(self, config: GameConfig | None, on_create: Callable[[GameConfig, str, float], None]) -> None:
        super().__init__(config)
        self.on_create = on_create

    def _extra_fields(self) -> ComposeResult:
        with Horizontal(classes="field"):
            yield Label("Room name")
            yield Input(max_length=40, placeholder="e.g. Friday game", compact=True, id="room-name")
            yield Static("shown in the lobby", classes="note")
        yield Choice("Seat to computer", HANDOVER, value="300", id="handover")

    def _show_fields(self) -> None:
        super()._show_fields()
        self._choice("undo").display = False  # online undo is the strict policy, always

    def start(self, config: GameConfig, undo: UndoMode | None) -> None:
        name = self.query_one("#room-name", Input).value
        self.on_create(config, name, float(self._choice("handover").value))
        self.dismiss()


class RemoteGameScreen(GameScreen):
    """The game of a room on a server: this person's seat only (or a spectator's view); q goes
    back to the lobby (the seat stays theirs)."""

    BINDINGS = [
        Binding("q", "quit_game", "Lobby", id="game.quit"),
        Binding("G", "give_up_seat", "Give up seat", show=False, key_display="G", id="game.give-up"),
    ]
    QUIT_WORDS = "back to the lobby"

    def action_quit_game(self) -> None:
        cast("LobbyApp", self.app).leave_room()

    def action_give_up_seat(self) -> None:
        """G: leave this seat for good (after a yes): another person may take it, or the computer
        plays it in a room that hands away seats. q keeps the seat yours."""
        if self.seat is None or self.seat < 0:
            self.notify("A spectator holds no seat.", title="Give up", severity="warning")
            return
        app = cast("LobbyApp", self.app)
        room = app.remote.room.name if app.remote is not None else "this room"
        question = (
            f"Give up your seat in {room} for good? Another person may take it (or the computer plays "
            "it, if the room hands away seats). q leaves the game and keeps the seat yours."
        )
        self.app.push_screen(ConfirmScreen(question), self._give_up)

    def _give_up(self, yes: bool | None) -> None:
        if yes:
            cast("LobbyApp", self.app).give_up_seat()

    def palette_commands(self) -> Iterator[tuple[str, str, object]]:
        yield from super().palette_commands()
        if self.seat is not None and self.seat >= 0:
            yield "Give up my seat", "leave it for good: free for another person (G)", self.action_give_up_seat

    def refused_remotely(self, error: IllegalAction) -> None:
        """The host refused this person's decision by the rules: said as in a game played here
        (the rule and its rulebook section; R opens the rules there)."""
        self._refused_by_rules(error, self.game.state_id)
