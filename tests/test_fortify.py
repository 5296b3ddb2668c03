"""FORTIFY, FORT LEVELS, AREA CONTROL / AREA PRESENCE, FORTRESS and "never more than 1 Fort in
any area" (REWARDS AND CONSEQUENCES)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.describe import describe_decision
from nctui.games.nightmare_cathedral.engine import IllegalAction, actions as A, apply, board, legal_actions, step
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.state import FOLLOWERS, AreaState
from nctui.games.nightmare_cathedral.engine.work import ChooseDayWork
from tests import helpers as H
from tests.helpers import present
from tests.test_units import SH, bare, finished, fort, fortress_of, plain_areas, put, run

ME, YOU = 0, 1


def fortify_step(count=1, cost=(), where="controlled", existing_only=False):
    return cs.AddFortLevels(count=count, cost=tuple(cost), where=where, existing_only=existing_only)


def builds(state) -> set[str]:
    return {a.area for a in legal_actions(state) if isinstance(a, A.BuildFortLevel)}


def pays(state) -> set[str]:
    return {a.area for a in legal_actions(state) if isinstance(a, A.PayFollower)}


def perform_fortify(state, seat: int):
    """TURN STRUCTURE 1-2: the seat (made active, its Dreamer on a Night space away from Fortify)
    performs the Fortify action from its own card."""
    night = next(n.id for n in board.pack(state).matrix.nights if "fortify" not in n.adjacent)
    state = set_player(state, replace(state.players[seat], dreamer=night))
    state = H.resolve(replace(state, active=seat, work=ChooseDayWork(seat=seat), decision=None))
    assert state.decision.kind == "choose_day" and state.decision.seat == seat
    return apply(state, A.ChooseDay(action="fortify"))


# ---------------------------------------------------------------------------------------------
# FORTIFY


def test_rulebook_example_three_followers_for_two_fort_levels():
    """FORTIFY example: the blue player spends 3 Followers to add 2 new Fort levels."""
    state = bare()
    x, y = plain_areas(state)[:2]
    home = fortress_of(state, ME)
    state = put(put(state, x, ME, 2), y, ME, 2)
    state = perform_fortify(state, ME)
    assert state.decision.kind == "build_fort_level"
    assert builds(state) == {x, y, home}
    assert A.Done() in legal_actions(state)
    state = apply(state, A.BuildFortLevel(area=x))
    assert present(state.decision).kind == "pay_fort_level" and pays(state) == {x, y}
    assert A.Done() not in legal_actions(state)  # a level built is paid in full
    state = apply(state, A.PayFollower(area=y))
    assert builds(state) == {x, y, home}  # the second level costs 2: 3 Followers remain
    state = apply(state, A.BuildFortLevel(area=y))
    state = apply(state, A.PayFollower(area=y))
    state = apply(state, A.PayFollower(area=x))
    assert finished(state) and present(state.decision).kind != "build_fort_level"
    pl = state.players[ME]
    assert FOLLOWERS - pl.supply == 1 and pl.limbo == 0  # 4 placed, 3 back to the supply
    assert pl.forts == 7
    assert [(board.area(state, a).fort_owner, board.area(state, a).fort_levels) for a in (x, y)] == [(ME, 1), (ME, 1)]
    assert board.area(state, y).followers[ME] == 0 and board.controller(board.area(state, y)) == ME
    assert violations(state) == []


def test_events_name_each_level_and_each_follower_paid():
    state = bare()
    x = plain_areas(state)[0]
    state, _ = run(put(state, x, ME, 3), ME, [fortify_step(1, [2])])
    events: list = []
    for action in (A.BuildFortLevel(area=x), A.PayFollower(area=x), A.PayFollower(area=x)):
        r = step(state, action)
        state, events = r.state, events + list(r.events)
    kinds = [
        (e.kind, e.area, e.levels if e.kind == "build_fort_level" else e.for_fort)
        for e in events
        if e.kind in ("build_fort_level", "remove_follower")
    ]
    assert kinds == [("build_fort_level", x, 1), ("remove_follower", x, True), ("remove_follower", x, True)]


def test_followers_may_pay_from_any_area_even_one_you_do_not_control():
    state = bare()
    x, y = plain_areas(state)[:2]
    state = put(put(put(state, x, ME, 1), y, ME, 1), y, YOU, 3)
    state, _ = run(state, ME, [fortify_step(1, [2])])
    assert builds(state) == {x, fortress_of(state, ME)}
    state = apply(state, A.BuildFortLevel(area=x))
    assert pays(state) == {x, y}
    state = apply(apply(state, A.PayFollower(area=y)), A.PayFollower(area=x))
    assert finished(state) and units_of(state, ME) == 0


def units_of(state, seat):
    return sum(a.followers[seat] for a in state.areas)


def test_an_area_whose_control_was_lost_while_paying_may_still_get_a_level():
    """FORTIFY: "until they resolve this Action completely, the area is still considered under
    their control"."""
    state = bare()
    x, y, z = plain_areas(state)[:3]
    home = fortress_of(state, ME)
    state = put(put(put(state, x, ME, 1), y, ME, 2), z, YOU, 2)
    state = perform_fortify(state, ME)
    state = apply(state, A.BuildFortLevel(area=home))
    state = apply(state, A.PayFollower(area=x))  # x is now empty: controlled by the Shadows
    assert board.controller(board.area(state, x)) == SH
    assert x in builds(state)
    with pytest.raises(IllegalAction, match=r"did not control .*\[FORTIFY\]"):
        apply(state, A.BuildFortLevel(area=z))
    state = apply(state, A.BuildFortLevel(area=x))
    state = apply(apply(state, A.PayFollower(area=y)), A.PayFollower(area=y))
    a = board.area(state, x)
    assert (a.fort_owner, a.fort_levels, a.followers[ME]) == (ME, 1, 0)
    assert board.controller(a) == ME
    assert board.area(state, home).fort_levels == 2
    assert violations(state) == []


