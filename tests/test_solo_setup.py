"""Solo mode SETUP 1-6 against the King of Horrors (solo rulebook)."""

from __future__ import annotations

import pytest

from nctui.games.nightmare_cathedral.engine import board, flow, new_game, solo
from nctui.games.nightmare_cathedral.engine.actions import ChooseTurnStart, Conquer, PlaceDreamer
from nctui.games.nightmare_cathedral.engine.cards import dream
from nctui.games.nightmare_cathedral.engine.config import GameConfig
from nctui.games.nightmare_cathedral.engine.errors import IllegalAction
from nctui.games.nightmare_cathedral.engine.events import HIDDEN
from nctui.games.nightmare_cathedral.engine.flow import apply, legal_actions
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.king import clockwise, next_corner_clockwise, ring
from nctui.games.nightmare_cathedral.engine.king_state import KING_COMBAT
from nctui.games.nightmare_cathedral.engine.views import player_view
from nctui.games.nightmare_cathedral.engine.work import SoloTurnStartWork
from tests.helpers import all_of, present

SOLO = GameConfig(players=1, seats=("human", "king"), seed=7)


def _solo(config):
    """A new solo game up to its first decision, and its setup events."""
    res = new_game(config)
    return res.state, list(res.events)


def solo_setup(corner: str = "weeping-orchard", config: GameConfig = SOLO):
    state, _ = _solo(config)
    state = apply(state, ChooseTurnStart(position=0))
    state = apply(state, Conquer(area=corner))
    return apply(state, legal_actions(state)[0])


def test_new_game_starts_solo_through_the_solo_setup():
    state, events = solo.new_game(SOLO)
    assert flow.resolve(state, events) == _solo(SOLO)[0]
    assert isinstance(_solo(SOLO)[0].work, SoloTurnStartWork)


def test_human_decides_turn_start_then_a_corner_only():
    state, _ = _solo(SOLO)
    assert state.decision.seat == 0 and state.decision.kind == "solo_turn_start"
    state = apply(state, ChooseTurnStart(position=0))
    assert present(state.decision).seat == 0 and present(state.decision).kind == "solo_corner"
    corners = {a.area for a in all_of(legal_actions(state), Conquer)}
    assert corners == {a.id for a in state.areas if board.is_corner(state, a.id)}
    with pytest.raises(IllegalAction, match="SOLO SETUP 4"):
        apply(state, Conquer(area="bell-hollow"))


def test_ring_is_clockwise_around_the_grid():
    state, _ = _solo(SOLO)
    assert ring(state) == (
        "weeping-orchard",
        "bell-hollow",
        "salt-spire",
        "mirror-dunes",
        "ember-reach",
        "bone-cloister",
        "drowned-gate",
        "lantern-fen",
    )
    assert next_corner_clockwise(state, "drowned-gate") == "weeping-orchard"
    assert clockwise(state, "weeping-orchard", -1) == "lantern-fen"


@pytest.mark.parametrize(
    "corner,king_corner,king_second,my_second",
    [
        ("weeping-orchard", "salt-spire", "mirror-dunes", "lantern-fen"),
        ("ember-reach", "drowned-gate", "lantern-fen", "mirror-dunes"),
    ],
)
def test_corners_follow_the_ring(corner, king_corner, king_second, my_second):
    state = solo_setup(corner)
    a = {x.id: x for x in state.areas}
    assert a[corner].followers[0] == 2 and a[corner].fortress == 0
    assert a[king_corner].followers[1] == 2 and a[king_corner].fortress == 1 and a[king_corner].fort_levels == 1
    assert a[king_second].followers[1] == (1 if board.adjacent_to_cathedral(state, king_second) else 2)
    assert a[my_second].followers[0] == (1 if board.adjacent_to_cathedral(state, my_second) else 2)
    assert state.players[0].shaper == corner and state.players[1].shaper == ""  # no Shaper for the King
    taken = {corner, king_corner, king_second, my_second}
    assert all(x.shadows > 0 for x in state.areas if x.id not in taken)  # seeded as in 2 players


def test_every_corner_starts_both_sides_with_the_same_followers():
    """SETUP 4 on the Sunken Vale: whichever corner you choose, you and the King start with the
    same Followers on the board (5 each: no corner's ring neighbour touches the Cathedral)."""
    state, _ = _solo(SOLO)
    state = apply(state, ChooseTurnStart(position=0))
    counts = set()
    for corner in sorted(a.id for a in state.areas if board.is_corner(state, a.id)):
        after = apply(state, Conquer(area=corner))
        counts.add(tuple(sum(a.followers[seat] for a in after.areas) for seat in (0, 1)))
    assert counts == {(4, 4)}


def test_king_play_area_and_first_turn():
    state = solo_setup()
    k = state.king
    assert state.phase == "turn" and state.active == 0 and state.first_player == 0
    assert k.dreamer == "ritual" and k.day_cultists == (1, 1, 1, 1, 1) and sum(k.card_cultists) == 0
    assert sorted(k.hand) == sorted(KING_COMBAT)
    assert len(k.dreams) == 2 and k.dream_cultists == (0, 0)
    vps = [dream(state, c).vp for c in k.dreams]
    assert vps[-1] == min(vps)  # the one worth fewest VP on top (last)
    assert k.nightmare_marker == len(state.nightmares) - 1  # the right-hand King's Nightmare card
    assert sorted(k.area_deck) == sorted(a.id for a in state.areas)
    assert state.players[1].hand == () and state.players[1].dreams == ()  # nothing dealt to the King
    assert len(state.players[0].hand) == 4 and len(state.players[0].dreams) == 2
    assert violations(state) == []


def test_human_view_hides_king_hand_and_area_deck():
    state = solo_setup()
    seen = present(player_view(state, 0).state.king)
    assert set(seen.hand) == {HIDDEN} and set(seen.area_deck) == {HIDDEN}
    assert seen.dreams == present(state.king).dreams
    assert player_view(state, 1).state.king == state.king


def test_place_dreamer_goes_on_as_normal():
    state, _ = _solo(SOLO)
    state = apply(apply(state, ChooseTurnStart(position=0)), Conquer(area="salt-spire"))
    assert present(state.decision).kind == "place_dreamer" and present(state.decision).seat == 0
    assert all(isinstance(a, PlaceDreamer) for a in legal_actions(state))


def test_solo_states_round_trip_through_the_save_encoding():
    """Every solo state, its setup decisions included, encodes and decodes unchanged."""
    import msgspec

    from nctui.games.nightmare_cathedral.engine.state import GameState

    state, _ = _solo(GameConfig(players=1, seats=("human", "king"), seed=3))
    seen = 0
    while state.phase == "setup":
        assert msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=GameState) == state
        state = apply(state, legal_actions(state)[0])
        seen += 1
    assert seen >= 3 and msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=GameState) == state
