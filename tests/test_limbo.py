"""LIMBO: "You can take these Followers back to your supply at any time" — a free move offered
with the decisions of a player whose Limbo holds Followers where it can make a difference (before
an action, a reaction or an effect begins; a step placing Followers short of supply), never the
King's, after which the same decision is asked again, rebuilt for the new supply."""

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
from tests.test_ritual import PAID, W, blank, me, pl

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
# Offered where it can make a difference, to a player whose Limbo holds Followers


def test_the_option_comes_with_the_choice_of_the_day_action():
    state = limbo.offer(in_limbo(first_turn(2), 3))
    assert present(state.decision).kind == "choose_day"
    assert returns(state) == (R1, R3)
    assert legal_actions(state)[-2:] == (R1, R3)  # after the step's own options
    assert violations(state) == []


def test_not_offered_where_the_supply_changes_nothing():
    """Issue 39.20: not with every decision (the Dream draw, a move, the combat cards)."""
    state = apply(in_limbo(first_turn(2), 3), A.ChooseDay(action="develop", ignore=True))
    assert present(state.decision).kind in ("discard_dreams", "draw_dream") and returns(state) == ()
    with pytest.raises(IllegalAction, match=r"changes nothing in this decision.*\[LIMBO\]"):
        apply(state, R1)
    assert returns(asked(in_limbo(blank(weeping_orchard=1), 3), cs.Move(mp=2))) == ()


def test_not_offered_while_choosing_combat_cards():
    for state, _action in random_game(2, seed=13):
        d = state.decision
        if d is not None and d.kind in ("play_combat_card", "plays_first", "break_tie", "retreat"):
            assert not any(isinstance(o, A.ReturnFromLimbo) for o in d.options), d.kind


def test_a_produce_step_offers_it_only_when_the_supply_is_short():
    plenty = asked(in_limbo(blank(weeping_orchard=1), 3), cs.Produce(amount=1))
    assert plenty.decision.kind == "produce" and returns(plenty) == ()
    short = asked(in_limbo(blank(weeping_orchard=1), 1, supply=0), cs.Produce(amount=1))
    assert returns(short) == (R1,)


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
    state = asked(in_limbo(blank(weeping_orchard=1), 3), cs.Choose(options=((cs.Move(mp=2),), (cs.Move(mp=1),))))
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
    state = limbo.offer(in_limbo(first_turn(2), 3))
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


def test_a_step_that_needs_limbo_does_not_offer_to_empty_it():
    """ "Return 1 Follower from your Limbo to an area you control": taking it back first would
    only lose the step."""
    state = asked(in_limbo(blank(weeping_orchard=1), 1), cs.RecoverLimbo(count=1))
    assert state.decision.kind == "recover" and returns(state) == ()


# ---------------------------------------------------------------------------------------------
# PERFORM RITUAL: Limbo pays too; a space being paid for is paid in full


def test_paying_a_ritual_climb_with_3_limbo_followers_still_works():
    state = asked(in_limbo(blank(ritual=(11, 21)), 3), PAID)  # space 12 is ritual-only
    assert state.decision.kind == "climb" and returns(state) == ()  # taking them back could only lose the step
    supply = pl(state).supply
    state = apply(state, A.ClimbMarker(marker=0))
    assert legal_actions(state) == (A.PayLimbo(),)  # taking them back now would leave the space unpaid
    with pytest.raises(IllegalAction, match=r"paid in full.*\[LIMBO\]"):
        apply(state, R1)
    state = apply(state, A.PayLimbo())
    assert pl(state).ritual == (12, 21) and pl(state).limbo == 0 and pl(state).supply == supply + 3
    assert violations(state) == []


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
    state = limbo.offer(in_limbo(first_turn(2), 3))
    assert returns(state) == (R1, R3)
    with pytest.raises(IllegalAction, match=rf"{words}.*\[LIMBO\]") as why:
        apply(state, A.ReturnFromLimbo(count=count))
    assert why.value.section == "LIMBO"


# ---------------------------------------------------------------------------------------------
# In play: conflicts send Followers to Limbo mid-step; taking them back breaks nothing


@pytest.mark.parametrize("players", [2, 3, 4])
def test_in_random_games_every_decision_offers_exactly_its_seats_take_back(players):
    """Where it applies (``limbo.applies``): taking them back breaks nothing."""
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
    assert taken > 5
