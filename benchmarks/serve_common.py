"""What the ``serve_*`` benchmarks share: a ``nctui serve`` on this event loop (port 0, its own data
folder, one key), pty sessions over asyncssh's client, and memory from ``/proc``."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh

from nctui.platform.net.limits import Limits
from nctui.platform.net.serve import ServeOptions, serve

# What the first frame shows: the name prompt of a person's first visit, the bare app's one line.
FIRST_FRAME = {"nctui": b"What name should", "bare": b"bare Textual app"}
LOBBY = b"Lobby"  # the lobby's title: the first screen of a person whose name is remembered


@contextlib.asynccontextmanager
async def server(folder: Path, app: str = "nctui", people: int = 1) -> AsyncIterator[tuple[int, list[asyncssh.SSHKey]]]:
    """A server on this loop: its port and ``people`` keys it accepts (one identity each)."""
    folder.mkdir(parents=True, exist_ok=True)
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(people)]
    (folder / "keys").write_bytes(b"".join(k.export_public_key() for k in keys))
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[dict[str, int]] = loop.create_future()
    stop = asyncio.Event()
    limits = Limits(max_sessions=500, max_per_peer=500, idle_timeout=0)
    opts = ServeOptions(
        ssh_port=0, data=folder / "data", authorized_keys=folder / "keys", limits=limits, app=app, quiet=True
    )
    task = asyncio.create_task(serve(opts, ready=ready, stop=stop))
    try:
        yield (await ready)["ssh"], keys
    finally:
        stop.set()
        await task


class Session:
    def __init__(self, conn: asyncssh.SSHClientConnection, proc: Any) -> None:
        self.conn, self.proc = conn, proc
        self.seen = b""

    @classmethod
    async def open(
        cls, port: int, key: asyncssh.SSHKey, marker: bytes, size: tuple[int, int] = (80, 24), username: str = "bench"
    ) -> tuple[Session, float]:
        """Connect, ask for a pty, and wait for ``marker``: the session and the seconds it took."""
        t0 = time.perf_counter()
        conn = await asyncssh.connect(
            "127.0.0.1", port, username=username, client_keys=[key], known_hosts=None, agent_path=None
        )
        proc = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None)
        s = cls(conn, proc)
        await s.until(marker)
        return s, time.perf_counter() - t0

    async def until(self, marker: bytes, timeout: float = 60) -> None:
        async def loop() -> None:
            while marker not in self.seen:
                chunk = await self.proc.stdout.read(65536)
                if not chunk:
                    raise RuntimeError(f"session closed before {marker!r}")
                self.seen += chunk

        await asyncio.wait_for(loop(), timeout)
        self.seen = b""

    async def key_to_update(self, key: bytes, timeout: float = 30) -> float:
        """Send ``key``; the seconds until the screen's first bytes after it."""
        self.seen = b""
        t0 = time.perf_counter()
        self.proc.stdin.write(key)
        chunk = await asyncio.wait_for(self.proc.stdout.read(65536), timeout)
        if not chunk:
            raise RuntimeError("session closed")
        elapsed = time.perf_counter() - t0
        await asyncio.sleep(0.05)  # let the rest of the redraw arrive before the next key
        with contextlib.suppress(TimeoutError):
            while await asyncio.wait_for(self.proc.stdout.read(65536), 0.05):
                pass
        return elapsed

    def close(self) -> None:
        self.proc.close()
        self.conn.close()


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            found += [int(p) for p in (task / "children").read_text().split()]
    return found


def fork_servers() -> list[int]:
    """This process's fork servers (the serve running on this loop started them)."""
    return [p for p in children(os.getpid()) if b"nctui.platform.net.forkserver" in _cmdline(p)]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def memory_kib(pid: int) -> dict[str, int]:
    """``Pss`` (its share of every page), ``Private`` (pages only it has) and ``Rss``, in KiB."""
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        fields[name] = int(rest.split()[0])
    return {"Pss": fields["Pss"], "Private": fields["Private_Clean"] + fields["Private_Dirty"], "Rss": fields["Rss"]}
