"""DIVERGENT PATHS: setup, the available pieces, the choice, the Reward tiles (all 13 abilities,
resolved by the placing player only), the yellow and red tiles coming out, the Stage II space,
with the Standard and the Variable Length Game; random games in every mode."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content.loader import get_pack
from nctui.games.nightmare_cathedral.engine import (
    IllegalAction,
    actions as A,
    apply,
    board,
    divergent,
    events as E,
    legal_actions,
    new_game,
    step,
    turn,
    units,
)
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.state import GameState
from nctui.games.nightmare_cathedral.engine.work import KeepWork, NextReaction
from tests import helpers as H
from tests.helpers import all_of, config, narrow, present, random_game
from tests.test_variable_length import VICTOR, first_turn, window

PACK = get_pack("base")
SPACES = PACK.tracks.divergent_paths
COLOUR = {t.id: t.colour for t in PACK.cards.reward_tiles}
GRAY = tuple(sp.piece for sp in SPACES if sp.colour == "gray")
YELLOW = tuple(sp.piece for sp in SPACES if sp.colour == "yellow")
RED = tuple(sp.piece for sp in SPACES if sp.colour == "red")
TILES = {c: tuple(t for t, k in COLOUR.items() if k == c) for c in ("gray", "yellow", "red")}


def dp(players: int = 2, seed: int = 0, length: str = "standard") -> GameState:
    return first_turn(players, seed, length=length, divergent_paths=True)


ORDER = ("gray", "yellow", "red")


def sideboard(state: GameState, left: tuple[str, ...], tiles: dict[str, str]) -> GameState:
    """``left`` on the sideboard (the rest built), ``tiles`` face up, the tiles of the colours
    not out yet aside; the position must account for every tile."""
    built = tuple(p for p in state.cathedral_built if p not in left)
    built += tuple(sp.piece for sp in SPACES if sp.piece not in left and sp.piece not in built)
    latest = max((ORDER.index(COLOUR[t]) for t in tiles.values()), default=0)
    aside = tuple(t for t in COLOUR if ORDER.index(COLOUR[t]) > latest)
    assert len(tiles) + len(aside) + len(built) == 13, "a test position must account for every tile"
    return replace(
        state,
        cathedral_track=tuple(sp.piece for sp in SPACES if sp.piece in left),
        cathedral_built=built,
        path_tiles=tuple(tiles.items()),
        tiles_aside=aside,
    )


SLOT_FOR = {"gray": "1A", "yellow": "3A", "red": "5A"}  # available once the earlier pieces are gone
LEFT_FOR = {"gray": ("1A", "1B", "1D", "2A") + YELLOW + RED, "yellow": ("1A",) + YELLOW + RED, "red": ("2B",) + RED}


def tile_by_available_piece(state: GameState, tile: str) -> tuple[GameState, str]:
    """A Standard Game position in which ``tile`` lies by an available piece (returned); the
    spaces of its colour and the earlier colours hold tiles."""
    colour = COLOUR[tile]
    free = {c: [t for t in TILES[c] if t != tile] for c in TILES}
    tiles = {}
    for sp in SPACES:
        if sp.piece in LEFT_FOR[colour] and ORDER.index(sp.colour) <= ORDER.index(colour):
            tiles[sp.piece] = tile if sp.piece == SLOT_FOR[colour] else free[sp.colour].pop()
    return sideboard(state, LEFT_FOR[colour], tiles), SLOT_FOR[colour]


def end_of_reactions(state: GameState) -> GameState:
    """Every reaction of a turn after each player's first is done: the Cathedral is built next."""
    return replace(state, phase="reactions", queue=(), day="develop", turn_number=len(state.players))


def build(state: GameState) -> tuple[GameState, list]:
    ev: list = []
    state = replace(state, work=None, decision=None)
    return H.resolve(turn.next_reaction(state, NextReaction(), ev), ev), ev


def choose(state: GameState, piece: str) -> tuple[GameState, list]:
    res = step(state, A.TakePiece(piece=piece))
    return res.state, list(res.events)


def ok(state: GameState) -> bool:
    return violations(state) == [] and divergent.violations(state) == []


