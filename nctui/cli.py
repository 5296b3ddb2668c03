"""The ``nctui`` command: play in the terminal (the default) or simulate games headless.

Exit codes: 0 success, 1 a simulated game failed (exception or broken invariant), 2 bad
arguments.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn

from . import __version__, cli_saves, cli_serve

if TYPE_CHECKING:  # for annotations only: the commands import what they use when they run
    from .games.nightmare_cathedral.engine.config import GameConfig, SeatKind
    from .platform.replay import Replay
    from .platform.session import Session

SEAT_KINDS: tuple[SeatKind, ...] = ("human", "bot")
HUMAN: SeatKind = "human"
BOT: SeatKind = "bot"
SEED_MAX = 2**64 - 1
# A lone Escape is a key once no byte has followed it for this long (ms). Textual waits 100 ms,
# and Escape, which closes every screen of the game, took 110 ms to do so; a terminal writes the
# bytes of a key's sequence at once (tmux waits 10 ms since 3.5). The person's ESCDELAY wins.
ESCAPE_DELAY_MS = "25"


class _Parser(argparse.ArgumentParser):
    """Bad arguments: a clear message and exit code 2 (argparse's own convention)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _players(text: str) -> int:
    n = _int(text, "players")
    if not 1 <= n <= 4:
        raise argparse.ArgumentTypeError(f"players must be 1 to 4, not {n}")
    return n


def _games(text: str) -> int:
    n = _int(text, "games")
    if n < 1:
        raise argparse.ArgumentTypeError(f"games must be at least 1, not {n}")
    return n


def _seed(text: str) -> int:
    n = _int(text, "seed")
    if not 0 <= n <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"seed must be a whole number from 0 to {SEED_MAX}, not {n}")
    return n


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {text!r}") from None


def _seats(text: str) -> tuple[SeatKind, ...]:
    words = [k.strip().lower() for k in text.split(",") if k.strip()]
    kinds = tuple(kind for word in words for kind in SEAT_KINDS if kind == word)
    if len(kinds) != len(words) or not kinds:
        raise argparse.ArgumentTypeError(
            f"seats: a comma-separated list of {' or '.join(SEAT_KINDS)}, one per seat (e.g. human,bot), not {text!r}"
        )
    return kinds


