"""The complete form of a scenario ([state]): any position of any configuration written out and
read back is the same position; Stage 2 in the shorthand; [state] over the shorthand; problems
name the field in one line."""

from __future__ import annotations

import random
from functools import cache

import pytest

from nctui.engine import flow
from nctui.engine.config import DIFFICULTY_PRESETS, GameConfig
from nctui.engine.state import GameState
from nctui.scenario_state import scenario_text
from nctui.scenarios import ScenarioError, load_scenario
from nctui.simulate import make_config
from tests.test_scenarios import problems, scenario

CONFIGS = {
    "2 players": make_config(players=2, seed=1),
    "3 players": make_config(players=3, seed=2),
    "4 players": make_config(players=4, seed=3),
    **{f"solo {level}": make_config(players=1, seed=10 + i, difficulty=DIFFICULTY_PRESETS[level])
       for i, level in enumerate(("easy", "normal", "hard"))},
    "Divergent Paths": make_config(players=2, seed=7, divergent_paths=True),
    "Variable Length": make_config(players=3, seed=8, length="variable"),
    "solo, Divergent Paths": make_config(players=1, seed=9, divergent_paths=True,
                                         difficulty=DIFFICULTY_PRESETS["hard"]),
}


def positions(config: GameConfig, every: int = 9) -> list[GameState]:
    """Every ``every``-th position of a game of random decisions seeded by the configuration."""
    state = flow.new_game(config).state
    pick = random.Random(config.seed)
    out = []
    for k in range(10_000):
        if k % every == 0 or state.outcome is not None:
            out.append(state)
        if state.outcome is not None:
            break
        state = flow.apply(state, pick.choice(flow.legal_actions(state)))
    return out


@cache
def sampled(name: str) -> tuple[GameState, ...]:
    return tuple(positions(CONFIGS[name], every=2))


@pytest.mark.parametrize("name", CONFIGS)
def test_a_saved_position_loads_as_the_same_position(name):
    seen = sampled(name)
    assert seen[-1].outcome is not None  # the whole game
    # Random decisions reach the Stage II space in these games (a Variable Length game ends first).
    assert any(s.stage == 2 for s in seen) or name == "Variable Length"
    for state in seen:
        assert load_scenario(scenario_text(state, name=name)) == state


def test_the_positions_saved_cover_every_kind_of_decision():
    """Any decision due, not a few kinds: the positions above stop at most of the engine's kinds."""
    kinds = {s.decision.kind for name in CONFIGS for s in sampled(name) if s.decision is not None}
    assert len(kinds) >= 35, sorted(kinds)
    assert {"conquer", "play_combat_card", "retreat", "climb_pay", "king_maneuver", "move_nightmare"} <= kinds


def test_a_saved_position_is_short_and_plays_on():
    state = positions(CONFIGS["2 players"])[5]
    text = scenario_text(state, name="Mid game", description="saved")
    assert text.count("\n") < 400 and "decision" not in text  # defaults left out; the decision is derived
    back = load_scenario(text)
    assert flow.apply(back, back.decision.options[0]) == flow.apply(state, state.decision.options[0])


def test_stage_two_in_the_shorthand():
    state = load_scenario(scenario(tail='[game]\nstage = 2\nend_triggered = true\n'))
    assert state.stage == 2 and state.end_triggered and state.nightmare_at == ("cathedral", "cathedral")
    assert state.decks.development2 == state.decks.dream2 == () and state.decision.kind == "choose_day"
    text = scenario().replace("seed = 5", "seed = 5\nnightmares = [3, 7]")
    placed = load_scenario(text + '[game]\nstage = 2\nnightmare_at = ["ember-reach", "cathedral"]\n')
    assert placed.nightmares == (3, 7) and placed.nightmare_at == ("ember-reach", "cathedral")


def test_state_over_the_shorthand_replaces_its_fields():
    state = load_scenario(scenario(tail="[state]\ntime = 2\ndevoured_shadows = 1\nshadows = 29\n"))
    assert state.time == 2 and state.devoured_shadows == 1
    assert state.decision is not None and state.decision.kind == "choose_day"


@pytest.mark.parametrize(("tail", "expected"), [
    ('[state]\nstage = "two"\n', "<scenario>: state.stage: Expected `int`, got `str`"),
    ("[state]\nactive = 7\n", "state: the position with [state] cannot be played: active player 7 is no seat"),
    ('[game]\nstage = 2\nnightmare_at = ["atlantis", "cathedral"]\n', "game.nightmare_at: 'atlantis'"),
])
def test_state_problems_name_the_field(tail, expected):
    assert expected in problems(scenario(tail=tail))


def test_an_exact_position_is_checked_like_a_save():
    text = scenario_text(positions(CONFIGS["2 players"])[2])
    for broken, expected in (
            (text.replace('pack = "base"', 'pack = "nowhere"', 1), "state: the position cannot be played"),
            (text.replace("[state.rng]", "[state.rng]\nseed = 1", 1), "state.rng.seed: unknown field")):
        with pytest.raises(ScenarioError) as err:
            load_scenario(broken)
        assert expected in str(err.value) and "\n" not in str(err.value)


def test_solo_shorthand_points_at_the_complete_form():
    assert "solo positions are written in the complete form" in problems(scenario(tail="").replace(
        "players = 2", "players = 1"))
