"""``nctui serve`` as a real process, reached over loopback with asyncssh's client: who may log in,
what is refused (each in one line), the limits, and a dropped connection ending only its own
client process. Every server is stopped by its pid."""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from nctui.platform import saves
from tests.helpers import narrow
from tests.serve_helpers import Server, alive, make_key, wait_gone


@pytest.fixture
def keys(tmp_path: Path) -> tuple[asyncssh.SSHKey, asyncssh.SSHKey, Path]:
    friend = make_key(tmp_path / "friend")
    stranger = make_key(tmp_path / "stranger")
    return friend, stranger, tmp_path / "friend.pub"


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(*args: str, data: str = "data") -> Server:
        s = Server(tmp_path / data, *args)
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()


def run(body: Awaitable[Any], timeout: float = 90) -> Any:
    return asyncio.run(asyncio.wait_for(body, timeout))


async def connect(port: int, key: asyncssh.SSHKey | None = None, **kw: Any) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1",
        port,
        username="friend",
        known_hosts=None,
        agent_path=None,
        client_keys=[key] if key is not None else None,
        **kw,
    )


async def read_until(stream: Any, pattern: bytes, timeout: float = 30) -> bytes:
    seen = b""

    async def loop() -> bytes:
        nonlocal seen
        while pattern not in seen:
            chunk = await stream.read(65536)
            if not chunk:
                raise AssertionError(f"closed before {pattern!r}: {seen[-400:]!r}")
            seen += chunk
        return seen

    return await asyncio.wait_for(loop(), timeout)


async def pty_session(conn: asyncssh.SSHClientConnection, size: tuple[int, int] = (80, 24)) -> Any:
    return await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None)


def test_only_authorized_keys_log_in_and_reach_the_client(server_factory: Callable[..., Server], keys: Any) -> None:
    friend, stranger, authorized = keys
    server = server_factory("--authorized-keys", str(authorized))

    async def body() -> None:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server.port, stranger)
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server.port, password="guess", preferred_auth="password")
        async with await connect(server.port, friend) as conn:
            proc = await pty_session(conn)
            await read_until(proc.stdout, b"What name should the other players see?")
            proc.stdin.write(b"Zed\r")
            await read_until(proc.stdout, b"Zed")
            proc.stdin.write(b"q")  # the lobby asks first
            await read_until(proc.stdout, b"Leave the server?")
            proc.stdin.write(b"y")
            assert (await asyncio.wait_for(proc.wait(), 20)).exit_status == 0  # quitting ends the session

    run(body())
    fingerprint = friend.get_fingerprint("sha256")
    server.wait_for(re.escape(fingerprint) + r": session started \(pid \d+, xterm-256color 80x24\)")
    server.wait_for("refused 127.0.0.1: key .* is not authorized")
    assert server.stop() == 0


def test_password_only_when_enabled(server_factory: Callable[..., Server], keys: Any, tmp_path: Path) -> None:
    _, _, authorized = keys
    (tmp_path / "pw").write_text("open sesame\n")
    server = server_factory("--authorized-keys", str(authorized), "--password-file", str(tmp_path / "pw"))

    async def body() -> None:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server.port, password="wrong", preferred_auth="password")
        async with await connect(server.port, password="open sesame", preferred_auth="password") as conn:
            proc = await pty_session(conn)
            await read_until(proc.stdout, b"What name")
            proc.close()

    run(body())
    server.wait_for(r"password:friend: session started")


def test_exec_shell_subsystem_forwarding_refused_in_one_line(server_factory: Callable[..., Server], keys: Any) -> None:
    friend, _, authorized = keys
    server = server_factory("--authorized-keys", str(authorized))

    async def body() -> None:
        async with await connect(server.port, friend) as conn:
            result = await conn.run("cat /etc/passwd")
            assert result.exit_status == 1 and result.stdout == ""
            assert result.stderr == "nctui runs no commands but `export ROOM`: connect with plain `ssh`, no command\r\n"
            result = await conn.run("export nosuchroom")
            assert result.exit_status == 1 and result.stdout == ""
            assert result.stderr == "nctui: there is no room 'nosuchroom' on this server\r\n"
            result = await conn.run()  # a shell without a pty
            assert result.exit_status == 1
            stderr = narrow(result.stderr, str)
            assert stderr.startswith("nctui needs a terminal") and stderr.count("\n") == 1
            result = await conn.run(subsystem="sftp")
            assert result.exit_status == 1 and "no sftp subsystem" in narrow(result.stderr, str)
            with pytest.raises(asyncssh.ChannelOpenError, match="port forwarding is not allowed"):
                await conn.open_connection("127.0.0.1", 22)
            with pytest.raises(asyncssh.ChannelListenError):
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.open_unix_connection("/tmp/anything")

    run(body())
    server.wait_for(r"refused SHA256:\S+: exec 'cat /etc/passwd'")
    server.wait_for(r"refused SHA256:\S+: a session without a pty")
    server.wait_for(r"refused SHA256:\S+: port forwarding to 127.0.0.1:22")
    assert not [line for line in server.lines if "session started" in line]  # no client process for any


