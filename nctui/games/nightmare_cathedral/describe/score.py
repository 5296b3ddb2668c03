"""The final score in words: each side's score source by source (``scoring.breakdowns``) and the
end condition with its threshold."""

from __future__ import annotations

from ..engine import nightmares
from ..engine.scoring import Breakdown, breakdowns
from ..engine.state import GameState
from .names import END_REASONS, plural, seat_name, words_for


def end_reason(state: GameState) -> str:
    """'the Devoured end condition was met: 12 units devoured, the threshold 12 ...'."""
    out = state.outcome
    assert out is not None, "an end reason needs a finished game"
    reason = END_REASONS.get(out.reason, out.reason)
    if out.reason != "devoured":
        return reason
    total, limit = nightmares.devoured_total(state), nightmares.threshold(state)
    return (
        f"{reason} ({plural(total, 'unit')} devoured, the threshold is {limit}; "
        "play went on until everyone had had as many turns)"
    )


def _places(first: int, last: int, sides: int) -> str:
    """'place 1 of 3 (most)', 'places 2-3 of 3'."""
    if first == last:
        return f"place {first} of {sides}" + (" (most)" if first == 1 else " (fewest)" if first == sides else "")
    return f"places {first}-{last} of {sides}"


def breakdown_lines(state: GameState, b: Breakdown) -> list[tuple[str, int]]:
    """One side's score as (reason, VP) lines, every source named; they sum to its total."""
    w = words_for(state.pack)
    sides = len(state.players) + 1  # the Shadows take a place too
    lines: list[tuple[str, int]] = []
    for r in b.ritual:
        where = f"reached space {r.space}" if r.space else "never left the start"
        lines.append((f"Ritual marker {r.marker + 1} {where}", r.vp))
    lines += [(f"Fort of {f.levels} levels in {w.area(f.area)}", f.vp) for f in b.forts]
    d = b.devoured
    if d is not None:
        place = _places(d.first, d.last, sides)
        why = f"Devoured: {plural(d.devoured, 'unit')}, {place}"
        if d.tied > 1:
            why += f" shared by {d.tied} sides (the Shadows count): {d.pool} VP split, rounded down"
        lines.append((why, d.vp))
    lines += [(f"Upgrade {w.card(c.card)}", c.vp) for c in b.upgrades]
    lines += [(f"Dream {w.card(c.card)}", c.vp) for c in b.dreams]
    suits = {s.id: s.name for s in w.pack.cards.suits}
    lines += [(f"{s.count} {suits.get(s.suit, s.suit)} Dreams completed: suit set", s.vp) for s in b.suit_sets]
    if b.king_extra is not None:
        k = b.king_extra
        lines.append((f"The cards left in its hand and {plural(k.tiles, 'Reward tile')}", k.vp))
    return lines


def score_breakdown(state: GameState) -> list[tuple[int, str, list[tuple[str, int]]]]:
    """Per seat (in seat order): its name and its (reason, VP) lines."""
    return [(b.seat, seat_name(state, b.seat), breakdown_lines(state, b)) for b in breakdowns(state)]
