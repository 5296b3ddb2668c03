"""The complete form of a scenario ([state]): any position of any configuration written out and
read back is the same position; Stage 2 in the shorthand; [state] over the shorthand; problems
name the field in one line."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.engine import flow
from nctui.games.nightmare_cathedral.engine.config import DIFFICULTY_PRESETS, GameConfig
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.state import GameState
from nctui.games.nightmare_cathedral.scenario_state import scenario_text
from nctui.games.nightmare_cathedral.scenarios import ScenarioError, load_scenario
from nctui.games.nightmare_cathedral.simulate import make_config
from tests.helpers import in_time, present
from tests.test_scenarios import problems, scenario

CONFIGS = {
    "2 players": make_config(players=2, seed=1),
    "3 players": make_config(players=3, seed=2),
    "4 players": make_config(players=4, seed=3),
    **{
        f"solo {level}": make_config(players=1, seed=10 + i, difficulty=DIFFICULTY_PRESETS[level])
        for i, level in enumerate(("easy", "normal", "hard"))
    },
    "Divergent Paths": make_config(players=2, seed=7, divergent_paths=True),
    "Variable Length": make_config(players=3, seed=8, length="variable"),
    "solo, Divergent Paths": make_config(
        players=1, seed=9, divergent_paths=True, difficulty=DIFFICULTY_PRESETS["hard"]
    ),
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
    assert flow.apply(back, present(back.decision).options[0]) == flow.apply(state, present(state.decision).options[0])


def test_stage_two_in_the_shorthand():
    state = load_scenario(scenario(tail="[game]\nstage = 2\nend_triggered = true\n"))
    assert state.stage == 2 and state.end_triggered and state.nightmare_at == ("cathedral", "cathedral")
    assert state.decks.development2 == state.decks.dream2 == () and present(state.decision).kind == "choose_day"
    text = scenario().replace("seed = 5", "seed = 5\nnightmares = [3, 7]")
    placed = load_scenario(text + '[game]\nstage = 2\nnightmare_at = ["ember-reach", "cathedral"]\n')
    assert placed.nightmares == (3, 7) and placed.nightmare_at == ("ember-reach", "cathedral")


def test_state_over_the_shorthand_replaces_its_fields():
    state = load_scenario(scenario(tail="[state]\ntime = 2\ndevoured_shadows = 1\nshadows = 29\n"))
    assert state.time == 2 and state.devoured_shadows == 1
    assert state.decision is not None and state.decision.kind == "choose_day"


@pytest.mark.parametrize(
    ("tail", "expected"),
    [
        ('[state]\nstage = "two"\n', "<scenario>: state.stage: Expected `int`, got `str`"),
        ("[state]\nactive = 7\n", "state: the position with [state] cannot be played: active player 7 is no seat"),
        ('[game]\nstage = 2\nnightmare_at = ["atlantis", "cathedral"]\n', "game.nightmare_at: 'atlantis'"),
        ('[state.decision]\nseat = 0\nkind = "choose_day"\noptions = []\n', "leave [state.decision] out"),
    ],
)
def test_state_problems_name_the_field(tail, expected):
    assert expected in problems(scenario(tail=tail))


def test_an_exact_position_is_checked_like_a_save():
    text = scenario_text(positions(CONFIGS["2 players"])[2])
    for broken, expected in (
        (text.replace('pack = "base"', 'pack = "nowhere"', 1), "state: the position cannot be played"),
        (text.replace("[state.rng]", "[state.rng]\nseed = 1", 1), "state.rng.seed: unknown field"),
    ):
        with pytest.raises(ScenarioError) as err:
            load_scenario(broken)
        assert expected in str(err.value) and "\n" not in str(err.value)


SOLO = """
[config]
players = 1
seed = 3
nightmares = [2, 7]

[game]
active = 0

[[areas]]
id = "weeping-orchard"
followers = { red = 2 }
fort = "red"
fortress = true

[[areas]]
id = "ember-reach"
followers = { blue = 3 }
fort = "blue"
levels = 2
fortress = true

[[players]]
dreamer = "dusk"
deal = 3

[[players]]
{king_player}

