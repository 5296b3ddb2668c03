"""Scenarios: the example files load and play on; broken ones name file, entry and field."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from nctui.games.nightmare_cathedral.bots.random_bot import RandomBot
from nctui.games.nightmare_cathedral.content.loader import get_pack
from nctui.games.nightmare_cathedral.engine import legal_actions, player_view, step
from nctui.games.nightmare_cathedral.engine.actions import ReturnFromLimbo
from nctui.games.nightmare_cathedral.engine.flow import StepResult
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.state import BASIC_COMBAT, FOLLOWERS, SHADOWS
from nctui.games.nightmare_cathedral.scenarios import ScenarioError, load_scenario, load_scenario_result
from nctui.platform.saves import load, save
from nctui.platform.store import Store
from tests.helpers import in_time, present

SAVES = Path(__file__).resolve().parent.parent / "nctui" / "games" / "nightmare_cathedral" / "practice" / "positions"
EXAMPLES = sorted(SAVES.glob("*.toml"))


def cards():
    return get_pack("base").cards


def dev_ids(**want) -> list[str]:
    return [d.id for d in cards().development if all(getattr(d, k) == v for k, v in want.items())]


MINIMAL = """
[config]
players = 2
seed = 5

[[areas]]
id = "weeping-orchard"
followers = { red = 2 }
fort = "red"
fortress = true

[[areas]]
id = "ember-reach"
followers = { blue = 2 }
fort = "blue"
fortress = true

[[players]]
dreamer = "dusk"
{red}