# ---------------------------------------------------------------------------------------------
# Setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_standard_setup_all_pieces_on_the_sideboard_but_1c_whose_tile_is_discarded(players):
    res = new_game(config(players, 5, divergent_paths=True))
    state = res.state
    assert state.cathedral_built == ("1C",)
    assert state.cathedral_track == tuple(sp.piece for sp in SPACES if sp.piece != "1C")
    assert {p for p, _ in state.path_tiles} == set(GRAY) - {"1C"}
    assert all(COLOUR[t] == "gray" for _, t in state.path_tiles)
    assert Counter(state.tiles_aside) == Counter(TILES["yellow"] + TILES["red"])
    discarded = H.of_kind(res.events, E.RewardTileDiscarded)
    assert len(discarded) == 1 and discarded[0].piece == "1C" and COLOUR[discarded[0].tile] == "gray"
    assert discarded[0].tile not in dict(state.path_tiles).values()
    assert divergent.violations(state) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_variable_setup_moves_no_piece_to_the_board(players):
    state = new_game(config(players, 5, length="variable", divergent_paths=True)).state
    assert state.cathedral_built == () and len(state.cathedral_track) == 13
    assert sorted(p for p, _ in state.path_tiles) == sorted(GRAY)
    assert sorted(t for _, t in state.path_tiles) == sorted(TILES["gray"])
    assert divergent.violations(state) == []


def test_the_gray_tiles_are_dealt_at_random():
    deals = {new_game(config(2, seed, length="variable", divergent_paths=True)).state.path_tiles for seed in range(8)}
    assert len(deals) > 3


# ---------------------------------------------------------------------------------------------
# Available pieces


def test_gray_pieces_are_available_and_the_others_wait_for_tiles_and_paths():
    state = dp(2, length="variable")
    assert divergent.available(state) == GRAY
    gray = dict(state.path_tiles)
    yellow = dict(zip(YELLOW, TILES["yellow"]))
    state = sideboard(state, GRAY[1:] + YELLOW + RED, {**{p: gray[p] for p in GRAY[1:]}, **yellow})
    # 1A vacated, 1B not: 2B waits; 3A, 3B, 4A wait for 1C, 1D, 2A; red has no tiles
    assert divergent.available(state) == GRAY[1:]
    state = sideboard(state, ("1C", "1D", "2A") + YELLOW + RED, {**{p: gray[p] for p in ("1C", "1D", "2A")}, **yellow})
    assert divergent.available(state) == ("1C", "1D", "2A", "2B")
    assert "incoming" not in divergent.why_unavailable(state, "3A")
    assert "1C" in divergent.why_unavailable(state, "3A")


def test_a_red_space_needs_its_tile_and_every_path_into_it_vacated():
    state = dp(2, length="variable")
    red = dict(zip(RED, TILES["red"]))
    state = sideboard(state, ("4A",) + RED, {"4A": TILES["yellow"][0], **red})
    # 4B (from 2B and 3A) and 5A (from 3B) are free; 6A waits for 4A; 6B for 4B and 6A
    assert divergent.available(state) == ("4A", "4B", "5A")
    state = sideboard(state, ("6A", "6B"), {"6A": red["6A"], "6B": red["6B"]})
    assert divergent.available(state) == ("6A",)


def test_a_space_without_its_tile_is_not_available():
    state = dp(2, length="variable")
    yellow = dict(zip(YELLOW, TILES["yellow"]))
    state = sideboard(state, YELLOW + RED, yellow)  # the red tiles are still aside
    assert divergent.available(state) == YELLOW
    assert "no Reward tile" in divergent.why_unavailable(state, "5A")


# ---------------------------------------------------------------------------------------------
# The choice, in the Standard Game


def test_the_active_player_chooses_among_the_available_pieces_at_the_end_of_the_turn():
    state = end_of_reactions(dp(3))
    active = state.active
    state, _ = build(state)
    d = present(state.decision)
    assert d.kind == "cathedral_piece" and d.seat == active
    assert legal_actions(state) == tuple(A.TakePiece(piece=p) for p in GRAY if p != "1C")
    with pytest.raises(IllegalAction, match="DIVERGENT PATHS"):
        apply(state, A.TakePiece(piece="2B"))
    with pytest.raises(IllegalAction, match="already in the Cathedral"):
        apply(state, A.TakePiece(piece="1C"))
    with pytest.raises(IllegalAction, match="DIVERGENT PATHS"):
        apply(state, A.TakePiece(piece="9Z"))
    with pytest.raises(IllegalAction):
        apply(state, A.Done())


