"""PRODUCE and SUMMON: units are produced for the controlling side, from the supply only, never
beyond a Unit Limit; Limbo and Shadows respect the Unit Limit too (UNIT LIMIT)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.engine import actions as A, apply, board, cards, legal_actions, units
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.ops import set_player
from tests.helpers import present
from tests.test_units import SH, WATCHFUL, bare, finished, fort, fortress_of, plain_areas, put, run, with_fortify_card

ME, YOU = 0, 1


def summon_day(state, seat=ME):
    """The Summon Day effect printed on the seat's own card (the starting card)."""
    assert cards.action_card_id(state, seat, "summon") == "start-summon"
    return cards.action_effect(state, seat, "summon", "day").steps


def marked_on(state, area: str):
    """Move the Turn marker to a space showing the area's symbol: the area is a Marked Area."""
    track = board.pack(state).tracks.turn
    state = replace(state, turn_pos=track.index(board.symbol_of(state, area)))
    assert area in board.marked_areas(state)
    return state


def counts(state, area: str) -> tuple[int, int, int]:
    a = board.area(state, area)
    return a.followers[ME], a.followers[YOU], a.shadows


def target(state) -> str:
    """A Marked-able area that shares its symbol with no Fortress (so only Marked Areas matter)."""
    fortress_symbols = {board.symbol_of(state, a.id) for a in state.areas if a.fortress >= 0}
    return next(a for a in plain_areas(state) if board.symbol_of(state, a) not in fortress_symbols)


def shape(state, area, me=0, you=0, shadows=0, fort_owner=-1):
    state = put(put(put(state, area, ME, me), area, YOU, you), area, SH, shadows)
    return fort(state, area, fort_owner) if fort_owner >= 0 else state


# ---------------------------------------------------------------------------------------------
# SUMMON (start-summon Day: every Marked Area and every area with your Fort produces 1)


@pytest.mark.parametrize(
    "me, you, shadows, fort_owner, produced",
    [
        (0, 0, 2, -1, (0, 0, 1)),  # controlled by Shadows: a Shadow
        (0, 0, 0, -1, (0, 0, 1)),  # empty: controlled by Shadows
        (1, 2, 0, -1, (0, 1, 0)),  # an opponent controls: THEIR Follower
        (2, 1, 1, -1, (1, 0, 0)),  # you control: yours
        (1, 1, 0, -1, (0, 0, 0)),  # a tie between players: nobody controls, nothing
        (1, 0, 1, -1, (0, 0, 0)),  # a tie with the Shadows: nothing
        (2, 0, 0, YOU, (0, 1, 0)),  # the opponent's Fort controls, whatever the units
        (0, 3, 0, -1, (0, 0, 0)),  # the opponent is at the Unit Limit
        (0, 0, 3, -1, (0, 0, 0)),  # the Shadows are at the Unit Limit
        (3, 0, 0, -1, (0, 0, 0)),  # you are at the Unit Limit
    ],
)
def test_a_marked_area_produces_one_for_its_controlling_side(me, you, shadows, fort_owner, produced):
    state = bare()
    x = target(state)
    state = marked_on(shape(state, x, me, you, shadows, fort_owner), x)
    before = counts(state, x)
    supplies = (state.players[ME].supply, state.players[YOU].supply, state.shadows)
    state, ev = run(state, ME, summon_day(state))
    assert finished(state)
    assert tuple(b - a for a, b in zip(before, counts(state, x))) == produced
    assert supplies[1] - state.players[YOU].supply == produced[1]  # from the supply
    assert counts(state, fortress_of(state, ME))[0] == 1  # and your Fort's area produced 1
    assert violations(state) == []
    mine = [e for e in ev if e.kind == "produce" and e.area == x]
    assert len(mine) == (1 if any(produced) else 0)


