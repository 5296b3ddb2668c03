"""Save files: a game as its configuration and the list of decisions, replayed on load.

A save is msgspec JSON (``SaveFile``): the format name, its version, which game of the seeds it
is (``game``) and which play of it (``id``), the configuration, every action (the redo branch
included) and the cursor, a digest of the content it was played with and of its last state (a
file that was edited or damaged, or content that changed, is caught rather than replayed into a
different game), and a summary for the lists (players, mode, turn, progress, finished) with the
time it was written.

A save folder holds named saves, and ``autosave/<id>.nctui.json``: one autosave per game, so a
new game never replaces another's. Writing is atomic (a temporary file in the same folder,
flushed and fsynced, then renamed over the old one), so a crash never leaves half a save. A
temporary file has a name only nctui uses (``.<name>.nctui-<pid>-<random>.tmp``): the ones a
killed process left are removed when the folder is next opened, and no other file is touched. A
game being played holds a lock on its autosave (``autosave/.<id>.lock``, removed when the game
ends), so a second process cannot play the same game at once, nor delete its autosave.

Every problem reading a save raises ``SaveError`` with one sentence naming the file; reading
never writes anything, never follows a FIFO or device, never reads more than ``MAX_BYTES``.
"""

import datetime as dt
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
import platformdirs

from .game import Summary
from .registry import GAME_IDS, game_named
from .safeio import MAX_DEPTH, BadInput, check_depth, read_bounded
from .store import AnyGame, PracticePolicy, ReplayError, Store, UndoPolicy

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows
    fcntl = None  # type: ignore[assignment]

FORMAT = "nctui-save"
VERSION = 3  # 3: ``start_events``, the events of a starting position (2 is read as without them)
SUFFIX = ".nctui.json"
AUTOSAVES = "autosave"  # the sub-folder of autosaves, one per game
LEGACY_AUTOSAVE = "autosave" + SUFFIX  # version 1: one autosave per folder
ENV_DIR = "NCTUI_SAVE_DIR"
MAX_BYTES = 16 * 1024 * 1024  # far beyond any real game (a long game is ~100 KB)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # new_id() writes 12 hex digits
STALE_TEMP = 120.0  # seconds: a temporary file older than this was left by a killed process
TEMP = re.compile(r"\..+\.nctui-(\d{1,10})-[A-Za-z0-9_]+\.tmp")  # write_atomic's temporary files, and only them
MAX_ACTIONS = 100_000  # far beyond any real game (a long four-player game is ~3,000 decisions)
# ``start`` when the configuration alone rebuilds the start. msgspec does not decode ``Raw | None``
# (only ``null`` would be accepted), so ``start`` is always Raw and JSON null means none.
NO_START = msgspec.Raw(b"null")


class SaveError(Exception):
    """A save file cannot be written or loaded; ``str()`` is one sentence naming the file."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path, self.problem = Path(path), one_line(problem)
        super().__init__(f"{one_line(self.path.name)}: {self.problem}")


def one_line(text: str) -> str:
    """``text`` with newlines and other control characters escaped: a damaged file's bytes (quoted
    by a decoder) or a file's name never break the one line its problem gets."""
    return "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape", "backslashreplace").decode("ascii") for ch in text
    )


class SaveFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Version 3 (2: without ``start_events``). ``config``, ``actions``, ``start`` and
    ``start_events`` are decoded with the game's own types."""

    format: str
    version: int
    game: str
    id: str
    content_digest: str
    config: msgspec.Raw
    actions: tuple[msgspec.Raw, ...]
    cursor: int
    state_digest: str
    start: msgspec.Raw = NO_START  # the starting position, when the configuration alone does not rebuild it
    start_events: msgspec.Raw = NO_START  # the events of the starting position (its log's first lines)
    summary: Summary | None = None
    updated: str = ""
    undo: str = ""  # the undo policy it was played with ("strict", "practice"; '': the default)


