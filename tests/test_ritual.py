"""PERFORM RITUAL, LIMBO and the three kinds of SPACES: climbing the Ritual track."""

from __future__ import annotations

import pytest
from msgspec.structs import asdict, replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.describe import describe_decision
from nctui.games.nightmare_cathedral.engine import (
    IllegalAction,
    actions as A,
    apply,
    board,
    cards,
    legal_actions,
    new_game,
    step,
    units,
)
from nctui.games.nightmare_cathedral.engine.actions import Action
from nctui.games.nightmare_cathedral.engine.events import Event
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.scoring import ritual_vp, scores
from nctui.games.nightmare_cathedral.engine.state import FOLLOWERS, FORT_LEVELS, SHADOWS
from nctui.games.nightmare_cathedral.engine.work import BonusWork, ClimbWork, MoveWork
from tests import helpers as H
from tests.helpers import but_limbo, config, empty_areas, narrow, present, through_setup

# The small board side (2 players), by symbol:
W, BONE = "weeping-orchard", "bone-cloister"  # eye
BELL, MOTH = "bell-hollow", "moth-garden"  # moon
SALT, FEN = "salt-spire", "lantern-fen"  # key
ASH, EMBER = "ash-nave", "ember-reach"  # flame
CHOIR, GATE = "choir-of-teeth", "drowned-gate"  # tooth
DUNES, STAIR = "mirror-dunes", "hollow-stair"  # spiral

PLAIN = cs.Climb(paid=True, steps=1)  # "Climb 1 open step, paying for it."
SPECIAL = cs.Climb(paid=True, steps=1, special=True)  # "... it may be a special space."
FREE = cs.Climb(free=1)  # the Cathedral icon, a Reward tile
PAID = cs.Climb(paid=True, steps=0, special=True, primary=True)  # the Ritual action's paid steps


def blank(limbo: int = 0, ritual: tuple[int, int] = (1, 1), **where: int):
    """The first turn of a 2-player game; the active seat has Followers only where given
    (area id with "-" as "_"), ``limbo`` in Limbo, markers on ``ritual``; nothing else on the board."""
    state = through_setup(new_game(config(2, 0)).state)
    areas = empty_areas(state)
    players = tuple(
        replace(p, supply=FOLLOWERS, forts=FORT_LEVELS, limbo=0, ritual=(1, 1), ritual_best=(1, 1))
        for p in state.players
    )
    state = replace(state, areas=areas, players=players, shadows=SHADOWS, day="ritual")
    seat = state.active
    for key, n in where.items():
        state = units.place(state, seat, key.replace("_", "-"), n)
    pl = state.players[seat]
    return set_player(state, replace(pl, limbo=limbo, supply=pl.supply - limbo, ritual=ritual, ritual_best=ritual))


def me(state) -> int:
    return state.active


def push(state, *steps, seat: int | None = None, must: bool = False):
    seat = me(state) if seat is None else seat
    return H.resolve(H.push_effect(state, seat, steps, "day", must=must, then="day_done"), [])


def start_ritual(state) -> cs.ActionCard:
    """The starting Ritual card."""
    return narrow(cards.card(state, "start-ritual"), cs.ActionCard)


def ritual_day(state):
    """The starting Ritual card's Day effect, the Ritual action's primary effect."""
    return push(state, *present(start_ritual(state).day).steps)


def pl(state):
    return state.players[me(state)]


def play(state, *actions):
    events: list[Event] = []
    for action in actions:
        res = step(state, action)
        state = res.state
        events += res.events
    return state, events


