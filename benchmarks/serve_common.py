"""What the ``serve_*`` benchmarks share: a ``nctui serve`` in a process of its own (port 0, its own
data folder, the keys it accepts), terminals over asyncssh's client that time a screen until it
has settled, people seated in rooms beforehand, and CPU time and memory from ``/proc``.

A screen is *settled* when nothing more arrives for ``QUIET`` seconds after it changed; its time is
that of its last byte (the silence itself is not counted), as ``ui_latency.py`` times a terminal.
Each terminal answers Textual's query for synchronized output as a modern terminal does, so every
frame arrives whole.

    python benchmarks/serve_common.py --serve FOLDER APP   # what ``Server`` runs (its port on stdout)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import sys
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import asyncssh

QUIET = 0.25  # seconds without output after which a screen has settled
LIMIT = 60.0  # seconds a screen may take to change at all before the benchmark stops
SYNC_QUERY = b"\x1b[?2026$p"
SYNC_REPLY = b"\x1b[?2026;2$y"  # DECRPM: synchronized output supported (reset)
ANSI = re.compile(rb"\x1b\[[0-9;?$>]*[A-Za-z~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]")
ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")


def make_keys(folder: Path, people: int) -> list[asyncssh.SSHKey]:
    """``people`` keys (one identity each), written where ``Server`` reads the keys it accepts."""
    folder.mkdir(parents=True, exist_ok=True)
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(people)]
    (folder / "keys").write_bytes(b"".join(k.export_public_key() for k in keys))
    return keys


def identity(key: asyncssh.SSHKey) -> str:
    return str(key.get_fingerprint("sha256"))  # as the SSH front names a person


class Server:
    """``nctui serve`` (or the bare app served the same way) in its own process, started by
    ``Server.running`` and stopped by its pid."""

    def __init__(self, folder: Path, proc: asyncio.subprocess.Process, port: int) -> None:
        self.folder, self.proc, self.port = folder, proc, port
        self.host_socket = folder / "data" / "run" / "host.sock"

    @classmethod
    @contextlib.asynccontextmanager
    async def running(cls, folder: Path, app: str = "nctui") -> AsyncIterator[Server]:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(Path(__file__).resolve()),
            "--serve",
            str(folder),
            app,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
        )
        try:
            assert proc.stdout is not None
            line = await asyncio.wait_for(proc.stdout.readline(), 120)
            if not line:
                raise SystemExit("serve benchmark: the server did not start")
            yield cls(folder, proc, int(json.loads(line)["ssh"]))
        finally:
            if proc.stdin is not None:
                proc.stdin.close()  # the server stops at the end of its stdin
            try:
                await asyncio.wait_for(proc.wait(), 30)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, 9)
                await proc.wait()

    def fork_server(self) -> int:
        (found,) = [p for p in children(self.proc.pid) if b"nctui.platform.net.forkserver" in _cmdline(p)]
        return found

    def clients(self) -> list[int]:
        """The client processes (one per connected person)."""
        return children(self.fork_server())

    def cpu(self) -> float:
        """CPU seconds the whole server has used: the serve process, the fork server and every
        client process, those that ended included (counted in the fork server once reaped)."""
        fork = self.fork_server()
        return cpu_seconds(self.proc.pid) + cpu_seconds(fork, reaped=True) + sum(map(cpu_seconds, children(fork)))


class Terminal:
    """One person's SSH session on a pty, read as a terminal would."""

    def __init__(self, conn: asyncssh.SSHClientConnection, proc: Any, started: float) -> None:
        self.conn, self.proc, self.started = conn, proc, started
        self.recent = b""  # what arrived since the last key (or the connection)
        self.pid = 0  # the client process, when the caller found it

    @classmethod
    async def open(cls, port: int, key: asyncssh.SSHKey, username: str, size: tuple[int, int] = (80, 24)) -> Terminal:
        started = time.perf_counter()
        conn = await asyncssh.connect(
            "127.0.0.1", port, username=username, client_keys=[key], known_hosts=None, agent_path=None
        )
        proc = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None)
        return cls(conn, proc, started)

    async def settle(self, since: float, limit: float = LIMIT) -> float:
        """Read until the screen has changed and then stayed still for ``QUIET``: the seconds from
        ``since`` to its last byte."""
        last = 0.0
        deadline = time.perf_counter() + limit
        tail = b""
        while True:
            wait = QUIET if last else deadline - time.perf_counter()
            try:
                chunk = await asyncio.wait_for(self.proc.stdout.read(65536), max(0.0, wait))
            except TimeoutError:
                if last:
                    return last - since
                raise SystemExit(f"serve benchmark: no screen within {limit:g} s") from None
            if not chunk:
                raise SystemExit("serve benchmark: a session closed")
            last = time.perf_counter()
            if SYNC_QUERY in tail + chunk:
                self.proc.stdin.write(SYNC_REPLY)
            tail = chunk[-16:]
            self.recent += chunk

    async def press(self, key: bytes) -> float:
        """Send ``key``: the seconds to the settled screen."""
        self.recent = b""
        sent = time.perf_counter()
        self.proc.stdin.write(key)
        return await self.settle(sent)

    def text(self) -> str:
        """What arrived since the last key, as text (escape sequences dropped, spaces collapsed)."""
        return " ".join(ANSI.sub(b" ", self.recent).decode("utf-8", "replace").split())

    def close(self) -> None:
        self.proc.close()
        self.conn.close()


