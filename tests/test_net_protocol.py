"""The client/host protocol: every message round-trips, a game's data read back with that game's
own types (every game of the registry); malformed and oversized frames, and a game's data that is
not that game's, are refused with one line."""

from __future__ import annotations

import msgspec
import pytest

from nctui.games.nightmare_cathedral.engine import GameConfig, new_game, player_view
from nctui.platform import registry
from nctui.platform.net import protocol as P
from tests.helpers import present

NC = "nightmare-cathedral"


def _update() -> P.Update:
    result = new_game(GameConfig(players=2, seats=("human", "human"), seed=3))
    view = player_view(result.state, 0)
    return P.Update(
        state_id=0,
        last_id=0,
        revision=0,
        since=-1,
        undone=False,
        view=P.raw(view),
        events=P.raw(tuple(result.events)),
        timeline=(P.TimelineEntry(0, -1, "Setup"),),
        seats=(P.SeatInfo(kind="human", holder="ann", connected=True), P.SeatInfo(kind="human")),
        deciding=0,
        thinking=None,
        can_redo=False,
    )


def test_client_messages_round_trip() -> None:
    result = new_game(GameConfig(players=2, seats=("human", "human"), seed=3))
    action = present(result.state.decision).options[0]
    for msg in (
        P.Hello(version=P.VERSION, identity="SHA256:abc", name="ann"),
        P.ListRooms(),
        P.create_room(GameConfig(), name="r", handover_after=60),
        P.JoinSeat(room="r1", seat=1),
        P.Watch(room="r1"),
        P.Leave(),
        P.act(action, 4),
        P.Undo(),
        P.Redo(),
        P.UndoTo(state_id=2),
        P.Refresh(),
    ):
        data = P.frame(msg)
        (payload,) = P.FrameReader().feed(data)
        assert P.decode_client(payload) == msg


def test_update_round_trips_with_typed_events() -> None:
    msg = _update()
    (payload,) = P.FrameReader().feed(P.frame(msg))
    back = P.decode_host(payload)
    assert back == msg
    assert isinstance(back, P.Update)
    nc = P.payloads(NC)
    events, sent = nc.events(back.events), nc.events(msg.events)
    assert events == sent and all(type(e) is type(o) for e, o in zip(events, sent))
    assert nc.view(back.view).seat == 0


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_each_games_data_reads_back_as_its_own_types(game_id: str) -> None:
    """A game's configuration, an action, a view and events leave as JSON and come back as the
    game's own values (``Payloads``, one per game), integers beyond 64 bits too; what is not the
    game's is refused in one line."""
    game, entry = registry.game(game_id), registry.entry(game_id)
    config = registry.simulated(game_id).computer_game(9, entry.levels[:1] * max(2, entry.players[0]))
    started = game.new(config)
    for _ in range(12):  # into the game: Cathedral's masks are integers of 100 bits by now
        started = game.step(started.state, game.options(started.state)[0])
    view, action = game.view(started.state, 0), game.options(started.state)[0]
    data = P.payloads(game_id)
    assert P.payloads(game_id) is data  # made once per game
    request = P.create_room(config, name="r")
    assert request.game == game_id and data.config(request.config) == game.with_seed(config, 0)
    assert data.action(P.act(action, 0).action) == action
    assert data.view(P.raw(view)) == view
    assert data.events(P.raw(started.events)) == started.events
    for wrong in (3, {"t": "no such action"}):
        with pytest.raises(P.ProtocolError) as info:
            data.action(P.raw(wrong))
        assert "\n" not in str(info.value) and str(info.value).startswith("malformed action")


def test_a_game_this_nctui_does_not_have_is_one_line() -> None:
    with pytest.raises(P.ProtocolError, match="no game 'chess': update nctui"):
        P.payloads("chess")


def test_frames_split_anywhere() -> None:
    data = P.frame(P.ListRooms()) + P.frame(P.Watch(room="x"))
    reader = P.FrameReader()
    got = [p for b in data for p in reader.feed(bytes([b]))]
    assert [P.decode_client(p) for p in got] == [P.ListRooms(), P.Watch(room="x")]


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"\xc1",
        msgspec.json.encode({"t": "nope"}),
        msgspec.json.encode({"t": "join", "room": 3, "seat": 1}),
        msgspec.json.encode({"t": "act", "action": 3}),
        msgspec.json.encode({"t": "create", "config": {}}),
        msgspec.json.encode(["hello"]),
        msgspec.json.encode({"t": "welcome", "version": 1, "name": ""}),
    ],
)
def test_malformed_messages_refused_in_one_line(payload: bytes) -> None:
    with pytest.raises(P.ProtocolError) as info:
        P.decode_client(payload)
    assert "\n" not in str(info.value)


def test_oversized_frame_refused() -> None:
    reader = P.FrameReader(limit=100)
    with pytest.raises(P.ProtocolError, match="over the 100-byte limit"):
        reader.feed(P.HEADER.pack(101) + b"x")
    with pytest.raises(P.ProtocolError, match="limit"):
        P.frame(P.create_room(GameConfig(), name="x" * 200), limit=100)
