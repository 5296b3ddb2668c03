"""SETUP, steps 1-23, for 2-4 players."""

from __future__ import annotations

from collections import Counter

import pytest

from nctui.games.nightmare_cathedral.content.loader import get_pack
from nctui.games.nightmare_cathedral.engine import (
    GameConfig,
    IllegalAction,
    actions as A,
    apply,
    board,
    legal_actions,
    new_game,
)
from nctui.games.nightmare_cathedral.engine.state import BASIC_COMBAT, FOLLOWERS, SHADOWS
from tests.helpers import config, present, through_setup


def _through_setup(players: int, seed: int = 0, pick=lambda opts: opts[0]):
    state = new_game(config(players, seed)).state
    seen = []
    while state.phase == "setup":
        seen.append((present(state.decision).kind, present(state.decision).seat))
        state = apply(state, pick(legal_actions(state)))
    return state, seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_board_side_and_covered_areas(players):
    state = new_game(config(players)).state
    p = get_pack("base")
    side = board.side_map(state).side
    assert players in side.players
    expected = [a.id for a in side.areas if players == 4 or not a.four_players_only]
    assert [a.id for a in state.areas] == expected
    if players == 3:
        assert len(state.areas) == len(side.areas) - sum(a.four_players_only for a in side.areas)
    assert state.cathedral_built == (p.tracks.first_piece,)


def test_the_first_decision_is_the_turn_track_start_for_the_first_player():
    state = new_game(config(3, seed=7)).state
    d = present(state.decision)
    assert d.kind == "turn_start" and d.seat == state.first_player
    assert len(d.options) == len(get_pack("base").tracks.turn)


def test_first_player_is_random_but_seeded():
    firsts = {new_game(config(4, seed=s)).state.first_player for s in range(30)}
    assert firsts == {0, 1, 2, 3}
    assert new_game(config(4, seed=3)).state.first_player == new_game(config(4, seed=3)).state.first_player


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cards_dealt(players):
    state = new_game(config(players, seed=2)).state
    state = apply(state, A.ChooseTurnStart(position=5))
    p = get_pack("base")
    upgrades = {d.id: d for d in p.cards.development if d.kind == "upgrade"}
    for pl in state.players:
        assert pl.hand[0] == BASIC_COMBAT and len(pl.hand) == 4  # Basic Combat + 3 dealt
        assert len(pl.dreams) == 2
        tops = [stack for stack in pl.display if len(stack) == 2]
        assert len(tops) == 1 and tops[0][1] in upgrades  # one starting Upgrade on its action
        action = upgrades[tops[0][1]].action
        assert p.matrix.rondel[pl.display.index(tops[0])] == action
    assert len(state.decks.dream_offer) == 3
    allowed = {2: {2}, 3: {2, 3}, 4: {2, 3, 4}}[players]
    in_game = [c for c in state.decks.development] + [c for pl in state.players for c in pl.hand + pl.display[0]]
    marks = {d.id: d.players for d in p.cards.development}
    assert all(marks[c] in allowed for c in in_game if c in marks)
    assert all(marks[c] not in allowed for c in state.decks.removed)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conquest_order_is_a_snake_and_placements_follow_the_rules(players):
    state, seen = _through_setup(players, seed=players)
    f, n = state.first_player, players
    order = [(f + i) % n for i in range(n)]
    conquests = [seat for kind, seat in seen if kind == "conquer"]
    assert conquests == order + order[::-1]
    dreamers = [seat for kind, seat in seen if kind == "place_dreamer"]
    assert dreamers == order
    for pl in state.players:
        mine = [a for a in state.areas if a.followers[pl.seat]]
        corners = [a for a in mine if board.is_corner(state, a.id)]
        others = [a for a in mine if not board.is_corner(state, a.id)]
        assert len(corners) == 1 and len(others) == 1
        c = corners[0]
        assert (c.followers[pl.seat], c.fort_owner, c.fort_levels, c.fortress) == (2, pl.seat, 1, pl.seat)
        assert pl.shaper == c.id
        o = others[0]
        assert o.followers[pl.seat] == (1 if board.adjacent_to_cathedral(state, o.id) else 2)
        assert pl.supply == FOLLOWERS - c.followers[pl.seat] - o.followers[pl.seat]


