"""``nctui serve --web``: textual-serve on loopback serves the page, and a browser's websocket gets
the same client (its first screen: the name prompt) in a process of its own."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiohttp

from tests.serve_helpers import Server


def test_web_serves_the_client_to_a_browser_websocket(tmp_path: Path) -> None:
    server = Server(tmp_path / "data", "--web", ready=r"serving the browser client on http://127\.0\.0\.1:(\d+)/")
    try:
        async def browse() -> bytes:
            base = f"http://127.0.0.1:{server.port}"
            async with aiohttp.ClientSession() as http:
                async with http.get(base + "/") as page:
                    assert page.status == 200 and "/ws" in await page.text()
                seen = b""
                async with http.ws_connect(base + "/ws?width=80&height=24") as ws:
                    await ws.send_str(json.dumps(["resize", {"width": 80, "height": 24}]))
                    while b"What name" not in seen:
                        msg = await ws.receive(timeout=60)
                        if msg.type == aiohttp.WSMsgType.BINARY:
                            seen += msg.data
                        elif msg.type == aiohttp.WSMsgType.TEXT:
                            seen += msg.data.encode()
                        else:
                            raise AssertionError(f"the websocket ended: {msg.type}, after {seen[-300:]!r}")
                return seen

        asyncio.run(asyncio.wait_for(browse(), 90))
    finally:
        assert server.stop() == 0
