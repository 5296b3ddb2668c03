"""PLAYING DREAM CARDS: every condition, the timings, the golden rule, the personal pile."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.engine import (
    IllegalAction,
    actions as A,
    apply,
    board,
    cards,
    dreams,
    events as E,
    legal_actions,
    new_game,
    step,
    turn,
    units,
)
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.scoring import dream_vp, scores
from nctui.games.nightmare_cathedral.engine.state import FOLLOWERS, FORT_LEVELS, SHADOWS, GameState
from nctui.games.nightmare_cathedral.engine.work import DreamWork, ReactionDone
from tests import helpers as H
from tests.helpers import config, empty_areas, of_kind, present, through_setup

# The small board side (2 players); Marked Areas (eye): W and BONE.
W, BELL, ASH = "weeping-orchard", "bell-hollow", "ash-nave"  # eye, moon, flame
BONE, EMBER = "bone-cloister", "ember-reach"  # eye, flame

FIRST_RUNG = "dr1-first-rung"  # own turn: a Ritual marker on space 8
WHISPERS = "dr1-whispers-every-hall"  # any time: present in 8 areas
MARKED_DOORS = "dr1-marked-doors"  # end of own turn: control 2 Marked Areas; then produce 1 in one
VICTOR = "dr1-victors-dream"  # after a conflict won: control 4 areas; then draw 1
HOST = "dr1-host-of-sleepers"  # own turn: 14 Followers on the board


def blank(seed: int = 0) -> GameState:
    """The first turn of a 2-player game with nothing on the board, no Dreams in hand, an
    empty Dream deck and offer (so no step asks for Dreams), Shapers out of the way."""
    state = through_setup(new_game(config(2, seed)).state)
    areas = empty_areas(state)
    removed = state.decks.dream + state.decks.dream_offer + tuple(c for p in state.players for c in p.dreams)
    players = tuple(
        replace(
            p, supply=FOLLOWERS, forts=FORT_LEVELS, limbo=0, ritual=(0, 0), ritual_best=(0, 0), dreams=(), shaper=EMBER
        )
        for p in state.players
    )
    decks = replace(state.decks, dream=(), dream_offer=(), removed=state.decks.removed + removed)
    return replace(state, areas=areas, players=players, shadows=SHADOWS, decks=decks)


def me(state) -> int:
    return state.active


def put(state, seat=None, **where: int):
    seat = me(state) if seat is None else seat
    for key, n in where.items():
        state = units.place(state, seat, key.replace("_", "-"), n)
    return state


def fort(state, area: str, levels: int, seat=None, fortress=False):
    seat = me(state) if seat is None else seat
    for _ in range(levels):
        state = units.add_fort_level(state, seat, area)
    if fortress:
        state = replace(state, areas=board.replace_area(state, replace(board.area(state, area), fortress=seat)))
    return state


def edit(state, seat=None, **fields):
    seat = me(state) if seat is None else seat
    return set_player(state, replace(state.players[seat], **fields))


def holding(state, *card_ids, seat=None):
    return edit(state, seat, dreams=tuple(card_ids))


def shadows(state, **where: int):
    for key, n in where.items():
        state = units.place(state, board.SHADOWS_SIDE, key.replace("_", "-"), n)
    return state


def upgrades(state, *ids: str):
    """Stack the Upgrades on their Action cards in the display, the first ones covered."""
    rondel = board.pack(state).matrix.rondel
    pl = state.players[me(state)]
    display = [tuple(s[:1]) for s in pl.display]
    for c in ids:
        slot = rondel.index(cards.development(state, c).action)
        display[slot] += (c,)
    return edit(state, display=tuple(display))


# ---------------------------------------------------------------------------------------------
# Conditions: each one false, then true


CASES: list[tuple[cs.Condition, Callable[[GameState], GameState], Callable[[GameState], GameState]]] = [
    (cs.ControlAreas(count=2), lambda s: put(s, bell_hollow=1), lambda s: put(s, bell_hollow=1, ash_nave=1)),
    (
        cs.ControlAreas(count=2, where="corner"),
        lambda s: put(s, weeping_orchard=1, ash_nave=1),
        lambda s: put(s, weeping_orchard=1, salt_spire=1),
    ),
    (
        cs.ControlAreas(count=1, where="adjacent_cathedral"),
        lambda s: put(s, weeping_orchard=1),
        lambda s: put(s, ash_nave=1),
    ),
    (cs.ControlAreas(count=1, where="marked"), lambda s: put(s, ash_nave=1), lambda s: put(s, weeping_orchard=1)),
    (
        cs.ControlSymbols(count=2),
        lambda s: put(s, salt_spire=1, lantern_fen=1),
        lambda s: put(s, salt_spire=1, ash_nave=1),
    ),
    # presence without control: 1 Follower against 2 Shadows
    (
        cs.PresenceAreas(count=2),
        lambda s: put(s, ash_nave=1),
        lambda s: shadows(put(s, ash_nave=1, bell_hollow=1), bell_hollow=2),
    ),
    (cs.PresenceAreas(count=1), lambda s: s, lambda s: fort(s, ASH, 1)),  # a Fort alone is presence
    (cs.FollowersInArea(count=3), lambda s: put(s, ash_nave=2, bell_hollow=1), lambda s: put(s, ash_nave=3)),
    (cs.FollowersOnBoard(count=3), lambda s: put(s, ash_nave=2), lambda s: put(s, ash_nave=2, bell_hollow=1)),
    (cs.FortLevels(count=3), lambda s: fort(s, ASH, 2), lambda s: fort(fort(s, ASH, 2), BELL, 1)),
    (
        cs.FortsWithLevels(levels=2, count=2),
        lambda s: fort(fort(s, ASH, 2), BELL, 1),
        lambda s: fort(fort(s, ASH, 2), BELL, 3),
    ),
    (cs.RitualReached(space=5), lambda s: edit(s, ritual=(4, 4)), lambda s: edit(s, ritual=(0, 5))),
    (cs.RitualReached(space=5, both=True), lambda s: edit(s, ritual=(9, 4)), lambda s: edit(s, ritual=(5, 6))),
    (cs.LimboAtLeast(count=3), lambda s: edit(s, limbo=2), lambda s: edit(s, limbo=3)),
    (
        cs.HandAtLeast(count=3),
        lambda s: edit(s, hand=("basic-combat", "d1-wax-stair")),
        lambda s: edit(s, hand=("basic-combat", "d1-wax-stair", "d1-dream-loom")),
    ),  # Basic Combat counts
    (
        cs.UpgradesPlayed(count=2),
        lambda s: upgrades(s, "d1-wax-stair"),
        lambda s: upgrades(s, "d1-wax-stair", "d1-moth-procession"),
    ),  # the covered one counts
    (
        cs.ShaperIn(where="fort"),
        lambda s: edit(fort(s, ASH, 1), shaper=BELL),
        lambda s: edit(fort(s, ASH, 1), shaper=ASH),
    ),
    (
        cs.ShaperIn(where="shadows"),
        lambda s: edit(s, shaper=BELL),
        lambda s: edit(shadows(s, bell_hollow=1), shaper=BELL),
    ),
    (
        cs.NoShadowsAdjacentFortress(),
        lambda s: shadows(fort(s, W, 1, fortress=True), lantern_fen=1),
        lambda s: shadows(fort(s, W, 1, fortress=True), drowned_gate=1),
    ),
    (cs.ConflictsWon(count=2), lambda s: edit(s, conflicts_won=1), lambda s: edit(s, conflicts_won=2)),
    (cs.DevouredAtLeast(count=1), lambda s: edit(s, devoured=1), lambda s: replace(edit(s, devoured=1), stage=2)),
]


@pytest.mark.parametrize("need, false, true", CASES, ids=[type(c[0]).__name__ for c in CASES])
def test_each_condition_is_false_then_true(need, false, true):
    state = blank()
    assert not dreams.condition_met(false(state), me(state), need)
    assert dreams.condition_met(true(state), me(state), need)


def test_every_condition_type_of_the_schema_is_evaluated():
    assert {type(c[0]) for c in CASES} == set(cs.Condition.__args__)
    state = blank()
    for need, _, _ in CASES:  # the engine knows every type (an unknown one is refused)
        assert dreams.condition_met(state, me(state), need) in (True, False)
    with pytest.raises(ValueError, match="unknown Dream condition"):
        dreams.condition_met(state, me(state), object())  # type: ignore[arg-type]  # not a condition, on purpose


def test_conditions_are_the_seats_own():
    state = put(blank(), ash_nave=3)
    other = 1 - me(state)
    assert dreams.condition_met(state, me(state), cs.FollowersInArea(count=3))
    assert not dreams.condition_met(state, other, cs.FollowersInArea(count=3))


def test_a_card_needs_all_its_conditions():
    state = blank()  # Ring Around the Spire: 6 areas, 2 of them next to the Cathedral
    assert not dreams.conditions_met(put(state, ash_nave=1, choir_of_teeth=1), me(state), "dr1-spire-ring")
    five = put(state, ash_nave=1, choir_of_teeth=1, salt_spire=1, lantern_fen=1, mirror_dunes=1)
    assert not dreams.conditions_met(five, me(state), "dr1-spire-ring")
    far = put(state, weeping_orchard=1, bell_hollow=1, salt_spire=1, lantern_fen=1, mirror_dunes=1, drowned_gate=1)
    assert not dreams.conditions_met(far, me(state), "dr1-spire-ring")
    assert dreams.conditions_met(put(five, drowned_gate=1), me(state), "dr1-spire-ring")


# ---------------------------------------------------------------------------------------------
# The window after an action


def step6(state, queue):
    """The active player's step 6 (after a Develop action, say), ``queue`` still to react."""
    return replace(state, phase="reactions", day="develop", queue=queue)


