"""End to end through the real OpenSSH client in tmux: ``nctui serve`` (a real process), Ann and
Bob each ``ssh`` in, name themselves, join one room from the lobby and each make a decision with
a key; Cy watches. Each screen shows only its own hand. Every process is stopped by its id (the
server by its pid, each tmux server by its own socket name, which ends its ssh)."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.platform.net import protocol as P
from tests.serve_helpers import Server, make_key
from tests.test_net_host import Client, press_until_taken

pytestmark = pytest.mark.skipif(
    not (shutil.which("ssh") and shutil.which("tmux")), reason="needs the OpenSSH client (ssh) and tmux"
)

CFG = GameConfig(players=2, seats=("human", "human"), seed=5)
SSH_OPTIONS = (
    "-o",
    "IdentitiesOnly=yes",
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "BatchMode=yes",
    "-o",
    "LogLevel=ERROR",
)


class Terminal:
    """One person's terminal: a tmux server of its own (120x40: every panel shows) running ``ssh``."""

    def __init__(self, name: str, command: list[str]) -> None:
        self.socket = f"nctui-e2e-{os.getpid()}-{name}"
        self.tmux("new-session", "-d", "-x", "120", "-y", "40", "-s", name, " ".join(command))

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10, check=False
        ).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", *keys)

    # ``test`` is called with the screen's text (Callable[..., bool]: it may bind values by default arguments).
    def wait(self, test: Callable[..., bool], what: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.screen()
            if test(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"{what} never showed; the screen:\n{self.screen()}")

    def close(self) -> None:
        self.tmux("kill-server")


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for t in opened:
        t.close()


def test_two_players_over_openssh_decide_a_third_watches_each_sees_only_their_hand(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    people = {name: make_key(tmp_path / name) for name in ("ann", "bob", "cy")}
    (tmp_path / "keys").write_bytes(b"".join(k.export_public_key() for k in people.values()))
    server = Server(tmp_path / "data", "--authorized-keys", str(tmp_path / "keys"))
    sock = tmp_path / "data" / "run" / "host.sock"
    try:

        async def create() -> None:  # the room exists before anyone connects (created by Ann's identity)
            c = await Client.connect(sock, people["ann"].get_fingerprint("sha256"))
            await c.send(P.create_room(CFG, name="friday"))
            await c.until(P.Rooms)
            c.close()

        asyncio.run(asyncio.wait_for(create(), 30))

        def ssh(name: str) -> Terminal:
            t = Terminal(
                name,
                [
                    "ssh",
                    "-p",
                    str(server.port),
                    "-i",
                    str(tmp_path / name),
                    *SSH_OPTIONS,
                    f"{name}@127.0.0.1",
                ],
            )
            terminals.append(t)
            t.wait(lambda s: "What name" in s, f"{name}'s name prompt")
            t.keys(name.capitalize(), "Enter")
            t.wait(lambda s: "friday" in s, f"the room in {name}'s lobby")
            return t

        ann, bob = ssh("ann"), ssh("bob")
        for t, seat_name in ((ann, "Red"), (bob, "Blue")):
            if t is bob:  # his lobby has heard that Ann sits (it asks every 2 s)
                t.wait(lambda s: "Red ● Ann" in s, "Ann in her seat, in Bob's lobby")
            t.keys("Enter")  # the room's seats
            t.wait(lambda s: "Watch" in s and "free" in s.lower(), "the seats")
            t.keys("Enter")  # the first free seat
            t.wait(lambda s, n=seat_name: f"{n}'s hand" in s, f"{seat_name}'s hand on its own screen")
        cy = ssh("cy")
        cy.keys("w")
        cy.wait(lambda s: "(hidden)" in s and "decid" in s.lower(), "the game on the spectator's screen")

        async def play() -> None:  # a watcher over the socket says who decides; that person presses 1
            w = await Client.connect(sock, "SHA256:observer")
            await w.send(P.ListRooms())
            (info,) = (await w.until(P.Rooms)).rooms
            await w.send(P.Watch(room=info.id))
            up = await w.until(P.Update)
            decided: set[int] = set()
            while decided != {0, 1}:
                assert up.deciding in (0, 1)
                who = ann if up.deciding == 0 else bob
                nxt = await press_until_taken(w, lambda t=who: t.keys("1"), up, 8.0)
                decided.add(up.deciding)
                up = nxt
            w.close()

        asyncio.run(asyncio.wait_for(play(), 90))
        screens = {name: t.screen() for name, t in (("ann", ann), ("bob", bob), ("cy", cy))}
        assert "Red's hand" in screens["ann"] and "Blue's hand" not in screens["ann"]
        assert "Blue's hand" in screens["bob"] and "Red's hand" not in screens["bob"]
        assert "'s hand" not in screens["cy"] and "(hidden)" in screens["cy"]
    finally:
        for t in terminals:
            t.close()
        server.stop()


def test_openssh_with_no_session_is_closed_at_once_with_its_line(tmp_path: Path) -> None:
    """``ssh -N`` (log in, no terminal, no command) does not hold a slot: OpenSSH is disconnected
    within seconds and prints the server's reason."""
    make_key(tmp_path / "ann")
    server = Server(tmp_path / "data", "--authorized-keys", str(tmp_path / "ann.pub"))
    try:
        done = subprocess.run(
            ["ssh", "-N", "-p", str(server.port), "-i", str(tmp_path / "ann"), *SSH_OPTIONS, "ann@127.0.0.1"],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        assert done.returncode != 0
        assert "nctui needs a terminal session: connect with plain `ssh` (no -N, no command)" in done.stderr
    finally:
        assert server.stop() == 0
