"""Headless games between computer players, for testing the engine and measuring it.

Every seat is played by a bot that sees only ``player_view(state, seat)``. After every step
the engine's invariants are checked; an exception or a broken invariant ends that game as an
error, recorded with the command line that replays it alone.

Seeds. Game ``i`` of a run with seed ``S`` uses the game seed ``(S + i) mod 2**64``; the bot of
seat ``k`` in a game with seed ``g`` is seeded with ``bot_seed(g, k) = g * 16 + k``. A game's
whole course therefore depends only on its game seed and its configuration, so game ``i`` is
replayed alone by ``nctui simulate --games 1 --seed S+i`` (with the same other options).
"""

from __future__ import annotations

import shlex
import time
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Literal, Protocol

import msgspec

from .bots import BOTS, RandomBot, bot_seed
from .engine import GameConfig, GameState, new_game, player_view, step
from .engine.actions import Action
from .engine.config import SeatKind, check_config
from .engine.invariants import violations
from .engine.views import View

SEED_SPACE = 2**64
MAX_DECISIONS = 100_000  # a game still running after this many decisions is reported as an error


class Bot(Protocol):
    def choose(self, view: View) -> Action: ...


BotFactory = Callable[[int, int], Bot]  # (seat, seed) -> bot


def random_bots(seat: int, seed: int) -> Bot:
    return RandomBot(seed)


def bots_of_kind(kind: str) -> BotFactory:
    """Every seat played by a bot of this kind (nctui.games.nightmare_cathedral.bots.BOTS: "random", "greedy")."""
    bot_type = BOTS[kind]
    return lambda seat, seed: bot_type(seed)


class Stats(msgspec.Struct, frozen=True, kw_only=True):
    """Mean, minimum and maximum of some totals (None when there are none)."""

    count: int = 0
    mean: float | None = None
    min: int | None = None
    max: int | None = None

    @classmethod
    def of(cls, values: list[int]) -> Stats:
        if not values:
            return cls()
        return cls(count=len(values), mean=round(sum(values) / len(values), 3), min=min(values), max=max(values))


