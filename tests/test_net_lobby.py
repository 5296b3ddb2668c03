"""The client side of a game server: the lobby app (Pilot, 80x24) and protocol clients (``HostLink``)
against a real host running in this process on a temporary Unix socket (its asyncio loop on a
thread). Create a room, join, decide, see the other seat's decision arrive; a spectator sees no
hand; a stale decision is refused and the screen refreshes; a client whose connection dies goes
back to its seat when it returns; a malformed message from one client disturbs no other."""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from textual.widgets import Button, Input, OptionList, Static

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.games.nightmare_cathedral.ui.screens.game import GameScreen
from nctui.games.nightmare_cathedral.ui.widgets.hand import HandView
from nctui.platform import registry
from nctui.platform.game import PALETTE, SeatLabel
from nctui.platform.net import protocol as P
from nctui.platform.net.client import HostError, HostLink, LinkNews, RemoteGame
from nctui.platform.net.client_app import remember_name, remembered_name
from nctui.platform.net.host import Host
from nctui.platform.net.rooms import Rooms
from nctui.platform.net.store_sqlite import SqliteRoomStore
from nctui.ui.lobby_app import LobbyApp
from nctui.ui.screens.load import ConfirmScreen
from nctui.ui.screens.lobby import (
    LobbyScreen,
    NameScreen,
    NewRoomScreen,
    RemoteScreen,
    SeatScreen,
    my_seat,
    room_words,
    short_identity,
)
from nctui.ui.screens.save import SaveScreen
from nctui.ui.screens.timeline import TimelineScreen
from tests.helpers import narrow, present
from tests.test_net_host import seeds
from tests.test_smoke_tmux import ROOT, Pane

SMALL = (80, 24)
CFG = GameConfig(players=2, seats=("human", "human"), seed=42)
ANN, BOB, CY = "SHA256:AnnAnnAnnAnnAnnAnn", "SHA256:BobBobBobBobBobBob", "SHA256:CyCyCyCyCyCyCyCy"
WAIT = 15.0


class HostThread:
    """A real host (rooms in SQLite, computer players without delay) on its own loop and thread."""

    def __init__(self, tmp: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="test-host", daemon=True)
        self.thread.start()
        self.rooms = Rooms(SqliteRoomStore(tmp / "rooms.db"), bot_delay=0.0, seeds=seeds(CFG.seed))
        self.host = Host(self.rooms, tmp / "sock" / "host.sock")
        self.call(self.host.start())
        self.path = self.host.path

    def call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(WAIT)

    def room(self) -> Any:
        (room,) = self.rooms.rooms.values()
        return room

    def stop(self) -> None:
        async def close() -> None:
            tasks = list(self.host.connections)
            await self.host.close()
            await asyncio.gather(*tasks, return_exceptions=True)

        self.call(close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)
        self.rooms.close()
        self.loop.close()

    @classmethod
    def running(cls, tmp: Path) -> Iterator[HostThread]:
        """A host for the length of a test (a fixture's body)."""
        h = cls(tmp)
        try:
            yield h
        finally:
            h.stop()


@pytest.fixture
def host(tmp_path: Path) -> Iterator[HostThread]:
    yield from HostThread.running(tmp_path)