def test_every_area_with_your_fort_produces_and_other_players_forts_do_not():
    state = bare()
    x, y = plain_areas(state)[:2]
    state = fort(fort(state, x, ME), y, YOU)
    home, theirs = fortress_of(state, ME), fortress_of(state, YOU)
    state = replace(
        state,
        turn_pos=next(
            i
            for i, s in enumerate(board.pack(state).tracks.turn)
            if all(board.symbol_of(state, a) != s for a in (x, y, home, theirs))
        ),
    )
    state, _ = run(state, ME, summon_day(state))
    assert counts(state, x)[0] == 1 and counts(state, home)[0] == 1
    assert counts(state, y) == (0, 0, 0) and counts(state, theirs) == (0, 0, 0)


def test_a_marked_area_with_your_fort_produces_twice():
    """Summon: "Every Marked Area and every area with your Fort produces 1"; PRODUCE: "It is
    possible for a single area to produce more than once during the resolution of a single effect"."""
    state = bare()
    x = target(state)
    state = marked_on(fort(state, x, ME), x)
    state, ev = run(state, ME, summon_day(state))
    assert counts(state, x) == (2, 0, 0)
    assert len([e for e in ev if e.kind == "produce" and e.area == x]) == 2
    assert violations(state) == []


def test_summon_never_takes_followers_from_the_board_or_limbo_when_the_supply_is_empty():
    state = bare()
    x = target(state)
    state = marked_on(shape(state, x, me=2), x)
    pl = state.players[ME]
    state = set_player(state, replace(pl, limbo=pl.supply, supply=0))
    limbo = state.players[ME].limbo
    state, ev = run(state, ME, summon_day(state))
    assert counts(state, x)[0] == 2 and units.on_board(state, ME) == 2
    assert state.players[ME].limbo == limbo and state.players[ME].supply == 0
    assert not [e for e in ev if e.kind == "produce" and e.seat == ME]
    assert violations(state) == []


def test_summon_adds_no_shadow_when_the_shadow_supply_is_empty():
    state = bare()
    x = target(state)
    state = marked_on(state, x)
    state = replace(state, shadows=0, devoured_shadows=state.shadows)
    state, _ = run(state, ME, summon_day(state))
    assert counts(state, x) == (0, 0, 0)
    assert violations(state) == []


def test_summon_fills_the_one_area_to_four_with_the_upgrade_but_never_a_second():
    state = with_fortify_card(bare(), ME, WATCHFUL)
    x = target(state)
    y = next(a for a in plain_areas(state) if a != x and board.symbol_of(state, a) != board.symbol_of(state, x))
    state = marked_on(shape(state, x, me=3), x)
    after, _ = run(state, ME, summon_day(state))
    assert counts(after, x)[0] == 4
    crowded = shape(state, y, me=4)
    after, _ = run(crowded, ME, summon_day(crowded))
    assert counts(after, x)[0] == 3  # y already uses the "4 in one area"


def test_when_two_areas_could_take_the_fourth_follower_the_player_chooses_the_order():
    """Nothing is chosen silently: with "4 in one area" and two of your areas at 3 that each
    produce, the resolving player picks which produces first (and so which holds 4)."""
    state = with_fortify_card(bare(), ME, WATCHFUL)
    x = target(state)
    y = next(a for a in plain_areas(state) if a != x and board.symbol_of(state, a) == board.symbol_of(state, x))
    state = marked_on(shape(shape(state, x, me=3), y, me=3), x)
    state, _ = run(state, ME, summon_day(state))
    assert state.decision.kind == "produce" and A.Done() not in legal_actions(state)
    assert {A.ProduceIn(area=x), A.ProduceIn(area=y)} <= set(legal_actions(state))
    state = apply(state, A.ProduceIn(area=y))
    assert counts(state, y)[0] == 4 and counts(state, x)[0] == 3  # x can no longer take a 4th
    assert present(state.decision).kind != "produce"


