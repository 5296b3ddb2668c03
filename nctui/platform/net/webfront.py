"""The web front of ``nctui serve`` (``--web-port``): who a browser is, and the page. A browser
brings no key, so the page gives it a random token in a cookie (``nctui_id``, a year, HttpOnly,
SameSite=Strict) the first time; every tab of that browser is then the same person (``web:`` and
the token's SHA-256, shown in the lobby like a key's fingerprint: the token itself is never
stored, logged or shown), with the name chosen the first time, and a reloaded or reopened tab
returns to its seat. A browser without the cookie (cookies off, a private window) is a new person
each tab.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import logging
import re
import secrets
import shlex
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, NamedTuple

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from .auth import Passwords, Throttle
from .limits import Limits, Occupancy, idle_line
from .ssh import TERMINAL_RESET
from .webclient import TOKEN
from .weblogin import SESSION_DAYS, WebLogins

COOKIE = "nctui_id"
YEAR = 365 * 24 * 3600
log = logging.getLogger("nctui.platform.net")


def browser_identity(token: str) -> str:
    """Who a browser is, from its cookie's token: the token hashed, so what the lobby shows, the
    rooms store and the log write, and the tab's command line says, never lets anyone act as it."""
    return "web:" + hashlib.sha256(token.encode("ascii")).hexdigest()[:24]


def browser_token(cookies: object) -> str | None:
    """The browser's token from its cookies, if it is one the page gave (32 hex digits)."""
    value = cookies.get(COOKIE) if hasattr(cookies, "get") else None
    return value if isinstance(value, str) and TOKEN.fullmatch(value) else None


