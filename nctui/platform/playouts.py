"""A computer player's flat search by playouts, for any game: each option of a decision is played
out in imagined futures (the game's bot imagines them and plays them to the end) and the options
are narrowed by sequential halving (Karnin, Koren and Somekh 2013: each round the better half
gets twice the playouts), the same futures for every option of a round. The player's own quick
choice (its rule of thumb) is never dropped early and is left only for an option better by more
than the noise of the playouts (compared future by future), so a small budget plays like the
rule of thumb and a larger one leaves it where the playouts say so more surely."""

from __future__ import annotations

import random
from collections.abc import Callable
from math import ceil, log2

Z = 1.6  # the search leaves the rule of thumb only for an option better by this many standard errors


def sequential_halving(
    options: int,
    own: int,
    budget: int,
    play: Callable[[int, int], float],
    rng: random.Random,
    stopped: Callable[[], bool] = lambda: False,
    z: float = Z,
) -> int:
    """The option (an index below ``options``) to choose: ``play(option, future)`` is the value
    of one playout (a win 1, a loss 0, or the chance of a win) in the future numbered ``future``;
    ``own`` is the rule of thumb's option; about ``budget`` playouts in all; ``stopped()`` ends the
    search at once; ``z`` the standard errors below (``Z`` unless the game's player says).
    The rule of thumb's option is played in every future, so the best option is compared with it
    future by future (a paired test: the luck both share cancels) and left only for one whose
    mean gain over it is more than ``z`` standard errors above none."""
    if options <= 1:
        return 0
    alive = list(range(options))
    values: list[dict[int, float]] = [{} for _ in range(options)]
    mean = [0.0] * options
    rounds = max(1, ceil(log2(options)))
    for _ in range(rounds):
        futures = [rng.getrandbits(64) for _ in range(max(1, budget // (len(alive) * rounds)))]
        for i in alive:
            for future in futures:
                if stopped():
                    break
                values[i][future] = play(i, future)
        mean = [sum(v.values()) / max(len(v), 1) for v in values]
        alive.sort(key=lambda i: mean[i], reverse=True)
        alive = alive[: max(1, ceil(len(alive) / 2))]
        if own not in alive:
            alive.append(own)
        if len(alive) == 1 or stopped():
            break
    best = max(alive, key=lambda i: mean[i])
    return best if best != own and surely_better(values[best], values[own], z) else own


def surely_better(values: dict[int, float], own: dict[int, float], z: float = Z) -> bool:
    """Whether playouts ``values`` beat ``own`` in the futures both were played in, by more than
    ``z`` standard errors of the mean difference."""
    diffs = [v - own[f] for f, v in values.items() if f in own]
    n = len(diffs)
    if n < 2:
        return False
    gain = sum(diffs) / n
    spread = sum((d - gain) ** 2 for d in diffs) / (n - 1)
    return gain > 0 and gain * gain * n > z * z * max(spread, 1e-12)
