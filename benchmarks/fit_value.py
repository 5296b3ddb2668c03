"""Fit Nightmare Cathedral's 2-player win chance (``bots/fitted_value.py``) to game outcomes.

    python benchmarks/fit_value.py generate --games 1000 --seed 130000 --jobs 2 --out positions.jsonl
    python benchmarks/fit_value.py fit positions.jsonl [--holdout 0.2]

``generate`` plays planner-against-planner 2-player games (game ``i`` seeded
``runner.game_seed(seed, i)``, each seat's planner seeded as the matches seed it) and writes, at
the first decision of every turn, both seats' parts (``fitted_value.components``), the turns left,
``g``, who is to play, the planner's ``evaluate`` for each seat and who won (a line per position,
JSON). ``fit`` reads them, holds out the last ``--holdout`` share of the games (whole games: a
game's positions are alike), fits a logistic regression of the
win on ``fitted_value.features_of`` (iteratively reweighted least squares, a small ridge, pure
Python), and prints the coefficients (``COEF``) and the held-out log-loss and accuracy beside
the yardstick: a logistic of the planner's ``evaluate`` difference (its one scale fitted on the
same training games).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

sys.path.insert(0, os.path.dirname(__file__))

from nctui.games.nightmare_cathedral.bots import PlannerBot, bot_seed, fitted_value as fv
from nctui.games.nightmare_cathedral.bots.planner_bot import W, board_facts, evaluate, fast_scores, remaining_turns
from nctui.games.nightmare_cathedral.simulate import make_config
from nctui.platform import registry, runner

GAME = "nightmare-cathedral"
MAX_DECISIONS = 20000


def positions(seed: int) -> list[dict[str, Any]]:
    """A planner game's positions at the start of every turn, labelled by who won (none: it failed)."""
    game = registry.game(GAME)
    config = make_config(players=2, seed=seed)
    bots = {seat: PlannerBot(bot_seed(config.seed, seat)) for seat in (0, 1)}
    state = game.new(config).state
    rows: list[dict[str, Any]] = []
    turn, decisions = -1, 0
    while (seat := game.decider(state)) is not None and decisions < MAX_DECISIONS:
        if state.turn_number != turn and state.phase != "setup":
            turn = state.turn_number
            facts = board_facts(state)
            scores = fast_scores(state, facts)
            my_turns = remaining_turns(state) / 2
            g = min(1.0, my_turns / W.horizon)
            rows.append(
                {
                    "turn": turn,
                    "active": state.active,
                    "turns": my_turns,
                    "g": g,
                    "parts": [list(fv.components(state, s, g, my_turns, facts, scores)) for s in (0, 1)],
                    "evaluate": [evaluate(state, s) for s in (0, 1)],
                }
            )
        state = game.step(state, bots[seat].choose(game.view(state, seat))).state
        decisions += 1
    if state.outcome is None:
        return []
    winners = state.outcome.winners
    for r in rows:
        r["won"] = [1.0 / len(winners) if s in winners else 0.0 for s in (0, 1)]
    return rows


def _generate(seeds: list[tuple[int, int]]) -> list[str]:
    out = []
    for index, seed in seeds:
        for r in positions(seed):
            r["game"] = index
            out.append(json.dumps(r))
        print(f"game {index} (seed {seed}) done", file=sys.stderr, flush=True)
    return out


