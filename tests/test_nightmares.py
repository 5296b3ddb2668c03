"""Stage 2: completing the Cathedral, COMMAND NIGHTMARES, CURRENT AREA and DEVOURING UNITS.

The tests use hand-built Nightmare cards in a copy of the base pack registered under its own id,
so each one controls exactly what a command does.
"""

from __future__ import annotations

import itertools
from typing import Literal

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.content.loader import get_pack, register
from nctui.games.nightmare_cathedral.engine import (
    IllegalAction,
    actions as A,
    apply,
    board,
    cathedral,
    legal_actions,
    new_game,
    nightmares,
    step,
    turn,
    units,
)
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.state import FOLLOWERS, FORT_LEVELS, SHADOWS, GameState
from tests import helpers as H
from tests.helpers import config, empty_areas, through_setup

# The small board side (1-2 players)
ASH, BELL, CHOIR, STAIR = "ash-nave", "bell-hollow", "choir-of-teeth", "hollow-stair"
FEN, W = "lantern-fen", "weeping-orchard"
BONE, MOTH, GATE, EMBER, SALT = "bone-cloister", "moth-garden", "drowned-gate", "ember-reach", "salt-spire"
NEAR_CATHEDRAL = {ASH, CHOIR, STAIR, MOTH}
CATHEDRAL = "cathedral"
SH = -2  # the Shadows' side

_ids = itertools.count()


def nightmare(number: int, *steps: cs.Step, devoured: tuple = (6, 8, 10)) -> cs.NightmareCard:
    return cs.NightmareCard(
        number=number,
        name=f"Test Nightmare {number}",
        text="test",
        command=cs.Effect(text="test", steps=tuple(steps)),
        devoured=devoured,
    )


def pack_with(*cards: cs.NightmareCard, development: tuple = ()) -> str:
    """A copy of the base pack with these Nightmares (and extra Development cards), registered."""
    base = get_pack("base")
    pack_id = f"nightmare-test-{next(_ids)}"
    content = replace(base.cards, nightmares=tuple(cards), development=base.cards.development + tuple(development))
    register(replace(base, info=replace(base.info, id=pack_id), cards=content))
    return pack_id


MOVE1 = nightmare(1, cs.NightmareMove(steps=1))
MOVE2 = nightmare(2, cs.NightmareMove(steps=2))


def stage2(
    *cards: cs.NightmareCard, players: int = 2, at: tuple[str, str] = (CATHEDRAL, CATHEDRAL), seed: int = 0
) -> GameState:
    """The first turn of a game, moved to Stage 2 on an empty board, Nightmares where given."""
    cards = cards or (MOVE1, MOVE2)
    pack_id = pack_with(*cards)
    numbers = tuple(c.number for c in cards)
    state = through_setup(new_game(config(players, seed, pack=pack_id, nightmares=numbers)).state)
    areas = empty_areas(state)
    pls = tuple(replace(p, supply=FOLLOWERS, forts=FORT_LEVELS, limbo=0) for p in state.players)
    return replace(state, areas=areas, players=pls, shadows=SHADOWS, stage=2, cathedral_track=(), nightmare_at=at)


def me(state: GameState) -> int:
    return state.active


def opp(state: GameState) -> int:
    return (state.active + 1) % len(state.players)


def put(state: GameState, side: int, area: str, n: int = 1) -> GameState:
    return units.place(state, side, area, n)


def run(state: GameState, *steps: cs.Step, seat: int | None = None, must: bool = False):
    """Push an effect for ``seat`` (the active player) and resolve it up to the first decision."""
    ev: list = []
    seat = me(state) if seat is None else seat
    state = H.push_effect(state, seat, steps, "day", must=must, then="day_done")
    return H.resolve(state, ev), ev


def play(state: GameState, *actions: A.Action):
    ev: list = []
    for action in actions:
        res = step(state, action)
        state, ev = res.state, ev + list(res.events)
    return state, ev


