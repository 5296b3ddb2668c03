"""Passwords of ``nctui serve`` (``--password-file``), for the SSH front and the web front alike.

The file is either one line, a password every user name shares (identity ``password:USER``), or
accounts, one ``USER:SECRET`` a line, each user with their own. A secret is the password itself
or its scrypt hash (``scrypt$N$r$p$SALT$HASH``, base64; ``nctui serve --hash-password`` prints
one), so the file need not hold a password at all. Whatever the file holds, the server keeps only
scrypt hashes in memory (a plain password is hashed when read) and checks a guess by hashing it
(``hashlib.scrypt``, about 16 MB and tens of milliseconds a guess, off the event loop).

``Throttle``: every failed guess from an address makes that address wait before its next one
(1 s, doubling after the fifth failure, at most a minute), and all addresses together get at most
``burst`` guesses at once, refilled at ``rate`` a second: a guesser gets a handful of tries a
minute instead of a hundred a second. A right password clears the address's count.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import secrets
import time
from pathlib import Path

from ..safeio import BadInput, read_bounded

N, R, P = 2**14, 8, 1  # scrypt's cost: 16 MB of memory a guess
MAX_FILE = 64 * 1024
MAX_USER = 40


class PasswordError(Exception):
    """A password file nctui cannot use; ``str()`` is one line."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hash_password(password: str, *, salt: bytes | None = None, n: int = N, r: int = R, p: int = P) -> str:
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=128 * n * r * 2, dklen=32)
    return f"scrypt${n}${r}${p}${_b64(salt)}${_b64(digest)}"


def _parse(secret: str) -> tuple[int, int, int, bytes, bytes] | None:
    parts = secret.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        return None
    try:
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt, digest = base64.b64decode(parts[4], validate=True), base64.b64decode(parts[5], validate=True)
    except ValueError:
        return None
    if not (2 <= n <= 2**20 and n & (n - 1) == 0 and 1 <= r <= 32 and 1 <= p <= 16 and salt and digest):
        return None
    return n, r, p, salt, digest


def verify(password: str, stored: str) -> bool:
    """Whether ``password`` hashes to ``stored`` (a scrypt line); slow on purpose."""
    parsed = _parse(stored)
    if parsed is None:
        return False
    n, r, p, salt, digest = parsed
    guess = hashlib.scrypt(
        password.encode("utf-8", "replace"), salt=salt, n=n, r=r, p=p, maxmem=128 * n * r * 2, dklen=len(digest)
    )
    return hmac.compare_digest(guess, digest)


class Passwords:
    """The password file as hashes: ``shared`` (any user name) or ``accounts`` (user → hash)."""

    def __init__(self, shared: str | None = None, accounts: dict[str, str] | None = None) -> None:
        self.shared = shared
        self.accounts = accounts or {}
        self._dummy = hash_password(secrets.token_hex(8))  # an unknown user costs a guess as much as a known one

    @classmethod
    def read(cls, path: Path) -> Passwords:
        try:
            data = read_bounded(path, MAX_FILE)
        except (OSError, BadInput) as exc:
            raise PasswordError(f"password file {path}: {getattr(exc, 'strerror', None) or exc}") from None
        return cls.parse(data, path)

    @classmethod
    def parse(cls, data: bytes, path: Path) -> Passwords:
        """The file's bytes (read with a bound) as hashes; ``PasswordError`` in one line."""
        try:
            lines = [line.strip() for line in data.decode("utf-8").splitlines() if line.strip()]
        except UnicodeDecodeError:
            raise PasswordError(f"password file {path} is not UTF-8 text") from None
        if not lines:
            raise PasswordError(f"password file {path} is empty")

        def hashed(secret: str) -> str:
            return secret if _parse(secret) is not None else hash_password(secret)

        if len(lines) == 1 and (":" not in lines[0] or _parse(lines[0]) is not None):
            return cls(shared=hashed(lines[0]))
        accounts = {}
        for i, line in enumerate(lines, 1):
            user, sep, secret = line.partition(":")
            user = user.strip()
            if not sep or not user or not secret or len(user) > MAX_USER or not user.isprintable():
                raise PasswordError(f"password file {path}, line {i}: not USER:PASSWORD")
            accounts[user] = hashed(secret.strip())
        return cls(accounts=accounts)

    def check(self, user: str, password: str) -> bool:
        """Slow: run it off the event loop (``Throttle.attempt`` does)."""
        if self.shared is not None:
            return verify(password, self.shared)
        stored = self.accounts.get(user)
        return verify(password, stored if stored is not None else self._dummy) and stored is not None


class Throttle:
    """Password guesses per address and in all (see the module's words)."""

    def __init__(self, *, burst: int = 10, rate: float = 2.0, first: float = 1.0, most: float = 60.0) -> None:
        self.burst, self.rate, self.first, self.most = burst, rate, first, most
        self.failures: dict[str, int] = {}
        self.next_try: dict[str, float] = {}
        self._tokens = float(burst)
        self._stamp = time.monotonic()
        self._turns: dict[str, asyncio.Lock] = {}  # one guess at a time per address

    def wait_for(self, peer: str) -> float:
        """Seconds before ``peer`` may guess again (0: now)."""
        return max(0.0, self.next_try.get(peer, 0.0) - time.monotonic())

    def _take(self) -> bool:
        now = time.monotonic()
        self._tokens = min(float(self.burst), self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    async def attempt(self, peer: str, passwords: Passwords, user: str, password: str) -> bool:
        """One guess from ``peer``: waits out its delay, then checks (a thread); a wrong one (or
        one over the server's rate) counts as a failure."""
        turn = self._turns.setdefault(peer, asyncio.Lock())
        async with turn:
            delay = self.wait_for(peer)
            if delay:
                await asyncio.sleep(delay)
            ok = self._take() and await asyncio.to_thread(passwords.check, user, password)
            return self._counted(peer, ok)

    def _counted(self, peer: str, ok: bool) -> bool:
        if ok:
            self.failures.pop(peer, None)
            self.next_try.pop(peer, None)
            return True
        n = self.failures.get(peer, 0) + 1
        self.failures[peer] = n
        pause = self.first if n <= 5 else min(self.most, self.first * 2 ** (n - 5))
        self.next_try[peer] = time.monotonic() + pause
        if len(self.failures) > 10_000:  # many addresses: forget the oldest counts
            for old in list(self.failures)[:5_000]:
                self.failures.pop(old, None)
                self.next_try.pop(old, None)
                lock = self._turns.get(old)
                if lock is not None and not lock.locked():
                    del self._turns[old]
        return False
