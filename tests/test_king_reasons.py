"""The King's turn panel says why the King did each step (issue 12): the solo rule, or the card
or die that made it (``describe.king_reasons``)."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.describe import king_reasons, words_for
from nctui.games.nightmare_cathedral.describe.king_reasons import _FIXED, GENERIC
from nctui.games.nightmare_cathedral.engine import events as E, new_game
from nctui.games.nightmare_cathedral.engine.flow import legal_actions, step
from nctui.games.nightmare_cathedral.ui.screens.king_turn import king_steps
from tests.test_solo_setup import SOLO

# the kinds whose reason depends on their fields or on the events before them
READ_IN_CONTEXT = {
    "king_action",
    "king_horror_die",
    "king_area_card",
    "king_climbs",
    "king_tucks",
    "king_cultist_on_dream",
}


def test_every_king_event_kind_has_a_reason():
    tags = {str(t.__struct_config__.tag) for t in E.EVENT_TYPES if str(t.__struct_config__.tag).startswith("king_")}
    assert tags - set(_FIXED) == READ_IN_CONTEXT
    assert not set(_FIXED) - tags  # no reason for a kind that no longer exists


def test_even_power_comes_down_by_the_rule_and_the_cultist_goes_on_a_dream():
    w = words_for(SOLO.pack)
    events = [
        E.KingHorrorDie(seat=1, value=3),
        E.KingDreamerMoves(seat=1, roll=3, counted=(), to="summon"),
        E.KingPower(seat=1, moved=2, action="summon", power=2),
        E.KingCultistOnDream(seat=1, card="x", cultists=1, vp=3, why="power"),
        E.KingAction(seat=1, action="summon", power=1),
    ]
    die, _, _, dream, action = king_reasons(events, w)
    assert "Dreamer" in die and "KING'S TURN 1" in die
    assert "KING'S TURN 3" in dream
    assert action.startswith("Power 2 → 1: the rule for even Power")


def test_a_cultist_on_a_dream_says_whether_a_conform_or_a_conflict_put_it_there():
    w = words_for(SOLO.pack)
    conform = [
        E.KingConforms(seat=1, action="develop"),
        E.KingCultistOnDream(seat=1, card="x", cultists=1, vp=3, why="conform"),
    ]
    assert "CONFORMS" in king_reasons(conform, w)[1]
    won = [
        E.KingAction(seat=1, action="maneuver", power=3),
        E.KingCultistOnDream(seat=1, card="x", cultists=1, vp=3, why="marked"),
        E.KingConflictCard(seat=1, area="a"),
        E.KingCultistOnDream(seat=1, card="x", cultists=2, vp=3, why="conflict"),
    ]
    _, marked, _, after_conflict = king_reasons(won, w)
    assert "Marked Area" in marked and "conflict the King won" in after_conflict
    # a game saved before the cause was recorded: read from the step it belongs to
    old = [E.KingConforms(seat=1, action="develop"), E.KingCultistOnDream(seat=1, card="x", cultists=1, vp=3)]
    assert "CONFORMS" in king_reasons(old, w)[1]


def test_an_area_selection_card_says_what_it_was_drawn_for():
    w = words_for(SOLO.pack)
    (why,) = king_reasons([E.KingAreaCard(seat=1, area="a", purpose="fort")], w)
    assert "FORTIFY" in why and "random" in why


@pytest.mark.parametrize("seed", [1, 2])
def test_every_king_step_of_seeded_solo_games_has_its_reason(seed):
    res = new_game(replace(SOLO, seed=seed))
    state, r = res.state, random.Random(seed)
    events = list(res.events)
    for _ in range(1500):
        if state.outcome is not None:
            break
        res = step(state, r.choice(legal_actions(state)))
        state = res.state
        events += res.events
    steps = king_steps(events, state)
    king = [s for s in steps if s.kind.startswith("king_")]
    assert len({s.kind for s in king}) >= 12  # the games went through many kinds of King steps
    assert all(s.why and s.why != GENERIC for s in king), [s.kind for s in king if s.why in ("", GENERIC)]
    assert not any(s.why for s in steps if not s.kind.startswith("king_"))
