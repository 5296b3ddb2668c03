"""THE NIGHTMARE CATHEDRAL: building it in the Standard Game, the track icons, the Stage II
space and the end of Stage 1."""

from __future__ import annotations

from collections import Counter

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content.loader import get_pack, register
from nctui.games.nightmare_cathedral.engine import (
    IllegalAction,
    actions as A,
    apply,
    cathedral,
    legal_actions,
    new_game,
    step,
    turn,
)
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.state import GameState
from nctui.games.nightmare_cathedral.engine.work import NextReaction
from tests import helpers as H
from tests.helpers import auto, config, first_turn, narrow, present, through_setup

TRACK = tuple(sp.piece for sp in get_pack("base").tracks.cathedral)


def play_turn(state: GameState, events: list | None = None) -> GameState:
    """Play the current turn to the beginning of the next one."""
    number = state.turn_number
    while state.turn_number == number and state.decision is not None:
        res = step(state, auto(state))
        state = res.state
        if events is not None:
            events += res.events
    return state


def end_of_reactions(state: GameState, pieces: tuple[str, ...], turn_number: int | None = None) -> GameState:
    """Every reaction done on a turn after each player's first, ``pieces`` left on the track."""
    built = TRACK[: len(TRACK) - len(pieces)]
    n = len(state.players) if turn_number is None else turn_number
    return replace(
        state,
        phase="reactions",
        queue=(),
        day="develop",
        turn_number=n,
        cathedral_track=pieces,
        cathedral_built=("1A",) + built,
    )


def build(state: GameState) -> tuple[GameState, list]:
    ev: list = []
    state = replace(state, work=None, decision=None)
    return H.resolve(turn.next_reaction(state, NextReaction(), ev), ev), ev


# ---------------------------------------------------------------------------------------------
# When and what


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_cathedral_is_built_from_the_end_of_the_last_players_first_turn(players):
    state = first_turn(players)
    for number in range(1, players):
        state = play_turn(state)
        assert state.turn_number == number + 1
        assert state.cathedral_track == TRACK and state.cathedral_built == ("1A",), number
    events: list = []
    state = play_turn(state, events)  # the last player's first turn
    assert state.cathedral_built == ("1A", TRACK[0]) and state.cathedral_track == TRACK[1:]
    placed = [e for e in events if e.kind == "cathedral_piece"]
    assert len(placed) == 1 and placed[0].piece == TRACK[0]
    # the piece is placed after every reaction (and the turn ends after it)
    kinds = [e.kind for e in events]
    assert kinds.index("cathedral_piece") > max(i for i, k in enumerate(kinds) if k == "react")
    assert kinds.index("cathedral_piece") < kinds.index("dreamer_moves")


def test_pieces_go_in_track_order_and_the_twelfth_ends_stage_1():
    state = first_turn(2)
    stages = []
    events: list = []
    for _ in range(14):
        state = play_turn(state, events)
        stages.append(state.stage)
    assert state.cathedral_built == ("1A",) + TRACK and state.cathedral_track == ()
    assert [e.piece for e in events if e.kind == "cathedral_piece"] == list(TRACK)
    # 2 players: pieces at the end of turns 2..13; Stage 2 once the 12th is placed
    assert stages == [1] * 12 + [2, 2]
    assert [e.kind for e in events].count("cathedral_complete") == 1
    assert violations(state) == []


# ---------------------------------------------------------------------------------------------
# Icons


def test_each_player_resolves_the_icons_clockwise_from_the_active_player():
    state = end_of_reactions(first_turn(3), TRACK)  # 1B: "players_2_3" (ignored) and produce
    active = state.active
    state, ev = build(state)
    seats = []
    while present(state.decision).kind == "produce":
        seats.append(present(state.decision).seat)
        assert A.Done() in legal_actions(state)  # "may" produce
        state = apply(state, legal_actions(state)[0] if len(seats) == 1 else A.Done())
    assert seats == [active, (active + 1) % 3, (active + 2) % 3]
    assert [e.seat for e in ev if e.kind == "cathedral_icon"] == [active]
    assert all(e.icon == "produce" for e in ev if e.kind == "cathedral_icon")
    assert present(state.decision).kind == "choose_day" and state.turn_number == 4  # then the turn ends


def test_the_produce_icon_produces_in_an_area_the_player_controls():
    state = end_of_reactions(first_turn(2), TRACK)
    state, _ = build(state)
    seat = present(state.decision).seat
    area = narrow(legal_actions(state)[0], A.ProduceIn).area
    before = next(a for a in state.areas if a.id == area).followers[seat]
    state = apply(state, legal_actions(state)[0])
    assert next(a for a in state.areas if a.id == area).followers[seat] == before + 1


def test_the_shadow_icon_is_mandatory_for_every_player():
    state = end_of_reactions(first_turn(2), TRACK[1:])  # 2A: "players_2" (ignored) and shadow
    active = state.active
    supply = state.shadows
    state, ev = build(state)
    assert present(state.decision).kind == "add_shadow" and present(state.decision).seat == active
    assert A.Done() not in legal_actions(state)
    with pytest.raises(IllegalAction):
        apply(state, A.Done())
    state = apply(state, legal_actions(state)[0])
    assert present(state.decision).kind == "add_shadow" and present(state.decision).seat == 1 - active
    state = apply(state, legal_actions(state)[-1])
    assert state.shadows == supply - 2 and present(state.decision).kind == "choose_day"
    assert "players_2" not in {e.icon for e in ev if e.kind == "cathedral_icon"}


