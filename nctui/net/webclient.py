"""The process textual-serve starts for each browser tab (``nctui serve --web``): the same client
as over SSH, as a new person each time (a browser brings no key to tell who it is)."""

from __future__ import annotations

import os
import secrets
import sys

from . import client_app
from .forkserver import kept_environment

# textual-serve tells the app how to draw for the browser (its driver, the window's size).
WEB_PREFIXES = ("TEXTUAL_", "COLUMNS", "ROWS", "LINES", "TERM", "COLORTERM")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m nctui.net.webclient HOST_SOCKET", file=sys.stderr)
        return 2
    env = kept_environment(os.environ, WEB_PREFIXES)  # nothing else of the server's reaches a browser's process
    os.environ.clear()
    os.environ.update(env)
    return client_app.run(args[0], f"web:{secrets.token_hex(8)}", None)


if __name__ == "__main__":
    sys.exit(main())
