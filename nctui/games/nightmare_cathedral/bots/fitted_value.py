"""A 2-player position's chance of winning, a logistic fitted to the outcomes of planner games.

``planner_bot.evaluate`` is a hand-weighted estimate in VP (the opponent counted at 0.5 + 0.15);
this is the same position's parts (``components``: the score, areas controlled and present,
Followers, Fort levels, Limbo, supply, Ritual steps, Upgrades, the seat's own hand and Dreams by
the planner's measure, the opponent's hand and Dreams counted), taken as differences between the
seat and its opponent (``features``), some scaled by ``g`` (the planner's: 1 early, 0 at the end)
or by ``1 / sqrt(1 + turns left)`` (a lead counts more near the end), and weighed by ``COEF``:
coefficients fitted by ``benchmarks/fit_value.py`` (logistic regression on positions at the start
of every turn of planner-against-planner games, labelled by who won; the fit, its data and its
held-out figures in docs/balance.md, "The expert, 2026-12-05"). The runtime carries only the
coefficients. Only the seat's own hidden cards are read, so a view's guess (``views.resample``)
gives the same value whatever it guessed of the other seat's hand.
"""

from __future__ import annotations

import math

from ..engine.state import HAND_LIMIT, GameState
from .planner_bot import (
    W,
    _dreams_value,
    _excess_lost,
    _hand_value,
    _pending,
    board_facts,
    fast_scores,
    remaining_turns,
    tables,
)

# A seat's parts (``components``), in this order.
PARTS = (
    "score",  # a climb being paid for counted as done (``_pending``)
    "controlled",
    "present",
    "followers",
    "fort_levels",
    "limbo",
    "supply",
    "ritual",
    "upgrades",
    "hand",  # Development cards in hand (counted)
    "dreams",  # Dream cards in hand (counted)
    "hand_value",  # the seat's own hand by the planner's measure (``_hand_value`` at g)
    "dreams_value",  # the seat's own Dream cards by the planner's measure (``_dreams_value``)
)

# The features (``features``), in this order: d is the seat's part minus its opponent's.
NAMES = (
    "tempo",  # +1: the seat is to play (its turn begins), -1: the other is
    "d_score",
    "d_score_late",  # d_score / sqrt(1 + turns left)
    "d_controlled",
    "d_controlled_g",
    "d_present",
    "d_present_g",
    "d_followers",
    "d_followers_g",
    "d_fort_levels",
    "d_fort_levels_g",
    "d_limbo_g",
    "d_supply_g",
    "d_ritual",
    "d_ritual_g",
    "d_upgrades_g",
    "hand_value",  # the seat's own
    "hand_theirs_g",  # the opponent's cards in hand, times g
    "dreams_value",  # the seat's own
    "dreams_theirs_g",  # the opponent's Dream cards in hand, times g
    "d_board_late",  # (d_controlled + d_fort_levels) / sqrt(1 + turns left)
)

# Fitted by ``benchmarks/fit_value.py`` (docs/balance.md, "The expert, 2026-12-05").
COEF: tuple[float, ...] = (
    0.15036,  # tempo
    0.04556,  # d_score
    0.20711,  # d_score_late
    0.41436,  # d_controlled
    -0.13223,  # d_controlled_g
    0.17285,  # d_present
    -0.13190,  # d_present_g
    -0.00054,  # d_followers
    0.09126,  # d_followers_g
    0.28898,  # d_fort_levels
    -0.07234,  # d_fort_levels_g
    0.18875,  # d_limbo_g
    0.15073,  # d_supply_g
    -0.01349,  # d_ritual
    0.04471,  # d_ritual_g
    0.06426,  # d_upgrades_g
    -0.01107,  # hand_value
    -0.01058,  # hand_theirs_g
    0.05845,  # dreams_value
    -0.01619,  # dreams_theirs_g
    -0.29682,  # d_board_late
)


def components(state: GameState, seat: int, g: float, my_turns: float, facts=None, scores=None) -> tuple[float, ...]:
    """``seat``'s parts (``PARTS``), its own hand and Dreams valued as the planner values them."""
    facts = facts or board_facts(state)
    scores = scores or fast_scores(state, facts)
    f, pl = facts[seat], state.players[seat]
    t = tables(state.pack)
    lost = len(pl.hand) > HAND_LIMIT and _excess_lost(state, seat)  # as ``evaluate`` counts them (capped)
    return (
        scores[seat] + _pending(state, seat, W),
        float(f.controlled),
        float(f.present),
        float(f.followers),
        float(f.fort_levels),
        float(pl.limbo),
        float(min(pl.supply, 6)),
        float(pl.ritual[0] + pl.ritual[1]),
        float(t.display(pl.display)[1]),
        float(len(pl.hand)),
        float(len(pl.dreams)),
        _hand_value(state.pack, pl.hand, g, lost),
        _dreams_value(t, state, seat, pl.dreams, f, my_turns, W),
    )


def features_of(
    mine: tuple[float, ...], theirs: tuple[float, ...], g: float, turns: float, tempo: float
) -> list[float]:
    """The features (``NAMES``) from both seats' parts (``components``)."""
    d = [a - b for a, b in zip(mine, theirs, strict=True)]
    late = 1.0 / math.sqrt(1.0 + turns)
    score, controlled, present, followers, fort_levels, limbo, supply, ritual, upgrades = d[:9]
    return [
        tempo,
        score,
        score * late,
        controlled,
        controlled * g,
        present,
        present * g,
        followers,
        followers * g,
        fort_levels,
        fort_levels * g,
        limbo * g,
        supply * g,
        ritual,
        ritual * g,
        upgrades * g,
        mine[11],
        theirs[9] * g,
        mine[12],
        theirs[10] * g,
        (controlled + fort_levels) * late,
    ]


def state_features(state: GameState, seat: int) -> list[float]:
    """The features of a 2-player position for ``seat`` (``NAMES``)."""
    facts = board_facts(state)
    scores = fast_scores(state, facts)
    my_turns = remaining_turns(state) / 2
    g = min(1.0, my_turns / W.horizon)
    other = 1 - seat
    mine = components(state, seat, g, my_turns, facts, scores)
    theirs = components(state, other, g, my_turns, facts, scores)
    return features_of(mine, theirs, g, my_turns, 1.0 if state.active == seat else -1.0)


def logistic(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def win_chance(state: GameState, seat: int, coef: tuple[float, ...] = COEF) -> float:
    """``seat``'s chance of winning a 2-player game from here: 1, 0.5 or 0 once it is over (a
    shared win counts 1 / k), else the fitted logistic of the position's features."""
    if state.outcome is not None:
        winners = state.outcome.winners
        return 1.0 / len(winners) if seat in winners else 0.0
    x = state_features(state, seat)
    return logistic(sum(c * v for c, v in zip(coef, x, strict=True)))