def test_the_climb_icon_offers_every_player_one_step():
    state = end_of_reactions(first_turn(2), TRACK[2:])  # 2B: climb
    # both markers at the start: space 1 is open, so a free step can always leave the start
    assert all(p.ritual == (0, 0) for p in state.players)
    active = state.active
    state, _ = build(state)
    assert (
        present(state.decision).kind == "climb"
        and present(state.decision).seat == active
        and A.Done() in legal_actions(state)
    )
    state = apply(state, A.ClimbMarker(marker=0))
    assert state.players[active].ritual == (1, 0)
    assert present(state.decision).seat == 1 - active and A.Done() in legal_actions(state)
    state = apply(state, A.Done())
    assert state.players[1 - active].ritual == (0, 0) and present(state.decision).kind == "choose_day"


def test_the_shaper_icon_gives_one_movement_point_for_the_shaper_only():
    state = end_of_reactions(first_turn(2), TRACK[3:])  # 1C: shaper_mp
    active = state.active
    state, ev = build(state)
    assert present(state.decision).seat == active
    assert legal_actions(state) and all(isinstance(a, (A.MoveShaper, A.Done)) for a in legal_actions(state))
    assert any(e.kind == "gain_mp" and e.seat == active for e in ev)


# ---------------------------------------------------------------------------------------------
# The Stage II space and the end of Stage 1


STAGE2_AT = TRACK.index("4A")


def stage1_only_pack() -> str:
    """A copy of the base pack without its Stage 2 cards, registered under its own id."""
    base = get_pack("base")
    c = base.cards
    cards = replace(
        c,
        development=tuple(x for x in c.development if x.stage == 1),
        dreams=tuple(x for x in c.dreams if x.stage == 1),
        conflicts=tuple(x for x in c.conflicts if x.stage == 1),
    )
    register(replace(base, info=replace(base.info, id="stage1-only"), cards=cards))
    return "stage1-only"


def test_the_stage_ii_space_shuffles_the_stage_2_cards_in_once():
    state = end_of_reactions(first_turn(3), TRACK[STAGE2_AT:])
    d = state.decks
    assert d.development2 and d.dream2 and d.conflict2  # the base pack's Stage 2 cards, set aside at setup
    state, ev = build(state)
    new = state.decks
    # 1. Stage 2 Developments into the deck, shuffled; the discard pile untouched
    assert new.development2 == () and Counter(new.development) == Counter(d.development + d.development2)
    assert new.development != d.development + d.development2 and new.development_discard == d.development_discard
    # 2. Stage 2 Dreams and the offer into the deck; a new offer of 3
    assert new.dream2 == () and len(new.dream_offer) == 3
    assert Counter(new.dream + new.dream_offer) == Counter(d.dream + d.dream2 + d.dream_offer)
    assert new.dream_offer != d.dream_offer
    # 3. the Stage 1 Conflict cards leave the game; the Stage 2 deck is used
    assert new.conflict == d.conflict2 and new.conflict2 == ()
    assert new.removed == d.removed + d.conflict
    assert violations(state) == []  # every card still accounted for
    assert [e.kind for e in ev].count("stage2_dreams") == 1  # once, not per player
    assert state.stage == 1 and state.cathedral_built[-1] == "4A"


def test_the_stage_ii_space_runs_with_empty_stage_2_decks():
    state = through_setup(new_game(config(2, 0, pack=stage1_only_pack())).state)
    state = end_of_reactions(state, TRACK[STAGE2_AT:])
    d = state.decks
    assert d.development2 == d.dream2 == d.conflict2 == ()  # a pack without Stage 2 cards
    state, ev = build(state)
    new = state.decks
    assert Counter(new.development) == Counter(d.development) and len(new.dream_offer) == 3
    assert Counter(new.dream + new.dream_offer) == Counter(d.dream + d.dream_offer)
    assert new.conflict == d.conflict  # no Stage 2 deck to exchange for: the Stage 1 deck stays
    assert any(e.kind == "stage2_conflicts_missing" for e in ev)
    assert violations(state) == []


def test_the_last_piece_completes_the_cathedral_and_stage_2_begins():
    state = end_of_reactions(first_turn(2), TRACK[-1:], turn_number=13)
    state, ev = build(state)
    assert state.stage == 2 and state.cathedral_track == () and state.cathedral_built[-1] == TRACK[-1]
    assert any(e.kind == "cathedral_complete" for e in ev)
    # with the track empty, later turns build nothing
    state = play_turn(state)
    state, ev = build(end_of_reactions(state, ()))
    assert not any(e.kind == "cathedral_piece" for e in ev) and state.stage == 2


def test_nothing_is_built_before_every_player_has_had_a_first_turn():
    assert not cathedral.builds_now(end_of_reactions(first_turn(3), TRACK, turn_number=2))
    assert cathedral.builds_now(end_of_reactions(first_turn(3), TRACK, turn_number=3))