class _SaveFileV1(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Version 1 (Nightmare Cathedral only, before games had ids)."""

    format: str
    version: int
    pack: str
    pack_digest: str
    config: msgspec.Raw
    seed: int
    actions: tuple[msgspec.Raw, ...]
    cursor: int
    state_digest: str
    start: msgspec.Raw = NO_START


class _Header(msgspec.Struct, kw_only=True):
    """Just enough to tell a foreign or newer file apart before decoding the rest."""

    format: Any = None
    version: Any = None
    game: Any = None


class Loaded(NamedTuple):
    """A save read back: its store (replayed and checked), its game and the play's id."""

    store: Store
    game: AnyGame
    game_id: str
    path: Path
    undo: str = ""


class Listing(NamedTuple):
    """A save in a list: its file, its game and id, its summary, when it was written, and the
    problem that keeps it from loading ('' when it loads, or when it was not checked)."""

    path: Path
    game: str
    game_id: str
    summary: Summary | None
    updated: str
    problem: str = ""

    @property
    def finished(self) -> bool:
        return self.summary is not None and self.summary.finished


# ----------------------------------------------------------------------------------------------
# Folders


def save_dir(folder: Path | str | None = None) -> Path:
    """Where saves go: ``folder`` if given, else $NCTUI_SAVE_DIR, else the user data folder."""
    if folder is not None:
        return Path(folder)
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("nctui")) / "saves"


def scenario_dir(folder: Path | str | None = None) -> Path:
    """Where the user's own scenarios are (docs/scenarios.md): ``scenarios`` in the save folder
    given (or $NCTUI_SAVE_DIR), else in the user data folder."""
    if folder is None and not os.environ.get(ENV_DIR):
        return Path(platformdirs.user_data_dir("nctui")) / "scenarios"
    return save_dir(folder) / "scenarios"


def new_id() -> str:
    """A new play's id: 12 hex digits, random (two processes never pick the same one)."""
    return os.urandom(6).hex()  # as secrets.token_hex(6) (whose import costs the start-up ~1 ms)


def autosave_path(game_id: str, folder: Path | str | None = None) -> Path:
    return save_dir(folder) / AUTOSAVES / f"{game_id}{SUFFIX}"


def tidy(folder: Path | str | None = None) -> None:
    """Remove the temporary files a killed save left behind: nctui's own (``TEMP``), of a process
    that no longer runs or old enough not to be another process's save in progress. Never any
    other file."""
    now = time.time()
    base = save_dir(folder)
    for d in (base, base / AUTOSAVES):
        for p in _entries(d):
            found = TEMP.fullmatch(p.name)
            if found is None:
                continue
            try:
                if not _running(int(found.group(1))) or now - p.lstat().st_mtime > STALE_TEMP:
                    p.unlink()
            except OSError:
                pass


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (on this machine), as far as can be told."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # another user's, or not to be known: kept until it is stale
    return True


def _entries(folder: Path) -> list[Path]:
    """The entries of ``folder``; none when it is missing or cannot be read (a list of saves
    then says there are none there, and writing a save says why it cannot)."""
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def list_saves(folder: Path | str | None = None) -> list[Path]:
    """Save files in the folder and its autosaves, most recently written first."""
    base = save_dir(folder)
    files: list[Path] = []
    for d in (base, base / AUTOSAVES):
        files += [p for p in _entries(d) if p.name.endswith(SUFFIX) and not p.name.startswith(".") and is_there(p)]
    return sorted(files, key=_mtime, reverse=True)


def list_games(folder: Path | str | None = None, *, check: bool = False) -> list[Listing]:
    """Every save of the folder, newest first, as the lists show them (``check``: replay each to
    say which no longer loads)."""
    out = []
    for path in list_saves(folder):
        try:
            listing = read_listing(path)
        except SaveError as exc:
            out.append(Listing(path=path, game="", game_id="", summary=None, updated="", problem=exc.problem))
            continue
        if check:
            listing = listing._replace(problem=problem(path))
        out.append(listing)
    return out


