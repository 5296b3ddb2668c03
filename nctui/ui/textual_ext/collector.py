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


# A collection is made while the app waits for a key, once no frame has been drawn for WAIT_AFTER
# seconds, if at least YOUNG_ENOUGH objects were made since the last: a collection of the young
# generation took 4-7 ms, and it came in the middle of one key press in two or three (the first
# option key after start, at 120x40, in every run).
WAIT_AFTER = 0.08
YOUNG_ENOUGH = 1_000
LOOK_EVERY = 0.1  # seconds between looks at whether the app waits
# Seconds after a frame the looks go on; then they stop until the next frame. Looking for ever,
# each served person's idle app woke ten times a second: 3.5 ms of CPU a second a person, 17 % of
# a core for 50 people doing nothing.
LOOK_FOR = 1.0


def due_generation() -> int:
    """The generation the collector would collect next: the oldest one whose count passed its
    threshold once one more younger collection is counted, as Python picks it."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    generation = 0
    while generation < 2 and counts[generation + 1] + 1 > thresholds[generation + 1]:
        generation += 1
    return generation


def collect_while_waiting(waited: float) -> int | None:
    """Collect now if the app has waited ``waited`` seconds since its last frame (at least
    ``WAIT_AFTER``) and enough was made since the last collection, so that the next key's work
    does not set a collection off in its middle. Returns the generation collected (None: none)."""
    if waited < WAIT_AFTER or not gc.isenabled() or gc.get_count()[0] < YOUNG_ENOUGH:
        return None
    generation = due_generation()
    gc.collect(generation)
    return generation
