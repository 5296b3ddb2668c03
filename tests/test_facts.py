"""engine.facts: what the rules say about a view, as plain data the UI draws. The facts agree
with the rule modules, travel through msgspec unchanged, and never hold a card the viewer may
not know."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.engine import board, dreams, new_game, player_view, scoring, units
from nctui.games.nightmare_cathedral.engine.facts import NO_SIDE, SHADOWS_SIDE, Facts, facts
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.views import SPECTATOR
from tests.helpers import config, empty_areas, play, through_setup
from tests.test_secrecy import CONFIGS, _card_ids, _play, known

ASH, BELL, EMBER = "ash-nave", "bell-hollow", "ember-reach"  # areas of the 2-player side
FIRST_RUNG = "dr1-first-rung"  # own turn: a Ritual marker on space 8
HOST = "dr1-host-of-sleepers"  # own turn: 12 Followers on the board


def blank():
    """The first turn of a 2-player game with nothing on the board and no Dreams in hand."""
    state = through_setup(new_game(config(2, 0)).state)
    players = tuple(replace(p, dreams=(), ritual=(0, 0), ritual_best=(0, 0)) for p in state.players)
    return replace(state, areas=empty_areas(state), players=players)


def test_each_area_has_its_controller_neighbours_and_cathedral_side():
    state = blank()
    me, other = state.active, 1 - state.active
    state = units.place(units.place(state, me, ASH, 2), other, ASH, 1)
    state = units.place(units.place(state, me, BELL, 1), other, BELL, 1)
    known = facts(player_view(state, other))
    assert known.area(ASH).controller == me and known.area(BELL).controller == NO_SIDE
    assert known.area(EMBER).controller == SHADOWS_SIDE  # empty: the Shadows control it
    assert [a.id for a in known.areas] == [a.id for a in state.areas]
    for area in known.areas:
        assert area.controller == board.controller(board.area(state, area.id))
        assert area.neighbours == board.adjacent(state, area.id)
        assert area.by_cathedral == board.adjacent_to_cathedral(state, area.id)


def test_the_running_score_is_the_rules_score_and_the_final_one_once_over():
    for seed in (1, 2):
        state, _ = play(2, seed)
        assert state.outcome is not None
        assert facts(player_view(state, 0)).scores == state.outcome.scores
    state = through_setup(new_game(config(2, 3)).state)
    state = units.place(state, 0, ASH, 2)
    for seat in (0, 1, SPECTATOR):
        known_now = facts(player_view(state, seat))
        assert known_now.scores == scoring.scores(state)
        assert known_now.ritual_vp == tuple(s.ritual for s in scoring.scores(state))
        assert known_now.devoured_vp == scoring.devoured_vp(state)


def test_the_viewers_dreams_with_their_conditions_met_and_no_one_elses():
    state = blank()
    me = state.active
    mine = replace(state.players[me], dreams=(FIRST_RUNG, HOST), ritual=(8, 0), ritual_best=(8, 0))
    state = set_player(state, mine)
    assert dreams.conditions_met(state, me, FIRST_RUNG) and not dreams.conditions_met(state, me, HOST)
    assert facts(player_view(state, me)).dreams_met == {FIRST_RUNG}
    assert facts(player_view(state, 1 - me)).dreams_met == frozenset()  # they are hidden from the other seat
    assert facts(player_view(state, SPECTATOR)).dreams_met == frozenset()


def _strings(value: object) -> set[str]:
    """Every string in decoded JSON (dict keys included)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | {s for v in value.values() for s in _strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in _strings(v)}
    return set()


@pytest.mark.parametrize("config_", [CONFIGS[0], CONFIGS[2], CONFIGS[5]], ids=lambda c: f"{c.players}p-{c.seed}")
def test_facts_travel_through_msgspec_and_hold_no_card_the_viewer_may_not_know(config_):
    ids = _card_ids(config_.pack)
    checked = 0
    for _, _, after, _ in _play(config_):
        for seat in (*range(config_.seat_count), SPECTATOR):
            known_facts = facts(player_view(after, seat))
            encoded = msgspec.json.encode(known_facts)
            assert msgspec.json.decode(encoded, type=Facts) == known_facts
            cards = _strings(msgspec.json.decode(encoded)) & ids
            assert not cards - known(after, seat if seat != SPECTATOR else -99), (checked, seat)
            checked += 1
    assert checked > 100