def test_the_rulebooks_worked_example_plays_out_as_written():
    """PERFORM RITUAL, example: spaces 2-9 of our track embed it."""
    state = blank(
        limbo=3,
        weeping_orchard=1,
        ash_nave=1,
        moth_garden=1,
        salt_spire=1,
        ember_reach=1,
        mirror_dunes=1,
        bone_cloister=1,
    )
    assert pl(state).supply == FOLLOWERS - 10
    state = ritual_day(state)
    assert state.decision.kind == "climb"
    assert set(legal_actions(state)) == {A.ClimbMarker(marker=0), A.ClimbMarker(marker=1), A.Done()}
    # Follower 1 is spent to enter the special space whose bonus gives 3 MP
    state = apply(state, A.ClimbMarker(marker=0))
    assert A.PayFollower(area=W) in legal_actions(state) and A.Done() not in legal_actions(state)
    state, ev = play(state, A.PayFollower(area=W))
    assert pl(state).ritual == (2, 1) and pl(state).on_track == 1
    assert set(but_limbo(legal_actions(state))) == {A.TakeBonus(take=True), A.TakeBonus(take=False)}
    # Stage 1: 1 of the 3 MP moves Follower 2 to an adjacent area; the rest is forfeited
    state = apply(state, A.TakeBonus(take=True))
    assert present(state.decision).kind == "move" and narrow(state.work, MoveWork).mp == 3
    state = apply(state, A.MoveFollower(source=ASH, to=BELL))
    state = apply(state, A.Done())
    # Followers 3, 4 and 5 climb the next 3 steps
    for area in (MOTH, SALT, EMBER):
        assert present(state.decision).kind == "climb"
        state = apply(apply(state, A.ClimbMarker(marker=0)), A.PayFollower(area=area))
    assert pl(state).ritual == (5, 1)
    # Followers 6, 7 and 8 from Limbo pay for another step (no tooth area holds a Follower)
    state = apply(state, A.ClimbMarker(marker=0))
    assert legal_actions(state) == (A.PayLimbo(),)
    state = apply(state, A.PayLimbo())
    assert pl(state).limbo == 0 and pl(state).ritual == (6, 1)
    # Follower 9 enters the next space
    state = apply(apply(state, A.ClimbMarker(marker=0)), A.PayFollower(area=DUNES))
    # Follower 10 and the moved Follower 2 pay for the two-symbol special space
    state = apply(state, A.ClimbMarker(marker=0))
    assert set(legal_actions(state)) == {A.PayFollower(area=BONE), A.PayFollower(area=BELL)}
    state = apply(state, A.PayFollower(area=BONE))
    assert legal_actions(state) == (A.PayFollower(area=BELL),)
    state = apply(state, A.PayFollower(area=BELL))
    assert pl(state).ritual == (8, 1) and pl(state).on_track == 7
    assert sum(a.followers[me(state)] for a in state.areas) == 0
    # its bonus is forfeited; nothing is left to pay with, so the free step follows
    state, ev = play(state, A.TakeBonus(take=False))
    assert [e.kind for e in ev][:1] == ["ritual_bonus_ignored"]
    assert set(legal_actions(state)) == {A.ClimbMarker(marker=0), A.ClimbMarker(marker=1), A.Done()}
    assert isinstance(state.work, ClimbWork) and state.work.paid_left == 0 and state.work.free_left == 1
    # the free move enters the final space for this Action; the action ends
    state, ev = play(state, A.ClimbMarker(marker=0))
    assert pl(state).ritual == (9, 1) and pl(state).ritual_best == (9, 1)
    assert [e.kind for e in ev][:2] == ["ritual_climb", "ritual_followers_return"]
    assert pl(state).on_track == 0 and pl(state).supply == FOLLOWERS
    assert state.frames == () and H.between_steps(state) and state.decision.kind != "climb"
    assert ritual_vp(state, 9) == 3 and scores(state)[me(state)].ritual == 3


def test_every_payment_and_step_is_logged():
    state = push(blank(limbo=3, ritual=(2, 2), moth_garden=1), cs.Climb(paid=True, steps=0))
    state, ev = play(state, A.ClimbMarker(marker=1), A.PayFollower(area=MOTH), A.ClimbMarker(marker=1), A.PayLimbo())
    seat = me(state)
    assert [(e.kind, asdict(e)) for e in ev] == [
        ("ritual_pay", dict(seat=seat, area=MOTH, symbol="moon", space=3)),
        ("ritual_climb", dict(seat=seat, marker=1, space=3)),
        ("ritual_pay_limbo", dict(seat=seat, space=4)),
        ("ritual_climb", dict(seat=seat, marker=1, space=4)),
        ("ritual_followers_return", dict(seat=seat, count=1)),
    ]


def test_special_spaces_are_refused_to_a_plain_climb():
    state = push(blank(ritual=(1, 2), weeping_orchard=1, moth_garden=1), PLAIN)
    assert legal_actions(state) == (A.ClimbMarker(marker=1), A.Done())
    with pytest.raises(IllegalAction, match=r"special space.*\[SPACES \(special\)\]"):
        apply(state, A.ClimbMarker(marker=0))
    special = push(blank(ritual=(1, 2), weeping_orchard=1, moth_garden=1), SPECIAL)
    assert set(legal_actions(special)) == {A.ClimbMarker(marker=0), A.ClimbMarker(marker=1), A.Done()}


def test_a_free_step_enters_only_the_kinds_its_effect_names():
    state = push(blank(ritual=(1, 1)), FREE)
    assert state.decision.kind != "climb"  # both markers face a special space: nothing to climb
    state = push(blank(ritual=(1, 1)), cs.Climb(free=1, special=True, kinds=("open", "special")))
    state = apply(state, A.ClimbMarker(marker=0))
    assert pl(state).ritual == (2, 1) and isinstance(state.work, BonusWork)


def test_ritual_only_spaces_are_refused_to_climbs_other_than_the_ritual_primary_effect():
    where = {"weeping_orchard": 1, "salt_spire": 1, "moth_garden": 1}  # space 11: eye + key; space 2: moon
    for climb in (PLAIN, SPECIAL, cs.Climb(free=1, special=True, kinds=("open", "special", "ritual"))):
        state = push(blank(ritual=(11, 11), **where), climb)
        assert state.decision.kind != "climb"
        state = push(blank(ritual=(11, 2), **where), climb)
        assert A.ClimbMarker(marker=1) in legal_actions(state)
        assert A.ClimbMarker(marker=0) not in legal_actions(state)
        with pytest.raises(IllegalAction, match=r"ritual-only.*\[SPACES \(ritual-only\)\]"):
            apply(state, A.ClimbMarker(marker=0))
    state = ritual_day(blank(ritual=(11, 11), **where))
    state = apply(state, A.ClimbMarker(marker=0))
    state = apply(apply(state, A.PayFollower(area=W)), A.PayFollower(area=SALT))
    assert pl(state).ritual == (12, 11)


def test_ritual_only_spaces_may_be_paid_from_limbo():
    state = apply(ritual_day(blank(limbo=3, ritual=(11, 21))), A.ClimbMarker(marker=0))
    assert legal_actions(state) == (A.PayLimbo(),)
    state = apply(state, A.PayLimbo())
    assert pl(state).ritual == (12, 21)


def test_limbo_with_fewer_than_3_followers_cannot_pay():
    state = ritual_day(blank(limbo=2, ritual=(2, 21), moth_garden=1))
    state = apply(state, A.ClimbMarker(marker=0))
    assert but_limbo(legal_actions(state)) == (A.PayFollower(area=MOTH),)
    assert "Limbo holds 2: fewer than 3 can't pay" in describe_decision(state)
    with pytest.raises(IllegalAction, match=r"2 Followers in Limbo.*\[LIMBO\]") as why:
        apply(state, A.PayLimbo())
    assert why.value.section == "LIMBO"
    state = push(blank(limbo=2, ritual=(2, 21)), PAID)
    assert state.decision.kind != "climb"  # a step that can't be paid in full is not offered


def test_limbo_pays_a_whole_step_never_part_of_one():
    state = ritual_day(blank(limbo=3, ritual=(7, 21), weeping_orchard=1, moth_garden=1))  # space 8: eye + moon
    state = apply(apply(state, A.ClimbMarker(marker=0)), A.PayFollower(area=W))
    assert but_limbo(legal_actions(state)) == (A.PayFollower(area=MOTH),)
    with pytest.raises(IllegalAction, match=r"whole step.*\[LIMBO\]"):
        apply(state, A.PayLimbo())


def test_payment_from_a_non_matching_area_is_refused():
    state = ritual_day(blank(ritual=(2, 21), moth_garden=1, salt_spire=1))  # space 2: moon
    state = apply(state, A.ClimbMarker(marker=0))
    assert legal_actions(state) == (A.PayFollower(area=MOTH),)
    with pytest.raises(IllegalAction, match=r"matching a symbol.*\[PERFORM RITUAL\]"):
        apply(state, A.PayFollower(area=SALT))
    with pytest.raises(IllegalAction, match=r"no Follower in bell-hollow.*\[PERFORM RITUAL\]"):
        apply(state, A.PayFollower(area=BELL))


