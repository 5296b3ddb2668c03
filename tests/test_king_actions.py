"""The King of Horrors' five actions (solo rulebook: REMOVING FOLLOWERS, PERFORM RITUAL, SUMMON,
FORTIFY, MANEUVER, DEVELOP, the King's Unit Limit)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.engine import (
    board,
    events as E,
    king as kg,
    king_actions as ka,
    king_nightmares as kn,
    units,
    work as W,
)
from nctui.games.nightmare_cathedral.engine.events import Event
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.table import CONTINUATIONS
from tests.helpers import narrow, of_kind, present
from tests.test_solo_setup import solo_setup

K = 1  # the King's seat
# after solo_setup: the King holds salt-spire (2 Followers, Fortress, 1 level) and mirror-dunes (2)


@pytest.fixture
def state():
    return solo_setup()


def shape(state, **areas):
    """Set fields of areas: shape(s, salt_spire=dict(followers=(0, 3)))."""
    for key, kw in areas.items():
        a = board.area(state, key.replace("_", "-"))
        state = replace(state, areas=board.replace_area(state, replace(a, **kw)))
    return state


def king_pl(state, **kw):
    return set_player(state, replace(state.players[K], **kw))


def die(monkeypatch, value):
    monkeypatch.setattr(kg, "roll_horror_die", lambda s, ev: (value, s))


def f(state, area):
    return board.area(state, area).followers


def kinds(ev):
    return [e.kind for e in ev]


# --- REMOVING FOLLOWERS


def test_removal_prefers_more_followers_plus_forts_and_keeps_the_last_in_each_area(state):
    ev: list[Event] = []
    s = kg.remove_followers(state, 3, ev)
    assert f(s, "salt-spire")[K] == 1 and f(s, "mirror-dunes")[K] == 1  # 2+1 first, then the other
    assert s.players[K].supply == state.players[K].supply + 2
    assert kinds(ev)[-1] == "king_keeps_last" and narrow(ev[-1], E.KingKeepsLast).count == 1


def test_removal_prefers_more_followers_than_fort_levels(state):
    s = shape(state, salt_spire=dict(followers=(0, 2), fort_levels=3))
    area, _ = kg.removal_area(s, [])
    assert area == "mirror-dunes"  # 2 > 0 levels beats 2 <= 3 levels despite 5 combined


def test_removal_tie_goes_to_the_fortress(state):
    s = shape(state, mirror_dunes=dict(followers=(0, 3)))  # 3 vs 2+1: tied
    assert kg.removal_area(s, [])[0] == "salt-spire"


# --- PERFORM RITUAL


def test_ritual_climbs_higher_marker_and_produces_on_special_space(state, monkeypatch):
    die(monkeypatch, 4)  # Power 3 climbs the higher marker on a 4
    s = king_pl(state, ritual=(1, 5), ritual_best=(1, 5))
    ev: list[Event] = []
    s = ka.perform_king_action(s, "ritual", 3, ev)  # remove 1; 3 steps: 6, 7, 8 (special)
    assert s.players[K].ritual == (1, 8) and s.players[K].ritual_best == (1, 8)
    assert f(s, "salt-spire")[K] + f(s, "mirror-dunes")[K] == 4 - 1 + 2


def test_ritual_low_roll_climbs_the_lower_marker(state, monkeypatch):
    die(monkeypatch, 2)
    s = king_pl(state, ritual=(10, 3), ritual_best=(10, 3))
    s = ka.perform_king_action(s, "ritual", 5, [])
    assert s.players[K].ritual == (10, 8)


def test_ritual_only_space_adds_a_cultist_to_each_dream(state, monkeypatch):
    die(monkeypatch, 4)
    s = king_pl(state, ritual=(11, 0))
    s = ka.perform_king_action(s, "ritual", 1, [])
    assert s.players[K].ritual == (12, 0) and present(s.king).dream_cultists == (1, 1)


def stubbed(monkeypatch, then: type) -> None:
    """The continuation ``then`` does nothing: the test looks at what comes before it."""
    monkeypatch.setitem(CONTINUATIONS, then, lambda s, then, ev: s)


def test_ritual_stops_at_the_top_and_commands_in_stage_2(state, monkeypatch):
    die(monkeypatch, 4)
    stubbed(monkeypatch, W.KingCommand)
    top = len(board.pack(state).tracks.ritual)
    s = replace(king_pl(state, ritual=(top - 1, 0)), stage=2)
    s = ka.perform_king_action(s, "ritual", 5, [])
    # the command waits in a frame above the King's turn (it may need your combat cards)
    assert s.players[K].ritual == (top, 0) and [f.then for f in s.frames][-1:] == [W.KingCommand()]


@pytest.mark.parametrize("power, stated, easier", [(3, 3, 2), (5, 5, 4), (1, 1, 1)])
def test_easier_ritual_climbs_2_or_4_instead_of_3_or_5(state, monkeypatch, power, stated, easier):
    """DIFFICULTY MODIFIERS (easier): "a max of 2 or 4 spaces ..., instead of the stated 3 or 5"."""
    die(monkeypatch, 2)  # the lower marker climbs
    s = king_pl(state, ritual=(20, 2), ritual_best=(20, 2))
    normal = ka.perform_king_action(s, "ritual", power, [])
    ev: list[Event] = []
    easy = ka.perform_king_action(
        replace(s, config=replace(s.config, difficulty=("easier_ritual",))), "ritual", power, ev
    )
    assert normal.players[K].ritual[1] == 2 + stated and easy.players[K].ritual[1] == 2 + easier
    assert [e.steps for e in of_kind(ev, E.KingRitual)] == [easier]


def test_a_cathedral_piece_climb_onto_a_special_space_gives_the_kings_bonus(state):
    """Its Ritual bonuses apply wherever it reaches a special space, not only in its Ritual action."""
    s = king_pl(state, ritual=(7, 20), ritual_best=(7, 20))  # the lower marker enters space 8 (special)
    s = kg.king_climbs(s, "piece", [], steps=1)
    assert s.players[K].ritual == (8, 20) and s.frames[-1].then == W.KingRitualBonuses(kinds=("special",))
    before = f(s, "salt-spire")[K] + f(s, "mirror-dunes")[K]
    s = ka.ritual_bonuses(replace(s, frames=s.frames[:-1]), s.frames[-1].then, [])
    assert f(s, "salt-spire")[K] + f(s, "mirror-dunes")[K] == before + 2  # Stage 1: its areas produce 1


def test_a_nightmare_climb_onto_a_special_space_commands_no_other_nightmare(state):
    """ "If the King reaches a [special] space due to ... a Nightmare ability, it does not command
    another Nightmare"."""
    s = replace(king_pl(state, ritual=(7, 20), ritual_best=(7, 20)), stage=2)
    s = kg.king_climbs(s, "nightmare", [], steps=1)
    then = s.frames[-1].then
    assert then == W.KingRitualBonuses(kinds=("special",), command=False)
    frames = s.frames[:-1]
    s = ka.ritual_bonuses(replace(s, frames=frames), then, [])
    assert s.frames == frames  # no command pushed
    assert (
        ka.ritual_bonuses(replace(s, frames=frames), W.KingRitualBonuses(kinds=("special",)), []).frames[-1].then
        == W.KingCommand()
    )  # a Cathedral piece's climb in Stage 2 commands


# --- SUMMON


def test_summon_power_3_produces_where_it_controls_then_in_the_marked_areas(state):
    """Our Power 3 row (content, docs/balance.md step 3): 1 in every area it controls, then every
    Marked Area for its controller; Power 5 adds 1 where it has a Fort."""
    s = replace(state, turn_pos=4)  # "key": salt-spire (King, its Fort) and lantern-fen (you)
    s3, s5 = (ka.perform_king_action(s, "summon", power, []) for power in (3, 5))
    assert f(s3, "lantern-fen") == (3, 0) and f(s3, "mirror-dunes")[K] == 3
    assert sum(a.followers[K] for a in s3.areas) == 4 + 2 + 1  # salt-spire and mirror-dunes, then marked
    assert sum(a.followers[K] for a in s5.areas) == 4 + 2 + 1 + 1  # and the Fort's extra


def test_summon_overflow_goes_to_an_adjacent_area_it_does_not_control(state):
    s = shape(state, mirror_dunes=dict(followers=(0, 3)))
    ev: list[Event] = []
    s = ka.perform_king_action(s, "summon", 1, ev)
    assert f(s, "mirror-dunes")[K] == 3
    over = [e.area for e in of_kind(ev, E.KingProduces) if e.overflow_from == "mirror-dunes"]
    assert len(over) == 1 and over[0] in ("choir-of-teeth", "ember-reach", "moth-garden")


def stage_ii(state):
    """The Stage II space resolved (its piece built): Stage 2 cards are in the game, Stage 1 goes on."""
    piece = next(c.piece for c in board.pack(state).tracks.cathedral if "stage2" in c.icons)
    return replace(state, cathedral_built=state.cathedral_built + (piece,))


def test_stage_2_unit_limit_is_4_everywhere(state):
    """ "increased to 4 per area ... once Stage 2 cards are added to the game": from the Stage II
    space, before the Cathedral is complete."""
    s = stage_ii(shape(state, mirror_dunes=dict(followers=(0, 3)), salt_spire=dict(followers=(0, 3))))
    assert s.stage == 1 and board.stage2_cards_added(s)
    s = ka.perform_king_action(s, "summon", 1, [])
    assert f(s, "mirror-dunes")[K] == 4 and f(s, "salt-spire")[K] == 4


def test_before_the_stage_ii_space_the_king_unit_limit_is_3(state):
    s = shape(state, mirror_dunes=dict(followers=(0, 3)))
    assert units.room(s, K, "mirror-dunes") == 0 and ka.king_room(s, "mirror-dunes") == 0
    assert units.room(stage_ii(s), K, "mirror-dunes") == 1 == ka.king_room(stage_ii(s), "mirror-dunes")


def test_the_king_limit_of_4_holds_for_every_placement_not_only_its_summon(state):
    """Production into its areas and its retreats count the King's units with ``units.room``."""
    s = stage_ii(shape(state, mirror_dunes=dict(followers=(0, 3)), salt_spire=dict(followers=(0, 3))))
    assert all(units.room(s, K, a) == 1 for a in ("mirror-dunes", "salt-spire"))  # every area, not just one


def test_short_supply_produces_where_you_have_more_units(state):
    s = king_pl(shape(state, mirror_dunes=dict(followers=(1, 2))), supply=1)
    s = ka.perform_king_action(s, "summon", 1, [])
    assert f(s, "mirror-dunes")[K] == 3 and f(s, "salt-spire")[K] == 2


def test_summon_power_5_marked_areas_produce_for_their_controller(state):
    s = replace(state, turn_pos=4)  # "key": salt-spire (King) and lantern-fen (you)
    s = ka.perform_king_action(s, "summon", 5, [])
    assert f(s, "lantern-fen") == (3, 0)
    assert f(s, "salt-spire")[K] == 3  # 2 + 1 + 1 with a Fort, capped; then marked: overflow


# --- FORTIFY


def test_fortify_builds_in_fewest_levels_then_fewest_of_yours(state, monkeypatch):
    die(monkeypatch, 4)  # Power 1, die 4: remove 2, build 2
    s = shape(state, choir_of_teeth=dict(followers=(1, 3), shadows=0))
    ev: list[Event] = []
    s = ka.perform_king_action(s, "fortify", 1, ev)
    removed = [e.area for e in of_kind(ev, E.KingRemoves)]
    assert removed == ["salt-spire", "choir-of-teeth"]  # tie 3-3: the Fortress; then 3 > 2
    built = [e.area for e in of_kind(ev, E.KingFortLevel)]
    assert built == ["mirror-dunes", "choir-of-teeth"]  # 0 levels: fewer of yours; then fewest levels
    levels = {e.area: e.levels for e in of_kind(ev, E.KingFortLevel)}
    assert levels == {a: board.area(s, a).fort_levels for a in built} and all(n >= 1 for n in levels.values())
    assert kinds(ev).count("king_removes") == 2


def test_two_fort_levels_built_in_one_area_read_apart(state, monkeypatch):
    """The King's turn panel lists each step: the second level in the same area says so."""
    from nctui.games.nightmare_cathedral.describe import describe_event

    die(monkeypatch, 4)  # Power 1, die 4: remove 2, build 2
    only = next(a for a in ka.controlled(state))
    monkeypatch.setattr(ka, "controlled", lambda s: (only,))  # both levels go to the same area
    ev: list[Event] = []
    s = ka.perform_king_action(state, "fortify", 1, ev)
    built = of_kind(ev, E.KingFortLevel)
    assert [e.area for e in built] == [only, only]
    assert [e.levels for e in built] == [board.area(state, only).fort_levels + 1, board.area(s, only).fort_levels]
    first, second = (describe_event(e, s) for e in built)
    assert first != second and second.endswith(f"(now {board.area(s, only).fort_levels})")


def test_fortify_draws_cards_into_its_hand(state, monkeypatch):
    die(monkeypatch, 4)  # Power 3, a 4: 2 Fort levels and 1 card
    s = ka.perform_king_action(state, "fortify", 3, [])
    assert len(present(s.king).hand) == 3 and s.players[K].hand == state.players[K].hand


def test_fortify_becomes_maneuver_when_all_its_areas_have_3_levels(state):
    s = shape(state, salt_spire=dict(fort_levels=3), mirror_dunes=dict(fort_owner=K, fort_levels=3))
    ev: list[Event] = []
    ka.perform_king_action(s, "fortify", 1, ev)
    assert "king_fortify_to_maneuver" in kinds(ev) and "king_maneuvers" in kinds(ev)


def test_devour_preference(state):
    assert kn.devour_order(state)[0] == K
    s = king_pl(state, devoured=2)
    assert kn.devour_order(s) == (board.SHADOWS_SIDE, 0, K)


# --- MANEUVER


def test_maneuver_prefers_empty_then_tied_areas(state):
    s = shape(state, moth_garden=dict(followers=(0, 1), shadows=1))
    ev: list[Event] = []
    s1 = ka.maneuver_step(shape(s, ember_reach=dict(shadows=0)), ev)
    assert f(s1, "ember-reach")[K] == 1
    s2 = ka.maneuver_step(s, [])
    assert f(s2, "moth-garden")[K] == 2


def test_maneuver_skips_areas_where_it_has_majority(state):
    s = shape(state, choir_of_teeth=dict(followers=(1, 3), shadows=0))  # King 3 > your 1
    assert "choir-of-teeth" not in [a.id for a in ka.maneuver_targets(s)]


def test_marked_soonest_and_damage(state):
    s = replace(state, turn_pos=0)  # next: flame, moon, tooth...
    assert ka.marked_in(s, "ember-reach") == 1 and ka.marked_in(s, "moth-garden") == 2
    a = board.area(state, "drowned-gate")
    assert ka.damage_to_lose(a) == 2 and ka.damage_to_lose(board.area(state, "weeping-orchard")) == ka.NEVER


def test_maneuver_marked_areas_give_cultists_then_hook(state, monkeypatch):
    stubbed(monkeypatch, W.KingConflicts)
    s = replace(state, turn_pos=4)  # salt-spire is marked
    ev: list[Event] = []
    s = ka.perform_king_action(s, "maneuver", 1, ev)
    assert sum(present(s.king).dream_cultists) == 1 and kinds(ev).count("king_maneuvers") == 2
    assert [f.then for f in s.frames][-1:] == [W.KingConflicts()]  # the conflict loop comes next


