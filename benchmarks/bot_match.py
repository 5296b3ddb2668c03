"""A match between two computer players of a game, settings included, by the runner.

    python benchmarks/bot_match.py A B [--game ID] [--games 40] [--seed 7000] [--players 2] [--json]
    python benchmarks/bot_match.py --ladder ID [--games 200] [--seed 1000] [--jobs N]

``A`` and ``B`` are a level of the game with settings after ``@``. Nightmare Cathedral (the
default): ``expert@96`` (the budget), ``expert@96,look=12,worlds=8`` (and its other settings:
``ExpertBot``'s keywords), ``expert@96:choose_day+react+move`` (and the decisions it searches),
``planner@previous`` (``PREVIOUS_PLANNER``: the planner before issue 38's fixes), ``planner@200``
(its budget), ``planner@w=opponent:1.0+opponent_mean:0`` and ``expert@48,w=...`` (the evaluation's
weights changed: ``planner_bot.parse_weights``). Nightmarium: ``planner@6`` (its guesses at the
hidden cards), ``planner@:16`` (and its budget: playouts a decision), ``planner@:16,2`` (and the
turns each looks ahead; by default from the budget, ``horizon_for``; 0: greedy to the end of the
game), ``planner@:0`` (the plan alone).
Dreamers: ``gambler@128`` (playouts a decision; ``gambler@0``: the rule of thumb alone),
``gambler@64,horizon=0,z=2,searched=rest+roll`` (and ``GamblerBot``'s other settings:
``gambler_settings``).
Cathedral: ``strong@16000`` (its budget: placements tried a decision; how early it searches
deeper follows), ``strong@4000,deepen=0`` (the width follows instead: ``StrongBot``'s keywords),
``strong@8000,cap=0`` (its work not capped, as before 2026-12-03).
Game ``i`` is seeded ``game_seed(seed, i)`` with
the seats swapped every game (``nctui simulate --bots A,B --swap-seats`` for the plain levels).
Printed: each side's share of the wins (a shared win counts 1/k) with its Wilson 95 % interval,
the Elo difference it implies, and each side's CPU seconds per game and slowest decision, beside
issue 38's goals for the expert (at least 70 % of 200 games against the planner, more than 55 %
against half its budget, at most 15 CPU s for its side of a 2-player game and 2 CPU s a decision),
the yardstick of ``engine_speed.py`` (a fixed pure-Python loop timed in the same run) and the load
average: CPU seconds are process time, but a loaded machine still slows them a little.

``--ladder ID`` plays a companion game's ladder (``LADDERS``: each level against the next one
down, the Elo of each level from them) and its growth (``GROWTH``: the strongest level against
itself at half the budget, a doubling each), every match ``--games`` games, and prints both as
tables with the game counts.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from math import ceil
from typing import Any

sys.path.insert(0, os.path.dirname(__file__))

from engine_speed import yardstick

from nctui.games.nightmare_cathedral.bots import BOTS, bot_seed
from nctui.games.nightmare_cathedral.bots.planner_bot import PREVIOUS_PLANNER, parse_weights
from nctui.games.nightmare_cathedral.simulate import make_config
from nctui.platform import registry, runner

GAME = "nightmare-cathedral"


class Timed:
    """A computer player whose thinking is counted (CPU seconds) under its name."""

    def __init__(self, bot: Any, name: str, clock: dict[str, list[float]]) -> None:
        self.bot, self.name, self.clock = bot, name, clock

    def choose(self, view: Any) -> Any:
        start = time.process_time()
        try:
            return self.bot.choose(view)
        finally:
            took = time.process_time() - start
            spent = self.clock.setdefault(self.name, [0.0, 0.0, 0.0])
            spent[0] += took
            spent[1] = max(spent[1], took)
            spent[2] += 1


def make(game: str, spec: str, config: Any, seat: int) -> Any:
    """The computer player a spec names, seeded as the game seeds its own."""
    level, _, setting = spec.partition("@")
    if game != GAME:
        return _companion(game, level, setting, config, seat)
    seed = bot_seed(config.seed, seat)
    if level in ("expert", "planner") and setting:
        return BOTS[level](seed, **settings(level, setting))
    return BOTS[level](seed)


def settings(level: str, setting: str) -> dict[str, Any]:
    """The keywords of a Nightmare Cathedral level's settings (after ``@``): the budget first,
    then ``name=value`` settings joined by ``,``; ``w=`` the evaluation's weights changed
    (``planner_bot.parse_weights``: ``w=opponent:1.0+opponent_mean:0``; the expert's ``rw=`` the
    weights it models the other seats' replies by, ``rw=`` alone the planner's); its searched
    decisions after ``:``; ``planner@previous`` the planner before issue 38's fixes."""
    if level == "planner" and setting == "previous":
        return dict(PREVIOUS_PLANNER)
    kinds = ""
    head, _, tail = setting.rpartition(":")
    if level == "expert" and head and tail.replace("_", "").replace("+", "").isalpha():
        setting, kinds = head, tail  # the decisions searched: names, never a weight's number
    elif level == "expert" and setting.startswith(":"):
        setting, kinds = "", setting[1:]
    budget, *extra = setting.split(",")
    if "=" in budget:
        budget, extra = "", [budget, *extra]
    out: dict[str, Any] = {"budget": int(budget)} if budget else {}
    if kinds:
        out["searched"] = frozenset(kinds.split("+"))
    for item in extra:
        name, _, value = item.partition("=")
        out[name] = parse_weights(value) if name in WEIGHTS else int(value)
    return {WEIGHTS.get(name, name): value for name, value in out.items()}