def test_a_step_of_several_symbols_is_offered_only_when_every_symbol_can_be_paid():
    state = push(blank(ritual=(7, 21), weeping_orchard=2), PAID)  # space 7: eye + moon
    assert state.decision.kind != "climb"
    state = blank(ritual=(7, 21), weeping_orchard=2)
    with_moon = units.place(state, 1 - me(state), MOTH)  # another seat's Follower
    assert push(with_moon, PAID).decision.kind != "climb"
    state = push(units.place(state, me(state), MOTH), PAID)
    assert legal_actions(state) == (A.ClimbMarker(marker=0), A.Done())


def test_paid_followers_wait_on_the_track_until_the_action_ends():
    state = ritual_day(blank(ritual=(2, 21), moth_garden=1, salt_spire=1))
    state = apply(apply(state, A.ClimbMarker(marker=0)), A.PayFollower(area=MOTH))
    state = apply(apply(state, A.ClimbMarker(marker=0)), A.PayFollower(area=SALT))
    assert pl(state).on_track == 2 and pl(state).supply == FOLLOWERS - 2
    assert board.area(state, MOTH).followers[me(state)] == 0
    # nothing left to pay: the free step
    assert present(state.decision).kind == "climb" and narrow(state.work, ClimbWork).paid_left == 0
    state, ev = play(state, A.Done())
    assert pl(state).on_track == 0 and pl(state).supply == FOLLOWERS
    assert any(e.kind == "ritual_followers_return" and e.count == 2 for e in ev)


def test_stopping_the_paid_steps_of_one_climb_leaves_its_free_steps():
    climb = cs.Climb(paid=True, steps=0, free=1, special=True, kinds=("open", "special"))
    state = push(blank(ritual=(2, 21), moth_garden=1), climb)
    assert state.work.paid_left == -1
    state = apply(state, A.Done())
    work = narrow(state.work, ClimbWork)
    assert work.paid_left == 0 and work.free_left == 1
    state = apply(state, A.ClimbMarker(marker=0))
    assert pl(state).ritual == (3, 21) and pl(state).on_track == 0
    assert board.area(state, MOTH).followers[me(state)] == 1  # a free step removes no Follower


def test_a_must_climb_offers_no_stop_while_a_step_can_be_paid():
    state = push(blank(ritual=(2, 21), moth_garden=1), PLAIN, must=True)
    assert legal_actions(state) == (A.ClimbMarker(marker=0),)


def test_a_marker_never_climbs_past_the_last_space():
    state = push(blank(limbo=6, ritual=(21, 20)), cs.Climb(free=1, special=True, kinds=("open", "special")))
    assert state.decision.kind != "climb"
    state = ritual_day(blank(limbo=6, ritual=(21, 20)))
    assert legal_actions(state) == (A.ClimbMarker(marker=1), A.Done())
    with pytest.raises(IllegalAction, match=r"last space.*\[PERFORM RITUAL\]"):
        apply(state, A.ClimbMarker(marker=0))
    state = apply(apply(state, A.ClimbMarker(marker=1)), A.PayLimbo())
    assert pl(state).ritual == (21, 21) and present(state.decision).kind != "climb"


def test_ritual_best_keeps_the_furthest_space_and_scores_it():
    state = blank(ritual=(3, 14), moth_garden=1)
    state = set_player(state, replace(pl(state), ritual_best=(6, 14)))
    state = push(state, FREE)
    state = apply(state, A.ClimbMarker(marker=0))
    assert pl(state).ritual == (4, 14) and pl(state).ritual_best == (6, 14)
    state = push(state, FREE)
    state = apply(state, A.ClimbMarker(marker=1))
    assert pl(state).ritual_best == (6, 15)
    assert scores(state)[me(state)].ritual == ritual_vp(state, 6) + ritual_vp(state, 15) == 2 + 7


def test_the_cathedral_climb_works_for_any_player():
    state = blank()
    other = 1 - me(state)
    state = set_player(state, replace(state.players[other], ritual=(2, 1)))
    state = H.resolve(H.push_effect(state, other, (FREE,), "cathedral", then="day_done"), [])
    assert present(state.decision).seat == other and legal_actions(state) == (A.ClimbMarker(marker=0), A.Done())
    state = apply(state, A.ClimbMarker(marker=0))
    assert state.players[other].ritual == (3, 1) and state.players[other].ritual_best == (3, 1)


