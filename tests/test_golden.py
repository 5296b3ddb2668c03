"""The golden games (tests/data/golden/, recorded by tools/golden.py) replay exactly.

A difference in the legal-option counts, the deciding seats, the outcome or the final state's
fingerprint means a rule changed. Change the files only on purpose, in the commit that changes
the rule, saying which rule changed.
"""

from __future__ import annotations

import pytest

from tests import golden

GAMES = golden.read_all()


def test_there_are_golden_games_of_every_kind():
    configs = [g.config for g in GAMES]
    assert len(GAMES) >= 20
    assert {c.players for c in configs} == {1, 2, 3, 4}
    assert {c.length for c in configs} == {"standard", "variable"}
    assert any(c.divergent_paths for c in configs) and len({c.nightmares for c in configs}) >= 6
    assert {"random", "greedy", "planner"} <= {b for g in GAMES for b in g.bots}
    solo = {c.difficulty for c in configs if c.players == 1}
    assert len(solo) >= 4  # easy, normal, hard and a mix of modifiers


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_golden_game_replays_exactly(game: golden.Golden):
    assert len(game.actions) == game.action_count
    r = golden.replay(game.config, game.actions)
    assert r.final.outcome is not None, "the game no longer ends where it did"
    assert r.option_counts == game.option_counts, _first_difference(r.option_counts, game.option_counts)
    assert r.seats == game.seats, _first_difference(r.seats, game.seats)
    assert golden.outcome_of(r.final) == game.outcome
    assert golden.fingerprint(r.final) == game.fingerprint


def _first_difference(got: tuple[int, ...], want: tuple[int, ...]) -> str:
    i = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return f"first difference before action {i + 1}: {got[i : i + 5]} instead of {want[i : i + 5]}"