def options(state: GameState, kind: type) -> set:
    return {a for a in legal_actions(state) if isinstance(a, kind)}


def move_options(state: GameState) -> set[str]:
    return {a.to for a in options(state, A.MoveNightmare)}


def command(state: GameState, number: int, **kw):
    """Push "command a Nightmare" for the active player and choose ``number``."""
    state, ev = run(state, cs.CommandNightmare(), **kw)
    state, more = play(state, A.ChooseNightmare(number=number))
    return state, ev + more


# ---------------------------------------------------------------------------------------------
# Completing the Cathedral


def test_the_last_piece_flips_the_sideboard_and_brings_both_nightmares_into_the_cathedral_space():
    state = stage2()
    state = replace(
        state,
        stage=1,
        nightmare_at=(),
        phase="reactions",
        queue=(),
        day="develop",
        turn_number=13,
        cathedral_track=("6B",),
    )
    ev: list = []
    state = H.resolve(cathedral.build(replace(state, work=None, decision=None), state.active, ev), ev)
    kinds = [e.kind for e in ev]
    assert state.stage == 2 and state.nightmare_at == (CATHEDRAL, CATHEDRAL)
    assert kinds.index("cathedral_complete") < kinds.index("sideboard_flipped") < kinds.index("nightmares_enter")
    assert violations(state) == []


def test_before_stage_2_the_nightmares_are_nowhere_and_their_effects_do_nothing():
    state = replace(stage2(), stage=1, nightmare_at=())
    state = put(state, opp(state), ASH)
    before = state
    state, ev = run(state, cs.CommandNightmare(), cs.Devour(count=1, where="any"), cs.NightmareMove(steps=1))
    assert [e.step for e in ev if e.kind == "no_effect_stage1"] == ["command_nightmare", "devour", "nightmare_move"]
    assert state.areas == before.areas and state.players[opp(state)].devoured == 0
    assert board.areas_matching(state, me(state), "nightmare") == ()
    with pytest.raises(IllegalAction, match="THE NIGHTMARE CATHEDRAL"):
        apply(state, A.ChooseNightmare(number=1))


# ---------------------------------------------------------------------------------------------
# Commanding


def test_the_player_chooses_which_of_the_two_nightmares_to_command():
    state, _ = run(stage2(), cs.CommandNightmare())
    assert state.decision.kind == "command_nightmare" and state.decision.seat == me(state)
    assert set(legal_actions(state)) == {A.ChooseNightmare(number=1), A.ChooseNightmare(number=2), A.Done()}
    state, ev = play(state, A.ChooseNightmare(number=2))
    assert state.commanding == 2 and state.visited == (CATHEDRAL,)
    assert any(e.kind == "command_nightmare" and e.number == 2 for e in ev)
    with pytest.raises(IllegalAction, match="COMMAND NIGHTMARES"):
        apply(state, A.ChooseNightmare(number=1))  # a Nightmare is moving now, not being chosen


def test_no_player_commands_the_same_nightmare_twice_in_a_turn():
    state, _ = command(stage2(), 1)
    state, _ = play(state, A.MoveNightmare(to=ASH))
    assert state.commanding == 0 and state.visited == () and state.commanded == ((me(state), 1),)
    state, _ = run(state, cs.CommandNightmare())
    assert options(state, A.ChooseNightmare) == {A.ChooseNightmare(number=2)}
    with pytest.raises(IllegalAction, match=r"already commanded Nightmare 1.*\[COMMAND NIGHTMARES\]"):
        apply(state, A.ChooseNightmare(number=1))
    state, _ = play(state, A.ChooseNightmare(number=2), A.MoveNightmare(to=STAIR), A.MoveNightmare(to=GATE))
    # both commanded: the step does nothing, and says so
    before = state
    state, ev = run(state, cs.CommandNightmare())
    assert any(e.kind == "nightmares_unavailable" for e in ev) and state.nightmare_at == before.nightmare_at
    # another player may still command them this turn
    state, _ = run(state, cs.CommandNightmare(), seat=opp(state))
    assert len(options(state, A.ChooseNightmare)) == 2