def test_a_fort_has_at_most_three_levels():
    state = bare()
    x, y = plain_areas(state)[:2]
    home = fortress_of(state, ME)
    state = fort(fort(put(state, y, ME, 3), x, ME, 3), home, ME, 1)
    state, _ = run(state, ME, [fortify_step(2, [1, 1])])
    assert builds(state) == {y, home}
    with pytest.raises(IllegalAction, match=r"at most 3 levels \[FORT LEVELS\]"):
        apply(state, A.BuildFortLevel(area=x))
    state = apply(apply(state, A.BuildFortLevel(area=home)), A.PayFollower(area=y))
    assert board.area(state, home).fort_levels == 3
    assert builds(state) == {y}  # the Fortress is full now
    with pytest.raises(IllegalAction, match=r"\[FORT LEVELS\]"):
        apply(state, A.BuildFortLevel(area=home))


def test_never_a_second_fort_in_an_area_even_when_an_effect_allows_any_area():
    """REWARDS AND CONSEQUENCES: the one rule that can never be broken."""
    state = bare()
    x, y = plain_areas(state)[:2]
    state = fort(put(put(state, x, ME, 3), y, ME, 1), x, YOU, 1)
    assert board.controller(board.area(state, x)) == YOU
    state, _ = run(state, ME, [fortify_step(1, [], where="any")], must=True)
    assert x not in builds(state) and fortress_of(state, YOU) not in builds(state)
    with pytest.raises(IllegalAction, match=r"more than 1 Fort in any area \[REWARDS AND CONSEQUENCES\]"):
        apply(state, A.BuildFortLevel(area=x))
    state, _ = run(state, ME, [fortify_step(1, [1])])
    with pytest.raises(IllegalAction, match=r"\[REWARDS AND CONSEQUENCES\]"):
        apply(state, A.BuildFortLevel(area=fortress_of(state, YOU)))


def test_existing_only_adds_a_level_to_one_of_your_forts():
    state = bare()
    x, y, z = plain_areas(state)[:3]
    home = fortress_of(state, ME)
    state = fort(fort(put(state, y, ME, 3), x, ME, 1), z, ME, 3)
    state, _ = run(state, ME, [fortify_step(1, [2], where="fort", existing_only=True)])
    assert builds(state) == {x, home}  # y is controlled but holds no Fort; z is full
    with pytest.raises(IllegalAction, match=r"existing Forts.*\[RESOLVING ACTIONS AND REACTIONS\]"):
        apply(state, A.BuildFortLevel(area=y))


def test_the_sealed_door_adds_a_free_level_to_the_fortress_only():
    state = bare()
    x = plain_areas(state)[0]
    home = fortress_of(state, ME)
    state = fort(state, x, ME, 1)
    state, _ = run(state, ME, [fortify_step(1, [], where="fortress", existing_only=True)])
    assert builds(state) == {home}
    with pytest.raises(IllegalAction, match=r"your Fortress area"):
        apply(state, A.BuildFortLevel(area=x))
    before = state.players[ME].supply
    state = apply(state, A.BuildFortLevel(area=home))
    assert finished(state) and state.players[ME].supply == before  # nothing to pay
    assert board.area(state, home).fort_levels == 2


def test_a_level_you_cannot_pay_for_in_full_is_not_offered():
    state = bare()
    x = plain_areas(state)[0]
    state = put(state, x, ME, 1)
    after, _ = run(state, ME, [fortify_step(1, [2])])
    assert finished(after) and not builds(after)  # 1 Follower for a level costing 2: no step
    state, _ = run(state, ME, [fortify_step(2, [1, 2])])
    state = apply(apply(state, A.BuildFortLevel(area=x)), A.PayFollower(area=x))
    assert finished(state) and units_of(state, ME) == 0  # the second level (2) is unaffordable


