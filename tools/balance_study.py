"""Print the tables of docs/balance.md: games between bots, on every core.

    python tools/balance_study.py --planner [--games 200] [--seed 2026] [--rows easy,normal,hard,2p] [--json]
        the targets of issue 13: the King against the planner at easy / normal / hard, and
        2-player games between planners (the winner's VP and its parts)
    python tools/balance_study.py --duel [--games 100] [--budget 250] [--json]
        the planner against the previous one (``PlannerBot(**PREVIOUS_PLANNER)``), seats
        alternated: its win rate and the CPU seconds per game of each
    python tools/balance_study.py [--games 40] [--bots greedy]
        the tables per Nightmare pair and player count

Games run in a process pool (``--jobs``, every core by default); progress goes to the terminal
(stderr) when it is one. Figures, not a verdict: rerun after changing cards, Nightmares or bots.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Iterable
from multiprocessing import Pool
from pathlib import Path
from statistics import mean, pstdev
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nctui.games.nightmare_cathedral.bots.planner_bot import BUDGET, PREVIOUS_PLANNER, PlannerBot
from nctui.games.nightmare_cathedral.engine.config import DIFFICULTY_PRESETS, SUGGESTED_PAIRS
from nctui.games.nightmare_cathedral.simulate import bots_of_kind, make_config, play_game
from nctui.platform.runner import game_seed

Task = tuple[str, dict[str, Any], int]  # (kind, options, game seed)


def _finished(config, bots, kind: str):
    result = play_game(config, bots=bots, bot_kind=kind)
    if result.failure is not None:
        raise SystemExit(f"game failed: {result.failure.command}\n{result.failure.details}")
    return result.state


def run_task(task: Task) -> dict[str, Any]:
    """One game; what the tables need of it."""
    kind, opts, seed = task
    start = time.process_time()
    if kind == "solo":
        budget = opts.get("budget", BUDGET)
        config = make_config(players=1, seed=seed, difficulty=DIFFICULTY_PRESETS[opts["level"]])
        state = _finished(config, lambda seat, s: PlannerBot(s, budget=budget), "planner")
        king = state.king.seat if state.king else 1
        scores = state.outcome.scores
        totals = [s.total for s in scores]
        return {
            "king_won": king in state.outcome.winners and len(state.outcome.winners) == 1,
            "king": totals[king],
            "you": totals[1 - king],
            "turns": state.turn_number,
            "devoured": state.outcome.reason == "devoured",
            "cpu": time.process_time() - start,
            "king_parts": _parts(scores[king]),
            "your_parts": _parts(scores[1 - king]),
            "king_printed": _printed_dreams(state),
        }
    if kind == "duel":  # seat ``new`` plays the planner with ``budget``, the other the previous one
        new = opts["new"]
        settings = {new: {"budget": opts["budget"]}, 1 - new: PREVIOUS_PLANNER}
        config = make_config(players=2, seed=seed)
        state = _finished(config, lambda seat, s: PlannerBot(s, **settings[seat]), "planner")
        winners = state.outcome.winners
        return {
            "new_won": 1.0 if winners == (new,) else 0.5 if new in winners else 0.0,
            "cpu": time.process_time() - start,
        }
    if kind == "planners":
        config = make_config(players=2, seed=seed)
        chosen = PREVIOUS_PLANNER if opts.get("previous") else {"budget": opts.get("budget", BUDGET)}
        state = _finished(config, lambda seat, s: PlannerBot(s, **chosen), "planner")
        scores = sorted(state.outcome.scores, key=lambda s: s.total, reverse=True)
        return {
            "winner": scores[0].total,
            "spread": scores[0].total - scores[-1].total,
            "turns": state.turn_number,
            "devoured": state.outcome.reason == "devoured",
            "cpu": time.process_time() - start,
            "winner_parts": _parts(scores[0]),
        }
    config = make_config(players=opts["players"], seed=seed, **opts.get("config", {}))
    state = _finished(config, bots_of_kind(kind), kind)
    totals = sorted((s.total for s in state.outcome.scores), reverse=True)
    return {
        "devoured": state.outcome.reason == "devoured",
        "turns": state.turn_number,
        "winner": totals[0],
        "spread": totals[0] - totals[-1],
        "pieces": len(state.cathedral_built),
    }


PARTS = ("dreams", "ritual", "forts", "devoured", "upgrades")


def _parts(score: Any) -> dict[str, int]:
    return {p: getattr(score, p) for p in PARTS}


def _printed_dreams(state: Any) -> int:
    """The printed VP of the King's completed Dreams (its Dream VP less its suit sets)."""
    from nctui.games.nightmare_cathedral.content.loader import get_pack

    vp = {d.id: d.vp for d in get_pack(state.pack).cards.dreams}
    return sum(vp[c] for c in state.king.completed) if state.king is not None else 0