WEIGHTS = {"w": "weights", "rw": "reply_weights"}  # settings read by ``parse_weights`` ("rw=": the planner's)


def gambler_settings(setting: str) -> dict[str, Any]:
    """The keywords of a Dreamers gambler's settings (after ``@``): the budget (none: 0), then
    ``horizon=1`` (turns a playout runs), ``z=1.6`` (standard errors to leave the rule of thumb),
    ``searched=rest+roll`` (the phases searched), joined by ``,``."""
    budget, *extra = setting.split(",")
    out: dict[str, Any] = {"budget": int(budget or 0)}
    for name, _, value in (item.partition("=") for item in extra):
        out[name] = frozenset(value.split("+")) if name == "searched" else float(value) if name == "z" else int(value)
    return out


def _companion(game: str, level: str, setting: str, config: Any, seat: int) -> Any:
    seed = config.seed * 7919 + seat  # as the companions seed their computer players
    if game == "nightmarium" and level == "planner" and setting:
        from nctui.games.nightmarium import bots as nightmarium

        samples, _, budget = setting.partition(":")
        budget, _, horizon = budget.partition(",")
        return nightmarium.PlannerBot(
            seed,
            samples=int(samples or 3),
            budget=int(budget or nightmarium.BUDGET),
            horizon=int(horizon) if horizon else None,  # by the budget (``horizon_for``)
        )
    if game == "dreamers" and level == "gambler" and setting:
        from nctui.games.dreamers.bots import GamblerBot

        return GamblerBot(seed, **gambler_settings(setting))
    if game == "cathedral" and level == "strong" and setting:
        from nctui.games.cathedral.bots import StrongBot

        budget, *extra = setting.split(",")
        knobs = {k: int(v) for k, _, v in (e.partition("=") for e in extra)}
        return StrongBot(seed, budget=int(budget or 8000), **knobs)  # type: ignore[arg-type]
    return registry.simulated(game).computer(config, seat, level)


def elo(rate: float) -> float:
    """The Elo difference a score rate implies (clamped away from 0 and 1)."""
    rate = min(max(rate, 1e-3), 1 - 1e-3)
    return 400 * math.log10(rate / (1 - rate))


def _part(a: str, b: str, game: str, games: int, seed: int, players: int) -> dict[str, Any]:
    """Games ``seed`` .. ``seed + games - 1`` of a match: a's seats and wins, the clocks."""
    clock: dict[str, list[float]] = {}
    specs = (a, b) + (b,) * (players - 2)
    plain = tuple(spec.partition("@")[0] for spec in specs)

    def computers(config: Any, seat: int, level: str) -> Any:
        return Timed(make(game, level, config, seat), level, clock)

    def configure(s: int) -> Any:
        if game == GAME:
            return make_config(players=players, seed=s)
        return registry.simulated(game).computer_game(s, plain)  # the levels in the config: no hidden use

    report = runner.simulate(
        game,
        games=games,
        seed=seed,
        levels=specs,
        configure=configure,
        computers=computers,
        swap_seats=True,
        on_game=lambda i, p: print(
            f"game {seed + i}: {runner.seated(specs, i, True)} winners {p.winners} "
            f"{p.failure.error if p.failure else ''}",
            file=sys.stderr,
            flush=True,
        ),
    )
    mine = report.wins.get(a)
    return {
        "seats": mine.seats if mine else 0,
        "won": mine.won if mine else 0.0,
        "completed": report.completed,
        "clock": clock,
        "failures": [f.command for f in report.failures],
    }


