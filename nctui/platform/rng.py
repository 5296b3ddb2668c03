"""The game's random number generator: SplitMix64, written out, carried in the state.

One 64-bit integer is the whole state, so a seed plus the list of actions replays a game
exactly, and undoing a decision then taking it again gives the same draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import msgspec

MASK = (1 << 64) - 1
T = TypeVar("T")


class Rng(msgspec.Struct, frozen=True, kw_only=True, cache_hash=True, gc=False):
    state: int = 0


def seeded(seed: int) -> Rng:
    return Rng(state=seed & MASK)


def next_u64(rng: Rng) -> tuple[int, Rng]:
    s = (rng.state + 0x9E3779B97F4A7C15) & MASK
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31), Rng(state=s)


def below(rng: Rng, n: int) -> tuple[int, Rng]:
    """A uniform integer in [0, n), by rejection so that there is no modulo bias."""
    if n <= 0:
        raise ValueError("below() needs a positive bound")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        x, rng = next_u64(rng)
        if x < limit:
            return x % n, rng


def shuffle(rng: Rng, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
    """Fisher-Yates."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, rng = below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), rng


def choice(rng: Rng, items: Sequence[T]) -> tuple[T, Rng]:
    i, rng = below(rng, len(items))
    return items[i], rng