def run_all(tasks: list[Task], jobs: int) -> list[dict[str, Any]]:
    """Every task on the pool, the results in the tasks' order; a progress line on a terminal.
    The games of more than one player (about twice as long as a solo game) go first, so that no
    core waits at the end for the last long game of another (each game depends on its seed
    alone: the order changes no result)."""
    order = sorted(range(len(tasks)), key=lambda k: tasks[k][0] == "solo")
    out: list[dict[str, Any] | None] = [None] * len(tasks)
    tty = sys.stderr.isatty()
    start = time.monotonic()
    with Pool(jobs) as pool:
        for i, (k, r) in enumerate(zip(order, pool.imap(run_task, [tasks[k] for k in order], chunksize=1)), 1):
            out[k] = r
            if tty:
                sys.stderr.write(f"\r{i}/{len(tasks)} games, {time.monotonic() - start:.0f} s ")
    if tty:
        sys.stderr.write("\n")
    return [r for r in out if r is not None]


def _groups(tasks: list[Task], results: list[dict[str, Any]], key: Callable[[Task], str]) -> dict[str, list]:
    groups: dict[str, list] = {}
    for t, r in zip(tasks, results):
        groups.setdefault(key(t), []).append(r)
    return groups


LEVELS = ("easy", "normal", "hard")
ROWS = (*LEVELS, "2p")


def planner_study(games: int, seed: int, jobs: int, budget: int, rows: tuple[str, ...] = ROWS) -> dict[str, Any]:
    """The rows asked for (``ROWS``: the solo levels, 2-player games between planners)."""
    levels = [r for r in LEVELS if r in rows]
    tasks: list[Task] = [
        ("solo", {"level": level, "budget": budget}, game_seed(seed, i)) for level in levels for i in range(games)
    ]
    if "2p" in rows:
        tasks += [("planners", {"budget": budget}, game_seed(seed, i)) for i in range(games)]
    results = run_all(tasks, jobs)
    groups = _groups(tasks, results, lambda t: t[1].get("level", "2 players"))
    table: dict[str, Any] = {}
    for level in levels:
        rs = groups[level]
        table[level] = {
            "games": len(rs),
            "king_wins": 100 * mean(r["king_won"] for r in rs),
            "king_vp": mean(r["king"] for r in rs),
            "your_vp": mean(r["you"] for r in rs),
            "devoured": 100 * mean(r["devoured"] for r in rs),
            "turns": mean(r["turns"] for r in rs),
            "cpu": mean(r["cpu"] for r in rs),
            "king_parts": {p: mean(r["king_parts"][p] for r in rs) for p in PARTS},
            "your_parts": {p: mean(r["your_parts"][p] for r in rs) for p in PARTS},
            "king_printed": mean(r["king_printed"] for r in rs),
        }
    rs = groups.get("2 players", [])
    table["2 players"] = (
        {}
        if not rs
        else {
            "games": len(rs),
            "winner_vp": mean(r["winner"] for r in rs),
            "winner_vp_sd": pstdev([r["winner"] for r in rs]),
            "in_30_45": 100 * mean(30 <= r["winner"] <= 45 for r in rs),
            "spread": mean(r["spread"] for r in rs),
            "devoured": 100 * mean(r["devoured"] for r in rs),
            "turns": mean(r["turns"] for r in rs),
            "cpu": mean(r["cpu"] for r in rs),
            "winner_parts": {p: mean(r["winner_parts"][p] for r in rs) for p in PARTS},
        }
    )
    return {"study": "planner", "games": games, "seed": seed, "budget": budget, "table": table}


