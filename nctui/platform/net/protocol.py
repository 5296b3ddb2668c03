"""The messages between a client process and the game host: typed msgspec Structs, one tagged union
each way, a version, and length-prefixed frames with a size cap.

A frame is 4 bytes (big-endian payload length) and a JSON payload (msgspec's: JSON, not msgpack,
since a game's data may hold integers beyond 64 bits, Cathedral's 100-square masks). ``decode_client`` /
``decode_host`` validate a payload against its union: anything else (unknown tag, wrong field
type, a frame above ``MAX_FRAME``) raises ``ProtocolError`` with one line, and the host closes
that client only.

The envelope knows no game. A room names its game (``RoomInfo.game``, ``CreateRoom.game``) and
the game's own data (its configuration, an action, a view, events) travels as ``msgspec.Raw``:
JSON the envelope carries unread, decoded by ``Payloads`` with that game's types (one set of
decoders per game, made the first time). Every message carrying game data carries it already
hidden for its reader (a seat's view, events redacted for it, timeline summaries as that seat may
read them): the host never sends a full state, nor a game's seed (``Joined.config`` has seed 0;
rooms keep the seed on the host).
"""

from __future__ import annotations

import struct
from typing import Any, Literal

import msgspec

from nctui.platform import registry
from nctui.platform.game import SPECTATOR, SeatKind, SeatLabel, SeatPresence
from nctui.platform.net.ratings import Rating, ResultRow
from nctui.platform.net.turns import OnTimeout, Prefs, TurnClock

# 7: the archive and ratings (Watch.from_start / eyes: a spectator steps through a game from its
# start, a finished one with everything shown; Joined.replay; CreateRoom.rated, RoomInfo.rated,
# SeatInfo.rating; ListRatings / RatingsTable, ShowPage / PersonPage);
# 6: turn-based rooms (CreateRoom.turn, RoomInfo.turn / deciding / expired, SeatInfo.left,
# SkipTurn, TurnNotice) and a person's settings (Welcome.prefs, SetPrefs); 5: Presence (who
# holds each seat and whether they are there, live); 4: WebLink / WebLinkMade
# (a personal link for a browser), CloseRoom / RoomClosed, the finished
# list (ListRooms.finished), RoomInfo.creator; 3: JSON; the game of a room
# (CreateRoom.game, RoomInfo.game), its data read with that game's types, no facts (the client
# works them out from the view) and no seed; 2: GiveUp, timeline deltas
VERSION = 7
TABLE_ROWS = 200  # people in a ratings table at most
PAGE_RESULTS = 100  # finished games on a person's page at most (the newest)
FINISHED_SHOWN = 3600.0  # seconds a finished room stays in the lobby's main list
MAX_FRAME = 1 << 20  # bytes of one message; a view of a 4-player game is under 10 kB
HEADER = struct.Struct(">I")


class ProtocolError(Exception):
    """A frame or message that breaks the protocol; ``str()`` is one line."""


class _Msg(msgspec.Struct, frozen=True, kw_only=True, tag_field="t"):
    pass


# -- client → host ---------------------------------------------------------------------------------


class Hello(_Msg, tag="hello"):
    """The first message: the protocol version, who connects (their key's fingerprint) and the
    name they chose."""

    version: int
    identity: str
    name: str = ""


class ListRooms(_Msg, tag="list"):
    """The rooms (``finished``: the finished games only; else every room but those finished more
    than ``FINISHED_SHOWN`` seconds ago)."""

    finished: bool = False


class CreateRoom(_Msg, tag="create"):
    """A new room of ``game`` (a registry id) with its New game screen's configuration (its seed
    is not used: the host draws one); ``handover_after``: seconds a person may stay away before a
    computer takes their seat (0: never); ``turn``: a turn-based room's clock (None: live; a
    turn-based room hands no seat over for being away)."""

    game: str
    config: msgspec.Raw
    name: str = ""
    handover_after: float = 0.0
    turn: TurnClock | None = None
    rated: bool = True  # the result moves its people's ratings (two people or more)


class JoinSeat(_Msg, tag="join"):
    room: str
    seat: int