# ``test`` is called with no arguments; Callable[..., Any] lets it bind values by default arguments
# (``lambda b=before: ...``), against which mypy infers no type for Callable[[], Any].
def wait_for(test: Callable[..., Any], what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while not (result := test()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)
    return result


async def until(pilot: Any, test: Callable[..., Any], what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while not (result := test()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.03)
    return result


async def sit_down(pilot: Any, app: LobbyApp, room: str, seat: int) -> Any:
    """From the lobby's first rooms to ``seat`` of ``room``, its game drawn."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.shown, "the rooms")
    app.join_seat(room, seat)
    return await until(pilot, lambda: drawn(app), "the game")


def drawn(app: LobbyApp) -> Any:
    """Nightmare Cathedral's game screen once it is mounted and has drawn the game (not merely pushed)."""
    screen = app.screen
    if isinstance(screen, RemoteScreen) and isinstance(screen, GameScreen):
        return screen if screen.is_mounted and screen._shown[0] >= 0 else None
    return None


def link(app: LobbyApp) -> HostLink:
    """The app's connection to the host, which the test expects it to have."""
    return present(app.link)


def remote(app: LobbyApp) -> RemoteGame:
    """The room's game the app plays, which the test expects it to have."""
    return present(app.remote)


class Person:
    """A protocol client (no screen) that records what the host tells it."""

    def __init__(self, path: Path, identity: str, name: str) -> None:
        self.news: list[LinkNews] = []
        self.link = HostLink(path, identity, name, listener=self.news.append).connect()

    def sit(self, room: str, seat: int) -> RemoteGame:
        self.link.send(P.JoinSeat(room=room, seat=seat))
        return wait_for(lambda: self.link.game, "the seat's first update")

    def decide_first_option(self) -> int:
        game = self.link.game
        assert game is not None
        wait_for(lambda: game.deciding_seat() == game.seat, "this seat's decision")
        state_id = game.state_id
        decision = game.view(game.seat).state.decision
        assert decision is not None and decision.seat == game.seat
        game.send(decision.options[0], seen_state_id=state_id, seat=game.seat)
        return state_id


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_the_lobby_draws_its_title_and_the_new_room_dialog_only_when_needed(host: HostThread) -> None:
    """The lobby asks for the rooms every 2 s: the same answer draws nothing again (not even the
    title, which every person's lobby repainted every 2 s); the New room dialog hides the lobby
    (opaque: the lobby is not drawn again, dimmed, under it)."""

    async def go() -> None:
        app = LobbyApp(host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: app.link is not None and isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            await until(pilot, lambda: "Ann" in str(lobby.query_one("#lobby-title").render()), "the title")
            title = lobby.query_one("#lobby-title", Static)
            updates: list[Any] = []
            real = title.update

            def update(*args: Any, **kwargs: Any) -> None:
                updates.append(args)
                real(*args, **kwargs)

            title.update = update  # type: ignore[method-assign]
            for _ in range(3):
                lobby.show_rooms()  # as each answer to the lobby's poll does
            assert updates == []
            await pilot.press("n")
            assert isinstance(app.screen, NewRoomScreen)
            assert app.screen.styles.background.a == 1 and app._background_screens == []

    run(go())


def test_the_lobby_of_a_person_seen_before_comes_up_in_one_frame_with_their_name_and_the_rooms(
    host: HostThread,
) -> None:
    """Connected on a thread while Textual starts (``connect_early``, as every client process
    does), the lobby's first frame is the whole lobby: this person's name in the title and the
    host's rooms in the list, not "connecting…" and an empty list drawn again as the host answers."""
    import textual.app

    host.rooms.create(GameConfig(players=2, seats=("human", "human")), identity=BOB, name="first frame")
    frames: list[tuple[str, list[str]]] = []
    real = textual.app.App._display

    def display(self: Any, screen: Any, renderable: Any) -> None:
        if renderable is not None and isinstance(screen, LobbyScreen):
            menu = screen.query_one("#rooms", OptionList)
            prompts = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
            frames.append((str(screen.query_one("#lobby-title").render()), prompts))
        real(self, screen, renderable)

    async def go() -> None:
        app = LobbyApp(host.path, ANN, "Ann")
        app.connect_early()
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: frames, "the first frame")
            title, rooms = frames[0]
            assert "Ann" in title and "connecting" not in title
            assert len(rooms) == 1 and "first frame" in rooms[0]
            await until(pilot, lambda: app._returned, "the host's rooms read")  # its news came to the app too
            assert link(app).rooms and isinstance(app.screen, LobbyScreen)

    textual.app.App._display = display  # type: ignore[method-assign]
    try:
        run(go())
    finally:
        textual.app.App._display = real  # type: ignore[method-assign]


def test_a_game_on_a_server_makes_no_screen_ahead_until_it_is_opened(host: HostThread) -> None:
    """Each person is a process of the server's: their game's screen makes no rules, help or
    timeline ahead while it waits (each cost the host ~1 MB a person, and the rules a layout at
    every decision); the rules open on their key, and once made they are kept and drawn again
    at each decision, as at home."""
    from nctui.ui.screens.rules import RulesScreen

    room = host.rooms.create(GameConfig(players=2, seats=("human", "human")), identity=ANN, name="made on demand")

    async def go() -> None:
        app = LobbyApp(host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            game = await sit_down(pilot, app, room.id, 0)
            game._prepare_screens()  # as the game waits for a decision (PREPARE_AFTER)
            await pilot.pause()
            assert not [n for n in ("rules", "help", "timeline") if app.is_screen_installed(n)]
            await pilot.press("R")
            await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules")
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is game, "the game again")
            game._prepare_screens()
            await pilot.pause()
            assert app.is_screen_installed("rules") and app.get_screen("rules").is_running
            assert not app.is_screen_installed("help") and not app.is_screen_installed("timeline")

    run(go())


def test_create_a_room_join_decide_and_see_the_other_seats_decision_arrive(host: HostThread) -> None:
    async def go() -> None:
        app = LobbyApp(host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: app.link is not None and isinstance(app.screen, LobbyScreen), "the lobby")
            title = str(app.screen.query_one("#lobby-title").render())
            assert "Ann" in title and "SHA256:AnnAnnAn…" in title  # who this person is, short
            await pilot.press("n")
            assert isinstance(app.screen, NewRoomScreen)
            app.screen.query_one("#room-name", Input).value = "Friday"
            await pilot.press("enter")  # the first game: Nightmare Cathedral's New game screen, for a room
            await until(
                pilot,
                lambda: "Create the room" in str(narrow(app.screen.query("#start")[0], Button).label),
                "its settings",
            )
            assert not app.screen.query_one("#seed-field").display  # the server draws the seed
            await pilot.press("s")  # created: the lobby highlights it and opens its seats
            await until(pilot, lambda: isinstance(app.screen, SeatScreen), "the new room's seats")
            assert host.room().record.name == "Friday" and host.room().record.handover_after == 300.0
            await pilot.press("enter")  # the first free seat: 1 Red
            screen = await until(pilot, lambda: drawn(app), "the game screen")
            assert screen.seat == screen.viewer == 0
            bob = Person(host.path, BOB, "Bob")
            bob_game = bob.sit(host.room().id, 1)
            await until(pilot, lambda: remote(app).seats[1].connected, "Bob connected")
            # The game: whoever decides, decides; Ann with a key, Bob through his own connection.
            decided = {0: 0, 1: 0}
            for _ in range(6):
                game = remote(app)
                seat = present(game.deciding_seat())
                before = game.state_id
                if seat == 0:
                    assert "Waiting" not in str(screen.query_one("#decision").prompt.notes)
                    await pilot.press("1")
                else:
                    prompt = screen.query_one("#decision").prompt
                    assert not prompt.options and "Waiting for their decision" in prompt.notes[0]
                    await pilot.press("1")  # not Ann's decision: nothing is sent
                    wait_for(lambda b=before: bob_game.state_id == b, "Bob's update")
                    bob.decide_first_option()
                decided[seat] += 1
                await until(
                    pilot,
                    lambda g=game, b=before: g.state_id > b and screen._shown[1] == g.state_id,
                    "the decision arriving on Ann's screen",
                )
                assert host.room().session.state_id == game.state_id
            assert decided[0] and decided[1]
            log = "\n".join(str(line) for line in screen.query_one("#log")._written)
            assert "Blue" in log and "Red" in log  # both seats' decisions in Ann's log
            assert not [n for n in bob.news if isinstance(n, P.Refused)]
            await pilot.press("q")  # back to the lobby; the seat stays Ann's
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
            await until(pilot, lambda: not host.room().seats()[0].connected, "Ann away")
            assert host.room().seats()[0].holder == "Ann"
            bob.link.close()

    run(go())


@pytest.mark.parametrize("size", [SMALL, (120, 40)])
def test_a_spectator_sees_no_hand(host: HostThread, size: tuple[int, int]) -> None:
    room = host.rooms.create(CFG, identity=ANN, name="watched")
    ann, bob = Person(host.path, ANN, "Ann"), Person(host.path, BOB, "Bob")
    ann_game, _ = ann.sit(room.id, 0), bob.sit(room.id, 1)
    (ann if ann_game.deciding_seat() == 0 else bob).decide_first_option()
    wait_for(lambda: ann_game.state_id == 1, "the first decision")

    async def go() -> None:
        app = LobbyApp(host.path, CY, "Cy")
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.shown, "the rooms")
            await pilot.press("w")
            screen = await until(pilot, lambda: drawn(app), "the game")
            assert screen.seat == screen.viewer == -1
            views = {w.view.seat for w in screen.query("*") if getattr(w, "view", None) is not None}
            assert views == {-1}
            hand = str(screen.query_one(HandView).render())
            assert "'s hand" not in hand and "(hidden)" in hand
            prompt = screen.query_one("#decision").prompt
            assert not prompt.options and "back to the lobby" in prompt.notes[0]  # nothing to choose
            await pilot.press("u")  # a spectator changes nothing: the host says so
            note = await until(
                pilot, lambda: next((n for n in app._notifications if n.title == "Undo"), None), "the refusal"
            )
            assert "spectator" in note.message
            await until(pilot, lambda: host.room().info().spectators == 1, "one spectator")

    run(go())
    for p in (ann, bob):
        p.link.close()


def test_a_stale_decision_is_refused_silently_and_the_screen_refreshes(
    host: HostThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = host.rooms.create(CFG, identity=ANN, name="stale")
    bob = Person(host.path, BOB, "Bob")
    bob.sit(room.id, 1)
    news: list[LinkNews] = []

    async def go() -> None:
        app = LobbyApp(host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.shown, "the rooms")

            def listener(n: LinkNews) -> None:
                news.append(n)
                app._post_news(n)

            link(app).listener = listener
            app.join_seat(room.id, 0)
            screen = await until(pilot, lambda: drawn(app), "the game")
            game = remote(app)
            while game.deciding_seat() != 0:  # Bob decides until it is Ann's turn
                before = game.state_id
                bob.decide_first_option()
                await until(pilot, lambda b=before: game.state_id > b, "Bob's decision")
            await until(pilot, lambda: screen._shown[1] == game.state_id, "Ann's decision drawn: keys count")
            before = game.state_id
            gate = threading.Event()
            apply = game.apply

            def slow(update):  # the network is slow
                gate.wait(WAIT)
                return apply(update)

            monkeypatch.setattr(game, "apply", slow)
            await pilot.press("1")
            await pilot.press("1")  # a second key before the answer: chosen at the same, old state
            wait_for(lambda: host.room().session.state_id > before, "Ann's first decision")
            gate.set()
            await until(pilot, lambda: any(isinstance(n, P.Refused) for n in news), "the stale refusal")
            (refused,) = [n for n in news if isinstance(n, P.Refused)]
            assert refused.stale
            await until(pilot, lambda: screen._shown[1] == host.room().session.state_id, "the screen refreshed")
            assert host.room().session.state_id == before + 1  # the first key counted, once
            assert not [n for n in app._notifications if n.title == "Refused"]  # silently

    run(go())
    bob.link.close()


def test_a_client_whose_connection_dies_returns_to_its_seat(host: HostThread, tmp_path: Path) -> None:
    room = host.rooms.create(CFG, identity=BOB, name="again")
    bob = Person(host.path, BOB, "Bob")
    bob.sit(room.id, 1)

    async def first() -> int:
        app = LobbyApp(host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            await sit_down(pilot, app, room.id, 0)
            game = remote(app)
            while game.deciding_seat() != 0:
                before = game.state_id
                bob.decide_first_option()
                await until(pilot, lambda b=before: game.state_id > b, "Bob's decision")
            before = game.state_id
            await pilot.press("1")
            await until(pilot, lambda: game.state_id > before, "Ann's decision")
            # killed mid-game: the connection goes without a goodbye
            sock = link(app)._sock
            assert sock is not None
            sock.shutdown(socket.SHUT_RDWR)
            await until(pilot, lambda: not app.is_running, "the app ending")
        assert app.return_code == 1
        return game.state_id

    seen = run(first())
    wait_for(lambda: not host.room().seats()[0].connected, "Ann marked away")
    assert host.room().seats()[0].holder == "Ann"

    async def again() -> None:
        app = LobbyApp(host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            screen = await until(pilot, lambda: drawn(app), "back at the seat")
            assert screen.seat == 0
            assert remote(app).state_id >= seen
            await until(pilot, lambda: host.room().seats()[0].connected, "Ann connected again")

    run(again())
    bob.link.close()


def test_a_malformed_message_from_one_client_disturbs_no_other(host: HostThread) -> None:
    room = host.rooms.create(CFG, identity=ANN, name="noise")
    ann, bob = Person(host.path, ANN, "Ann"), Person(host.path, BOB, "Bob")
    ann_game, _ = ann.sit(room.id, 0), bob.sit(room.id, 1)
    with socket.socket(socket.AF_UNIX) as rogue:  # a third client speaks nonsense after its hello
        rogue.connect(str(host.path))
        rogue.sendall(P.frame(P.Hello(version=P.VERSION, identity=CY, name="Cy")))
        rogue.sendall(P.HEADER.pack(3) + b"\x93\x01\x02")
        rogue.settimeout(WAIT)
        received = b""
        while chunk := rogue.recv(4096):
            received += chunk
        assert b"malformed" in received
    for _ in range(4):  # Ann and Bob play on
        me = ann if ann_game.deciding_seat() == 0 else bob
        before = me.decide_first_option()
        wait_for(lambda b=before: ann_game.state_id > b, "the decision arriving")
    assert not [n for p in (ann, bob) for n in p.news if n is None or isinstance(n, P.Bye)]
    for p in (ann, bob):
        p.link.close()


@pytest.mark.parametrize("early", [False, True], ids=["after-first-frame", "connect-early"])
def test_an_unreachable_host_is_one_line(tmp_path: Path, early: bool) -> None:
    with pytest.raises(HostError) as caught:
        HostLink(tmp_path / "nothing.sock", ANN, "Ann").connect(timeout=1)
    assert "cannot reach the game host" in str(caught.value) and "\n" not in str(caught.value)

    async def go() -> None:
        app = LobbyApp(tmp_path / "nothing.sock", ANN, "Ann")
        if early:
            app.connect_early()
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: not app.is_running, "the app ending")
        assert app.return_code == 1

    run(go())


@pytest.mark.parametrize("early", [False, True], ids=["after-first-frame", "connect-early"])
def test_the_lobby_says_who_you_are_in_its_first_frame_before_the_host_answers(tmp_path: Path, early: bool) -> None:
    """A returning person's first screen is the lobby: its title is there at once ("connecting…"),
    not only once the host has answered (connecting early, after ``EARLY_WAIT`` at most)."""
    silent = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    silent.bind(str(tmp_path / "silent.sock"))
    silent.listen(1)  # a host that never answers

    async def go() -> None:
        app = LobbyApp(tmp_path / "silent.sock", ANN, "Ann")
        if early:
            app.connect_early()
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, LobbyScreen) and app.link is None
            title = str(app.screen.query_one("#lobby-title", Static).render())
            assert title.startswith("Lobby  you: connecting"), title
            hint = str(app.screen.query_one("#lobby-hint", Static).render())
            assert "n new room" in hint and "q quit" in hint and "c close" in hint and "f finished" in hint
            assert all(len(line) <= SMALL[0] - 2 for line in hint.splitlines())
            await pilot.press("q")  # q asks before leaving the server
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen) and "Leave the server?" in app.screen.question
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, LobbyScreen) and app.is_running
            silent.close()

    try:
        run(go())
    finally:
        silent.close()