def print_planner(res: dict[str, Any]) -> None:
    print(f"{res['games']} games per row, seed {res['seed']}, planner budget {res['budget']}\n")
    levels = [r for r in LEVELS if r in res["table"]]
    print("| level | King wins | King's VP | your VP | ended by devouring | turns | CPU s/game |")
    print("|---|---|---|---|---|---|---|")
    for level in levels:
        r = res["table"][level]
        print(
            f"| {level} | {r['king_wins']:.0f}% | {r['king_vp']:.1f} | {r['your_vp']:.1f} | {r['devoured']:.0f}% "
            f"| {r['turns']:.1f} | {r['cpu']:.2f} |"
        )
    print("\nMean VP a game (Dreams: printed + the King's suit sets):\n")
    print(
        "| level | King: Dreams | ritual | Forts | devoured | hand | you: Dreams | ritual | Forts | devoured "
        "| Upgrades |\n|---|---|---|---|---|---|---|---|---|---|---|"
    )
    for level in levels:
        r = res["table"][level]
        k, y = r["king_parts"], r["your_parts"]
        dreams = f"{k['dreams']:.1f} ({r['king_printed']:.1f} + {k['dreams'] - r['king_printed']:.1f})"
        print(
            f"| {level} | {dreams} | "
            + " | ".join(f"{k[p]:.1f}" for p in PARTS[1:])
            + " | "
            + " | ".join(f"{y[p]:.1f}" for p in PARTS)
            + " |"
        )
    r = res["table"]["2 players"]
    if not r:
        return
    print(
        "\n| 2 players, planners | winner's VP | in 30-45 | winner - last | ended by devouring | turns "
        "| CPU s/game |\n|---|---|---|---|---|---|---|"
    )
    print(
        f"| Standard, random pairs | {r['winner_vp']:.1f} ± {r['winner_vp_sd']:.1f} | {r['in_30_45']:.0f}% "
        f"| {r['spread']:.1f} | {r['devoured']:.0f}% | {r['turns']:.1f} | {r['cpu']:.2f} |"
    )
    w = r["winner_parts"]
    print("\nThe 2-player winner's mean VP: " + ", ".join(f"{p} {w[p]:.1f}" for p in PARTS))


