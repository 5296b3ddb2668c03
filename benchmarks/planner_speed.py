"""The planning computer player's speed, against the previous planner's on the same games.

    python benchmarks/planner_speed.py [--games 10] [--seed 9000] [--workers N] [--json]

Game ``i`` of each kind (solo at normal, 2 players) is seeded ``game_seed(seed, i)`` and played
twice: by the planner (``PlannerBot``) at every seat, and by the previous one
(``PlannerBot(**PREVIOUS_PLANNER)``). Both run interleaved in one pool, so a busy machine slows
both alike. Printed: CPU seconds per game, per turn and per decision of each. The games of the two
planners differ (their choices differ), so compare per turn and per decision, not only per game.
Issue 13's goal: at least 1 game per second per core over ``tools/balance_study.py --planner``
(3 solo games to 1 of 2 players). Figures beside the yardstick of ``engine_speed.py`` (a fixed
pure-Python loop timed in the same run) and the load average: this machine's speed swings with
its load, by a quarter between runs of the same code.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

sys.path.insert(0, os.path.dirname(__file__))

from engine_speed import yardstick

from nctui.games.nightmare_cathedral.bots.planner_bot import PREVIOUS_PLANNER, PlannerBot
from nctui.games.nightmare_cathedral.engine.config import DIFFICULTY_PRESETS
from nctui.games.nightmare_cathedral.simulate import make_config, play_game
from nctui.platform.runner import game_seed

WHO = ("previous", "planner")
KINDS = ("solo", "2 players")


def one_game(task: tuple[str, str, int]) -> tuple[str, str, float, int, int]:
    """(who, kind, CPU seconds, turns, decisions) of one game."""
    who, kind, seed = task
    settings: dict[str, Any] = dict(PREVIOUS_PLANNER) if who == "previous" else {}
    config = (
        make_config(players=1, seed=seed, difficulty=DIFFICULTY_PRESETS["normal"])
        if kind == "solo"
        else make_config(players=2, seed=seed)
    )
    start = time.process_time()
    result = play_game(config, bots=lambda seat, s: PlannerBot(s, **settings), bot_kind="planner")
    if result.failure is not None or result.state is None:
        raise SystemExit(f"game failed: {result.failure.command if result.failure else seed}")
    return who, kind, time.process_time() - start, result.state.turn_number, result.decisions


def measure(games: int, seed: int, workers: int, quiet: bool) -> dict[str, Any]:
    tasks = [(who, kind, game_seed(seed, i)) for i in range(games) for kind in KINDS for who in WHO]
    results: list[tuple[str, str, float, int, int]] = []
    with ProcessPoolExecutor(workers) as pool:
        for done, result in enumerate(pool.map(one_game, tasks), 1):
            results.append(result)
            if not quiet and sys.stderr.isatty():
                print(f"\r{done}/{len(tasks)} games", end="", file=sys.stderr, flush=True)
    if not quiet and sys.stderr.isatty():
        print("\r" + " " * 24 + "\r", end="", file=sys.stderr)
    rows: dict[str, dict[str, Any]] = {}
    for kind in KINDS:
        for who in WHO:
            mine = [r for r in results if r[0] == who and r[1] == kind]
            cpu, turns, decisions = sum(r[2] for r in mine), sum(r[3] for r in mine), sum(r[4] for r in mine)
            rows[f"{kind}, {who}"] = {
                "games": len(mine),
                "cpu_per_game": cpu / len(mine),
                "turns_per_game": turns / len(mine),
                "ms_per_turn": 1000 * cpu / turns,
                "ms_per_decision": 1000 * cpu / decisions,
            }
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games of each kind for each planner")
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    stick = yardstick()
    rows = measure(args.games, args.seed, args.workers, args.json)
    load = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"yardstick_ms": stick, "load": load, "seed": args.seed, "rows": rows}))
        return
    print(f"yardstick {stick:.1f} ms, load {load:.2f}, seed {args.seed}, {args.workers} workers\n")
    print("| games | CPU s/game | turns/game | ms/turn | ms/decision |")
    print("|---|---|---|---|---|")
    for name, r in rows.items():
        print(
            f"| {name} ({r['games']}) | {r['cpu_per_game']:.2f} | {r['turns_per_game']:.1f} | "
            f"{r['ms_per_turn']:.1f} | {r['ms_per_decision']:.2f} |"
        )


if __name__ == "__main__":
    main()