def test_the_name_is_asked_the_first_time_then_remembered(host: HostThread) -> None:
    assert remembered_name(str(host.path), ANN) is None
    chosen: list[str] = []

    async def go() -> None:
        app = LobbyApp(host.path, ANN, None, remember=chosen.append)
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, NameScreen), "the name question")
            # the question is the first screen, alone: the lobby is composed once a name is chosen
            assert not any(isinstance(s, LobbyScreen) for s in app.screen_stack) and app.link is None
            await pilot.press("enter")  # no name: asked again
            assert isinstance(app.screen, NameScreen)
            await pilot.press(*"Ann", "enter")
            await until(pilot, lambda: app.link is not None, "connected")
            assert link(app).name == "Ann" and isinstance(app.screen, LobbyScreen)

    run(go())
    assert chosen == ["Ann"]
    remember_name(str(host.path), ANN, "Ann")
    assert remembered_name(str(host.path), ANN) == "Ann"
    assert remembered_name(str(host.path), BOB) is None


def test_undo_is_the_hosts_strict_policy_and_its_refusal_is_said(host: HostThread) -> None:
    room = host.rooms.create(CFG, identity=ANN, name="undo")
    bob = Person(host.path, BOB, "Bob")
    bob.sit(room.id, 1)

    async def go() -> None:
        app = LobbyApp(host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            screen = await sit_down(pilot, app, room.id, 0)
            game = app.remote
            assert game is not None and game.undo_policy == "strict"
            while game.deciding_seat() != 0:
                before = game.state_id
                bob.decide_first_option()
                await until(pilot, lambda b=before: game.state_id > b, "Bob's decision")
            before = game.state_id
            await pilot.press("1")
            await until(pilot, lambda: game.state_id == before + 1 and screen._shown[1] == before + 1, "Ann's decision")
            await pilot.press("u")  # her own decision, nobody decided since: taken back
            await until(pilot, lambda: game.state_id == before and game.can_redo(), "the undo")
            assert host.room().session.state_id == before
            await pilot.press("r")  # and redone
            await until(pilot, lambda: game.state_id == before + 1, "the redo")
            while game.deciding_seat() == 0:  # Ann decides until it is Bob's turn …
                mark = game.state_id
                await pilot.press("1")
                await until(pilot, lambda m=mark: game.state_id > m and screen._shown[1] == game.state_id, "Ann")
            while game.deciding_seat() != 0:  # … and Bob decides after her
                mark = game.state_id
                bob.decide_first_option()
                await until(pilot, lambda m=mark: game.state_id > m, "Bob's decision")
            now = game.state_id
            await pilot.press("u")  # Bob decided since her last decision: refused by the host
            note = await until(
                pilot, lambda: next((n for n in app._notifications if n.title == "Undo"), None), "the refusal"
            )
            assert "Cannot undo" in note.message and host.room().session.state_id == now
            # The game screen's other keys work on a server's game too.
            await pilot.press("t")
            assert isinstance(app.screen, TimelineScreen)
            await pilot.press("escape", "s")
            assert isinstance(app.screen, SaveScreen)
            await pilot.press("enter")  # the host keeps the game: not saved here, said in one line
            assert "kept by the server" in str(app.screen.query_one("#save-message").render())
            await pilot.press("escape")
            assert app.screen is screen

    run(go())
    bob.link.close()


def test_a_remote_game_keeps_the_events_the_host_sent_as_a_session_would(host: HostThread) -> None:
    """RemoteGame.events(since) answers like Session.events for the seat, from the updates alone:
    news added per update, an undo drops what was undone, a fresh start (since=-1) replaces all."""
    room = host.rooms.create(CFG, identity=ANN)
    s = room.session
    joined = P.Joined(room=room.info(), seat=0, config=room.public_config, undo_policy="strict")
    game = RemoteGame(HostLink(host.path, ANN), joined)
    game.apply(room.update(0, -1))
    seen = [game.state_id]
    for _ in range(4):
        seat = s.deciding_seat()
        assert seat is not None
        s.send(s.view(seat).state.decision.options[0], seen_state_id=s.state_id, seat=seat)
        game.apply(room.update(0, seen[-1]))
        seen.append(game.state_id)
    for since in (-1, *seen):
        assert game.events(since, 0) == s.events(since, 0)
    s.undo(s.seat_of(s.state_id))
    back = s.state_id
    game.apply(room.update(0, seen[-1]))
    assert game.state_id == back and game.events(seen[-1], 0).undone
    assert game.events(-1, 0).events == s.events(-1, 0).events
    game.apply(room.update(0, -1))  # the whole picture again (a refresh)
    assert game.events(-1, 0).events == s.events(-1, 0).events
    assert [t.state_id for t in game.timeline(0)] == [t.state_id for t in s.timeline(0)]


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_client_app_runs_on_a_real_terminal_and_ends_in_one_line_when_the_host_goes(tmp_path: Path) -> None:
    """The SSH front's entry point on a pty (tmux, 80x24): the name asked, the lobby, a new room,
    a seat, a decision, back to the lobby; the host stopping ends it with one line and code 1."""
    h = HostThread(tmp_path)
    pane = Pane(f"nctui-lobby-{os.getpid()}")
    try:
        code = (
            "import sys; from nctui.platform.net.client_app import run; sys.exit(run(sys.argv[1], sys.argv[2], None))"
        )
        command = [
            "env",
            "TERM=xterm-256color",
            f"PYTHONPATH={ROOT}",
            sys.executable,
            "-c",
            code,
            str(h.path),
            "SHA256:TessTessTessTess",
        ]
        pane.start(" ".join(map(shlex.quote, command)) + '; echo "[client exited: $?]"; sleep 60')
        pane.wait_for("What name should the other players see?")
        pane.keys("Tess", "Enter")
        pane.wait_for("you: Tess", "SHA256:TessTes", "No rooms yet")
        pane.keys("n")
        pane.wait_for("New room on this server", "Seat to computer", "Nightmarium")
        pane.keys("Enter")
        pane.wait_for("Create the room")
        pane.keys("s")
        pane.wait_for("Enter takes it", "Watch as a spectator")
        pane.keys("Enter")
        pane.wait_for("Turn track", "Setup")
        session = h.room().session
        other = Person(h.path, BOB, "Bob")
        other.sit(h.room().id, 1)
        while session.deciding_seat() != 0:  # the seed is random: Blue may decide first
            seen = other.decide_first_option()  # the state Blue decided at: the host moves past it
            wait_for(lambda n=seen: session.state_id > n, "Blue's decision")
        before = session.state_id
        pane.wait_for("R Red  ")
        pane.keys("1")
        wait_for(lambda: session.state_id == before + 1, "Tess's decision at the host")
        other.link.close()
        pane.keys("q")
        pane.wait_for("Lobby", "○ Tess (you)")  # away from the seat, which stays hers
        assert remembered_name(str(h.path), "SHA256:TessTessTessTess") == "Tess"
        h.stop()
        gone = pane.wait_for("[client exited: 1]")
        assert "nctui: lost the connection to the game host" in gone and "Traceback" not in gone
    finally:
        pane.close()
        if h.thread.is_alive():
            h.stop()


def test_the_lobby_words_say_who_holds_each_seat_and_who_is_away() -> None:
    red, blue, green, yellow = (
        SeatLabel(name=n, letter=n[0], colour=c) for n, c in zip(("Red", "Blue", "Green", "Yellow"), PALETTE.values())
    )
    seats = (
        P.SeatInfo(kind="human", label=red, holder="Ann", connected=True, identity=ANN),
        P.SeatInfo(kind="bot", label=blue, holder="Bob", connected=False, identity=BOB),
        P.SeatInfo(kind="human", label=green),
        P.SeatInfo(kind="bot", label=yellow),
    )
    room = P.RoomInfo(
        id="r1",
        game="nightmare-cathedral",
        name="Friday",
        mode="4 players, Standard",
        progress="turn 3",
        finished=False,
        seats=seats,
        spectators=2,
    )
    text = room_words(room, ANN).plain
    assert "Friday  Nightmare Cathedral" in text and "turn 3" in text and "2 watching" in text
    assert "1 Red ● Ann (you)" in text  # connected, and it is this person
    assert "2 Blue ○ Bob (computer meanwhile)" in text  # away: handed to a computer until he returns
    assert "3 Green free" in text and "4 Yellow computer" in text
    assert my_seat((room,), BOB) == (room, 1) and my_seat((room,), CY) is None
    over = msgspec.structs.replace(room, finished=True)
    assert my_seat((over,), ANN) is None  # a finished game is not returned to
    assert short_identity("SHA256:" + "x" * 43) == "SHA256:xxxxxxxx…"


def test_a_host_refusing_the_hello_is_one_line(host: HostThread) -> None:
    class Older(HostLink):
        version = 99  # a client of another version

    with pytest.raises(HostError) as caught:
        Older(host.path, ANN, "Ann").connect(timeout=5)
    assert str(caught.value) == (
        f"the game host refused the connection: protocol version 99 is not {P.VERSION}: update nctui"
    )


def test_a_host_of_another_version_is_refused_in_one_line(tmp_path: Path) -> None:
    """The client checks the welcome too: a host of another protocol version is not spoken to."""
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listening.bind(str(tmp_path / "newer.sock"))
    listening.listen(1)

    def newer_host() -> None:  # says welcome in a version this client does not speak
        conn, _ = listening.accept()
        with conn:
            conn.recv(4096)
            conn.sendall(P.frame(P.Welcome(version=P.VERSION + 1, name="Ann")))
            conn.recv(4096)  # until the client hangs up

    thread = threading.Thread(target=newer_host, daemon=True)
    thread.start()
    try:
        with pytest.raises(HostError) as caught:
            HostLink(tmp_path / "newer.sock", ANN, "Ann").connect(timeout=5)
        assert str(caught.value) == (
            f"the game host speaks protocol version {P.VERSION + 1}, this nctui {P.VERSION}: update nctui"
        )
        thread.join(WAIT)
    finally:
        listening.close()


def test_a_remote_rules_refusal_offers_the_rule(host: HostThread) -> None:
    """A decision the host refuses by the rules reads as in a game played here: the rule and its
    rulebook section, and R opens the rules at that section with the refusal noted. The help
    says what q does in a game on a server."""
    from nctui.games.nightmare_cathedral.engine.actions import ChooseTurnStart
    from nctui.ui.screens.rules import RulesScreen

    room = host.rooms.create(CFG, identity=ANN, name="rules")
    bob = Person(host.path, BOB, "Bob")
    bob.sit(room.id, 0)

    async def go() -> None:
        app = LobbyApp(host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            screen = await sit_down(pilot, app, room.id, 1)
            game = app.remote
            assert game is not None and game.deciding_seat() == 1  # Blue sets up first
            await pilot.press("question_mark")  # the help says what q does here
            help_text = await until(
                pilot,
                lambda: app.screen.query("#help-text") and str(app.screen.query_one("#help-text").render()),
                "the help",
            )
            assert "back to the lobby: your seat stays yours" in help_text and "save and quit" not in help_text
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is screen, "the game again")
            assert app.link is not None
            app.link.send(P.act(ChooseTurnStart(position=70), game.state_id))
            await until(pilot, lambda: screen._rule_refused is not None, "the refusal")
            shown = [n.message for n in app._notifications]
            assert any("Rulebook: SETUP 7. Press R for the rule." in m for m in shown), shown
            await pilot.press("R")
            rules = await until(pilot, lambda: app.screen if isinstance(app.screen, RulesScreen) else None, "R")
            assert rules.note is not None and "Not allowed: the Turn track has positions 0 to 11" in rules.note

    run(go())


def test_giving_up_a_seat_asks_first_then_frees_it(host: HostThread) -> None:
    """G in a game on a server: a question first (n keeps the seat), then y leaves the seat for
    good and goes back to the lobby, where the seat shows free."""
    room = host.rooms.create(CFG, identity=ANN, name="leaving")

    async def go() -> None:
        app = LobbyApp(host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            await sit_down(pilot, app, room.id, 0)
            await pilot.press("G")
            await until(pilot, lambda: "for good" in str(getattr(app.screen, "question", "")), "the question")
            await pilot.press("n")  # no: still at the seat
            await until(pilot, lambda: drawn(app), "the game again")
            assert host.room().record.holders[0] is not None
            await pilot.press("G")
            await until(pilot, lambda: "for good" in str(getattr(app.screen, "question", "")), "the question")
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            wait_for(lambda: host.room().record.holders[0] is None, "the seat freed")
            assert app.remote is None

    run(go())


def _screen_text(screen: Any) -> str:
    return "\n".join(str(w.render()) for w in screen.query(Static))


def test_the_lobby_creates_a_room_of_each_game_with_that_games_own_settings(host: HostThread) -> None:
    """n: the game (every game of the registry), the room's name; Enter: that game's own New game
    screen, in its room mode; s creates the room. The lobby lists each room with its game."""

    async def go() -> None:
        app = LobbyApp(host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: app.link is not None and isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = narrow(app.screen, LobbyScreen)
            for index, entry in enumerate(registry.ENTRIES):
                await pilot.press("n")
                await until(pilot, lambda: isinstance(app.screen, NewRoomScreen), "the new room")
                for _ in range(index):
                    await pilot.press("down")
                app.screen.query_one("#room-name", Input).value = f"{entry.key} room"
                await pilot.press("enter")
                settings = await until(pilot, lambda: getattr(app.screen, "mode", "") == "room" and app.screen, "")
                text = _screen_text(settings) + "".join(str(b.label) for b in settings.query("#start"))
                assert entry.title in text and "Create the room" in text, text
                await pilot.press("s")
                await until(pilot, lambda: isinstance(app.screen, SeatScreen), f"the seats of the {entry.title} room")
                assert entry.title in _screen_text(app.screen)
                await pilot.press("escape")
                await until(pilot, lambda: app.screen is lobby, "the lobby again")
            made = {r.record.name: r.game.id for r in host.rooms.rooms.values()}
            assert made == {f"{e.key} room": e.id for e in registry.ENTRIES}
            await until(pilot, lambda: len(lobby.shown) == len(registry.ENTRIES), "every room listed")
            listed = [room_words(r, ANN).plain for r in lobby.shown]
            for entry in registry.ENTRIES:
                assert any(f"{entry.key} room  {entry.title}" in line for line in listed), listed

    run(go())


COMPANIONS = [e.id for e in registry.ENTRIES if e.id != "nightmare-cathedral"]
FIRST_KEY = {"cathedral": "enter"}  # its Light places the Cathedral where the cursor is; others: option 1


@pytest.mark.parametrize("game_id", COMPANIONS)
def test_a_room_of_a_companion_game_is_played_with_its_own_screen(host: HostThread, game_id: str) -> None:
    """The room's game's own screen (the registry's ``screen``) over the RemoteGame: this
    person's seat only (never covered for a hand-off), a key decides at the host, q goes back to
    the lobby with the seat kept."""
    entry = registry.entry(game_id)
    bots = registry.simulated(game_id).computer_game(3, ("random",) * max(2, entry.players[0]))
    config = msgspec.structs.replace(bots, seats=("human", *bots.seats[1:]))
    room = host.rooms.create(config, identity=ANN, name="companion")
    session = room.session

    async def go() -> None:
        app = LobbyApp(host.path, ANN, "Ann")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.shown, "the rooms")
            app.join_seat(room.id, 0)
            own = registry.load(entry.screen)
            screen = await until(
                pilot, lambda: isinstance(app.screen, own) and isinstance(app.screen, RemoteScreen) and app.screen, ""
            )
            assert screen.seat == screen.viewer == 0 and screen.game.seat == 0
            for _ in range(50):  # a key only counts once the screen shows the decision: pressed again meanwhile
                await until(pilot, lambda: session.deciding_seat() == 0, "Ann's decision")
                before = session.state_id
                await pilot.press(FIRST_KEY.get(game_id, "1"))
                await pilot.pause(0.05)
                if any(session.seat_of(i) == 0 for i in range(before + 1, session.state_id + 1)):
                    break
            else:
                raise AssertionError("no key of Ann's decided")
            assert not screen.has_class("-covered")
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            assert room.record.holders[0] is not None and room.record.holders[0].name == "Ann"
            app.join_seat(room.id, 0)  # back, then another room of the same game (a game over's n)
            await until(pilot, lambda: isinstance(app.screen, own) and app.screen.is_mounted, "the game again")
            app.new_game()
            chosen = await until(  # the same game chosen at first
                pilot,
                lambda: isinstance(app.screen, NewRoomScreen) and app.screen.is_mounted and app.screen.plan().game,
                "",
            )
            assert chosen == game_id and app.remote is None

    run(go())