def _given(text: str, what: str) -> str:
    """An option's value, refused when empty (an empty value never means the default)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"{what} cannot be empty")
    return text


def _file(text: str) -> str:
    return _given(text, "the file name")


def _folder(text: str) -> str:
    return _given(text, "the folder")


def _pack(text: str) -> str:
    from .games.nightmare_cathedral.content.loader import known_pack

    _given(text, "the pack id")
    if not known_pack(text):
        shown = text if len(text) <= 64 else text[:64] + "…"
        raise argparse.ArgumentTypeError(f"no such content pack: {shown!r}")
    return text


def _nightmares(text: str) -> tuple[int, ...]:
    from .games.nightmare_cathedral.engine.config import nightmare_pair

    _given(text, "the Nightmares")
    try:
        return nightmare_pair(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_game_options(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    from .games.nightmare_cathedral.engine.config import SUGGESTED_PAIRS

    p.add_argument(
        "--length",
        choices=("standard", "variable"),
        default="standard",
        help="Standard or Variable Length game (default: standard)",
    )
    p.add_argument("--divergent-paths", action="store_true", help="play with the Divergent Paths module")
    p.add_argument(
        "--nightmares",
        type=_nightmares,
        default=(),
        metavar="PAIR",
        help="the two Nightmares: two numbers (e.g. 3,7) or a suggested pair ("
        + ", ".join(SUGGESTED_PAIRS)
        + "); default: 2 at random (in every game)",
    )
    p.add_argument("--pack", type=_pack, default="base", metavar="ID", help="content pack id (default: base)")


def _difficulty(text: str) -> tuple[str, ...]:
    from .games.nightmare_cathedral.engine.config import difficulty

    _given(text, "the difficulty")
    if not all(part.strip() for part in text.split(",")):
        raise argparse.ArgumentTypeError(f"not a list of difficulty levels: {text!r}")
    try:
        return difficulty(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_difficulty(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    from .games.nightmare_cathedral.engine.config import DIFFICULTY_OPTIONS

    p.add_argument(
        "--difficulty",
        type=_difficulty,
        default=(),
        metavar="LEVEL",
        help="solo: easy, normal or hard, or the modifiers you want, comma-separated, from: "
        + ", ".join(DIFFICULTY_OPTIONS)
        + " (default: normal, none of them)",
    )


def _add_start_options(p: argparse.ArgumentParser) -> None:
    """The seed and the save folder, for every command that starts a game."""
    p.add_argument(
        "--seed",
        type=_seed,
        default=None,
        metavar="S",
        help="game seed: the same seed and settings replay the same game (default: random)",
    )
    p.add_argument(
        "--practice",
        action="store_true",
        help="a new game with unlimited undo and redo (default: strict undo when two or more people "
        "play, unlimited solo)",
    )
    _add_save_dir(p)
    _add_mono(p, argparse.SUPPRESS)  # absent here: keep a --mono given before the command


def _add_save_dir(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--save-dir",
        type=_folder,
        metavar="DIR",
        help="the save folder (default: $NCTUI_SAVE_DIR, else the user's data folder)",
    )


def _add_mono(p: argparse.ArgumentParser, default: object) -> None:
    p.add_argument(
        "--mono",
        action="store_true",
        default=default,
        help="draw in greys (also $NCTUI_MONO=1 or $NO_COLOR); sides keep their letters",
    )


def _add_seat_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--players",
        type=_players,
        default=None,
        metavar="N",
        help="players: 2 to 4, or 1 for solo against the King of Horrors (default 2)",
    )
    p.add_argument(
        "--seats",
        type=_seats,
        default=None,
        metavar="KINDS",
        help="who plays each seat, in turn order: e.g. human,bot (default: all human)",
    )
    p.add_argument(
        "--bots",
        type=int,
        default=None,
        metavar="K",
        help="the last K seats are computer players (a shorthand for --seats)",
    )
    _add_start_options(p)


COMMANDS = ("play", "new", "solo", "simulate", "tutorial", "replay", "saves", "serve")
CommandParser = Callable[..., "argparse.ArgumentParser | None"]


def _command(
    sub: argparse._SubParsersAction, wanted: str | None, name: str, **kwargs: Any
) -> argparse.ArgumentParser | None:
    """A command's parser: in full when it is the command asked for (or none is: ``--help``,
    an unknown word), else named only (for errors such as a misspelt command), so that the
    options of the other commands are not built at every start (~2 ms, and the server's limits
    module); None when named only."""
    if wanted is None or wanted == name:
        parser: argparse.ArgumentParser = sub.add_parser(name, **kwargs)
        return parser
    sub.add_parser(name, help=kwargs.get("help"), add_help=False)
    return None


def wanted_command(argv: Sequence[str]) -> str | None:
    """The command ``argv`` asks for (its first word that is not an option: the program's own
    options take no value), if it is one of ``COMMANDS``."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in COMMANDS else None
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``command`` (``wanted_command``), only that command's
    options are built."""
    parser = _Parser(
        prog="nctui",
        description="Nightmare Cathedral in the terminal. Without a command: the title screen (new game, "
        "continue, load).",
        epilog="Run 'nctui COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"nctui {__version__}")
    _add_mono(parser, False)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    make: CommandParser = partial(_command, sub, command)

    _play_parser(
        make(
            "play",
            help="start a game straight away, or continue a saved one",
            description="Start a new game in the terminal, or continue a saved one.",
        )
    )
    _new_parser(
        make(
            "new",
            help="start a new game with any setting of the New game screen",
            description="Start a new game: hot-seat for 2-4 (each seat a person or the computer) or solo against "
            "the King of Horrors, with every setting of the New game screen.",
            epilog="Examples: nctui new --players 3 --seats human,bot,human --length variable --nightmares quick-end; "
            "nctui new --solo --difficulty harder_climb,easier_ritual --seed 42",
        )
    )
    _solo_parser(
        make(
            "solo",
            help="play alone against the King of Horrors",
            description="Start a solo game against the King of Horrors.",
        )
    )
    _simulate_parser(
        make(
            "simulate",
            help="play games headless with computer players and check the rules' invariants",
            description="Play whole games of any game (--game) with a computer player (--levels) on every seat, "
            "checking the game's invariants after every decision; a game that does not end fails. Game i uses the "
            "seed S+i (mod 2**64), so a game is replayed alone with '--games 1 --seed S+i' (each failure prints "
            "the command).",
        )
    )
    tutorial = make(
        "tutorial",
        help="a guided first game: setup and two turns against a computer player",
        description="A guided first game: you (Red) against a computer Blue on a fixed scenario, through setup and "
        "your first two turns, each decision explained beside the board. Escape leaves it at any time; "
        "it is not saved.",
    )
    if tutorial is not None:
        _add_mono(tutorial, argparse.SUPPRESS)
    _replay_parser(
        make(
            "replay",
            help="watch a game again, decision by decision (a save file, e.g. a finished game exported with s)",
            description="Watch the game of a save file again: u one decision back, r one forward, t any decision, v "
            "through whose eyes; once the game is over every hand is shown. The file may come from another machine "
            "(s in a replay exports one).",
        )
    )
    cli_saves.add_parser(make, _add_save_dir)
    cli_serve.add_parser(make)
    return parser


def _replay_parser(replay: argparse.ArgumentParser | None) -> None:
    if replay is None:
        return
    replay.add_argument("file", type=_file, metavar="FILE", help="the save file of the game")
    replay.add_argument(
        "--seat",
        type=int,
        default=None,
        metavar="N",
        help="watch through seat N's eyes (1, 2, ...; 0: a spectator's); default: the first person's",
    )
    _add_mono(replay, argparse.SUPPRESS)


def _replay(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Any:
    """The replay of ``nctui replay FILE``; a file that cannot be watched: one line, exit 2."""
    from .platform import saves
    from .platform.replay import open_replay

    try:
        return open_replay(args.file, seat=None if args.seat is None else args.seat - 1)
    except saves.SaveError as exc:
        parser.exit(2, f"nctui replay: error: {exc}\n")


def _play_parser(play: argparse.ArgumentParser | None) -> None:
    if play is None:
        return
    _add_seat_options(play)
    play.add_argument("--load", type=_file, metavar="FILE", help="continue the game saved in FILE")
    play.add_argument("--continue", dest="resume", action="store_true", help="continue the unfinished game played last")
    play.add_argument(
        "--scenario",
        type=_file,
        metavar="FILE",
        help="practise the position of a scenario file (docs/scenarios.md; x in a game saves one)",
    )
    _add_game_options(play)


def _new_parser(new: argparse.ArgumentParser | None) -> None:
    if new is None:
        return
    new.add_argument("--solo", action="store_true", help="play alone against the King of Horrors (--players 1)")
    _add_seat_options(new)
    _add_difficulty(new)
    _add_game_options(new)


def _solo_parser(solo: argparse.ArgumentParser | None) -> None:
    if solo is None:
        return
    _add_start_options(solo)
    _add_difficulty(solo)
    _add_game_options(solo)


def _simulate_parser(sim: argparse.ArgumentParser | None) -> None:
    if sim is None:
        return
    sim.add_argument(
        "--game",
        default="nightmare-cathedral",
        metavar="ID",
        help="which game: nightmare-cathedral (default), cathedral, nightmarium or dreamers",
    )
    sim.add_argument("--games", type=_games, default=1, metavar="G", help="number of games (default 1)")
    sim.add_argument("--seed", type=_seed, default=None, metavar="S", help="seed of the first game (default: random)")
    sim.add_argument(
        "--levels",
        type=_levels,
        default=None,
        metavar="LEVELS",
        help="the computer player of each seat, comma-separated (nightmare-cathedral: 1-4 of random, greedy or "
        "planner, one alone plays solo; cathedral: 2 of random, greedy or strong; nightmarium: 2-5 of random, "
        "greedy or planner; dreamers: 2-4 of random or gambler; default: nightmare-cathedral --bots, the others "
        "their two strongest)",
    )
    sim.add_argument(
        "--bots",
        type=_levels,
        default=None,
        metavar="LEVELS",
        help="a match between computer players: one level on every seat (nightmare-cathedral: --players of them, "
        "the others two), or one level per seat as --levels; the report gives each level's share of the wins with "
        "its 95%% interval",
    )
    sim.add_argument(
        "--swap-seats",
        action="store_true",
        help="game i seats the levels rotated by i places (two levels change seats every game)",
    )
    sim.add_argument("--json", action="store_true", help="print the report as one line of JSON")
    sim.add_argument("--stop-on-error", action="store_true", help="stop at the first failed game")
    main_game = sim.add_argument_group("nightmare-cathedral's options")
    main_game.add_argument("--players", type=_players, default=None, metavar="N", help="players, 1 to 4 (default 2)")
    main_game.add_argument("--solo", action="store_true", help="a bot plays solo against the King of Horrors")
    _add_difficulty(main_game)
    _add_game_options(main_game)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    os.environ.setdefault("ESCDELAY", ESCAPE_DELAY_MS)  # read by Textual as it is imported
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(wanted_command(words))
    try:
        if "--version" in words[: words.index("--") if "--" in words else None] and len(words) > 1:
            parser.error("--version takes nothing else: nctui --version")  # argparse would print it and drop the rest
        args = parser.parse_args(words)
        if args.command == "simulate":
            return _simulate(parser, args)
        if args.command == "saves":
            return cli_saves.run(args)
        if args.command == "serve":
            return cli_serve.run(args)
        _prepare_ui()
        if args.command is None:  # bare `nctui`: the Title screen
            return _run(parser, None, None, mono=args.mono)
        if args.command == "tutorial":
            return _run(parser, None, None, mono=args.mono, tutorial=True)
        if args.command == "replay":
            return _run(parser, _replay(parser, args), None, mono=args.mono)
        if args.command == "play":
            _check_play(parser, args)
        if args.command == "play" and args.scenario:
            return _run(parser, _scenario_game(parser, args), args.save_dir, mono=args.mono)
        if args.command == "play" and (args.load or args.resume):
            return _run(parser, _saved_game(parser, args), args.save_dir, mono=args.mono)
        return _run(parser, _new_config(parser, args), args.save_dir, mono=args.mono, practice=args.practice)
    except SystemExit as exc:  # argparse's --help, --version and errors
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)


# ------------------------------------------------------------------------------------------
# simulate


def _simulate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``nctui simulate``: whole games of any game between computer players, by the platform's
    runner; the same report for every game, with the game's own figures in it."""
    from .platform import registry, runner

    entry = registry.entry_named(args.game)
    if entry is None:
        parser.exit(2, f"nctui simulate: error: no game {args.game!r} (one of {', '.join(registry.GAME_IDS)})\n")
    seed = args.seed if args.seed is not None else random.randrange(SEED_MAX + 1)
    try:
        levels, configure, options = _simulated_run(args, entry.levels)
    except ValueError as exc:
        parser.exit(2, f"nctui simulate: error: {exc}\n")
    problems = runner.problems(args.game, levels, seed=seed, configure=configure)
    if problems:
        parser.exit(2, f"nctui simulate: error: {'; '.join(problems)}\n")
    progress = _Progress(args.games) if sys.stderr.isatty() else None

    def on_game(index: int, played: runner.Played) -> None:
        if played.failure is not None:
            if progress is not None:
                progress.clear()
            _report_failure(played.failure)
        if progress is not None:
            progress.update(index + 1)

    report = runner.simulate(
        args.game,
        games=args.games,
        seed=seed,
        levels=levels,
        configure=configure,
        options=options,
        swap_seats=args.swap_seats,
        stop_on_error=args.stop_on_error,
        on_game=on_game,
    )
    if progress is not None:
        progress.clear()
    _print_report(runner.report_json(report) if args.json else runner.report_text(report))
    if report.errors:
        print(
            f"nctui simulate: {report.errors} of {report.games} games failed; "
            f"replay one alone with the command printed above it",
            file=sys.stderr,
        )
        return 1
    return 0