def test_the_once_per_turn_rule_resets_when_a_new_turn_begins():
    state, _ = command(stage2(), 1)
    state, _ = play(state, A.MoveNightmare(to=ASH))
    state = turn.begin_turn(replace(state, frames=(), work=None), [])
    assert state.commanded == ()
    state, _ = run(state, cs.CommandNightmare())
    assert A.ChooseNightmare(number=1) in legal_actions(state)


def test_command_two_gives_one_command_to_each_nightmare():
    state, _ = run(stage2(), cs.CommandNightmare(count=2))
    state, _ = play(state, A.ChooseNightmare(number=1), A.MoveNightmare(to=ASH))
    assert legal_actions(state) == (A.ChooseNightmare(number=2), A.Done())


def test_a_command_resolved_in_full_offers_no_stop_and_an_optional_one_may_stop():
    state, _ = run(stage2(), cs.CommandNightmare(), must=True)
    assert A.Done() not in legal_actions(state)
    state, _ = play(state, A.ChooseNightmare(number=2))
    assert A.Done() not in legal_actions(state)  # its moves too
    state, _ = run(stage2(), cs.CommandNightmare())
    state, _ = play(state, A.ChooseNightmare(number=2))
    assert A.Done() in legal_actions(state)
    state, _ = play(state, A.MoveNightmare(to=ASH), A.Done())  # stops after 1 of its 2 moves
    assert state.nightmare_at == (CATHEDRAL, ASH) and state.commanding == 0 and state.visited == ()


@pytest.mark.parametrize("both_commanded", [False, True])
def test_the_ritual_bonus_commands_a_nightmare_in_stage_2(both_commanded):
    state = stage2()
    if both_commanded:
        state = replace(state, commanded=((me(state), 1), (me(state), 2)))
    state = put(put(state, me(state), W), me(state), MOTH)  # space 16 costs eye + moon
    pl = state.players[me(state)]
    state = set_player(state, replace(pl, ritual=(15, 0), ritual_best=(15, 0)))
    state, _ = run(state, cs.Climb(paid=True, steps=1, special=True))
    state, ev = play(state, A.ClimbMarker(marker=0), A.PayFollower(area=W), A.PayFollower(area=MOTH))
    if both_commanded:  # nothing to command: the bonus has no effect, and the log says why
        assert not options(state, A.TakeBonus) and any(e.kind == "nightmares_unavailable" for e in ev)
        return
    assert A.TakeBonus(take=True) in legal_actions(state)
    state, _ = play(state, A.TakeBonus(take=True))
    assert options(state, A.ChooseNightmare) == {A.ChooseNightmare(number=1), A.ChooseNightmare(number=2)}


# ---------------------------------------------------------------------------------------------
# Moving


def test_the_first_move_out_of_the_cathedral_space_goes_next_to_the_cathedral():
    state, _ = command(stage2(), 1)
    assert state.decision.kind == "move_nightmare"
    assert move_options(state) == NEAR_CATHEDRAL
    with pytest.raises(IllegalAction, match=r"adjacent to the Cathedral.*COMMAND NIGHTMARES"):
        apply(state, A.MoveNightmare(to=SALT))
    state, ev = play(state, A.MoveNightmare(to=CHOIR))
    assert nightmares.location(state, 1) == CHOIR and nightmares.location(state, 2) == CATHEDRAL
    assert any(e.kind == "nightmare_moves" and e.to == CHOIR and e.source == CATHEDRAL for e in ev)


def test_even_an_anywhere_move_leaves_the_cathedral_space_into_an_adjacent_area():
    state, _ = command(stage2(nightmare(1, cs.NightmareMove(steps=2, anywhere=True)), MOVE2), 1)
    assert move_options(state) == NEAR_CATHEDRAL
    state, _ = play(state, A.MoveNightmare(to=ASH))
    assert move_options(state) == {a.id for a in state.areas} - {ASH}  # then any area it hasn't been in


