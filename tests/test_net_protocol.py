"""The client/host protocol: every message round-trips; malformed and oversized frames are refused
with one line."""

from __future__ import annotations

import msgspec
import pytest

from nctui.games.nightmare_cathedral.engine import GameConfig, new_game, player_view
from nctui.games.nightmare_cathedral.engine.facts import facts
from nctui.platform.net import protocol as P


def _update() -> P.Update:
    result = new_game(GameConfig(players=2, seats=("human", "human"), seed=3))
    view = player_view(result.state, 0)
    return P.Update(
        state_id=0,
        last_id=0,
        revision=0,
        since=-1,
        undone=False,
        view=view,
        facts=facts(view),
        events=tuple(result.events),
        timeline=(P.TimelineEntry(0, -1, "Setup"),),
        seats=(P.SeatInfo(kind="human", holder="ann", connected=True), P.SeatInfo(kind="human")),
        deciding=0,
        thinking=None,
        can_redo=False,
    )


def test_client_messages_round_trip() -> None:
    result = new_game(GameConfig(players=2, seats=("human", "human"), seed=3))
    action = result.state.decision.options[0]
    for msg in (
        P.Hello(version=P.VERSION, identity="SHA256:abc", name="ann"),
        P.ListRooms(),
        P.CreateRoom(config=GameConfig(), name="r", handover_after=60),
        P.JoinSeat(room="r1", seat=1),
        P.Watch(room="r1"),
        P.Leave(),
        P.Act(action=action, seen_state_id=4),
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
    assert isinstance(back, P.Update) and all(type(e) is type(o) for e, o in zip(back.events, msg.events))


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
        msgspec.msgpack.encode({"t": "nope"}),
        msgspec.msgpack.encode({"t": "join", "room": 3, "seat": 1}),
        msgspec.msgpack.encode({"t": "act", "action": {"a": "bogus"}, "seen_state_id": 0}),
        msgspec.msgpack.encode(["hello"]),
        msgspec.msgpack.encode({"t": "welcome", "version": 1, "name": ""}),
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
        P.frame(P.CreateRoom(config=GameConfig(), name="x" * 200), limit=100)