def match(
    a: str, b: str, *, game: str = GAME, games: int, seed: int, players: int = 2, jobs: int = 1
) -> dict[str, Any]:
    """A match of ``games`` games, game ``i`` seeded ``game_seed(seed, i)``, in ``jobs`` processes
    (each plays a run of consecutive games, an even number so that the seats still alternate)."""
    size = max(2, 2 * ceil(games / max(jobs, 1) / 2))
    starts = list(range(0, games, size))
    args = [(a, b, game, min(size, games - i), runner.game_seed(seed, i), players) for i in starts]
    if jobs > 1 and len(args) > 1:
        with ProcessPoolExecutor(min(jobs, len(args))) as pool:
            parts = list(pool.map(_part, *zip(*args, strict=True)))
    else:
        parts = [_part(*arg) for arg in args]
    seats = sum(p["seats"] for p in parts)
    won = sum(p["won"] for p in parts)
    completed = sum(p["completed"] for p in parts)
    clock: dict[str, list[float]] = {}
    for p in parts:
        for k, (spent, slowest, decisions) in p["clock"].items():
            total = clock.setdefault(k, [0.0, 0.0, 0.0])
            total[0], total[1], total[2] = total[0] + spent, max(total[1], slowest), total[2] + decisions
    rate = won / seats if seats else None
    low, high = runner.wilson(won, seats) if seats else (None, None)
    return {
        "game": game,
        "a": a,
        "b": b,
        "games": games,
        "completed": completed,
        "seed": seed,
        "players": players,
        "rate": rate,
        "low": low,
        "high": high,
        "elo": round(elo(rate), 1) if rate is not None else None,
        "cpu_per_game": {k: round(v[0] / max(completed, 1), 2) for k, v in clock.items()},
        "slowest": {k: round(v[1], 3) for k, v in clock.items()},
        "cpu_per_decision": {k: round(v[0] / max(v[2], 1), 4) for k, v in clock.items()},
        "failures": [f for p in parts for f in p["failures"]],
        "yardstick_ms": round(yardstick(), 1),
        "load_average": round(os.getloadavg()[0], 2),
    }


# each level against the next one down, weakest first; then doublings of the strongest's budget
LADDERS: dict[str, tuple[tuple[str, str], ...]] = {
    "dreamers": (("gambler", "random"),),
    "nightmarium": (("greedy", "random"), ("planner", "greedy")),
    "cathedral": (("greedy", "random"), ("strong", "greedy")),
}
GROWTH: dict[str, tuple[tuple[str, str], ...]] = {
    "dreamers": (("gambler", "gambler@0"), ("gambler", "gambler@64"), ("gambler@256", "gambler")),
    "nightmarium": (("planner", "planner@:0"), ("planner", "planner@:32"), ("planner@:32", "planner@:16")),
    "cathedral": (("strong", "strong@4000"),),  # 4,000 against 2,000: 51.0 % of 100 (docs/balance.md)
}


def row(out: dict[str, Any]) -> str:
    """A match as a row of the ladder's tables."""
    a, b = out["a"], out["b"]
    cpu, slow = out["cpu_per_game"], out["slowest"]
    return (
        f"| {a} against {b} | {out['completed']} | {100 * out['rate']:.1f} % "
        f"| {100 * out['low']:.1f}-{100 * out['high']:.1f} % | {out['elo']:+.0f} "
        f"| {cpu.get(a, 0):.2f} / {cpu.get(b, 0):.2f} | {slow.get(a, 0):.3f} / {slow.get(b, 0):.3f} |"
    )


def ladder(game: str, *, games: int, seed: int, jobs: int = 1) -> list[str]:
    """The ladder and the growth of ``game`` as markdown lines."""
    head = [
        "| match | games | first's share | 95 % interval | Elo difference | CPU s a game | slowest decision (CPU s) |",
        "|---|---|---|---|---|---|---|",
    ]
    lines = [f"{game}, {games} games a match, seed {seed}, seats swapped every game", "", *head]
    elos = [(LADDERS[game][0][1], 0.0)]
    for a, b in LADDERS[game]:
        out = match(a, b, game=game, games=games, seed=seed, jobs=jobs)
        lines.append(row(out))
        elos.append((a, elos[-1][1] + out["elo"]))
    lines += ["", "| level | Elo |", "|---|---|", *(f"| {level} | {value:.0f} |" for level, value in elos), ""]
    lines += ["Growth with the budget (each match: a budget against half of it)", "", *head]
    lines += [row(match(a, b, game=game, games=games, seed=seed, jobs=jobs)) for a, b in GROWTH[game]]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", nargs="?")
    parser.add_argument("b", nargs="?")
    parser.add_argument("--ladder", choices=sorted(LADDERS), help="play a companion game's ladder and growth")
    parser.add_argument("--game", default=GAME)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1, help="processes (each plays a run of the games)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.ladder:
        print("\n".join(ladder(args.ladder, games=args.games, seed=args.seed, jobs=args.jobs)))
        return 0
    if not (args.a and args.b):
        parser.error("name two computer players, or --ladder ID")
    out = match(args.a, args.b, game=args.game, games=args.games, seed=args.seed, players=args.players, jobs=args.jobs)
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"{out['a']} against {out['b']}: {100 * out['rate']:.1f} % of {out['completed']} games "
            f"(95 % interval {100 * out['low']:.1f}-{100 * out['high']:.1f} %, Elo {out['elo']:+.0f}); "
            f"CPU s a game {out['cpu_per_game']}, a decision {out['cpu_per_decision']}, "
            f"slowest decision {out['slowest']}"
        )
        print(
            "  goals (issue 38, the expert): >= 70 % of 200 games against the planner, > 55 % against"
            " half its budget, <= 15 CPU s a 2-player game, <= 2 CPU s a decision"
        )
        print(f"  yardstick {out['yardstick_ms']} ms, load average {out['load_average']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
