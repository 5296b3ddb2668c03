"""Save files: a game as its configuration and the list of decisions, replayed on load.

A save is msgspec JSON (``SaveFile``): format name, version, the content pack and its digest,
the GameConfig, the actions (the redo branch included) and the cursor, and a digest of the last
state so a file that was edited or damaged, or a pack that changed, is caught rather than
replayed into a different game. Writing is atomic: a temporary file in the same folder,
flushed and fsynced, then renamed over the old one, so a crash never leaves half a save.

Every problem reading a save raises ``SaveError`` with one message naming the file; loading
never writes anything.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import msgspec
import platformdirs

from .content.loader import ContentError, get_pack
from .engine.actions import Action
from .engine.config import GameConfig
from .engine.flow import StepResult, new_game
from .engine.state import GameState
from .store import PracticePolicy, ReplayError, Store, UndoPolicy

FORMAT = "nctui-save"
VERSION = 1
SUFFIX = ".nctui.json"
AUTOSAVE = "autosave" + SUFFIX
ENV_DIR = "NCTUI_SAVE_DIR"
MAX_BYTES = 64 * 1024 * 1024  # far beyond any real game; refuses to read a stray huge file


class SaveError(Exception):
    """A save file cannot be written or loaded; ``str()`` is one sentence naming the file."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path, self.problem = Path(path), problem
        super().__init__(f"{self.path.name}: {problem}")


class SaveFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Version 1 of the save format.

    ``actions``: every decision from the start, the redo branch included; ``cursor``: the state
    id the game stands at (``len(actions)`` when there is nothing to redo). ``state_digest``:
    of the state after the last action. ``start``: the initial state when the game did not
    begin with ``new_game(config)`` (a scenario); None otherwise.
    """

    format: str
    version: int
    pack: str
    pack_digest: str
    config: GameConfig
    seed: int
    actions: tuple[Action, ...]
    cursor: int
    state_digest: str
    start: GameState | None = None


class _Header(msgspec.Struct, kw_only=True):
    """Just enough to tell a foreign or newer file apart before decoding the rest."""

    format: Any = None
    version: Any = None


def state_digest(state: GameState) -> str:
    """sha256 of the state's canonical msgpack bytes (struct fields in definition order; sets
    and dict keys sorted by ``order="deterministic"``, so equal states give equal digests)."""
    return hashlib.sha256(msgspec.msgpack.encode(state, order="deterministic")).hexdigest()


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


def list_saves(folder: Path | str | None = None) -> list[Path]:
    """Save files in the folder, most recently written first."""
    d = save_dir(folder)
    if not d.is_dir():
        return []
    files = [p for p in d.iterdir() if p.name.endswith(SUFFIX) and p.is_file()]
    return sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)


def latest_autosave(folder: Path | str | None = None) -> Path | None:
    """The autosave to offer as "Continue", or None when there is none."""
    p = save_dir(folder) / AUTOSAVE
    return p if p.is_file() else None


# ----------------------------------------------------------------------------------------------
# Writing


def to_save_file(store: Store) -> SaveFile:
    """The SaveFile describing the store's whole history."""
    initial = store.initial.state
    config = initial.config
    fresh = _is_fresh_start(store)
    last = store.entry(store.last_id).state
    return SaveFile(
        format=FORMAT,
        version=VERSION,
        pack=initial.pack,
        pack_digest=get_pack(initial.pack).digest,
        config=config,
        seed=config.seed,
        actions=store.all_actions(),
        cursor=store.state_id,
        state_digest=state_digest(last),
        start=None if fresh else initial,
    )


def _is_fresh_start(store: Store) -> bool:
    """Whether the game began with ``new_game(config)``: then the config alone rebuilds it.
    Remembered on the store, so autosaving after each decision does not redo the setup."""
    if store.fresh_start is None:
        initial = store.initial.state
        try:
            store.fresh_start = new_game(initial.config).state == initial
        except (ValueError, LookupError, ContentError):
            store.fresh_start = False
    return store.fresh_start


def encode(store: Store) -> bytes:
    return msgspec.json.format(msgspec.json.encode(to_save_file(store)), indent=1) + b"\n"


def save(store: Store, path: Path | str) -> Path:
    """Write the store to ``path`` atomically; returns the path."""
    path = Path(path)
    try:
        data = encode(store)
    except ContentError as exc:
        raise SaveError(path, f"cannot save: {exc}") from exc
    _write_atomic(path, data)
    return path


def autosave(store: Store, folder: Path | str | None = None) -> Path:
    """Write ``autosave.nctui.json`` in the save folder (call after each decision)."""
    return save(store, save_dir(folder) / AUTOSAVE)


