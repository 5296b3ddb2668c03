"""LIMBO: "You can take these Followers back to your supply at any time" — a free move offered
with every decision of a player whose Limbo holds Followers (never the King's), after which the
same decision is asked again, rebuilt for the new supply."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.describe import describe_decision
from nctui.games.nightmare_cathedral.engine import (
    IllegalAction,
    actions as A,
    apply,
    board,
    events as E,
    legal_actions,
    limbo,
    step,
)
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.state import Decision
from tests import helpers as H
from tests.helpers import but_limbo, first_turn, narrow, present, random_game
from tests.test_ritual import MOTH, PAID, W, blank, me, pl

R1, R3 = A.ReturnFromLimbo(count=1), A.ReturnFromLimbo(count=3)


def returns(state) -> tuple[A.Action, ...]:
    return tuple(a for a in legal_actions(state) if isinstance(a, A.ReturnFromLimbo))


def asked(state, *steps, must: bool = False):
    """The decision of an effect pushed for the active seat, as ``flow`` hands it out."""
    state = H.resolve(H.push_effect(state, me(state), steps, "day", must=must, then="day_done"), [])
    return limbo.offer(state)


def in_limbo(state, n: int, supply: int | None = None):
    """``n`` of the active seat's Followers go to Limbo (from its supply); ``supply``: what is
    left there, the rest devoured."""
    p = pl(state)
    supply = p.supply - n if supply is None else supply
    return set_player(state, replace(p, limbo=n, supply=supply, devoured=p.devoured + p.supply - n - supply))


# ---------------------------------------------------------------------------------------------
# Offered with every decision of a player whose Limbo holds Followers


def test_the_option_comes_with_a_decision_of_a_seat_with_followers_in_limbo():
    state = first_turn(2)
    seat = state.active
    state = in_limbo(state, 3)
    state = apply(state, A.ChooseDay(action="develop", ignore=True))  # the turn structure's next step
    assert present(state.decision).seat == seat and present(state.decision).kind in ("discard_dreams", "draw_dream")
    assert returns(state) == (R1, R3)
    assert legal_actions(state)[-2:] == (R1, R3)  # after the step's own options
    assert violations(state) == []


def test_one_follower_in_limbo_offers_one():
    state = asked(in_limbo(blank(weeping_orchard=1), 1), cs.Produce(amount=1))
    assert returns(state) == (R1,)


def test_no_option_without_followers_in_limbo_nor_for_another_seat():
    state = first_turn(2)
    other = 1 - state.active
    state = set_player(state, replace(state.players[other], limbo=2, supply=state.players[other].supply - 2))
    state = apply(state, A.ChooseDay(action="develop", ignore=True))
    assert present(state.decision).seat != other and returns(state) == ()
    with pytest.raises(IllegalAction, match=r"no Follower in your Limbo.*\[LIMBO\]"):
        apply(state, R1)


def test_never_for_the_king():
    from tests.test_solo_setup import solo_setup

    state = solo_setup()
    king = state.king.seat
    state = set_player(state, replace(state.players[king], limbo=2, supply=state.players[king].supply - 2))
    assert limbo.returns(state, Decision(seat=king, kind="test", options=(A.Done(),))) == ()
    with pytest.raises(IllegalAction, match=r"King of Horrors has no Limbo.*\[LIMBO\]"):
        apply(replace(state, decision=Decision(seat=king, kind="test", options=(A.Done(),))), R1)


# ---------------------------------------------------------------------------------------------
# Taking them back: the same decision again


def test_taking_back_moves_them_to_the_supply_and_asks_the_same_decision_again():
    state = asked(in_limbo(blank(weeping_orchard=1), 3), cs.Move(mp=2))
    before, question = state.decision, describe_decision(state)
    supply = pl(state).supply
    res = step(state, R1)
    state = res.state
    assert (pl(state).limbo, pl(state).supply) == (2, supply + 1)
    assert [(e.kind, e.seat, narrow(e, E.LimboReturn).count) for e in res.events] == [("limbo_return", me(state), 1)]
    assert (present(state.decision).seat, present(state.decision).kind, describe_decision(state)) == (
        before.seat,
        before.kind,
        question,
    )
    assert but_limbo(legal_actions(state)) == but_limbo(before.options)
    assert returns(state) == (R1, A.ReturnFromLimbo(count=2))  # "all" is now 2
    state = apply(state, A.ReturnFromLimbo(count=2))
    assert pl(state).limbo == 0 and returns(state) == () and legal_actions(state) == but_limbo(before.options)
    assert violations(state) == []


def test_a_decision_outside_any_step_is_asked_again_too():
    state = first_turn(2)
    state = apply(in_limbo(state, 3), A.ChooseDay(action="develop", ignore=True))
    before = present(state.decision)
    state = apply(state, R3)
    assert state.decision == replace(before, options=but_limbo(before.options)) and H.between_steps(state)


def test_a_produce_step_with_an_empty_supply_waits_and_offers_placements_after_taking_back():
    state = in_limbo(blank(weeping_orchard=1), 3, supply=0)
    state = asked(state, cs.Produce(amount=2))
    assert state.decision.kind == "produce" and "supply is empty" in describe_decision(state)
    assert legal_actions(state) == (A.Done(), R1, R3)
    state = apply(state, R1)
    assert present(state.decision).kind == "produce" and A.ProduceIn(area=W) in legal_actions(state)
    state = apply(state, A.ProduceIn(area=W))
    assert board.area(state, W).followers[me(state)] == 2 and pl(state).supply == 0
    assert present(state.decision).kind == "produce" and legal_actions(state) == (
        A.Done(),
        R1,
        A.ReturnFromLimbo(count=2),
    )
    assert violations(state) == []


def test_an_empty_supply_ends_the_produce_step_when_limbo_is_empty_too():
    state = asked(in_limbo(blank(weeping_orchard=1), 0, supply=0), cs.Produce(amount=2))
    assert state.decision is None or state.decision.kind != "produce"


def test_a_step_that_needs_limbo_may_end_once_it_is_taken_back():
    """ "Return 1 Follower from your Limbo to an area you control": with Limbo emptied first,
    nothing is left to ask, and the effect goes on."""
    state = asked(in_limbo(blank(weeping_orchard=1), 1), cs.RecoverLimbo(count=1))
    assert state.decision.kind == "recover" and returns(state) == (R1,)
    state = apply(state, R1)
    assert present(state.decision).kind != "recover" and pl(state).limbo == 0 and violations(state) == []


# ---------------------------------------------------------------------------------------------
# PERFORM RITUAL: Limbo pays too; a space being paid for is paid in full


def test_paying_a_ritual_climb_with_3_limbo_followers_still_works():
    state = asked(in_limbo(blank(ritual=(11, 21)), 3), PAID)  # space 12 is ritual-only
    assert state.decision.kind == "climb" and returns(state) == (R1, R3)
    supply = pl(state).supply
    state = apply(state, A.ClimbMarker(marker=0))
    assert legal_actions(state) == (A.PayLimbo(),)  # taking them back now would leave the space unpaid
    with pytest.raises(IllegalAction, match=r"paid in full.*\[LIMBO\]"):
        apply(state, R1)
    state = apply(state, A.PayLimbo())
    assert pl(state).ritual == (12, 21) and pl(state).limbo == 0 and pl(state).supply == supply + 3
    assert violations(state) == []


def test_while_followers_can_pay_the_space_limbo_may_still_be_emptied():
    state = asked(in_limbo(blank(ritual=(2, 21), moth_garden=1), 3), PAID)  # space 3 costs a moon
    state = apply(state, A.ClimbMarker(marker=0))
    assert legal_actions(state) == (A.PayFollower(area=MOTH), A.PayLimbo(), R1, R3)
    state = apply(state, R3)
    assert legal_actions(state) == (A.PayFollower(area=MOTH),)
    state = apply(state, A.PayFollower(area=MOTH))
    assert pl(state).ritual == (3, 21)


def test_a_first_follower_is_not_offered_when_followers_cannot_finish_the_payment():
    """Space 8 costs an eye and a moon: a lone eye Follower can't pay it all, Limbo can."""
    state = asked(in_limbo(blank(ritual=(7, 21), weeping_orchard=1), 3), PAID)
    state = apply(state, A.ClimbMarker(marker=0))
    assert but_limbo(legal_actions(state)) == (A.PayLimbo(),)
    with pytest.raises(IllegalAction, match=r"paid in full.*\[PERFORM RITUAL\]"):
        apply(state, A.PayFollower(area=W))


# ---------------------------------------------------------------------------------------------
# Refusals


@pytest.mark.parametrize(
    "count, words",
    [
        (0, "at least 1"),
        (-1, "at least 1"),
        (4, "holds only 3"),
        (2, "1 Follower or all 3"),
    ],
)
def test_refusals_name_the_rule(count, words):
    state = asked(in_limbo(blank(weeping_orchard=1, ash_nave=1, bell_hollow=1), 3), cs.Move(mp=1))
    assert returns(state) == (R1, R3)
    with pytest.raises(IllegalAction, match=rf"{words}.*\[LIMBO\]") as why:
        apply(state, A.ReturnFromLimbo(count=count))
    assert why.value.section == "LIMBO"


# ---------------------------------------------------------------------------------------------
# In play: conflicts send Followers to Limbo mid-step; taking them back breaks nothing


@pytest.mark.parametrize("players", [2, 3, 4])
def test_in_random_games_every_decision_offers_exactly_its_seats_take_back(players):
    taken = 0
    for state, _action in random_game(players, seed=13):  # a seed with Followers in Limbo in every count
        if state.decision is None:
            continue
        d = state.decision
        assert returns(state) == limbo.returns(state, d)
        if returns(state):
            after = apply(state, returns(state)[-1])
            assert after.players[d.seat].limbo == 0
            assert after.players[d.seat].supply == state.players[d.seat].supply + state.players[d.seat].limbo
            assert violations(after) == []
            if after.work == state.work:  # the same step (or none) still asks: the same decision
                assert (present(after.decision).seat, present(after.decision).kind) == (d.seat, d.kind)
            taken += 1
    assert taken > 10
