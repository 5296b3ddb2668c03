"""Presence (issue 37.6): every game's players panel online names who holds each seat and says,
live, whether they are connected, away (for how long) or replaced by a computer; the host sends
it as a typed message (``protocol.Presence``) carrying names and statuses only; idle is a
person's, and the fronts' tables of it keep only people with a session open."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from nctui.platform import registry
from nctui.platform.game import SeatPresence
from nctui.platform.net import protocol as P
from nctui.platform.net.limits import Occupancy, idle_line
from nctui.platform.net.rooms import Rooms
from nctui.ui.lobby_app import LobbyApp
from nctui.ui.screens.lobby import LobbyScreen, RemoteScreen
from nctui.ui.widgets.common import presence_words
from tests.test_net_host import CFG, Client, run_host
from tests.test_net_lobby import ANN, BOB, HostThread, Person, until, wait_for

WIDE = (120, 40)  # every game's players panel in sight


@pytest.fixture
def host(tmp_path: Path) -> Any:
    yield from HostThread.running(tmp_path)


def screen_text(app: LobbyApp) -> str:
    """What the terminal shows now, line after line."""
    return "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())


def two_people(game_id: str) -> Any:
    """A configuration of ``game_id`` with people at its first two seats (computers at the rest)."""
    entry = registry.entry(game_id)
    bots = registry.simulated(game_id).computer_game(5, ("random",) * max(2, entry.players[0]))
    return msgspec.structs.replace(bots, seats=("human", "human", *bots.seats[2:]))


@pytest.mark.parametrize("game_id", [e.id for e in registry.ENTRIES])
def test_every_games_players_panel_says_who_holds_each_seat_live(host: HostThread, game_id: str) -> None:
    """Over every registered game: Bob connected is named in Ann's panel; his client killed (no
    goodbye), the panel says him away; another three minutes away, it says so without any
    decision being made; a computer taking his seat, the panel says it plays for him."""
    room = host.rooms.create(two_people(game_id), identity=ANN, name="presence", handover_after=3600.0)
    own = registry.load(registry.entry(game_id).screen)

    async def go() -> None:
        app = LobbyApp(host.path, ANN, "Ann")
        async with app.run_test(size=WIDE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.shown, "the rooms")
            app.join_seat(room.id, 0)
            await until(pilot, lambda: isinstance(app.screen, own) and isinstance(app.screen, RemoteScreen), "")
            bob = Person(host.path, BOB, "Bob")
            bob.sit(room.id, 1)
            await until(pilot, lambda: "Bob" in screen_text(app), "Bob named in Ann's panel")
            assert "Bob, away" not in screen_text(app)
            if game_id == "nightmare-cathedral":  # its panel names every seat, Ann's own too
                assert "Ann" in screen_text(app)
            sock = bob.link._sock
            assert sock is not None
            sock.shutdown(socket.SHUT_RDWR)  # killed: the connection goes without a goodbye
            await until(pilot, lambda: "Bob, away" in screen_text(app), "Bob away in Ann's panel")
            state_id = room.session.state_id
            room.away_since[1] -= 180.0  # as if he had left three minutes ago: the host's tick says it
            await until(pilot, lambda: "Bob, away 3 min" in screen_text(app), "three minutes away")
            room.hand_over_due(time.monotonic() + 3600.0)  # his hour is up: a computer plays his seat
            await until(pilot, lambda: "computer for Bob" in screen_text(app), "the computer playing for Bob")
            assert BOB not in repr(app.remote.presence if app.remote else ())  # his name, never his key
            assert room.session.state_id >= state_id
            bob.link.close()

    asyncio.run(go())


def test_the_host_sends_presence_when_it_changes_names_only(tmp_path: Path) -> None:
    """Ann in a room gets a ``Presence`` when Bob sits, when he drops; the messages carry names
    and statuses, never an identity."""

    async def body(path: Path, rooms: Rooms) -> None:
        ann, bob = await Client.connect(path, "SHA256:ann"), await Client.connect(path, "SHA256:bob")
        await ann.send(P.create_room(CFG, name="friends"))
        (info,) = (await ann.until(P.Rooms)).rooms
        await ann.send(P.JoinSeat(room=info.id, seat=0))
        first = await ann.until(P.Presence)
        assert first.room == info.id
        assert first.seats == (SeatPresence(name="SHA256:ann"), SeatPresence(status="free"))
        await bob.send(P.JoinSeat(room=info.id, seat=1))
        both = await ann.until(P.Presence, lambda m: m.seats[1].status == "here")
        assert both.seats[1].name == "SHA256:bob"
        bob.close()
        gone = await ann.until(P.Presence, lambda m: m.seats[1].status == "away")
        assert gone.seats[0].status == "here" and gone.seats[1].name == "SHA256:bob"
        # no identity, nothing of the game (a turn-based room's clock is the room's, public)
        assert set(SeatPresence.__struct_fields__) == {"name", "status", "away", "turn_based", "left"}
        ann.close()

    run_host(tmp_path, body)


def test_presence_reads_as_a_panel_says_it() -> None:
    assert presence_words(SeatPresence(name="Ann")) == "Ann"
    assert presence_words(SeatPresence(name="Bob", status="away")) == "Bob, away"
    assert presence_words(SeatPresence(name="Bob", status="away", away=180.0)) == "Bob, away 3 min"
    assert presence_words(SeatPresence(name="Bob", status="away", away=3900.0)) == "Bob, away 1 h 5 min"
    assert presence_words(SeatPresence(name="Bob", status="computer", away=360.0)) == "computer for Bob, away 6 min"
    assert presence_words(SeatPresence(status="computer")) == "computer"
    assert presence_words(SeatPresence(status="free")) == "free seat"
    assert presence_words(SeatPresence(name="x" * 40)) == "x" * 15 + "…"  # a long name cut
    wire = P.frame(P.Presence(room="r1", seats=(SeatPresence(name="Ann", status="away", away=60.0),)))
    assert P.decode_host(wire[P.HEADER.size :]) == P.Presence(
        room="r1", seats=(SeatPresence(name="Ann", status="away", away=60.0),)
    )


def test_idle_is_a_persons_and_its_tables_keep_only_people_with_a_session() -> None:
    """A key on one of Ann's sessions keeps her other one open too; a decision reaching someone
    with no session on a front is not noted; a person's clocks go with their last session."""
    occ = Occupancy()
    occ.opened("ann")
    occ.opened("ann")  # two terminals
    occ.key("ann", 100.0)
    assert occ.last_active("ann", 5.0) == 100.0  # her other session's key counts
    occ.watch("ann", 200.0)
    assert occ.last_active("ann", 5.0) == 200.0
    occ.watch("gone", 300.0)  # a host connection whose front session has ended
    occ.key(None, 300.0)
    assert "gone" not in occ.watched and occ.last_active("gone", 5.0) == 5.0
    occ.closed("ann")
    assert occ.last_active("ann", 5.0) == 200.0  # one session left
    occ.closed("ann")
    occ.closed("ann")  # once too often: nothing breaks
    assert not occ.people and not occ.watched and not occ.typed
    assert "no key pressed and no move in a game you are in" in idle_line(1800.0)
    assert idle_line(1800.0).startswith("nctui: closed after 30 minutes")


def test_a_person_seen_from_the_lobby_is_waited_for(host: HostThread) -> None:
    """The Person helper's seat shows them here in the host's presence (and the room's seats agree)."""
    room = host.rooms.create(CFG, identity=ANN, name="here")
    ann = Person(host.path, ANN, "Ann")
    game = ann.sit(room.id, 0)
    wait_for(lambda: game.presence and game.presence[0] == SeatPresence(name="Ann"), "Ann here")
    assert room.seats()[0].connected
    ann.link.close()