@web.middleware
async def identity_cookie(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """The page gives a browser without a token one (its websocket then carries it)."""
    response = await handler(request)
    if request.path == "/" and browser_token(request.cookies) is None and not response.prepared:
        response.set_cookie(COOKIE, secrets.token_hex(16), max_age=YEAR, httponly=True, samesite="Strict")
    return response


HOST_HEADER = re.compile(r"[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")
TEMPLATES = Path(__file__).resolve().parent / "web"


def page_base(request: web.Request, public_url: str | None) -> str:
    """Where the browser reached this server: ``--public-url`` if given (behind a proxy), else the
    request's own scheme and Host (so a friend's browser is sent back to the name it used, never to
    127.0.0.1). ``HTTPBadRequest`` for a Host that is no host name."""
    if public_url:
        return public_url
    host = request.host
    if not HOST_HEADER.fullmatch(host):
        raise web.HTTPBadRequest(text="nctui: the Host header is not a host name")
    return f"{request.scheme}://{host}"


LOGIN_COOKIE = "nctui_login"
LOGIN_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<title>nctui: log in</title>
<style>body{{background:#0c181f;color:#eee;font-family:menlo,monospace;display:flex;justify-content:center}}
form{{margin-top:15vh;background:#12232d;padding:2em;width:24em}}input{{display:block;width:100%;margin:.3em 0 1em}}
.note{{color:#9ab}} .bad{{color:#f99}}</style></head><body><form method="post" action="/login">
<h2>nctui</h2><p class="bad">{error}</p>{fields}
<p class="note">Playing over SSH too? Press <b>b</b> in the lobby there for a personal link that
logs this browser in as you.</p></form></body></html>"""
PASSWORD_FIELDS = """<label>User name<input name="user" autocomplete="username" maxlength="40" required></label>
<label>Password<input name="password" type="password" autocomplete="current-password" maxlength="200" required></label>
<button type="submit">Log in</button>"""


def login_page(*, passwords: bool, error: str = "", status: int = 200) -> web.Response:
    fields = PASSWORD_FIELDS if passwords else "<p>This server logs browsers in with personal links only.</p>"
    text = LOGIN_PAGE.format(error=html.escape(error), fields=fields)
    return web.Response(text=text, content_type="text/html", status=status, headers={"Cache-Control": "no-store"})


class WebAccess(NamedTuple):
    """Who may use the web front and what it shares with the SSH front."""

    logins: WebLogins | None = None  # None: every browser is a guest of its own cookie
    passwords: Passwords | None = None  # the accounts of --password-file
    throttle: Throttle | None = None  # password guesses, with the SSH front's
    occupancy: Occupancy | None = None  # the caps, with the SSH front's


class IdentityServer(Server):
    """textual-serve whose app process is told who the browser is (an argument of the command);
    its page comes from ``web/app_index.html`` (no third-party font or script) with links built
    from the request (``page_base``). ``logins``: browsers must log in (a personal link, or an
    account of ``passwords``); None: every browser is a guest of its own cookie. ``occupancy``
    and ``limits``: the caps it shares with the SSH front."""

    def __init__(
        self,
        command: str,
        *,
        host: str,
        port: int,
        public_url: str | None = None,
        limits: Limits | None = None,
        access: WebAccess | None = None,
    ) -> None:
        access = access or WebAccess()
        super().__init__(command, host=host, port=port, title="nctui", templates_path=TEMPLATES)
        self.given_url = public_url
        self.logins = access.logins
        self.passwords = access.passwords
        self.throttle = access.throttle or Throttle()
        self.limits = limits or Limits()
        self.occupancy = access.occupancy or Occupancy()

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.router.add_get("/login", self.handle_login_page)
        app.router.add_post("/login", self.handle_login)
        app.router.add_get("/login/{token}", self.handle_link)
        app.router.add_get("/logout", self.handle_logout)
        return app

    def who(self, request: web.Request) -> str | None:
        """The identity of the browser asking (None: not logged in)."""
        if self.logins is None:
            token = browser_token(request.cookies)
            return browser_identity(token) if token else None
        return self.logins.identity(request.cookies.get(LOGIN_COOKIE))

    def _logged_in(self, identity: str) -> web.Response:
        assert self.logins is not None
        response = web.HTTPFound("/")
        response.set_cookie(
            LOGIN_COOKIE,
            self.logins.open_session(identity),
            max_age=SESSION_DAYS * 86400,
            httponly=True,
            samesite="Lax",
            secure=bool(self.given_url and self.given_url.startswith("https:")),
        )
        return response

    async def handle_login_page(self, request: web.Request) -> web.Response:
        return login_page(passwords=self.passwords is not None)

    async def handle_login(self, request: web.Request) -> web.Response:
        if self.logins is None or self.passwords is None:
            return login_page(passwords=False, error="This server has no accounts.", status=403)
        form = await request.post()
        user = str(form.get("user", ""))[:40].strip()
        password = str(form.get("password", ""))[:200]
        peer = request.remote or "?"
        if not user or not await self.throttle.attempt(peer, self.passwords, user, password):
            log.info("refused %s: wrong password for %r (web)", peer, user)
            return login_page(passwords=True, error="Wrong user name or password.", status=403)
        identity = f"password:{user}"
        log.info("%s logged in from %s (web)", identity, peer)
        return self._logged_in(identity)

    async def handle_link(self, request: web.Request) -> web.Response:
        identity = self.logins.use_link(request.match_info["token"]) if self.logins is not None else None
        if identity is None:
            log.info("refused %s: a browser link used, expired or unknown", request.remote or "?")
            return login_page(
                passwords=self.passwords is not None,
                error="This link is used up or has expired: ask the lobby (b) for another.",
                status=403,
            )
        log.info("%s logged in from %s with a browser link", identity, request.remote or "?")
        return self._logged_in(identity)

    async def handle_logout(self, request: web.Request) -> web.Response:
        if self.logins is not None:
            self.logins.close_session(request.cookies.get(LOGIN_COOKIE))
        response = web.HTTPFound("/login")
        response.del_cookie(LOGIN_COOKIE)
        return response

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """The page, its links to this server as the browser reached it (the login page first
        for a browser not logged in)."""
        if self.logins is not None and self.who(request) is None:
            raise web.HTTPFound("/login")
        base = page_base(request, self.given_url)
        router = request.app.router
        websocket = base + str(router["websocket"].url_for())
        websocket = ("wss:" if base.startswith("https:") else "ws:") + websocket.split(":", 1)[1]
        return {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": websocket,
            "config": {"static": {"url": base + str(router["static"].url_for(filename="/")).rstrip("/") + "/"}},
            "application": {"name": self.title},
        }

    def _refusal(self, request: web.Request, identity: str | None) -> str:
        """Why this browser's tab may not start ('' when it may): the caps it shares with SSH."""
        if self.logins is not None and identity is None:
            return "nctui: log in first (reload the page)"
        limits, occupancy = self.limits, self.occupancy
        if len(occupancy.sessions) >= limits.max_sessions:
            log.info("refused %s: the server is full (web)", identity)
            return f"nctui: the server is full ({limits.max_sessions} sessions); try again later"
        if occupancy.per_peer[request.remote or "?"] >= limits.max_per_peer:
            log.info("refused %s: more than %d connections from it (web)", request.remote, limits.max_per_peer)
            return f"nctui: too many connections from your address (at most {limits.max_per_peer}); close one first"
        return ""

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """As textual-serve's, with the command per browser, the caps, and the idle timeout."""
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        identity = self.who(request)
        command = self.command + (f" {shlex.quote(identity)}" if identity else "")
        app_service: AppService | None = None
        peer = request.remote or "?"
        await websocket.prepare(request)
        refusal = self._refusal(request, identity)
        if refusal:
            with contextlib.suppress(Exception):
                await websocket.send_bytes(refusal.encode() + b"\r\n")
            await websocket.close()
            return websocket
        occupancy = self.occupancy
        occupancy.sessions.add(websocket)
        occupancy.opened(identity)
        occupancy.per_peer[peer] += 1
        last_key = [time.monotonic()]
        idle = asyncio.create_task(self._idle(websocket, last_key, identity))
        try:
            app_service = AppService(
                command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,  # type: ignore[arg-type]  # as textual-serve does
                download_manager=self.download_manager,
                debug=self.debug,
            )
            await app_service.start(width, height)
            try:
                await self._process_messages(websocket, app_service, last_key, identity)
            finally:
                await app_service.stop()
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # noqa: BLE001 - one tab's failure is logged, the server goes on
            log.warning("a browser's session failed: %s", error)
        finally:
            idle.cancel()
            occupancy.sessions.discard(websocket)
            occupancy.closed(identity)
            occupancy.per_peer[peer] -= 1
            if occupancy.per_peer[peer] <= 0:
                del occupancy.per_peer[peer]
            if app_service is not None:
                await app_service.stop()
        return websocket

    async def _process_messages(
        self,
        websocket: web.WebSocketResponse,
        app_service: AppService,
        last_key: list[float] | None = None,
        identity: str | None = None,
    ) -> None:
        """textual-serve's, noting when the person last typed (``last_key``, and the person's
        clock in ``occupancy``: the idle timeout)."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = message.json()
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            except (ValueError, TypeError, IndexError, KeyError):
                break  # not textual-serve's page: this tab ends
            if kind == "stdin" and isinstance(data, str):
                if last_key is not None:
                    last_key[0] = time.monotonic()
                    self.occupancy.key(identity, last_key[0])
                await app_service.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                await app_service.set_terminal_size(
                    to_int(str(data.get("width")), 80), to_int(str(data.get("height")), 24)
                )
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()

    async def _idle(self, websocket: web.WebSocketResponse, last_key: list[float], identity: str | None) -> None:
        """Close the tab after ``idle_timeout`` without a key of the person's or a decision reaching
        them, as the SSH front does."""
        timeout = self.limits.idle_timeout
        if timeout <= 0:
            return
        while True:
            due = self.occupancy.last_active(identity, last_key[0]) + timeout - time.monotonic()
            if due <= 0:
                break
            await asyncio.sleep(due)
        log.info("a browser tab closed, idle for %g s", timeout)
        with contextlib.suppress(Exception):
            await websocket.send_bytes(TERMINAL_RESET + f"\r\n{idle_line(timeout)}\r\n".encode())
        await websocket.close()
