"""Refusals name the rule that forbids the action, even when no action of its kind is on offer."""

from __future__ import annotations

import pytest

from nctui.games.nightmare_cathedral.engine import IllegalAction, actions as A, apply
from nctui.games.nightmare_cathedral.engine.work import DreamWork
from tests import helpers as H
from tests.helpers import random_game


def _first(predicate, players=3, seeds=range(8)):
    for seed in seeds:
        for state, _ in random_game(players, seed):
            if state.decision is not None and predicate(state):
                return state
    raise AssertionError("no such position in the sample games")


def test_a_dream_in_the_middle_of_an_action_breaks_the_golden_rule():
    state = _first(
        lambda s: (
            not H.between_steps(s)
            and not isinstance(s.work, DreamWork)
            and s.players[s.decision.seat].dreams
            and not any(isinstance(o, A.PlayDream) for o in s.decision.options)
        )
    )
    card = state.players[state.decision.seat].dreams[0]
    with pytest.raises(IllegalAction, match=r"never in the middle.*\[PLAYING DREAM CARDS\]") as err:
        apply(state, A.PlayDream(card=card))
    assert err.value.rule == "the golden rule"


def test_stopping_before_playing_a_combat_card_is_refused_with_the_rule():
    state = _first(lambda s: s.decision.kind == "play_combat_card" and A.Done() not in s.decision.options)
    with pytest.raises(IllegalAction, match=r"\[CONFLICTS 2\]"):
        apply(state, A.Done())


def test_stopping_an_effect_that_must_be_resolved_in_full_is_refused():
    state = _first(
        lambda s: (
            s.work is not None
            and getattr(s.work, "must", False)
            and type(s.work).__name__ != "ConflictWork"
            and A.Done() not in s.decision.options
        )
    )
    with pytest.raises(IllegalAction, match=r"as completely as possible"):
        apply(state, A.Done())