def test_extra_levels_beyond_the_printed_costs_are_free_and_need_a_fort_level_in_supply():
    state = bare()
    x, y = plain_areas(state)[:2]
    state = put(put(state, x, ME, 1), y, ME, 1)
    state = set_player(state, replace(state.players[ME], forts=1))
    state = fort(state, y, ME, 1)  # the last Fort level of the supply
    assert state.players[ME].forts == 0
    after, _ = run(state, ME, [fortify_step(1, [])])
    assert finished(after)  # no Fort level left in the supply
    state = set_player(state, replace(state.players[ME], forts=2))
    state, _ = run(state, ME, [fortify_step(2, [1])])
    state = apply(apply(state, A.BuildFortLevel(area=x)), A.PayFollower(area=x))
    assert present(state.decision).kind == "build_fort_level"  # the second level is free
    state = apply(state, A.BuildFortLevel(area=y))
    assert finished(state) and board.area(state, y).fort_levels == 2 and state.players[ME].forts == 0


def test_done_stops_early_but_not_while_a_level_is_unpaid_nor_when_the_effect_must_resolve():
    state = bare()
    x = plain_areas(state)[0]
    state = put(state, x, ME, 3)
    optional, _ = run(state, ME, [fortify_step(2, [1, 1])])
    assert A.Done() in legal_actions(optional)
    stopped = apply(optional, A.Done())
    assert finished(stopped) and board.area(stopped, x).fort_levels == 0
    mid = apply(optional, A.BuildFortLevel(area=x))
    assert A.Done() not in legal_actions(mid)
    assert describe_decision(mid).startswith("Remove a Follower")
    with pytest.raises(IllegalAction, match="another decision, not to BuildFortLevel"):
        apply(mid, A.BuildFortLevel(area=x))
    with pytest.raises(IllegalAction):
        apply(mid, A.PayFollower(area=plain_areas(state)[1]))  # no Follower there
    must, _ = run(state, ME, [fortify_step(2, [1, 1])], must=True)
    assert A.Done() not in legal_actions(must)


def test_a_fortify_step_with_nothing_to_build_ends_at_once():
    state = bare()
    x = plain_areas(state)[0]
    y = plain_areas(state)[1]
    state = fort(put(state, x, YOU, 2), fortress_of(state, ME), ME, 2)
    state = put(put(state, y, ME, 1), y, SH, 1)  # a tie: not controlled
    after, _ = run(state, ME, [fortify_step(2, [])])
    assert finished(after)  # the only area controlled, the Fortress, has 3 levels
    assert violations(after) == []


# ---------------------------------------------------------------------------------------------
# AREA CONTROL and AREA PRESENCE (KEY CONCEPTS), on single areas of a 4-player table

RED, BLUE, GREEN, YELLOW = range(4)


def area(followers=(0, 0, 0, 0), shadows=0, fort_owner=-1, fort_levels=0) -> AreaState:
    return AreaState(id="a", followers=followers, shadows=shadows, fort_owner=fort_owner, fort_levels=fort_levels)


def test_example_1_a_fort_controls_the_area():
    a = area(followers=(0, 3, 1, 0), shadows=2, fort_owner=RED, fort_levels=1)
    assert board.controller(a) == RED
    assert board.present(a, RED) and board.present(a, BLUE) and board.present(a, GREEN)
    assert not board.present(a, YELLOW)


def test_example_2_most_units_controls_shadows_included_as_a_side():
    a = area(followers=(0, 3, 2, 0), shadows=1)
    assert board.controller(a) == BLUE
    assert board.present(a, GREEN) and not board.present(a, RED)
    assert board.controller(area(followers=(0, 2, 1, 0), shadows=3)) == SH


def test_example_3_a_tie_for_the_most_units_controls_nothing():
    a = area(followers=(0, 2, 2, 0), shadows=1)
    assert board.controller(a) == board.NO_SIDE
    assert all(board.present(a, s) for s in (BLUE, GREEN))
    assert board.controller(area(followers=(2, 0, 0, 0), shadows=2)) == board.NO_SIDE  # a player and Shadows


def test_an_empty_area_is_controlled_by_the_shadows_and_a_fort_alone_gives_presence():
    assert board.controller(area()) == SH
    lone_fort = area(fort_owner=GREEN, fort_levels=1)
    assert board.controller(lone_fort) == GREEN and board.present(lone_fort, GREEN)
    assert not board.is_empty(lone_fort)


def test_shapers_are_not_units_and_give_neither_control_nor_presence():
    state = bare(players=4)
    x, y = plain_areas(state)[:2]
    state = put(put(put(state, x, GREEN, 2), x, BLUE, 1), x, SH, 1)
    for seat in (YELLOW, RED):
        state = set_player(state, replace(state.players[seat], shaper=x))
    state = set_player(state, replace(state.players[YELLOW], shaper=y))  # alone in y
    assert board.controller(board.area(state, x)) == GREEN
    assert x not in board.areas_matching(state, RED, "presence")
    assert x in board.areas_matching(state, BLUE, "presence")
    assert board.controller(board.area(state, y)) == SH
    assert y not in board.areas_matching(state, YELLOW, "controlled")
    assert y in board.areas_matching(state, YELLOW, "shaper")
