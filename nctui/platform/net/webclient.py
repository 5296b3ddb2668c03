"""The process textual-serve starts for each browser tab (``nctui serve --web-port``): the same
client as over SSH, as the person of the browser (``webfront``: its identity, the hash of its
cookie's token; the token itself never reaches this process, its command line or the host), or a
new person without one."""

from __future__ import annotations

import os
import re
import secrets
import sys

from . import client_app
from .forkserver import kept_environment

TOKEN = re.compile(r"[0-9a-f]{32}")  # a browser's token (webfront): 16 random bytes in hex
# a browser's identity: a guest's token hashed (webfront.browser_identity), or whom it logged in as
# (weblogin: a key's fingerprint through a personal link, an account)
PERSON = re.compile(r"web:[0-9a-f]{24}|SHA256:[A-Za-z0-9+/]{20,64}|password:[^\x00-\x1f\x7f]{1,40}")
# textual-serve tells the app how to draw for the browser (its driver, the window's size).
WEB_PREFIXES = ("TEXTUAL_", "COLUMNS", "ROWS", "LINES", "TERM", "COLORTERM")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (1, 2) or (len(args) == 2 and not PERSON.fullmatch(args[1])):
        print("usage: python -m nctui.platform.net.webclient HOST_SOCKET [web:IDENTITY]", file=sys.stderr)
        return 2
    env = kept_environment(os.environ, WEB_PREFIXES)  # nothing else of the server's reaches a browser's process
    os.environ.clear()
    os.environ.update(env)
    # the browser's identity (webfront): the same person every tab; none: a new person this tab
    identity = args[1] if len(args) == 2 else f"web:{secrets.token_hex(12)}"
    return client_app.run(args[0], identity, None)


if __name__ == "__main__":
    sys.exit(main())
