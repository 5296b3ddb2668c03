"""Issue 39.14: hot-seat hand-offs. The keyboard passes only when the next decision is another
person's: what one person decides in a row (their action's steps, a reaction and the Cathedral
icon after it when nobody decides between) comes without a hand-off between. The rulebook's order
(docs/rules-decisions.md, "Hot seat: when the keyboard passes") alternates the two people of a
2-player turn: the active player's action, the other's reaction, then each one's Cathedral icon
starting with the active player: three hand-offs a turn with an icon, one fewer without."""

from __future__ import annotations

import asyncio
from itertools import pairwise

import pytest

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.platform.store import Store
from nctui.ui.app import create_app
from tests.helpers import play_by_keys, present

HOTSEAT = GameConfig(players=2, seats=("human", "human"), seed=42)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_no_hand_off_comes_between_two_decisions_of_one_person(tmp_path, size):
    """A seeded 2-player hot-seat game, 100 decisions by the keys: every hand-off passes the
    keyboard to the person who decides next, from the one who decided last, and there is one
    exactly where the decider changes (none more)."""
    seen: list[tuple[str, int, int, str]] = []  # ("decision" | "handoff", seat, turn, the decision's kind)

    async def go():
        app = create_app(Store(HOTSEAT), save_dir=tmp_path)

        def decision(panel) -> None:
            state = app.store.state
            seen.append(("decision", present(state.decision).seat, state.turn_number, present(state.decision).kind))

        def handoff(screen) -> None:
            seen.append(("handoff", screen.seat, app.store.state.turn_number, ""))

        async with app.run_test(size=size) as pilot:
            await play_by_keys(app, pilot, 100, seed=42, on_decision=decision, on_handoff=handoff)

    asyncio.run(go())
    deciders = [seat for kind, seat, _, _ in seen if kind == "decision"]
    changes = sum(1 for a, b in pairwise(deciders) if a != b)
    handoffs = [k for k, (kind, *_) in enumerate(seen) if kind == "handoff"]
    assert handoffs and len(handoffs) == changes, (len(handoffs), changes)
    for k in handoffs:
        to = seen[k][1]
        before = next(seat for kind, seat, _, _ in reversed(seen[:k]) if kind == "decision")
        after = next(seat for kind, seat, _, _ in seen[k + 1 :] if kind == "decision")
        assert before != to and after == to, seen[max(k - 3, 0) : k + 3]
    # never two in a row: something was decided between any two hand-offs
    assert all(b - a > 1 for a, b in pairwise(handoffs))
    # into the turns where the Cathedral is built (from turn 2): a reaction and two icons a turn
    assert max(turn for _, _, turn, _ in seen) >= 5
    icons = {"produce", "add_shadow", "climb", "move"}
    assert any(kind in icons for _, _, turn, kind in seen if turn >= 2)