def test_when_the_supply_cannot_fill_every_producing_area_the_player_chooses_the_order():
    """PRODUCE takes units from the supply: with 1 Follower left and two of your areas producing,
    the resolving player picks which area gets it."""
    state = bare()
    x = target(state)
    y = next(a for a in plain_areas(state) if a != x and board.symbol_of(state, a) == board.symbol_of(state, x))
    state = marked_on(shape(shape(state, x, me=1), y, me=1), x)
    home = fortress_of(state, ME)
    pl = state.players[ME]
    state = set_player(state, replace(pl, supply=1, devoured=pl.devoured + pl.supply - 1))
    state, _ = run(state, ME, summon_day(state))
    assert state.decision.kind == "produce" and A.Done() not in legal_actions(state)
    assert {A.ProduceIn(area=x), A.ProduceIn(area=y)} <= set(legal_actions(state))
    state = apply(state, A.ProduceIn(area=y))
    assert (
        counts(state, y)[0] == 2
        and counts(state, x)[0] == 1
        and counts(state, home)[0] == board.area(bare(), home).followers[ME]
    )
    assert state.players[ME].supply == 0 and present(state.decision).kind != "produce"


# ---------------------------------------------------------------------------------------------
# Produce as a choice (spread / one), Limbo, Shadows


def produce_options(state) -> set[str]:
    return {a.area for a in legal_actions(state) if isinstance(a, A.ProduceIn)}


def test_produce_offers_only_controlled_areas_with_room_and_an_area_may_produce_twice():
    state = bare()
    x, y, z = plain_areas(state)[:3]
    state = shape(shape(shape(state, x, me=1), y, me=3), z, me=1, you=1)
    state, _ = run(state, ME, [cs.Produce(amount=2, where="controlled")])
    assert produce_options(state) == {x, fortress_of(state, ME)}  # y is full, z is tied
    assert A.Done() in legal_actions(state)
    state = apply(state, A.ProduceIn(area=x))
    assert x in produce_options(state)
    state = apply(state, A.ProduceIn(area=x))
    assert finished(state) and counts(state, x)[0] == 3


def test_producing_several_in_one_area_stops_at_the_unit_limit():
    state = bare()
    x = plain_areas(state)[0]
    state, _ = run(shape(state, x, me=2), ME, [cs.Produce(amount=2, where="controlled", mode="one")])
    supply = state.players[ME].supply
    state = apply(state, A.ProduceIn(area=x))
    assert counts(state, x)[0] == 3 and state.players[ME].supply == supply - 1


def test_the_fortress_area_at_the_unit_limit_produces_nothing():
    state = bare()
    home = fortress_of(state, ME)
    state, _ = run(shape(state, home, me=3), ME, [cs.Produce(amount=1, where="fortress")])
    assert finished(state) and counts(state, home)[0] == 3


def test_limbo_followers_return_only_where_the_unit_limit_allows():
    state = with_fortify_card(bare(), ME, WATCHFUL)
    x, y = plain_areas(state)[:2]
    state = shape(shape(state, x, me=3), y, me=3)
    pl = state.players[ME]
    state = set_player(state, replace(pl, limbo=2, supply=pl.supply - 2))
    state, _ = run(state, ME, [cs.RecoverLimbo(count=2)])
    opts = {a.area for a in legal_actions(state) if isinstance(a, A.RecoverTo)}
    assert {x, y} <= opts  # either may take a 4th
    state = apply(state, A.RecoverTo(area=x))
    opts = {a.area for a in legal_actions(state) if isinstance(a, A.RecoverTo)}
    assert x not in opts and y not in opts and fortress_of(state, ME) in opts
    assert violations(state) == []


def test_shadows_are_added_only_where_fewer_than_three_shadows_stand():
    state = bare()
    x, y = plain_areas(state)[:2]
    state = shape(shape(state, x, shadows=3), y, shadows=2)
    state, _ = run(state, ME, [cs.AddShadows(count=2)])
    opts = {a.area for a in legal_actions(state) if isinstance(a, A.AddShadow)}
    assert y in opts and x not in opts
    state = apply(state, A.AddShadow(area=y))
    assert finished(state) and counts(state, y)[2] == 3  # the one area is full: the second is lost
    assert violations(state) == []
