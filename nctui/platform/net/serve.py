"""``nctui serve``: one process, one host (rooms in SQLite), one data folder, and its fronts: the
SSH front with its fork server (``--ssh-port``) and the web front (textual-serve, ``--web-port``),
either or both, so people over SSH and in a browser sit in the same rooms.

Start-up fails before it touches the disk when it can: key files are read and the ports bound
first; then the data folder is locked (``datadir.DataLock``: a second server on it refuses in one
line and removes or replaces nothing) and made private (0700, files 0600).

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
import shutil
import signal
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
import platformdirs

from .auth import Throttle
from .datadir import DataFolderBusy, DataLock, make_private
from .forkserver import Spawner, SpawnError
from .limits import Limits, Occupancy
from .ssh import Front, FrontError, load_authorized_keys, load_host_key, load_password
from .store import is_database_url
from .weblogin import WebLogins

if TYPE_CHECKING:
    from .webfront import WebAccess

log = logging.getLogger("nctui.platform.net")
HOST_KEY = "ssh_host_ed25519_key"


class ServeOptions(msgspec.Struct, frozen=True, kw_only=True):
    host: str = "127.0.0.1"
    ssh_port: int | None = 2222  # None: no SSH front
    web_port: int | None = None  # None: no web front
    public_url: str | None = None  # the web front's address as browsers reach it (behind a proxy)
    host_key: Path | None = None
    authorized_keys: Path | None = None
    password_file: Path | None = None
    data: Path | None = None
    store: str | None = None  # None: the data folder's rooms.db; a postgresql:// URL (store.open_store)
    lease: float = 30.0  # a shared database: seconds a host's rooms stay its own without a renewal
    link: tuple[str, int] | None = None  # a shared database: where other hosts relay people to this one
    limits: Limits = Limits()
    web_guests: bool = False  # every browser plays as the guest of its own cookie (no login)
    app: str = "nctui"  # "bare": a bare Textual app instead (the benchmarks' yardstick)
    bot_delay: float = 0.6
    quiet: bool = False  # no start-up progress (benchmarks)


def default_data() -> Path:
    return Path(platformdirs.user_data_dir("nctui")) / "server"


def _say(text: str) -> None:
    if not _quiet:
        print(f"nctui serve: {text}", file=sys.stderr, flush=True)


_quiet = False


def listen_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port``, bound before anything touches the data folder (a
    port in use is a failed start that changed nothing); ``FrontError`` in one line."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise FrontError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(100)
        sock.setblocking(False)
    except OSError as exc:
        sock.close()
        raise FrontError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


async def serve(
    opts: ServeOptions, *, ready: asyncio.Future[dict[str, int]] | None = None, stop: asyncio.Event | None = None
) -> int:
    """Run until Ctrl+C/SIGTERM (or ``stop``); ``ready`` gets each front's port ({"ssh": N, "web":
    M}) once they listen. Returns the exit code (2: could not start, said in one line; nothing on
    disk changed then)."""
    from .host import Host
    from .rooms import Rooms
    from .store import describe_store, open_store

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
    lock = DataLock(data)
    sockets: dict[str, socket.socket] = {}
    made_folder = not data.exists()
    started = False
    try:
        if opts.ssh_port is None and opts.web_port is None:
            raise FrontError("no front: give --ssh-port PORT, --web-port PORT or both")
        if opts.ssh_port is not None and opts.authorized_keys is None and opts.password_file is None:
            raise FrontError("nobody could log in over SSH: give --authorized-keys FILE (or --password-file FILE)")
        if opts.web_port is not None and not opts.web_guests and opts.ssh_port is None and opts.password_file is None:
            raise FrontError(
                "nobody could log in in a browser: give --password-file FILE, --ssh-port (the lobby gives personal "
                "links) or --web-guests"
            )
        if len(str(run / "fork.sock")) > 100:
            raise FrontError(f"the data folder's path is too long for a Unix socket: {data}")
        # what can fail without touching the disk fails first: the key files, the ports
        authorized = load_authorized_keys(opts.authorized_keys)
        password = load_password(opts.password_file)
        host_key = load_host_key(opts.host_key) if opts.host_key is not None and opts.ssh_port is not None else None
        if opts.ssh_port is not None:
            sockets["ssh"] = listen_socket(opts.host, opts.ssh_port)
        if opts.web_port is not None:
            sockets["web"] = listen_socket(opts.host, opts.web_port)
        if (link := _link(opts)) is not None:
            sockets["link"] = listen_socket(*link)
        lock.acquire()  # one server per data folder, from here to the end
        make_private(data)
        run.mkdir(mode=0o700, exist_ok=True)
        where = describe_store(opts.store, data)
        _say(f"loading rooms from {where}")
        try:
            store = open_store(opts.store, data, host_id=host_id(data), lease=opts.lease)
            rooms = Rooms(store, bot_delay=opts.bot_delay)
        except Exception as exc:  # noqa: BLE001 - a broken database is one line, not a traceback
            raise FrontError(f"rooms database {where}: {exc}") from None
        started = True
        if host_key is None and "ssh" in sockets:
            host_key = load_host_key(data / HOST_KEY)  # generated the first time
        _say(f"{len(rooms.list())} room(s) back")
        occupancy, throttle = Occupancy(), Throttle()  # the fronts' shared caps and password guesses
        logins = None
        if "web" in sockets and not opts.web_guests:
            logins = WebLogins(data, base_url=_web_base(opts, int(sockets["web"].getsockname()[1])))
        host = Host(
            rooms,
            run / "host.sock",
            logins=logins,
            occupancy=occupancy,
            renew_every=opts.lease / 3,
            link=sockets.pop("link", None),
        )
        await host.start()
        ports: dict[str, int] = {}
        try:
            if "ssh" in sockets:
                assert host_key is not None
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
                    throttle=throttle,
                    occupancy=occupancy,
                    finished=store.load_room,
                )
                ports["ssh"] = await front.start(sockets.pop("ssh"))
                _say(
                    f"listening: ssh -p {ports['ssh']} {opts.host}  (host key {host_key.get_fingerprint()}; "
                    "Ctrl+C stops)"
                )
            if "web" in sockets:
                from .webfront import WebAccess  # aiohttp and textual-serve: only for a web front

                web_runner, ports["web"] = await _start_web(
                    opts,
                    run / "host.sock",
                    sockets.pop("web"),
                    WebAccess(logins, password, throttle, occupancy),
                )
                _say(f"serving the browser client on http://{opts.host}:{ports['web']}/ (Ctrl+C stops)")
            if ready is not None and not ready.done():
                ready.set_result(ports)
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
    except (FrontError, SpawnError, DataFolderBusy) as exc:
        _say(str(exc))
        if ready is not None and not ready.done():
            ready.set_exception(exc)
        if made_folder and lock.fd is not None and not started:
            shutil.rmtree(data, ignore_errors=True)  # a folder this failed start made: gone again
        return 2
    finally:
        for sock in sockets.values():
            sock.close()
        lock.release()
    return 0


def _link(opts: ServeOptions) -> tuple[str, int] | None:
    """Where this host takes people relayed by the other hosts of a shared database (none with the
    embedded store): ``--link``, else the fronts' address on a port the system chooses."""
    if opts.store is None or not is_database_url(opts.store):
        return None
    return opts.link or (opts.host, 0)


