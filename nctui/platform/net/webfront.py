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
import hashlib
import logging
import re
import secrets
import shlex
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from .webclient import TOKEN

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


class IdentityServer(Server):
    """textual-serve whose app process is told the browser's token (an argument of the command);
    its page comes from ``web/app_index.html`` (no third-party font or script) with links built
    from the request (``page_base``)."""

    def __init__(self, command: str, *, host: str, port: int, public_url: str | None = None) -> None:
        super().__init__(command, host=host, port=port, title="nctui", templates_path=TEMPLATES)
        self.given_url = public_url

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """The page, its links to this server as the browser reached it."""
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

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """As textual-serve's, with the command per browser."""
        websocket = web.WebSocketResponse(heartbeat=15)
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        token = browser_token(request.cookies)
        command = self.command + (f" {shlex.quote(browser_identity(token))}" if token else "")
        app_service: AppService | None = None
        try:
            await websocket.prepare(request)
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
                await self._process_messages(websocket, app_service)
            finally:
                await app_service.stop()
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # noqa: BLE001 - one tab's failure is logged, the server goes on
            log.warning("a browser's session failed: %s", error)
        finally:
            if app_service is not None:
                await app_service.stop()
        return websocket
