"""``nctui serve --web``: textual-serve on loopback serves the page, and a browser's websocket gets
the same client (its first screen: the name prompt) in a process of its own."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import aiohttp

from nctui.platform.net import protocol as P
from nctui.platform.net.webfront import browser_identity
from tests.serve_helpers import Server, make_key
from tests.test_net_host import Client

WEB_READY = r"serving the browser client on http://127\.0\.0\.1:(\d+)/"


def guest_server(data: Path, *flags: str) -> Server:
    """A server of browsers only, on a free port, whose tabs need no login (--web-guests)."""
    return Server(data, "--web-port", "0", "--web-guests", *flags, ready=WEB_READY)


async def tab(http: aiohttp.ClientSession, base: str, until: bytes, typed: str = "") -> bytes:
    """A browser tab: the websocket's screen bytes until ``until`` shows (``typed``: answered to the
    name prompt)."""
    seen = b""
    async with http.ws_connect(base + "/ws?width=80&height=24") as ws:
        await ws.send_str(json.dumps(["resize", {"width": 80, "height": 24}]))
        sent = False
        while until not in seen:
            msg = await ws.receive(timeout=60)
            if msg.type == aiohttp.WSMsgType.BINARY:
                seen += msg.data
            elif msg.type == aiohttp.WSMsgType.TEXT:
                seen += msg.data.encode()
            else:
                raise AssertionError(f"the websocket ended: {msg.type}, after {seen[-300:]!r}")
            if typed and not sent and b"What name" in seen:
                await ws.send_str(json.dumps(["stdin", typed + "\r"]))
                sent = True
    return seen


def test_web_serves_the_client_to_a_browser_websocket(tmp_path: Path) -> None:
    server = guest_server(tmp_path / "data")
    try:

        async def browse() -> None:
            base = f"http://127.0.0.1:{server.port}"
            async with aiohttp.ClientSession() as http:
                async with http.get(base + "/") as page:
                    assert page.status == 200 and "/ws" in await page.text()
                await tab(http, base, b"What name")

        asyncio.run(asyncio.wait_for(browse(), 90))
    finally:
        assert server.stop() == 0


def test_a_browser_is_the_same_person_in_every_tab(tmp_path: Path) -> None:
    """The page gives the browser a token in a cookie; a second tab of that browser is the same
    person: the name chosen in the first is remembered (no name prompt), as a key's person's is."""
    server = guest_server(tmp_path / "data")

    try:

        async def browse() -> None:
            base = f"http://127.0.0.1:{server.port}"
            # a browser keeps cookies of 127.0.0.1; aiohttp's jar needs unsafe=True for an IP address
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.get(base + "/") as page:
                    assert page.status == 200
                token = {c.key: c.value for c in http.cookie_jar}.get("nctui_id", "")
                assert len(token) == 32
                # until the lobby shows, the name taken: the typed name alone is its echo in the
                # field, before the host has it (then the second tab could come too soon)
                first = await tab(http, base, b"you: ", typed="Zelda")
                assert b"What name" in first
                again = await tab(http, base, b"Zelda")
                assert b"What name" not in again  # the same person: the name is remembered
                # the lobby shows who this browser is: its token hashed, never the token itself
                assert browser_identity(token)[:15].encode() in again and token.encode() not in first + again

        asyncio.run(asyncio.wait_for(browse(), 120))
    finally:
        assert server.stop() == 0


def links(page: str) -> list[str]:
    """Every address the page makes the browser load or open: src, href, url(...), websocket."""
    return re.findall(r"""(?:src|href)="([^"]*)"|url\("?([^")]*)"?\)|data-session-websocket-url="([^"]*)\"""", page)


def test_the_page_names_the_host_it_was_reached_by_and_no_third_party(tmp_path: Path) -> None:
    """A friend reaching the server by its name gets links to that name (not 127.0.0.1), and the
    page loads nothing from elsewhere; with --public-url (behind a TLS proxy) its links are that
    address's, the websocket wss://."""
    server = guest_server(tmp_path / "data")
    proxied = guest_server(tmp_path / "other", "--public-url", "https://games.example.org/")
    try:

        async def fetch(port: int, host: str) -> tuple[int, str]:
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{port}/", headers={"Host": host}) as page:
                    return page.status, await page.text()

        status, page = asyncio.run(fetch(server.port, "friends.example.net:8123"))
        assert status == 200
        found = [next(x for x in m if x) for m in links(page)]
        assert "ws://friends.example.net:8123/ws" in found
        assert len(found) >= 4 and all(
            a.startswith(("http://friends.example.net:8123/", "ws://friends.example.net:8123/")) for a in found
        ), found
        assert "googleapis" not in page and "127.0.0.1" not in page
        status, page = asyncio.run(fetch(proxied.port, "127.0.0.1"))
        found = [next(x for x in m if x) for m in links(page)]
        assert "wss://games.example.org/ws" in found
        assert all(a.startswith(("https://games.example.org/", "wss://games.example.org/")) for a in found), found
        status, _ = asyncio.run(fetch(server.port, 'evil"><script>'))
        assert status == 400
    finally:
        assert server.stop() == 0
        assert proxied.stop() == 0


def test_browsers_log_in_with_a_personal_link_or_an_account(tmp_path: Path) -> None:
    """With logins (the default), the page sends a browser not logged in to the login page; a
    personal link the lobby gives an SSH person logs a browser in as them, once; an account's
    password logs in as that account, a wrong one is refused; nothing logs the tokens."""
    ann = make_key(tmp_path / "ann").get_fingerprint("sha256")
    (tmp_path / "pw").write_text("bob:blue door\n")
    data = tmp_path / "data"
    server = Server(
        data,
        *("--authorized-keys", str(tmp_path / "ann.pub"), "--password-file", str(tmp_path / "pw")),
        *("--ssh-port", "0", "--web-port", "0"),
    )
    try:
        port = int(server.wait_for(WEB_READY).group(1))
        base = f"http://127.0.0.1:{port}"

        async def browse() -> str:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.get(base + "/", allow_redirects=False) as page:
                    assert page.status == 302 and page.headers["Location"] == "/login"
                async with http.ws_connect(base + "/ws") as ws:  # no tab for a browser not logged in
                    msg = await ws.receive(timeout=30)
                    assert msg.type == aiohttp.WSMsgType.BINARY and b"log in first" in msg.data
                async with http.post(base + "/login", data={"user": "bob", "password": "red"}) as page:
                    assert page.status == 403 and "Wrong user name or password" in await page.text()
            c = await Client.connect(data / "run" / "host.sock", ann)
            await c.send(P.WebLink())
            made = await c.until(P.WebLinkMade)
            c.close()
            assert made.url.startswith(base + "/login/") and made.minutes == 15
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.get(made.url) as page:  # logged in, then sent to the page
                    assert page.status == 200 and "/ws" in await page.text()
                await tab(http, base, b"What name", typed="")  # a tab of Ann's, her first in a browser
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.get(made.url) as page:
                    assert page.status == 403 and "used up" in await page.text()  # once only
            return made.url.rsplit("/", 1)[1]

        token = asyncio.run(asyncio.wait_for(browse(), 120))
        server.wait_for(re.escape(ann) + r" logged in from 127\.0\.0\.1 with a browser link")
        assert not any(token in line for line in server.lines)
        sessions = (data / "web_sessions.json").read_text()
        assert ann in sessions and token not in sessions
    finally:
        assert server.stop() == 0
