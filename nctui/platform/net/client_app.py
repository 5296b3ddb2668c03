"""The entry point of one connected person's client process: the lobby app on this process's
terminal, connected to the game host's Unix socket as ``identity``.

The SSH front (a fork of the preloaded server, one per connection, its stdin/stdout a pty) calls
``run``. Importing this module is cheap (the app is imported when ``run`` runs; the fork server
may import it ahead). The name a person chose is remembered beside the host's socket (one small
file per identity, in the server's private folder), so it is asked only the first time.
"""

from __future__ import annotations

import hashlib
import os
import pkgutil
from collections.abc import Iterable
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from nctui.platform import registry
from nctui.platform.registry import GameEntry

if TYPE_CHECKING:
    from textual.app import App

NAMES = "names"  # the folder, beside the socket, of the names people chose


def run(socket_path: str, identity: str, name: str | None, *, mono: bool = False) -> int:
    """Run the lobby app on the current terminal as ``identity`` (``name``: None to use the name
    remembered, or ask for one). Returns the exit code (1: the host could not be reached or the
    connection was lost, said in one line on stderr)."""
    from nctui.ui.textual_ext import widget_classes

    widget_classes.install()
    from nctui.ui.lobby_app import LobbyApp  # the app and Textual, when a person connects

    if name is None:
        name = remembered_name(socket_path, identity)
    app = LobbyApp(socket_path, identity, name, remember=lambda chosen: remember_name(socket_path, identity, chosen))
    if mono:
        app.mono = True
    app.connect_early()  # while Textual starts: the lobby's first frame has the rooms
    try:
        app.run()
    except KeyboardInterrupt:
        return 130
    return app.return_code or 0  # Textual has printed the exit message (why the host was lost)


def preload() -> None:
    """Import the app and Textual now, and every game of the registry (``preload_game``): a fork
    server calls it once, so each forked client shares those pages and starts at once."""
    from nctui.ui.textual_ext import widget_classes

    widget_classes.install()
    import nctui.ui
    from nctui.ui import lobby_app  # noqa: F401

    import_all(nctui.ui.__name__, nctui.ui.__path__)  # the shell's screens a game opens on demand (help, rules)
    for entry in registry.ENTRIES:
        preload_game(entry)


def import_all(name: str, path: Iterable[str]) -> None:
    """Import every module of the package ``name`` (its ``__path__``: ``path``)."""
    for module in pkgutil.walk_packages(path, f"{name}."):
        import_module(module.name)


def preload_game(entry: GameEntry) -> None:
    """What a client process in a room of this game would otherwise import and read for itself
    (a private copy in each, ~2 MB a person): every module of the game's package (its screens and
    the dialogs they open on demand), its content (a new game made with its default settings, as
    the view a seat receives and its facts), and its rules summary."""
    from nctui.ui.rules import get_summary

    import_all(entry.package, import_module(entry.package).__path__)
    game = registry.game(entry.id)
    config = game.config_type()
    game.facts(game.view(game.new(config).state, 0))
    if entry.rules:
        get_summary(entry.rules)


def first_apps() -> tuple[App[None], ...]:
    """The app as people meet it when they connect, for the fork server's warm-up runs
    (``forkserver.warm``): the name question (the first time) and the lobby (a returning person;
    the host is not reached, so that app ends by itself)."""
    from nctui.ui.lobby_app import LobbyApp

    return LobbyApp(os.devnull, "warm-up", None), LobbyApp(os.devnull, "warm-up", "warm-up")


def _name_file(socket_path: str, identity: str) -> Path:
    digest = hashlib.sha256(identity.encode("utf-8", "replace")).hexdigest()[:32]
    return Path(socket_path).parent / NAMES / digest


def remembered_name(socket_path: str, identity: str) -> str | None:
    """The name ``identity`` chose before on this server, or None."""
    try:
        text = _name_file(socket_path, identity).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text[:40] or None


def remember_name(socket_path: str, identity: str, name: str) -> None:
    """Keep ``name`` for ``identity``'s next visit (a failure only means asking again)."""
    path = _name_file(socket_path, identity)
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(name[:40])
        os.replace(tmp, path)
    except OSError:
        pass  # the terminal belongs to the app now: no word here, the name is asked again next time
