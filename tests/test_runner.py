"""The headless runner (``nctui.platform.runner``): one runner and one report for every game of the
registry; failures (a computer player that raises, a broken invariant, a game that never ends)
reported with the command line that replays the game alone."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from types import SimpleNamespace

import pytest

from nctui.cli import main
from nctui.platform import registry, runner

# Quick levels for each game (the companions' defaults are their two strongest).
LEVELS = {
    "nightmare-cathedral": "random,greedy",
    "cathedral": "greedy,random",
    "nightmarium": "greedy,random,random",
    "dreamers": "gambler,random",
}
COMMON = {
    "game",
    "levels",
    "seed",
    "games",
    "completed",
    "errors",
    "wins",
    "seat_wins",
    "shared",
    "decisions",
    "mean_decisions",
    "seconds",
    "mean_seconds_per_decision",
    "slowest_decision",
    "config",
    "swap_seats",
    "failures",
    "extra",
}


def _report(out: str) -> dict:
    lines = out.splitlines()
    assert len(lines) == 1, out
    return json.loads(lines[0])


def test_every_game_of_the_registry_has_quick_levels_here():
    assert set(LEVELS) == set(registry.GAME_IDS)


@pytest.mark.parametrize("game", sorted(LEVELS))
def test_every_game_plays_two_games_with_the_same_report(game, capsys):
    code = main(["simulate", "--game", game, "--games", "2", "--seed", "11", "--levels", LEVELS[game], "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    report = _report(captured.out)
    assert set(report) == COMMON
    assert report["game"] == game and report["levels"] == LEVELS[game].split(",")
    assert (report["games"], report["completed"], report["errors"], report["failures"]) == (2, 2, 0, [])
    assert sum(report["seat_wins"]) - report["shared"] == 2  # each game has its winners
    assert sum(w["won"] for w in report["wins"].values()) == pytest.approx(2)
    assert report["decisions"] == 2 * report["mean_decisions"] > 0
    assert report["config"]["seed"] == 11
    assert (report["extra"] is None) == (game != "nightmare-cathedral")  # only the main game has its own figures


def test_the_text_report_names_each_seat_and_the_seat_the_game_plays_itself(capsys):
    assert main(["simulate", "--solo", "--games", "1", "--seed", "3", "--bots", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 (greedy)" in out and "seat 2 (automa)" in out and "the King won" in out
    assert main(["simulate", "--game", "dreamers", "--games", "1", "--seed", "3", "--levels", "random,gambler"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 (random)" in out and "seat 2 (gambler)" in out and "1 of 1 completed" in out


def _failure(captured) -> tuple[dict, list[str]]:
    """The one failure of a run's JSON report, and the argv of its replay command."""
    failures = _report(captured.out)["failures"]
    assert len(failures) == 1, captured
    assert f"replay it: {failures[0]['command']}" in captured.err
    argv = shlex.split(failures[0]["command"])
    assert argv[:2] == ["nctui", "simulate"]
    return failures[0], argv[1:]


def _bot_raises_in(monkeypatch, game_id: str, seed: int, at: int) -> None:
    """The computer players of the game seeded ``seed`` raise at its decision ``at``."""
    sim = registry.simulated(game_id)
    real = type(sim).computer
    counts: dict[int, int] = {}

    class Exploding:
        def __init__(self, bot, config) -> None:
            self.bot, self.seed = bot, config.seed

        def choose(self, view):
            counts[self.seed] = counts.get(self.seed, 0) + 1
            if self.seed == seed and counts[self.seed] == at:
                raise RuntimeError("the computer player exploded")
            return self.bot.choose(view)

    def computer(self, config, seat, level):
        return Exploding(real(self, config, seat, level), config)

    monkeypatch.setattr(type(sim), "computer", computer)


