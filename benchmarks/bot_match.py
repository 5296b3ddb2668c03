"""A match between two computer players of a game, settings included, by the runner.

    python benchmarks/bot_match.py A B [--game ID] [--games 40] [--seed 7000] [--players 2] [--json]

``A`` and ``B`` are a level of the game with settings after ``@``. Nightmare Cathedral (the
default): ``expert@96`` (the budget), ``expert@96:choose_day+react+move`` (and the decisions it
searches), ``planner@previous`` (``PREVIOUS_PLANNER``: the planner before issue 38's fixes),
``planner@200`` (its budget). Nightmarium: ``planner@6`` (its guesses at the hidden cards).
Cathedral: ``strong@12`` (its search's width). Game ``i`` is seeded ``game_seed(seed, i)`` with
the seats swapped every game (``nctui simulate --bots A,B --swap-seats`` for the plain levels).
Printed: each side's share of the wins (a shared win counts 1/k) with its Wilson 95 % interval,
the Elo difference it implies, and each side's CPU seconds per game and slowest decision.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from nctui.games.nightmare_cathedral.bots import BOTS, bot_seed
from nctui.games.nightmare_cathedral.bots.expert_bot import BUDGET, SEARCHED, ExpertBot
from nctui.games.nightmare_cathedral.bots.planner_bot import PREVIOUS_PLANNER, PlannerBot
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
            spent = self.clock.setdefault(self.name, [0.0, 0.0])
            spent[0] += took
            spent[1] = max(spent[1], took)


def make(game: str, spec: str, config: Any, seat: int) -> Any:
    """The computer player a spec names, seeded as the game seeds its own."""
    level, _, setting = spec.partition("@")
    if game != GAME:
        return _companion(game, level, setting, config, seat)
    seed = bot_seed(config.seed, seat)
    if level == "expert":
        budget, _, kinds = setting.partition(":")
        searched = frozenset(kinds.split("+")) if kinds else SEARCHED
        return ExpertBot(seed, budget=int(budget or BUDGET), searched=searched)
    if level == "planner" and setting:
        return PlannerBot(seed, **PREVIOUS_PLANNER) if setting == "previous" else PlannerBot(seed, budget=int(setting))
    return BOTS[level](seed)


def _companion(game: str, level: str, setting: str, config: Any, seat: int) -> Any:
    seed = config.seed * 7919 + seat  # as the companions seed their computer players
    if game == "nightmarium" and level == "planner" and setting:
        from nctui.games.nightmarium.bots import PlannerBot as NightmariumPlanner

        return NightmariumPlanner(seed, samples=int(setting))
    if game == "cathedral" and level == "strong" and setting:
        from nctui.games.cathedral.bots import StrongBot

        return StrongBot(seed, width=int(setting))
    return registry.simulated(game).computer(config, seat, level)


def elo(rate: float) -> float:
    """The Elo difference a score rate implies (clamped away from 0 and 1)."""
    rate = min(max(rate, 1e-3), 1 - 1e-3)
    return 400 * math.log10(rate / (1 - rate))


def match(a: str, b: str, *, game: str = GAME, games: int, seed: int, players: int = 2) -> dict[str, Any]:
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
            f"game {i}: {runner.seated(specs, i, True)} winners {p.winners} {p.failure.error if p.failure else ''}",
            file=sys.stderr,
            flush=True,
        ),
    )
    wins = report.wins
    return {
        "game": game,
        "a": a,
        "b": b,
        "games": games,
        "completed": report.completed,
        "seed": seed,
        "players": players,
        "rate": wins[a].rate if a in wins else None,
        "low": wins[a].low if a in wins else None,
        "high": wins[a].high if a in wins else None,
        "elo": round(elo(wins[a].rate), 1) if a in wins else None,
        "cpu_per_game": {k: round(v[0] / max(report.completed, 1), 2) for k, v in clock.items()},
        "slowest": {k: round(v[1], 3) for k, v in clock.items()},
        "failures": [f.command for f in report.failures],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--game", default=GAME)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = match(args.a, args.b, game=args.game, games=args.games, seed=args.seed, players=args.players)
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"{out['a']} against {out['b']}: {100 * out['rate']:.1f} % of {out['completed']} games "
            f"(95 % interval {100 * out['low']:.1f}-{100 * out['high']:.1f} %, Elo {out['elo']:+.0f}); "
            f"CPU s a game {out['cpu_per_game']}, slowest decision {out['slowest']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