def _write_atomic(path: Path, data: bytes) -> None:
    """Temp file in the same folder, write, flush, fsync, rename over, fsync the folder.

    The rename is atomic on POSIX and Windows, so readers see the old file or the new one,
    never a mixture; the temp file is removed whatever goes wrong."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
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


# ----------------------------------------------------------------------------------------------
# Reading


def load(path: Path | str, *, policy: UndoPolicy | None = None) -> Store:
    """Read, check and replay a save file into a Store. Raises SaveError; writes nothing."""
    path = Path(path)
    save_file = decode(_read(path), path)
    return _replay(save_file, path, policy or PracticePolicy())


def _read(path: Path) -> bytes:
    if path.is_dir():
        raise SaveError(path, "is a folder, not a save file")
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise SaveError(path, f"is {size} bytes, far too large to be a save file")
        return path.read_bytes()
    except FileNotFoundError as exc:
        raise SaveError(path, "no such save file") from exc
    except OSError as exc:
        raise SaveError(path, f"cannot be read: {exc.strerror or exc}") from exc


def decode(data: bytes, path: Path | str = "<save>") -> SaveFile:
    """The SaveFile in ``data``, after checking it is ours and not from a newer version."""
    if not data.strip():
        raise SaveError(path, "is empty (the save was interrupted or the file was cleared)")
    try:
        header = msgspec.json.decode(data, type=_Header)
    except msgspec.ValidationError as exc:
        # msgspec checks the type as it parses: garbage that starts like a number fails here.
        _require_json(data, path)
        raise SaveError(path, f"is not an nctui save file (JSON, but not an object: {exc})") from exc
    except msgspec.DecodeError as exc:
        raise _not_json(path, exc) from exc
    if header.format is None:
        raise SaveError(path, "is not an nctui save file (it has no format name)")
    if header.format != FORMAT:
        raise SaveError(path, f"is not an nctui save file (format {header.format!r}, expected {FORMAT!r})")
    if not isinstance(header.version, int) or isinstance(header.version, bool) or header.version < 1:
        raise SaveError(path, f"has an invalid save format version {header.version!r}")
    if header.version > VERSION:
        raise SaveError(path, f"was written by a newer nctui (save format version {header.version}; "
                              f"this version reads up to {VERSION}): update nctui to open it")
    try:
        return msgspec.json.decode(data, type=SaveFile)
    except msgspec.ValidationError as exc:
        raise SaveError(path, f"is damaged: {exc}") from exc
    except msgspec.DecodeError as exc:
        raise SaveError(path, f"is damaged: {exc}") from exc


def _require_json(data: bytes, path: Path | str) -> None:
    try:
        msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise _not_json(path, exc) from exc


def _not_json(path: Path | str, exc: Exception) -> SaveError:
    return SaveError(path, f"is damaged or not a save file (not valid JSON: {exc})")


def _replay(sf: SaveFile, path: Path, policy: UndoPolicy) -> Store:
    """Rebuild the game from the configuration and the actions, checking every link."""
    if sf.config.pack != sf.pack or sf.config.seed != sf.seed:
        raise SaveError(path, "is inconsistent: its configuration does not match its pack or seed")
    try:
        pack = get_pack(sf.pack)
    except ContentError as exc:
        raise SaveError(path, f"needs content pack {sf.pack!r}, which cannot be loaded ({exc})") from exc
    if pack.digest != sf.pack_digest:
        raise SaveError(path, f"was saved with a different version of content pack {sf.pack!r}: "
                              "its game cannot be replayed exactly with the installed one")
    initial = _initial(sf, path)
    if not 0 <= sf.cursor <= len(sf.actions):
        raise SaveError(path, f"is damaged: cursor {sf.cursor} is outside its {len(sf.actions)} actions")
    try:
        store = Store(initial=initial, actions=sf.actions, cursor=sf.cursor, policy=policy)
    except ReplayError as exc:
        raise SaveError(path, f"cannot be replayed: action {exc.index} of {len(sf.actions)} "
                              f"({msgspec.json.encode(exc.action).decode()}) is refused: {exc.cause}") from exc
    if state_digest(store.entry(store.last_id).state) != sf.state_digest:
        raise SaveError(path, "does not reproduce its saved game (state digest mismatch): the file was "
                              "edited or damaged, or saved by a version of nctui whose rules differ")
    store.fresh_start = sf.start is None
    return store


def _initial(sf: SaveFile, path: Path) -> StepResult:
    if sf.start is not None:
        if sf.start.config != sf.config:
            raise SaveError(path, "is inconsistent: its starting position has another configuration")
        return StepResult(state=sf.start, events=())
    try:
        return new_game(sf.config)
    except (ValueError, LookupError) as exc:
        raise SaveError(path, f"has a configuration that cannot start a game: {exc}") from exc
