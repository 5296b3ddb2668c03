"""A real PostgreSQL server for tests: a cluster of its own (``initdb`` into a temporary folder),
started on a free loopback port (``pg_ctl start``), each test a database of its own, stopped by
its postmaster's PID at the end. Where PostgreSQL or psycopg is missing, the tests that need it
skip with one line (``.ci/run`` installs the distribution's package).

As root (CI), the cluster runs as the ``postgres`` user the package made: PostgreSQL refuses to
run as root."""

from __future__ import annotations

import atexit
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.serve_helpers import alive


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="nctui-pg-"))
        self.data = self.folder / "data"
        self.port = 0
        self.pid: int | None = None
        self._names = itertools.count(1)
        self._user: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            self._user = pwd.getpwnam("postgres")
            os.chown(self.folder, self._user.pw_uid, self._user.pw_gid)

    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        user = self._user
        return subprocess.run(
            args,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            cwd=self.folder,
            user=None if user is None else user.pw_uid,
            group=None if user is None else user.pw_gid,
            extra_groups=None if user is None else [],
        )

    def start(self) -> None:
        done = self._run(
            str(self.bindir / "initdb"), "-D", str(self.data), "-U", "nctui", "-A", "trust", "-E", "UTF8", "--no-sync"
        )
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr.strip().splitlines()[-1:]}")
        for _ in range(3):  # a port another process took between choosing and binding: another one
            self.port = _free_port()
            options = f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off -c full_page_writes=off"
            done = self._run(
                str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-t", "60",
                "-o", options, "start",
            )  # fmt: skip
            if done.returncode == 0:
                self.pid = int((self.data / "postmaster.pid").read_text().split()[0])
                return
        raise RuntimeError(f"pg_ctl start failed: {(self.folder / 'log').read_text()[-500:]}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://nctui@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh database's URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        """The postmaster stopped by its PID (fast shutdown, then SIGKILL), the folder removed."""
        pid, self.pid = self.pid, None
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGINT)  # PostgreSQL's fast shutdown
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and alive(pid):
                time.sleep(0.05)
            if alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.folder, ignore_errors=True)


def why_not() -> str | None:
    """Why this machine cannot run a PostgreSQL server for the tests (None: it can)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (requirements-test.lock)"
    if _binaries() is None:
        return "PostgreSQL is not installed (apt-get install postgresql)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run PostgreSQL as"
    return None


@contextlib.contextmanager
def cluster() -> Iterator[Cluster]:
    reason = why_not()
    if reason is not None:
        pytest.skip(f"no PostgreSQL server: {reason}")
    bindir = _binaries()
    assert bindir is not None
    c = Cluster(bindir)
    atexit.register(c.stop)  # a test process that ends before the fixture's end stops its server too
    try:
        try:
            c.start()
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
            pytest.skip(f"no PostgreSQL server: {exc}")
        yield c
    finally:
        c.stop()