def test_a_nightmare_never_enters_its_start_area_nor_an_area_twice_in_one_activation():
    state, _ = command(stage2(nightmare(1, cs.NightmareMove(steps=3)), MOVE2, at=(ASH, CATHEDRAL)), 1)
    assert move_options(state) == set(board.adjacent(state, ASH))
    state, _ = play(state, A.MoveNightmare(to=W))
    assert move_options(state) == {BELL, FEN}  # not back to Ash Nave, where it started
    with pytest.raises(IllegalAction, match=r"started this activation in ash-nave.*\[COMMAND NIGHTMARES\]"):
        apply(state, A.MoveNightmare(to=ASH))
    state, _ = play(state, A.MoveNightmare(to=BELL))
    assert move_options(state) == {CHOIR, SALT}  # Weeping Orchard entered already, Ash Nave the start
    with pytest.raises(IllegalAction, match=r"already entered weeping-orchard in this activation"):
        apply(state, A.MoveNightmare(to=W))
    state, _ = play(state, A.MoveNightmare(to=SALT))
    assert nightmares.location(state, 1) == SALT and state.commanding == 0


def test_the_next_activation_may_enter_the_areas_of_the_last_one():
    state, _ = command(stage2(nightmare(1, cs.NightmareMove(steps=1)), MOVE2, at=(ASH, CATHEDRAL)), 1)
    state, _ = play(state, A.MoveNightmare(to=W))
    state = turn.begin_turn(replace(state, frames=(), work=None), [])
    state, _ = command(state, 1)
    assert ASH in move_options(state)


def test_once_out_a_nightmare_never_returns_to_the_cathedral_space_unless_an_effect_says_so():
    state, _ = command(stage2(nightmare(1, cs.NightmareMove(steps=2)), MOVE2, at=(ASH, CATHEDRAL)), 1)
    assert CATHEDRAL not in move_options(state)
    with pytest.raises(IllegalAction, match=r"may not enter it again.*THE NIGHTMARE CATHEDRAL"):
        apply(state, A.MoveNightmare(to=CATHEDRAL))


def test_a_return_effect_brings_it_back_and_it_leaves_again_next_to_the_cathedral():
    card = nightmare(1, cs.NightmareReturn(), cs.NightmareMove(steps=1))
    state, ev = command(stage2(card, MOVE2, at=(ASH, CATHEDRAL)), 1)
    assert any(e.kind == "nightmare_returns" and e.source == ASH for e in ev)
    assert move_options(state) == NEAR_CATHEDRAL - {ASH}  # Ash Nave: where this activation started
    state, _ = play(state, A.MoveNightmare(to=MOTH))
    assert nightmares.location(state, 1) == MOTH


def test_with_no_legal_area_the_move_ends_and_says_so():
    card = nightmare(1, cs.NightmareMove(steps=2, toward="fort"))  # no Fort anywhere
    state, ev = command(stage2(card, MOVE2, at=(ASH, CATHEDRAL)), 1)
    stuck = [e for e in ev if e.kind == "nightmare_stuck"]
    assert stuck and stuck[0].area == ASH and nightmares.location(state, 1) == ASH
    assert state.commanding == 0 and state.decision.kind != "move_nightmare"


def test_nightmares_ignore_units_and_unit_limits():
    state = stage2(at=(ASH, CATHEDRAL))
    state = put(put(state, opp(state), W, 3), SH, W, 3)
    state, _ = command(state, 1)
    assert W in move_options(state)
    state, _ = play(state, A.MoveNightmare(to=W))
    assert board.area(state, W).followers[opp(state)] == 3 and board.area(state, W).shadows == 3


def _filter_board() -> GameState:
    """Around Ash Nave: Bell Hollow 2 of mine; Choir 3 Shadows; Hollow Stair an opponent's Fort and
    Follower; Lantern Fen empty; Weeping Orchard 1 of mine and 1 of the opponent's. Moon is marked."""
    state = stage2(at=(ASH, CATHEDRAL))
    state = put(state, me(state), BELL, 2)
    state = put(state, SH, CHOIR, 3)
    state = units.add_fort_level(put(state, opp(state), STAIR), opp(state), STAIR)
    state = put(put(state, me(state), W), opp(state), W)
    moon = board.pack(state).tracks.turn.index("moon")
    return replace(state, turn_pos=moon, commanding=1, visited=(ASH,))


@pytest.mark.parametrize(
    "toward, expected",
    [
        ("any", {BELL, CHOIR, STAIR, FEN, W}),
        ("most_units", {CHOIR}),
        ("fewest_units", {FEN}),
        ("followers", {BELL, STAIR, W}),
        ("shadows", {CHOIR}),
        ("marked", {BELL}),
        ("fort", {STAIR}),
        ("empty", {FEN}),
        ("commander", {BELL, W}),
        ("opponents", {STAIR, W}),
    ],
)
def test_toward_filters_the_adjacent_areas(toward, expected):
    state = _filter_board()
    assert set(nightmares.candidates(state, me(state), cs.NightmareMove(toward=toward))) == expected


def test_toward_ties_offer_every_tied_area_and_the_player_chooses():
    state = replace(_filter_board(), commanding=0, visited=())
    state = put(state, SH, W, 1)  # Weeping Orchard: 3 units, as many as the Choir
    state = stage2_with(state, nightmare(1, cs.NightmareMove(steps=1, toward="most_units")))
    state, _ = command(state, 1, must=True)
    assert legal_actions(state) == (A.MoveNightmare(to=CHOIR), A.MoveNightmare(to=W))
    with pytest.raises(IllegalAction, match="does not match this move"):
        apply(state, A.MoveNightmare(to=BELL))


def stage2_with(state: GameState, *cards: cs.NightmareCard) -> GameState:
    """The same position with other Nightmare cards (a pack of their own)."""
    return replace(state, pack=pack_with(*cards, *(c for c in (MOVE1, MOVE2)[len(cards) :])))


def test_on_enter_resolves_in_each_area_entered_as_the_current_area():
    card = nightmare(1, cs.NightmareMove(steps=2, on_enter=(cs.AddShadows(count=1, where="nightmare"),)))
    state, _ = command(stage2(card, MOVE2, at=(ASH, CATHEDRAL)), 1)
    state, _ = play(state, A.MoveNightmare(to=W))
    assert legal_actions(state) == (A.AddShadow(area=W),)  # the current area: where it just entered
    state, _ = play(state, A.AddShadow(area=W))
    assert move_options(state) == {BELL, FEN}  # the second move, after the first area's effect
    state, _ = play(state, A.MoveNightmare(to=FEN))
    assert legal_actions(state) == (A.AddShadow(area=FEN),)
    state, _ = play(state, A.AddShadow(area=FEN))
    assert board.area(state, W).shadows == 1 and board.area(state, FEN).shadows == 1 and state.commanding == 0


def test_the_current_area_is_the_commanded_nightmares_else_every_nightmares_area():
    state = stage2(at=(ASH, BONE))
    assert set(board.areas_matching(state, 0, "nightmare")) == {ASH, BONE}
    assert board.areas_matching(replace(state, commanding=2), 0, "nightmare") == (BONE,)
    assert board.areas_matching(replace(state, nightmare_at=(CATHEDRAL, CATHEDRAL)), 0, "nightmare") == ()


# ---------------------------------------------------------------------------------------------
# Devouring


def _crowded() -> GameState:
    """A Nightmare in Ash Nave with 2 of my Followers, 2 of my opponent's and 2 Shadows."""
    state = stage2(at=(ASH, CATHEDRAL))
    return put(put(put(state, me(state), ASH, 2), opp(state), ASH, 2), SH, ASH, 2)


