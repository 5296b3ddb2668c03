"""One ``nctui serve`` per data folder, with every front: a second server on the same folder is
refused in one line and changes nothing; a failed start changes nothing on disk; SSH and browser
people sit in the same room of one server, each seeing only their own hand; every file the server
makes is its user's alone."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import aiohttp
import asyncssh

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.platform.net import protocol as P
from tests.serve_helpers import ROOT, Server, make_key
from tests.test_net_host import Client

CFG = GameConfig(players=2, seats=("human", "human"), seed=3)
WEB_READY = r"serving the browser client on http://127\.0\.0\.1:(\d+)/"


def snapshot(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Every file and folder under ``folder``: (inode, mode, mtime), to see that nothing changed."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            st = os.lstat(os.path.join(root, name))
            out[os.path.relpath(os.path.join(root, name), folder)] = (st.st_ino, st.st_mode, st.st_mtime_ns)
    return out


def serve_once(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``nctui serve`` that is expected to refuse: its exit status and what it said."""
    return subprocess.run(
        [sys.executable, "-m", "nctui", "serve", "--data", str(data), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        cwd=ROOT,
        check=False,
    )


def test_a_second_server_on_the_same_folder_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    make_key(tmp_path / "k")
    keys = ("--authorized-keys", str(tmp_path / "k.pub"))
    data = tmp_path / "data"
    first = Server(data, *keys)
    try:
        before = snapshot(data)
        assert "run/host.sock" in before and "rooms.db" in before
        for fronts in (
            ("--ssh-port", "0"),
            ("--web-port", "0", "--web-guests"),
            ("--ssh-port", "0", "--web-port", "0"),
        ):
            second = serve_once(data, *fronts, *keys)
            assert second.returncode == 2
            said = second.stderr.strip().splitlines()
            assert said == [
                f"nctui serve: another nctui serve (pid {first.proc.pid}) uses the data folder {data}: "
                "stop it first, or give --data"
            ], second.stderr
            assert snapshot(data) == before  # no socket, no file of the first removed or replaced

        # the first still serves: its host answers on its socket
        async def still() -> None:
            c = await Client.connect(data / "run" / "host.sock", "SHA256:ann")
            await c.send(P.ListRooms())
            await c.until(P.Rooms)
            c.close()

        asyncio.run(asyncio.wait_for(still(), 30))
    finally:
        assert first.stop() == 0


def test_a_start_that_fails_on_its_port_changes_nothing_on_disk(tmp_path: Path) -> None:
    make_key(tmp_path / "k")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = str(taken.getsockname()[1])
    try:
        for fronts in (
            ("--ssh-port", port),
            ("--web-port", port, "--web-guests"),
            ("--ssh-port", "0", "--web-port", port),
        ):
            result = serve_once(tmp_path / "fresh", *fronts, "--authorized-keys", str(tmp_path / "k.pub"))
            assert result.returncode == 2
            assert len(result.stderr.strip().splitlines()) == 1 and "cannot listen on 127.0.0.1:" in result.stderr
            assert not (tmp_path / "fresh").exists()
    finally:
        taken.close()


def test_every_file_of_the_data_folder_is_private(tmp_path: Path) -> None:
    """The folder (even one made 0755 by an older nctui) is 0700, each file in it 0600."""
    make_key(tmp_path / "k")
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)
    old = data / "rooms.db"
    old.touch()
    old.chmod(0o644)
    server = Server(data, "--authorized-keys", str(tmp_path / "k.pub"), "--web-port", "0", "--ssh-port", "0")
    try:

        async def use() -> None:  # a room, a name remembered: the files a running server makes
            c = await Client.connect(data / "run" / "host.sock", "SHA256:ann")
            await c.send(P.create_room(CFG, name="private"))
            await c.until(P.Rooms)
            c.close()

        asyncio.run(asyncio.wait_for(use(), 30))
        found = snapshot(data)
        assert {"rooms.db", "ssh_host_ed25519_key", "lock", "run", "run/host.sock", "run/fork.sock"} <= set(found)
        for name, (_, mode, _) in found.items():
            want = 0o700 if stat.S_ISDIR(mode) else 0o600
            assert stat.S_IMODE(mode) == want, f"{name} is {oct(stat.S_IMODE(mode))}"
        assert stat.S_IMODE(data.stat().st_mode) == 0o700
    finally:
        assert server.stop() == 0


