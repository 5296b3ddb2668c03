"""Whole games between computer players, headless, for any game of the registry (each is
``Simulated``): ``nctui simulate --game ID``, the balance studies and the benchmarks play through
here.

Every seat the game does not play itself (the solo King is its own automaton) gets the computer
player of its level, which sees only its seat's view. The game's invariants are checked after setup
and after every decision; an exception, a broken invariant, or a game still running after
``max_decisions`` decisions ends that game as a failure, recorded with the command line that
replays it alone. The game's own figures of the run (``Simulated.figures``) ride along in the
report's ``extra`` field.

Seeds. Game ``i`` of a run with seed ``S`` has the seed ``(S + i) mod 2**64`` and nothing else
changes from one game to the next, so ``nctui simulate --games 1 --seed S+i`` (with the same
other options) replays game ``i`` alone. Each computer player is seeded by its game from the game
seed and its seat.

Matches. The report's ``wins`` gives each level's share of the games (``LevelWins``: a win
shared by ``k`` seats counts ``1/k`` to each) with its Wilson 95 % interval. With ``swap_seats``
game ``i`` seats the levels rotated by ``i`` places (two levels: they change seats every game), so
no level keeps the first player's seat; the failure's replay command names that game's order.
"""

from __future__ import annotations

import math
import shlex
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from . import registry
from .game import Bot, Figures

SEED_SPACE = 2**64
MAX_DECISIONS = 100_000  # a game still running after this many decisions never ends: a failure

Configure = Callable[[int], Any]  # a game seed -> the configuration of that game
Computers = Callable[[Any, int, str], Bot]  # (configuration, seat, level) -> the seat's computer player


class Failure(msgspec.Struct, frozen=True, kw_only=True):
    """One game that raised an exception, broke an invariant or did not end, and how to replay it."""

    game: int  # index in the run
    seed: int  # the game seed
    decisions: int  # decisions applied before the failure
    error: str  # one line
    details: str  # the traceback or every broken invariant
    command: str  # the command line that replays this game alone
    config: str  # its configuration as JSON


class Played(msgspec.Struct, frozen=True, kw_only=True):
    """One game played: its last state (None when setup failed) and how it went."""

    state: Any
    decisions: int
    winners: tuple[int, ...] = ()
    thinking: float = 0.0  # seconds the computer players spent choosing
    slowest: float = 0.0  # seconds of the slowest choice
    failure: Failure | None = None


class LevelWins(msgspec.Struct, frozen=True, kw_only=True):
    """How one level did over a run: its share of the games it sat in, with an interval."""

    seats: int  # seats it played, over every completed game (a game with two seats of it counts 2)
    won: float  # the games it won (a win shared by k seats counts 1/k to each)
    rate: float  # won / seats
    low: float  # the Wilson 95 % interval of the rate
    high: float


def wilson(won: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % at ``z`` 1.96) of a rate of ``won`` in ``n`` trials."""
    if n <= 0:
        return 0.0, 1.0
    p = won / n
    centre, spread = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def level_wins(seats: int, won: float) -> LevelWins:
    low, high = wilson(won, seats)
    return LevelWins(
        seats=seats, won=round(won, 3), rate=round(won / max(seats, 1), 4), low=round(low, 4), high=round(high, 4)
    )


def seated(levels: Sequence[str], index: int, swap_seats: bool) -> tuple[str, ...]:
    """The levels on the seats of game ``index``: rotated by ``index`` places with ``swap_seats``."""
    levels = tuple(levels)
    if not swap_seats or not levels:
        return levels
    k = index % len(levels)
    return levels[k:] + levels[:k]


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """A run of games: the same fields for every game, its own figures in ``extra``."""

    game: str
    levels: tuple[str, ...]  # the computer player of each seat the game does not play itself (game 0's order)
    seed: int
    games: int  # games asked
    completed: int  # games that reached their end without error
    errors: int  # games that failed
    wins: dict[str, LevelWins]  # by level ("automa": the seat the game plays itself)
    seat_wins: tuple[int, ...]  # by seat (a shared win counts for each winner)
    shared: int  # games won by several seats
    decisions: int  # decisions applied in every game
    mean_decisions: float  # a game
    seconds: float  # the whole run
    mean_seconds_per_decision: float  # a computer player's choice
    slowest_decision: float  # seconds
    config: Any  # the first game's configuration (the others differ only by their seed and seat order)
    swap_seats: bool = False  # game i seated the levels rotated by i places
    failures: tuple[Failure, ...] = ()
    extra: Figures | None = None  # the game's own figures (``Simulated.figures``)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed``."""
    return (seed + index) % SEED_SPACE