class Watch(_Msg, tag="watch"):
    """Watch a room as a spectator; ``from_start``: from its first decision, stepping through it
    (Undo one back, Redo one forward, UndoTo any decision) up to where it stands, then live; a
    finished game is shown with nothing hidden, through the eyes of seat ``eyes``."""

    room: str
    from_start: bool = False
    eyes: int = SPECTATOR


class ListRatings(_Msg, tag="list_ratings"):
    """The ratings of ``game`` (a registry id) of the host's players (``RatingsTable``)."""

    game: str


class ShowPage(_Msg, tag="show_page"):
    """A person's page (``PersonPage``): ``identity`` ('' this person's own)."""

    identity: str = ""


class Leave(_Msg, tag="leave"):
    pass


class GiveUp(_Msg, tag="give_up"):
    """Leave my seat in this room for good: free for another person, or played by the computer
    when the room hands away seats (``handover_after``)."""


class Act(_Msg, tag="act"):
    """A decision for the client's seat, with the state id it was chosen at."""

    action: msgspec.Raw  # the room's game's action
    seen_state_id: int


class Undo(_Msg, tag="undo"):
    pass


class Redo(_Msg, tag="redo"):
    pass


class UndoTo(_Msg, tag="undo_to"):
    state_id: int


class Refresh(_Msg, tag="refresh"):
    """Send me the whole picture again (after a refusal, or when unsure)."""


class CloseRoom(_Msg, tag="close_room"):
    """Close a room for good (its creator only): the people in it go back to the lobby, told so."""

    room: str


class SkipTurn(_Msg, tag="skip_turn"):
    """Skip the turn of the seat whose clock ran out in ``room`` (a turn-based room whose rule
    lets the others skip it): a computer plays that turn. Only another seated person may."""

    room: str


class SetPrefs(_Msg, tag="set_prefs"):
    """This person's settings from now on (the host keeps them)."""

    prefs: Prefs


class WebLink(_Msg, tag="web_link"):
    """A personal link for this person's browser: opened once, it logs that browser in as this
    identity (``WebLinkMade``; refused when the server has no web front)."""


ClientMessage = (
    Hello
    | ListRooms
    | CreateRoom
    | JoinSeat
    | Watch
    | Leave
    | GiveUp
    | Act
    | Undo
    | Redo
    | UndoTo
    | Refresh
    | WebLink
    | CloseRoom
    | SkipTurn
    | SetPrefs
    | ListRatings
    | ShowPage
)


# -- host → client ---------------------------------------------------------------------------------


class SeatInfo(msgspec.Struct, frozen=True, kw_only=True):
    kind: SeatKind
    label: SeatLabel | None = None  # the seat's name, letter and colour, as the game calls it
    holder: str = ""  # the name of the person holding the seat ('' free)
    connected: bool = False
    identity: str = ""  # the holder's identity (their key's fingerprint): how a person finds their seat again
    open: bool = False  # a person's seat nobody holds: anyone may take it (the computer may play it meanwhile)
    away: float = 0.0  # whole minutes (in seconds) its holder has been away (0: connected, nobody, or < 1 min)
    left: float = -1.0  # a turn-based room: seconds left on this seat's clock (-1: no clock)
    rating: float = 0.0  # the holder's rating of the room's game (0: no rated game of it yet)


