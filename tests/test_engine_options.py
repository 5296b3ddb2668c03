"""The options of the most asked decisions are listed from their rule's predicates directly, not
by building a refusal for every candidate (the planner asks them after every step it tries): the
same options, in the same order, as the candidates the rule's own refusal lets through, at every
such decision of seeded random games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nctui.games.nightmare_cathedral.engine import board, cards, fortify, movement, new_game, nightmares, steps_basic
from nctui.games.nightmare_cathedral.engine.actions import (
    BuildFortLevel,
    ConvertUnit,
    DevourUnit,
    PayFollower,
    PlayPloy,
    PlayUpgrade,
)
from nctui.games.nightmare_cathedral.engine.flow import advance, apply, step
from nctui.games.nightmare_cathedral.engine.rules import legal, with_stop
from nctui.games.nightmare_cathedral.engine.table import RULES
from nctui.games.nightmare_cathedral.engine.work import (
    ConvertWork,
    DevelopWork,
    DevourWork,
    FortPayWork,
    FortWork,
    PloyWork,
    ProduceWork,
    UpgradeWork,
)
from nctui.games.nightmare_cathedral.simulate import make_config


def _by_refusal(state, w):
    """The options as ``rules.legal`` lists them: every candidate its rule's refusal lets through."""
    if isinstance(w, UpgradeWork):
        if steps_basic._played_all(w):
            return ()
        hand = dict.fromkeys(state.players[w.seat].hand)
        return with_stop(legal(state, w, (PlayUpgrade(card=c) for c in hand), steps_basic._upgrade_refusal), True)
    if isinstance(w, PloyWork):
        if steps_basic._played_all(w):
            return ()
        hand = dict.fromkeys(state.players[w.seat].hand)
        return with_stop(legal(state, w, (PlayPloy(card=c) for c in hand), steps_basic._ploy_refusal), True)
    if isinstance(w, DevelopWork):
        hand = dict.fromkeys(state.players[w.seat].hand)
        plays: list[PlayUpgrade | PlayPloy] = [*(PlayUpgrade(card=c) for c in hand), *(PlayPloy(card=c) for c in hand)]
        return with_stop(legal(state, w, plays, steps_basic._develop_refusal), True)
    if isinstance(w, FortPayWork):
        if w.owed <= 0:
            return ()
        return legal(state, w, (PayFollower(area=a.id) for a in state.areas), fortify._pay_refusal)
    if isinstance(w, FortWork):
        if not w.costs:
            return ()
        return with_stop(
            legal(state, w, (BuildFortLevel(area=a.id) for a in state.areas), fortify._build_refusal), not w.must
        )
    if isinstance(w, ProduceWork):
        if w.left <= 0:
            return ()
        if w.mode == "each":
            return steps_basic._produce_candidates(state, w)
        return steps_basic.placing(
            state,
            w.seat,
            lambda s: legal(s, w, steps_basic._produce_candidates(s, w), steps_basic._produce_refusal),
            not w.must,
        )
    if isinstance(w, ConvertWork):
        if w.left <= 0:
            return ()

        def conversions(s):
            candidates = (ConvertUnit(area=a.id, side=side) for a in s.areas for side in (*range(len(s.players)), -2))
            return legal(s, w.seat, candidates, lambda s, seat, c: movement.conversion_refusal(s, seat, w.where, c))

        return steps_basic.placing(state, w.seat, conversions, not w.must)
    assert isinstance(w, DevourWork)
    if w.left <= 0:
        return ()
    sides = tuple(range(len(state.players))) + (nightmares.SHADOWS,)
    candidates = (DevourUnit(area=a.id, side=s) for a in state.areas for s in sides)
    return with_stop(legal(state, w, candidates, nightmares._devour_refusal), not w.must)


def test_the_ploys_with_an_effect_are_those_cards_names():
    state = new_game(make_config(players=2, seed=1)).state
    expected = {
        d.id
        for d in board.get_pack(state.pack).cards.development
        if cards.is_ploy(state, d.id) and cards.development(state, d.id).effect is not None
    }
    assert steps_basic._ploys_with_effect(state.pack) == expected and expected


WORKS = (UpgradeWork, PloyWork, DevelopWork, FortPayWork, FortWork, DevourWork, ProduceWork, ConvertWork)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_options_are_the_candidates_the_refusal_lets_through(players):
    seen: Counter[str] = Counter()
    for game in range(6):
        rng = random.Random(players * 100 + game)
        state = new_game(make_config(players=players, seed=players * 100 + game)).state
        while state.decision is not None:
            w = state.work
            if isinstance(w, WORKS):
                assert RULES[type(w)].options(state, w) == _by_refusal(state, w), type(w).__name__
                seen[type(w).__name__] += 1
            state = step(state, rng.choice(state.decision.options)).state
    assert all(seen[w.__name__] for w in WORKS if w is not ConvertWork or players > 1), seen


@pytest.mark.parametrize("players", [1, 2, 3])
def test_advance_is_apply_for_the_options_of_the_decision(players):
    """``flow.advance`` (the planner's step: an option of the decision itself, not checked again,
    no events kept) reaches the very state ``flow.apply`` does, or fails as it does, for every
    option of every decision of seeded random games."""
    for game in range(3):
        rng = random.Random(players * 10 + game)
        state = new_game(make_config(players=players, seed=players * 10 + game)).state
        while state.decision is not None:
            for option in state.decision.options:
                try:
                    expected: object = apply(state, option)
                except Exception as exc:  # noqa: BLE001 - the same failure either way
                    expected = type(exc)
                try:
                    got: object = advance(state, option)
                except Exception as exc:  # noqa: BLE001
                    got = type(exc)
                assert got == expected, (state.decision.kind, option)
            state = step(state, rng.choice(state.decision.options)).state
