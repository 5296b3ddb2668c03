"""``nctui serve``: run a game server for friends (over SSH, in a browser, or both at once).

Only the options are here; ``net.serve`` runs it (imported when the command runs: the other
commands never load asyncssh).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"0 or more seconds, not {text}")
    return value


def _store_url(text: str) -> str:
    from .platform.net.store import is_database_url

    if not is_database_url(text):
        raise argparse.ArgumentTypeError(f"a postgresql://USER@HOST/DATABASE URL, not {text!r}")
    return text


def _address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"HOST:PORT, not {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port number 0-65535, not {text!r}")
    return value


def _url(text: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(f"an http:// or https:// address like https://games.example.org, not {text!r}")
    return text.strip().rstrip("/")


def _path(text: str) -> Path:
    if not text.strip():
        raise argparse.ArgumentTypeError("the file name cannot be empty")
    return Path(text).expanduser()


def add_parser(make: Callable[..., argparse.ArgumentParser | None]) -> None:
    """``nctui serve``, made by ``make`` (``cli._command``: None when only named)."""
    p = make(
        "serve",
        help="run a game server: friends play with `ssh -p PORT HOST` or a browser (--web-port)",
        description="Run a game server: rooms, seats and spectators for people connecting over SSH with a key "
        "in --authorized-keys (or the password in --password-file). Loopback only unless --host. "
        "Rooms are kept in the data folder and come back after a restart. Ctrl+C stops it.",
        epilog="Example: nctui serve --host 0.0.0.0 --authorized-keys ~/friends.pub  (then: ssh -p 2222 YOUR-HOST)",
    )
    if p is None:
        return
    from .platform.net.limits import Limits

    d = Limits()
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)"
    )
    p.add_argument(
        "--ssh-port",
        "--port",
        dest="ssh_port",
        type=_port,
        default=None,
        metavar="PORT",
        help="serve SSH on PORT (default 2222 when no --web-port is given)",
    )
    p.add_argument(
        "--web-port",
        type=_port,
        default=None,
        metavar="PORT",
        help="serve the client to browsers on PORT too (the same rooms; --web: port 8000)",
    )
    p.add_argument(
        "--public-url",
        type=_url,
        default=None,
        metavar="URL",
        help="the web front's address as browsers reach it, e.g. https://games.example.org (behind a proxy)",
    )
    p.add_argument(
        "--host-key",
        type=_path,
        metavar="FILE",
        help="the server's SSH host key (default: generated once in the data folder)",
    )
    p.add_argument(
        "--authorized-keys",
        type=_path,
        metavar="FILE",
        help="the public keys that may log in, one per line (OpenSSH authorized_keys format)",
    )
    p.add_argument(
        "--password-file",
        type=_path,
        metavar="FILE",
        help="also allow logging in with the password in FILE (off unless given)",
    )
    p.add_argument("--data", type=_path, metavar="DIR", help="the data folder (rooms, host key; default: nctui's)")
    p.add_argument(
        "--store",
        type=_store_url,
        metavar="URL",
        help="keep the rooms in PostgreSQL (postgresql://USER@HOST/DATABASE), which several hosts may share "
        "(default: rooms.db in the data folder)",
    )
    p.add_argument(
        "--link",
        type=_address,
        metavar="HOST:PORT",
        help="with --store: where the other hosts bring people to the rooms this host runs (default: --host, "
        "a port the system chooses); an address they reach, on a network you trust",
    )
    p.add_argument(
        "--lease",
        type=_seconds,
        default=30.0,
        metavar="SECONDS",
        help="with --store: how long a host's rooms stay its own without a renewal; another host takes over "
        "a dead host's rooms after this (default 30)",
    )
    p.add_argument(
        "--max-sessions",
        type=_count,
        default=d.max_sessions,
        metavar="N",
        help=f"people connected at once, in all (default {d.max_sessions})",
    )
    p.add_argument(
        "--max-per-peer",
        type=_count,
        default=d.max_per_peer,
        metavar="N",
        help=f"connections at once from one address (default {d.max_per_peer})",
    )
    p.add_argument(
        "--idle-timeout",
        type=_seconds,
        default=d.idle_timeout,
        metavar="SECONDS",
        help=f"close a session after this long without a key, 0: never (default {d.idle_timeout:g})",
    )
    p.add_argument(
        "--max-buffer",
        type=_count,
        default=d.max_buffer,
        metavar="BYTES",
        help=f"bytes waiting in either direction per session (default {d.max_buffer})",
    )
    p.add_argument(
        "--login-timeout",
        type=_seconds,
        default=d.login_timeout,
        metavar="SECONDS",
        help=f"time to log in (default {d.login_timeout:g})",
    )
    p.add_argument(
        "--web-guests",
        action="store_true",
        help="browsers play without logging in, each as the guest of its own cookie (for a trusted network)",
    )
    p.add_argument(
        "--hash-password",
        action="store_true",
        help="read a password (from the terminal or stdin), print its scrypt line for --password-file, and exit",
    )
    p.add_argument(
        "--web",
        action="store_true",
        help="the same as --web-port 8000 (with no --ssh-port: browsers only)",
    )


def hash_password() -> int:
    """``--hash-password``: the line of a password file for one password, without storing it."""
    import getpass
    import sys

    from .platform.net.auth import hash_password as scrypt_line

    try:
        if sys.stdin.isatty():
            password = getpass.getpass("password: ")
        else:
            password = sys.stdin.readline().rstrip("\r\n")
    except (EOFError, KeyboardInterrupt):
        return 130
    if not password:
        print("nctui serve: no password given", file=sys.stderr)
        return 2
    print(scrypt_line(password))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.hash_password:
        return hash_password()
    from .platform.net import serve
    from .platform.net.limits import Limits

    limits = Limits(
        max_sessions=args.max_sessions,
        max_per_peer=args.max_per_peer,
        idle_timeout=args.idle_timeout,
        max_buffer=args.max_buffer,
        login_timeout=args.login_timeout or 30.0,
    )
    web_port = args.web_port if args.web_port is not None else (8000 if args.web else None)
    ssh_port = args.ssh_port if args.ssh_port is not None else (2222 if web_port is None else None)
    opts = serve.ServeOptions(
        host=args.host,
        ssh_port=ssh_port,
        web_port=web_port,
        public_url=args.public_url,
        web_guests=args.web_guests,
        host_key=args.host_key,
        authorized_keys=args.authorized_keys,
        password_file=args.password_file,
        data=args.data,
        store=args.store,
        lease=max(args.lease, 1.0),
        link=args.link,
        limits=limits,
    )
    return serve.run(opts)
