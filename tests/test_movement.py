"""MANEUVER: Movement Points, Shaper moves and Conversions; UNIT LIMIT; SHAPERS AND NIGHTMARES."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.content.loader import get_pack
from nctui.games.nightmare_cathedral.engine import (
    IllegalAction,
    actions as A,
    apply,
    board,
    events as E,
    legal_actions,
    new_game,
    step,
    units,
)
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.state import FOLLOWERS, FORT_LEVELS, SHADOWS
from nctui.games.nightmare_cathedral.engine.table import STEPS
from nctui.games.nightmare_cathedral.engine.work import MoveWork
from tests import helpers as H
from tests.helpers import all_of, config, empty_areas, narrow, of_kind, present, through_setup

S = board.SHADOWS_SIDE
# The small board side (2 players): W is adjacent to ASH, BELL and FEN; BELL to ASH and SALT;
# SALT is not adjacent to W.
W, ASH, BELL, FEN, SALT = "weeping-orchard", "ash-nave", "bell-hollow", "lantern-fen", "salt-spire"


def blank(shaper: str = W):
    """The first turn of a 2-player game with an empty board; both Shapers at ``shaper``."""
    state = through_setup(new_game(config(2, 0)).state)
    areas = empty_areas(state)
    players = tuple(replace(p, supply=FOLLOWERS, forts=FORT_LEVELS, limbo=0, shaper=shaper) for p in state.players)
    state = replace(state, areas=areas, players=players, shadows=SHADOWS, day="maneuver")
    assert board.adjacent(state, W) == (ASH, BELL, FEN) and SALT not in board.adjacent(state, W)
    return state


def me(state) -> int:
    return state.active


def opp(state) -> int:
    return 1 - state.active


def put(state, side: int, area: str, n: int = 1):
    return units.place(state, side, area, n)


def push(state, *steps, must: bool = False):
    return H.resolve(H.push_effect(state, me(state), steps, "day", must=must, then="day_done"), [])


def followers(state, area: str, seat: int) -> int:
    return board.area(state, area).followers[seat]


def follower_moves(state) -> set[tuple[str, str]]:
    return {(a.source, a.to) for a in legal_actions(state) if isinstance(a, A.MoveFollower)}


# ---------------------------------------------------------------------------------------------
# MP


def test_one_follower_may_spend_several_mp_one_at_a_time():
    state = blank()
    state = push(put(state, me(state), W), cs.Move(mp=3))
    assert state.decision.kind == "move" and A.Done() in legal_actions(state)
    assert follower_moves(state) == {(W, ASH), (W, BELL), (W, FEN)}
    state = apply(state, A.MoveFollower(source=W, to=BELL))
    assert narrow(state.work, MoveWork).mp == 2
    state = apply(state, A.MoveFollower(source=BELL, to=SALT))
    res = step(state, A.MoveFollower(source=SALT, to="mirror-dunes"))
    state = res.state
    assert present(state.decision).kind != "move" and not isinstance(state.work, MoveWork)
    assert followers(state, "mirror-dunes", me(state)) == 1 and followers(state, W, me(state)) == 0
    assert next(e for e in of_kind(res.events, E.FollowerMoved)).source == SALT


@pytest.mark.parametrize("enemy", ["follower", "shadow"])
def test_a_follower_cannot_leave_an_area_with_enemy_units_but_may_enter_one(enemy):
    state = blank()
    side = opp(state) if enemy == "follower" else S
    state = put(put(put(state, me(state), W, 2), me(state), FEN), side, W)
    state = push(state, cs.Move(mp=2))
    assert follower_moves(state) == {(FEN, W), (FEN, "drowned-gate"), (FEN, "hollow-stair"), (FEN, ASH)}
    with pytest.raises(IllegalAction, match=r"can't leave an area with opponent Followers or Shadows.*\[MANEUVER, MP"):
        apply(state, A.MoveFollower(source=W, to=ASH))
    state = apply(state, A.MoveFollower(source=FEN, to=W))
    assert followers(state, W, me(state)) == 3
    assert (W, ASH) not in follower_moves(state)


def test_a_follower_moves_only_to_an_adjacent_area_of_its_own():
    state = blank()
    state = push(put(state, me(state), W), cs.Move(mp=1))
    with pytest.raises(IllegalAction, match=r"not adjacent.*\[MANEUVER, MP\]"):
        apply(state, A.MoveFollower(source=W, to=SALT))
    with pytest.raises(IllegalAction, match=r"no Follower in bell-hollow.*\[MANEUVER, MP\]"):
        apply(state, A.MoveFollower(source=BELL, to=W))
    with pytest.raises(IllegalAction, match="not an area in play"):
        apply(state, A.MoveFollower(source="nowhere", to=W))


def test_the_unit_limit_of_three_per_side_holds_in_the_destination():
    state = blank()
    state = put(put(put(state, me(state), ASH, 3), me(state), W, 2), me(state), FEN)
    state = put(put(state, opp(state), BELL, 3), S, BELL, 3)
    state = put(state, me(state), BELL, 2)
    state = push(state, cs.Move(mp=2))
    assert (W, ASH) not in follower_moves(state)
    with pytest.raises(IllegalAction, match=r"Unit Limit.*\[UNIT LIMIT\]"):
        apply(state, A.MoveFollower(source=W, to=ASH))
    # the limit counts each side on its own: 3 opponents and 3 Shadows don't block a 3rd Follower
    state = apply(state, A.MoveFollower(source=W, to=BELL))
    assert board.area(state, BELL).followers[me(state)] == 3


def _upgrade_with_four_in_one_area() -> str:
    return next(
        c.id for c in get_pack("base").cards.development if c.action == "fortify" and c.unit_limit_one_area == 4
    )


def test_an_upgraded_fortify_card_allows_four_followers_in_one_area_only():
    state = blank()
    seat = me(state)
    slot = board.pack(state).matrix.rondel.index("fortify")
    pl = state.players[seat]
    display = pl.display[:slot] + (pl.display[slot] + (_upgrade_with_four_in_one_area(),),) + pl.display[slot + 1 :]
    state = set_player(state, replace(pl, display=display))
    state = put(put(put(state, seat, ASH, 3), seat, W, 2), seat, BELL, 3)
    state = push(state, cs.Move(mp=3))
    state = apply(state, A.MoveFollower(source=W, to=ASH))
    assert followers(state, ASH, seat) == 4
    with pytest.raises(IllegalAction, match=r"\[UNIT LIMIT\]"):
        apply(state, A.MoveFollower(source=W, to=BELL))  # a 2nd area with 4
    # the 4th Follower may leave the crowded area for another: there are still only 4 in one area
    state = apply(state, A.MoveFollower(source=ASH, to=BELL))
    assert (followers(state, ASH, seat), followers(state, BELL, seat)) == (3, 4)


def test_without_the_upgrade_the_fourth_follower_is_refused():
    state = blank()
    state = push(put(put(state, me(state), ASH, 3), me(state), W), cs.Move(mp=1))
    assert (W, ASH) not in follower_moves(state)


def test_done_forfeits_the_remaining_mp():
    state = blank()
    state = push(put(state, me(state), W, 2), cs.Move(mp=4))
    state = apply(state, A.MoveFollower(source=W, to=ASH))
    res = step(state, A.Done())
    assert H.between_steps(res.state) and present(res.state.decision).kind != "move"
    assert not any(isinstance(f.steps[0], cs.Move) for f in res.state.frames if f.steps)
    assert [e.decision for e in of_kind(res.events, E.Stopped)] == ["move"]


def test_an_effect_resolved_as_completely_as_possible_offers_no_stop():
    state = blank()
    state = push(put(state, me(state), W), cs.Move(mp=2), must=True)
    assert A.Done() not in legal_actions(state)


def startable(steps) -> bool:
    """Every step of an effect (the options of a Choose included) has a start in the rule table."""
    return all(
        type(s) in STEPS and (not isinstance(s, cs.Choose) or all(startable(o) for o in s.options)) for s in steps
    )


def test_the_maneuver_day_effect_gives_four_mp_then_moves_on():
    state = blank()
    day = next(c for c in get_pack("base").cards.actions if c.id == "start-maneuver").day.steps
    assert day[0] == cs.Move(mp=4)
    assert startable(day)
    state = push(put(state, me(state), W), *day)
    assert state.work.mp == 4
    for to in (BELL, W, BELL, W):
        assert state.decision.kind == "move"
        state = apply(state, A.MoveShaper(to=to))
    assert not isinstance(state.work, MoveWork) and state.decision.kind != "move"


# ---------------------------------------------------------------------------------------------
# The Shaper


def test_the_shaper_moves_freely_and_is_not_a_unit():
    state = blank()
    state = put(put(put(state, opp(state), W, 3), S, W, 3), opp(state), ASH, 3)
    state = push(put(state, me(state), W), cs.Move(mp=2))
    shaper = {a.to for a in legal_actions(state) if isinstance(a, A.MoveShaper)}
    assert shaper == {ASH, BELL, FEN}  # out of an area full of enemies, into another
    res = step(state, A.MoveShaper(to=FEN))
    assert res.state.players[me(state)].shaper == FEN
    assert [(e.kind, e.to, e.source) for e in all_of(res.events, E.ShaperMoved)] == [("move_shaper", FEN, W)]
    fen = board.area(res.state, FEN)
    assert board.controller(fen) == S and not board.present(fen, me(state))
    with pytest.raises(IllegalAction, match=r"not adjacent.*\[MANEUVER, MP\]"):
        apply(res.state, A.MoveShaper(to=BELL))
    with pytest.raises(IllegalAction, match=r"already in"):
        apply(res.state, A.MoveShaper(to=FEN))


def test_mp_for_the_shaper_only():
    state = blank()
    state = push(put(state, me(state), W), cs.Move(mp=1, shaper_only=True))
    assert not follower_moves(state)
    assert set(legal_actions(state)) == {A.MoveShaper(to=a) for a in (ASH, BELL, FEN)} | {A.Done()}
    with pytest.raises(IllegalAction):
        apply(state, A.MoveFollower(source=W, to=ASH))


def test_a_shaper_move_of_several_steps_goes_adjacent_each_time():
    state = push(blank(), cs.ShaperMove(steps=2))
    assert state.decision.kind == "shaper_move"
    with pytest.raises(IllegalAction, match=r"\[MANEUVER, MP\]"):
        apply(state, A.MoveShaper(to=SALT))
    state = apply(apply(state, A.MoveShaper(to=BELL)), A.MoveShaper(to=SALT))
    assert state.players[me(state)].shaper == SALT and present(state.decision).kind != "shaper_move"


def test_a_shaper_move_anywhere_offers_every_other_area_once():
    state = push(blank(), cs.ShaperMove(anywhere=True))
    assert {a.to for a in legal_actions(state) if isinstance(a, A.MoveShaper)} == {a.id for a in state.areas} - {W}
    state = apply(state, A.MoveShaper(to="ember-reach"))
    assert state.players[me(state)].shaper == "ember-reach" and present(state.decision).kind != "shaper_move"


# ---------------------------------------------------------------------------------------------
# Conversions


def test_converting_a_shadow_returns_it_to_the_shadow_supply():
    state = put(blank(), S, W, 2)
    state = push(state, cs.Convert(count=1))
    assert legal_actions(state) == (A.ConvertUnit(area=W, side=S), A.Done())
    before = state
    res = step(state, A.ConvertUnit(area=W, side=S))
    state = res.state
    assert board.area(state, W).shadows == 1 and followers(state, W, me(state)) == 1
    assert state.shadows == before.shadows + 1
    assert state.players[me(state)].supply == before.players[me(state)].supply - 1
    first = narrow(res.events[0], E.Converted)
    assert (first.kind, first.area, first.side) == ("convert", W, S)


def test_converting_an_opponent_follower_returns_it_to_its_supply_not_limbo():
    state = blank()
    state = push(put(state, opp(state), W, 2), cs.Convert(count=2))
    o = opp(state)
    supply = state.players[o].supply
    state = apply(apply(state, A.ConvertUnit(area=W, side=o)), A.ConvertUnit(area=W, side=o))
    assert followers(state, W, o) == 0 and followers(state, W, me(state)) == 2
    assert state.players[o].supply == supply + 2 and state.players[o].limbo == 0


def test_a_unit_may_not_be_converted_to_its_own_side():
    state = blank()
    state = push(put(put(state, me(state), W), S, W), cs.Convert())
    assert A.ConvertUnit(area=W, side=me(state)) not in legal_actions(state)
    with pytest.raises(IllegalAction, match=r"same side.*\[CONVERSIONS\]"):
        apply(state, A.ConvertUnit(area=W, side=me(state)))


def test_a_conversion_happens_only_where_the_effect_says():
    state = put(put(blank(), S, W), S, ASH)
    here = push(state, cs.Convert())
    assert {a.area for a in legal_actions(here) if isinstance(a, A.ConvertUnit)} == {W}
    with pytest.raises(IllegalAction, match=r"only in its own area.*\[CONVERSIONS\]"):
        apply(here, A.ConvertUnit(area=ASH, side=S))
    near = push(state, cs.Convert(where="adjacent_shaper"))
    assert {a.area for a in legal_actions(near) if isinstance(a, A.ConvertUnit)} == {ASH}
    with pytest.raises(IllegalAction, match=r"\[CONVERSIONS\]"):
        apply(near, A.ConvertUnit(area=BELL, side=S))  # adjacent, but no unit of that side there


def test_a_conversion_needs_room_under_the_unit_limit_and_a_follower_in_supply():
    state = blank()
    state = put(put(put(state, me(state), ASH, 3), S, ASH), S, BELL)
    near = push(state, cs.Convert(where="adjacent_shaper"))
    assert legal_actions(near) == (A.ConvertUnit(area=BELL, side=S), A.Done())
    with pytest.raises(IllegalAction, match=r"\[UNIT LIMIT\]"):
        apply(near, A.ConvertUnit(area=ASH, side=S))
    pl = state.players[me(state)]
    gone = set_player(state, replace(pl, supply=0, devoured=pl.supply))
    assert push(gone, cs.Convert(where="adjacent_shaper")).decision.kind != "convert"
    # LIMBO: with Followers there to take back, the step waits with nothing to convert yet
    empty = push(set_player(state, replace(pl, supply=0, limbo=pl.supply)), cs.Convert(where="adjacent_shaper"))
    assert empty.decision.kind == "convert" and empty.decision.options == (A.Done(),)


def test_the_ritual_shaper_bonus_moves_then_converts_where_the_shaper_arrived():
    state = put(put(blank(), S, W), opp(blank()), ASH)
    state = push(state, cs.ShaperMove(steps=1), cs.Convert(count=1))
    state = apply(state, A.MoveShaper(to=ASH))
    assert legal_actions(state) == (A.ConvertUnit(area=ASH, side=opp(state)), A.Done())
    state = apply(state, A.ConvertUnit(area=ASH, side=opp(state)))
    assert followers(state, ASH, me(state)) == 1 and board.area(state, W).shadows == 1


def test_maneuver_reactions_become_playable():
    from nctui.games.nightmare_cathedral.engine import cards

    state = blank()
    for part in ("conform", "dissent"):
        assert startable(cards.action_effect(state, 0, "maneuver", part).steps)
