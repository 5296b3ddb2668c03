"""Cathedral's strong computer player against the greedy one: its win rate and its time per move.

    python benchmarks/cathedral_strength.py [--games 200] [--workers N] [--budget B] [--against A] [--json]

``--budget``: the strong player's (placements tried a decision, ``bots.BUDGET`` by default);
``--against``: ``greedy`` (the default) or a budget, for the strong player at that budget (its
growth: ``--budget 16000 --against 8000`` is a doubling).

Game i (seed i) gives the strong player seat i % 2, so it has Light (places the Cathedral, moves
second) in half the games and Dark in the other half; seeds decide the players' ties. Goals
(issue 15): at least 90 % of games won, and every move within 1 s on this kind of machine.
Figures are printed beside the yardstick of ``engine_speed.py`` (a fixed pure-Python loop timed in
the same run) and the load average, since wall-clock times vary with the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial

sys.path.insert(0, os.path.dirname(__file__))

from engine_speed import yardstick

from nctui.games.cathedral import bots, rules
from nctui.games.cathedral.state import CathedralConfig
from nctui.platform.runner import wilson


def one_game(seed: int, budget: int = bots.BUDGET, against: str = "greedy") -> tuple[float, str, list[float]]:
    """(1 if the strong player won, 1/2 for a draw against another strong player, else 0; its
    colour; its CPU seconds per move)."""
    strong_seat = seed % 2
    players: dict[int, bots.StrongBot | bots.GreedyBot] = {strong_seat: bots.StrongBot(1000 + seed, budget=budget)}
    other = bots.GreedyBot(2000 + seed) if against == "greedy" else bots.StrongBot(2000 + seed, budget=int(against))
    players[1 - strong_seat] = other
    state = rules.new_game(CathedralConfig(seats=("bot", "bot"))).state
    times = []
    while (seat := rules.decider(state)) is not None:
        start = time.process_time()
        action = players[seat].choose(state)
        if seat == strong_seat:
            times.append(time.process_time() - start)
        state = rules.step(state, action).state
    assert state.outcome is not None
    won = state.outcome.winners == (strong_seat,)
    drawn = against != "greedy" and len(state.outcome.winners) != 1
    return 1.0 if won else 0.5 if drawn else 0.0, "Light" if strong_seat == 0 else "Dark", times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--budget", type=int, default=bots.BUDGET)
    parser.add_argument("--against", default="greedy", help="greedy, or a budget of another strong player")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    stick = yardstick()
    results = []
    play = partial(one_game, budget=args.budget, against=args.against)
    with ProcessPoolExecutor(args.workers) as pool:
        for done, result in enumerate(pool.map(play, range(args.games)), 1):
            results.append(result)
            if not args.json and sys.stderr.isatty():
                print(f"\r{done}/{args.games} games", end="", file=sys.stderr, flush=True)
    if not args.json and sys.stderr.isatty():
        print("\r" + " " * 20 + "\r", end="", file=sys.stderr)
    times = sorted(t for _, _, ts in results for t in ts)
    by_colour = {c: [w for w, col, _ in results if col == c] for c in ("Light", "Dark")}
    figures = {
        "budget": args.budget,
        "against": args.against,
        "games": args.games,
        "won": sum(w for w, _, _ in results),
        "win_rate": round(sum(w for w, _, _ in results) / args.games, 3),
        "won_as_light": f"{sum(by_colour['Light']):g}/{len(by_colour['Light'])}",
        "won_as_dark": f"{sum(by_colour['Dark']):g}/{len(by_colour['Dark'])}",
        "move_mean_s": round(sum(times) / len(times), 3),
        "move_p95_s": round(times[int(0.95 * (len(times) - 1))], 3),
        "move_max_s": round(times[-1], 3),
        "yardstick_ms": round(stick, 1),
        "load_average": os.getloadavg()[0],
        "workers": args.workers,
    }
    if args.json:
        print(json.dumps(figures))
        return
    against = "greedy" if args.against == "greedy" else f"strong at budget {args.against}"
    goal = "90 %" if args.against == "greedy" else "over 50 % for a larger budget"
    low, high = wilson(figures["won"], args.games)
    print(f"Cathedral: strong at budget {args.budget} against {against}, {args.games} games ({args.workers} workers)")
    print(
        f"  won {figures['won']:g} ({100 * figures['win_rate']:.1f} %, "
        f"95 % interval {100 * low:.1f}-{100 * high:.1f} %): "
        f"as Light {figures['won_as_light']}, as Dark {figures['won_as_dark']}  (goal: {goal})"
    )
    print(
        f"  CPU time per move: mean {figures['move_mean_s']:.3f} s, p95 {figures['move_p95_s']:.3f} s, "
        f"max {figures['move_max_s']:.3f} s  (goal: within 1 s)"
    )
    print(f"  yardstick {figures['yardstick_ms']} ms, load average {figures['load_average']:.2f}")


if __name__ == "__main__":
    main()