def _devour(state: GameState, whose: Literal["any", "shadows", "opponents", "own"], count: int = 1, **kw):
    return run(replace(state, commanding=1), cs.Devour(count=count, whose=whose), **kw)


def test_devoured_units_leave_the_game_not_for_limbo_nor_supply():
    state, ev = _devour(_crowded(), "opponents", count=2, must=True)
    o = state.players[opp(state)]
    assert o.devoured == 2 and o.limbo == 0 and o.supply == FOLLOWERS - 2
    assert board.area(state, ASH).followers[opp(state)] == 0
    assert [e.kind for e in ev].count("devour") == 2 and violations(state) == []


@pytest.mark.parametrize(
    "whose, sides",
    [
        ("any", {"me", "opp", SH}),
        ("shadows", {SH}),
        ("opponents", {"opp"}),
        ("own", {"me"}),
    ],
)
def test_whose_names_the_sides_that_may_be_devoured(whose, sides):
    state, _ = _devour(_crowded(), whose)
    named = {"me": me(state), "opp": opp(state), SH: SH}
    assert {a.side for a in options(state, A.DevourUnit)} == {named[s] for s in sides}


def test_the_resolving_player_chooses_whose_unit_is_devoured():
    state, _ = _devour(_crowded(), "any", must=True)
    assert state.decision.kind == "devour" and state.decision.seat == me(state)
    assert A.Done() not in legal_actions(state)
    state, _ = play(state, A.DevourUnit(area=ASH, side=SH))
    assert state.devoured_shadows == 1 and state.shadows == SHADOWS - 2 + 0
    assert board.area(state, ASH).shadows == 1 and violations(state) == []


def test_a_unit_of_a_side_the_effect_does_not_name_is_refused():
    state, _ = _devour(_crowded(), "opponents")
    assert state.decision.kind == "devour"  # optional here: the opponent has 2, so choose (or stop)
    with pytest.raises(IllegalAction, match=r"devours opponents units only \[DEVOURING UNITS\]"):
        apply(state, A.DevourUnit(area=ASH, side=me(state)))
    with pytest.raises(IllegalAction, match=r"CURRENT AREA"):
        apply(state, A.DevourUnit(area=BELL, side=opp(state)))


def test_with_one_side_to_devour_an_effect_in_full_devours_at_once():
    state = stage2(at=(ASH, CATHEDRAL))
    state = put(state, opp(state), ASH, 1)
    state, ev = _devour(state, "any", count=2, must=True)
    assert state.players[opp(state)].devoured == 1
    assert any(e.kind == "nothing_to_devour" and e.left == 1 for e in ev)


def test_devour_by_on_enter_in_each_area_the_nightmare_enters():
    card = nightmare(1, cs.NightmareMove(steps=2, on_enter=(cs.Devour(count=1),)))
    state = stage2(card, MOVE2, at=(ASH, CATHEDRAL))
    state = put(put(state, opp(state), W), SH, BELL)
    state, _ = command(state, 1, must=True)
    state, ev = play(state, A.MoveNightmare(to=W), A.MoveNightmare(to=BELL))
    assert state.players[opp(state)].devoured == 1 and state.devoured_shadows == 1
    where = [
        (e.kind, e.to if e.kind == "nightmare_moves" else e.area) for e in ev if e.kind in ("nightmare_moves", "devour")
    ]
    assert where == [("nightmare_moves", W), ("devour", W), ("nightmare_moves", BELL), ("devour", BELL)]


def test_a_nightmare_in_the_cathedral_space_devours_nothing():
    state = stage2()
    state = put(state, opp(state), ASH)
    state, ev = run(state, cs.Devour(count=1), must=True)
    assert any(e.kind == "nothing_to_devour" for e in ev) and state.players[opp(state)].devoured == 0


