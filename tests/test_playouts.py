"""The computer players' flat search by playouts (``platform.playouts``): sequential halving
keeps the rule of thumb's option unless another wins surely more often, and stops when asked."""

from __future__ import annotations

import random
from collections.abc import Callable

from nctui.platform.playouts import sequential_halving, surely_better


def coin(rates: list[float]) -> Callable[[int, int], float]:
    """Playouts of options that win with these rates, each future a fixed draw."""
    return lambda i, future: float(random.Random(future).random() < rates[i])


def test_an_option_that_wins_surely_more_often_is_chosen_over_the_rule_of_thumb() -> None:
    rates = [0.2, 0.3, 0.9, 0.25]
    assert sequential_halving(4, 0, 256, coin(rates), random.Random(1)) == 2


def test_the_rule_of_thumb_stays_where_the_playouts_cannot_tell_the_options_apart() -> None:
    rates = [0.5, 0.52, 0.5, 0.5]
    chosen = [sequential_halving(4, 3, 16, coin(rates), random.Random(seed)) for seed in range(20)]
    assert chosen.count(3) >= 15


def test_the_search_plays_no_more_once_stopped() -> None:
    played: list[int] = []

    def play(i: int, future: int) -> float:
        played.append(i)
        return 1.0

    assert sequential_halving(5, 1, 400, play, random.Random(2), stopped=lambda: len(played) >= 3) in range(5)
    assert len(played) == 3
    assert sequential_halving(1, 0, 400, play, random.Random(2)) == 0 and len(played) == 3


def test_an_option_better_in_every_shared_future_is_chosen_though_the_futures_differ_widely() -> None:
    """The futures' luck is shared by the options played in them (a paired comparison): an option
    worth a little more in each future is surely better, however much the futures differ."""

    def play(i: int, future: int) -> float:
        return random.Random(future).random() * 0.9 + (0.05 if i == 1 else 0.0)

    assert sequential_halving(3, 0, 24, play, random.Random(3)) == 1
    assert surely_better({1: 0.6, 2: 0.1, 3: 0.9}, {1: 0.5, 2: 0.0, 3: 0.8})
    assert not surely_better({1: 1.0, 2: 0.0, 3: 1.0}, {1: 0.0, 2: 1.0, 3: 0.0})