async def _ws_screen(ws: aiohttp.ClientWebSocketResponse, seen: bytearray, until: bytes, timeout: float = 60) -> None:
    async def loop() -> None:
        while until not in seen:
            msg = await ws.receive()
            if msg.type == aiohttp.WSMsgType.BINARY:
                seen.extend(msg.data)
            elif msg.type == aiohttp.WSMsgType.TEXT:
                seen.extend(msg.data.encode())
            else:
                raise AssertionError(f"the websocket ended: {msg.type}, after {bytes(seen[-300:])!r}")

    await asyncio.wait_for(loop(), timeout)


def test_ssh_and_browser_people_sit_in_one_room_of_one_server(tmp_path: Path) -> None:
    """One process, both fronts: Ann over SSH and Bob in a browser (logged in with his account's
    password) come back to their seats of one room (held by their identities) and each screen
    shows the hand of its own seat only."""
    ann = make_key(tmp_path / "ann")
    data = tmp_path / "data"
    (tmp_path / "pw").write_text("bob:blue door\n")
    server = Server(
        data,
        *("--authorized-keys", str(tmp_path / "ann.pub"), "--password-file", str(tmp_path / "pw")),
        *("--ssh-port", "0", "--web-port", "0"),
    )
    try:
        ssh_port = server.port
        web_port = int(server.wait_for(WEB_READY).group(1))
        host = data / "run" / "host.sock"

        async def body() -> None:
            base = f"http://127.0.0.1:{web_port}"
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.post(base + "/login", data={"user": "bob", "password": "blue door"}) as page:
                    assert page.status == 200 and "/ws" in await page.text()  # the page, after the login
                people = {0: ann.get_fingerprint("sha256"), 1: "password:bob"}
                # the room and its seats, held by the two people (as if they had joined before)
                made = await Client.connect(host, people[0])
                await made.send(P.create_room(CFG, name="mixed"))
                (room,) = (await made.until(P.Rooms)).rooms
                for seat, who in people.items():
                    c = await Client.connect(host, who)
                    await c.send(P.JoinSeat(room=room.id, seat=seat))
                    await c.until(P.Update)
                    c.close()
                made.close()
                conn = await asyncssh.connect(
                    "127.0.0.1", ssh_port, username="ann", client_keys=[ann], known_hosts=None, agent_path=None
                )
                proc = await conn.create_process(term_type="xterm-256color", term_size=(160, 50), encoding=None)
                ssh_seen = bytearray()

                async def ssh_until(marker: bytes) -> None:
                    async def loop() -> None:
                        while marker not in ssh_seen:
                            chunk = await proc.stdout.read(65536)
                            assert chunk, bytes(ssh_seen[-300:])
                            ssh_seen.extend(chunk)

                    await asyncio.wait_for(loop(), 90)

                await ssh_until(b"What name")
                proc.stdin.write(b"Ann\r")
                async with http.ws_connect(base + "/ws?width=160&height=50") as ws:
                    await ws.send_str(json.dumps(["resize", {"width": 160, "height": 50}]))
                    web_seen = bytearray()
                    await _ws_screen(ws, web_seen, b"What name")
                    await ws.send_str(json.dumps(["stdin", "Bob\r"]))
                    # each is back at their seat: the game's screen with their own hand
                    await _ws_screen(ws, web_seen, b"Blue's hand", 90)
                    await ssh_until(b"Red's hand")
                    assert b"Red's hand" not in web_seen and b"Blue's hand" not in ssh_seen
                conn.close()

        asyncio.run(asyncio.wait_for(body(), 240))
    finally:
        assert server.stop() == 0