def test_session_cap_and_per_peer_cap_say_one_line(server_factory: Callable[..., Server], keys: Any) -> None:
    friend, _, authorized = keys
    server = server_factory("--authorized-keys", str(authorized), "--max-sessions", "1", "--max-per-peer", "2")

    async def body() -> None:
        async with await connect(server.port, friend) as first, await connect(server.port, friend) as second:
            proc = await pty_session(first)
            await read_until(proc.stdout, b"What name")
            full = await pty_session(second)
            out = await asyncio.wait_for(full.stderr.read(), 20)
            assert out == b"nctui: the server is full (1 sessions); try again later\r\n"
            assert (await full.wait()).exit_status == 1
            with pytest.raises(asyncssh.DisconnectError, match=r"too many connections from your address \(at most 2\)"):
                async with await connect(server.port, friend):
                    pass
            proc.close()

    run(body())
    server.wait_for("refused SHA256:.*: the server is full")
    server.wait_for("refused 127.0.0.1: more than 2 connections from it")


def test_idle_timeout_closes_with_one_line_and_ends_the_process(
    server_factory: Callable[..., Server], keys: Any
) -> None:
    friend, _, authorized = keys
    server = server_factory("--authorized-keys", str(authorized), "--idle-timeout", "2")

    async def body() -> None:
        async with await connect(server.port, friend) as conn:
            proc = await pty_session(conn)
            await read_until(proc.stdout, b"What name")
            out = await read_until(proc.stdout, b"a game you are in\r\n", timeout=20)
            line = b"nctui: closed after 2 seconds with no key pressed and no move in a game you are in"
            assert b"\x1b[?1049l\r\n" + line + b"\r\n" in out
            assert (await asyncio.wait_for(proc.wait(), 10)).exit_status == 1

    run(body())
    pid = int(server.wait_for(r"session started \(pid (\d+)").group(1))
    assert wait_gone(pid)


