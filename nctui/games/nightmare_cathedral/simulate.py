"""Nightmare Cathedral's own parts of ``nctui simulate``; the platform's runner
(``nctui.platform.runner``) plays the games and checks the invariants after every decision.

Here: the configuration of a run from its options (players or solo, length, Divergent Paths, the
Nightmares, the content pack, the solo difficulty) and the options that give it again (in each
replay command); the computer player of each seat (``--bots``: one kind on every seat, or
``--levels``: one per seat); and the figures of a run that only this game has (the Nightmare
pairs, how the games ended, the King's wins, the winners' and every seat's totals, the turns).

Seeds. Game ``i`` of a run seeded ``S`` has the game seed ``runner.game_seed(S, i)``; the computer
player of seat ``k`` in a game seeded ``g`` is seeded ``bot_seed(g, k) = g * 16 + k``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple, Protocol

import msgspec

from nctui.platform import game as platform_game, runner

from .bots import BOTS, RandomBot, bot_seed
from .engine.actions import Action
from .engine.config import GameConfig, SeatKind
from .engine.state import GameState
from .engine.views import View
from .game import mode_words

GAME = "nightmare-cathedral"
SOLO_KING = 1  # the King of Horrors' seat in a solo game


class Bot(Protocol):
    def choose(self, view: View) -> Action: ...


BotFactory = Callable[[int, int], Bot]  # (seat, seed) -> bot


def random_bots(seat: int, seed: int) -> Bot:
    return RandomBot(seed)


def bots_of_kind(kind: str) -> BotFactory:
    """Every seat played by a bot of this kind (``bots.BOTS``: "random", "greedy", "planner")."""
    bot_type = BOTS[kind]
    return lambda seat, seed: bot_type(seed)


# -- a run's configuration -------------------------------------------------------------------------


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


def options(config: GameConfig) -> tuple[str, ...]:
    """The options of ``nctui simulate`` that give this configuration again, besides its seed and
    its players (which ``--levels`` gives)."""
    args: list[str] = []
    if config.length != "standard":
        args += ["--length", config.length]
    if config.divergent_paths:
        args.append("--divergent-paths")
    if config.nightmares:
        args += ["--nightmares", ",".join(str(n) for n in config.nightmares)]
    if config.pack != "base":
        args += ["--pack", config.pack]
    if config.difficulty:
        args += ["--difficulty", ",".join(config.difficulty)]
    return tuple(args)


def seat_levels(
    *, players: int | None, solo: bool, bots: str | None, levels: tuple[str, ...] | None
) -> tuple[int, tuple[str, ...]]:
    """The players and the computer player of each seat the game does not play itself, from
    ``--players``/``--solo`` and ``--bots`` (the kind on every seat, random by default) or
    ``--levels`` (one per seat; a single one plays solo). ``ValueError`` in words when they
    disagree."""
    if solo:
        if players not in (None, 1):
            raise ValueError("--solo is one player against the King of Horrors: leave out --players")
        players = 1
    if levels is None:
        players = players or 2
        return players, (bots or "random",) * players
    if bots is not None:
        raise ValueError("--bots and --levels both name the computer players: give one of them")
    if players is not None and len(levels) != players:
        raise ValueError(f"--levels names {len(levels)} computer players for {players} players")
    return len(levels), levels


class Run(NamedTuple):
    """What the runner needs of a run's options."""

    levels: tuple[str, ...]
    configure: Callable[[int], GameConfig]  # a game seed -> that game's configuration
    options: tuple[str, ...]  # the options that give it (for the replay commands)


def run(
    *,
    players: int | None = None,
    solo: bool = False,
    bots: str | None = None,
    levels: tuple[str, ...] | None = None,
    length: Literal["standard", "variable"] = "standard",
    divergent_paths: bool = False,
    nightmares: tuple[int, ...] = (),
    pack: str = "base",
    difficulty: tuple[str, ...] = (),
) -> Run:
    """A run from the options of ``nctui simulate`` (``ValueError`` in words when they disagree)."""
    players, levels = seat_levels(players=players, solo=solo, bots=bots, levels=levels)
    if difficulty and players != 1:
        raise ValueError("--difficulty is for solo games (--solo)")

    def configure(seed: int) -> GameConfig:
        return make_config(
            players=players,
            seed=seed,
            length=length,
            divergent_paths=divergent_paths,
            nightmares=nightmares,
            pack=pack,
            difficulty=difficulty,
        )

    return Run(levels=levels, configure=configure, options=options(configure(0)))


