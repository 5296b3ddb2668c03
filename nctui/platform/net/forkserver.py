"""The fork server: one single-threaded process that imports nctui and Textual once, then forks a
client process per connection, each on a pty of its own. Before it listens it runs each app once
headless (``warm``): the CSS parsed and Textual's caches filled then are shared by every fork.

``nctui serve`` starts it (``python -m nctui.platform.net.forkserver``) before anything else, because fork
from a process with threads is unsafe and the serve process has threads (the rooms' computer
players, asyncssh's executor). They talk over a Unix socket: for each connection the serve process
sends one JSON line (terminal type, size, identity, name, which app) and receives the child's pid
with the pty's master end (``SCM_RIGHTS``). That socket stays open for the child's lifetime: when
the serve process closes it (the person dropped), the child is killed (SIGHUP, then SIGKILL) and
nothing else; when the child ends, the fork server closes it. Children are reaped without blocking
(SIGCHLD wakes the loop, then ``waitpid(WNOHANG)``). The fork server ends when its stdin reaches
end of file (the serve process is gone, however it ended), killing its children.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import io
import json
import os
import pty
import selectors
import signal
import socket
import struct
import sys
import termios
import threading
import time
import tty
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .datadir import bound_inode, unlink_own

if TYPE_CHECKING:
    from textual.app import App

APPS = ("nctui", "bare")  # "bare": a bare Textual app, the benchmarks' yardstick served the same way
KILL_GRACE = 2.0  # seconds between SIGHUP and SIGKILL for a dropped connection's process
MAX_REQUEST = 4096


def set_winsize(fd: int, cols: int, rows: int) -> None:
    """Give the pty its size; on a master the kernel also sends SIGWINCH to the app (the resize)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", max(1, rows), max(1, cols), 0, 0))


def _raw_input(fd: int) -> None:
    """Raw input from the start (no echo, no line editing, Enter stays a carriage return): keys
    typed before the app is up wait in the pty unchanged. Output keeps newline translation, so a
    line printed after the app ends still starts at the left."""
    tty.setraw(fd)
    attrs = termios.tcgetattr(fd)
    attrs[1] |= termios.OPOST | termios.ONLCR
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


def bare_app() -> App[None]:
    """A bare Textual app (one line of text): what connect-to-first-frame is compared with."""
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("bare Textual app")

    return Bare()


def run_bare() -> int:
    bare_app().run()
    return 0


def warm(app: App[Any]) -> None:
    """Run ``app`` headless to its first screen and end it: what a child would do the first time
    (parse its CSS, fill Textual's caches) is done once here, before the forks share it."""

    async def first_screen() -> None:
        async with app.run_test(size=(80, 24), notifications=True, tooltips=True) as pilot:  # as a child runs
            await pilot.pause()

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        asyncio.run(first_screen())  # quietly: what a warm-up app says is for nobody
    for thread in threading.enumerate():  # the app's workers: forking needs this process alone
        if thread is not threading.main_thread():
            thread.join(5.0)


def preload(apps: tuple[str, ...] = APPS) -> None:
    """Import what the children run (every game of the registry too: ``client_app.preload``) and
    run each app once headless (``warm``), so each fork shares those pages and caches and starts
    at once. The bare app (the yardstick) is warmed the same way."""
    import textual.app
    import textual.drivers.linux_driver
    import textual.widgets  # noqa: F401

    from nctui.ui.textual_ext.parsed_css import share_parsed_css

    share_parsed_css()
    if "nctui" in apps:
        from . import client_app

        client_app.preload()
        for app in client_app.first_apps():
            warm(app)
    if "bare" in apps:
        warm(bare_app())


SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
# What a client process keeps of the server's environment: the locale, the server user's home and
# folders (platformdirs), nctui's own settings. Nothing else of the server (its secrets, its
# SSH_* or proxy variables, COLUMNS/LINES that Textual would take over the pty's size) reaches a
# process that a remote person drives.
KEPT = ("HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TMPDIR", "TZ")
KEPT_PREFIXES = ("LC_", "XDG_", "NCTUI_")


def kept_environment(server: Mapping[str, str], prefixes: tuple[str, ...] = ()) -> dict[str, str]:
    """``KEPT`` and ``KEPT_PREFIXES`` (and ``prefixes``) of the server's environment, a safe PATH."""
    keep = KEPT_PREFIXES + prefixes
    env = {k: v for k, v in server.items() if k in KEPT or k.startswith(keep)}
    env["PATH"] = SAFE_PATH
    return env