def test_the_reward_is_resolved_by_the_active_player_only_then_the_turn_ends():
    state, holder = tile_by_available_piece(end_of_reactions(dp(3)), "rt-sudden-brood")
    active = state.active
    built = state.cathedral_built
    state, _ = build(state)
    state, events = choose(state, holder)
    assert [(e.kind, e.piece) for e in events if e.kind in ("cathedral_piece", "reward_tile")] == [
        ("cathedral_piece", holder),
        ("reward_tile", holder),
    ]
    assert state.cathedral_built == built + (holder,) and holder not in dict(state.path_tiles)
    assert present(state.decision).kind == "produce" and present(state.decision).seat == active
    area = narrow(legal_actions(state)[0], A.ProduceIn).area
    before = board.area(state, area).followers[active]
    state = apply(state, legal_actions(state)[0])
    assert board.area(state, area).followers[active] == before + 2  # produce 2 in one area
    assert present(state.decision).kind == "choose_day" and state.active != active  # nobody else resolves it
    assert ok(state)


def test_a_single_available_piece_is_placed_without_asking():
    state = sideboard(dp(2), ("4B", "6B"), {"4B": TILES["red"][0], "6B": TILES["red"][1]})
    state, events = build(end_of_reactions(state))
    assert [e.piece for e in events if e.kind == "cathedral_piece"] == ["4B"]
    assert present(state.decision).kind != "cathedral_piece"


# ---------------------------------------------------------------------------------------------
# The yellow and red tiles come out


def test_with_one_gray_tile_left_the_yellow_tiles_come_out_after_the_reward():
    state = end_of_reactions(dp(2))
    gray = dict(state.path_tiles)
    state = sideboard(
        state,
        ("1A", "1B") + YELLOW + RED,
        {"1A": "rt-swift-paths", "1B": gray["1B"]}
        if gray["1B"] != "rt-swift-paths"
        else {"1A": "rt-swift-paths", "1B": gray["1A"]},
    )
    state, _ = build(state)
    state, events = choose(state, "1A")
    assert present(state.decision).seat == state.active and A.Done() in legal_actions(state)  # the 3 MP, first
    assert len(state.tiles_aside) == 8 and not any(e.kind == "reward_tiles_out" for e in events)
    state, events = step(state, A.Done()).state, list(step(state, A.Done()).events)
    out = H.of_kind(events, E.RewardTilesOut)
    assert len(out) == 1 and out[0].colour == "yellow"
    placed = {p: t for p, t in state.path_tiles if p in YELLOW}
    assert set(placed) == set(YELLOW) and sorted(placed.values()) == sorted(TILES["yellow"])
    assert Counter(state.tiles_aside) == Counter(TILES["red"])
    assert ok(state)


def test_with_one_yellow_tile_left_the_red_tiles_come_out():
    state = end_of_reactions(dp(2))
    yellow = dict(zip(YELLOW, TILES["yellow"]))
    state = sideboard(
        state,
        ("3A", "4A") + RED,
        {"3A": "rt-wandering-dreamer", "4A": next(t for t in TILES["yellow"] if t != "rt-wandering-dreamer")},
    )
    assert yellow  # the yellow tiles are out, the red ones aside
    state, _ = build(state)
    state, events = choose(state, "3A")  # Wandering Dreamer asks nothing now
    out = [e for e in events if e.kind == "reward_tiles_out"]
    assert len(out) == 1 and out[0].colour == "red" and state.tiles_aside == ()
    assert {p for p, _ in state.path_tiles} == {"4A"} | set(RED)
    assert present(state.decision).kind == "move_dreamer"  # "at the end of the turn move your Dreamer"
    assert ok(state)


def test_the_tiles_come_out_at_random():
    deals = set()
    for seed in range(8):
        state = end_of_reactions(dp(2, seed))
        state = sideboard(state, ("1A", "1B") + YELLOW + RED, {"1A": "rt-swift-paths", "1B": "rt-candle-step"})
        state, _ = choose(build(state)[0], "1A")
        state = apply(state, A.Done())  # no Movement Points spent
        deals.add(tuple((p, t) for p, t in state.path_tiles if p in YELLOW))
    assert len(deals) > 3


# ---------------------------------------------------------------------------------------------
# All 13 Reward tiles


FIRST: dict[str, set[type[A.Action]]] = {
    "rt-candle-step": {A.ClimbMarker},
    "rt-sudden-brood": {A.ProduceIn},
    "rt-swift-paths": {A.MoveFollower, A.MoveShaper},
    "rt-hasty-craft": {A.PlayUpgrade},
    "rt-mason-s-gift": {A.BuildFortLevel},
    "rt-hidden-stair": {A.ClimbMarker},
    "rt-deep-library": {A.KeepCard},
    "rt-summoned-dread": {A.AddShadow},
    "rt-deeper-dream": {A.KeepCard},
    "rt-shaper-flight": {A.MoveShaper},
    "rt-reaching-shaper": {A.ConvertUnit},
    "rt-wandering-dreamer": {A.PlaceDreamer},
    "rt-echo-of-conform": {A.ChooseAction},
}


