"""A computer player's flat search by playouts, for any game: each option of a decision is played
out in imagined futures (the game's bot imagines them and plays them to the end) and the options
are narrowed by sequential halving (Karnin, Koren and Somekh 2013: each round the better half
gets twice the playouts), the same futures for every option of a round. The player's own quick
choice (its rule of thumb) is never dropped early and is left only for an option better by more
than the noise of the playouts, so a small budget plays like the rule of thumb and a larger one
leaves it where the playouts say so more surely."""

from __future__ import annotations

import random
from collections.abc import Callable
from math import ceil, log2

CONFIDENCE = 0.5  # better than the rule of thumb's by this over the root of the playouts


def sequential_halving(
    options: int,
    own: int,
    budget: int,
    play: Callable[[int, int], float],
    rng: random.Random,
    stopped: Callable[[], bool] = lambda: False,
) -> int:
    """The option (an index below ``options``) to choose: ``play(option, future)`` is the value
    of one playout (a win 1, a loss 0) in the future numbered ``future``; ``own`` is the rule of
    thumb's option; about ``budget`` playouts in all; ``stopped()`` ends the search at once."""
    if options <= 1:
        return 0
    alive = list(range(options))
    score = [0.0] * options
    tries = [0] * options
    mean = [0.0] * options
    rounds = max(1, ceil(log2(options)))
    for _ in range(rounds):
        futures = [rng.getrandbits(64) for _ in range(max(1, budget // (len(alive) * rounds)))]
        for i in alive:
            for future in futures:
                if stopped():
                    break
                score[i] += play(i, future)
                tries[i] += 1
        mean = [score[i] / max(tries[i], 1) for i in range(options)]
        alive.sort(key=lambda i: mean[i], reverse=True)
        alive = alive[: max(1, ceil(len(alive) / 2))]
        if own not in alive:
            alive.append(own)
        if len(alive) == 1 or stopped():
            break
    best = max(alive, key=lambda i: mean[i])
    if best != own and mean[best] - mean[own] < CONFIDENCE / max(min(tries[best], tries[own]), 1) ** 0.5:
        return own
    return best