def replay_command(game_id: str, seed: int, levels: Sequence[str], options: Sequence[str] = ()) -> str:
    """The command line that plays the game of this seed alone (``options``: the game's own,
    the same for every game of the run)."""
    args = ["nctui", "simulate", "--game", game_id, "--games", "1", "--seed", str(seed), "--levels", ",".join(levels)]
    return shlex.join([*args, *options])


def computer_seats(game_id: str, config: Any, levels: Sequence[str]) -> tuple[int, ...]:
    """The seats the computer players of ``levels`` take, in order: every seat the game does not
    play itself (``ValueError`` when there are not as many as levels)."""
    seats = tuple(s for s, kind in enumerate(registry.game(game_id).seats(config)) if kind != "automa")
    if len(seats) != len(levels):
        raise ValueError(f"{len(levels)} computer players for {len(seats)} seats")
    return seats


def configuration(game_id: str, levels: Sequence[str], configure: Configure | None = None) -> Configure:
    """How a run makes the configuration of a game from its seed: ``configure``, or by default the
    game's ``computer_game`` with ``levels``."""
    sim, levels = registry.simulated(game_id), tuple(levels)
    return configure or (lambda seed: sim.computer_game(seed, levels))


def seat_levels(game_id: str, config: Any, levels: Sequence[str]) -> tuple[str, ...]:
    """The level of every seat of a game (``"automa"``: the seat the game plays itself)."""
    seats = computer_seats(game_id, config, levels)
    return tuple(
        levels[seats.index(s)] if s in seats else "automa" for s in range(len(registry.game(game_id).seats(config)))
    )


def problems(game_id: str, levels: Sequence[str], *, seed: int, configure: Configure | None = None) -> list[str]:
    """What stops a run from starting, in words (empty: it can start)."""
    try:
        registry.simulated(game_id).computer_game(seed, tuple(levels))  # the levels and their number
        config = configuration(game_id, levels, configure)(seed)
        computer_seats(game_id, config, levels)
        registry.game(game_id).new(config)
    except ValueError as exc:  # the game's refusal, in words (a bad level, seat count, content pack)
        return [str(exc)]
    return []


def play_game(
    game_id: str,
    config: Any,
    levels: Sequence[str],
    *,
    seed: int,
    index: int = 0,
    options: Sequence[str] = (),
    computers: Computers | None = None,
    max_decisions: int = MAX_DECISIONS,
) -> Played:
    """One game to its end (``seed``: the configuration's, for the replay command); never raises
    for a problem of the game or of a computer player (see ``failure``). ``computers`` replaces
    the game's own computer players (a study's settings)."""
    game, sim = registry.game(game_id), registry.simulated(game_id)
    make = computers or sim.computer
    state: Any = None
    decisions, thinking, slowest = 0, 0.0, 0.0

    def failed(error: str, details: str = "") -> Played:
        failure = Failure(
            game=index,
            seed=seed,
            decisions=decisions,
            error=error,
            details=details,
            command=replay_command(game_id, seed, levels, options),
            config=msgspec.json.encode(config).decode(),
        )
        return Played(state=state, decisions=decisions, thinking=thinking, slowest=slowest, failure=failure)

    try:
        seats = computer_seats(game_id, config, levels)
        players = {seat: make(config, seat, level) for seat, level in zip(seats, levels, strict=True)}
        state = game.new(config).state
        broken = sim.invariants(state)
        if broken:
            return failed(f"broken invariant after setup: {broken[0]}", "\n".join(broken))
        while (seat := game.decider(state)) is not None:
            if decisions >= max_decisions:
                return failed(f"the game did not end after {max_decisions} decisions")
            if seat not in players:
                return failed(f"seat {seat + 1}, which the game plays itself, was asked to decide")
            start = time.perf_counter()
            action = players[seat].choose(game.view(state, seat))
            took = time.perf_counter() - start
            thinking, slowest = thinking + took, max(slowest, took)
            state = game.step(state, action).state
            decisions += 1
            broken = sim.invariants(state)
            if broken:
                return failed(f"broken invariant after decision {decisions}: {broken[0]}", "\n".join(broken))
        winners = sim.winners(state)
    except Exception as exc:  # noqa: BLE001 - any crash of the game or a computer player is a finding
        return failed(f"{type(exc).__name__} after decision {decisions}: {exc}", traceback.format_exc())
    if winners is None:
        return failed(f"the game asks no decision after {decisions} decisions, yet has no winner")
    return Played(state=state, decisions=decisions, winners=winners, thinking=thinking, slowest=slowest)


