"""A cache of validated content packs, so that start-up does not parse and validate the 104 KB
``cards.toml`` every time (~130 ms without ``.pyc`` files; decoding the cache takes ~1 ms).

The cache file is a pickle of the validated ``Pack`` in the user's cache folder
(``$NCTUI_CACHE_DIR``, else the platform's, e.g. ``~/.cache/nctui``), named by a hash of the
pack's files *and* of the loader's own source (``schema``, ``loader``, ``validate``, this
module): changed content or changed validation rules never meet an old cache entry. Anything
wrong with the cache (missing, unreadable, truncated, another schema) falls back to loading
and validating the files; a cache that cannot be written is simply not written.

A pickle, not msgpack: a typed msgpack decode first builds msgspec's decoders for the schema's
~65 Struct types (~5 ms of every start); unpickling rebuilds the Structs as they were (~1.5 ms
for the base pack). A pickle runs what it names, so only a file of this user's that no one
else may write is read (``safeio.read_own``), and what it gives must be a ``Pack`` of these
files.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from ..safeio import read_own

if TYPE_CHECKING:
    from .loader import Pack

ENV_DIR = "NCTUI_CACHE_DIR"
MAX_BYTES = 16 * 1024 * 1024
_CODE = ("schema.py", "loader.py", "validate.py", "cache.py")


def cache_dir() -> Path:
    """Where validated packs are cached: $NCTUI_CACHE_DIR, else the user's cache folder."""
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("nctui")) / "packs"


def key(files_digest: str) -> str:
    """The cache key: the pack files' digest and the validating code's own source."""
    h = hashlib.sha256(files_digest.encode() + msgspec.__version__.encode())
    here = Path(__file__).parent
    for name in _CODE:
        h.update((here / name).read_bytes())
    return h.hexdigest()[:32]


def load(files_digest: str) -> Pack | None:
    """The cached validated pack of these files, or None (never raises for a bad cache)."""
    from .loader import Pack

    try:
        pack = pickle.loads(read_own(cache_dir() / f"{key(files_digest)}.pickle", MAX_BYTES))
    except Exception:  # noqa: BLE001 - missing, not this user's own, truncated, foreign: load the files
        return None
    return pack if isinstance(pack, Pack) and pack.digest == files_digest else None


def store(pack: Pack) -> None:
    """Cache a validated pack (atomically: a temporary file renamed); errors are ignored."""
    try:
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".pack-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(pickle.dumps(pack, protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(tmp, folder / f"{key(pack.digest)}.pickle")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass
