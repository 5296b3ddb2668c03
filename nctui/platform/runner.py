"""Whole games between computer players for any game of the registry that can be simulated
(``session.protocol.Simulated``: the companion games): every decision checked against the
game's own invariants (``check_start``), the results and the time per decision counted.
Nightmare Cathedral has its own, richer runner (``nctui.games.nightmare_cathedral.simulate``).

Game ``i`` of a run with seed ``S`` uses the seed ``S + i``, so it replays alone with
``--games 1 --seed S+i``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import msgspec

from .registry import AnyGame

MAX_DECISIONS = 10_000


class Played(msgspec.Struct, frozen=True, kw_only=True):
    seed: int
    decisions: int
    winners: tuple[int, ...] = ()
    result: str = ""
    error: str = ""
    slowest: float = 0.0  # seconds of the slowest decision


class Report(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    levels: tuple[str, ...]
    seed: int
    games: int
    errors: int
    wins: tuple[int, ...]  # by seat (a shared win counts for each winner)
    shared: int  # games won by several seats (a draw)
    mean_decisions: float
    mean_seconds_per_decision: float
    slowest_decision: float
    failures: tuple[Played, ...] = ()


def play_one(game: AnyGame, seed: int, levels: tuple[str, ...]) -> tuple[Played, float]:
    """One game from ``seed``: (what happened, seconds spent deciding)."""
    sim: Any = game
    config = sim.computer_game(seed, levels)
    state = game.new(config).state
    players = [game.bot(config, seat) for seat in range(len(levels))]
    decisions, spent, slowest = 0, 0.0, 0.0
    try:
        while (seat := game.decider(state)) is not None:
            if decisions >= MAX_DECISIONS:
                raise RuntimeError(f"still running after {MAX_DECISIONS} decisions")
            start = time.perf_counter()
            action = players[seat].choose(game.view(state, seat))
            took = time.perf_counter() - start
            spent, slowest = spent + took, max(slowest, took)
            state = game.step(state, action).state
            decisions += 1
            wrong = game.check_start(state)
            if wrong:
                raise RuntimeError(f"invariant broken: {'; '.join(wrong)}")
    except Exception as exc:  # noqa: BLE001 - a failed game is reported, the run goes on
        return Played(seed=seed, decisions=decisions, error=f"{type(exc).__name__}: {exc}", slowest=slowest), spent
    winners = sim.winners(state) or ()
    return Played(
        seed=seed, decisions=decisions, winners=winners, result=game.summary(state).result, slowest=slowest
    ), spent


def simulate(
    game: AnyGame,
    *,
    games: int,
    seed: int,
    levels: tuple[str, ...],
    on_game: Callable[[int, Played], None] | None = None,
) -> Report:
    played: list[Played] = []
    spent = 0.0
    for i in range(games):
        one, seconds = play_one(game, seed + i, levels)
        played.append(one)
        spent += seconds
        if on_game is not None:
            on_game(i, one)
    wins = [0] * len(levels)
    for p in played:
        for w in p.winners:
            wins[w] += 1
    decisions = sum(p.decisions for p in played)
    return Report(
        game=game.id,
        levels=levels,
        seed=seed,
        games=games,
        errors=sum(bool(p.error) for p in played),
        wins=tuple(wins),
        shared=sum(len(p.winners) > 1 for p in played),
        mean_decisions=round(decisions / max(games, 1), 2),
        mean_seconds_per_decision=round(spent / max(decisions, 1), 4),
        slowest_decision=round(max((p.slowest for p in played), default=0.0), 4),
        failures=tuple(p for p in played if p.error),
    )