def unfinished(folder: Path | str | None = None) -> list[Listing]:
    """The autosaves of games not finished, newest first: what Continue offers."""
    base = save_dir(folder) / AUTOSAVES
    return [g for g in list_games(folder) if g.path.parent == base and not g.finished and not g.problem]


def latest_autosave(folder: Path | str | None = None) -> Path | None:
    """The newest unfinished game's autosave, or None."""
    games = unfinished(folder)
    return games[0].path if games else None


def delete(path: Path | str) -> None:
    """Delete a save (asked first by the screens); never the autosave of a game being played
    (its lock is held, by this process or another)."""
    path = Path(path)
    lock = None
    if path.parent.name == AUTOSAVES and path.name.endswith(SUFFIX):
        game_id = path.name.removesuffix(SUFFIX)
        if GAME_ID.fullmatch(game_id):
            lock = GameLock(game_id, path.parent.parent)
            if not lock.acquired:
                raise SaveError(path, "is the game being played in an nctui: finish or quit it there first")
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise SaveError(path, f"cannot be deleted: {exc.strerror or exc}") from exc
    finally:
        if lock is not None:
            lock.release()


def migrate(folder: Path | str | None = None) -> None:
    """Version 1 kept one ``autosave.nctui.json`` per folder: move it among the autosaves, under
    an id of its own, so the next game cannot replace it."""
    base = save_dir(folder)
    old = base / LEGACY_AUTOSAVE
    if is_there(old):
        target = base / AUTOSAVES / f"{new_id()}{SUFFIX}"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(old, target)
        except OSError:
            pass


def is_there(p: Path) -> bool:
    """Whether ``p`` is a file (False when it cannot be looked at)."""
    try:
        return p.is_file()
    except OSError:
        return False


def _mtime(p: Path) -> float:
    try:
        return p.stat().st_mtime
    except OSError:
        return 0.0


# ----------------------------------------------------------------------------------------------
# Writing


def to_save_file(store: Store, game_id: str, *, undo: str = "") -> SaveFile:
    """The SaveFile describing the store's whole history."""
    game = store.game
    initial = store.initial.state
    config = game.config_of(initial)
    last = store.entry(store.last_id).state
    fresh = _is_fresh_start(store)
    return SaveFile(
        format=FORMAT,
        version=VERSION,
        game=game.id,
        id=game_id,
        content_digest=game.content_digest(config),
        config=msgspec.Raw(msgspec.json.encode(config)),
        actions=tuple(msgspec.Raw(msgspec.json.encode(a)) for a in store.all_actions()),
        cursor=store.state_id,
        state_digest=game.digest(last),
        start=NO_START if fresh else msgspec.Raw(msgspec.json.encode(initial)),
        start_events=NO_START if fresh else msgspec.Raw(msgspec.json.encode(store.initial.events)),
        summary=game.summary(store.state).bounded(),
        updated=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        undo=undo,
    )


def _is_fresh_start(store: Store) -> bool:
    """Whether the game began with ``game.new(config)``: then the config alone rebuilds it.
    Remembered on the store, so autosaving after each decision does not redo the setup."""
    if store.fresh_start is None:
        initial = store.initial.state
        try:
            store.fresh_start = store.game.new(store.game.config_of(initial)).state == initial
        except (ValueError, LookupError):  # the game's content errors are ValueErrors
            store.fresh_start = False
    return store.fresh_start


def encode(store: Store, game_id: str, *, undo: str = "") -> bytes:
    """The save file's bytes; raises ``SaveError`` when the game's content cannot be read."""
    try:
        save_file = to_save_file(store, game_id, undo=undo)
    except (ValueError, LookupError) as exc:  # the game's content cannot be read
        raise SaveError("<save>", f"cannot save: {exc}") from exc
    return msgspec.json.format(msgspec.json.encode(save_file), indent=1) + b"\n"


def save(store: Store, path: Path | str, game_id: str, *, undo: str = "") -> Path:
    """Write the store to ``path`` atomically; returns the path."""
    path = Path(path)
    write_atomic(path, encode(store, game_id, undo=undo))
    return path


