"""Every pair of Nightmares plays a whole game: Stage 2 is reached, the game ends by time or by
devouring, every invariant holds, and the scores add up to their breakdown."""

from __future__ import annotations

from itertools import combinations

import pytest

from nctui.games.nightmare_cathedral.simulate import bots_of_kind, make_config, play_game

PAIRS = list(combinations(range(1, 9), 2))


@pytest.mark.parametrize("pair", PAIRS, ids=[f"{a}&{b}" for a, b in PAIRS])
def test_every_nightmare_pair_plays_to_the_end(pair):
    players = 2 + sum(pair) % 3
    config = make_config(players=players, seed=sum(pair) * 31 + pair[0], nightmares=pair)
    result = play_game(config, bots=bots_of_kind("greedy"), bot_kind="greedy")
    assert result.failure is None, result.failure and result.failure.details
    state = result.state
    assert state.stage == 2 and state.outcome is not None
    assert state.outcome.reason in ("time", "devoured")
    for score in state.outcome.scores:
        assert score.total == score.ritual + score.forts + score.devoured + score.upgrades + score.dreams
    if state.outcome.reason == "devoured":
        assert len({pl.turns for pl in state.players}) == 1