def play_game(
    config: GameConfig,
    *,
    index: int = 0,
    bots: BotFactory | None = None,
    bot_kind: str = "random",
    max_decisions: int = runner.MAX_DECISIONS,
) -> runner.Played:
    """One game by the runner, every seat played by ``bots`` (default: bots of ``bot_kind``),
    each seeded ``bot_seed(config.seed, seat)``: the studies' and the tests' own computer players."""
    factory = bots or bots_of_kind(bot_kind)
    return runner.play_game(
        GAME,
        config,
        (bot_kind,) * config.players,
        seed=config.seed,
        index=index,
        options=options(config),
        computers=lambda config, seat, level: factory(seat, bot_seed(config.seed, seat)),
        max_decisions=max_decisions,
    )


# -- a run's figures ---------------------------------------------------------------------------------


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

    def words(self) -> str:
        if self.count == 0:
            return "none"
        return f"mean {self.mean:g}, min {self.min}, max {self.max} ({self.count} totals)"


class Figures(platform_game.Figures, frozen=True, kw_only=True):
    """Nightmare Cathedral's figures of a run, over the games that ended without error."""

    mode: str  # "2 players, Standard", "solo, hard, Variable Length, Divergent Paths"
    pack: str
    nightmares: tuple[int, ...]  # the pair asked for; empty: each game revealed its own at random
    nightmare_pairs: dict[str, int]  # how many games were played with each pair ("3&7")
    turns: int  # turns begun
    king_wins: int  # solo: games the King won
    winner_scores: Stats  # the winners' totals (every winner of a shared victory counts)
    all_scores: Stats  # every seat's total
    end_reasons: dict[str, int]

    def lines(self) -> list[str]:
        games = sum(self.end_reasons.values())
        per_game = f" ({self.turns / games:.1f} per game)" if games else ""
        return [
            f"mode:      {self.mode}, pack {self.pack}"
            + (f"; the King won {self.king_wins}" if self.mode.startswith("solo") else ""),
            "nightmares: "
            + (", ".join(f"{k} ×{v}" for k, v in self.nightmare_pairs.items()) or "none")
            + ("" if self.nightmares else " (a random pair per game)"),
            f"turns:     {self.turns}{per_game}",
            f"winners:   {self.winner_scores.words()}",
            f"all seats: {self.all_scores.words()}",
            f"ended by:  {', '.join(f'{k} {v}' for k, v in self.end_reasons.items()) or 'none'}",
        ]


def figures(config: GameConfig, finals: Sequence[GameState]) -> Figures:
    """The figures of a run whose first game has ``config``, from the last states of its games
    that ended without error."""
    winner_totals: list[int] = []
    all_totals: list[int] = []
    reasons: Counter[str] = Counter()
    pairs: Counter[str] = Counter()
    for state in finals:
        outcome = state.outcome
        if outcome is None:  # cannot happen: the runner passes finished games only
            continue
        pairs["&".join(str(n) for n in state.nightmares)] += 1
        reasons[outcome.reason] += 1
        totals = {s.seat: s.total for s in outcome.scores}
        all_totals += totals.values()
        winner_totals += (totals[w] for w in outcome.winners)
    solo = config.players == 1
    return Figures(
        mode=mode_words(config),
        pack=config.pack,
        nightmares=tuple(config.nightmares),
        nightmare_pairs=dict(sorted(pairs.items())),
        turns=sum(state.turn_number for state in finals),
        king_wins=sum(solo and s.outcome is not None and s.outcome.winners == (SOLO_KING,) for s in finals),
        winner_scores=Stats.of(winner_totals),
        all_scores=Stats.of(all_totals),
        end_reasons=dict(sorted(reasons.items())),
    )
