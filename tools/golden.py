"""Record the golden games of tests/data/golden/ (see tests/golden.py).

    python tools/golden.py --list             the games and their settings
    python tools/golden.py --write            play and record every game
    python tools/golden.py --write NAME ...   only these (after a rule changed on purpose)

Each game is played by bots seeded from the game seed as ``nctui simulate`` seeds them, so a
game is reproduced by its settings alone.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nctui.games.nightmare_cathedral.bots import BOTS
from nctui.games.nightmare_cathedral.engine import GameConfig, new_game, player_view, step
from nctui.games.nightmare_cathedral.engine.config import DIFFICULTY_PRESETS, SeatKind
from nctui.games.nightmare_cathedral.simulate import bot_seed
from tests import golden


class Spec(NamedTuple):
    name: str
    players: int
    seed: int
    bots: tuple[str, ...]  # per seat (solo: the human's seat only)
    length: str = "standard"
    divergent: bool = False
    nightmares: tuple[int, ...] = ()
    difficulty: str = ""
    note: str = ""


SPECS: tuple[Spec, ...] = (
    Spec("2p-standard-random", 2, 101, ("random", "random")),
    Spec("2p-standard-greedy", 2, 102, ("greedy", "greedy"), nightmares=(1, 5)),
    Spec("2p-standard-planner", 2, 103, ("planner", "planner"), nightmares=(3, 7)),
    Spec("2p-variable-mixed", 2, 104, ("planner", "greedy"), length="variable", nightmares=(4, 8)),
    Spec(
        "2p-divergent-random",
        2,
        50005,
        ("random", "random"),
        divergent=True,
        note="the seed of the free_dreams view leak (a Dream kept from a Reward tile)",
    ),
    Spec(
        "2p-divergent-variable-greedy",
        2,
        106,
        ("greedy", "greedy"),
        length="variable",
        divergent=True,
        nightmares=(2, 8),
    ),
    Spec("3p-standard-random", 3, 201, ("random", "random", "random")),
    Spec("3p-standard-greedy", 3, 202, ("greedy", "greedy", "greedy"), nightmares=(3, 6)),
    Spec("3p-variable-mixed", 3, 203, ("random", "greedy", "planner"), length="variable", nightmares=(4, 6)),
    Spec("3p-divergent-greedy", 3, 204, ("greedy", "greedy", "greedy"), divergent=True, nightmares=(1, 7)),
    Spec("4p-standard-random", 4, 301, ("random",) * 4),
    Spec("4p-standard-greedy", 4, 302, ("greedy",) * 4, nightmares=(2, 8)),
    Spec("4p-variable-random", 4, 303, ("random",) * 4, length="variable"),
    Spec("4p-divergent-mixed", 4, 304, ("greedy", "random", "planner", "greedy"), divergent=True, nightmares=(3, 7)),
    Spec("solo-easy-random", 1, 401, ("random",), difficulty="easy"),
    Spec("solo-normal-greedy", 1, 402, ("greedy",), difficulty="normal", nightmares=(1, 5)),
    Spec("solo-normal-planner", 1, 403, ("planner",), difficulty="normal"),
    Spec("solo-hard-greedy", 1, 404, ("greedy",), difficulty="hard", nightmares=(3, 7)),
    Spec("solo-hard-planner-variable", 1, 405, ("planner",), length="variable", difficulty="hard"),
    Spec("solo-easy-divergent-greedy", 1, 406, ("greedy",), divergent=True, difficulty="easy", nightmares=(4, 8)),
    Spec(
        "solo-harder-powered-2-divergent-variable-random",
        1,
        407,
        ("random",),
        length="variable",
        divergent=True,
        difficulty="harder_powered_2,harder_climb,easier_ritual",
    ),
)


def config_of(spec: Spec) -> GameConfig:
    bot: SeatKind = "bot"
    seats: tuple[SeatKind, ...] = ("bot", "king") if spec.players == 1 else (bot,) * spec.players
    difficulty = DIFFICULTY_PRESETS.get(spec.difficulty, tuple(d for d in spec.difficulty.split(",") if d))
    return GameConfig(
        players=spec.players,
        seats=seats,
        length=spec.length,  # type: ignore[arg-type]
        divergent_paths=spec.divergent,
        nightmares=spec.nightmares,
        difficulty=difficulty,
        seed=spec.seed,
    )


def play(spec: Spec) -> golden.Golden:
    config = config_of(spec)
    state = new_game(config).state
    bots = {seat: BOTS[kind](bot_seed(config.seed, seat)) for seat, kind in enumerate(spec.bots)}
    actions = []
    while state.decision is not None:
        seat = state.decision.seat
        action = bots[seat].choose(player_view(state, seat))
        actions.append(action)
        state = step(state, action).state
    return golden.record(spec.name, spec.note, config, spec.bots, actions, state)


def main(argv: list[str]) -> int:
    if not argv or argv[0] == "--list":
        for s in SPECS:
            print(f"{s.name:50} {config_of(s)}")
        return 0
    if argv[0] != "--write":
        print(__doc__)
        return 2
    wanted = set(argv[1:])
    unknown = wanted - {s.name for s in SPECS}
    if unknown:
        print(f"golden: no game named {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    for spec in SPECS:
        if wanted and spec.name not in wanted:
            continue
        started = time.perf_counter()
        g = play(spec)
        path = golden.write(g)
        print(
            f"{spec.name}: {g.action_count} actions, {g.outcome['reason']} at turn {g.outcome['turns']}, "
            f"winners {g.outcome['winners']} ({time.perf_counter() - started:.1f} s) -> {path.name}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
