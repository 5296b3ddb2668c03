"""Print how fast the engine plays 2-player games of random bots, on one core.

    python benchmarks/engine_speed.py [--games 40] [--rounds 3] [--json]

Figures, not a pass/fail: compare them between changes.

- games/s and decisions/s, with the invariant check after every decision (as ``nctui simulate``
  does) and without it. Each bot sees only its ``player_view``; game ``i`` has seed ``1 + i``.
- microseconds per call of ``step``, ``legal_actions``, ``player_view`` (the deciding seat's) and
  ``invariants.violations``, timed over every state of the first few of those games.
- a yardstick: a fixed pure-Python loop timed in the same run. Wall-clock figures vary with the
  machine and its load (the load average is printed too); divide by the yardstick to compare
  runs on different machines.

Each figure is the best of ``--rounds`` rounds: a busy machine only ever makes a round slower.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Callable

from nctui.games.nightmare_cathedral.engine import GameState, legal_actions, new_game, player_view, step
from nctui.games.nightmare_cathedral.engine.actions import Action
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.simulate import bot_seed, make_config, random_bots
from nctui.platform.game import Bot

PLAYERS = 2
TIMED_GAMES = 5  # games whose states time each call


def yardstick() -> float:
    """Milliseconds of a fixed loop of the operations the engine spends its time on: calls,
    attribute reads, small tuples and dicts."""
    t = time.perf_counter()
    table: dict[int, tuple[int, ...]] = {}
    total = 0
    for i in range(300_000):
        key = i & 255
        row = table.get(key, ())
        table[key] = row[-3:] + (i,)
        total += len(row) + abs(key - 128)
    assert total > 0
    return 1e3 * (time.perf_counter() - t)


def play(seed: int, check: bool, record: list[tuple[GameState, Action | None]] | None = None) -> int:
    """One game of random bots, as ``nctui simulate`` plays it (``platform.runner.play_game``,
    without its timing and dispatch); the decisions made."""
    config = make_config(players=PLAYERS, seed=seed)
    state = new_game(config).state
    bots: dict[int, Bot] = {}
    decisions = 0
    while state.decision is not None:
        seat = state.decision.seat
        bot = bots.get(seat) or bots.setdefault(seat, random_bots(seat, bot_seed(seed, seat)))
        action = bot.choose(player_view(state, seat))
        if record is not None:
            record.append((state, action))
        state = step(state, action).state
        decisions += 1
        if check and violations(state):
            raise AssertionError(f"game {seed}: broken invariant after decision {decisions}: {violations(state)}")
    if record is not None:
        record.append((state, None))
    return decisions


def seconds(work: Callable[[], object]) -> float:
    t = time.perf_counter()
    work()
    return time.perf_counter() - t


def per_call(fn: Callable[..., object], calls: list[tuple]) -> float:
    """Seconds for a call of ``fn`` with each tuple of arguments, in turn."""
    t = time.perf_counter()
    for args in calls:
        fn(*args)
    return time.perf_counter() - t


def measure(games: int, rounds: int) -> dict[str, float]:
    """The best time of each figure over ``rounds`` rounds; each round takes every figure once, so
    that a busy spell of the machine slows one round of each, not every round of one."""
    record: list[tuple[GameState, Action | None]] = []
    for i in range(TIMED_GAMES):
        play(1 + i, check=False, record=record)
    moves = [(s, a) for s, a in record if a is not None]
    views = [(s, s.decision.seat) for s, _ in moves if s.decision is not None]
    work: dict[str, Callable[[], float]] = {
        "yardstick": lambda: yardstick() / 1e3,
        "checked": lambda: seconds(lambda: [play(1 + i, check=True) for i in range(games)]),
        "unchecked": lambda: seconds(lambda: [play(1 + i, check=False) for i in range(games)]),
        "step": lambda: per_call(step, moves),
        "legal_actions": lambda: per_call(legal_actions, [(s,) for s, _ in moves]),
        "player_view": lambda: per_call(player_view, views),
        "violations": lambda: per_call(violations, [(s,) for s, _ in record]),
    }
    best = {name: float("inf") for name in work}
    for _ in range(rounds):
        for name, run in work.items():
            best[name] = min(best[name], run())
    best["decisions"] = sum(play(1 + i, check=False) for i in range(games))
    best["states"] = len(record)
    best["moves"] = len(moves)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40, help="games per round (default 40)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds; the best of each figure is kept (default 3)")
    ap.add_argument("--json", action="store_true", help="print one line of JSON, nothing else")
    args = ap.parse_args()
    play(1, check=True)  # warm up: the content pack and the engine's caches load once
    t = measure(args.games, args.rounds)
    us = {name: 1e6 * t[name] / t["moves"] for name in ("step", "legal_actions", "player_view")}
    us["violations"] = 1e6 * t["violations"] / t["states"]
    figures = {
        "python": platform.python_version(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "yardstick_ms": round(1e3 * t["yardstick"], 2),
        "games": args.games,
        "rounds": args.rounds,
        "games_per_s_checked": round(args.games / t["checked"], 2),
        "games_per_s_unchecked": round(args.games / t["unchecked"], 2),
        "decisions_per_s_checked": round(t["decisions"] / t["checked"]),
        "decisions_per_s_unchecked": round(t["decisions"] / t["unchecked"]),
        "us_per_call": {k: round(v, 2) for k, v in us.items()},
        "timed_states": int(t["states"]),
    }
    if args.json:
        print(json.dumps(figures))
        return
    f = figures
    print(
        f"engine speed: {PLAYERS} players, random bots, one core, Python {f['python']}, "
        f"load average {', '.join(f'{x:.2f}' for x in f['load_average'])}"
    )
    print(f"  yardstick (fixed pure-Python loop)   {f['yardstick_ms']:8.1f} ms")
    print(
        f"  games/s, invariants checked          {f['games_per_s_checked']:8.1f}   "
        f"({f['decisions_per_s_checked']:,} decisions/s)"
    )
    print(
        f"  games/s, unchecked                   {f['games_per_s_unchecked']:8.1f}   "
        f"({f['decisions_per_s_unchecked']:,} decisions/s)"
    )
    print(f"  per call, over the {f['timed_states']} states of {TIMED_GAMES} games:")
    for name, value in us.items():
        print(f"    {name:<16} {value:10.2f} us")
    print(f"best of {args.rounds} rounds of {args.games} games; the yardstick compares machines and loads")


if __name__ == "__main__":
    main()
