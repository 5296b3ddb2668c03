"""The SSH front of ``nctui serve`` (asyncssh): who may connect, what a connection may ask for, and
the relay between an SSH channel and the connection's own client process (forked on a pty by the
fork server, ``net.forkserver``).

- Keys: only the public keys in the authorized-keys file log in; a password only when a password
  file is given. A person's identity is their key's SHA256 fingerprint (a password login:
  ``password:<user>``); the name they chose the first time is remembered by the client.
- Refused, each with one line: a shell or session without a pty, exec requests, subsystems, port
  forwarding (local and remote), agent and X11 forwarding. The one command run: ``export ROOM``
  writes a finished game of the server's as a save file to stdout (``ssh HOST export ROOM >
  FILE``, then ``nctui replay FILE`` on any machine); a game not over is refused in one line.
- Limits (``Limits``, each a flag of ``nctui serve``): sessions in all, connections per peer
  address, an idle timeout (a person's: no key on any of their sessions and no decision reaching
  them for that long, ``Occupancy``), bounded buffers (the client's output waits
  while the SSH channel is full; input beyond the bound closes the session). Hitting a limit says
  so in one line before closing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import socket
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh

from ..safeio import BadInput, read_bounded
from .auth import PasswordError, Passwords, Throttle
from .export import ExportError, finished_save
from .forkserver import Child, Spawner, SpawnError, set_winsize
from .limits import Limits, Occupancy, idle_line
from .store import RoomStoreError, StoredRoom

log = logging.getLogger("nctui.platform.net")

# Leave the alternate screen, show the cursor, stop mouse reports and bracketed paste, reset colours:
# the terminal as it was, so a closing line after a killed client reads as one line.
TERMINAL_RESET = b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[?25h\x1b[0m\x1b[?1049l"


KEEPALIVE = 7.0  # seconds of silence before the server asks the client; 3 unanswered: the connection is gone
EXPORT = re.compile(r"export ([A-Za-z0-9_-]{1,64})")  # the one command: a finished game's save file
SESSION_GRACE = 5.0  # seconds a logged-in connection may go without a terminal session (ssh -N) before it closes


class FrontError(Exception):
    """The SSH front cannot start (a key file unreadable, the port taken); ``str()`` is one line."""


MAX_KEY_FILE = 1 << 20  # bytes of a key, keys or password file: far beyond any (a key line is ~100)


def _read_small(path: Path) -> bytes:
    """The bytes of a key or password file, never more than ``MAX_KEY_FILE`` (``/dev/zero``, a
    pipe or a device is refused, not read); ``OSError`` with one sentence."""
    try:
        return read_bounded(path, MAX_KEY_FILE)
    except BadInput as exc:
        raise OSError(str(exc)) from None


def load_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's host key: read from ``path``, or generated there once (0600) when missing."""
    try:
        if path.exists():
            return asyncssh.import_private_key(_read_small(path))
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        key = asyncssh.generate_private_key("ssh-ed25519")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
        return key
    except (OSError, asyncssh.KeyImportError, ValueError) as exc:
        raise FrontError(f"host key {path}: {exc}") from None