def rich(state: GameState) -> GameState:
    """The active player holds an Upgrade; Shadows stand next to its Shaper."""
    seat = state.active
    d = state.decks
    upgrade = next(c for c in d.development if PACK.cards.development[_dev(c)].kind == "upgrade")
    pl = state.players[seat]
    state = set_player(state, replace(pl, hand=pl.hand + (upgrade,)))
    state = replace(state, decks=replace(d, development=tuple(c for c in d.development if c != upgrade)))
    for a in board.adjacent(state, state.players[seat].shaper):
        if units.room(state, -2, a) > 0 and sum(board.area(state, a).followers) == 0:
            state = units.place(state, -2, a, 1)
    return state


def _dev(card: str) -> int:
    return next(i for i, c in enumerate(PACK.cards.development) if c.id == card)


def test_the_table_names_every_tile():
    assert set(FIRST) == set(COLOUR) and Counter(COLOUR.values()) == Counter(gray=5, yellow=4, red=4)


@pytest.mark.parametrize("tile", sorted(FIRST))
def test_every_reward_tile_resolves_for_the_placing_player(tile):
    state = rich(end_of_reactions(dp(2, 4)))
    active = state.active
    state, piece = tile_by_available_piece(state, tile)
    assert ok(state)
    state, _ = build(state)
    state, events = choose(state, piece)
    assert [(e.tile,) for e in events if e.kind == "reward_tile"] == [(tile,)]
    assert present(state.decision).seat == active
    assert {type(a) for a in legal_actions(state)} - {A.Done} <= FIRST[tile]
    assert {type(a) for a in legal_actions(state)} & FIRST[tile]
    rnd = random.Random(1)
    while present(state.decision).kind != "choose_day":  # a conflict may ask other players too
        state = apply(state, rnd.choice(legal_actions(state)))
        assert ok(state)
    assert state.active != active and state.turn_number == 3


def test_the_reward_tiles_draw_stage_2_cards_and_keep_some():
    state, piece = tile_by_available_piece(end_of_reactions(dp(2)), "rt-deeper-dream")
    seat = state.active
    state = replace(
        state,
        decks=replace(
            state.decks,
            development=state.decks.development2 + state.decks.development,
            development2=(),
            dream2=state.decks.dream2,
        ),
    )
    deck = state.decks.dream
    top = state.decks.dream[:4]
    dreams = state.players[seat].dreams
    state, _ = choose(build(state)[0], piece)
    # after Stage II: from the mixed deck
    assert narrow(state.work, KeepWork).drawn == top and present(state.decision).seat == seat
    state = apply(state, A.KeepCard(card=top[2]))
    assert state.players[seat].dreams == dreams + (top[2],)  # beyond the limit of 2
    assert Counter(state.decks.dream) == Counter(deck) - Counter({top[2]: 1})
    assert ok(state)


def test_before_the_stage_ii_space_a_stage_2_draw_comes_from_the_stage_2_deck():
    red = [t for t in TILES["red"] if t != "rt-deep-library"]
    state = sideboard(
        end_of_reactions(dp(2)),
        ("4A",) + RED,
        {"4A": TILES["yellow"][0], "4B": red[0], "5A": "rt-deep-library", "6A": red[1], "6B": red[2]},
    )
    assert not divergent.stage_ii_done(state)
    deck = state.decks.development2
    seat = state.active
    state, _ = choose(build(state)[0], "5A")
    keep = narrow(state.work, KeepWork)
    assert keep.drawn == deck[:5] and keep.keep_left == 2
    state = apply(state, A.KeepCard(card=deck[0]))
    state = apply(state, A.KeepCard(card=deck[4]))
    assert state.players[seat].hand[-2:] == (deck[0], deck[4])
    assert Counter(state.decks.development2) == Counter(deck) - Counter(deck[0:5:4])  # the rest went back
    assert ok(state)