def test_a_computer_player_that_raises_is_reported_with_a_replay_that_fails_alone(monkeypatch, capsys):
    _bot_raises_in(monkeypatch, "dreamers", seed=42, at=7)
    argv = ["simulate", "--game", "dreamers", "--games", "3", "--seed", "41", "--levels", "gambler,random", "--json"]
    assert main(argv) == 1
    captured = capsys.readouterr()
    failure, replay = _failure(captured)
    assert failure["game"] == 1 and failure["seed"] == 42 and failure["decisions"] == 6
    assert failure["error"] == "RuntimeError after decision 6: the computer player exploded"
    assert "Traceback" in failure["details"] and "Traceback" in captured.err
    assert _report(captured.out)["completed"] == 2
    assert replay == ["simulate", "--game", "dreamers", "--games", "1", "--seed", "42", "--levels", "gambler,random"]

    _bot_raises_in(monkeypatch, "dreamers", seed=42, at=7)
    assert main([*replay, "--json"]) == 1
    alone, _ = _failure(capsys.readouterr())
    assert {**alone, "details": ""} == {**failure, "game": 0, "details": ""}


def test_a_broken_invariant_is_reported_with_a_replay_that_breaks_it_alone(monkeypatch, capsys):
    game = type(registry.simulated("nightmarium"))
    real = game.invariants

    def broken(self, state):
        if state.config.seed == 8 and state.turns >= 3:
            return ["test: a deliberately broken invariant", "and a second one"]
        return real(self, state)

    monkeypatch.setattr(game, "invariants", broken)
    assert (
        main(
            ["simulate", "--game", "nightmarium", "--games", "2", "--seed", "7", "--levels", "greedy,planner", "--json"]
        )
        == 1
    )
    failure, replay = _failure(capsys.readouterr())
    assert failure["seed"] == 8 and failure["error"].startswith("broken invariant after decision ")
    assert failure["error"].endswith(": test: a deliberately broken invariant")
    assert failure["details"] == "test: a deliberately broken invariant\nand a second one"
    assert main([*replay, "--json"]) == 1
    alone, _ = _failure(capsys.readouterr())
    assert alone == {**failure, "game": 0}


def test_a_game_that_never_ends_fails_at_the_bound(monkeypatch):
    """A Cathedral whose steps change nothing: the same seat decides for ever."""
    game = type(registry.game("cathedral"))
    monkeypatch.setattr(game, "step", lambda self, state, action: SimpleNamespace(state=state, events=()))
    seen: list[runner.Played] = []
    report = runner.simulate(
        "cathedral", games=2, seed=5, levels=("random", "random"), max_decisions=40, on_game=lambda i, p: seen.append(p)
    )
    assert (report.completed, report.errors, report.decisions) == (0, 2, 80)
    assert [f.error for f in report.failures] == ["the game did not end after 40 decisions"] * 2
    assert report.failures[1].command == "nctui simulate --game cathedral --games 1 --seed 6 --levels random,random"
    assert all(p.state is not None and p.decisions == 40 for p in seen)


def test_a_game_over_without_winners_is_a_failure(monkeypatch):
    game = type(registry.game("dreamers"))
    monkeypatch.setattr(game, "winners", lambda self, state: None)
    played = runner.play_game(
        "dreamers", registry.simulated("dreamers").computer_game(3, ("random", "random")), ("random", "random"), seed=3
    )
    assert played.failure is not None and played.failure.error.endswith("yet has no winner")


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--game", "chess"], "no game 'chess' (one of nightmare-cathedral, cathedral, nightmarium, dreamers)"),
        (["--game", "cathedral", "--players", "3"], "--players: an option of nightmare-cathedral only"),
        (["--game", "dreamers", "--solo", "--length", "variable"], "--solo, --length: options of nightmare-cathedral"),
        (["--game", "cathedral", "--levels", "greedy,champion"], "each one of random, greedy, strong"),
        (["--game", "nightmarium", "--levels", "planner"], "2 to 5 seats"),
        (["--levels", "greedy,champion"], "each one of expert, greedy, planner, random"),
        (["--levels", "greedy,random", "--bots", "greedy"], "--bots and --levels both name the computer players"),
        (["--levels", "greedy,random", "--players", "3"], "--levels names 2 computer players for 3 players"),
        (["--solo", "--players", "3"], "--solo is one player"),
        (["--levels", "greedy", "--difficulty", "hard"], None),  # one level: solo, so a difficulty is fine
        (["--players", "2", "--difficulty", "hard"], "--difficulty is for solo games"),
    ],
)
def test_options_that_disagree_exit_2_with_a_message(argv, words, capsys):
    code = main(["simulate", "--games", "1", "--seed", "1", *argv])
    err = capsys.readouterr().err
    if words is None:
        assert code == 0, err
    else:
        assert code == 2 and words in err and "Traceback" not in err