[[players]]
dreamer = "vigil"
{blue}
{tail}
"""


def scenario(red: str = "", blue: str = "", tail: str = "") -> str:
    return MINIMAL.replace("{red}", red).replace("{blue}", blue).replace("{tail}", tail)


def load_text(text: str):
    return load_scenario(text)


def problems(text: str) -> str:
    with pytest.raises(ScenarioError) as err:
        load_text(text)
    return str(err.value)


# ----------------------------------------------------------------------------------------------
# The example files


def test_there_are_example_scenarios():
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_loads_and_the_engine_plays_on(path: Path):
    state = load_scenario(path)
    assert violations(state) == []
    assert legal_actions(state)
    assert load_scenario(path) == state  # the seed fixes every shuffle
    bots = [RandomBot(i) for i in range(len(state.players))]
    for _ in range(80):
        d = state.decision
        if d is None:
            break
        state = step(state, bots[d.seat].choose(player_view(state, d.seat))).state
        assert violations(state) == []


def test_opening_example_is_what_setup_leaves():
    state = load_scenario(SAVES / "opening-2p.toml")
    assert state.phase == "turn" and present(state.decision).kind == "choose_day" and state.active == 0
    assert state.turn_number == 1 and state.time == 0 and state.nightmares == (1, 5)
    assert [len(p.hand) for p in state.players] == [4, 4]  # Basic Combat + 3 dealt
    assert [len(p.dreams) for p in state.players] == [2, 2]
    assert len(state.decks.dream_offer) == 3
    assert all(p.shaper and p.supply == FOLLOWERS - 3 for p in state.players)
    assert state.shadows == SHADOWS - 14


def test_crowded_centre_example_asks_blue_to_react():
    state = load_scenario(SAVES / "crowded-centre-3p.toml")
    assert state.phase == "reactions" and present(state.decision).kind == "react"
    assert present(state.decision).seat == 1 and state.queue == (1, 2)
    assert state.active == 0 and state.day == "summon" and state.players[0].dreamer == "summon"
    assert state.time == 1 and [p.turns for p in state.players] == [5, 5, 5]


# ----------------------------------------------------------------------------------------------
# What a scenario places


def test_named_cards_go_where_the_scenario_says():
    upgrade = next(d for d in cards().development if d.stage == 1 and d.players == 2 and d.kind == "upgrade")
    hand, top = [c for c in dev_ids(stage=1, players=2) if c != upgrade.id][:2]
    dream, offered, dream_top = [d.id for d in cards().dreams if d.stage == 1][:3]
    conflict = next(c.id for c in cards().conflicts if c.stage == 1)
    text = scenario(
        red=f'hand = ["{hand}"]\ndreams = ["{dream}"]\ndisplay = {{ {upgrade.action} = ["{upgrade.id}"] }}',
        tail=f'[decks]\ndevelopment = ["{top}"]\ndream = ["{dream_top}"]\ndream_offer = ["{offered}"]\n'
        f'conflict = ["{conflict}"]\n',
    )
    state = load_text(text)
    red = state.players[0]
    assert red.hand == (BASIC_COMBAT, hand) and red.dreams == (dream,)
    slot = get_pack("base").matrix.rondel.index(upgrade.action)
    assert red.display[slot][-1] == upgrade.id
    assert state.decks.development[0] == top and state.decks.dream[0] == dream_top
    assert state.decks.dream_offer == (offered,) and state.decks.conflict[0] == conflict
    assert state.players[1].hand == (BASIC_COMBAT,)
    assert violations(state) == []


def test_deal_and_development_count():
    state = load_text(scenario(red="deal = 5\ndeal_dreams = 2", tail="[decks]\ndevelopment_count = 4\n"))
    assert len(state.players[0].hand) == 6 and len(state.players[0].dreams) == 2
    assert len(state.decks.development) == 4 and state.decks.development_discard
    assert violations(state) == []


def test_supply_and_forts_are_computed_and_checked():
    state = load_text(scenario(red="limbo = 3"))
    assert state.players[0].supply == FOLLOWERS - 2 - 3 and state.players[0].forts == 9
    assert state.players[0].shaper == "weeping-orchard"  # defaults to the Fortress
    assert "players[0] (red).supply: 12, but the board and Limbo leave 15" in problems(
        scenario(red="limbo = 3\nsupply = 12")
    )


def test_the_first_decision_offers_to_take_limbo_followers_back():
    with_limbo = load_text(scenario(red="limbo = 3"))
    assert with_limbo.decision.seat == 0
    assert {ReturnFromLimbo(count=1), ReturnFromLimbo(count=3)} <= set(with_limbo.decision.options)
    without = load_text(scenario())
    assert not any(isinstance(o, ReturnFromLimbo) for o in without.decision.options)


def test_turn_marker_from_the_active_player():
    state = load_text(scenario(tail='[game]\nfirst_player = "blue"\nturn_start = 4\nactive = "red"\n'))
    assert state.turn_pos == 5 and state.active == 0 and state.decision.seat == 0


def test_text_and_path_give_the_same_state(tmp_path: Path):
    text = scenario()
    path = tmp_path / "mine.toml"
    path.write_text(text)
    assert load_scenario(path) == load_text(text)
    assert load_scenario(str(path)) == load_text(text)


def test_a_store_started_from_a_scenario_saves_and_loads(tmp_path: Path):
    state, events = load_scenario_result(SAVES / "opening-2p.toml")
    assert [e.kind for e in events] == ["nightmares", "turn_begins"]
    store = Store(initial=StepResult(state=state, events=tuple(events)))
    store.dispatch(legal_actions(store.state)[0])
    path = save(store, tmp_path / "practice.nctui.json", "0123456789ab")
    loaded = load(path).store  # the scenario's position is the save's start
    assert loaded.state == store.state and loaded.initial.state == state
    assert loaded.actions() == store.actions() and load(path).game_id == "0123456789ab"


# ----------------------------------------------------------------------------------------------
# Broken scenarios: file, entry and field named, every problem at once


def test_broken_file_names_the_file(tmp_path: Path):
    path = tmp_path / "broken.toml"
    path.write_text(scenario(tail='[[areas]]\nid = "atlantis"\n'))
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert str(err.value).startswith("broken.toml: areas[2] (atlantis).id: 'atlantis' is not an area")
    assert err.value.file == "broken.toml"
    assert err.value.problems[0][:2] == ("areas[2] (atlantis)", "id")


def test_missing_file():
    with pytest.raises(ScenarioError, match=r"nowhere\.toml: \(file\): cannot read"):
        load_scenario("nowhere.toml")


@pytest.mark.parametrize(
    "name,red,blue,tail,expected",
    [
        ("unknown area", "", "", '[[areas]]\nid = "atlantis"\n', "areas[2] (atlantis).id: 'atlantis' is not an area"),
        (
            "area twice",
            "",
            "",
            '[[areas]]\nid = "ember-reach"\n',
            "areas[2] (ember-reach).id: ember-reach is listed twice",
        ),
        (
            "unknown colour",
            "",
            "",
            '[[areas]]\nid = "ash-nave"\nfollowers = { purple = 1 }\n',
            "areas[2] (ash-nave).followers: unknown colour 'purple'",
        ),
        (
            "too many in an area",
            "",
            "",
            '[[areas]]\nid = "ash-nave"\nfollowers = { red = 6 }\n',
            "areas[2] (ash-nave).followers: 6 red Followers",
        ),
        (
            "too many Shadows in an area",
            "",
            "",
            '[[areas]]\nid = "ash-nave"\nshadows = 4\n',
            "areas[2] (ash-nave).shadows: 4: an area holds 0-3 Shadows",
        ),
        (
            "too many Followers",
            "limbo = 19",
            "",
            "",
            "players[0] (red).supply: too many Followers: 2 on the board + 19",
        ),
        (
            "unknown card",
            'hand = ["no-such-card"]',
            "",
            "",
            "players[0] (red).hand: unknown Development card 'no-such-card'",
        ),
        (
            "two Basic Combat",
            f'hand = ["{BASIC_COMBAT}", "{BASIC_COMBAT}"]',
            "",
            "",
            "players[0] (red).hand: a player has one",
        ),
        ("not a Night space", "", "", "", None),
        ("unknown field", "favourite = 3", "", "", "players[0].favourite: unknown field"),
        ("wrong type", 'limbo = "many"', "", "", "players[0].limbo: Expected `int`, got `str`"),
        (
            "fortress without fort",
            "",
            "",
            '[[areas]]\nid = "ash-nave"\nfortress = true\n',
            "areas[2] (ash-nave).fortress: a Fortress stands on its owner's Fort",
        ),
        (
            "fort levels",
            "",
            "",
            '[[areas]]\nid = "ash-nave"\nfort = "red"\nlevels = 4\n',
            "areas[2] (ash-nave).levels: 4: a Fort has 1-3 levels",
        ),
        ("unknown seat", "", "", '[[areas]]\nid = "ash-nave"\nfort = 7\n', "areas[2] (ash-nave).fort: 7 is no seat"),
        ("unsupported decision", "", "", '[decision]\nkind = "conquer"\n', "decision.kind: 'conquer' has no shorthand"),
        ("react without a day", "", "", '[decision]\nkind = "react"\n', "decision.day: ''"),
        (
            "active disagrees",
            "",
            "",
            '[game]\nturn_position = 1\nactive = "red"\n',
            "game.active: the Turn marker at position 1 makes blue the active player, not red",
        ),
        ("time off the track", "", "", "[game]\ntime = 4\n", "game.time: 4"),
        ("stage 3", "", "", "[game]\nstage = 3\n", "game.stage: 3: the game is in Stage 1 or 2"),
        (
            "nightmares in stage 1",
            "",
            "",
            '[game]\nnightmare_at = ["cathedral", ""]\n',
            "game.stage: Nightmares on the board",
        ),
        ("syntax", "", "", "[game\n", "(syntax)"),
    ],
)
def test_broken_scenarios_name_entry_and_field(name, red, blue, tail, expected):
    text = scenario(red=red, blue=blue, tail=tail)
    if name == "not a Night space":
        text = text.replace('dreamer = "vigil"', 'dreamer = "noon"')
        expected = "players[1] (blue).dreamer: 'noon' is not a Night space"
    message = problems(text)
    assert message.startswith("<scenario>: ")
    assert expected in message, message


def test_card_in_two_places():
    card = dev_ids(stage=1, players=2)[0]
    message = problems(scenario(red=f'hand = ["{card}"]', blue=f'hand = ["{card}"]'))
    assert f"players[1] (blue).hand: card '{card}' is also in players[0] (red).hand" in message


def test_cards_out_of_play_say_why():
    stage2 = [d.id for d in cards().dreams if d.stage == 2]
    dream = next(d.id for d in cards().dreams if d.stage == 1)
    message = problems(scenario(red=f'hand = ["{dream}"]\ndreams = {stage2[:1]!r}'.replace("'", '"')))
    assert f"'{dream}' is a Dream card, not a Development card" in message
    if stage2:
        assert f"card '{stage2[0]}' is a Stage 2 card" in message
    four = dev_ids(stage=1, players=4)
    if four:
        assert f"card '{four[0]}' is not used with 2 players" in problems(scenario(red=f'hand = ["{four[0]}"]'))
    assert "is the Basic Combat card" in problems(scenario(tail=f'[decks]\ndevelopment = ["{BASIC_COMBAT}"]\n'))


def test_every_problem_is_reported_at_once():
    message = problems(
        scenario(
            red='limbo = 30\nhand = ["nope"]',
            tail='[[areas]]\nid = "atlantis"\n[[areas]]\nid = "ash-nave"\nshadows = 9\n',
        )
    )
    assert message.startswith("<scenario>: 4 problems:")
    for part in ("atlantis", "shadows: 9", "too many Followers", "unknown Development card 'nope'"):
        assert part in message


def test_seat_count_must_match():
    message = problems(scenario(tail='[[players]]\ndreamer = "dusk"\n'))
    assert "players: 2 seats need 2 [[players]] entries, found 3" in message


def test_colour_must_match_the_seat():
    message = problems(scenario(red='colour = "blue"'))
    assert "colour" in message


def test_three_player_covered_area():
    covered = next(a.id for sm in get_pack("base").sides for a in sm.side.areas if a.four_players_only)
    text = f"""