def test_dropped_connection_ends_only_its_process(server_factory: Callable[..., Server], keys: Any) -> None:
    friend, _, authorized = keys
    server = server_factory("--authorized-keys", str(authorized))

    async def body() -> None:
        keep = await connect(server.port, friend)
        drop = await connect(server.port, friend)
        kept = await pty_session(keep)
        await read_until(kept.stdout, b"What name")
        dropped = await pty_session(drop)
        await read_until(dropped.stdout, b"What name")
        pids = [int(m) for m in re.findall(r"session started \(pid (\d+)", "\n".join(server.lines))]
        assert len(pids) == 2 and all(alive(p) for p in pids)
        drop.abort()  # the network goes away: no goodbye
        await asyncio.to_thread(server.wait_for, rf"session ended \(pid {pids[1]}")
        assert await asyncio.to_thread(wait_gone, pids[1])
        assert alive(pids[0])
        kept.change_terminal_size(100, 30)  # the other person's client still answers: it redraws
        await read_until(kept.stdout, b"What name")
        keep.close()

    run(body())


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ((), "nobody could log in over SSH: give --authorized-keys FILE"),
        (("--authorized-keys", "missing.pub"), "authorized keys missing.pub: "),
        (("--authorized-keys", "k.pub", "--password-file", "empty"), "password file empty is empty"),
    ],
)
def test_serve_that_cannot_start_says_why_in_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    said: str,
) -> None:
    from nctui import cli

    monkeypatch.chdir(tmp_path)
    make_key(tmp_path / "k")
    (tmp_path / "empty").write_text("\n")
    assert cli.main(["serve", "--ssh-port", "0", "--data", str(tmp_path / "data"), *args]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert not (tmp_path / "data").exists()  # refused before anything touched the disk


def test_a_client_process_keeps_nothing_of_the_servers_environment_but_what_it_needs() -> None:
    """The server's secrets and settings stay in the server: a client process (driven by a remote
    person) gets the locale, the server user's home and folders, nctui's settings, a safe PATH and
    the person's terminal, nothing else."""
    from nctui.platform.net.forkserver import SAFE_PATH, client_environment, kept_environment

    server = {
        "HOME": "/home/host",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "XDG_DATA_HOME": "/d",
        "NCTUI_CACHE_DIR": "/c",
        "AWS_SECRET_ACCESS_KEY": "x",
        "SSH_AUTH_SOCK": "/s",
        "PATH": "/opt/evil:/bin",
        "COLUMNS": "200",
        "LINES": "60",
        "NO_COLOR": "1",
        "TERM": "screen",
        "PYTHONSTARTUP": "/p",
    }
    env = client_environment(server, {"term": "xterm-256color"})
    assert env == {
        "HOME": "/home/host",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "XDG_DATA_HOME": "/d",
        "NCTUI_CACHE_DIR": "/c",
        "PATH": SAFE_PATH,
        "TERM": "xterm-256color",
    }
    assert client_environment(server, {"term": "", "no_color": True})["NO_COLOR"] == "1"
    web = kept_environment({**server, "TEXTUAL_DRIVER": "web"}, ("TEXTUAL_", "COLUMNS"))
    assert web["TEXTUAL_DRIVER"] == "web" and web["COLUMNS"] == "200" and "AWS_SECRET_ACCESS_KEY" not in web


def test_an_edited_authorized_keys_file_counts_from_the_next_login(
    server_factory: Callable[..., Server], keys: Any, tmp_path: Path
) -> None:
    """A key added to the file logs in at once, without a restart; a file that breaks keeps the
    last good keys (one log line), and a key removed is refused again."""
    friend, stranger, authorized = keys
    server = server_factory("--authorized-keys", str(authorized))
    friend_line = authorized.read_text()
    stranger_line = (tmp_path / "stranger.pub").read_text()

    async def logs_in(key: asyncssh.SSHKey) -> bool:
        try:
            async with await connect(server.port, key):
                pass
        except asyncssh.PermissionDenied:
            return False
        return True

    async def body() -> None:
        assert not await logs_in(stranger)
        authorized.write_text(friend_line + stranger_line)
        assert await logs_in(stranger)
        authorized.write_text("ssh-ed25519 not-a-key\n")
        assert await logs_in(stranger) and await logs_in(friend)  # the last good keys stay
        authorized.write_text(friend_line)
        assert not await logs_in(stranger) and await logs_in(friend)

    run(body())
    server.wait_for("authorized keys reloaded from")
    server.wait_for("the last good keys stay")
    assert server.stop() == 0


WARMED = """
import sys, threading
import textual.css.stylesheet as stylesheet
from nctui.platform.net import client_app, forkserver
from nctui.ui.textual_ext.parsed_css import parsed_sources

forkserver.preload(("nctui", "bare"))
assert threading.active_count() == 1, threading.enumerate()  # the fork server forks alone
assert parsed_sources() > 0
parses = []
real = stylesheet.parse
stylesheet.parse = lambda *a, **k: parses.append(a[2]) or real(*a, **k)
for app in (*client_app.first_apps(), forkserver.bare_app()):
    forkserver.warm(app)
print(len(parses), parses[:3])
"""


def test_the_fork_server_warms_each_app_so_a_forked_client_parses_no_css() -> None:
    """Before it forks, the fork server runs each app once headless (the name question, the lobby,
    the bare app): every CSS source a client needs is parsed then and shared, so a forked client
    parses none (its first frame comes sooner), and no thread of the warm-up is left to fork."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", WARMED], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[0] == "0", done.stdout


PRELOADED = """
import sys, threading
from nctui.platform import registry
from nctui.platform.net import forkserver
from nctui.ui.rules import get_summary

forkserver.preload(("nctui",))
assert threading.active_count() == 1, threading.enumerate()
before = set(sys.modules)
for entry in registry.ENTRIES:  # what a client process in a room of each game runs
    for ref in (entry.game, entry.screen, entry.new_game, entry.practice, entry.tutorial):
        if ref:
            registry.load(ref)
    game = registry.game(entry.id)
    game.facts(game.view(game.new(game.config_type()).state, 0))
import nctui.ui.screens.help, nctui.ui.screens.rules, nctui.ui.screens.handoff
print(sorted(set(sys.modules) - before), get_summary.cache_info().currsize)
"""


def test_the_fork_server_preloads_every_game_so_a_client_in_a_room_imports_nothing() -> None:
    """The fork server imports every game of the registry (its screens, the dialogs they open on
    demand), makes each game's content and reads its rules summary before it forks: a client
    process that opens a room of any game imports no module and reads no rules file of its own
    (each would be a private copy per person)."""
    import subprocess
    import sys

    from nctui.platform import registry

    done = subprocess.run([sys.executable, "-c", PRELOADED], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    imported, summaries = done.stdout.rsplit(maxsplit=1)
    assert imported == "[]"
    assert int(summaries) == sum(1 for e in registry.ENTRIES if e.rules)


def test_a_whole_game_of_nightmarium_over_ssh(server_factory: Callable[..., Server], keys: Any, tmp_path: Path) -> None:
    """A companion game through the real SSH front: a person at an 80x24 pty takes the seat of a
    Nightmarium room (against the computer), plays it to the end with the digit keys of its own
    screen, and sees who won; a watcher on the host's socket says when the person's turn is. The
    finished game, and only once it is over, is taken home with `ssh HOST export ROOM`."""
    from nctui.games.nightmarium.state import NightmariumConfig
    from nctui.platform.net import protocol as P
    from tests.test_net_host import Client, press_until_taken, view

    friend, _, authorized = keys
    server = server_factory("--authorized-keys", str(authorized))
    sock = server.data / "run" / "host.sock"
    config = NightmariumConfig(seats=("human", "bot"), levels=("planner", "planner"))

    async def body() -> None:
        owner = await Client.connect(sock, friend.get_fingerprint("sha256"))
        await owner.send(P.create_room(config, name="creatures"))
        (info,) = (await owner.until(P.Rooms)).rooms
        owner.close()
        async with await connect(server.port, friend) as conn:
            early = await conn.run(f"export {info.id}", encoding=None)
            assert early.exit_status == 1 and early.stdout == b"" and b"is not over" in narrow(early.stderr, bytes)
            proc = await pty_session(conn)
            await read_until(proc.stdout, b"What name should the other players see?")
            proc.stdin.write(b"Zed\r")
            await read_until(proc.stdout, b"creatures")
            proc.stdin.write(b"\r")  # the room's seats
            await read_until(proc.stdout, b"Enter takes it")
            proc.stdin.write(b"\r")  # seat 1
            seen = await read_until(proc.stdout, b"Your hand")
            screen = bytearray(seen)

            async def drain() -> None:  # the pty is read all along: a full pty would stop the client
                while chunk := await proc.stdout.read(65536):
                    screen.extend(chunk)

            reader = asyncio.create_task(drain())
            watcher = await Client.connect(sock, "SHA256:watcher")
            await watcher.send(P.Watch(room=info.id))
            up = await watcher.until(P.Update)
            decisions = 0
            while view(up, "nightmarium").winner is None:
                if up.deciding != 0:  # the computer's turn: it plays on the host
                    up = await watcher.until(P.Update, lambda m, s=up.state_id: m.state_id > s)
                    continue
                # the first option; a key pressed again but taken late decides the next one: any will do
                up = await press_until_taken(watcher, lambda: proc.stdin.write(b"1"), up, 1.0)
                decisions += 1
                assert decisions < 400, "the game does not end"
            winner = view(up, "nightmarium").winner
            # the screen calls the person at the keyboard "you" and a computer seat by its player and holder
            said = b"You win" if winner == 0 else f"Player {winner + 1} (".encode() + b"computer"
            await asyncio.wait_for(_until_in(screen, said), 20)
            watcher.close()
            # the finished game taken home: ssh HOST export ROOM > FILE, then nctui replay FILE
            taken = await conn.run(f"export {info.id}", encoding=None)
            assert taken.exit_status == 0, taken.stderr
            (tmp_path / "game.json").write_bytes(narrow(taken.stdout, bytes))
            home = saves.load(tmp_path / "game.json").store
            assert home.game.decider(home.entry(home.last_id).state) is None and home.last_id > decisions
            proc.stdin.write(b"q")  # back to the lobby
            await asyncio.wait_for(_until_in(screen, b"over"), 20)  # the room, over, in the lobby
            proc.close()
            reader.cancel()

    run(body(), timeout=240)
    server.wait_for(r"session started \(pid \d+, xterm-256color 80x24\)")


async def _until_in(buffer: bytearray, text: bytes) -> None:
    while text not in buffer:
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("kind", ["host key", "authorized keys", "password file"])
def test_a_key_or_password_file_is_read_with_a_bound(kind: str, tmp_path: Path) -> None:
    """``--authorized-keys /dev/zero`` (or ``--password-file``, ``--host-key``, ``/dev/stdin``)
    read 5.4 GB in 10 s, then MemoryError: each is read only if a regular file, and only up to
    its bound; each refusal is one line naming the file (issue 41, item 7)."""
    from nctui.platform.net import ssh

    big = tmp_path / "big"
    big.write_bytes(b"a" * (ssh.MAX_KEY_FILE + 1))
    read = {
        "host key": ssh.load_host_key,
        "authorized keys": ssh.load_authorized_keys,
        "password file": ssh.load_password,
    }[kind]
    for path, why in ((Path("/dev/zero"), "not a regular file"), (big, "far too large")):
        with pytest.raises(ssh.FrontError, match=why) as refused:
            read(path)
        assert kind in str(refused.value) and "\n" not in str(refused.value)


def test_wrong_passwords_are_throttled_and_accounts_have_their_own(
    server_factory: Callable[..., Server], keys: Any, tmp_path: Path
) -> None:
    """Each wrong guess from an address makes its next one wait (a guesser gets a few a second at
    most, not a hundred); accounts (USER:SECRET, a secret plain or scrypt-hashed) log in only with
    their own password."""
    from nctui.platform.net.auth import hash_password

    _, _, authorized = keys
    (tmp_path / "pw").write_text(f"ann:{hash_password('red door')}\nbob:blue door\n")
    server = server_factory("--authorized-keys", str(authorized), "--password-file", str(tmp_path / "pw"))

    async def guess(user: str, password: str) -> bool:
        try:
            conn = await asyncssh.connect(
                "127.0.0.1",
                server.port,
                username=user,
                password=password,
                preferred_auth="password",
                known_hosts=None,
                agent_path=None,
                client_keys=None,
            )
        except asyncssh.PermissionDenied:
            return False
        conn.close()
        return True

    async def body() -> float:
        assert await guess("ann", "red door") and await guess("bob", "blue door")
        assert not await guess("ann", "blue door") and not await guess("carl", "red door")
        start = asyncio.get_running_loop().time()
        for _ in range(3):  # asyncssh's client tries a password once per connection
            assert not await guess("bob", "guess")
        return asyncio.get_running_loop().time() - start

    assert run(body(), 120) >= 3.0  # at least a second's wait before each guess after a wrong one


def test_a_connection_without_a_terminal_session_is_closed_with_its_line(
    server_factory: Callable[..., Server], keys: Any
) -> None:
    """``ssh -N`` (no session at all) and a session without a pty hold no slot: the connection is
    closed at once, saying why."""
    friend, _, authorized = keys
    server = server_factory("--authorized-keys", str(authorized))

    async def body() -> None:
        conn = await connect(server.port, friend)  # like ssh -N: logged in, no session
        await asyncio.wait_for(conn.wait_closed(), 30)
        conn = await connect(server.port, friend)
        result = await conn.run()  # a shell without a pty: its line, then the connection goes too
        assert isinstance(result.stderr, str) and result.stderr.startswith("nctui needs a terminal")
        await asyncio.wait_for(conn.wait_closed(), 30)

    run(body())
    server.wait_for(r"refused SHA256:\S+: a connection without a terminal session")


def test_a_server_that_stops_leaves_each_terminal_as_it_was(keys: Any, tmp_path: Path) -> None:
    """SIGTERM (a restart) or Ctrl+C on the server: each person's terminal gets the alternate screen and mouse reporting
    turned off, then the line, before the connection closes."""
    friend, _, authorized = keys
    server = Server(tmp_path / "data", "--authorized-keys", str(authorized))
    try:

        async def body() -> bytes:
            conn = await connect(server.port, friend)
            proc = await pty_session(conn)
            seen = await read_until(proc.stdout, b"What name")
            assert b"\x1b[?1049h" in seen  # the app is in the alternate screen
            server.proc.send_signal(signal.SIGTERM)  # a service manager's restart
            while chunk := await asyncio.wait_for(proc.stdout.read(65536), 30):
                seen += chunk
            conn.close()
            return seen

        seen = run(body())
        after = seen[seen.rindex(b"\x1b[?1049h") :]
        assert b"\x1b[?1049l" in after and b"\x1b[?1000l" in after and b"\x1b[?1003l" in after
        assert b"nctui: the server is stopping" in after
    finally:
        assert server.stop() == 0


class PausableRelay:
    """A loopback TCP relay to the server that can stop passing bytes without closing anything:
    a network that went silent (no FIN, no RST)."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.paused = asyncio.Event()
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._pair, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _pair(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            while data := await src.read(65536):
                if self.paused.is_set():
                    await asyncio.Event().wait()  # silent from now on: nothing passes, nothing closes
                dst.write(data)
                await dst.drain()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer), return_exceptions=True)

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