def test_conquering_a_second_corner_is_refused_with_the_rule():
    state = new_game(config(2, seed=1)).state
    state = apply(state, A.ChooseTurnStart(position=0))
    corner = next(a.id for a in state.areas if board.is_corner(state, a.id))
    state = apply(state, A.Conquer(area=corner))
    # round comes back to this seat at the end of the snake
    seat = present(state.decision).seat
    other_corner = next(a.id for a in state.areas if board.is_corner(state, a.id) and a.id != corner)
    state = apply(state, A.Conquer(area=other_corner))
    assert present(state.decision).seat == seat  # snake: the last player goes twice
    third = next(a.id for a in state.areas if board.is_corner(state, a.id) and a.id not in (corner, other_corner))
    with pytest.raises(IllegalAction, match="SETUP 17"):
        apply(state, A.Conquer(area=third))
    with pytest.raises(IllegalAction, match="already conquered"):
        apply(state, A.Conquer(area=other_corner))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shadows_seed_every_empty_area(players):
    state, _ = _through_setup(players, seed=9)
    placed = 0
    for a in state.areas:
        if sum(a.followers) == 0:
            want = 1 if board.adjacent_to_cathedral(state, a.id) else 2
            assert a.shadows == want, a.id
            placed += want
        else:
            assert a.shadows == 0
    assert state.shadows == SHADOWS - placed


def test_nightmares_random_or_chosen():
    state, _ = _through_setup(2, seed=4)
    assert len(set(state.nightmares)) == 2 and all(1 <= n <= 8 for n in state.nightmares)
    cfg = GameConfig(players=2, seats=("bot", "bot"), nightmares=(3, 7), seed=4)
    s = through_setup(new_game(cfg).state)
    assert s.nightmares == (3, 7)


def test_first_turn_belongs_to_the_first_player_on_the_starting_position():
    state, _ = _through_setup(3, seed=6)
    assert state.phase == "turn" and state.active == state.first_player
    assert state.turn_pos == state.turn_start and state.time == 0 and state.turn_number == 1
    counts = Counter(board.turn_owner(state, i) for i in range(12))
    assert set(counts.values()) == {4}


@pytest.mark.parametrize(
    "bad",
    [
        dict(players=5, seats=("human",) * 5),
        dict(players=2, seats=("human",)),
        dict(players=2, seats=("human", "king")),
        dict(players=2, seats=("human", "human"), nightmares=(3, 3)),
        dict(players=2, seats=("human", "human"), colours=("red", "red")),
    ],
)
def test_bad_configurations_are_refused_in_words(bad):
    with pytest.raises(ValueError) as err:
        new_game(GameConfig(**bad))
    assert str(err.value)


def test_solo_starts_the_kings_setup_in_every_mode():
    for option in (
        dict(),
        dict(length="variable"),
        dict(divergent_paths=True),
        dict(length="variable", divergent_paths=True),
    ):
        state = new_game(GameConfig(players=1, seats=("human", "king"), **option)).state
        assert (
            present(state.decision).seat == 0 and present(state.decision).kind == "solo_turn_start"
        )  # you set up first
        assert state.config.players == 1 and len(state.cathedral_built) + len(state.cathedral_track) == 13


@pytest.mark.parametrize(
    "option", [dict(length="variable"), dict(divergent_paths=True), dict(length="variable", divergent_paths=True)]
)
def test_the_variable_length_game_and_divergent_paths_are_set_up(option):
    state = new_game(GameConfig(players=2, seats=("human", "human"), **option)).state
    assert state.phase == "setup" and present(state.decision).kind == "turn_start"
    assert len(state.cathedral_built) + len(state.cathedral_track) == 13