def ignore(state):
    return next(a for a in legal_actions(state) if isinstance(a, A.ChooseDay) and a.ignore)


def test_after_the_action_the_active_player_may_play_a_dream_whose_conditions_are_met():
    state = holding(edit(blank(), ritual=(8, 0)), FIRST_RUNG, HOST)
    state = apply(state, ignore(state))
    assert present(state.decision).kind == "play_dream" and present(state.decision).seat == me(state)
    assert legal_actions(state) == (A.PlayDream(card=FIRST_RUNG), A.Done())
    with pytest.raises(IllegalAction, match=r"conditions of .* are not met.*\[PLAYING DREAM CARDS\]"):
        apply(state, A.PlayDream(card=HOST))
    with pytest.raises(IllegalAction, match=r"not a Dream card in your hand.*\[PLAYING DREAM CARDS\]"):
        apply(state, A.PlayDream(card=WHISPERS))
    res = step(state, A.PlayDream(card=FIRST_RUNG))
    pl = res.state.players[me(state)]
    assert pl.dreams == (HOST,) and pl.dreams_played == (FIRST_RUNG,)
    assert any(e.card == FIRST_RUNG and not e.SECRET for e in of_kind(res.events, E.DreamPlayed))
    # nothing else is playable: the window closes by itself and the turn goes on (step 3)
    assert present(res.state.decision).kind == "discard_dreams" and H.between_steps(res.state)


