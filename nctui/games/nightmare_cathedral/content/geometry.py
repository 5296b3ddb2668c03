"""What a board side's grid implies beyond adjacency: the areas in play for a player count
(SETUP 2: with 3 players the overlay tiles cover the areas marked 4), the ring of outer areas
(solo SETUP 4's "clockwise"), distances, and the fairness properties every side must have
(docs/content.md, "Fair sides"). The loader's validation and the engine share these.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .loader import SideMap


def in_play(sm: SideMap, players: int) -> frozenset[str]:
    """SETUP 2: every area of the side, less those marked 4 when fewer than 4 play."""
    return frozenset(a.id for a in sm.side.areas if players == 4 or not a.four_players_only)


def ring(sm: SideMap, areas: Iterable[str]) -> tuple[str, ...]:
    """Clockwise: the areas (of ``areas``) met walking the outer cells of the grid, along the top
    row left to right, down the right column, the bottom row right to left, up the left column,
    starting from the top-left cell (docs/rules-decisions.md)."""
    at = {(r, c): a for a, r, c in sm.cells}
    last_r, last_c = sm.rows - 1, sm.cols - 1
    path = (
        [(0, c) for c in range(sm.cols)]
        + [(r, last_c) for r in range(1, sm.rows)]
        + [(last_r, c) for c in range(last_c - 1, -1, -1)]
        + [(r, 0) for r in range(last_r - 1, 0, -1)]
    )
    keep = set(areas)
    return tuple(dict.fromkeys(at[p] for p in path if at.get(p, "#") in keep))


def neighbours(sm: SideMap, areas: frozenset[str]) -> dict[str, frozenset[str]]:
    """Adjacency restricted to ``areas`` (a covered area is no neighbour)."""
    return {a: frozenset(bs) & areas for a, bs in sm.adjacency if a in areas}


def distances(adj: dict[str, frozenset[str]], start: str) -> dict[str, int]:
    """Steps from ``start`` to every area it reaches (breadth first)."""
    seen = {start: 0}
    todo = deque([start])
    while todo:
        a = todo.popleft()
        for b in adj[a]:
            if b not in seen:
                seen[b] = seen[a] + 1
                todo.append(b)
    return seen


def unfair(sm: SideMap) -> str:
    """The first fairness property (docs/content.md, "Fair sides") the side breaks, for any
    player count it is used with, or "" when it has them all."""
    corners = [a.id for a in sm.side.areas if a.corner]
    symbol = {a.id: a.symbol for a in sm.side.areas}
    at = {(r, c): a for a, r, c in sm.cells}
    grid_corners = {at.get((r, c)) for r in (0, sm.rows - 1) for c in (0, sm.cols - 1)}
    if set(corners) != grid_corners:
        return "the corner areas must hold the four corner cells of the grid (as far apart as possible)"
    for players in sm.side.players:
        areas = in_play(sm, players)
        adj = neighbours(sm, areas)
        where = f"with {players} player{'s' if players > 1 else ''}"
        for c in corners:
            if len(adj[c]) < 2:
                return f"corner {c} has fewer than 2 exits {where}"
            if c in sm.adjacent_cathedral or adj[c] & set(corners):
                return f"corner {c} touches the Cathedral or another corner"
        for a in sorted(sm.adjacent_cathedral & areas):
            if len(adj[a]) < 3:
                return f"{a}, next to the Cathedral, has fewer than 3 neighbours {where}"
        if len(distances(adj, corners[0])) != len(areas):
            return f"the areas in play are not connected {where}"
        spreads = {tuple(sorted(d for b, d in distances(adj, c).items() if b in corners and b != c)) for c in corners}
        if len(spreads) > 1:
            return f"the corners are not equally far from each other {where}"
        count = Counter(symbol[a] for a in areas)
        if min(count.get(x, 0) for x in set(symbol.values())) < max(count.values()) - 1:
            return f"some symbol marks two areas more than another {where}"
        if players == min(sm.side.players) and len(set(count.values())) > 1:
            return f"every symbol must mark equally many areas {where} ({_counts(count)})"
    if 1 in sm.side.players:
        r = ring(sm, in_play(sm, 1))
        near = {
            (r[i - 1] in sm.adjacent_cathedral, r[(i + 1) % len(r)] in sm.adjacent_cathedral)
            for i, a in enumerate(r)
            if a in corners
        }
        if len(near) > 1:
            return (
                "the areas next to each corner along the ring differ in touching the Cathedral "
                "(solo SETUP 4 would give a Follower more or less by corner)"
            )
    return ""


def _counts(count: Counter[str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(count.items()))
