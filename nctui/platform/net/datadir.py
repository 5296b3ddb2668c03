"""The data folder of ``nctui serve``: one server at a time, and private.

- ``DataLock``: an exclusive ``flock`` on ``DIR/lock``, taken before anything in the folder is
  touched and held for the life of the server (the kernel drops it however the process ends, a
  SIGKILL too). A second server on the same folder gets ``DataFolderBusy`` (one line, with the
  first one's pid) and has changed nothing: the lock file is opened without truncating, and no
  socket, database or key of the first server is removed or replaced.
- ``make_private``: the folder 0700 and every file in it 0600 (a folder of an older nctui is
  brought to that), since it holds the rooms' seeds, the host key and the browsers' sessions.
- ``unlink_own``: remove a Unix socket only if it is still the one this process bound (a slower
  process of a server that ended must not remove its successor's socket).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
from pathlib import Path

LOCK = "lock"


class DataFolderBusy(Exception):
    """Another server holds the data folder; ``str()`` is one line."""


class DataLock:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.fd: int | None = None

    def acquire(self) -> None:
        """Take the folder (made 0700 if missing); ``DataFolderBusy`` when another server has it."""
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = self.folder / LOCK
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                other = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            except OSError:
                other = ""
            os.close(fd)
            who = f" (pid {other})" if other.isdigit() else ""
            raise DataFolderBusy(
                f"another nctui serve{who} uses the data folder {self.folder}: stop it first, or give --data"
            ) from None
        except OSError:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing drops the flock; the file stays (removing it would race a newcomer)
            self.fd = None


def make_private(folder: Path) -> None:
    """The folder and its subfolders 0700, every file in them 0600 (sockets too)."""
    folder.chmod(0o700)
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(root, name), 0o700)
        for name in files:
            path = os.path.join(root, name)
            with contextlib.suppress(OSError):
                if stat.S_IMODE(os.lstat(path).st_mode) != 0o600 and not os.path.islink(path):
                    os.chmod(path, 0o600)


def bound_inode(path: Path | str) -> int | None:
    try:
        return os.stat(path).st_ino
    except OSError:
        return None


def unlink_own(path: Path | str, inode: int | None) -> None:
    """Remove ``path`` if it is still the file of inode ``inode`` (the socket this process bound)."""
    if inode is not None and bound_inode(path) == inode:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
