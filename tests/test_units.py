"""UNIT LIMIT (units.room, units.follower_limits) and moving pieces between supplies and the board.

The helpers at the top shape exact positions from a real game; test_fortify and test_produce
import them.
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.engine import board, cards, units
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.ops import remove_one, set_player
from nctui.games.nightmare_cathedral.engine.state import FOLLOWERS, SHADOWS, UNIT_LIMIT
from tests import helpers, helpers as H

SH = board.SHADOWS_SIDE
WATCHFUL = "d1-watchful-battlements"  # Unit Limit 3, 4 in one area
CITADEL = "d1-sleeper-citadel"  # Unit Limit 3, 5 in one area (4 players only)


# ---------------------------------------------------------------------------------------------
# Helpers


def first_turn(players: int = 2, seed: int = 1):
    return helpers.first_turn(players, seed)


def bare(players: int = 2, seed: int = 1):
    """The first turn with an empty board: only each Fortress keeps its 1 Fort level."""
    state = first_turn(players, seed)
    areas = tuple(
        replace(a, followers=(0,) * players, shadows=0, fort_owner=a.fortress, fort_levels=int(a.fortress >= 0))
        for a in state.areas
    )
    players_ = tuple(replace(pl, supply=FOLLOWERS, limbo=0, forts=9) for pl in state.players)
    state = replace(state, areas=areas, players=players_, shadows=SHADOWS)
    assert violations(state) == []
    return state


def plain_areas(state) -> list[str]:
    """Areas without a Fortress, in board order."""
    return [a.id for a in state.areas if a.fortress < 0]


def fortress_of(state, seat: int) -> str:
    return next(a.id for a in state.areas if a.fortress == seat)


def put(state, area: str, side: int, n: int = 1):
    return units.place(state, side, area, n)


def fort(state, area: str, seat: int, levels: int = 1):
    for _ in range(levels):
        state = units.add_fort_level(state, seat, area)
    return state


def with_fortify_card(state, seat: int, card: str):
    """Play ``card`` (a Fortify Upgrade) onto the seat's Fortify stack, wherever it was."""
    d = state.decks
    decks = replace(
        d,
        development=tuple(c for c in d.development if c != card),
        development_discard=tuple(c for c in d.development_discard if c != card),
        removed=tuple(c for c in d.removed if c != card),
    )
    state = replace(state, decks=decks)
    for pl in state.players:
        if card in pl.hand:
            state = set_player(state, replace(pl, hand=remove_one(pl.hand, card)))
    pl = state.players[seat]
    slot = board.pack(state).matrix.rondel.index("fortify")
    display = pl.display[:slot] + (pl.display[slot] + (card,),) + pl.display[slot + 1 :]
    return set_player(state, replace(pl, display=display))


def run(state, seat: int, steps, *, must: bool = False):
    """Push an effect for ``seat`` (as a Day effect would be) and resolve it up to a decision."""
    ev: list = []
    state = H.push_effect(replace(state, decision=None), seat, tuple(steps), "day", must=must, then="day_done")
    return H.resolve(state, ev), ev


def finished(state) -> bool:
    """The pushed effect is over (the turn has moved on)."""
    return H.between_steps(state) and not state.frames


# ---------------------------------------------------------------------------------------------
# UNIT LIMIT


def test_three_units_per_side_per_area_for_players_and_shadows():
    state = bare()
    x = plain_areas(state)[0]
    for side in (0, 1, SH):
        assert units.room(state, side, x) == UNIT_LIMIT
    state = put(put(put(state, x, 0, 3), x, 1, 2), x, SH, 3)
    assert units.room(state, 0, x) == 0
    assert units.room(state, 1, x) == 1  # each side has its own limit in the same area
    assert units.room(state, SH, x) == 0
    assert sum(board.area(state, x).followers) + board.area(state, x).shadows == 8
    assert violations(state) == []


def test_the_starting_fortify_card_prints_a_unit_limit_of_three():
    state = bare()
    assert cards.action_card_id(state, 0, "fortify") == "start-fortify"
    assert units.follower_limits(state, 0) == (3, 3)


