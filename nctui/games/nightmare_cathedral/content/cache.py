"""A cache of validated content packs, so that start-up does not parse and validate the 104 KB
``cards.toml`` every time (~130 ms without ``.pyc`` files; decoding the cache takes ~1 ms).

The cache file is a pickle of the validated ``Pack`` in the user's cache folder
(``$NCTUI_CACHE_DIR``, else the platform's, e.g. ``~/.cache/nctui``), beside the stamp it was
made for (``safeio.stamp``): the path, size and modification time of each of the pack's files
*and* of the loader's own source (``schema``, ``loader``, ``validate``, this module), and
msgspec's version. Changed content or changed validation rules never meet an old cache entry;
as with Python's ``.pyc`` files, a file rewritten with the same size in the same nanosecond
would. A hit reads no pack file and hashes nothing: the pack's digest (recorded in saves) was
taken when the files were validated. Anything wrong with the cache (missing, unreadable,
truncated, another schema, another stamp) falls back to loading and validating the files; a
cache that cannot be written is simply not written.

A pickle, not msgpack: a typed msgpack decode first builds msgspec's decoders for the schema's
~65 Struct types (~5 ms of every start); unpickling rebuilds the Structs as they were (~1.5 ms
for the base pack). A pickle runs what it names, so only a file of this user's that no one
else may write is read (``safeio.read_own``), and what it gives must be a ``Pack`` of these
files.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from nctui.platform.safeio import cache_dir, read_own, stamp, stamp_name

if TYPE_CHECKING:
    from .loader import Pack

MAX_BYTES = 16 * 1024 * 1024
_CODE = ("schema.py", "loader.py", "validate.py", "cache.py")


def pack_stamp(folder: Path, names: Iterable[str]) -> str | None:
    """The stamp of the pack in ``folder`` (its files ``names``) and of the validating code; None
    when a file cannot be looked at (then the files are loaded, which names what is wrong)."""
    here = Path(__file__).parent
    try:
        return stamp([*(folder.resolve() / n for n in names), *(here / n for n in _CODE)], msgspec.__version__)
    except OSError:
        return None


def load(key: str) -> Pack | None:
    """The pack cached for this stamp (``pack_stamp``), or None (never raises for a bad cache)."""
    from .loader import Pack

    try:
        kept = pickle.loads(read_own(cache_dir() / stamp_name("pack-", key), MAX_BYTES))
    except Exception:  # noqa: BLE001 - missing, not this user's own, truncated, foreign: load the files
        return None
    if not (isinstance(kept, tuple) and len(kept) == 2 and kept[0] == key and isinstance(kept[1], Pack)):
        return None
    return kept[1]


def store(key: str, pack: Pack) -> None:
    """Cache a validated pack for its stamp (atomically: a temporary file renamed); errors are
    ignored."""
    try:
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".pack-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(pickle.dumps((key, pack), protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(tmp, folder / stamp_name("pack-", key))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass
