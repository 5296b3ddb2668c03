"""Conflicts involving the King (solo rulebook: RESOLVING CONFLICTS AGAINST THE KING, MANEUVER)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.engine import (
    board,
    conflict,
    events as E,
    king_combat as kc,
    king_conflicts as kcs,
    work as W,
)
from nctui.games.nightmare_cathedral.engine.actions import DiscardDevelopment, Done, PlayCombatCard, StartConflict
from nctui.games.nightmare_cathedral.engine.errors import IllegalAction
from nctui.games.nightmare_cathedral.engine.events import Event
from nctui.games.nightmare_cathedral.engine.flow import apply, legal_actions
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.state import BASIC_COMBAT
from nctui.games.nightmare_cathedral.engine.work import KingConflicts
from tests import helpers as H
from tests.helpers import empty_areas, narrow, of_kind, present
from tests.test_solo_setup import solo_setup

SHADOWS = board.SHADOWS_SIDE


def shape(state, area_id, you=0, king=0, shadows=0, fort=-1, hand=(BASIC_COMBAT,), king_hand=("king-basic-combat",)):
    """Empty the board, then put units in one area; give both sides their hands."""
    areas = empty_areas(state)
    state = replace(state, areas=areas)
    a = board.area(state, area_id)
    state = replace(
        state,
        areas=board.replace_area(
            state,
            replace(a, followers=(you, king), shadows=shadows, fort_owner=fort, fort_levels=1 if fort >= 0 else 0),
        ),
    )
    state = set_player(state, replace(state.players[0], hand=hand))
    return replace(state, king=replace(state.king, hand=king_hand))


def start(state, area_id, sides=(0, 1)):
    state = H.push_effect(
        replace(state, work=None, frames=()), 0, (cs.ResolveConflicts(count=1),), "day", then="day_done"
    )
    state = H.resolve(state, [])
    return apply(state, StartConflict(area=area_id, sides=sides))


@pytest.fixture
def state():
    return solo_setup()


def area0(state):
    return state.areas[0].id


def test_you_control_the_area_you_see_the_kings_cards_first(state):
    a = area0(state)
    s = start(shape(state, a, you=2, king=1), a)
    assert s.work.fight.revealed and s.work.fight.plays[1] == ("king-basic-combat",) and s.king.hand == ()
    assert s.decision.seat == 0 and PlayCombatCard(card=BASIC_COMBAT) in legal_actions(s)


def test_king_controls_you_play_before_its_cards_are_revealed(state):
    a = area0(state)
    s = start(shape(state, a, you=1, king=2, king_hand=("king-basic-combat", "king-shield", "x")), a)
    assert not s.work.fight.revealed and len(s.work.fight.plays[1]) == 2 and len(s.king.hand) == 1
    assert s.decision.seat == 0


def test_king_retreats_by_itself_and_takes_its_card_back(state):
    a = area0(state)
    s = start(shape(state, a, you=3, king=1, king_hand=("king-basic-combat",)), a)
    ev_before = len(s.events) if hasattr(s, "events") else 0
    s = apply(s, PlayCombatCard(card=BASIC_COMBAT))
    assert board.area(s, a).followers[1] == 0 and s.players[1].limbo == 0
    assert present(s.king).hand == ("king-basic-combat",) and BASIC_COMBAT in s.players[0].hand
    assert present(s.decision).seat == 0 and present(s.decision).kind != "retreat" and ev_before >= 0


def test_king_retreats_where_it_has_fewest_followers(state):
    a = area0(state)
    s = shape(state, a, king=1)
    options = board.adjacent(s, a)[:2]
    b = board.area(s, options[0])
    s = replace(s, areas=board.replace_area(s, replace(b, followers=(0, 2))))
    s = kc.king_retreat(s, 1, a, options, [])
    assert board.area(s, options[1]).followers[1] == 1 and board.area(s, options[0]).followers[1] == 2


def test_kings_eliminated_followers_go_to_its_supply(state):
    a = area0(state)
    s = shape(state, a, king=2)
    supply = s.players[1].supply
    s = conflict.take_damage(s, a, 1, 1, [])
    assert board.area(s, a).followers[1] == 1 and s.players[1].supply == supply + 1 and s.players[1].limbo == 0
    s = shape(state, a, you=2)
    s = conflict.take_damage(s, a, 0, 1, [])
    assert s.players[0].limbo == 1  # your Followers still go to Limbo


def test_shield_returning_lets_you_discard_to_climb(state):
    a = area0(state)
    s = start(shape(state, a, you=2, king=1, hand=(BASIC_COMBAT, "junk"), king_hand=("king-shield",)), a)
    s = apply(s, PlayCombatCard(card=BASIC_COMBAT))
    s = apply(s, Done())
    assert present(s.decision).kind == "king_shield_discard" and Done() in legal_actions(s)
    assert "king-shield" in present(s.king).hand and DiscardDevelopment(card=BASIC_COMBAT) not in legal_actions(s)
    with pytest.raises(IllegalAction, match="RESOLVING CONFLICTS AGAINST THE KING"):
        apply(s, DiscardDevelopment(card="nope"))
    s2 = apply(s, DiscardDevelopment(card="junk"))
    assert "junk" not in s2.players[0].hand and "junk" in s2.decks.development_discard
    assert present(s2.decision).kind == "climb" and present(s2.decision).seat == 0  # the usual Climb step, 1 free step
    with pytest.raises(IllegalAction, match="never discarded"):
        apply(s, DiscardDevelopment(card=BASIC_COMBAT))
    assert present(apply(s, Done()).decision).kind != "king_shield_discard"


def test_shadows_or_nobody_controlling_the_active_player_sees_first(state):
    a = area0(state)
    s = start(shape(state, a, you=1, king=1), a)
    assert s.active == 0 and s.work.fight.revealed
    s = replace(shape(state, a, you=1, king=1), active=1)
    s = start(s, a)
    assert not s.work.fight.revealed and s.decision.seat == 0


def test_desirability_and_the_easier_modifier(state):
    a = area0(state)
    s = shape(state, a, you=1, king=2, hand=(BASIC_COMBAT, "x"), king_hand=("k1",))
    assert kc.strength(s, a, 1) == 1 and kc.strength(s, a, 0) == 1
    assert kc.desirable(s, a, (0, 1))
    easy = replace(s, config=replace(s.config, difficulty=("easier_desirable",)))
    assert not kc.desirable(easy, a, (0, 1))
    s = shape(state, a, you=2, shadows=2, hand=(BASIC_COMBAT, "x", "y"))
    assert kc.desirable(s, a, (0, SHADOWS))
    s = shape(state, a, you=3, shadows=2, hand=(BASIC_COMBAT, "x", "y"))
    assert not kc.desirable(s, a, (0, SHADOWS))


def test_wanted_puts_conflicts_with_you_first(state):
    a = area0(state)
    s = shape(state, a, you=1, king=2, shadows=1, hand=(BASIC_COMBAT,), king_hand=("k1", "k2"))
    assert kcs.wanted(s, a)[0] == (0, 1)


def test_loop_with_nothing_possible_ends(state):
    a = area0(state)
    ev: list[Event] = []
    kcs.king_conflicts(shape(state, a, you=1), KingConflicts(), ev)
    assert ev[-1].kind == "king_conflicts_end" and narrow(ev[-1], E.KingConflictsEnd).resolved == 0


def test_loop_fights_a_desired_conflict_against_you(state):
    a = area0(state)
    s = shape(state, a, you=1, king=2, king_hand=("king-basic-combat", "king-shield"))
    s = H.push_effect(replace(s, work=None, frames=()), 0, (), "day", then="day_done")
    ev: list[Event] = []
    s = H.resolve(kcs.king_conflicts(s, KingConflicts(), ev), ev)
    assert any(e.area == a for e in of_kind(ev, E.KingConflictCard))
    assert present(s.decision).seat == 0 and not H.fight(s).revealed  # the King controls: you play first
    s = apply(s, PlayCombatCard(card=BASIC_COMBAT))
    while s.decision is not None and s.decision.kind in ("retreat", "king_shield_discard"):
        s = apply(s, legal_actions(s)[-1])
    assert s.frames == () or all(not isinstance(f.then, W.KingLoop) for f in s.frames)


def test_loop_win_against_the_shadows_puts_a_cultist_on_a_dream(state):
    a = area0(state)
    s = shape(state, a, king=2, shadows=1, fort=1, king_hand=("king-basic-combat", "king-shield"))
    s = H.push_effect(replace(s, work=None, frames=()), 0, (), "day", then="day_done")
    before = sum(present(s.king).dream_cultists) + len(present(s.king).completed)
    ev: list[Event] = []
    s = H.resolve(kcs.king_conflicts(s, KingConflicts(), ev), ev)
    kinds = [e.kind for e in ev]
    assert "conflict_won" in kinds and "king_victory_card" in kinds  # the Fort wins; a card instead of Victory
    assert (
        sum(present(s.king).dream_cultists) + len(present(s.king).completed) > before
        or "king_cultist_returned" in kinds
    )
    assert set(present(s.king).hand) >= {"king-basic-combat", "king-shield"} and kinds[-1] != "king_conflict_card"


def test_loop_draws_at_most_three_cards(state):
    s = replace(state, work=None, frames=())
    ids = [a.id for a in s.areas][:5]
    areas = tuple(
        replace(a, followers=(1, 0), shadows=0, fort_owner=-1, fort_levels=0, fortress=-1)
        if a.id in ids
        else replace(a, followers=(0, 0), shadows=0, fort_owner=-1, fort_levels=0, fortress=-1)
        for a in s.areas
    )
    s = replace(s, areas=areas)
    s = replace(s, areas=tuple(replace(a, shadows=0) for a in s.areas))
    for i in ids:  # you alone with a Shadow-free King presence: only undesirable conflicts with you
        b = board.area(s, i)
        s = replace(s, areas=board.replace_area(s, replace(b, followers=(1, 1))))
    s = set_player(s, replace(s.players[0], hand=(BASIC_COMBAT, "x", "y")))
    s = replace(s, king=replace(present(s.king), hand=()))  # strength 0 < yours: nothing desirable
    ev: list[Event] = []
    kcs.king_conflicts(s, KingConflicts(), ev)
    assert [e.kind for e in ev].count("king_conflict_card") == 3 and ev[-1].kind == "king_conflicts_end"


def _defeat_against_the_shadows(state, card, **more):
    """A King Maneuver conflict: 1 King Follower against 3 Shadows in one area, 3 King Followers
    in another; ``card`` on top of the Conflict deck."""
    a, b = area0(state), state.areas[1].id
    s = shape(state, a, king=1, shadows=3, king_hand=("king-basic-combat",))
    other = board.area(s, b)
    s = replace(s, areas=board.replace_area(s, replace(other, followers=(0, 3), **more)))
    deck = (card,) + tuple(c for c in s.decks.conflict if c != card)
    s = replace(s, decks=replace(s.decks, conflict=deck), active=1)
    s = H.push_effect(replace(s, work=None, frames=()), 1, (), "day", then="day_done")
    ev: list[Event] = []
    s = H.resolve(conflict.begin(s, W.ConflictWork(seat=1, left=1), a, (1, SHADOWS), ev), ev)
    return s, a, b, [e.kind for e in ev]


def test_the_kings_defeat_against_the_shadows_is_resolved(state):
    """CONFLICTS 11: "resolve Victory if the player won, otherwise resolve Defeat"; the King
    removes by REMOVING FOLLOWERS (Teeth in the Dark: remove 1 of your Followers)."""
    s, _, b, kinds = _defeat_against_the_shadows(state, "c1-teeth-in-the-dark")
    assert "conflict_defeat" in kinds and "king_removes" in kinds
    assert board.area(s, b).followers[1] == 2  # the area of its 3 Followers loses one


def test_the_kings_defeat_adds_shadows_by_the_area_selection_cards(state):
    s, a, _, kinds = _defeat_against_the_shadows(state, "c1-grasping-fog")  # Add 1 Shadow to any area
    before = sum(x.shadows for x in shape(state, a, shadows=3).areas)
    assert "conflict_defeat" in kinds and "add_shadow" in kinds
    assert sum(x.shadows for x in s.areas) == before + 1
