"""The process textual-serve starts for each browser tab (``nctui serve --web``): the same client
as over SSH, as the person of the browser's token (``webfront``), or a new person without one."""

from __future__ import annotations

import os
import re
import secrets
import sys

from . import client_app
from .forkserver import kept_environment

TOKEN = re.compile(r"[0-9a-f]{32}")  # a browser's token (webfront): 16 random bytes in hex
# textual-serve tells the app how to draw for the browser (its driver, the window's size).
WEB_PREFIXES = ("TEXTUAL_", "COLUMNS", "ROWS", "LINES", "TERM", "COLORTERM")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (1, 2) or (len(args) == 2 and not TOKEN.fullmatch(args[1])):
        print("usage: python -m nctui.platform.net.webclient HOST_SOCKET [BROWSER_TOKEN]", file=sys.stderr)
        return 2
    env = kept_environment(os.environ, WEB_PREFIXES)  # nothing else of the server's reaches a browser's process
    os.environ.clear()
    os.environ.update(env)
    # the browser's token (webfront): the same person every tab; none: a new person this tab
    token = args[1] if len(args) == 2 else secrets.token_hex(8)
    return client_app.run(args[0], f"web:{token}", None)


if __name__ == "__main__":
    sys.exit(main())