def test_an_upgrade_raises_the_limit_to_four_in_one_area_only():
    state = with_fortify_card(bare(), 0, WATCHFUL)
    assert units.follower_limits(state, 0) == (3, 4)
    assert units.follower_limits(state, 1) == (3, 3)  # printed on each player's own Fortify card
    x, y, z = plain_areas(state)[:3]
    state = put(put(state, x, 0, 3), y, 0, 3)
    assert units.room(state, 0, x) == units.room(state, 0, y) == 1  # either may become the one area
    assert units.room(state, 0, z) == 4  # no area uses the 4 yet
    state = put(state, x, 0, 1)
    assert units.room(state, 0, x) == 0
    assert units.room(state, 0, y) == 0  # still 3 in every other area
    assert units.room(state, 0, z) == 3
    state = put(put(state, x, 1, 3), x, SH, 3)
    assert units.room(state, 1, y) == 3 and units.room(state, 1, x) == 0  # the other player: 3
    assert units.room(state, SH, y) == 3 and units.room(state, SH, x) == 0  # Shadows: always 3
    assert violations(state) == []


def test_the_one_area_moves_once_the_crowded_area_drops_back_to_three():
    state = with_fortify_card(bare(), 0, WATCHFUL)
    x, y = plain_areas(state)[:2]
    state = put(put(state, x, 0, 4), y, 0, 3)
    assert units.room(state, 0, y) == 0
    state = units.remove(state, 0, x)
    assert units.room(state, 0, y) == 1


def test_an_upgrade_raises_the_limit_to_five_in_one_area_only():
    state = with_fortify_card(bare(players=4), 2, CITADEL)
    assert units.follower_limits(state, 2) == (3, 5)
    x, y = plain_areas(state)[:2]
    state = put(state, x, 2, 4)
    assert units.room(state, 2, x) == 1
    assert units.room(state, 2, y) == 3
    state = put(state, x, 2, 1)
    assert units.room(state, 2, x) == 0
    state = put(state, y, 2, 3)
    assert units.room(state, 2, y) == 0
    assert violations(state) == []


def test_room_is_never_negative_when_a_later_card_lowers_the_one_area_limit():
    state = with_fortify_card(bare(players=4), 0, CITADEL)
    x = plain_areas(state)[0]
    state = with_fortify_card(put(state, x, 0, 5), 0, WATCHFUL)
    assert units.follower_limits(state, 0) == (3, 4)
    assert units.room(state, 0, x) == 0


# ---------------------------------------------------------------------------------------------
# Supplies, Limbo, the Ritual track, Fort levels


def test_place_remove_and_move_keep_every_piece_counted():
    state = bare()
    x, y = plain_areas(state)[:2]
    state = put(state, x, 0, 3)
    assert state.players[0].supply == FOLLOWERS - 3 and units.on_board(state, 0) == 3
    state = units.remove(state, 0, x, 1)  # to the supply
    state = units.remove(state, 0, x, 1, to="limbo")
    state = units.move(state, 0, x, y)
    pl = state.players[0]
    assert (pl.supply, pl.limbo, units.on_board(state, 0)) == (FOLLOWERS - 2, 1, 1)
    assert board.area(state, y).followers[0] == 1 and board.area(state, x).followers[0] == 0
    state = put(state, y, SH, 2)
    state = units.remove(state, SH, y)
    assert state.shadows == SHADOWS - 1 and units.on_board(state, SH) == 1
    assert violations(state) == []


def test_fort_levels_come_from_and_go_back_to_the_supply():
    state = bare()
    x = plain_areas(state)[0]
    state = fort(state, x, 0, 2)
    a = board.area(state, x)
    assert (a.fort_owner, a.fort_levels, state.players[0].forts) == (0, 2, 7)
    state = units.remove_fort_level(units.remove_fort_level(state, x), x)
    a = board.area(state, x)
    assert (a.fort_owner, a.fort_levels, state.players[0].forts) == (-1, 0, 9)
    assert violations(state) == []


def test_the_last_fort_level_of_a_fortress_can_never_be_lost():
    state = bare()
    home = fortress_of(state, 1)
    state = fort(state, home, 1, 1)
    state = units.remove_fort_level(state, home)
    assert board.area(state, home).fort_levels == 1 and state.players[1].forts == 9
    assert units.remove_fort_level(state, home) is state  # the last level stays
    assert board.controller(board.area(put(state, home, 0, 3), home)) == 1
    assert violations(state) == []


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_room_never_allows_more_than_the_printed_limits_across_the_board(seed):
    state = with_fortify_card(bare(seed=seed), 0, WATCHFUL)
    for area in plain_areas(state):  # fill greedily: exactly one area reaches 4
        state = put(state, area, 0, units.room(state, 0, area))
        if state.players[0].supply < 5:
            break
    counts = sorted(a.followers[0] for a in state.areas)
    assert counts.count(4) == 1 and max(counts) == 4
