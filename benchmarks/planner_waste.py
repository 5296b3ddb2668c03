"""How often a Nightmare Cathedral computer player wastes its turn (issue 38): the Day Action
ignored (drawing 2 instead), above all with a full hand; a Dissent that changes nothing of its
own (a Pass would do); Movement Points left unspent.

    python benchmarks/planner_waste.py [--games 20] [--seed 12] [--players 2] [--level planner] [--previous] [--json]

Game ``i`` is seeded ``game_seed(seed, i)`` with the level on every seat (as ``nctui simulate
--bots LEVEL``; ``--previous``: the planner before issue 38's fixes, ``PREVIOUS_PLANNER``).
Printed: per active turn, the share ignored (and of those, with 8+ Development cards in hand);
per Dissent, the share that changed neither the seat's own state nor the board; the MP left when
a Maneuver ended, per Maneuver.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from nctui.games.nightmare_cathedral.bots import bot_seed
from nctui.games.nightmare_cathedral.bots.planner_bot import PREVIOUS_PLANNER, PlannerBot
from nctui.games.nightmare_cathedral.engine import actions as A
from nctui.games.nightmare_cathedral.engine.state import GameState
from nctui.games.nightmare_cathedral.engine.work import MoveWork
from nctui.games.nightmare_cathedral.simulate import make_config
from nctui.platform import registry
from nctui.platform.runner import game_seed

GAME = "nightmare-cathedral"


def _own(state: GameState, seat: int) -> tuple[Any, ...]:
    """What a reaction can change for its seat: its player state and the board."""
    return state.players[seat], state.areas, state.decks


def one_game(seed: int, players: int, level: str, previous: bool = False) -> dict[str, float]:
    game, sim = registry.game(GAME), registry.simulated(GAME)
    config = make_config(players=players, seed=seed)
    bots: dict[int, Any] = {
        s: PlannerBot(bot_seed(seed, s), **PREVIOUS_PLANNER) if previous else sim.computer(config, s, level)
        for s in range(players)
    }
    state = game.new(config).state
    out = dict.fromkeys(
        ("turns", "ignored", "ignored_full", "full", "dissents", "empty_dissents", "maneuvers", "mp_left", "cpu"), 0.0
    )
    open_dissent: tuple[int, tuple[Any, ...]] | None = None  # (seat, what it had) until its effect ends
    cpu = 0.0
    while (seat := game.decider(state)) is not None:
        d = state.decision
        assert d is not None
        if open_dissent is not None and (seat != open_dissent[0] or d.kind in ("react", "choose_day")):
            s, had = open_dissent
            out["empty_dissents"] += _own(state, s) == had
            open_dissent = None
        start = time.process_time()
        action = bots[seat].choose(game.view(state, seat))
        cpu += time.process_time() - start
        if isinstance(action, A.ChooseDay):
            full = len(state.players[seat].hand) >= 8
            out["turns"] += 1
            out["full"] += full
            out["ignored"] += action.ignore
            out["ignored_full"] += action.ignore and full
        elif isinstance(action, A.React) and action.kind == "dissent":
            out["dissents"] += 1
            open_dissent = (seat, _own(state, seat))
        work = state.work
        if isinstance(work, MoveWork) and isinstance(action, A.Done) and not work.shaper_only:
            out["mp_left"] += work.mp
        before = state
        state = game.step(state, action).state
        if isinstance(before.work, MoveWork) and not isinstance(state.work, MoveWork):
            out["maneuvers"] += 1
    out["cpu"] = cpu
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--level", default="planner")
    parser.add_argument("--previous", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    total: dict[str, float] = {}
    for i in range(args.games):
        for k, v in one_game(game_seed(args.seed, i), args.players, args.level, args.previous).items():
            total[k] = total.get(k, 0.0) + v
    t = total
    figures = {
        "games": args.games,
        "level": "planner (previous)" if args.previous else args.level,
        "players": args.players,
        "ignored_per_turn": round(t["ignored"] / max(t["turns"], 1), 3),
        "ignored_with_8_cards_per_turn_with_8": round(t["ignored_full"] / max(t["full"], 1), 3),
        "empty_dissents_per_dissent": round(t["empty_dissents"] / max(t["dissents"], 1), 3),
        "dissents_per_game": round(t["dissents"] / args.games, 1),
        "mp_left_per_maneuver": round(t["mp_left"] / max(t["maneuvers"], 1), 2),
        "cpu_s_per_game": round(t["cpu"] / args.games, 2),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k:40} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