[config]
players = 3
[[areas]]
id = "{covered}"
[[players]]
dreamer = "dusk"
shaper = "thorn-abbey"
[[players]]
dreamer = "dusk"
shaper = "thorn-abbey"
[[players]]
dreamer = "dusk"
shaper = "thorn-abbey"
"""
    assert f"'{covered}' is covered in a 3-player game" in problems(text)


def test_no_hidden_card_is_duplicated_or_lost():
    state = load_scenario(SAVES / "late-game-4p.toml")
    d = state.decks
    dev = Counter(d.development + d.development_discard + d.development2 + d.removed)
    for p in state.players:
        dev.update(p.hand)
        dev.update(c for stack in p.display for c in stack[1:])
    assert dev[BASIC_COMBAT] == 4 and max(v for k, v in dev.items() if k != BASIC_COMBAT) == 1
    assert len(d.development) == 3


def test_the_example_in_the_docs_loads():
    text = (Path(__file__).resolve().parent.parent / "docs" / "scenarios.md").read_text()
    toml = text.split("## A complete example")[1].split("```toml")[1].split("```")[0]
    state = load_scenario(toml)
    assert state.active == 1 and present(state.decision).kind == "choose_day"
    assert violations(state) == []


# ----------------------------------------------------------------------------------------------
# Files that are no scenario at all: one ScenarioError naming the file, never a hang or a traceback


def _deep_array(n: int) -> str:
    return "[config]\nplayers = 2\nx = " + "[" * n + "]" * n + "\n"


def _deep_table(n: int) -> str:
    return "x = " + "{a = " * n + "1" + "}" * n + "\n"


@pytest.mark.parametrize(
    "text, words",
    [
        (_deep_array(100_000), "(syntax): the file is nested more than"),
        ("x = " + "[" * 100_000, "(syntax): the file is nested more than"),
        (_deep_table(5_000), "(syntax): the file is nested more than"),
        (b"[config]\nplayers = 2\n# caf\xe9\n", "(syntax): not UTF-8 text (byte 26)"),
    ],
)
def test_deep_nesting_and_bad_bytes_are_one_scenario_error(tmp_path: Path, text, words):
    path = tmp_path / "deep.toml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    for source in (path, path.read_bytes()):
        with pytest.raises(ScenarioError) as err:
            in_time(lambda source=source: load_scenario(source))
        assert words in str(err.value) and "\n" not in str(err.value)
    assert str(err.value).startswith("<scenario>: ")
    with pytest.raises(ScenarioError, match=r"^deep\.toml: "):
        load_scenario(path)


def _fifo(path: Path) -> Path:
    import os

    os.mkfifo(path)
    return path


def _huge(path: Path) -> Path:
    from nctui.games.nightmare_cathedral.scenarios import MAX_BYTES

    with open(path, "wb") as f:
        f.truncate(MAX_BYTES + 1)
    return path


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: Path("/dev/zero"), "zero: (file): is not a regular file"),
        (lambda p: Path("/dev/urandom"), "urandom: (file): is not a regular file"),
        (_fifo, "special.toml: (file): is not a regular file"),
        (lambda p: (p.symlink_to("/dev/zero"), p)[1], "special.toml: (file): is not a regular file"),
        (lambda p: (p.mkdir(), p)[1], "special.toml: (file): is a folder, not a file"),
        (_huge, "special.toml: (file): is 1048577 bytes, far too large"),
    ],
    ids=["dev-zero", "dev-urandom", "fifo", "symlink-to-dev-zero", "folder", "huge"],
)
def test_special_files_are_refused_without_reading_them(tmp_path: Path, make, words):
    path = make(tmp_path / "special.toml")
    with pytest.raises(ScenarioError) as err:
        in_time(lambda: load_scenario(path))
    assert str(err.value) == words or str(err.value).startswith(words), str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    "tail, expected",
    [
        ("[game]\nturn_number = 1000000000000\n", "game.turn_number: 1000000000000: far beyond any game"),
        ("[game]\nturn_number = 99999999999999999999999\n", "far beyond any game"),
        ("[game]\ntime = 1000000000000\n", "game.time: 1000000000000"),
        ("[game]\ntime = -1000000000000\n", "game.time: -1000000000000"),
    ],
)
def test_huge_numbers_are_refused_at_once(tail, expected):
    """``play --scenario`` with ``turn_number = 1000000000000`` (or a huge ``time``) hung, ~10 s
    per million: the turns each player took were counted one by one (issue 41, item 8)."""
    message = in_time(lambda: problems(scenario(tail=tail)), wait=10.0)
    assert expected in message, message


def test_the_turns_taken_are_counted_by_whole_rounds():
    state = load_text(scenario(tail="[game]\nturn_number = 9001\n"))
    assert state.turn_number == 9001
    taken = [p.turns for p in state.players]
    assert sum(taken) == 9000 and max(taken) - min(taken) <= 1