def is_autosave(path: Path | str, game_id: str, folder: Path | str | None = None) -> bool:
    """Whether ``path`` is the autosave of the game ``game_id`` in the save folder."""
    try:
        return bool(game_id) and Path(path).resolve() == autosave_path(game_id, folder).resolve()
    except OSError:
        return False


def write_atomic(path: Path, data: bytes) -> None:
    """Temp file in the same folder, write, flush, fsync, rename over, fsync the folder.

    The rename is atomic on POSIX and Windows, so readers see the old file or the new one,
    never a mixture; the temp file is removed whatever goes wrong."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.nctui-{os.getpid()}-", suffix=".tmp")
    except OSError as exc:
        raise SaveError(path, f"cannot write to folder {folder}: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        _remove_quietly(tmp)
        raise SaveError(path, f"cannot write: {exc.strerror or exc}") from exc
    except BaseException:
        _remove_quietly(tmp)
        raise
    _fsync_dir(folder)


def _remove_quietly(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable. Not every platform can open a folder (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class GameLock:
    """An advisory lock on a game's autosave while a process plays it (released when the process
    ends, however it ends; its file removed when released). ``acquired``: False when another
    process holds it."""

    def __init__(self, game_id: str, folder: Path | str | None = None) -> None:
        self.path = save_dir(folder) / AUTOSAVES / f".{game_id}.lock"
        self._fd: int | None = None
        self.acquired = True
        if fcntl is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return  # a read-only folder: autosave will say so
        for _ in range(8):  # the file may be removed by its holder between open and flock
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                return
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                self.acquired = False
                return
            if _same_file(fd, self.path):
                self._fd = fd
                return
            os.close(fd)  # locked a file its holder had just removed: lock the one there now

    def release(self) -> None:
        """Remove the lock file (while still holding it, so no one locks the old one) and unlock."""
        if self._fd is not None:
            try:
                if _same_file(self._fd, self.path):
                    self.path.unlink()
            except OSError:
                pass
            os.close(self._fd)
            self._fd = None


def _same_file(fd: int, path: Path) -> bool:
    try:
        a, b = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


# ----------------------------------------------------------------------------------------------
# Reading


def load(path: Path | str, *, policy: UndoPolicy | None = None) -> Loaded:
    """Read, check and replay a save file. Raises SaveError; writes nothing."""
    path = Path(path)
    save_file = decode(_read(path), path)
    try:
        return _replay(save_file, path, policy or PracticePolicy())
    except SaveError:
        raise
    except Exception as exc:  # whatever the file holds, it gets one line naming it
        raise SaveError(path, f"is damaged: reading it fails ({type(exc).__name__}: {exc})") from exc


def problem(path: Path | str) -> str:
    """Why the save cannot be loaded, or '' when it loads (it is replayed to know)."""
    try:
        load(path)
    except SaveError as exc:
        return exc.problem
    return ""


def read_listing(path: Path | str) -> Listing:
    """A save's header: enough for the lists, without replaying it."""
    path = Path(path)
    sf = decode(_read(path), path)
    game_id = sf.id or (_legacy_id(path) if path.parent.name == AUTOSAVES else "")  # a migrated autosave: its name
    return Listing(path=path, game=sf.game, game_id=game_id, summary=sf.summary, updated=sf.updated or _file_time(path))


def _file_time(path: Path) -> str:
    return dt.datetime.fromtimestamp(_mtime(path), dt.UTC).isoformat(timespec="seconds")


def _read(path: Path) -> bytes:
    try:
        return read_bounded(path, MAX_BYTES)
    except BadInput as exc:
        raise SaveError(path, "no such save file" if str(exc) == "no such file" else str(exc)) from exc


