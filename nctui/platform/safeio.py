"""Reading files that may be anything: a save, a scenario, a content pack.

``read_bounded`` reads only regular files, never blocks on a FIFO or a device, and checks the size
on the open file (a file that grows while it is read, ``/dev/zero`` or ``/dev/urandom`` is refused,
not read to the end). ``check_depth`` refuses deeply nested JSON or TOML before a decoder recurses
into it. Both raise ``BadInput`` with one sentence; callers turn it into their own error naming
the file.
"""

from __future__ import annotations

import os
import re
import stat
import zlib
from collections.abc import Iterable
from pathlib import Path

MAX_DEPTH = 48  # brackets and braces: far beyond any file of ours, far below Python's recursion limit


class BadInput(ValueError):
    """The input cannot be what it claims to be; ``str()`` is one sentence."""


def read_bounded(path: Path | str, max_bytes: int) -> bytes:
    """The bytes of the regular file ``path``, refused if larger than ``max_bytes``."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError as exc:
        raise BadInput("no such file") from exc
    except IsADirectoryError as exc:
        raise BadInput("is a folder, not a file") from exc
    except OSError as exc:
        raise BadInput(f"cannot be read: {exc.strerror or exc}") from exc
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise BadInput("is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise BadInput("is not a regular file (a device, a pipe or a socket)")
        if info.st_size > max_bytes:
            raise BadInput(f"is {info.st_size} bytes, far too large")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            total += len(chunk)
            if total > max_bytes:
                raise BadInput(f"is more than {max_bytes} bytes, far too large")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise BadInput(f"cannot be read: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)


def read_own(path: Path | str, max_bytes: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of this user's that no one else may write,
    not larger than ``max_bytes``: for the caches kept as pickles (a pickle runs what it names,
    so a file planted in a shared cache folder is never read). Raises ``OSError`` or
    ``BadInput``."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if (
            not stat.S_ISREG(info.st_mode)
            or info.st_uid != os.getuid()
            or info.st_mode & 0o022
            or info.st_size > max_bytes
        ):
            raise BadInput("not this user's own cache file")
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise BadInput(f"is more than {max_bytes} bytes, far too large")
        return data
    finally:
        os.close(fd)


def check_depth(data: bytes | str, limit: int = MAX_DEPTH) -> None:
    """Refuse text nested deeper than ``limit`` brackets or braces (outside strings): the
    decoders recurse once per level. TOML table headers (``[[a.b]]``) open no level here.

    Strings first become one letter each (``_STRING``: a string ends at its quote or at the end
    of its line, an unterminated one, whose line end then starts no line; a backslash in a
    double-quoted string escapes the next character); then only the brackets and braces are
    read, a ``[`` at depth 0 with only spaces before it on its line being a table header. Two
    regular expressions do the reading: ~2x faster than a loop over every character (104 KB of
    ``cards.toml`` at every start without the pack's cache, a long game's save at every load)."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    depth = 0
    for header, _ in _BRACKET.findall(_STRING.sub("s", text)):
        if header:
            if depth == 0:
                continue  # a table header
            depth += 1
        elif _ in "[{":
            depth += 1
        else:
            depth = max(0, depth - 1)
            continue
        if depth > limit:
            raise BadInput(f"is nested more than {limit} levels deep")
    return None


_STRING = re.compile(r'"(?:[^"\\\n]|\\[\s\S]|\\\Z)*(?:"|\n|\Z)' r"|'[^'\n]*(?:'|\n|\Z)")
_BRACKET = re.compile(r"(^[^\S\n]*\[)|([\[\]{}])", re.MULTILINE)


def stamp(paths: Iterable[Path | str], *extra: str) -> str:
    """What a cache built from these files is valid for: each file's path, size and modification
    time, and ``extra`` (versions), as Python's ``.pyc`` files are checked. Not a hash of their
    bytes: hashing the content pack and the code that validates it (and importing ``hashlib``,
    which asks OpenSSL for every digest it has) cost ~9 M instructions of every start. Raises
    ``OSError`` when a file cannot be looked at."""
    lines = list(extra)
    for path in paths:
        info = os.stat(path)
        lines.append(f"{path}\t{info.st_size}\t{info.st_mtime_ns}")
    return "\n".join(lines)


def stamp_name(prefix: str, stamp_text: str) -> str:
    """A cache file's name for this stamp. Its CRC only spreads entries over names: the file holds
    the whole stamp, and an entry is used only if that matches."""
    return f"{prefix}{zlib.crc32(stamp_text.encode()):08x}.pickle"


CACHE_ENV = "NCTUI_CACHE_DIR"


def cache_dir() -> Path:
    """Where start-up caches are kept (a game's validated content, the parsed CSS):
    $NCTUI_CACHE_DIR, else the user's cache folder."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    import platformdirs  # imported when needed: a start with $NCTUI_CACHE_DIR set never pays for it

    return Path(platformdirs.user_cache_dir("nctui")) / "packs"
