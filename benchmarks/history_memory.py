"""Print the memory a whole game's history of states takes, counting shared parts once.

    python benchmarks/history_memory.py [--players N] [--seed S]

Figures, not a pass/fail: compare them between changes.
"""

from __future__ import annotations

import argparse
import sys
import time

import msgspec

from nctui.games.nightmare_cathedral.bots import RandomBot
from nctui.games.nightmare_cathedral.engine import GameConfig, new_game, player_view, step


def deep_size(obj: object, seen: set[int]) -> int:
    """Bytes reachable from ``obj`` that were not already counted in ``seen``."""
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, msgspec.Struct):
        size += sum(deep_size(getattr(obj, f), seen) for f in obj.__struct_fields__)
    elif isinstance(obj, (tuple, frozenset)):
        size += sum(deep_size(x, seen) for x in obj)
    return size


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cfg = GameConfig(players=args.players, seats=("bot",) * args.players, seed=args.seed)
    state = new_game(cfg).state
    bots = [RandomBot(i) for i in range(args.players)]
    history = [state]
    t = time.perf_counter()
    while state.decision is not None:
        seat = state.decision.seat
        state = step(state, bots[seat].choose(player_view(state, seat))).state
        history.append(state)
    seconds = time.perf_counter() - t
    one = deep_size(history[-1], set())
    seen: set[int] = set()
    total = sum(deep_size(s, seen) for s in history)
    print(f"decisions            {len(history) - 1}")
    print(f"seconds              {seconds:.3f}  ({1e6 * seconds / (len(history) - 1):.1f} us per decision)")
    print(f"one state            {one / 1024:.1f} KiB")
    print(
        f"whole history        {total / 1024:.1f} KiB  ({total / len(history):.0f} bytes per state, shared parts once)"
    )
    print(f"without sharing      {one * len(history) / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