def decode(data: bytes, path: Path | str = "<save>") -> SaveFile:
    """The SaveFile in ``data`` (version 1 read as version 2), after checking it is ours, not
    from a newer version, not of more actions than any game, and not nested absurdly deep.

    msgspec guards its own recursion (a RecursionError), so the depth of the whole text, whose
    reading takes the longest (~2 s for the largest file read), is checked last: a file refused
    for what its header or its length says is refused at once."""
    if not data.strip():
        raise SaveError(path, "is empty (the save was interrupted or the file was cleared)")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SaveError(
            path, f"is damaged or not a save file (not UTF-8 text: byte {exc.start} is {data[exc.start]:#04x})"
        ) from exc
    try:
        header = msgspec.json.decode(data, type=_Header)
    except msgspec.ValidationError as exc:
        _check_json(data, path)  # msgspec stops at the first value of the wrong type: "1garbage" is no JSON
        raise SaveError(path, f"is not an nctui save file (JSON, but not an object: {exc})") from exc
    except RecursionError as exc:
        raise _too_deep(path) from exc
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise SaveError(path, f"is damaged or not a save file (not valid JSON: {exc})") from exc
    if header.format is None:
        raise SaveError(path, "is not an nctui save file (it has no format name)")
    if header.format != FORMAT:
        raise SaveError(path, f"is not an nctui save file (format {header.format!r}, expected {FORMAT!r})")
    if not isinstance(header.version, int) or isinstance(header.version, bool) or header.version < 1:
        raise SaveError(path, f"has an invalid save format version {header.version!r}")
    if header.version > VERSION:
        raise SaveError(
            path,
            f"was written by a newer nctui (save format version {header.version}; "
            f"this version reads up to {VERSION}): update nctui to open it",
        )
    try:
        sf = _from_v1(msgspec.json.decode(data, type=_SaveFileV1)) if header.version == 1 else None
        if sf is None:
            sf = msgspec.json.decode(data, type=SaveFile)
    except RecursionError as exc:
        raise _too_deep(path) from exc
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise SaveError(path, f"is damaged: {exc}") from exc
    if len(sf.actions) > MAX_ACTIONS:  # refused before the text's depth is read, or any action decoded
        raise SaveError(path, f"is damaged: it has {len(sf.actions)} actions, more than any game ({MAX_ACTIONS})")
    try:
        check_depth(data)
    except BadInput as exc:
        raise SaveError(path, f"is damaged or not a save file: it {exc}") from exc
    if sf.version > 1 and not GAME_ID.fullmatch(sf.id):  # it names the game's autosave and lock: never a path
        raise SaveError(path, f"is damaged: its game id {sf.id!r} is not one nctui writes")
    return sf


def _too_deep(path: Path | str) -> SaveError:
    return SaveError(path, f"is damaged or not a save file: it is nested more than {MAX_DEPTH} levels deep")


def _check_json(data: bytes, path: Path | str) -> None:
    """Raise the "not valid JSON" SaveError when ``data`` is not JSON."""
    try:
        msgspec.json.decode(data)
    except RecursionError as exc:
        raise _too_deep(path) from exc
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise SaveError(path, f"is damaged or not a save file (not valid JSON: {exc})") from exc


def _from_v1(v1: _SaveFileV1) -> SaveFile:
    """Version 1 was Nightmare Cathedral; its state digest was of the state before the engine's
    renovation, so it is not compared (``state_digest`` empty): the replay checks every action."""
    return SaveFile(
        format=FORMAT,
        version=1,
        game="nightmare-cathedral",  # every version 1 save was of the first game
        id="",
        content_digest=v1.pack_digest,
        config=v1.config,
        actions=v1.actions,
        cursor=v1.cursor,
        state_digest="",
        start=v1.start,
    )


