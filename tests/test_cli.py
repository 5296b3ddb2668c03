"""The command line: simulate's output and exit codes, --version, bad arguments."""

from __future__ import annotations

import gc
import json
import os
import shlex

import pytest

from nctui import __version__, cli
from nctui.cli import main
from nctui.games.nightmare_cathedral import simulate as sim
from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.games.nightmare_cathedral.game import NightmareCathedral
from nctui.platform import runner
from tests.helpers import narrow

NC = "nctui.games.nightmare_cathedral"


def _json_line(out: str) -> dict:
    lines = out.splitlines()
    assert len(lines) == 1, out
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    return data


def _simulate(**options) -> runner.Report:
    """A run of the main game by the runner, from ``nctui simulate``'s options."""
    games, seed = options.pop("games"), options.pop("seed")
    levels, configure, args = sim.run(**options)
    return runner.simulate(sim.GAME, games=games, seed=seed, levels=levels, configure=configure, options=args)


def test_simulate_json_shape(capsys):
    code = main(["simulate", "--players", "3", "--games", "3", "--seed", "12345", "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = _json_line(captured.out)
    for key in ("games", "completed", "errors", "decisions", "seconds", "extra"):
        assert key in data
    assert data["games"] == 3
    assert data["completed"] == 3
    assert data["errors"] == 0
    assert data["decisions"] > 0 and data["extra"]["turns"] > 0
    assert data["seed"] == 12345 and data["config"]["players"] == 3 and data["levels"] == ["random"] * 3
    for key in ("winner_scores", "all_scores"):
        assert set(data["extra"][key]) >= {"mean", "min", "max", "count"}
    assert data["extra"]["all_scores"]["count"] == 9
    assert sum(data["extra"]["end_reasons"].values()) == 3
    assert sum(data["seat_wins"]) - data["shared"] <= 3 <= sum(data["seat_wins"])
    assert data["wins"]["random"]["seats"] == 9 and data["wins"]["random"]["won"] == 3
    assert captured.err == ""  # no progress bar when stderr is not a terminal


def test_simulate_text_summary(capsys):
    assert main(["simulate", "--players", "2", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 of 2 completed, 0 errors" in out
    assert "decisions:" in out and "turns:" in out and "ended by:" in out


def test_simulate_is_deterministic(capsys):
    a = _simulate(players=4, games=2, seed=99)
    b = _simulate(players=4, games=2, seed=99)
    assert a.extra is not None and b.extra is not None
    assert (a.decisions, a.wins, a.seat_wins, a.extra) == (b.decisions, b.wins, b.seat_wins, b.extra)


def test_game_i_replays_alone():
    """Game i of a run with seed S is the single game of a run with seed S+i."""
    results: list[runner.Played] = []
    run = sim.run(players=3)
    report = runner.simulate(
        sim.GAME, games=3, seed=500, levels=run.levels, configure=run.configure, on_game=lambda i, r: results.append(r)
    )
    assert report.completed == 3
    assert [r.state.config.seed for r in results] == [500, 501, 502]
    alone = sim.play_game(sim.make_config(players=3, seed=502), index=0)
    assert alone.decisions == results[2].decisions
    assert alone.state == results[2].state


def _break_invariant_for(monkeypatch, seed: int, after: int = 5) -> None:
    """Make the invariant check fail in the game with this seed, after a few decisions."""
    calls = {"n": 0}
    real = NightmareCathedral.invariants

    def broken(self, state):
        if state.config.seed == seed:
            calls["n"] += 1
            if calls["n"] > after:
                return ["test: a deliberately broken invariant"]
        return real(self, state)

    monkeypatch.setattr(NightmareCathedral, "invariants", broken)


def test_broken_invariant_exits_1_with_the_replay_command(monkeypatch, capsys):
    _break_invariant_for(monkeypatch, seed=12346)
    code = main(["simulate", "--players", "3", "--games", "3", "--seed", "12345", "--json"])
    captured = capsys.readouterr()
    assert code == 1
    data = _json_line(captured.out)
    assert data["errors"] == 1 and data["completed"] == 2
    assert data["failures"][0]["seed"] == 12346 and "deliberately broken" in data["failures"][0]["error"]
    replay = "nctui simulate --game nightmare-cathedral --games 1 --seed 12346 --levels random,random,random"
    assert replay in captured.err and data["failures"][0]["command"] == replay
    assert "deliberately broken invariant" in captured.err
    assert '"seed":12346' in captured.err  # the config

    # The printed command replays exactly the failing game.
    command = next(line for line in captured.err.splitlines() if "replay it:" in line).split("replay it:")[1]
    argv = shlex.split(command)
    assert argv[:2] == ["nctui", "simulate"]
    _break_invariant_for(monkeypatch, seed=12346)
    assert main(argv[1:]) == 1
    assert "--seed 12346" in capsys.readouterr().err


def test_exception_in_a_game_exits_1(monkeypatch, capsys):
    calls = {"n": 0}
    real = NightmareCathedral.step

    def crashing(self, state, action):
        calls["n"] += 1
        if calls["n"] == 30:
            raise RuntimeError("engine exploded")
        return real(self, state, action)

    monkeypatch.setattr(NightmareCathedral, "step", crashing)
    code = main(["simulate", "--players", "2", "--games", "2", "--seed", "7", "--stop-on-error"])
    captured = capsys.readouterr()
    assert code == 1
    assert "RuntimeError" in captured.err and "engine exploded" in captured.err
    assert "nctui simulate --game nightmare-cathedral --games 1 --seed 7 --levels random,random" in captured.err
    assert "Traceback" in captured.err
    assert "0 of 2 completed, 1 errors" in captured.out  # the run stopped at the first failure


def test_version(capsys):
    assert main(["--version"]) == 0
    assert __version__ in capsys.readouterr().out


def test_help(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "simulate" in out and "play" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["play"],
        ["play", "--players", "3", "--seed", "7"],
        ["--mono", "play", "--length", "variable"],
        ["new", "--solo"],
        ["solo", "--difficulty", "easy"],
        ["simulate", "--games", "2", "--json"],
        ["tutorial"],
        ["saves", "list", "--json"],
        ["saves", "check", "a.json"],
        ["serve", "--port", "2300"],
        [],
        ["--mono"],
    ],
)
def test_a_command_parsed_by_its_own_parser_as_by_the_whole_one(argv):
    """``main`` builds only the options of the command asked for (the others are named): the same
    arguments as the parser of every command."""
    from nctui.cli import build_parser, wanted_command

    command = wanted_command(argv)
    assert command == next((a for a in argv if not a.startswith("-")), None)
    assert build_parser(command).parse_args(argv) == build_parser().parse_args(argv)


def test_the_parser_of_one_command_names_the_others_without_their_options():
    from nctui.cli import COMMANDS, build_parser

    parser = build_parser("play")
    commands = narrow(next(a for a in parser._actions if a.dest == "command").choices, dict)
    assert set(commands) == set(COMMANDS)
    assert not commands["serve"]._actions and commands["play"]._option_string_actions["--players"]


@pytest.mark.parametrize(
    "argv, words",
    [
        (["simulate", "--players", "5"], "players must be 1 to 4"),
        (["simulate", "--players", "0"], "players must be 1 to 4"),
        (["simulate", "--games", "-1"], "games must be at least 1"),
        (["simulate", "--games", "many"], "games must be a whole number"),
        (["simulate", "--seed", "-3"], "seed must be a whole number from 0"),
        (["simulate", "--length", "short"], "invalid choice"),
        (["simulate", "--pack", "no-such-pack"], "no such content pack"),
        (["play", "--players", "5"], "players must be 1 to 4"),
        (["play", "--players", "3", "--seats", "human,bot"], "--seats names 2 seats"),
        (["play", "--seats", "human,robot"], "seats: a comma-separated list"),
        (["frobnicate"], "invalid choice"),
        (["--mono", "playy"], "invalid choice"),
        (["play", "--host", "x"], "unrecognized arguments: --host"),
    ],
)
def test_bad_arguments_exit_2(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err


def test_progress_bar_only_on_a_terminal(monkeypatch, capsys):
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert main(["simulate", "--games", "3", "--seed", "2", "--json"]) == 0
    captured = capsys.readouterr()
    assert "3/3 games" in captured.err
    _json_line(captured.out)


class _FakeApp:
    return_code = 0
    collected_while_running: bool | None = None

    def run(self) -> None:
        self.collected_while_running = gc.isenabled()


@pytest.fixture
def started(monkeypatch):
    """Replace the Textual app: record what `play` would start."""
    import nctui.ui.app as ui_app

    seen = {}

    def fake_create_app(target, save_dir=None, **kw):
        seen["target"], seen["save_dir"] = target, save_dir
        seen["app"] = _FakeApp()
        return seen["app"]

    monkeypatch.setattr(ui_app, "create_app", fake_create_app)
    monkeypatch.setattr(cli, "has_terminal", lambda: True)  # as if run in one
    return seen


@pytest.fixture(autouse=True)
def _collector_kept():
    """`play` sets the collector for an interactive app: not for the tests after it."""
    threshold = gc.get_threshold()
    yield
    gc.set_threshold(*threshold)
    gc.unfreeze()


def test_bare_nctui_opens_the_title_screen_and_play_starts_a_hot_seat_game(started):
    assert main([]) == 0
    assert started["target"] is None  # create_app(None): the Title screen
    assert main(["play"]) == 0
    config = narrow(started["target"], GameConfig)
    assert config.players == 2 and config.seats == ("human", "human")


def test_play_options(started, tmp_path):
    assert main(["play", "--players", "3", "--bots", "1", "--seed", "5", "--save-dir", str(tmp_path)]) == 0
    config = started["target"]
    assert config.seats == ("human", "human", "bot") and config.seed == 5
    assert started["save_dir"] == str(tmp_path)
    assert main(["play", "--seats", "bot,human"]) == 0
    assert started["target"].seats == ("bot", "human")


def test_play_continue_and_load(started, tmp_path, capsys, monkeypatch):
    from nctui.games.nightmare_cathedral.engine import GameConfig
    from nctui.platform import saves
    from nctui.platform.session import Session, new_session

    monkeypatch.setenv(saves.ENV_DIR, str(tmp_path / "default"))  # never the user's own save folder
    assert main(["play", "--continue", "--save-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"nctui: error: there is no unfinished game to continue in {tmp_path}\n"
    session = new_session(GameConfig(seed=3), folder=tmp_path)
    session.store.dispatch(session.store.state.decision.options[0])
    path = session.close()
    assert path == saves.autosave_path(session.game_id, tmp_path)

    assert main(["play", "--continue", "--save-dir", str(tmp_path)]) == 0
    target = started["target"]
    assert isinstance(target, Session) and target.state_id == 1
    assert target.game_id == session.game_id and target.autosave_path == path  # the same game, its own autosave
    assert started["save_dir"] == str(tmp_path)
    target.close()  # the app closes its session when it ends

    assert main(["play", "--load", str(path), "--save-dir", str(tmp_path)]) == 0
    assert started["target"].store.state == session.store.state and started["target"].game_id == session.game_id
    # While it is open, no other nctui may play it.
    assert main(["play", "--continue", "--save-dir", str(tmp_path)]) == 2
    assert "open in another nctui" in capsys.readouterr().err
    started["target"].close()

    # --load of a file outside the folder's autosaves: a new game of its own.
    named = saves.save(session.store, tmp_path / "named.nctui.json", session.game_id)
    assert main(["play", "--load", str(named), "--save-dir", str(tmp_path)]) == 0
    assert started["target"].game_id != session.game_id and started["target"].store.state == session.store.state
    started["target"].close()

    assert main(["play", "--load", str(tmp_path / "missing.nctui.json"), "--save-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == "nctui: error: missing.nctui.json: no such save file\n"


def test_play_continue_offers_the_newest_unfinished_game(started, tmp_path, capsys):
    import os

    from nctui.platform import saves

    unfinished = _unfinished_autosave(tmp_path, "aaaaaaaaaaaa")
    finished = _finished_autosave(tmp_path, "bbbbbbbbbbbb")
    os.utime(unfinished, (1_000_000_000, 1_000_000_000))  # the finished game was played last
    assert main(["play", "--continue", "--save-dir", str(tmp_path)]) == 0
    assert started["target"].game_id == "aaaaaaaaaaaa"
    started["target"].close()
    unfinished.unlink()
    assert main(["play", "--continue", "--save-dir", str(tmp_path)]) == 2
    assert "there is no unfinished game to continue" in capsys.readouterr().err
    assert saves.load(finished).store.state.outcome is not None  # still there: a replay


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: p.write_bytes(b'{"format": "nctui-save", "vers'), "is damaged or not a save file"),
        (lambda p: p.write_bytes(b"[" * 100_000), "nested more than"),
        (lambda p: p.write_bytes(b"\xff\xfe"), "not UTF-8 text"),
        (lambda p: os.mkfifo(p), "is not a regular file"),
        (lambda p: p.symlink_to("/dev/zero"), "is not a regular file"),
        (lambda p: p.mkdir(), "is a folder, not a file"),
    ],
    ids=["truncated", "deep", "not-utf8", "fifo", "dev-zero", "folder"],
)
def test_play_load_of_a_bad_file_is_one_line(make, words, started, tmp_path, capsys):
    path = tmp_path / "bad.nctui.json"
    make(path)
    assert main(["play", "--load", str(path), "--save-dir", str(tmp_path / "saves")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nctui: error: bad.nctui.json: ") and words in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "target" not in started


@pytest.mark.parametrize(
    "argv, option, words",
    [
        (["play", "--load", ""], "--load", "the file name cannot be empty"),
        (["play", "--load", "  "], "--load", "the file name cannot be empty"),
        (["play", "--nightmares", ""], "--nightmares", "the Nightmares cannot be empty"),
        (["new", "--solo", "--difficulty", ""], "--difficulty", "the difficulty cannot be empty"),
        (["solo", "--difficulty", ""], "--difficulty", "the difficulty cannot be empty"),
        (["play", "--save-dir", ""], "--save-dir", "the folder cannot be empty"),
        (["new", "--pack", ""], "--pack", "the pack id cannot be empty"),
        (["simulate", "--pack", ""], "--pack", "the pack id cannot be empty"),
        (["simulate", "--nightmares", ""], "--nightmares", "the Nightmares cannot be empty"),
        (["saves", "list", "--save-dir", ""], "--save-dir", "the folder cannot be empty"),
        (["serve", "--store", "mysql://x"], "--store", "a postgresql://USER@HOST/DATABASE URL, not 'mysql://x'"),
        (["serve", "--link", "nowhere"], "--link", "HOST:PORT, not 'nowhere'"),
    ],
)
def test_empty_option_values_are_errors_not_defaults(argv, option, words, started, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert errors == [f"nctui {argv[0]}{' list' if argv[0] == 'saves' else ''}: error: argument {option}: {words}"]
    assert "target" not in started  # nothing started


# ------------------------------------------------------------------------------------------
# nctui saves list / check


def _unfinished_autosave(folder, game_id: str, seed: int = 1):
    from nctui.platform import saves
    from nctui.platform.store import Store
    from tests.helpers import human_config, store_moves

    store = Store(human_config(seed=seed))
    store_moves(store, 12, seed=seed)
    return saves.save(store, saves.autosave_path(game_id, folder), game_id)


def _finished_autosave(folder, game_id: str):
    from nctui.games.nightmare_cathedral.engine import GameConfig
    from nctui.platform import saves
    from nctui.platform.store import Store
    from tests.helpers import store_moves

    store = Store(GameConfig(players=2, seats=("bot", "bot"), seed=4))
    while store.state.outcome is None:
        store_moves(store, 500, seed=4)
    return saves.save(store, saves.autosave_path(game_id, folder), game_id)


@pytest.fixture
def save_folder(tmp_path):
    """An unfinished game's autosave, a finished game's autosave, a named save and a damaged file,
    written in that order (newest last)."""
    import os

    from nctui.platform import saves
    from nctui.platform.store import Store
    from tests.helpers import human_config, store_moves

    files = {
        "unfinished": _unfinished_autosave(tmp_path, "aaaaaaaaaaaa"),
        "finished": _finished_autosave(tmp_path, "bbbbbbbbbbbb"),
    }
    store = Store(human_config(seed=7))
    store_moves(store, 20, seed=7)
    files["named"] = saves.save(store, tmp_path / "my game.nctui.json", "cccccccccccc")
    files["damaged"] = tmp_path / "damaged.nctui.json"
    files["damaged"].write_bytes(b'{"format": "nctui-save", "version": 2, "ga')
    for i, path in enumerate(files.values()):
        os.utime(path, (1_000_000_000 + i, 1_000_000_000 + i))
    return tmp_path, files


def test_saves_list_as_text(save_folder, capsys):
    folder, files = save_folder
    assert main(["saves", "list", "--save-dir", str(folder)]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 4 and captured.err == ""
    damaged, named, finished, unfinished = lines  # newest first
    assert damaged.startswith(f"{files['damaged']}: cannot be loaded: is damaged or not a save file")
    assert named.startswith("cccccccccccc") and named.endswith(str(files["named"]))
    assert "2 players, Standard; turn " in named and "Red (person), Blue (person)" in named
    assert finished.startswith("bbbbbbbbbbbb") and "; finished, " in finished and " win" in finished
    assert unfinished.startswith("aaaaaaaaaaaa") and "; turn " in unfinished
    assert "✗" not in captured.out


def test_saves_list_as_json(save_folder, capsys):
    import json

    folder, files = save_folder
    assert main(["saves", "list", "--json", "--save-dir", str(folder)]) == 0
    records = json.loads(capsys.readouterr().out)
    assert isinstance(records, list) and len(records) == 4
    for r in records:
        assert {"id", "file", "finished", "players", "mode", "turn", "updated"} <= set(r)
    by_file = {r["file"]: r for r in records}
    unfinished, finished = by_file[str(files["unfinished"])], by_file[str(files["finished"])]
    named, damaged = by_file[str(files["named"])], by_file[str(files["damaged"])]
    assert unfinished["id"] == "aaaaaaaaaaaa" and unfinished["finished"] is False and unfinished["autosave"]
    assert unfinished["players"] == ["Red (person)", "Blue (person)"] and unfinished["mode"] == "2 players, Standard"
    assert isinstance(unfinished["turn"], int) and unfinished["updated"].endswith("+00:00")
    assert finished["finished"] is True and " win" in finished["result"] and finished["autosave"]
    assert named["id"] == "cccccccccccc" and named["autosave"] is False and named["problem"] == ""
    assert damaged["problem"].startswith("is damaged or not a save file") and damaged["players"] == []
    assert [r["file"] for r in records] == [str(files[k]) for k in ("damaged", "named", "finished", "unfinished")]


def test_saves_list_check_marks_a_save_that_no_longer_replays(save_folder, capsys):
    import json

    folder, files = save_folder
    data = json.loads(files["named"].read_bytes())
    data["actions"][3] = {"a": "conquer", "area": "nowhere"}
    files["named"].write_text(json.dumps(data))

    assert main(["saves", "list", "--json", "--save-dir", str(folder)]) == 0
    unchecked = {r["file"]: r for r in json.loads(capsys.readouterr().out)}
    assert unchecked[str(files["named"])]["problem"] == ""  # its header reads: only a replay tells
    assert main(["saves", "list", "--json", "--check", "--save-dir", str(folder)]) == 0
    checked = {r["file"]: r for r in json.loads(capsys.readouterr().out)}
    assert checked[str(files["named"])]["problem"].startswith("cannot be replayed: action 4 of 20 is refused")
    assert checked[str(files["unfinished"])]["problem"] == checked[str(files["finished"])]["problem"] == ""
    assert main(["saves", "list", "--check", "--save-dir", str(folder)]) == 0
    named = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("cccccccccccc"))
    assert f"{files['named']}  ✗ cannot be loaded: cannot be replayed: action 4 of 20" in named


def test_saves_list_of_an_empty_folder(tmp_path, capsys):
    assert main(["saves", "list", "--save-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"No saves in {tmp_path}.\n"
    assert main(["saves", "list", "--json", "--save-dir", str(tmp_path / "missing")]) == 0
    assert capsys.readouterr().out == "[]\n"


def test_saves_check_exit_codes(save_folder, capsys):
    folder, files = save_folder
    good = [files["unfinished"], files["finished"], files["named"]]
    assert main(["saves", "check", *map(str, good)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{p}: ok" for p in good]
    missing = folder / "missing.nctui.json"
    assert main(["saves", "check", str(files["damaged"]), str(files["named"]), str(missing)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{files['damaged']}: is damaged or not a save file")
    assert out[1:] == [f"{files['named']}: ok", f"{missing}: no such save file"]
    assert main(["saves", "check"]) == 2  # at least one file
    assert main(["saves"]) == 2  # list or check


def test_one_player_simulates_solo_in_the_variable_length_game(capsys):
    from nctui.cli import main

    assert main(["simulate", "--players", "1", "--games", "1", "--seed", "4", "--length", "variable"]) == 0
    assert "solo" in capsys.readouterr().out


@pytest.mark.parametrize("length", ["standard", "variable"])
def test_simulate_the_variable_length_game_and_divergent_paths(length, capsys):
    args = [
        "simulate",
        "--players",
        "3",
        "--games",
        "2",
        "--seed",
        "7",
        "--length",
        length,
        "--divergent-paths",
        "--json",
    ]
    assert main(args) == 0
    data = _json_line(capsys.readouterr().out)
    assert data["config"]["length"] == length and data["config"]["divergent_paths"] is True
    assert data["completed"] == 2 and data["errors"] == 0


@pytest.mark.parametrize(
    "text, pair", [("3,7", [3, 7]), ("lots-of-conflict", [3, 7]), ("ritual-climbing", [1, 5]), ("random", [])]
)
def test_simulate_nightmares_by_numbers_or_by_name(text, pair, capsys):
    assert main(["simulate", "--games", "2", "--seed", "3", "--nightmares", text, "--json"]) == 0
    data = _json_line(capsys.readouterr().out)
    assert data["config"]["nightmares"] == data["extra"]["nightmares"] == pair
    if pair:
        assert data["extra"]["nightmare_pairs"] == {"&".join(map(str, pair)): 2}
    else:
        assert sum(data["extra"]["nightmare_pairs"].values()) == 2


def test_simulate_draws_a_random_pair_per_game():
    figures = _simulate(players=2, games=12, seed=40).extra
    assert isinstance(figures, sim.Figures)
    assert figures.nightmares == () and len(figures.nightmare_pairs) > 1


@pytest.mark.parametrize("bad", ["3,3", "0,4", "3", "3,9", "lots", "a,b"])
def test_bad_nightmares_are_refused(bad, capsys):
    assert main(["simulate", "--games", "1", "--nightmares", bad]) == 2
    err = capsys.readouterr().err
    assert "nightmares" in err and "lots-of-conflict" in err


def test_the_replay_command_names_the_nightmares():
    config = sim.make_config(players=2, seed=5, length="variable", divergent_paths=True, nightmares=(4, 8))
    command = runner.replay_command(sim.GAME, config.seed, ("random", "random"), sim.options(config))
    assert shlex.split(command)[-5:] == [
        "--length",
        "variable",
        "--divergent-paths",
        "--nightmares",
        "4,8",
    ]


def test_play_passes_the_game_options(started):
    assert main(["play", "--length", "variable", "--divergent-paths", "--nightmares", "card-play"]) == 0
    config = started["target"]
    assert config.length == "variable" and config.divergent_paths and config.nightmares == (4, 6)


def test_simulate_with_greedy_bots_names_them_in_the_summary_and_the_replay(capsys):
    import json

    from nctui.cli import main

    assert main(["simulate", "--players", "2", "--games", "2", "--seed", "5", "--bots", "greedy", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["levels"] == ["greedy", "greedy"] and out["completed"] == 2
    assert main(["simulate", "--games", "1", "--seed", "5", "--bots", "greedy"]) == 0
    assert "seat 2 (greedy)" in capsys.readouterr().out
    assert main(["simulate", "--games", "1", "--bots", "clever"]) == 2


def test_solo_simulation_reports_the_kings_wins_in_every_mode(capsys):
    import json

    from nctui.cli import main

    assert main(["simulate", "--solo", "--games", "3", "--seed", "1", "--difficulty", "hard", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["config"]["players"] == 1 and out["completed"] == 3 and out["levels"] == ["random"]
    assert out["extra"]["king_wins"] == out["seat_wins"][1] and 0 <= out["extra"]["king_wins"] <= 3
    assert "harder_powered_1" in out["config"]["difficulty"]
    assert (
        main(
            ["simulate", "--solo", "--games", "1", "--seed", "2", "--length", "variable", "--divergent-paths", "--json"]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["completed"] == 1 and out["config"]["length"] == "variable" and out["config"]["divergent_paths"]
    assert main(["simulate", "--games", "1", "--difficulty", "easy"]) == 2
    assert main(["solo", "--difficulty", "impossible"]) == 2


# ------------------------------------------------------------------------------------------
# nctui new: every setting of the New game screen


def test_new_hot_seat_with_every_setting(started, tmp_path):
    assert (
        main(
            [
                "new",
                "--players",
                "3",
                "--seats",
                "human,bot,human",
                "--length",
                "variable",
                "--divergent-paths",
                "--nightmares",
                "quick-end",
                "--seed",
                "9",
                "--save-dir",
                str(tmp_path),
            ]
        )
        == 0
    )
    config = started["target"]
    assert config.players == 3 and config.seats == ("human", "bot", "human")
    assert config.length == "variable" and config.divergent_paths and config.nightmares == (2, 8)
    assert config.seed == 9 and config.difficulty == () and started["save_dir"] == str(tmp_path)
    assert main(["new", "--players", "4", "--bots", "2", "--nightmares", "5,1"]) == 0
    assert started["target"].seats == ("human", "human", "bot", "bot")
    assert started["target"].nightmares == (5, 1)


@pytest.mark.parametrize("argv", [["new", "--solo"], ["new", "--players", "1"], ["solo"]])
def test_new_solo_is_you_against_the_king(argv, started):
    assert main([*argv, "--difficulty", "hard", "--seed", "4"]) == 0
    config = started["target"]
    assert config.players == 1 and config.seats == ("human", "king") and config.seed == 4
    from nctui.games.nightmare_cathedral.engine.config import DIFFICULTY_PRESETS

    assert config.difficulty == DIFFICULTY_PRESETS["hard"]


def test_new_solo_with_chosen_modifiers(started):
    assert main(["new", "--solo", "--difficulty", "harder_climb,easier_ritual", "--nightmares", "3,7"]) == 0
    config = started["target"]
    assert config.difficulty == ("harder_climb", "easier_ritual") and config.nightmares == (3, 7)


def test_new_draws_a_random_seed_when_none_is_given(started):
    seeds = set()
    for _ in range(3):
        assert main(["new"]) == 0
        seeds.add(started["target"].seed)
    assert len(seeds) > 1


@pytest.mark.parametrize(
    "argv, words",
    [
        (["new", "--difficulty", "hard"], "--difficulty is for solo games"),
        (["new", "--solo", "--players", "3"], "solo game is you against the King"),
        (["new", "--solo", "--seats", "human,bot"], "solo game is you against the King"),
        (["new", "--solo", "--difficulty", "harder_powered_1,harder_powered_2"], "not both"),
        (["new", "--solo", "--difficulty", "impossible"], "difficulty: easy, normal, hard"),
        (["new", "--players", "5"], "players must be 1 to 4"),
        (["new", "--nightmares", "3,3"], "nightmares"),
        (["new", "--seed", "x"], "seed must be a whole number"),
    ],
)
def test_new_refuses_bad_settings_with_a_message(argv, words, started, capsys):
    assert main(argv) == 2
    assert words in capsys.readouterr().err
    assert "target" not in started


def test_new_refused_when_the_game_cannot_be_built_exits_2_with_the_reason(capsys, monkeypatch):
    """Refused while building the game (the real create_app raises before any screen)."""
    monkeypatch.setattr(cli, "has_terminal", lambda: True)
    assert main(["new", "--pack", "no-such-pack", "--seed", "1"]) == 2
    assert "no such content pack" in capsys.readouterr().err


def test_new_help_lists_the_difficulty_modifiers_and_the_pairs(capsys):
    assert main(["new", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for words in (
        "--solo",
        "--seats",
        "--difficulty",
        "harder_climb",
        "easier_nightmare",
        "lots-of-conflict",
        "--divergent-paths",
        "--seed",
    ):
        assert words in out


@pytest.mark.parametrize(
    "argv, mono",
    [
        (["--mono"], True),
        (["--mono", "new"], True),
        (["new", "--mono"], True),
        (["solo", "--mono"], True),
        (["play", "--mono"], True),
        (["new"], False),
    ],
)
def test_mono_flag_before_or_after_the_command(argv, mono, started):
    assert main(argv) == 0
    assert getattr(started["app"], "mono", False) is mono


def test_the_levels_of_the_registry_are_the_bots():
    """The registry names them so that `nctui --help` does not import the bots."""
    from nctui.games.nightmare_cathedral.bots import BOTS
    from nctui.platform import registry

    assert set(registry.entry("nightmare-cathedral").levels) == set(BOTS)


def test_help_imports_neither_the_rules_engine_nor_textual():
    """`nctui --help` answers at once: it reads the engine's config (the choices it lists) without
    importing the rules, the bots or Textual."""
    import subprocess
    import sys

    code = (
        "import sys\nsys.argv = ['nctui', '--help']\nfrom nctui.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    loaded = set(done.stderr.split())
    assert "usage: nctui" in done.stdout
    assert "nctui.games.nightmare_cathedral.engine.config" in loaded  # the choices come from the engine's config
    assert not loaded & {f"{NC}.engine.flow", f"{NC}.engine.state", f"{NC}.bots", "nctui.ui", "textual", "rich"}


@pytest.mark.parametrize("escdelay, seconds", [(None, 0.025), ("200", 0.2)], ids=["default", "ESCDELAY=200"])
def test_a_lone_escape_is_a_key_after_25_ms_unless_escdelay_says_otherwise(escdelay, seconds):
    """Escape closes every screen of the game: Textual waits 100 ms for more of a key's bytes
    first. nctui waits 25 ms, or what the person's ESCDELAY says (as for curses programs)."""
    import os
    import subprocess
    import sys

    code = (
        "import sys\nfrom nctui.cli import main\nmain(['--version'])\n"
        "import textual.constants\nprint(textual.constants.ESCAPE_DELAY)"
    )
    env = {k: v for k, v in os.environ.items() if k != "ESCDELAY"} | ({"ESCDELAY": escdelay} if escdelay else {})
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True, env=env)
    assert float(done.stdout.split()[-1]) == seconds


def test_a_game_of_nightmare_cathedral_imports_no_other_game_nor_other_screens():
    """`nctui play` draws its first frame sooner without the three companion games, their
    screens, the Title, New game and tutorial screens, the game's own screens, the hand-off
    included, and the rules summary's topics (each imported when first shown), the computer
    players and scenario files."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom nctui.ui.app import create_app\n"
        "from nctui.games.nightmare_cathedral.engine import GameConfig\n"
        "import tempfile\napp = create_app(GameConfig(players=2, seed=1), save_dir=tempfile.mkdtemp())\n"
        "app.get_default_screen()\nprint(' '.join(sorted(sys.modules)), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    loaded = set(done.stderr.split())
    assert f"{NC}.ui.screens.game" in loaded and f"{NC}.game" in loaded
    assert not {
        m
        for m in loaded
        if m.startswith(
            ("nctui.games.cathedral", "nctui.games.nightmarium", "nctui.games.dreamers", "nctui.ui.screens.options_")
        )
    }
    assert not loaded & {
        "nctui.ui.screens.title",
        f"{NC}.ui.screens.new_game",
        f"{NC}.ui.screens.tutorial",
        "nctui.ui.screens.rules",
        "nctui.ui.screens.help",
        f"{NC}.ui.screens.inspector",
        f"{NC}.ui.screens.king_turn",
        f"{NC}.ui.screens.conflict",
        f"{NC}.ui.screens.game_over",
        "nctui.ui.screens.timeline",
        "nctui.ui.screens.save",
        "nctui.ui.screens.load",
        "nctui.ui.screens.handoff",
        "nctui.ui.rules",
        f"{NC}.ui.topics",
        f"{NC}.bots",
        f"{NC}.scenarios",
        f"{NC}.engine.invariants",
        f"{NC}.describe.advice",
        "rich.pretty",
        "attr",  # RichLog's imports (the game log is a ScrollView of its own)
        "json",
        "secrets",
    }  # saves list --json's, the save id's (os.urandom)


def test_play_sets_the_collector_for_an_interactive_app(started):
    """What the imports made is frozen out of the collector's sight, and the collector runs
    seldom enough that a key press is not held up by it (nctui.ui.textual_ext.collector)."""
    from nctui.ui.textual_ext.collector import GC_THRESHOLD

    assert gc.get_threshold() != GC_THRESHOLD
    assert main(["play"]) == 0
    assert gc.get_threshold() == GC_THRESHOLD
    assert gc.get_freeze_count() > 0 and gc.isenabled()
    app = started["app"]  # the collector was off as it started: the app turns it on once drawn
    assert app.collected_while_running is False and app.collect_once_drawn is True


# -- issue 41: bad command lines, no terminal, an unreadable folder, a long pack id --------------

LONG_PACK = "p" * 1000


@pytest.mark.parametrize(
    "argv, words",
    [
        (["new", "--solo", "--difficulty", ","], "not a list of difficulty levels"),
        (["solo", "--difficulty", "hard,"], "not a list of difficulty levels"),
        (["simulate", "--game", "cathedral", "--players", "4"], "--players: an option of nightmare-cathedral only"),
        (["simulate", "--game", "dreamers", "--bots", "planner"], "each one of random, gambler"),
        (["saves", "check", ""], "the file name cannot be empty"),
        (["--version", "extra"], "--version takes nothing else"),
        (["--mono", "--version"], "--version takes nothing else"),
        (["play", "--load", "F", "--continue"], "--load and --continue each choose the game"),
        (["play", "--scenario", "F", "--load", "G"], "--load and --scenario each choose the game"),
        (["play", "--continue", "--players", "3"], "--continue continues a saved game"),
        (["play", "--load", "F", "--seed", "3", "--pack", "base"], "leave out --seed"),
        (["play", "--load", "F", "--practice"], "leave out --practice"),
        (["play", "--continue", "--divergent-paths", "--length", "variable"], "--length, --divergent-paths"),
        (["play", "--scenario", "F", "--nightmares", "3,7"], "leave out --nightmares"),
        (["play", "--seats", "human,human", "--bots", "1"], "--bots is a shorthand for --seats"),
        (["play", "--players", "1", "--bots", "2"], "--bots must be 0 or 1 in a solo game"),
        (["new", "--pack", LONG_PACK], "no such content pack"),
        (["simulate", "--pack", LONG_PACK], "no such content pack"),
        (["play", "--pack", "../base"], "no such content pack"),
    ],
)
def test_a_flag_that_does_not_apply_or_contradicts_another_is_an_error(argv, words, started, capsys):
    """Issue 41, item 11: 20 of 126 bad command lines started anyway; each is one line saying
    why, and exit code 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    line = err.splitlines()[-1]  # after argparse's usage, when it prints it
    assert words in line and "error" in line and "Traceback" not in err and len(line) < 200
    assert "target" not in started


@pytest.mark.parametrize("argv", [["play", "--players", "1"], ["solo"], ["play"], [], ["tutorial"], ["new"]])
def test_without_a_terminal_one_line_says_so_and_nothing_is_saved(argv, tmp_path, capsys, monkeypatch):
    """``nctui play --players 1 </dev/null`` drew a traceback, ``nctui solo </dev/null`` left an
    autosave each time (issue 39, item 21; issue 41, item 7)."""
    monkeypatch.setattr(cli, "has_terminal", lambda: False)
    monkeypatch.setenv("NCTUI_SAVE_DIR", str(tmp_path))
    assert main(argv) == 2
    assert capsys.readouterr().err == "nctui: error: playing needs a terminal (its input and output are not one)\n"
    assert not list(tmp_path.rglob("*"))


def test_without_a_terminal_a_game_continued_is_left_as_it_was(tmp_path, capsys, monkeypatch):
    from nctui.games.nightmare_cathedral.engine import GameConfig
    from nctui.platform import saves
    from nctui.platform.session import new_session

    session = new_session(GameConfig(seed=3), folder=tmp_path)
    session.store.dispatch(session.store.state.decision.options[0])
    path = session.close()
    assert path is not None
    before = path.read_bytes(), path.stat().st_mtime_ns
    monkeypatch.setattr(cli, "has_terminal", lambda: False)
    assert main(["play", "--continue", "--save-dir", str(tmp_path)]) == 2
    assert "needs a terminal" in capsys.readouterr().err
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # nor its lock file
    assert saves.GameLock(session.game_id, tmp_path).acquired  # released


def test_the_real_stdin_of_a_test_is_no_terminal():
    assert not cli.has_terminal()  # pytest's captured streams: what </dev/null gives nctui


def unreadable(monkeypatch: pytest.MonkeyPatch, folder) -> None:
    """Make ``folder`` behave as a folder without read or search permission for this user (the
    suite may run as root, whom permissions do not stop): listing it and reaching inside it fail."""
    import pathlib

    inside = str(folder) + os.sep

    def refuse(name: str, real):
        def call(path, *args, **kwargs):
            text = os.fspath(path) if not isinstance(path, int) else ""
            if text.startswith(inside) or (name in ("listdir", "scandir") and text == str(folder)):
                raise PermissionError(13, "Permission denied", text)
            return real(path, *args, **kwargs)

        return call

    for name in ("listdir", "scandir", "stat", "lstat", "open", "unlink", "mkdir"):
        monkeypatch.setattr(os, name, refuse(name, getattr(os, name)))
    monkeypatch.setattr(pathlib.Path, "iterdir", lambda self: iter([self / n for n in os.listdir(self)]))


@pytest.mark.parametrize(
    "argv, code, words",
    [
        (["saves", "list"], 0, "No saves in"),
        (["saves", "list", "--check"], 0, "No saves in"),
        (["saves", "list", "--json"], 0, "[]"),
        (["play", "--continue"], 2, "no unfinished game to continue"),
        (["play", "--load", "missing.nctui.json"], 2, "no such save file"),
        (["play"], 0, ""),
        ([], 0, ""),
    ],
)
def test_an_unreadable_autosave_folder_breaks_no_command(argv, code, words, started, tmp_path, capsys, monkeypatch):
    """Issue 41, item 7: an unreadable ``autosave/`` folder crashed every command at launch."""
    (tmp_path / "autosave").mkdir()
    monkeypatch.setenv("NCTUI_SAVE_DIR", str(tmp_path))
    unreadable(monkeypatch, tmp_path / "autosave")
    assert main(argv) == code
    captured = capsys.readouterr()
    assert words in captured.out + captured.err and "Traceback" not in captured.err