class Failure(msgspec.Struct, frozen=True, kw_only=True):
    """One game that raised an exception or broke an invariant, and how to replay it."""

    game: int  # index in the run
    seed: int  # the game seed
    decisions: int  # decisions applied before the failure
    error: str  # one line
    details: str  # traceback or the list of broken invariants
    command: str  # the command line that replays this game alone
    config: str  # the GameConfig as JSON


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    games_asked: int
    games_completed: int  # games that reached their end without any error
    errors: int  # games that failed
    decisions: int  # decisions applied in all games
    turns: int  # turns begun in all games
    seconds: float
    players: int
    seed: int
    length: str
    divergent_paths: bool
    nightmares: tuple[int, ...]  # the pair asked for; empty: each game revealed its own at random
    nightmare_pairs: dict[str, int]  # how many games were played with each pair ("3&7")
    pack: str
    bots: str  # the kind of bot at every seat
    difficulty: tuple[str, ...]  # solo modifiers
    king_wins: int  # solo: games the King won
    winner_scores: Stats  # the winners' totals (every winner of a shared victory counts)
    all_scores: Stats  # every seat's total in completed games
    end_reasons: dict[str, int]
    shared_victories: int
    failures: tuple[Failure, ...] = ()


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    state: GameState | None  # the last state reached (None when setup failed)
    decisions: int
    failure: Failure | None = None


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed``."""
    return (seed + index) % SEED_SPACE


def make_config(
    *,
    players: int,
    seed: int,
    length: Literal["standard", "variable"] = "standard",
    divergent_paths: bool = False,
    nightmares: tuple[int, ...] = (),
    pack: str = "base",
    difficulty: tuple[str, ...] = (),
) -> GameConfig:
    """The configuration of a simulated game: a bot on every seat (solo: the bot, then the King).
    Without ``nightmares`` each game reveals its own pair at random (from its seed)."""
    seats: tuple[SeatKind, ...] = ("bot", "king") if players == 1 else tuple("bot" for _ in range(players))
    return GameConfig(
        players=players,
        seats=seats,
        length=length,
        divergent_paths=divergent_paths,
        nightmares=tuple(nightmares),
        pack=pack,
        seed=seed,
        difficulty=tuple(difficulty),
    )


def config_problems(config: GameConfig) -> list[str]:
    """What stops a simulation with this configuration from starting, in words."""
    problems = check_config(config)
    if problems:
        return problems
    try:
        new_game(config)
    except ValueError as exc:  # configuration refused by setup (also ContentError: a bad pack)
        return [str(exc)]
    return []


def replay_command(config: GameConfig, bot_kind: str = "random") -> str:
    """The command line that plays exactly this game alone."""
    args = ["nctui", "simulate", "--players", str(config.players), "--games", "1", "--seed", str(config.seed)]
    if bot_kind != "random":
        args += ["--bots", bot_kind]
    if config.length != "standard":
        args += ["--length", config.length]
    if config.divergent_paths:
        args.append("--divergent-paths")
    if config.nightmares:
        args += ["--nightmares", ",".join(str(n) for n in config.nightmares)]
    if config.pack != "base":
        args += ["--pack", config.pack]
    if config.players == 1:
        args = args[:2] + ["--solo"] + args[4:]  # no --players with --solo
    if config.difficulty:
        args += ["--difficulty", ",".join(config.difficulty)]
    return shlex.join(args)


def play_game(
    config: GameConfig,
    *,
    index: int = 0,
    bots: BotFactory = random_bots,
    bot_kind: str = "random",
    max_decisions: int = MAX_DECISIONS,
) -> GameResult:
    """Play one game to its end; never raises for a problem of the engine (see ``failure``)."""
    players: dict[int, Bot] = {}
    state: GameState | None = None
    decisions = 0

    def fail(error: str, details: str) -> GameResult:
        return GameResult(
            state=state,
            decisions=decisions,
            failure=Failure(
                game=index,
                seed=config.seed,
                decisions=decisions,
                error=error,
                details=details,
                command=replay_command(config, bot_kind),
                config=msgspec.json.encode(config).decode(),
            ),
        )

    try:
        state = new_game(config).state
        broken = violations(state)
        if broken:
            return fail(f"broken invariant after setup: {broken[0]}", "\n".join(broken))
        while state.decision is not None:
            if decisions >= max_decisions:
                return fail(f"the game did not end after {max_decisions} decisions", "")
            seat = state.decision.seat
            bot = players.get(seat)
            if bot is None:
                bot = players[seat] = bots(seat, bot_seed(config.seed, seat))
            action = bot.choose(player_view(state, seat))
            state = step(state, action).state
            decisions += 1
            broken = violations(state)
            if broken:
                return fail(f"broken invariant after decision {decisions}: {broken[0]}", "\n".join(broken))
    except Exception as exc:  # noqa: BLE001 - any crash of the engine or a bot is a finding
        return fail(f"{type(exc).__name__} after decision {decisions}: {exc}", traceback.format_exc())
    return GameResult(state=state, decisions=decisions)


def simulate(
    *,
    players: int,
    games: int,
    seed: int,
    length: Literal["standard", "variable"] = "standard",
    divergent_paths: bool = False,
    nightmares: tuple[int, ...] = (),
    pack: str = "base",
    bots: BotFactory | None = None,
    bot_kind: str = "random",
    difficulty: tuple[str, ...] = (),
    stop_on_error: bool = False,
    on_game: Callable[[int, GameResult], None] | None = None,
) -> Summary:
    """Play ``games`` games and summarise them. ``on_game(index, result)`` is called after each
    game (progress, reporting failures as they happen). With ``stop_on_error`` the run stops at
    the first failure."""
    started = time.perf_counter()
    completed = decisions = turns = shared = king_wins = 0
    winner_totals: list[int] = []
    all_totals: list[int] = []
    reasons: Counter[str] = Counter()
    pairs: Counter[str] = Counter()
    failures: list[Failure] = []
    for i in range(games):
        config = make_config(
            players=players,
            seed=game_seed(seed, i),
            length=length,
            difficulty=difficulty,
            divergent_paths=divergent_paths,
            nightmares=nightmares,
            pack=pack,
        )
        result = play_game(config, index=i, bots=bots or bots_of_kind(bot_kind), bot_kind=bot_kind)
        decisions += result.decisions
        if result.state is not None:
            turns += result.state.turn_number
            if result.state.nightmares:
                pairs["&".join(str(n) for n in result.state.nightmares)] += 1
        if on_game is not None:
            on_game(i, result)
        if result.failure is not None:
            failures.append(result.failure)
            if stop_on_error:
                break
            continue
        outcome = result.state.outcome if result.state is not None else None
        if outcome is None:  # cannot happen: a game without a decision is over
            continue
        completed += 1
        reasons[outcome.reason] += 1
        totals = {s.seat: s.total for s in outcome.scores}
        all_totals += totals.values()
        winner_totals += (totals[w] for w in outcome.winners)
        shared += len(outcome.winners) > 1
        king_wins += players == 1 and outcome.winners == (1,)
    return Summary(
        games_asked=games,
        games_completed=completed,
        errors=len(failures),
        decisions=decisions,
        turns=turns,
        seconds=round(time.perf_counter() - started, 3),
        players=players,
        seed=seed,
        length=length,
        divergent_paths=divergent_paths,
        nightmares=tuple(nightmares),
        nightmare_pairs=dict(sorted(pairs.items())),
        pack=pack,
        bots=bot_kind,
        difficulty=tuple(difficulty),
        king_wins=king_wins,
        winner_scores=Stats.of(winner_totals),
        all_scores=Stats.of(all_totals),
        end_reasons=dict(sorted(reasons.items())),
        shared_victories=shared,
        failures=tuple(failures),
    )


def summary_json(summary: Summary) -> str:
    """The summary as one line of JSON."""
    return msgspec.json.encode(summary).decode()


def summary_text(summary: Summary) -> str:
    """The summary for people."""

    def stats(s: Stats) -> str:
        if s.count == 0:
            return "none"
        return f"mean {s.mean:g}, min {s.min}, max {s.max} ({s.count} totals)"

    per_game = f" ({summary.decisions / summary.games_asked:.1f} per game)" if summary.games_asked else ""
    speed = f", {summary.decisions / summary.seconds:,.0f} decisions/s" if summary.seconds > 0 else ""
    reasons = ", ".join(f"{k} {v}" for k, v in summary.end_reasons.items()) or "none"
    lines = [
        f"simulate: {summary.players} players, seed {summary.seed}, {summary.length} game"
        + (", Divergent Paths" if summary.divergent_paths else "")
        + f", pack {summary.pack}, {summary.bots} bots"
        + (
            f", solo (difficulty: {', '.join(summary.difficulty) or 'normal'}; the King won {summary.king_wins})"
            if summary.players == 1
            else ""
        ),
        "nightmares: "
        + (", ".join(f"{k} ×{v}" for k, v in summary.nightmare_pairs.items()) or "none")
        + ("" if summary.nightmares else " (a random pair per game)"),
        f"games:     {summary.games_completed} of {summary.games_asked} completed, {summary.errors} errors",
        f"decisions: {summary.decisions}{per_game}",
        f"turns:     {summary.turns}",
        f"time:      {summary.seconds:.2f} s{speed}",
        f"winners:   {stats(summary.winner_scores)}; shared victories {summary.shared_victories}",
        f"all seats: {stats(summary.all_scores)}",
        f"ended by:  {reasons}",
    ]
    return "\n".join(lines)