def generate(games: int, seed: int, jobs: int, out: str) -> None:
    seeds = [(i, runner.game_seed(seed, i)) for i in range(games)]
    chunks = [seeds[k::jobs] for k in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool, open(out, "w") as fh:
        for lines in pool.map(_generate, chunks):
            fh.writelines(line + "\n" for line in lines)


# -- the fit ---------------------------------------------------------------------------------------


def samples(rows: list[dict[str, Any]]) -> list[tuple[int, list[float], float, float, float, float, float]]:
    """(game, features, label, evaluate difference, g, the seat's evaluate, tempo) for each position and each seat."""
    out = []
    for r in rows:
        for s in (0, 1):
            mine, theirs = r["parts"][s], r["parts"][1 - s]
            x = fv.features_of(tuple(mine), tuple(theirs), r["g"], r["turns"], 1.0 if r["active"] == s else -1.0)
            ev = r["evaluate"]
            out.append((r["game"], x, r["won"][s], ev[s] - ev[1 - s], r["g"], ev[s], x[0]))
    return out


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        p = m[col][col]
        for r in range(col + 1, n):
            f = m[r][col] / p
            if f:
                row, top = m[r], m[col]
                for c in range(col, n + 1):
                    row[c] -= f * top[c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def irls(xs: list[list[float]], ys: list[float], ridge: float = 1e-3, rounds: int = 12) -> list[float]:
    """Logistic regression without intercept by Newton's method (a small ridge keeps it solvable)."""
    p = len(xs[0])
    beta = [0.0] * p
    for _ in range(rounds):
        h = [[0.0] * p for _ in range(p)]
        grad = [0.0] * p
        for x, y in zip(xs, ys, strict=True):
            q = fv.logistic(sum(b * v for b, v in zip(beta, x, strict=True)))
            w, e = q * (1 - q), y - q
            for i in range(p):
                xi = x[i]
                if xi:
                    grad[i] += e * xi
                    wx = w * xi
                    hi = h[i]
                    for j in range(i, p):
                        hi[j] += wx * x[j]
        for i in range(p):
            grad[i] -= ridge * beta[i] * len(xs)
            h[i][i] += ridge * len(xs)
            for j in range(i):
                h[i][j] = h[j][i]
        step = solve(h, grad)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return beta


def scored(probabilities: list[float], ys: list[float]) -> tuple[float, float]:
    """(log-loss, accuracy) of the chances against the outcomes (a shared win: neither)."""
    loss = -sum(
        y * math.log(max(q, 1e-12)) + (1 - y) * math.log(max(1 - q, 1e-12))
        for q, y in zip(probabilities, ys, strict=True)
    ) / len(ys)
    decided = [(q, y) for q, y in zip(probabilities, ys, strict=True) if y in (0.0, 1.0) and q != 0.5]
    right = sum(1 for q, y in decided if (q > 0.5) == (y == 1.0))
    return loss, right / max(1, len(decided))


def fit(path: str, holdout: float) -> None:
    with open(path) as fh:
        rows = [json.loads(line) for line in fh]
    data = samples(rows)
    games = len({d[0] for d in data})
    cut = math.ceil(games * (1 - holdout))  # the games' indices from ``cut`` on are held out
    test = [d for d in data if d[0] >= cut]
    train = [d for d in data if d[0] < cut]
    print(f"{len(rows)} positions of {games} games: {len(train)} training samples, {len(test)} held out")
    beta = irls([d[1] for d in train], [d[2] for d in train])
    scale = irls([[d[3]] for d in train], [d[2] for d in train])[0]
    own = irls([[d[5], d[6]] for d in train], [d[2] for d in train])
    ys = [d[2] for d in test]
    alone = scored([fv.logistic(own[0] * d[5] + own[1] * d[6]) for d in test], ys)
    fitted = scored([fv.logistic(sum(b * v for b, v in zip(beta, d[1], strict=True))) for d in test], ys)
    yard = scored([fv.logistic(scale * d[3]) for d in test], ys)
    print(f"held out, fitted:   log-loss {fitted[0]:.4f}, accuracy {fitted[1]:.3f}")
    print(
        f"held out, evaluate: log-loss {yard[0]:.4f}, accuracy {yard[1]:.3f}"
        f" (logistic of the difference, scale {scale:.4f})"
    )
    print(
        f"held out, evaluate of the seat alone (as the expert's leaves): log-loss {alone[0]:.4f},"
        f" accuracy {alone[1]:.3f} (scale {own[0]:.4f}, tempo {own[1]:.4f})"
    )
    print(f"held out, a coin:   log-loss {math.log(2):.4f}")
    for label, keep in (("early (g = 1)", lambda d: d[4] >= 1.0), ("late (g < 1)", lambda d: d[4] < 1.0)):
        part = [d for d in test if keep(d)]
        if part:
            ys = [d[2] for d in part]
            fa = scored([fv.logistic(sum(b * v for b, v in zip(beta, d[1], strict=True))) for d in part], ys)
            ea = scored([fv.logistic(scale * d[3]) for d in part], ys)
            print(
                f"  {label}: {len(part)} samples, fitted {fa[0]:.4f} / {fa[1]:.3f}, evaluate {ea[0]:.4f} / {ea[1]:.3f}"
            )
    print("COEF: tuple[float, ...] = (")
    for name, b in zip(fv.NAMES, beta, strict=True):
        print(f"    {b:.5f},  # {name}")
    print(")")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--games", type=int, default=1000)
    g.add_argument("--seed", type=int, default=130000)
    g.add_argument("--jobs", type=int, default=1)
    g.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("path")
    f.add_argument("--holdout", type=float, default=0.2)
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.games, args.seed, args.jobs, args.out)
    else:
        fit(args.path, args.holdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