def test_maneuver_with_empty_supply_moves_a_follower(state):
    s = king_pl(shape(state, ember_reach=dict(shadows=0)), supply=0)
    s = ka.maneuver_step(s, [])
    assert f(s, "ember-reach")[K] == 1 and sum(a.followers[K] for a in s.areas) == 4


# --- DEVELOP


def _cards(state, kind, action=None):
    return [
        c.id
        for c in board.pack(state).cards.development
        if c.stage == 1 and c.kind == kind and (action is None or c.action == action)
    ]


def test_develop_tucks_the_first_upgrade(state):
    up = _cards(state, "upgrade", "fortify")[:2]
    ploy = _cards(state, "ploy")[0]
    s = replace(state, decks=replace(state.decks, development=(ploy, up[0], up[1]) + state.decks.development))
    ev: list[Event] = []
    s = ka.perform_king_action(s, "develop", 3, ev)
    assert present(s.king).tucked[2] == (up[0],)
    assert sorted(present(s.king).hand) == sorted(present(state.king).hand + (ploy, up[1]))
    assert present(s.king).day_cultists[3] == present(state.king).day_cultists[3] + 1
    assert present(s.king).day_cultists[0] == present(state.king).day_cultists[0]


def test_develop_without_upgrade_tucks_the_last_card_under_the_fewest(state):
    ploys = _cards(state, "ploy")[:2]
    s = replace(state, decks=replace(state.decks, development=tuple(ploys) + state.decks.development))
    s = kg.set_king(s, replace(s.king, tucked=(("a",), ("b",), (), ("c",), ("d",))))
    s = ka.perform_king_action(s, "develop", 1, [])
    assert present(s.king).tucked[2] == (ploys[1],) and ploys[0] in present(s.king).hand


@pytest.mark.parametrize("power, row", [(0, 1), (1, 1), (2, 1), (3, 3), (4, 3), (5, 5), (6, 5), (9, 5)])
def test_a_power_left_even_uses_the_highest_row_not_above_it(power, row):
    from nctui.games.nightmare_cathedral.engine.king_actions import row_power

    assert row_power(power) == row


def test_maneuver_damage_to_lose_counts_units_before_fort_levels(state, monkeypatch):
    """MANEUVER "fewest damage would result in a loss of control"; CONFLICTS 5: units go first,
    Fort levels last. Your 1-level Fort + 3 Followers against its 2: 4 damage; your 3 Followers
    against its 1 with no Fort: 2 (down to a tie). The Follower goes to the second."""
    s = shape(
        state,
        bell_hollow=dict(followers=(3, 2), shadows=0, fort_owner=0, fort_levels=1),
        choir_of_teeth=dict(followers=(3, 1), shadows=0),
        ember_reach=dict(followers=(0, 0), shadows=3),
        moth_garden=dict(followers=(0, 0), shadows=3),
    )
    assert ka.damage_to_lose(board.area(s, "bell-hollow")) == 4
    assert ka.damage_to_lose(board.area(s, "choir-of-teeth")) == 2
    monkeypatch.setattr(ka, "marked_in", lambda st, area_id: 1)
    assert ka.maneuver_choices(s) == ("choir-of-teeth",)


def test_summon_a_tied_marked_area_produces_nothing(state):
    """Core PRODUCE: "An area that is not controlled by any side produces no units"; the card:
    "produces 1 for whoever controls it". A tie is nobody: no Shadow is added."""
    s = shape(replace(state, turn_pos=4), lantern_fen=dict(followers=(1, 0), shadows=1))  # marked, tied
    ev: list = []
    s = ka.perform_king_action(s, "summon", 3, ev)
    assert f(s, "lantern-fen") == (1, 0) and board.area(s, "lantern-fen").shadows == 1
    assert any(e.kind == "king_marked_produce" and e.side == board.NO_SIDE for e in ev)
    empty = shape(replace(state, turn_pos=4), lantern_fen=dict(followers=(0, 0), shadows=0))
    assert board.area(ka.perform_king_action(empty, "summon", 3, []), "lantern-fen").shadows == 1  # the Shadows'
