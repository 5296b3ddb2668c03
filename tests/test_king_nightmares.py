"""The King commands Nightmares (solo rulebook: COMMANDING NIGHTMARES, DEVOURING UNITS)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.engine import board, events as E, king_nightmares as kn
from nctui.games.nightmare_cathedral.engine.events import Event
from nctui.games.nightmare_cathedral.engine.nightmares import location
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.work import KingCommand, KingCommandResume
from tests import helpers as H
from tests.helpers import of_kind, present
from tests.test_king_conflict import shape
from tests.test_solo_setup import solo_setup

SHADOWS = board.SHADOWS_SIDE


def stage2(state, numbers=(1, 2), at=None, marker=1):
    at = at or (state.areas[0].id, state.areas[0].id)
    state = replace(state, stage=2, nightmares=numbers, nightmare_at=at)
    return replace(state, king=replace(state.king, nightmare_marker=marker))


def card(state, n):
    return kn.king_card(state, n)


@pytest.fixture
def state():
    return solo_setup()


def test_commands_the_nightmare_without_the_marker_then_moves_the_marker(state):
    s = stage2(state, numbers=(4, 6), marker=1)
    ev: list[Event] = []
    s = kn.king_command_nightmare(s, KingCommand(), ev)
    assert (1, 4) in s.commanded and present(s.king).nightmare_marker == 0
    assert any(e.number == 4 for e in of_kind(ev, E.KingCommandsNightmare))
    assert s.commanding == 0 and s.visited == ()
    s = kn.king_command_nightmare(s, KingCommand(), ev)  # now the other one
    assert (1, 6) in s.commanded and present(s.king).nightmare_marker == 1
    ev = []
    assert kn.king_command_nightmare(s, KingCommand(), ev) == s and ev[-1].kind == "king_nightmare_skipped"


def test_stage_1_commands_nothing(state):
    assert kn.king_command_nightmare(state, KingCommand(), []) == state


def test_resolves_times_and_never_revisits_areas(state):
    start = state.areas[0].id
    s = stage2(shape(state, start), numbers=(6, 8), at=(start, start), marker=0)  # commands 8: anywhere, 2x
    ev: list[Event] = []
    s = kn.king_command_nightmare(s, KingCommand(), ev)
    moves = [e.to for e in of_kind(ev, E.NightmareMoves)]
    assert len(moves) == card(s, 8).times and len(set(moves + [start])) == len(moves) + 1
    assert location(s, 8) == moves[-1]


def test_easier_resolves_one_fewer_time(state):
    start = state.areas[0].id
    s = stage2(shape(state, start), numbers=(6, 8), at=(start, start), marker=0)
    s = replace(s, config=replace(s.config, difficulty=("easier_nightmare",)))
    ev: list[Event] = []
    kn.king_command_nightmare(s, KingCommand(), ev)
    assert len([e for e in ev if e.kind == "nightmare_moves"]) == card(s, 8).times - 1


def test_no_matching_area_moves_at_random_and_fails(state):
    start = state.areas[0].id
    s = stage2(shape(state, start), numbers=(4, 2), at=(start, start), marker=1)  # 4: toward Shadows, none
    shadows = s.shadows
    ev: list[Event] = []
    s = kn.king_command_nightmare(s, KingCommand(), ev)
    assert [e.kind for e in ev].count("king_nightmare_failure") == card(s, 4).times
    assert s.shadows == shadows - card(s, 4).times  # Failure: add 1 Shadow in its area each time


def test_devour_preferences(state):
    a = state.areas[0].id
    s = shape(state, a, you=1, king=1, shadows=1)
    assert kn.devour_choice(s, a, "any") == 1  # no more devoured than you: its own
    s = set_player(s, replace(s.players[1], devoured=2))
    s = replace(s, devoured_shadows=3)
    assert kn.devour_choice(s, a, "any") == 1  # no more than the Shadows devoured
    s = replace(s, devoured_shadows=0)
    assert kn.devour_choice(s, a, "any") == SHADOWS
    s2 = shape(s, a, you=1, king=1)
    assert kn.devour_choice(s2, a, "any") == 0  # Shadows before your Followers, then its own
    assert kn.devour_choice(s2, a, "shadows") is None and kn.devour_choice(s2, a, "own") == 1


def test_effect_devours_in_the_nightmares_area(state):
    start = state.areas[0].id
    nxt = board.adjacent(state, start)[0]
    s = shape(state, nxt, you=2)
    s = stage2(s, numbers=(2, 6), at=(start, start), marker=1)  # 2: the adjacent area with most units
    ev: list[Event] = []
    s = kn.king_command_nightmare(s, KingCommand(), ev)
    assert location(s, 2) == nxt and board.area(s, nxt).followers[0] == 0 and s.players[0].devoured == 2


def test_a_conflict_in_the_command_waits_for_your_cards_then_resumes(state):
    from nctui.games.nightmare_cathedral.engine.actions import PlayCombatCard
    from nctui.games.nightmare_cathedral.engine.flow import apply
    from nctui.games.nightmare_cathedral.engine.state import BASIC_COMBAT

    start = state.areas[0].id
    nxt = board.adjacent(state, start)[0]
    s = shape(state, nxt, you=2, king=2, king_hand=("king-basic-combat", "king-shield"))
    s = stage2(s, numbers=(7, 6), at=(start, start), marker=1)  # 7: conflict then devour, 2x
    s = H.push_effect(replace(s, work=None, frames=()), 0, (), "day", then="day_done")
    s = H.resolve(kn.king_command_nightmare(s, KingCommand(), []))
    assert s.commanding == 7 and present(s.decision).seat == 0 and present(s.decision).kind == "play_combat_card"
    assert H.fight(s).revealed  # nobody controls the area and you are active: you see its cards first
    s = apply(s, PlayCombatCard(card=BASIC_COMBAT))
    while s.commanding:
        s = apply(s, present(s.decision).options[-1])
    assert ((1, 7) in s.commanded and s.frames == ()) or not any(
        isinstance(f.then, KingCommandResume) for f in s.frames
    )
