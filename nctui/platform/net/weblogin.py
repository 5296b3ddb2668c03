"""Who may use the web front, and as whom (``WebLogins``).

- **Personal links.** A person in the lobby (over SSH, with their key) asks for a link (``b``):
  ``/login/TOKEN``, good once, for ``LINK_MINUTES``. Opened in their browser, it logs that browser
  in as the same identity (the key's fingerprint): the same seats, the same name.
- **Accounts.** With ``--password-file``, the login page takes a user name and password (throttled
  with the SSH front's guesses, ``auth.Throttle``): identity ``password:USER``, as over SSH.
- **Sessions.** A logged-in browser keeps a random token in a cookie (``nctui_login``, HttpOnly,
  SameSite=Lax, ``SESSION_DAYS``). Links and sessions are stored only as SHA-256 hashes of their
  tokens (the tokens are 32 random bytes: a fast hash is enough), sessions in
  ``DIR/web_sessions.json`` (0600) so a restart does not log everyone out. A token is never
  logged.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import secrets
import time
from pathlib import Path

log = logging.getLogger("nctui.platform.net")
LINK_MINUTES = 15
SESSION_DAYS = 30
MAX_SESSIONS = 10_000
SESSIONS_FILE = "web_sessions.json"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


class WebLogins:
    def __init__(self, folder: Path | None, *, base_url: str = "") -> None:
        self.path = folder / SESSIONS_FILE if folder is not None else None
        self.base_url = base_url  # the web front's address, for the links shown ('' : only the path)
        self.links: dict[str, tuple[str, float]] = {}  # hash → (identity, until)
        self.sessions: dict[str, tuple[str, float]] = {}
        self._load()

    def _load(self) -> None:
        if self.path is None:
            return
        try:
            with self.path.open("rb") as f:
                data = json.loads(f.read(4 << 20) or b"{}")
        except (OSError, ValueError):
            return
        now = time.time()
        if isinstance(data, dict):
            for key, value in data.items():
                if isinstance(value, list) and len(value) == 2 and isinstance(value[0], str):
                    if isinstance(value[1], int | float) and value[1] > now:
                        self.sessions[str(key)] = (value[0], float(value[1]))

    def _save(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({k: list(v) for k, v in self.sessions.items()}, f)
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("web sessions %s: %s", self.path, exc.strerror or exc)
            with contextlib.suppress(OSError):
                tmp.unlink()

    def make_link(self, identity: str) -> tuple[str, int]:
        """A personal link for ``identity`` (its URL, the minutes it is good for)."""
        now = time.time()
        self.links = {k: v for k, v in self.links.items() if v[1] > now}
        token = secrets.token_urlsafe(32)
        self.links[_hash(token)] = (identity, now + LINK_MINUTES * 60)
        return f"{self.base_url}/login/{token}", LINK_MINUTES

    def use_link(self, token: str) -> str | None:
        """The identity of a link not yet used nor expired (then it is used up), else None."""
        found = self.links.pop(_hash(token), None)
        if found is None or found[1] <= time.time():
            return None
        return found[0]

    def open_session(self, identity: str) -> str:
        """A new session of ``identity``: its token, for the browser's cookie."""
        now = time.time()
        if len(self.sessions) >= MAX_SESSIONS:
            self.sessions = {k: v for k, v in self.sessions.items() if v[1] > now}
            while len(self.sessions) >= MAX_SESSIONS:
                self.sessions.pop(next(iter(self.sessions)))
        token = secrets.token_urlsafe(32)
        self.sessions[_hash(token)] = (identity, now + SESSION_DAYS * 86400)
        self._save()
        return token

    def identity(self, token: str | None) -> str | None:
        """Who the session ``token`` belongs to (None: no such session, or expired)."""
        if not token or len(token) > 100:
            return None
        found = self.sessions.get(_hash(token))
        if found is None or found[1] <= time.time():
            return None
        return found[0]

    def close_session(self, token: str | None) -> None:
        if token and self.sessions.pop(_hash(token), None) is not None:
            self._save()
