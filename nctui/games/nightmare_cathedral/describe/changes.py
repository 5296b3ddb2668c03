"""What changed between two positions, in words: the summary that ends the King's turn panel
(solo, KING'S TURN), so the player reads the outcome of a turn of many steps in a few lines.

Only what a view shows anyone is compared (units, Forts, Fortresses, Ritual markers, devoured
units, the Cathedral, the King's Power and Dreams): both states are views of the same seat.
"""

from __future__ import annotations

from ..engine.state import GameState
from .names import plural, seat_name, words_for


def _units(state: GameState, area: int) -> dict[str, int]:
    """Units per side in an area: each seat's Followers, and the Shadows."""
    a = state.areas[area]
    units = {seat_name(state, seat): n for seat, n in enumerate(a.followers)}
    units["the Shadows"] = a.shadows
    return units


def describe_changes(before: GameState, after: GameState) -> list[str]:
    """One line per thing that changed from ``before`` to ``after`` ('Ember Reach: King 2 → 5
    units, the Shadows 3 → 2'); empty when nothing did."""
    w = words_for(after.pack)
    lines: list[str] = []
    if len(before.areas) == len(after.areas):
        for i, (a, b) in enumerate(zip(before.areas, after.areas, strict=True)):
            was, now = _units(before, i), _units(after, i)
            moved = [f"{side} {was[side]} → {now[side]}" for side in now if was.get(side, 0) != now[side]]
            if (a.fort_owner, a.fort_levels) != (b.fort_owner, b.fort_levels):
                moved.append(
                    f"Fort {seat_name(after, b.fort_owner)} {b.fort_levels}" if b.fort_owner >= 0 else "Fort gone"
                )
            if a.fortress != b.fortress:
                moved.append(f"Fortress {seat_name(after, b.fortress)}" if b.fortress >= 0 else "Fortress gone")
            if moved:
                lines.append(f"{w.area(b.id)}: " + ", ".join(moved))
    for p, q in zip(before.players, after.players, strict=False):
        name = seat_name(after, q.seat)
        if p.ritual != q.ritual:
            lines.append(f"{name}'s Ritual markers {p.ritual[0]}/{p.ritual[1]} → {q.ritual[0]}/{q.ritual[1]}")
        if p.devoured != q.devoured:
            lines.append(f"{name}: {plural(q.devoured - p.devoured, 'unit')} devoured")
        if p.limbo != q.limbo:
            lines.append(f"{name}'s Limbo {p.limbo} → {q.limbo}")
    if before.devoured_shadows != after.devoured_shadows:
        lines.append(f"the Shadows: {plural(after.devoured_shadows - before.devoured_shadows, 'unit')} devoured")
    if before.cathedral_built != after.cathedral_built:
        lines.append(f"the Cathedral: {len(before.cathedral_built)} → {len(after.cathedral_built)} pieces built")
    k0, k1 = before.king, after.king
    if k0 is not None and k1 is not None:
        if k0.dreamer != k1.dreamer:
            lines.append(f"the King's Dreamer: {w.day_short(k0.dreamer)} → {w.day_short(k1.dreamer)}")
        if len(k0.completed) != len(k1.completed):
            lines.append(f"the King completed {plural(len(k1.completed) - len(k0.completed), 'Dream')}")
        if len(k0.hand) != len(k1.hand):
            lines.append(f"the King's hand: {len(k0.hand)} → {len(k1.hand)} cards")
    return lines