class AuthorizedKeys:
    """The ``--authorized-keys`` file, read again when it changes: an edit (a friend's key added or
    removed) counts from the next login, without a restart. A file that can no longer be read or
    parsed keeps the last good keys, said in one log line."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp = self._stat()
        try:
            self.keys = self._read()
        except (OSError, ValueError, asyncssh.KeyImportError) as exc:
            raise FrontError(f"authorized keys {path}: {exc}") from None

    def _read(self) -> asyncssh.SSHAuthorizedKeys:
        return asyncssh.import_authorized_keys(_read_small(self.path).decode("utf-8"))

    def _stat(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size, st.st_ino

    def current(self) -> asyncssh.SSHAuthorizedKeys:
        """The keys as the file says now (checked at each login: one ``stat``)."""
        stamp = self._stat()
        if stamp != self._stamp:
            self._stamp = stamp
            try:
                self.keys = self._read()
                log.info("authorized keys reloaded from %s", self.path)
            except (OSError, ValueError, asyncssh.KeyImportError) as exc:
                log.warning("authorized keys %s: %s; the last good keys stay", self.path, exc)
        return self.keys


def load_authorized_keys(path: Path | None) -> AuthorizedKeys | None:
    return None if path is None else AuthorizedKeys(path)


def load_password(path: Path | None) -> Passwords | None:
    """The password file as scrypt hashes (``auth``); ``FrontError`` in one line."""
    if path is None:
        return None
    try:
        data = _read_small(path)
    except OSError as exc:
        raise FrontError(f"password file {path}: {exc.strerror or exc}") from None
    try:
        return Passwords.parse(data, path)
    except PasswordError as exc:
        raise FrontError(str(exc)) from None


class Front:
    """The listening SSH server and what its connections share (counts, the spawner)."""

    def __init__(
        self,
        spawner: Spawner,
        *,
        host_key: asyncssh.SSHKey,
        authorized: AuthorizedKeys | None,
        password: Passwords | None,
        limits: Limits | None = None,
        app: str = "nctui",
        throttle: Throttle | None = None,
        occupancy: Occupancy | None = None,
        finished: Callable[[str], StoredRoom | None] | None = None,
    ) -> None:
        self.spawner = spawner
        self.finished = finished  # a room as the store has it, for ``export ROOM``
        self.host_key = host_key
        self.authorized = authorized
        self.password = password
        self.throttle = throttle or Throttle()  # shared with the web front's login
        self.limits = limits or Limits()
        self.app = app  # "bare": the benchmarks' yardstick through the same path
        occupancy = occupancy or Occupancy()  # shared with the web front: the caps count both
        self.occupancy = occupancy  # and the host notes in it when a decision reached a person (idle)
        self.per_peer: Counter[str] = occupancy.per_peer
        self.sessions: set[Any] = occupancy.sessions
        self._server: asyncssh.SSHAcceptor | None = None

    async def start(self, sock: socket.socket) -> int:
        """Serve on the listening socket ``sock``; returns its port."""
        try:
            self._server = await asyncssh.create_server(
                lambda: SSHConnection(self),
                sock=sock,
                server_host_keys=[self.host_key],
                encoding=None,
                agent_forwarding=False,
                x11_forwarding=False,
                allow_scp=False,
                login_timeout=self.limits.login_timeout,
                keepalive_interval=KEEPALIVE,  # a silent drop (no FIN) is noticed within 4 of these
                keepalive_count_max=3,
                server_version="nctui",
            )
        except OSError as exc:
            raise FrontError(f"cannot serve SSH: {exc.strerror or exc}") from None
        return int(sock.getsockname()[1])

    async def close(self) -> None:
        for session in list(self.sessions):
            if isinstance(session, ClientSession):
                session.end(b"nctui: the server is stopping")
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()


class SSHConnection(asyncssh.SSHServer):
    """One SSH connection: its authentication and what it may open."""

    def __init__(self, front: Front) -> None:
        self.front = front
        self.peer = "?"
        self.identity = ""
        self.conn: asyncssh.SSHServerConnection | None = None
        self.counted = False
        self.open_sessions = 0
        self._no_session: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.peer = str((conn.get_extra_info("peername") or ("?",))[0])
        self.front.per_peer[self.peer] += 1
        self.counted = True
        if self.front.per_peer[self.peer] > 2 * self.front.limits.max_per_peer:  # a flood: no words for it
            conn.abort()

    def _over_cap(self) -> bool:
        """Too many connections from this address: say so (the SSH disconnect reason, which OpenSSH
        prints) once the keys are exchanged, i.e. when the client starts to log in."""
        cap = self.front.limits.max_per_peer
        if self.front.per_peer[self.peer] <= cap or self.conn is None:
            return False
        log.info("refused %s: more than %d connections from it", self.peer, cap)
        self.conn.disconnect(
            asyncssh.DISC_TOO_MANY_CONNECTIONS,
            f"nctui: too many connections from your address (at most {cap}); close one first",
        )
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self.conn = None
        if self._no_session is not None:
            self._no_session.cancel()
        if self.counted:
            self.counted = False
            self.front.per_peer[self.peer] -= 1
            if self.front.per_peer[self.peer] <= 0:
                del self.front.per_peer[self.peer]

    def begin_auth(self, username: str) -> bool:
        self._over_cap()
        return True  # every connection logs in with a key (or the password when enabled)

    def public_key_auth_supported(self) -> bool:
        return self.front.authorized is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        authorized = self.front.authorized
        if authorized is None or authorized.current().validate(key, self.peer, self.peer) is None:
            log.info("refused %s: key %s is not authorized", self.peer, key.get_fingerprint())
            return False
        self.identity = key.get_fingerprint("sha256")
        return True

    def password_auth_supported(self) -> bool:
        return self.front.password is not None

    async def validate_password(self, username: str, password: str) -> bool:
        """Throttled (``auth.Throttle``: a wait after each wrong guess from this address)."""
        passwords = self.front.password
        if passwords is None or not await self.front.throttle.attempt(self.peer, passwords, username, password):
            log.info("refused %s: wrong password for %r", self.peer, username[:40])
            return False
        self.identity = f"password:{username[:40]}"
        return True

    def auth_completed(self) -> None:
        log.info("%s logged in from %s", self.identity, self.peer)
        self._arm_no_session()

    def _arm_no_session(self) -> None:
        """A connection with no session (``ssh -N``, or one whose session ended) holds a slot of
        its address: it is closed, with its one line, unless a session comes at once."""
        if self._no_session is not None:
            self._no_session.cancel()
        if self.conn is not None:
            self._no_session = asyncio.get_running_loop().call_later(SESSION_GRACE, self._without_session)

    def _without_session(self) -> None:
        self._no_session = None
        if self.open_sessions or self.conn is None:
            return
        log.info("refused %s: a connection without a terminal session", self.identity or self.peer)
        self.conn.disconnect(
            asyncssh.DISC_BY_APPLICATION, "nctui needs a terminal session: connect with plain `ssh` (no -N, no command)"
        )

    def session_requested(self) -> ClientSession:
        self.open_sessions += 1
        if self._no_session is not None:
            self._no_session.cancel()
            self._no_session = None
        return ClientSession(self)

    def session_closed(self) -> None:
        self.open_sessions = max(0, self.open_sessions - 1)
        if not self.open_sessions:
            self._arm_no_session()

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        log.info("refused %s: port forwarding to %s:%d", self.identity, dest_host, dest_port)
        raise asyncssh.ChannelOpenError(
            asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, "nctui: port forwarding is not allowed here"
        )

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        log.info("refused %s: remote port forwarding", self.identity)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        raise asyncssh.ChannelOpenError(
            asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, "nctui: socket forwarding is not allowed here"
        )

    def unix_server_requested(self, listen_path: str) -> bool:
        return False


class ClientSession(asyncssh.SSHServerSession[bytes]):
    """One SSH session: a pty and a shell request start the person's client process; this relays
    bytes both ways (bounded) and passes resizes on."""

    def __init__(self, connection: SSHConnection) -> None:
        self.connection = connection
        self.front = connection.front
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.refusal: str | None = None
        self.export: str | None = None  # ``export ROOM``: the room whose finished game is written
        self.child: Child | None = None
        self.pending = bytearray()  # input the pty has not taken yet
        self.reading = False
        self.last_key = time.monotonic()
        self.counted = False  # in the sessions and the person's count (``Occupancy.opened``)
        self._idle: asyncio.TimerHandle | None = None
        self._ended = False
        self.started = 0.0
        self._starting: asyncio.Future[None] | None = None

    # -- requests ------------------------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan
        chan.set_write_buffer_limits(high=self.front.limits.max_buffer)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.term = term_type or "xterm-256color"
        self.size = (term_size[0] or 80, term_size[1] or 24)
        return True

    def shell_requested(self) -> bool:
        if self.term is None:
            self.refusal = "nctui needs a terminal: connect with `ssh -t` (no command, no -T)"
            log.info("refused %s: a session without a pty", self.connection.identity)
        return True  # accepted, so the refusal can be said in words

    def exec_requested(self, command: str) -> bool:
        wanted = EXPORT.fullmatch(command.strip())
        if wanted and self.front.finished is not None:
            self.export = wanted.group(1)
            log.info("%s: export of room %s", self.connection.identity, self.export)
            return True
        self.refusal = "nctui runs no commands but `export ROOM`: connect with plain `ssh`, no command"
        log.info("refused %s: exec %r", self.connection.identity, command[:60])
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.refusal = f"nctui offers no {subsystem[:20]} subsystem: connect with plain `ssh`"
        log.info("refused %s: subsystem %r", self.connection.identity, subsystem[:20])
        return True

    def session_started(self) -> None:
        self._starting = asyncio.ensure_future(self._start())

    async def _start(self) -> None:
        assert self.chan is not None
        if self.refusal is None and len(self.front.sessions) >= self.front.limits.max_sessions:
            self.refusal = f"nctui: the server is full ({self.front.limits.max_sessions} sessions); try again later"
            log.info("refused %s: the server is full", self.connection.identity)
        if self.refusal is not None:
            self._say_and_close(self.refusal.encode())
            return
        if self.export is not None:
            await self._export(self.export)
            return
        self.front.sessions.add(self)
        self.front.occupancy.opened(self.connection.identity)
        self.counted = True
        self.started = time.monotonic()
        cols, rows = self.size
        no_color = bool(self.chan.get_environment().get("NO_COLOR"))
        try:
            self.child = await self.front.spawner.spawn(
                identity=self.connection.identity,
                term=self.term or "",
                cols=cols,
                rows=rows,
                app=self.front.app,
                no_color=no_color,
            )
        except SpawnError as exc:
            log.warning("%s: %s", self.connection.identity, exc)
            self._uncount()
            self._say_and_close(b"nctui: the server could not start your client; try again later")
            return
        if self._ended:  # the person left while the client started
            self._stop_child()
            return
        if self.size != (cols, rows):  # the window changed while the client started
            with contextlib.suppress(OSError):
                set_winsize(self.child.master, *self.size)
        log.info(
            "%s: session started (pid %d, %s %dx%d)", self.connection.identity, self.child.pid, self.term, cols, rows
        )
        self._read_on()
        self._flush_input()
        self._arm_idle()

    async def _export(self, room_id: str) -> None:
        """``export ROOM``: the finished game's save file on stdout, or one line on stderr."""
        assert self.chan is not None and self.front.finished is not None
        try:
            stored = self.front.finished(room_id)
            # replaying the room's history is pure work: off the loop, so no other session waits
            data = await asyncio.to_thread(finished_save, stored, room_id)
        except (ExportError, RoomStoreError) as exc:
            self._say_and_close(f"nctui: {exc}".encode())
            return
        self._ended = True
        with contextlib.suppress(OSError):
            self.chan.write(data)
        self._exit(0)

    # -- the relay -----------------------------------------------------------------------------

    def _read_on(self) -> None:
        if self.child is not None and not self.reading and not self._ended:
            asyncio.get_running_loop().add_reader(self.child.master, self._from_client)
            self.reading = True

    def _read_off(self) -> None:
        if self.child is not None and self.reading:
            asyncio.get_running_loop().remove_reader(self.child.master)
            self.reading = False

    def _from_client(self) -> None:
        assert self.child is not None and self.chan is not None
        try:
            data = os.read(self.child.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the client process ended (the person quit)
            data = b""
        if not data:
            self._finish(0)
            return
        try:
            self.chan.write(data)
        except OSError:  # the channel closed under us: the person is gone
            self._stop_child()

    def pause_writing(self) -> None:
        self._read_off()  # the channel is full: the client's output waits (its writes block)

    def resume_writing(self) -> None:
        self._read_on()

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if self._ended:
            return
        self.last_key = time.monotonic()
        self.front.occupancy.key(self.connection.identity, self.last_key)
        self.pending += data  # keys typed while the client starts wait for it
        if len(self.pending) > self.front.limits.max_buffer:
            log.info("%s: closed, input beyond %d bytes", self.connection.identity, self.front.limits.max_buffer)
            self.end(b"nctui: too much input at once; closing")
            return
        self._flush_input()

    def _flush_input(self) -> None:
        if self.child is None or not self.pending:
            return
        loop = asyncio.get_running_loop()
        try:
            written = os.write(self.child.master, self.pending)
        except BlockingIOError:
            written = 0
        except OSError:
            return
        del self.pending[:written]
        loop.remove_writer(self.child.master)
        if self.pending:
            loop.add_writer(self.child.master, self._flush_input)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width or self.size[0], height or self.size[1])
        if self.child is not None:
            with contextlib.suppress(OSError):
                set_winsize(self.child.master, *self.size)  # the kernel sends the app SIGWINCH

    # -- idle ----------------------------------------------------------------------------------

    def _arm_idle(self) -> None:
        timeout = self.front.limits.idle_timeout
        if timeout <= 0 or self._ended:
            return
        # active: a key of this person's, or a decision made in a room they are in (a spectator of a live game)
        active = self.front.occupancy.last_active(self.connection.identity, self.last_key)
        due = active + timeout - time.monotonic()
        if due <= 0:
            log.info("%s: closed, idle for %g s", self.connection.identity, timeout)
            self.end(idle_line(timeout).encode())
            return
        self._idle = asyncio.get_running_loop().call_later(due, self._arm_idle)

    # -- the end -------------------------------------------------------------------------------

    def _say_and_close(self, line: bytes) -> None:
        self._ended = True
        if self.chan is not None:
            with contextlib.suppress(OSError):  # the peer may have gone already
                self.chan.write_stderr(line + b"\r\n")
            self._exit(1)

    def end(self, line: bytes) -> None:
        """Close this session with one line: the client process is killed first, the terminal reset."""
        if self._ended:
            return
        self._stop_child()
        if self.chan is not None:
            with contextlib.suppress(OSError):
                self.chan.write(TERMINAL_RESET + b"\r\n" + line + b"\r\n")
            self._exit(1)

    def _finish(self, status: int) -> None:
        if self._ended:
            return
        self._stop_child()
        self._exit(status)

    def _exit(self, status: int) -> None:
        if self.chan is not None:
            try:
                self.chan.exit(status)
            except OSError:
                self.chan.close()

    def _uncount(self) -> None:
        """This session no longer holds a slot, nor keeps its person's idle clock."""
        self.front.sessions.discard(self)
        if self.counted:
            self.counted = False
            self.front.occupancy.closed(self.connection.identity)

    def _stop_child(self) -> None:
        self._ended = True
        self._uncount()
        if self._idle is not None:
            self._idle.cancel()
        child, self.child = self.child, None
        if child is None:
            return
        loop = asyncio.get_running_loop()
        if self.reading:
            loop.remove_reader(child.master)
            self.reading = False
        loop.remove_writer(child.master)
        os.close(child.master)
        child.control.close()  # the fork server kills the process (if it still runs) and reaps it
        log.info(
            "%s: session ended (pid %d, %.0f s)", self.connection.identity, child.pid, time.monotonic() - self.started
        )

    def eof_received(self) -> bool:
        return True  # keep the channel open for writing: a refusal is still said after the client's EOF

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_child()
        self.connection.session_closed()