# The options of Nightmare Cathedral's simulation, with their defaults (a companion game refuses them).
_MAIN_GAME_OPTIONS = {
    "players": None,
    "solo": False,
    "length": "standard",
    "divergent_paths": False,
    "nightmares": (),
    "pack": "base",
    "difficulty": (),
}


def _simulated_run(
    args: argparse.Namespace, entry_levels: tuple[str, ...]
) -> tuple[tuple[str, ...], Callable[[int], Any] | None, tuple[str, ...]]:
    """The levels, the configuration of a game from its seed (None: the game's ``computer_game``)
    and the game's own options of a run; ``ValueError`` in words for options that disagree."""
    if args.bots is not None and args.levels is not None:
        raise ValueError("--bots and --levels both name the computer players: give one of them")
    if args.game == "nightmare-cathedral":
        from .games.nightmare_cathedral import simulate as sim

        own = {name: getattr(args, name) for name in _MAIN_GAME_OPTIONS}
        if args.bots is not None and len(args.bots) > 1:  # one level per seat
            return sim.run(**own, levels=args.bots)
        return sim.run(**own, bots=args.bots[0] if args.bots else None, levels=args.levels)
    if args.bots is not None:
        args.levels = args.bots if len(args.bots) > 1 else args.bots * 2
    given = [name for name, default in _MAIN_GAME_OPTIONS.items() if getattr(args, name) != default]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        raise ValueError(f"{flags}: {'an option' if len(given) == 1 else 'options'} of nightmare-cathedral only")
    return args.levels or entry_levels[::-1][:2], None, ()