def test_a_special_space_bonus_is_resolved_in_full_before_climbing_further():
    state = ritual_day(blank(ritual=(13, 21), ash_nave=1, choir_of_teeth=1, mirror_dunes=1))  # space 13: produce 2
    state = apply(apply(apply(state, A.ClimbMarker(marker=0)), A.PayFollower(area=ASH)), A.PayFollower(area=CHOIR))
    state = apply(state, A.TakeBonus(take=True))
    assert present(state.decision).kind == "produce" and A.ProduceIn(area=DUNES) in legal_actions(state)
    state = apply(apply(state, A.ProduceIn(area=DUNES)), A.ProduceIn(area=DUNES))
    assert board.area(state, DUNES).followers[me(state)] == 3
    # the climb goes on: space 14 (spiral) is paid with a Follower just produced
    assert present(state.decision).kind == "climb" and narrow(state.work, ClimbWork).paid_left == -1
    state = apply(apply(state, A.ClimbMarker(marker=0)), A.PayFollower(area=DUNES))
    assert pl(state).ritual == (15, 21)


def test_commanding_a_nightmare_has_no_effect_in_stage_1():
    state = push(blank(ritual=(15, 21), weeping_orchard=1, moth_garden=1), SPECIAL)  # space 15: eye + moon
    state = apply(apply(state, A.ClimbMarker(marker=0)), A.PayFollower(area=W))
    state, ev = play(state, A.PayFollower(area=MOTH))
    assert pl(state).ritual == (16, 21) and not isinstance(state.work, BonusWork)
    assert any(e.kind == "no_effect_stage1" and e.step == "command_nightmare" for e in ev)


def test_the_example_scenario_plays_through_the_ritual_day_action():
    """The practice position ritual-example-2p.toml: the same example from the Day space, with a Fortress in
    an eye area (its Fort keeps control once its Follower has paid)."""

    from nctui.games.nightmare_cathedral.engine.invariants import violations
    from nctui.games.nightmare_cathedral.practice import BUNDLED
    from nctui.games.nightmare_cathedral.scenarios import load_scenario

    state = load_scenario(BUNDLED / "ritual-example-2p.toml")
    blue = state.active
    moves: list[Action] = [
        A.ChooseDay(action="ritual"),
        A.ClimbMarker(marker=0),
        A.PayFollower(area=W),
        A.TakeBonus(take=True),
        A.MoveFollower(source=ASH, to=BELL),
        A.Done(),
    ]
    for area in (MOTH, SALT, EMBER):
        moves += [A.ClimbMarker(marker=0), A.PayFollower(area=area)]
    moves += [
        A.ClimbMarker(marker=0),
        A.PayLimbo(),
        A.ClimbMarker(marker=0),
        A.PayFollower(area=DUNES),
        A.ClimbMarker(marker=0),
        A.PayFollower(area=BONE),
        A.PayFollower(area=BELL),
        A.TakeBonus(take=False),
        A.ClimbMarker(marker=0),
    ]
    for action in moves:
        state = apply(state, action)
        assert violations(state) == []
    p = state.players[blue]
    assert p.ritual == (9, 1) and p.on_track == 0 and p.limbo == 0 and p.supply == FOLLOWERS
    assert board.area(state, BONE).fort_owner == blue and present(state.decision).kind == "discard_dreams"


def test_followers_paid_in_a_conform_reaction_go_home_when_the_reaction_ends():
    state = blank(moth_garden=1)
    mine, other = me(state), 1 - me(state)
    state = units.place(state, other, MOTH)
    state = set_player(state, replace(state.players[other], ritual=(2, 1), ritual_best=(2, 1)))
    state = replace(state, phase="reactions", queue=(other,))
    conform = present(start_ritual(state).conform).steps  # "Climb 1 open step, paying for it."
    state = H.resolve(H.push_effect(state, other, conform, "conform", then="reaction_done"), [])
    assert present(state.decision).seat == other and legal_actions(state) == (A.ClimbMarker(marker=0), A.Done())
    state = apply(state, A.ClimbMarker(marker=0))
    assert legal_actions(state) == (A.PayFollower(area=MOTH),)  # only its own Follower pays
    state, ev = play(state, A.PayFollower(area=MOTH))
    assert state.players[other].ritual == (3, 1) and state.players[other].on_track == 0
    assert state.players[other].supply == FOLLOWERS and state.players[mine].supply == FOLLOWERS - 1
    assert [e.kind for e in ev][:3] == ["ritual_pay", "ritual_climb", "ritual_followers_return"]