def duel(games: int, seed: int, jobs: int, budget: int) -> dict[str, Any]:
    tasks: list[Task] = [("duel", {"new": i % 2, "budget": budget}, game_seed(seed, i // 2)) for i in range(games)]
    base: list[Task] = [
        ("planners", {"budget": budget, "previous": previous}, game_seed(seed, i))
        for previous in (False, True)
        for i in range(min(games, 6))
    ]
    results = run_all(tasks + base, jobs)
    won = [r["new_won"] for r in results[:games]]
    p = mean(won)
    cpu = _groups(base, results[games:], lambda t: "previous" if t[1]["previous"] else "new")
    return {
        "study": "duel",
        "games": games,
        "seed": seed,
        "budget": budget,
        "previous": PREVIOUS_PLANNER,
        "win_rate": 100 * p,
        "stderr": 100 * (p * (1 - p) / len(won)) ** 0.5,
        "cpu_per_game": {k: mean(r["cpu"] for r in v) for k, v in cpu.items()},
    }


def print_duel(res: dict[str, Any]) -> None:
    previous = ", ".join(f"{k} {v}" for k, v in res["previous"].items())
    print(
        f"{res['games']} 2-player games (seats alternated, seed {res['seed']}): the planner (budget "
        f"{res['budget']}) against the previous one ({previous})\n"
    )
    print(f"win rate {res['win_rate']:.1f}% ± {res['stderr']:.1f} (a tie counts half)")
    for who, s in res["cpu_per_game"].items():
        print(f"{who} planner: {s:.2f} CPU s per game between two such planners")


HEAD = "| {} | ended by devouring | turns | winner's VP | winner - last | Cathedral pieces |\n|---|---|---|---|---|---|"


def pair_study(games: int, seed: int, jobs: int, bots: str) -> list[tuple[str, list[tuple[str, dict]]]]:
    """The tables per Nightmare pair and player count, and per mode."""
    sections: list[tuple[str, list[tuple[str, dict[str, Any]]]]] = []
    for players in (2, 3, 4):
        rows = [(f"{name} ({pair[0]} & {pair[1]})", {"nightmares": pair}) for name, pair in SUGGESTED_PAIRS.items()]
        rows.append(("random pairs", {}))
        sections.append(
            (
                f"{players} players, Standard Game|Nightmares",
                [(label, {"players": players, "config": cfg}) for label, cfg in rows],
            )
        )
    modes = (
        ("Variable Length", {"length": "variable"}),
        ("Standard + Divergent Paths", {"divergent_paths": True}),
        ("Variable + Divergent Paths", {"length": "variable", "divergent_paths": True}),
    )
    sections.append(
        (
            "Modes (random pairs)|players, mode",
            [(f"{p}, {label}", {"players": p, "config": cfg}) for p in (2, 3, 4) for label, cfg in modes],
        )
    )
    tasks = [(bots, opts, game_seed(seed, i)) for _, rows_ in sections for _, opts in rows_ for i in range(games)]
    results = iter(run_all(tasks, jobs))
    return [
        (title, [(label, _summary([next(results) for _ in range(games)])) for label, _ in rows_])
        for title, rows_ in sections
    ]


def _summary(rs: Iterable[dict[str, Any]]) -> dict[str, float]:
    rs = list(rs)
    return {
        "devoured": 100 * mean(r["devoured"] for r in rs),
        "turns": mean(r["turns"] for r in rs),
        "turns_sd": pstdev([r["turns"] for r in rs]),
        "winner": mean(r["winner"] for r in rs),
        "spread": mean(r["spread"] for r in rs),
        "pieces": mean(r["pieces"] for r in rs),
    }


def row(label: str, r: dict[str, float]) -> str:
    return (
        f"| {label} | {r['devoured']:.0f}% | {r['turns']:.1f} ± {r['turns_sd']:.1f} | {r['winner']:.1f} "
        f"| {r['spread']:.1f} | {r['pieces']:.1f} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--planner", action="store_true", help="the King vs the planner, and planner games")
    ap.add_argument("--duel", action="store_true", help="the planner against the previous planner")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--budget", type=int, default=BUDGET, help="the planner's engine steps per decision")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--rows", default=",".join(ROWS), help="--planner: which rows (easy,normal,hard,2p)")
    args = ap.parse_args()
    if args.planner or args.duel:
        rows = tuple(r for r in args.rows.split(",") if r)
        if args.planner and (not rows or set(rows) - set(ROWS)):
            raise SystemExit(f"--rows: choose among {','.join(ROWS)}")
        res = (
            planner_study(args.games, args.seed, args.jobs, args.budget, rows)
            if args.planner
            else duel(args.games, args.seed, args.jobs, args.budget)
        )
        if args.json:
            print(json.dumps(res, indent=1))
        else:
            (print_planner if args.planner else print_duel)(res)
        return
    sections = pair_study(args.games, args.seed, args.jobs, args.bots)
    if args.json:
        print(
            json.dumps(
                {
                    "study": "pairs",
                    "games": args.games,
                    "seed": args.seed,
                    "bots": args.bots,
                    "sections": {t.split("|")[0]: dict(rows) for t, rows in sections},
                },
                indent=1,
            )
        )
        return
    print(f"{args.games} games per row, {args.bots} bots, seed {args.seed}\n")
    for title, table in sections:
        name, first = title.split("|")
        print(f"### {name}\n")
        print(HEAD.format(first))
        for label, r in table:
            print(row(label, r))
        print()


if __name__ == "__main__":
    main()
