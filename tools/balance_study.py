"""Print the tables of docs/balance.md: games between bots, per Nightmare pair and player count.

    python tools/balance_study.py [--games 40] [--bots greedy]

Figures, not a verdict: rerun after changing cards, Nightmares or the bots.
"""

from __future__ import annotations

import argparse
from statistics import mean, pstdev

from nctui.engine.config import SUGGESTED_PAIRS
from nctui.simulate import bots_of_kind, game_seed, make_config, play_game


def study(players: int, games: int, seed: int, bots: str, **options) -> dict[str, float]:
    ends, turns, winners, spreads, pieces = [], [], [], [], []
    for i in range(games):
        config = make_config(players=players, seed=game_seed(seed, i), **options)
        result = play_game(config, index=i, bots=bots_of_kind(bots), bot_kind=bots)
        if result.failure is not None:
            raise SystemExit(f"game failed: {result.failure.command}\n{result.failure.details}")
        state = result.state
        totals = sorted((s.total for s in state.outcome.scores), reverse=True)
        ends.append(state.outcome.reason == "devoured")
        turns.append(state.turn_number)
        winners.append(totals[0])
        spreads.append(totals[0] - totals[-1])
        pieces.append(len(state.cathedral_built))
    return {"devoured": 100 * mean(ends), "turns": mean(turns), "turns_sd": pstdev(turns),
            "winner": mean(winners), "spread": mean(spreads), "pieces": mean(pieces)}


def row(label: str, r: dict[str, float]) -> str:
    return (f"| {label} | {r['devoured']:.0f}% | {r['turns']:.1f} ± {r['turns_sd']:.1f} | {r['winner']:.1f} "
            f"| {r['spread']:.1f} | {r['pieces']:.1f} |")


HEAD = ("| {} | ended by devouring | turns | winner's VP | winner - last | Cathedral pieces |\n"
        "|---|---|---|---|---|---|")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    print(f"{args.games} games per row, {args.bots} bots, seed {args.seed}\n")
    for players in (2, 3, 4):
        print(f"### {players} players, Standard Game\n")
        print(HEAD.format("Nightmares"))
        for name, pair in SUGGESTED_PAIRS.items():
            print(row(f"{name} ({pair[0]} & {pair[1]})", study(players, args.games, args.seed, args.bots,
                                                               nightmares=pair)))
        print(row("random pairs", study(players, args.games, args.seed, args.bots)))
        print()
    print("### Modes (random pairs)\n")
    print(HEAD.format("players, mode"))
    for players in (2, 3, 4):
        for label, options in (("Variable Length", dict(length="variable")),
                               ("Standard + Divergent Paths", dict(divergent_paths=True)),
                               ("Variable + Divergent Paths", dict(length="variable", divergent_paths=True))):
            print(row(f"{players}, {label}", study(players, args.games, args.seed, args.bots, **options)))


if __name__ == "__main__":
    main()
