"""Squares of the city as masks: neighbours and the parts a set of buildings divides it into.

Rule 4: "The buildings must meet wall to wall, a corner to corner contact is not acceptable." A
part of the city is therefore the set of squares joined side to side *or corner to corner*: two
buildings touching only at a corner leave a gap the part runs through.
"""

from __future__ import annotations

from .pieces import FULL, SIZE

_NOT_LEFT = sum(1 << (r * SIZE + c) for r in range(SIZE) for c in range(1, SIZE))  # col > 0
_NOT_RIGHT = sum(1 << (r * SIZE + c) for r in range(SIZE) for c in range(SIZE - 1))  # col < 9


def around(mask: int) -> int:
    """``mask`` and every square touching it by a side or a corner."""
    wide = mask | ((mask << 1) & _NOT_LEFT) | ((mask >> 1) & _NOT_RIGHT)
    return (wide | (wide << SIZE) | (wide >> SIZE)) & FULL


def beside(mask: int) -> int:
    """``mask`` and every square touching it by a side."""
    return (mask | ((mask << 1) & _NOT_LEFT) | ((mask >> 1) & _NOT_RIGHT) | (mask << SIZE) | (mask >> SIZE)) & FULL


def part_of(seed: int, free: int) -> int:
    """The part of ``free`` reachable from ``seed`` (side or corner steps)."""
    part = seed & free
    while True:
        grown = around(part) & free
        if grown == part:
            return part
        part = grown


def parts(free: int) -> list[int]:
    """The parts ``free`` falls into."""
    out = []
    rest = free
    while rest:
        part = part_of(rest & -rest, free)
        out.append(part)
        rest &= ~part
    return out


def count(mask: int) -> int:
    return mask.bit_count()