def _levels(text: str) -> tuple[str, ...]:
    levels = tuple(part.strip() for part in text.split(","))
    if not all(levels):
        raise argparse.ArgumentTypeError(f"not a list of levels: {text!r}")
    return levels


def _print_report(text: str) -> None:
    """The report on stdout; a reader that went away (``| head``) is no error of the run."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error as Python exits


def _report_failure(f: Any) -> None:
    print(
        f"nctui simulate: game {f.game} (seed {f.seed}) failed: {f.error}\n"
        f"  replay it: {f.command}\n"
        f"  config: {f.config}",
        file=sys.stderr,
    )
    if f.details:
        print("  " + f.details.rstrip().replace("\n", "\n  "), file=sys.stderr)


class _Progress:
    """A one-line progress bar on stderr (only used when stderr is a terminal)."""

    WIDTH = 30

    def __init__(self, total: int) -> None:
        self.total = total
        self.update(0)

    def update(self, done: int) -> None:
        filled = self.WIDTH * done // max(self.total, 1)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{self.total} games")
        sys.stderr.flush()

    def clear(self) -> None:
        sys.stderr.write("\r" + " " * (self.WIDTH + 30) + "\r")
        sys.stderr.flush()


# ------------------------------------------------------------------------------------------
# play


# The options of a new game, with their defaults: a game continued or a scenario has its own.
_NEW_GAME_OPTIONS = {
    "players": None,
    "seats": None,
    "bots": None,
    "seed": None,
    "practice": False,
    "length": "standard",
    "divergent_paths": False,
    "nightmares": (),
    "pack": "base",
}


def _check_play(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``play``'s options that contradict each other, or do not apply, refused in one line."""
    chosen = [
        flag
        for flag, given in (("--load", args.load), ("--continue", args.resume), ("--scenario", args.scenario))
        if given
    ]
    if len(chosen) > 1:
        parser.error(f"{' and '.join(chosen)} each choose the game to play: give one of them")
    if not chosen:
        return
    given = [name for name, default in _NEW_GAME_OPTIONS.items() if getattr(args, name) != default]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        what = "starts a practice game of its position" if chosen[0] == "--scenario" else "continues a saved game"
        parser.error(f"{chosen[0]} {what}, with its own settings: leave out {flags}")


