"""A real ``nctui serve`` process for tests: started on a free loopback port, its log collected,
stopped by its pid (Ctrl+C, then SIGKILL)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parent.parent


def make_key(path: Path) -> asyncssh.SSHKey:
    key = asyncssh.generate_private_key("ssh-ed25519")
    path.write_bytes(key.export_private_key())
    path.chmod(0o600)
    path.with_suffix(".pub").write_bytes(key.export_public_key())
    return key


class Server:
    def __init__(self, data: Path, *args: str, ready: str = r"listening: ssh -p (\d+)") -> None:
        self.data = data
        self.args = args
        self.lines: list[str] = []
        self.port = 0
        # COLUMNS/LINES as a shell may export them: each client must draw at its own pty's size anyway.
        # a front on a port the system chooses, unless the test names its fronts
        ports = () if any(a in ("--ssh-port", "--web-port") for a in args) else ("--ssh-port", "0")
        env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="80", LINES="24")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "nctui", "serve", *ports, "--data", str(data), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        found = self.wait_for(ready, 90)
        self.port = int(found.group(1))

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, pattern: str, timeout: float = 20.0, start: int = 0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.lines[start:]:
                if m := re.search(pattern, line):
                    return m
            if self.proc.poll() is not None and not self._reader.is_alive():
                break
            time.sleep(0.05)
        raise AssertionError(f"no log line {pattern!r} in:\n" + "\n".join(self.lines))

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._reader.join(5)
        return self.proc.returncode

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()
        self._reader.join(5)


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_gone(pid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False