# ---------------------------------------------------------------------------------------------
# The threshold


@pytest.mark.parametrize("players, expected", [(2, 7), (3, 9), (4, 12)])
def test_the_threshold_is_the_higher_of_the_two_cards_for_the_player_count(players, expected):
    state = stage2(nightmare(1, devoured=(7, 8, 10)), nightmare(2, devoured=(5, 9, 12)), players=players)
    assert nightmares.threshold(state) == expected


def test_a_card_without_a_number_uses_the_other_and_with_neither_devouring_never_ends():
    state = stage2(nightmare(1, devoured=()), nightmare(2, devoured=(5, 9, 12)))
    assert nightmares.threshold(state) == 5
    state = stage2(nightmare(1, devoured=(6, None, None)), nightmare(2, devoured=(None, None, 11)), players=3)
    assert nightmares.threshold(state) is None
    state = stage2(nightmare(1, devoured=()), nightmare(2, devoured=()))
    state = put(put(state, opp(state), ASH, 3), SH, ASH, 3)
    state, _ = _devour(replace(state, nightmare_at=(ASH, CATHEDRAL)), "any", count=6, must=True)
    while state.decision.kind == "devour":
        state, _ = play(state, legal_actions(state)[0])
    assert nightmares.devoured_total(state) == 6 and not state.end_triggered


def test_reaching_the_threshold_triggers_the_end_once():
    state = stage2(nightmare(1, devoured=(3, 3, 3)), nightmare(2, devoured=(2, 2, 2)), at=(ASH, CATHEDRAL))
    state = put(put(state, opp(state), ASH, 2), SH, ASH, 2)
    state = replace(state, devoured_shadows=1, shadows=SHADOWS - 3)  # one Shadow already devoured
    state, ev = _devour(state, "opponents", count=2, must=True)
    triggered = [e for e in ev if e.kind == "end_triggered"]
    assert state.end_triggered and len(triggered) == 1 and triggered[0].devoured == 3 and triggered[0].threshold == 3
    assert violations(state) == []


def test_a_command_inside_a_command_resumes_the_first_activation_where_it_was():
    """E.g. a conflict in a Nightmare's current area whose Victory commands the other Nightmare."""
    outer = nightmare(1, cs.NightmareMove(steps=1), cs.CommandNightmare(), cs.NightmareMove(steps=1))
    state, _ = command(stage2(outer, nightmare(2, cs.NightmareMove(steps=1)), at=(ASH, BONE)), 1, must=True)
    state, _ = play(state, A.MoveNightmare(to=W))
    assert legal_actions(state) == (A.ChooseNightmare(number=2),)  # Nightmare 1: commanded by me already
    state, _ = play(state, A.ChooseNightmare(number=2))
    assert state.commanding == 2 and state.visited == (BONE,) and state.suspended == ((1, (ASH, W)),)
    assert board.areas_matching(state, me(state), "nightmare") == (BONE,)
    state, _ = play(state, A.MoveNightmare(to=MOTH))
    assert state.commanding == 1 and state.visited == (ASH, W) and state.suspended == ()
    assert move_options(state) == {BELL, FEN}  # still not its start nor where it has been
    state, _ = play(state, A.MoveNightmare(to=FEN))
    assert state.nightmare_at == (FEN, MOTH) and state.commanding == 0 and violations(state) == []


def test_a_position_mid_command_survives_a_save():
    import msgspec

    card = nightmare(1, cs.NightmareMove(steps=2, on_enter=(cs.Devour(count=1),)))
    state = stage2(card, MOVE2)
    state = put(put(state, SH, ASH), opp(state), ASH)
    moving, _ = command(state, 1)
    devouring, _ = play(moving, A.MoveNightmare(to=ASH))
    assert devouring.decision.kind == "devour"
    for mid in (moving, devouring):
        assert msgspec.msgpack.decode(msgspec.msgpack.encode(mid), type=GameState) == mid