def test_summoned_dread_resolves_a_conflict_in_that_area_only():
    state = end_of_reactions(dp(2))
    seat = state.active
    here = next(a.id for a in state.areas if a.followers[seat] > 0 and a.fort_owner != seat)
    elsewhere = next(a.id for a in state.areas if a.id != here and a.followers[seat] > 0)
    if board.area(state, elsewhere).shadows == 0:
        state = units.place(state, -2, elsewhere, 1)  # another area where a conflict is possible
    state = replace(
        state,
        areas=board.replace_area(state, replace(board.area(state, here), shadows=0)),
        shadows=state.shadows + board.area(state, here).shadows,
    )
    state, piece = tile_by_available_piece(state, "rt-summoned-dread")
    state, _ = choose(build(state)[0], piece)
    state = apply(state, A.AddShadow(area=here))
    assert legal_actions(state) == (A.AddShadow(area=here),)  # a single area
    state = apply(state, A.AddShadow(area=here))
    assert board.area(state, here).shadows == 2
    assert present(state.decision).kind == "start_conflict" and present(state.decision).seat == seat
    assert {a.area for a in all_of(legal_actions(state), A.StartConflict)} == {here}
    with pytest.raises(IllegalAction, match="REWARD TILES"):
        apply(state, A.StartConflict(area=elsewhere, sides=(seat, -2)))
    state = apply(state, A.StartConflict(area=here, sides=(seat, -2)))
    assert present(state.decision).kind == "play_combat_card"
    assert ok(state)


# ---------------------------------------------------------------------------------------------
# The Stage II space, the last piece


def test_removing_the_stage_ii_piece_runs_the_stage_ii_space():
    state = end_of_reactions(dp(2))
    state = sideboard(state, ("4A", "6B"), {"4A": "rt-wandering-dreamer", "6B": TILES["red"][0]})
    d2 = state.decks.development2
    state, events = build(state)  # 6B waits for 4B... no: 4B is built; 6A too: both available
    assert present(state.decision).kind == "cathedral_piece"
    state, events = choose(state, "4A")
    assert [e.kind for e in events].count("stage2_dreams") == 1 and state.decks.development2 == ()
    assert Counter(state.decks.development) >= Counter(d2) and state.stage == 1
    assert ok(state)


def test_another_piece_leaves_the_stage_2_decks_aside():
    state = end_of_reactions(dp(2))
    state = sideboard(state, ("4A", "6B"), {"4A": "rt-wandering-dreamer", "6B": "rt-echo-of-conform"})
    d2 = state.decks.development2
    state, events = choose(build(state)[0], "6B")
    assert "stage2_dreams" not in [e.kind for e in events] and state.decks.development2 == d2


def test_the_last_piece_completes_the_cathedral_and_its_tile_is_still_resolved():
    state = end_of_reactions(dp(2))
    active = state.active
    state = sideboard(state, ("6B",), {"6B": "rt-echo-of-conform"})
    state, events = build(state)
    kinds = [e.kind for e in events]
    assert kinds.index("cathedral_complete") < kinds.index("reward_tile") and state.stage == 2
    assert present(state.decision).kind == "choose_action" and present(state.decision).seat == active
    assert state.path_tiles == () and state.tiles_aside == () and ok(state)


# ---------------------------------------------------------------------------------------------
# With the Variable Length Game


def test_the_player_of_a_cathedral_dream_chooses_the_piece_and_takes_the_reward():
    state = dp(3, length="variable")
    seat = (state.active + 1) % 3  # an inactive player, after winning a conflict
    tiles = dict(state.path_tiles)
    state = step(window(state, seat, VICTOR, "after_conflict_won"), A.PlayDream(card=VICTOR)).state
    assert present(state.decision).kind == "cathedral_piece" and present(state.decision).seat == seat
    assert legal_actions(state) == tuple(A.TakePiece(piece=p) for p in GRAY)
    state, events = choose(state, "1D")
    assert [(e.seat, (e.tile,)) for e in events if e.kind == "reward_tile"] == [(seat, (tiles["1D"],))]
    assert state.cathedral_built == ("1D",)
    while present(state.decision).kind not in ("play_dream", "choose_day", "discard_dreams"):
        assert present(state.decision).seat == seat
        state = apply(state, legal_actions(state)[-1])
    assert ok(state)


# ---------------------------------------------------------------------------------------------
# Random games in every mode


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("length", ["standard", "variable"])
@pytest.mark.parametrize("paths", [False, True])
def test_random_games_in_every_mode_end_and_keep_every_invariant(players, length, paths):
    n = 0
    for state, _action in random_game(players, 21 + players, length=length, divergent_paths=paths):
        assert ok(state), (n, violations(state), divergent.violations(state))
        n += 1
    assert state.phase == "over" and state.outcome is not None
    if length == "standard":
        assert len(state.cathedral_built) == 13 and state.stage == 2
    if paths and len(state.cathedral_built) == 13:
        assert state.path_tiles == () and state.tiles_aside == ()