def test_no_window_opens_when_nothing_is_playable():
    state = holding(blank(), FIRST_RUNG)
    state = apply(state, ignore(state))
    assert present(state.decision).kind == "discard_dreams"


def test_the_window_reopens_after_each_dream_until_done():
    eight = put(
        blank(),
        weeping_orchard=2,
        bell_hollow=2,
        salt_spire=2,
        ash_nave=1,
        lantern_fen=1,
        mirror_dunes=1,
        moth_garden=1,
        drowned_gate=1,
    )
    state = holding(edit(eight, ritual=(8, 0)), FIRST_RUNG, WHISPERS)
    state = apply(state, ignore(state))
    assert set(legal_actions(state)) == {A.PlayDream(card=FIRST_RUNG), A.PlayDream(card=WHISPERS), A.Done()}
    state = apply(state, A.PlayDream(card=WHISPERS))
    assert legal_actions(state) == (A.PlayDream(card=FIRST_RUNG), A.Done())
    state = apply(state, A.Done())
    assert present(state.decision).kind == "discard_dreams" and state.players[me(state)].dreams == (FIRST_RUNG,)


def test_a_played_dreams_effect_resolves_in_full_then_it_scores():
    four = put(blank(), weeping_orchard=1, bell_hollow=1, salt_spire=1, lantern_fen=1)
    state = holding(edit(four, conflicts_won=1), VICTOR)
    hand = len(state.players[me(state)].hand)
    state = apply(state, ignore(state))  # draws 2
    state = apply(state, A.PlayDream(card=VICTOR))
    pl = state.players[me(state)]
    assert len(pl.hand) == hand + 3 and pl.dreams_played == (VICTOR,)
    vp = cards.dream(state, VICTOR).vp
    assert dream_vp(state, me(state)) == vp == scores(state)[me(state)].dreams


def test_a_dream_effect_with_choices_must_be_resolved_before_the_window_reopens():
    state = holding(put(blank(), weeping_orchard=1, bone_cloister=1), MARKED_DOORS)
    seat = me(state)
    state = H.resolve(turn.reactions_begin(replace(state, work=None, decision=None)))  # step 6 begins
    assert legal_actions(state) == (A.PlayDream(card=MARKED_DOORS), A.Done())
    state = apply(state, A.PlayDream(card=MARKED_DOORS))
    assert present(state.decision).kind == "produce" and A.Done() not in legal_actions(state)  # must=True
    assert set(legal_actions(state)) == {A.ProduceIn(area=W), A.ProduceIn(area=BONE)}
    state = apply(state, A.ProduceIn(area=BONE))
    assert board.area(state, BONE).followers[seat] == 2
    assert present(state.decision).kind == "react" and present(state.decision).seat == 1 - seat


# ---------------------------------------------------------------------------------------------
# Timings