class RoomInfo(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    game: str  # the registry id of the room's game
    name: str
    mode: str  # "2 players, Standard", …
    progress: str
    finished: bool
    seats: tuple[SeatInfo, ...]
    spectators: int = 0
    handover_after: float = 0.0
    creator: str = ""  # the identity that made the room (who may close it)
    turn: TurnClock | None = None  # a turn-based room's clock (None: live)
    deciding: int = -1  # the seat whose decision it is (-1: nobody's, the game over)
    expired: bool = False  # the deciding seat's clock ran out (its rule applied or offered)
    rated: bool = False  # its result moves its people's ratings


class Welcome(_Msg, tag="welcome"):
    version: int
    name: str
    prefs: Prefs = Prefs()


class Rooms(_Msg, tag="rooms"):
    rooms: tuple[RoomInfo, ...]


class Joined(_Msg, tag="joined"):
    """The client sits at ``seat`` of ``room`` (-1: it watches)."""

    room: RoomInfo
    seat: int
    config: msgspec.Raw  # the game's configuration, its seed 0 (the host keeps the seed)
    undo_policy: str
    replay: bool = False  # watched from its start (``Watch.from_start``): undo and redo step through it


class TimelineEntry(msgspec.Struct, frozen=True, array_like=True):
    state_id: int
    seat: int
    summary: str


class Update(_Msg, tag="update"):
    """The game as the client's seat sees it now (``view``, the game's view of that seat);
    ``events`` (an array of the game's events) are the ones after ``since`` (``undone``: the game
    went back, the client redraws from scratch)."""

    state_id: int
    last_id: int
    revision: int
    since: int
    undone: bool
    view: msgspec.Raw
    events: msgspec.Raw
    timeline: tuple[TimelineEntry, ...]  # the entries from ``timeline_from`` on (the rest is unchanged)
    seats: tuple[SeatInfo, ...]
    deciding: int | None
    thinking: int | None
    can_redo: bool
    bot_error: str = ""
    timeline_from: int = 0  # 0: the whole timeline; else the client keeps its entries before it
    rewinds: int = 0  # the host's count of the game going back (it compares it with the next update's)


class Refused(_Msg, tag="refused"):
    """A request the host did not carry out, in one line; ``stale``: the game had moved on (the
    client refreshes)."""

    reason: str
    stale: bool = False
    request: str = ""  # the tag of the refused request ("act", "undo", …), so the client can say what
    rule: str = ""  # a rules refusal: the rule and the rulebook section it names (R reads it)
    section: str = ""


class WebLinkMade(_Msg, tag="web_link_made"):
    """The personal link asked for: ``url`` (the web front's address, or only its path when the
    server does not know the address browsers use), good once within ``minutes``."""

    url: str
    minutes: int


class RoomClosed(_Msg, tag="room_closed"):
    """The room this client was in was closed by its creator (the client is back in the lobby);
    ``moved``: not closed, another host runs it now (a database several hosts share)."""

    room: str
    name: str
    moved: bool = False


class Presence(_Msg, tag="presence"):
    """Who holds each seat of ``room`` and whether they are there (a ``SeatPresence`` a seat): sent
    to everyone in the room when it changes (a person connects, drops, is replaced by a computer,
    or has been away another minute). Public: names and statuses, no identity, nothing of the game."""

    room: str
    seats: tuple[SeatPresence, ...]


class TurnNotice(_Msg, tag="turn_notice"):
    """News of a turn-based room for a person who sits in it, wherever they are (the lobby,
    another game): ``your_turn`` (``left``: seconds on their clock), ``ran_out`` (``seat``'s clock
    ran out: ``rule`` says what happens), ``skipped`` (``by`` skipped ``seat``'s turn: a computer
    plays it)."""

    room: str
    room_name: str
    what: Literal["your_turn", "ran_out", "skipped"]
    seat: int
    seat_name: str  # the seat as the game calls it, and who holds it ("Blue (Bob)")
    rule: OnTimeout = "computer"
    by: str = ""
    left: float = 0.0


class RatingsTable(_Msg, tag="ratings_table"):
    """The host's players of ``game``, best first (at most ``TABLE_ROWS``)."""

    game: str
    ratings: tuple[Rating, ...]


class PersonPage(_Msg, tag="person_page"):
    """A person's page: their rating of each game they played rated, and their finished games,
    newest first (at most ``PAGE_RESULTS``)."""

    identity: str
    name: str
    ratings: tuple[Rating, ...]
    results: tuple[ResultRow, ...]


class Bye(_Msg, tag="bye"):
    """The host closes the connection, in one line."""

    reason: str


HostMessage = (
    Welcome
    | Rooms
    | Joined
    | Update
    | Presence
    | Refused
    | WebLinkMade
    | RoomClosed
    | TurnNotice
    | RatingsTable
    | PersonPage
    | Bye
)


# -- frames ----------------------------------------------------------------------------------------

_encoder = msgspec.json.Encoder()
_client_decoder = msgspec.json.Decoder(ClientMessage)
_host_decoder = msgspec.json.Decoder(HostMessage)


def frame(message: _Msg, *, limit: int = MAX_FRAME) -> bytes:
    """One message as a frame (header + payload); ``ProtocolError`` if it exceeds ``limit``."""
    payload = _encoder.encode(message)
    if len(payload) > limit:
        raise ProtocolError(f"message of {len(payload)} bytes is over the {limit}-byte limit")
    return HEADER.pack(len(payload)) + payload


def frame_length(header: bytes, *, limit: int = MAX_FRAME) -> int:
    """The payload length a frame header announces; ``ProtocolError`` above ``limit``."""
    (length,) = HEADER.unpack(header)
    if length > limit:
        raise ProtocolError(f"message of {length} bytes is over the {limit}-byte limit")
    return int(length)


def _decode(decoder: msgspec.json.Decoder[Any], payload: bytes) -> Any:
    try:
        return decoder.decode(payload)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ProtocolError(f"malformed message: {str(exc).splitlines()[0]}") from None


def decode_client(payload: bytes) -> ClientMessage:
    result: ClientMessage = _decode(_client_decoder, payload)
    return result


def decode_host(payload: bytes) -> HostMessage:
    result: HostMessage = _decode(_host_decoder, payload)
    return result


class FrameReader:
    """Frames out of a byte stream fed in pieces (for synchronous sockets and the SSH front)."""

    def __init__(self, *, limit: int = MAX_FRAME) -> None:
        self.limit = limit
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """The complete payloads ``data`` finished; ``ProtocolError`` on an oversized frame."""
        self._buf += data
        out = []
        while len(self._buf) >= HEADER.size:
            length = frame_length(bytes(self._buf[: HEADER.size]), limit=self.limit)
            end = HEADER.size + length
            if len(self._buf) < end:
                break
            out.append(bytes(self._buf[HEADER.size : end]))
            del self._buf[:end]
        return out


# -- a game's data ---------------------------------------------------------------------------------


def raw(value: Any) -> msgspec.Raw:
    """A game's value (a configuration, an action, a view, events) as the envelope carries it."""
    return msgspec.Raw(_encoder.encode(value))


class Payloads:
    """One game's data on the wire (and in the rooms' store, which keeps it as JSON too), decoded
    with that game's own types (``config_type``, ``action_type``, ``view_type``, ``event_type``):
    anything else is a ``ProtocolError`` in one line. Made once per game (``payloads``)."""

    def __init__(self, game_id: str) -> None:
        game = registry.game(game_id)
        self.game = game
        self._config = msgspec.json.Decoder(game.config_type)
        self._action = msgspec.json.Decoder(game.action_type)
        self._view = msgspec.json.Decoder(game.view_type)
        self._events = msgspec.json.Decoder(tuple[game.event_type, ...])  # type: ignore[name-defined]

    def config(self, data: msgspec.Raw | bytes) -> Any:
        return _decode_part(self._config, data, "configuration")

    def action(self, data: msgspec.Raw | bytes) -> Any:
        return _decode_part(self._action, data, "action")

    def view(self, data: msgspec.Raw | bytes) -> Any:
        return _decode_part(self._view, data, "view")

    def events(self, data: msgspec.Raw | bytes) -> tuple[Any, ...]:
        result: tuple[Any, ...] = _decode_part(self._events, data, "events")
        return result


_payloads: dict[str, Payloads] = {}


def payloads(game_id: str) -> Payloads:
    """The decoders of the game ``game_id``; ``ProtocolError`` for a game this nctui does not have."""
    made = _payloads.get(game_id)
    if made is None:
        if registry.entry_named(game_id) is None:
            raise ProtocolError(f"this nctui has no game {game_id!r}: update nctui")
        made = _payloads[game_id] = Payloads(game_id)
    return made


def _decode_part(decoder: msgspec.json.Decoder[Any], data: msgspec.Raw | bytes, what: str) -> Any:
    try:
        return decoder.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ProtocolError(f"malformed {what}: {str(exc).splitlines()[0]}") from None


def create_room(
    config: Any, *, name: str = "", handover_after: float = 0.0, turn: TurnClock | None = None, rated: bool = True
) -> CreateRoom:
    """The request for a new room of ``config``'s game, its seed left out (the host draws one)."""
    game = registry.game_of(config)
    return CreateRoom(
        game=game.id,
        config=raw(game.with_seed(config, 0)),
        name=name,
        handover_after=handover_after,
        turn=turn,
        rated=rated,
    )


def act(action: Any, seen_state_id: int) -> Act:
    return Act(action=raw(action), seen_state_id=seen_state_id)