def _replay(sf: SaveFile, path: Path, policy: UndoPolicy) -> Loaded:
    """Rebuild the game from the configuration and the actions, checking every link."""
    game = game_named(sf.game)
    if game is None:
        raise SaveError(path, f"is a save of {sf.game!r}, a game this nctui does not have ({', '.join(GAME_IDS)})")
    config, actions, start, start_events = _decode_parts(sf, path, game)
    try:
        digest = game.content_digest(config)
    except (ValueError, LookupError) as exc:
        raise SaveError(path, f"needs content that cannot be loaded ({exc})") from exc
    if digest != sf.content_digest:
        raise SaveError(
            path,
            "was saved with a different version of the game's content: its game cannot be "
            "replayed exactly with the installed one",
        )
    if not 0 <= sf.cursor <= len(actions):
        raise SaveError(path, f"is damaged: cursor {sf.cursor} is outside its {len(actions)} actions")
    initial = _initial(game, config, start, start_events, path)
    try:
        store = Store(game=game, initial=initial, actions=actions, cursor=sf.cursor, policy=policy)
    except ReplayError as exc:
        raise SaveError(
            path, f"cannot be replayed: action {exc.index} of {len(actions)} is refused: {exc.cause}"
        ) from exc
    except Exception as exc:
        raise SaveError(path, f"is damaged: replaying it fails ({type(exc).__name__}: {exc})") from exc
    if sf.state_digest and game.digest(store.entry(store.last_id).state) != sf.state_digest:
        raise SaveError(
            path,
            "does not reproduce its saved game (state digest mismatch): the file was "
            "edited or damaged, or saved by a version of nctui whose rules differ",
        )
    store.fresh_start = start is None
    return Loaded(store=store, game=game, game_id=sf.id or _legacy_id(path), path=path, undo=sf.undo)


def _legacy_id(path: Path) -> str:
    """A version 1 save has no id: a migrated autosave is known by its file name (so continuing
    it keeps writing that file), any other gets a new one."""
    if path.parent.name == AUTOSAVES and path.name.endswith(SUFFIX):
        return path.name.removesuffix(SUFFIX)
    return new_id()


def _decode_parts(sf: SaveFile, path: Path, game: AnyGame) -> tuple[Any, tuple[Any, ...], Any, tuple[Any, ...]]:
    try:
        config = msgspec.json.decode(sf.config, type=game.config_type)
        action = _decoder(game.action_type).decode
        actions = tuple(action(a) for a in sf.actions)
        start = None if _is_null(sf.start) else msgspec.json.decode(sf.start, type=game.state_type)
        events = () if _is_null(sf.start_events) else _decoder(_events_of(game)).decode(sf.start_events)
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise SaveError(path, f"is damaged: {exc}") from exc
    if events and start is None:
        raise SaveError(path, "is inconsistent: it has the events of a starting position, and no position")
    return config, actions, start, events


_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}


def _events_of(game: AnyGame) -> Any:
    """The type of a tuple of the game's events."""
    return tuple[game.event_type, ...]  # type: ignore[name-defined]


def _decoder(typ: Any) -> msgspec.json.Decoder[Any]:
    """One decoder per type, made once: ``msgspec.json.decode(raw, type=T)`` works out how to
    decode ``T`` at every call (~27 µs an action of a long game, against ~0.3 µs)."""
    found = _DECODERS.get(typ)
    if found is None:
        found = _DECODERS[typ] = msgspec.json.Decoder(typ)
    return found


def _is_null(raw: msgspec.Raw) -> bool:
    return bytes(raw).strip() in (b"", b"null")


def _initial(game: AnyGame, config: Any, start: Any, events: tuple[Any, ...], path: Path) -> Any:
    if start is not None:
        if game.config_of(start) != config:
            raise SaveError(path, "is inconsistent: its starting position has another configuration")
        try:
            wrong = game.check_start(start)
        except Exception as exc:
            raise SaveError(
                path, f"has a starting position that cannot be played ({type(exc).__name__}: {exc})"
            ) from exc
        if wrong:
            raise SaveError(path, f"has a starting position that breaks the rules: {wrong[0]}")
        return _Start(state=start, events=events)
    try:
        return game.new(config)
    except (ValueError, LookupError) as exc:
        raise SaveError(path, f"has a configuration that cannot start a game: {exc}") from exc


class _Start(msgspec.Struct, frozen=True, kw_only=True):
    state: Any
    events: tuple[Any, ...]