def test_a_silent_drop_shows_the_person_away_within_half_a_minute(keys: Any, tmp_path: Path) -> None:
    """Ann's network goes silent (a paused relay: no FIN): the server's keepalives notice it, her
    session ends, and Bob's players panel, at the other seat, says she is away within the
    keepalives' 28 s (not minutes); the lobby shows her seat away too."""
    from nctui.games.nightmare_cathedral.engine import GameConfig
    from nctui.platform.net import protocol as P
    from nctui.platform.net.ssh import KEEPALIVE
    from nctui.ui.lobby_app import LobbyApp
    from nctui.ui.screens.lobby import LobbyScreen
    from tests.test_net_host import Client
    from tests.test_net_presence import screen_text

    async def until(pilot: Any, test: Callable[[], bool], what: str, bound: float = 30.0) -> None:
        deadline = asyncio.get_running_loop().time() + bound
        while not test():
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"no {what} within {bound:g} s")
            await pilot.pause(0.1)

    friend, _, authorized = keys
    ann = friend.get_fingerprint("sha256")
    data = tmp_path / "data"
    sock = data / "run" / "host.sock"
    server = Server(data, "--authorized-keys", str(authorized))
    try:

        async def seat_connected(c: Client) -> bool:
            await c.send(P.ListRooms())
            return bool((await c.until(P.Rooms)).rooms[0].seats[0].connected)

        async def body() -> float:
            host = Client(*await asyncio.open_unix_connection(str(sock)))
            await host.send(P.Hello(version=P.VERSION, identity=ann, name="Ann"))
            await host.until(P.Welcome)
            await host.send(P.create_room(GameConfig(players=2, seats=("human", "human"), seed=9), name="drop"))
            (room,) = (await host.until(P.Rooms)).rooms
            await host.send(P.JoinSeat(room=room.id, seat=0))  # the seat is Ann's
            await host.until(P.Update)
            await host.send(P.Leave())
            relay = PausableRelay(server.port)
            conn = await asyncssh.connect(
                "127.0.0.1",
                await relay.start(),
                username="ann",
                client_keys=[friend],
                known_hosts=None,
                agent_path=None,
            )
            proc = await pty_session(conn, (120, 40))
            await read_until(proc.stdout, b"What name")
            proc.stdin.write(b"Ann\r")  # then the lobby takes her back to her seat
            while not await seat_connected(host):
                await asyncio.sleep(0.2)
            bob = LobbyApp(sock, "SHA256:bob", "Bob")  # Bob's screen, in this process
            async with bob.run_test(size=(120, 40)) as pilot:
                await until(pilot, lambda: isinstance(bob.screen, LobbyScreen) and bool(bob.screen.shown), "lobby")
                bob.join_seat(room.id, 1)
                await until(pilot, lambda: "R Red (Ann)" in screen_text(bob), "Ann named in Bob's panel")
                relay.paused.set()
                proc.stdin.write(b"x")  # a key that never arrives: the link is silent both ways
                start = asyncio.get_running_loop().time()
                # within the keepalives' bound (4 of them), with room to spare for a busy machine
                away = "R Red (Ann, away)"
                await until(pilot, lambda: away in screen_text(bob), "away in Bob's panel", 4 * KEEPALIVE + 30)
                took = asyncio.get_running_loop().time() - start
            while await seat_connected(host):  # the lobby says it too (its answers may lag one behind)
                await asyncio.sleep(0.2)
            conn.abort()
            relay.close()
            host.close()
            return took

        took = run(body(), 150)
        print(f"silent drop noticed after {took:.1f} s")
        server.wait_for(r"session ended")
    finally:
        assert server.stop() == 0