def _seat_kinds(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[int, tuple[SeatKind, ...]]:
    players = args.players
    seats = args.seats
    if seats is not None and args.bots is not None:
        parser.error("--bots is a shorthand for --seats: give one of them")
    if seats is not None and players is not None and len(seats) != players:
        parser.error(f"--seats names {len(seats)} seats but --players is {players}")
    if players is None:
        players = len(seats) if seats is not None else 2
    if players == 1:  # solo: you against the King of Horrors
        if args.bots not in (None, 0, 1):
            parser.error(f"--bots must be 0 or 1 in a solo game, not {args.bots}")
        return 1, (BOT if args.bots else HUMAN, "king")
    if seats is None:
        seats = (HUMAN,) * players
    if args.bots is not None:
        if not 0 <= args.bots <= players:
            parser.error(f"--bots must be 0 to {players}, not {args.bots}")
        seats = tuple(seats[: players - args.bots]) + (BOT,) * args.bots
    return players, seats


def _saved_game(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Session:
    """The game of ``--load FILE`` or ``--continue`` (the unfinished game played last)."""
    from .platform import saves
    from .platform.session import SessionError, open_session
    from .ui.app import BOT_DELAY

    saves.tidy(args.save_dir)
    saves.migrate(args.save_dir)
    try:
        path = args.load or saves.latest_autosave(args.save_dir)
        if path is None:
            folder = saves.save_dir(args.save_dir)
            parser.exit(2, f"nctui: error: there is no unfinished game to continue in {folder}\n")
        return open_session(path, folder=args.save_dir, bot_delay=BOT_DELAY)
    except (saves.SaveError, SessionError) as exc:
        parser.exit(2, f"nctui: error: {exc}\n")


def _scenario_game(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Session:
    """The practice game of ``--scenario FILE``."""
    from .games.nightmare_cathedral.scenarios import ScenarioError
    from .platform.session import SessionError, scenario_session
    from .ui.app import BOT_DELAY

    try:
        return scenario_session("nightmare-cathedral", args.scenario, folder=args.save_dir, bot_delay=BOT_DELAY)
    except ScenarioError as exc:
        parser.exit(2, f"nctui: error: {exc.one_line()}\n")
    except SessionError as exc:
        parser.exit(2, f"nctui: error: {exc}\n")


def _new_config(parser: argparse.ArgumentParser, args: argparse.Namespace) -> GameConfig:
    """The GameConfig of ``play``, ``new`` or ``solo``: the options checked as the New game
    screen checks them."""
    from .games.nightmare_cathedral.engine.config import GameConfig, check_config

    if args.command == "solo" or getattr(args, "solo", False):
        if getattr(args, "players", None) not in (None, 1) or getattr(args, "seats", None) is not None:
            parser.error("a solo game is you against the King of Horrors: leave out --players and --seats")
        args.players, args.seats, args.bots = 1, None, getattr(args, "bots", None)
    players, seats = _seat_kinds(parser, args)
    difficulty = getattr(args, "difficulty", ())
    if difficulty and players != 1:
        parser.error("--difficulty is for solo games (--solo)")
    seed = args.seed if args.seed is not None else random.randrange(SEED_MAX + 1)
    config = GameConfig(
        players=players,
        seats=seats,
        length=args.length,
        divergent_paths=args.divergent_paths,
        nightmares=args.nightmares,
        pack=args.pack,
        difficulty=difficulty,
        seed=seed,
    )
    problems = check_config(config)
    if problems:
        parser.error("; ".join(problems))
    return config


def has_terminal() -> bool:
    """Whether the input and the output are a terminal, as the app needs (its input ending while a
    screen opens broke it; ``</dev/null`` drew a traceback or left an autosave)."""
    try:
        return sys.stdin is not None and sys.stdout is not None and sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError, OSError):  # a closed or replaced stream
        return False


def _prepare_ui() -> None:
    """What must come before the app's modules are imported: its widget classes set up the
    cheaper way (ui/widget_classes.py)."""
    from .ui.textual_ext import widget_classes

    widget_classes.install()


def _run(
    parser: argparse.ArgumentParser,
    target: Session | GameConfig | Replay | None,
    save_dir: str | None,
    *,
    mono: bool = False,
    practice: bool = False,
    tutorial: bool = False,
) -> int:
    """Run the app on ``target``: a Session, a GameConfig, or None for the Title screen (or, with
    ``tutorial``, the guided first game). Without a terminal to play in, one line says so, and
    nothing is started or saved."""
    import gc

    if not has_terminal():
        from .platform.session import Session

        if isinstance(target, Session):
            target.close(save=False)  # a game opened (a save, a scenario): left as it was
        parser.exit(2, "nctui: error: playing needs a terminal (its input and output are not one)\n")

    # No collection while importing (what the imports make lives as long as the process), then
    # out of the collector's sight: the collections start-up's new objects set off walked it
    # every time (~40 ms of decoding the content pack alone). Nor until the first frame is
    # drawn (NctuiApp.collect_once_drawn): a collection of the young objects took 4-6 ms of it.
    gc.disable()
    try:
        from .ui.app import create_app
        from .ui.textual_ext.collector import steady_collector
        from .ui.textual_ext.parsed_css import cache_file, load_parsed_css, save_parsed_css, share_parsed_css

        # the CSS this app parsed last time (~5 ms to read back instead of ~20 ms to parse)
        share_parsed_css()
        css_cache = cache_file()
        load_parsed_css(css_cache)
        steady_collector()
        try:
            app = create_app(target, save_dir=save_dir, undo="practice" if practice else None)
        except ValueError as exc:  # a configuration the engine refuses, or a broken content pack
            parser.exit(2, f"nctui: error: {exc}\n")
        if mono:
            app.mono = True
        app.open_tutorial = tutorial  # over the Title screen, where Escape leads back
        app.css_cache = css_cache
        app.collect_once_drawn = True
        app.run()
    finally:
        gc.enable()
    save_parsed_css(css_cache)  # what it parsed after the first save (NctuiApp.css_cache)
    return app.return_code or 0