def simulate(
    game_id: str,
    *,
    games: int,
    seed: int,
    levels: Sequence[str],
    configure: Configure | None = None,
    options: Sequence[str] = (),
    computers: Computers | None = None,
    swap_seats: bool = False,
    stop_on_error: bool = False,
    max_decisions: int = MAX_DECISIONS,
    on_game: Callable[[int, Played], None] | None = None,
) -> Report:
    """Play ``games`` games and report on them. ``configure`` gives the configuration of a game
    from its seed (default: the game's ``computer_game`` with that game's levels); ``options`` are
    the game's own command-line options that give that configuration (in every replay command).
    With ``swap_seats`` game ``i`` seats the levels rotated by ``i`` places. ``on_game(index,
    played)`` is called after each game (progress, failures as they happen); with
    ``stop_on_error`` the run stops at the first failure."""
    sim = registry.simulated(game_id)
    levels = tuple(levels)
    started = time.perf_counter()
    first = configuration(game_id, levels, configure)(game_seed(seed, 0))
    seat_wins = [0] * len(registry.game(game_id).seats(first))
    by_level: dict[str, list[float]] = {}  # level -> [seats, won]
    finals: list[Any] = []
    failures: list[Failure] = []
    decisions = shared = 0
    thinking = slowest = 0.0
    for i in range(games):
        order = seated(levels, i, swap_seats)
        config = first if i == 0 else configuration(game_id, order, configure)(game_seed(seed, i))
        one = play_game(
            game_id,
            config,
            order,
            seed=game_seed(seed, i),
            index=i,
            options=options,
            computers=computers,
            max_decisions=max_decisions,
        )
        decisions += one.decisions
        thinking, slowest = thinking + one.thinking, max(slowest, one.slowest)
        if on_game is not None:
            on_game(i, one)
        if one.failure is not None:
            failures.append(one.failure)
            if stop_on_error:
                break
            continue
        finals.append(one.state)
        for s, level in enumerate(seat_levels(game_id, config, order)):
            tally = by_level.setdefault(level, [0, 0.0])
            tally[0] += 1
            tally[1] += 1 / len(one.winners) if s in one.winners else 0.0
        for w in one.winners:
            seat_wins[w] += 1
        shared += len(one.winners) > 1
    return Report(
        game=game_id,
        levels=levels,
        seed=seed,
        games=games,
        completed=len(finals),
        errors=len(failures),
        wins={level: level_wins(int(n), won) for level, (n, won) in by_level.items()},
        seat_wins=tuple(seat_wins),
        shared=shared,
        decisions=decisions,
        mean_decisions=round(decisions / max(games, 1), 2),
        seconds=round(time.perf_counter() - started, 3),
        mean_seconds_per_decision=round(thinking / max(decisions, 1), 6),
        slowest_decision=round(slowest, 4),
        config=first,
        swap_seats=swap_seats,
        failures=tuple(failures),
        extra=sim.figures(first, finals),
    )


def report_json(report: Report) -> str:
    """The report as one line of JSON."""
    return msgspec.json.encode(report).decode()


def report_text(report: Report) -> str:
    """The report for people: the same lines for every game, then the game's own."""
    seats = [f"seat {s + 1} ({report_level(report, s)}) {w}" for s, w in enumerate(report.seat_wins)]
    levels = [
        f"{level} {w.won:g} of {w.seats} ({100 * w.rate:.1f} %, 95 % interval {100 * w.low:.1f}-{100 * w.high:.1f} %)"
        for level, w in report.wins.items()
    ]
    speed = f", {report.decisions / report.seconds:,.0f} decisions/s" if report.seconds > 0 else ""
    lines = [
        f"simulate {report.game}: {report.games} games from seed {report.seed}; {', '.join(report.levels)}",
        f"games:     {report.completed} of {report.games} completed, {report.errors} errors",
        f"wins:      {', '.join(seats)}; shared {report.shared}" + ("; seats swapped" if report.swap_seats else ""),
        f"levels:    {'; '.join(levels) or 'none'}",
        f"decisions: {report.decisions} ({report.mean_decisions:g} per game); "
        f"{report.mean_seconds_per_decision * 1000:.2f} ms to choose (slowest {report.slowest_decision * 1000:.0f} ms)",
        f"time:      {report.seconds:.2f} s{speed}",
    ]
    return "\n".join(lines + (report.extra.lines() if report.extra is not None else []))


def report_level(report: Report, seat: int) -> str:
    """The level of a seat's computer player in the first game, or "automa" for a seat the game
    plays itself."""
    return seat_levels(report.game, report.config, report.levels)[seat]