async def connect_settled(server: Server, key: asyncssh.SSHKey, username: str) -> tuple[Terminal, float]:
    """Connect and wait for the settled first screen: the terminal and the seconds it took."""
    t = await Terminal.open(server.port, key, username)
    return t, await t.settle(t.started)


def seat(server: Server, rooms: Sequence[tuple[Any, Sequence[asyncssh.SSHKey]]]) -> list[str]:
    """Make each room (a game's configuration, the keys of the people in its seats, in order) and
    seat its people, as if each had joined their seat and left: when they connect, the lobby
    takes them back to it. Their names are remembered (no name question). Blocking: run it on a
    thread while the server runs in its own process."""
    from nctui.platform.net import protocol as P
    from nctui.platform.net.client import HostLink
    from nctui.platform.net.client_app import remember_name

    sock = str(server.host_socket)
    made = []
    for number, (config, keys) in enumerate(rooms):
        ids = [identity(k) for k in keys]
        for i, who in enumerate(ids):
            remember_name(sock, who, f"r{number}s{i}")
        name = f"bench {number}"
        links = [HostLink(sock, who, f"r{number}s{i}").connect() for i, who in enumerate(ids)]
        creator = links[0]
        creator.send(P.create_room(config, name=name))
        _wait(lambda c=creator, n=name: any(r.name == n for r in c.rooms), "the new room")
        (room,) = [r.id for r in creator.rooms if r.name == name]
        for i, link in enumerate(links):
            link.send(P.JoinSeat(room=room, seat=i))
            _wait(lambda lk=link: lk.game is not None, "a seat")
            link.close()
        made.append(room)
    return made


def watch(server: Server, room: str) -> Any:
    """A spectator of ``room`` over the host's socket (a ``HostLink`` whose ``game`` says who
    decides): how a scripted person knows it is their turn. Blocking, as ``seat``."""
    from nctui.platform.net import protocol as P
    from nctui.platform.net.client import HostLink

    link = HostLink(str(server.host_socket), f"SHA256:watcher-{room}", "watcher").connect()
    link.send(P.Watch(room=room))
    _wait(lambda: link.game is not None, "the watched game")
    return link


def remember(server: Server, keys: Sequence[asyncssh.SSHKey]) -> None:
    """Remember a name for each key: a person seen before, whose first screen is the lobby."""
    from nctui.platform.net.client_app import remember_name

    for i, key in enumerate(keys):
        remember_name(str(server.host_socket), identity(key), f"person {i}")


def _wait(test: Any, what: str, limit: float = 30.0) -> None:
    end = time.monotonic() + limit
    while not test():
        if time.monotonic() > end:
            raise SystemExit(f"serve benchmark: no {what} within {limit:g} s")
        time.sleep(0.005)


def children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                found += [int(p) for p in (task / "children").read_text().split()]
    return found


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def cpu_seconds(pid: int, *, reaped: bool = False) -> float:
    """CPU seconds (user and system) ``pid`` has used; ``reaped``: and its children that ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    ticks = sum(int(x) for x in fields[11 : 15 if reaped else 13])  # utime stime [cutime cstime]
    return ticks / TICK


def memory_kib(pid: int) -> dict[str, int]:
    """``Pss`` (its share of every page), ``Private`` (pages only it has) and ``Rss``, in KiB."""
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        fields[name] = int(rest.split()[0])
    return {"Pss": fields["Pss"], "Private": fields["Private_Clean"] + fields["Private_Dirty"], "Rss": fields["Rss"]}


def mb(kib: float) -> str:
    return f"{kib / 1024:.1f} MB"


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def _serve(folder: Path, app: str) -> None:
    """The server ``Server.running`` starts: its SSH port on stdout, then until stdin ends."""
    sys.path.insert(0, str(ROOT))
    from nctui.platform.net.limits import Limits
    from nctui.platform.net.serve import ServeOptions, serve

    limits = Limits(max_sessions=500, max_per_peer=500, idle_timeout=0)
    opts = ServeOptions(
        ssh_port=0, data=folder / "data", authorized_keys=folder / "keys", limits=limits, app=app, quiet=True
    )

    async def run() -> None:
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[dict[str, int]] = loop.create_future()
        stop = asyncio.Event()

        def stdin_readable() -> None:
            if not os.read(0, 512):
                loop.remove_reader(0)
                stop.set()

        loop.add_reader(0, stdin_readable)
        task: asyncio.Future[Any] = asyncio.ensure_future(serve(opts, ready=ready, stop=stop))
        done, _ = await asyncio.wait([ready, task], return_when=asyncio.FIRST_COMPLETED)
        if ready in done:
            print(json.dumps(ready.result()), flush=True)
        await task

    asyncio.run(run())


if __name__ == "__main__":
    if sys.argv[1:2] != ["--serve"] or len(sys.argv) != 4:
        raise SystemExit(__doc__)
    _serve(Path(sys.argv[2]), sys.argv[3])
