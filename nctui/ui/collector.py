"""The garbage collector set for an interactive app (the terminal UI, local or served)."""

from __future__ import annotations

import gc

# Allocations between collections of the youngest generation, and collections of each generation
# between collections of the next (Python's default: 700, 10, 10). Drawing a frame makes tens of
# thousands of short-lived objects: with the defaults a key press at 120x40 spent ~12 ms in the
# collector, and one press in ten ~70 ms more in a full collection that walks every widget and the
# whole game history; with these, ~5 ms and hardly ever a full one (52 presses, in process).
GC_THRESHOLD = (10_000, 50, 100)


def steady_collector() -> None:
    """Set the collector for an interactive app (``GC_THRESHOLD``) and put what is loaded so far
    out of its sight (``gc.freeze``: it lives as long as the process, and forked children keep
    sharing its pages); call it after the imports."""
    gc.set_threshold(*GC_THRESHOLD)
    gc.freeze()