def host_id(data: Path) -> str:
    """This host's name in a database several hosts share: the machine's name and the data folder,
    unique while the folder's lock holds (one server per data folder), and the same after a restart
    (a host started again gets its rooms back at once)."""
    return f"{socket.gethostname()}:{data.resolve()}"


def _web_base(opts: ServeOptions, port: int) -> str:
    """The web front's address for the links the lobby gives ('' when this server cannot know it:
    then the link is its path, to put after the address friends use)."""
    if opts.public_url:
        return opts.public_url
    if opts.host in ("0.0.0.0", "::", ""):
        return ""
    host = f"[{opts.host}]" if ":" in opts.host else opts.host
    return f"http://{host}:{port}"


async def _start_web(opts: ServeOptions, host_socket: Path, sock: socket.socket, access: WebAccess) -> tuple[Any, int]:
    """textual-serve on this event loop: each browser tab runs ``nctui.platform.net.webclient`` as the
    person the browser logged in as (``webfront``, ``weblogin``), or as a guest of its cookie."""
    from aiohttp import web

    import nctui

    from .webfront import IdentityServer, identity_cookie

    root = str(Path(nctui.__file__).resolve().parent.parent)
    command = (
        f"env PYTHONPATH={shlex.quote(root)} {shlex.quote(sys.executable)} -m nctui.platform.net.webclient "
        f"{shlex.quote(str(host_socket))}"
    )
    port = int(sock.getsockname()[1])
    server = IdentityServer(
        command, host=opts.host, port=port, public_url=opts.public_url, limits=opts.limits, access=access
    )
    # Server.serve() runs its own loop; the host lives on this one, so start its aiohttp app here.
    app = await server._make_app()
    if access.logins is None:
        app.middlewares.append(identity_cookie)  # guests: the page gives each browser its token
    runner = web.AppRunner(app, access_log=None)  # no request lines: a link's path is its token
    await runner.setup()
    site = web.SockSite(runner, sock)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        raise FrontError(f"cannot serve on {opts.host}:{port}: {exc.strerror or exc}") from None
    return runner, port


def run(opts: ServeOptions) -> int:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%Y-%m-%d %H:%M:%S", stream=sys.stderr
    )
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    return asyncio.run(serve(opts))
