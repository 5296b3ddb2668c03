"""Computer players: legal choices only, from their own view, reproducible, and the greedy bot
plays a real game (it scores more than random play)."""

from __future__ import annotations

import pytest

from nctui.bots import BOTS, GreedyBot, RandomBot
from nctui.engine import legal_actions, new_game, player_view, step
from nctui.engine.invariants import violations

from .helpers import config


def _play(bot_type, players: int, seed: int):
    state = new_game(config(players, seed)).state
    bots = [bot_type(seed * 10 + i) for i in range(players)]
    actions = []
    while state.decision is not None:
        seat = state.decision.seat
        action = bots[seat].choose(player_view(state, seat))
        assert action in legal_actions(state)
        actions.append(action)
        state = step(state, action).state
    assert violations(state) == []
    return state, actions


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_bot_plays_a_whole_game_legally_and_reproducibly(name):
    first, moves = _play(BOTS[name], 3, seed=4)
    again, moves2 = _play(BOTS[name], 3, seed=4)
    assert first.outcome is not None and moves == moves2 and first == again


def test_a_bot_refuses_to_decide_for_another_seat():
    state = new_game(config(2, 1)).state
    other = 1 - state.decision.seat
    with pytest.raises(ValueError):
        GreedyBot(0).choose(player_view(state, other))


def test_the_greedy_bot_scores_more_than_random_play():
    def mean(bot_type):
        totals = [s.total for seed in range(4) for s in _play(bot_type, 2, seed)[0].outcome.scores]
        return sum(totals) / len(totals)

    assert mean(GreedyBot) > mean(RandomBot) + 3