[king]
dreamer = "{dreamer}"
day_cultists = { develop = 2, ritual = 1, summon = 1 }
card_cultists = { summon = 1 }
tucked = { fortify = ["d1-wax-stair"] }
{king}
"""


def solo(king: str = "", king_player: str = "", dreamer: str = "maneuver") -> str:
    return SOLO.replace("{king}", king).replace("{king_player}", king_player).replace("{dreamer}", dreamer)


def test_a_solo_position_in_the_shorthand_plays_on():
    state = load_scenario(solo())
    k = state.king
    assert k is not None and k.seat == 1 and k.dreamer == "maneuver"
    assert k.day_cultists == (1, 1, 0, 0, 2) and k.card_cultists == (0, 1, 0, 0, 0)  # rondel order
    assert k.tucked[2] == ("d1-wax-stair",) and sorted(k.hand) == ["king-basic-combat", "king-shield"]
    assert len(k.dreams) == 2 and len(k.area_deck) == 12 and state.players[1].hand == ()
    assert present(state.decision).kind == "choose_day" and present(state.decision).seat == 0
    pick = random.Random(2)
    for _ in range(120):
        if state.outcome is not None:
            break
        state = flow.apply(state, pick.choice(flow.legal_actions(state)))
        assert violations(state) == []
    named = load_scenario(
        solo(
            king='dreams = ["dr1-garrison", "dr1-first-rung"]\ndream_cultists = [1, 0]\n'
            'hand = ["d1-moth-procession"]\narea_aside = ["ash-nave"]'
        )
    )
    assert present(named.king).dreams == ("dr1-garrison", "dr1-first-rung") and present(named.king).dream_cultists == (
        1,
        0,
    )
    assert "d1-moth-procession" in present(named.king).hand and "ash-nave" not in present(named.king).area_deck


@pytest.mark.parametrize(
    ("king", "king_player", "dreamer", "expected"),
    [
        ('hand = ["d1-wax-stair"]', "", "maneuver", "king.hand: card 'd1-wax-stair' is also in king.tucked.fortify"),
        ("", "", "noon", "king.dreamer: 'noon': the King's Dreamer is on a Day space"),
        ("", 'dreamer = "dusk"', "maneuver", "the King's Dreamer is on a Day space: [king] dreamer"),
        ("", 'hand = ["d1-moth-procession"]', "maneuver", "hand: the King's cards are in [king]"),
        ("dream_cultists = [1]", "", "maneuver", "king.dream_cultists: a count of 0 or more per incomplete Dream (2)"),
    ],
)
def test_solo_problems_name_the_king_field(king, king_player, dreamer, expected):
    assert expected in problems(solo(king=king, king_player=king_player, dreamer=dreamer))


def test_the_king_is_for_solo_games_only():
    assert "king: the King of Horrors plays in solo games only" in problems(scenario(tail="[king]\n"))


@pytest.mark.parametrize(
    "options", ["divergent_paths = true", 'length = "variable"', 'divergent_paths = true\nlength = "variable"']
)
def test_divergent_paths_and_variable_length_in_the_shorthand(options):
    """The pieces in the Cathedral space are setup's when left out (Divergent Paths: 1C in the
    Standard Game, none in the Variable Length Game, their tiles face up on the sideboard)."""
    state = load_scenario(scenario().replace("seed = 5", "seed = 5\n" + options))
    fresh = flow.new_game(replace(state.config, seats=("bot", "bot"))).state
    assert state.cathedral_built == fresh.cathedral_built and state.path_tiles == fresh.path_tiles
    pick = random.Random(4)
    for _ in range(60):
        state = flow.apply(state, pick.choice(flow.legal_actions(state)))
        assert violations(state) == []
    if "divergent" in options:
        assert "with Divergent Paths the pieces built" in problems(
            scenario(tail='[game]\ncathedral = ["1A"]\n').replace("seed = 5", "seed = 5\n" + options)
        )


def _mutated(lines: list[str], pick: random.Random) -> str:
    """A saved position with one to three lines damaged: a number, a string, a line dropped,
    repeated or swapped, a table header doubled."""
    lines = list(lines)
    for _ in range(pick.randint(1, 3)):
        i = pick.randrange(len(lines))
        line, op = lines[i], pick.randrange(6)
        if op == 0:
            lines[i] = re.sub(
                r"-?\d+", lambda m: str(pick.choice([-1, 0, 2, 99, 2**70, int(m.group()) + 1])), line, count=1
            )
        elif op == 1:
            lines[i] = re.sub(
                r'"[^"]*"', lambda m: pick.choice(['""', '"x"', '"ash-nave"', '"summon"', '"cathedral"']), line, count=1
            )
        elif op == 2:
            del lines[i]
        elif op == 3:
            lines.insert(i, lines[pick.randrange(len(lines))])
        elif op == 4:
            lines[i] = line.replace("[", "[[", 1)
        else:
            j = pick.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def test_a_damaged_saved_position_is_refused_in_one_line_never_a_traceback():
    texts = [scenario_text(s).splitlines() for name in ("2 players", "solo hard") for s in sampled(name)[10:200:60]]
    pick = random.Random(13)
    refused = 0
    for _ in range(300):
        text = _mutated(pick.choice(texts), pick)
        try:
            in_time(lambda: load_scenario(text))  # noqa: B023 - called at once, in this iteration
        except ScenarioError as exc:
            refused += 1
            assert "\n" not in str(exc), str(exc)
    assert refused > 150  # most damage is noticed (some only changes a count that stays consistent)