def client_environment(server: Mapping[str, str], request: Mapping[str, Any]) -> dict[str, str]:
    """The environment of a client process over SSH: ``kept_environment`` and the person's
    terminal (TERM, NO_COLOR from the ssh session's request)."""
    env = kept_environment(server)
    env["TERM"] = str(request.get("term") or "xterm-256color")
    if request.get("no_color"):
        env["NO_COLOR"] = "1"
    return env


def _child(request: dict[str, Any], slave: int, host_socket: str) -> int:
    """In the forked child: the pty becomes this new session's controlling terminal and stdio."""
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    os.closerange(3, 65536)  # every socket of the fork server, and the pty's slave (now 0-2)
    for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)
    env = client_environment(os.environ, request)
    os.environ.clear()
    os.environ.update(env)
    if request.get("app") == "bare":
        return run_bare()
    from . import client_app

    return client_app.run(host_socket, str(request["identity"]), request.get("name") or None)


class ForkServer:
    def __init__(self, listen_path: str, host_socket: str) -> None:
        self.listen_path = listen_path
        self.host_socket = host_socket
        self.sel = selectors.DefaultSelector()
        self.children: dict[int, socket.socket] = {}  # pid → its control connection
        self.kill_at: dict[int, float] = {}  # pid → when SIGKILL follows the SIGHUP
        self.running = True
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)

    def serve(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.listen_path)
        listener = self.listener
        listener.bind(self.listen_path)
        os.chmod(self.listen_path, 0o600)
        inode = bound_inode(self.listen_path)
        listener.listen(64)
        wake_r, wake_w = socket.socketpair()
        wake_r.setblocking(False)
        wake_w.setblocking(False)
        signal.set_wakeup_fd(wake_w.fileno())
        signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wakeup fd hears it
        signal.signal(signal.SIGTERM, lambda *_: self._stop())
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C reaches the serve process, which stops us
        self.sel.register(listener, selectors.EVENT_READ, self._accept)
        self.sel.register(wake_r, selectors.EVENT_READ, lambda: _drain(wake_r))
        self.sel.register(sys.stdin, selectors.EVENT_READ, self._parent_gone)
        from nctui.ui.textual_ext.collector import steady_collector

        steady_collector()  # the children inherit it; what is loaded now stays put: their pages stay shared
        sys.stdout.write("ready\n")
        sys.stdout.flush()
        while self.running:
            timeout = max(0.0, min(self.kill_at.values()) - time.monotonic()) if self.kill_at else None
            for key, _ in self.sel.select(timeout):
                key.data()
            self._reap()
            self._kill_due()
        for pid in list(self.children):
            _signal(pid, signal.SIGKILL)
        self._reap(wait=True)
        # Quiet to the end: a child's SIGCHLD after the wakeup socket closed was "Exception ignored
        # when trying to write to the signal wakeup fd" on the server's log.
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        wake_r.close()
        wake_w.close()
        listener.close()
        unlink_own(self.listen_path, inode)  # not a newer server's socket, if that one started meanwhile

    def _stop(self) -> None:
        self.running = False

    def _parent_gone(self) -> None:
        if not os.read(sys.stdin.fileno(), 512):
            self.running = False

    def _accept(self) -> None:
        conn, _ = self.listener.accept()
        try:
            conn.settimeout(5.0)  # the serve process sends its request at once
            data = b""
            while not data.endswith(b"\n"):
                chunk = conn.recv(MAX_REQUEST)
                if not chunk or len(data) > MAX_REQUEST:
                    raise ValueError("no request")
                data += chunk
            request = json.loads(data)
            if request.get("app", "nctui") not in APPS or not isinstance(request.get("identity"), str):
                raise ValueError("bad request")
            pid, master = self._spawn(request)
        except (OSError, ValueError) as exc:
            with contextlib.suppress(OSError):
                conn.sendall(json.dumps({"error": str(exc)}).encode() + b"\n")
            conn.close()
            return
        try:
            socket.send_fds(conn, [json.dumps({"pid": pid}).encode() + b"\n"], [master])
        except OSError:
            _signal(pid, signal.SIGKILL)
        finally:
            os.close(master)
        conn.setblocking(False)
        self.children[pid] = conn
        self.sel.register(conn, selectors.EVENT_READ, lambda: self._control(pid, conn))

    def _spawn(self, request: dict[str, Any]) -> tuple[int, int]:
        master, slave = pty.openpty()
        set_winsize(slave, int(request.get("cols", 80)), int(request.get("rows", 24)))
        _raw_input(slave)
        pid = os.fork()
        if pid == 0:  # the child never returns into the loop
            code = 1
            try:
                signal.set_wakeup_fd(-1)
                code = _child(request, slave, self.host_socket)
            except BaseException:  # noqa: BLE001 - the child must end here whatever happened
                code = 1
            finally:
                os._exit(code)
        os.close(slave)
        return pid, master

    def _control(self, pid: int, conn: socket.socket) -> None:
        """The serve process spoke or closed: it only closes, meaning the person dropped."""
        try:
            data = conn.recv(64)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.sel.unregister(conn)
            conn.close()
            if pid in self.children:
                _signal(pid, signal.SIGHUP)
                self.kill_at[pid] = time.monotonic() + KILL_GRACE

    def _reap(self, *, wait: bool = False) -> None:
        """The children that ended; ``wait``: every child, waiting for those still running (killed)."""
        while True:
            try:
                pid, _status = os.waitpid(-1, 0 if wait else os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            self.kill_at.pop(pid, None)
            conn = self.children.pop(pid, None)
            if conn is not None and conn.fileno() >= 0:
                with contextlib.suppress(KeyError, ValueError):
                    self.sel.unregister(conn)
                conn.close()  # the serve process hears the end here (and on the pty)

    def _kill_due(self) -> None:
        now = time.monotonic()
        for pid, when in list(self.kill_at.items()):
            if when <= now:
                del self.kill_at[pid]
                _signal(pid, signal.SIGKILL)


def _signal(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _drain(sock: socket.socket) -> None:
    with contextlib.suppress(BlockingIOError):
        while sock.recv(512):
            pass


class SpawnError(Exception):
    """A client process could not be started; ``str()`` is one line."""


class Child(NamedTuple):
    pid: int
    master: int  # the pty's master end (non-blocking), owned by whoever received it
    control: socket.socket  # close it to end the child


class Spawner:
    """The serve process's side: starts the fork server and asks it for a child per connection."""

    def __init__(self, folder: Path, host_socket: Path | str, *, apps: tuple[str, ...] = APPS) -> None:
        self.listen_path = str(Path(folder) / "fork.sock")
        self.host_socket = str(host_socket)
        self.apps = apps
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self, timeout: float = 120.0) -> None:
        """Start the fork server and wait until it has imported everything and listens."""
        import nctui

        env = dict(os.environ)
        root = str(Path(nctui.__file__).resolve().parent.parent)  # this nctui, wherever it runs from
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "nctui.platform.net.forkserver",
            "--listen",
            self.listen_path,
            "--host-socket",
            self.host_socket,
            "--apps",
            ",".join(self.apps),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        try:
            line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        except TimeoutError:
            line = b""
        if line.strip() != b"ready":
            await self.close()
            raise SpawnError("the fork server did not start (run `python -m nctui.platform.net.forkserver` to see why)")

    async def spawn(
        self,
        *,
        identity: str,
        name: str | None = None,
        term: str = "xterm-256color",
        cols: int = 80,
        rows: int = 24,
        app: str = "nctui",
        no_color: bool = False,
    ) -> Child:
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        request = {
            "identity": identity,
            "name": name,
            "term": term,
            "cols": cols,
            "rows": rows,
            "app": app,
            "no_color": no_color,
        }
        try:
            await loop.sock_connect(sock, self.listen_path)
            await loop.sock_sendall(sock, json.dumps(request).encode() + b"\n")
            readable = loop.create_future()
            loop.add_reader(sock.fileno(), _settle, readable)
            try:
                await asyncio.wait_for(readable, 10.0)
            finally:
                loop.remove_reader(sock.fileno())
            msg, fds, _flags, _addr = socket.recv_fds(sock, MAX_REQUEST, 1)
            answer = json.loads(msg or b"{}")
            if not fds:
                raise SpawnError(f"no client process: {answer.get('error', 'the fork server is gone')}")
        except (OSError, ValueError, TimeoutError) as exc:
            sock.close()
            raise SpawnError(f"no client process: {exc}") from None
        except SpawnError:
            sock.close()
            raise
        os.set_blocking(fds[0], False)
        return Child(int(answer["pid"]), fds[0], sock)

    async def close(self) -> None:
        """End the fork server (it kills its children) and wait for it."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), 5.0)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()


def main(argv: list[str] | None = None, *, load: Callable[[], None] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="nctui.platform.net.forkserver")
    parser.add_argument("--listen", required=True)
    parser.add_argument("--host-socket", required=True)
    parser.add_argument("--apps", default="nctui,bare")
    args = parser.parse_args(argv)
    (load or (lambda: preload(tuple(args.apps.split(",")))))()
    ForkServer(args.listen, args.host_socket).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