def test_levels_name_each_seat_of_the_main_game(capsys):
    assert main(["simulate", "--games", "2", "--seed", "4", "--levels", "greedy,random,random", "--json"]) == 0
    report = _report(capsys.readouterr().out)
    assert report["config"]["players"] == 3 and report["levels"] == ["greedy", "random", "random"]
    assert len(report["seat_wins"]) == 3 and report["completed"] == 2


@pytest.mark.parametrize("game", sorted(LEVELS))
def test_a_game_replays_the_same_whatever_the_hash_seed(game):
    """A replay command reproduces its game in another process: no result depends on the order
    of a set of strings (which ``PYTHONHASHSEED`` changes)."""
    levels = {"nightmarium": "planner,planner", "cathedral": "random,random"}.get(game, LEVELS[game])
    argv = [sys.executable, "-m", "nctui", "simulate", "--game", game, "--games", "2", "--seed", "5"]
    results = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [*argv, "--levels", levels, "--json"], capture_output=True, text=True, env=env, check=True
        )
        report = json.loads(done.stdout)
        results.append((report["decisions"], report["wins"], report["extra"]))
    assert results[0] == results[1]


# -- matches: --bots LEVEL,LEVEL --swap-seats, wins by level with an interval -------------------

MATCHES = {
    "nightmare-cathedral": "greedy,random",
    "cathedral": "greedy,random",
    "nightmarium": "greedy,random",
    "dreamers": "gambler,random",
}


def test_every_game_of_the_registry_has_a_quick_match_here():
    assert set(MATCHES) == set(registry.GAME_IDS)


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_a_match_with_seats_swapped_reports_wins_by_level_with_an_interval(game, capsys):
    argv = ["simulate", "--game", game, "--bots", MATCHES[game], "--games", "4", "--seed", "21", "--swap-seats"]
    assert main([*argv, "--json"]) == 0
    report = _report(capsys.readouterr().out)
    assert report["swap_seats"] is True and report["completed"] == 4
    assert set(report["wins"]) == set(MATCHES[game].split(","))
    for w in report["wins"].values():
        assert w["seats"] == 4 and 0 <= w["low"] <= w["rate"] <= w["high"] <= 1
        assert w["rate"] == pytest.approx(w["won"] / w["seats"], abs=1e-4)
    assert sum(w["won"] for w in report["wins"].values()) == pytest.approx(4)
    assert main(argv) == 0
    assert "95 % interval" in capsys.readouterr().out


def test_swapped_seats_rotate_the_levels_and_each_game_replays_alone():
    """Game i seats the levels rotated by i places; its replay names that order and seed S+i."""
    assert runner.seated(("a", "b", "c"), 4, True) == ("b", "c", "a")
    assert runner.seated(("a", "b"), 3, False) == ("a", "b")
    played: list[runner.Played] = []
    report = runner.simulate(
        "cathedral",
        games=2,
        seed=30,
        levels=("greedy", "random"),
        swap_seats=True,
        on_game=lambda i, p: played.append(p),
    )
    assert [p.state.config.levels for p in played] == [("greedy", "random"), ("random", "greedy")]
    alone = runner.simulate("cathedral", games=1, seed=31, levels=("random", "greedy"))
    assert alone.decisions == played[1].decisions and report.wins["greedy"].seats == 2


def test_the_wilson_interval():
    low, high = runner.wilson(14, 20)
    assert (round(low, 3), round(high, 3)) == (0.481, 0.855)
    assert runner.wilson(0, 0) == (0.0, 1.0) and runner.wilson(10, 10)[1] == 1.0


def test_the_kings_seat_counts_as_automa_in_the_wins(capsys):
    assert main(["simulate", "--solo", "--bots", "greedy", "--games", "1", "--seed", "3", "--json"]) == 0
    report = _report(capsys.readouterr().out)
    assert set(report["wins"]) == {"greedy", "automa"}
