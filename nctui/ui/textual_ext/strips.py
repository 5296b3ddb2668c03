"""Textual's lines of cells (``Strip``) made without their seven caches, each made when first used.

A ``Strip`` (Textual 8.2.8) makes seven small caches as it is made (for cropping, dividing,
styling, filtering, extending it), and drawing a panel makes about six strips a line, each kept
or thrown away after one use: at 120x40 the caches were a sixth of the time a panel took to be
drawn. With ``install()`` each cache is made when the strip first uses it (Python calls
``__getattr__`` for a slot not set yet): the same strips, the same caches, fewer made. Installed
by ``NctuiApp`` (explicitly, not as a side effect of an import); ``test_ui_widgets`` checks the
slots it relies on.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip

# Each cache and its size, as Strip.__init__ makes them.
CACHES: dict[str, int] = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}


def _init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _cache(self: Strip, name: str) -> FIFOCache:
    """Called only for an attribute not set: a cache is made the first time it is asked for."""
    size = CACHES.get(name)
    if size is None:
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
    cache: FIFOCache = FIFOCache(size)
    setattr(self, name, cache)
    return cache


def install() -> None:
    """Make every ``Strip`` from now on without its caches (idempotent)."""
    if Strip.__init__ is not _init:
        Strip.__init__ = _init  # type: ignore[method-assign]
        Strip.__getattr__ = _cache  # type: ignore[attr-defined]
