"""``nctui serve``: the game host (rooms in SQLite), the fork server and the SSH front in one run;
or, with ``--web``, the host and textual-serve serving the same client to a browser.

The data folder holds ``rooms.db`` (the rooms), ``ssh_host_ed25519_key`` (generated the first
time unless ``--host-key``), and ``run/`` (0700: the host's and the fork server's Unix sockets,
the names people chose). Start-up says each step on stderr; then one log line per connection,
login, refusal, session start and end (``docs/serving.md`` lists them). Ctrl+C (or SIGTERM)
stops everything: the SSH front, every client process, the fork server, the host, the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shlex
import signal
import sys
from pathlib import Path
from typing import Any

import msgspec
import platformdirs

from .forkserver import Spawner, SpawnError
from .limits import Limits
from .ssh import Front, FrontError, load_authorized_keys, load_host_key, load_password

log = logging.getLogger("nctui.platform.net")
HOST_KEY = "ssh_host_ed25519_key"


class ServeOptions(msgspec.Struct, frozen=True, kw_only=True):
    host: str = "127.0.0.1"
    port: int = 2222
    host_key: Path | None = None
    authorized_keys: Path | None = None
    password_file: Path | None = None
    data: Path | None = None
    limits: Limits = Limits()
    web: bool = False
    app: str = "nctui"  # "bare": a bare Textual app instead (the benchmarks' yardstick)
    bot_delay: float = 0.6
    quiet: bool = False  # no start-up progress (benchmarks)


def default_data() -> Path:
    return Path(platformdirs.user_data_dir("nctui")) / "server"


def _say(text: str) -> None:
    if not _quiet:
        print(f"nctui serve: {text}", file=sys.stderr, flush=True)


_quiet = False


async def serve(
    opts: ServeOptions, *, ready: asyncio.Future[int] | None = None, stop: asyncio.Event | None = None
) -> int:
    """Run until Ctrl+C/SIGTERM (or ``stop``); ``ready`` gets the port once it listens. Returns the
    exit code (2: could not start, said in one line)."""
    from .host import Host
    from .rooms import Rooms
    from .store_sqlite import SqliteRoomStore

    global _quiet
    _quiet = opts.quiet
    data = opts.data or default_data()
    run = data / "run"
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    spawner: Spawner | None = None
    front: Front | None = None
    web_runner = None
    try:
        if opts.authorized_keys is None and opts.password_file is None and not opts.web:
            raise FrontError("nobody could log in: give --authorized-keys FILE (or --password-file FILE)")
        data.mkdir(parents=True, exist_ok=True)
        run.mkdir(mode=0o700, exist_ok=True)
        run.chmod(0o700)
        if len(str(run / "fork.sock")) > 100:
            raise FrontError(f"the data folder's path is too long for a Unix socket: {data}")
        if not opts.web:  # a key file that cannot be read is said before anything starts
            host_key = load_host_key(opts.host_key or data / HOST_KEY)
            authorized = load_authorized_keys(opts.authorized_keys)
            password = load_password(opts.password_file)
        _say(f"loading rooms from {data / 'rooms.db'}")
        try:
            rooms = Rooms(SqliteRoomStore(data / "rooms.db"), bot_delay=opts.bot_delay)
        except Exception as exc:  # noqa: BLE001 - a broken database is one line, not a traceback
            raise FrontError(f"rooms database {data / 'rooms.db'}: {exc}") from None
        _say(f"{len(rooms.list())} room(s) back")
        host = Host(rooms, run / "host.sock")
        await host.start()
        try:
            if opts.web:
                web_runner, port = await _start_web(opts, run / "host.sock")
                _say(f"serving the browser client on http://{opts.host}:{port}/ (Ctrl+C stops)")
                if ready is not None and not ready.done():
                    ready.set_result(port)
            else:
                _say("starting the client fork server (imports nctui and Textual once)")
                spawner = Spawner(run, run / "host.sock", apps=(opts.app,))
                await spawner.start()
                assert spawner.proc is not None
                log.info("fork server ready (pid %d)", spawner.proc.pid)
                front = Front(
                    spawner,
                    host_key=host_key,
                    authorized=authorized,
                    password=password,
                    limits=opts.limits,
                    app=opts.app,
                )
                port = await front.start(opts.host, opts.port)
                _say(f"listening: ssh -p {port} {opts.host}  (host key {host_key.get_fingerprint()}; Ctrl+C stops)")
                if ready is not None and not ready.done():
                    ready.set_result(port)
            await stop.wait()
            _say("stopping")
        finally:
            if front is not None:
                await front.close()
            if spawner is not None:
                await spawner.close()
            if web_runner is not None:
                await web_runner.cleanup()
            await host.close()
            rooms.close()
    except (FrontError, SpawnError) as exc:
        _say(str(exc))
        if ready is not None and not ready.done():
            ready.set_exception(exc)
        return 2
    return 0


async def _start_web(opts: ServeOptions, host_socket: Path) -> tuple[Any, int]:
    """textual-serve on this event loop: each browser tab runs ``nctui.platform.net.webclient`` as the
    person of its browser (``webfront``: a cookie it keeps)."""
    from aiohttp import web

    import nctui

    from .webfront import IdentityServer, identity_cookie

    root = str(Path(nctui.__file__).resolve().parent.parent)
    command = (
        f"env PYTHONPATH={shlex.quote(root)} {shlex.quote(sys.executable)} -m nctui.platform.net.webclient "
        f"{shlex.quote(str(host_socket))}"
    )
    server = IdentityServer(command, host=opts.host, port=opts.port, title="nctui")
    # Server.serve() runs its own loop; the host lives on this one, so start its aiohttp app here.
    app = await server._make_app()
    app.middlewares.append(identity_cookie)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, opts.host, opts.port)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        raise FrontError(f"cannot listen on {opts.host}:{opts.port}: {exc.strerror or exc}") from None
    server.port = port = int(runner.addresses[0][1])  # the one the system chose for port 0
    return runner, port


def run(opts: ServeOptions) -> int:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%Y-%m-%d %H:%M:%S", stream=sys.stderr
    )
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    return asyncio.run(serve(opts))