def test_timings_open_to_each_seat():
    state = blank()
    seat, other = me(state), 1 - me(state)
    assert dreams.timings(state, seat) == ("any_time", "own_turn")
    assert dreams.timings(state, other) == ("any_time",)
    state = edit(state, other, conflicts_won=1)
    assert dreams.timings(state, other) == ("any_time", "after_conflict_won")
    state = step6(state, (other,))
    assert dreams.timings(state, seat) == ("any_time", "own_turn", "end_of_own_turn")
    assert dreams.timings(state, other) == ("any_time", "after_conflict_won")


def test_an_end_of_turn_dream_waits_for_step_6_before_the_reactions():
    state = holding(put(blank(), weeping_orchard=1, bone_cloister=1), MARKED_DOORS)
    seat = me(state)
    state = apply(state, ignore(state))
    assert present(state.decision).kind == "discard_dreams"  # no window after the action for it
    state = apply(state, A.KeepDreams())
    assert (
        present(state.decision).kind == "play_dream"
        and present(state.decision).seat == seat
        and state.phase == "reactions"
    )
    assert legal_actions(state) == (A.PlayDream(card=MARKED_DOORS), A.Done())
    state = apply(state, A.Done())
    assert present(state.decision).kind == "react" and present(state.decision).seat == 1 - seat


def test_a_reactor_may_play_any_time_dreams_but_not_own_turn_ones():
    state = blank()
    other = 1 - me(state)
    state = put(
        state,
        other,
        weeping_orchard=1,
        bell_hollow=1,
        salt_spire=1,
        ash_nave=1,
        lantern_fen=1,
        mirror_dunes=1,
        moth_garden=1,
        drowned_gate=1,
    )
    state = holding(edit(state, other, ritual=(8, 0)), WHISPERS, FIRST_RUNG, seat=other)
    state = replace(step6(state, (other,)), work=None, decision=None)
    state = H.resolve(turn.action_done(state, ReactionDone(seat=other), []))  # the reaction has just been resolved
    assert present(state.decision).seat == other and legal_actions(state) == (A.PlayDream(card=WHISPERS), A.Done())
    with pytest.raises(IllegalAction, match=r"only on your own turn.*\[PLAYING DREAM CARDS\]"):
        apply(state, A.PlayDream(card=FIRST_RUNG))
    state = apply(state, A.Done())
    assert state.turn_number == 2 and present(state.decision).kind == "choose_day"  # no reactor left: the next turn


def test_after_a_conflict_won_dreams_need_a_conflict_won_this_turn():
    state = holding(put(blank(), weeping_orchard=1, bell_hollow=1, salt_spire=1, lantern_fen=1), VICTOR)
    assert dreams.playable(state, me(state), dreams.timings(state, me(state))) == ()
    state = edit(state, conflicts_won=1)
    assert dreams.playable(state, me(state), dreams.timings(state, me(state))) == (VICTOR,)


# ---------------------------------------------------------------------------------------------
# The golden rule


def test_no_dream_is_played_in_the_middle_of_an_action():
    # Host of Sleepers needs 14 Followers on the board: 13 there, the action produces 1 then 1 more
    state = holding(
        put(blank(), weeping_orchard=3, bell_hollow=3, salt_spire=3, ash_nave=1, lantern_fen=1, mirror_dunes=2), HOST
    )
    produce = cs.Produce(amount=1, where="controlled")
    state = H.resolve(H.push_effect(state, me(state), (produce, produce), "day", then="day_done"), [])
    state = apply(state, A.ProduceIn(area=ASH))
    assert sum(a.followers[me(state)] for a in state.areas) == 14  # the condition is met...
    assert present(state.decision).kind == "produce"  # ...but the action is still in progress
    assert A.PlayDream(card=HOST) not in legal_actions(state)
    with pytest.raises(IllegalAction):
        apply(state, A.PlayDream(card=HOST))
    state = apply(state, A.ProduceIn(area=ASH))  # the action's last step
    assert present(state.decision).kind == "play_dream" and isinstance(state.work, DreamWork)
    assert legal_actions(state) == (A.PlayDream(card=HOST), A.Done())


def test_stopping_an_optional_step_early_still_lets_the_window_open_at_the_end():
    state = holding(
        put(blank(), weeping_orchard=3, bell_hollow=3, salt_spire=3, ash_nave=2, lantern_fen=1, mirror_dunes=2), HOST
    )
    produce = cs.Produce(amount=1, where="controlled")
    state = H.resolve(H.push_effect(state, me(state), (produce,), "day", then="day_done"), [])
    assert present(state.decision).kind == "produce"
    state = apply(state, A.Done())
    assert legal_actions(state) == (A.PlayDream(card=HOST), A.Done())
