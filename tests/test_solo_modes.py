"""Solo modes (solo rulebook): the King builds in the Variable Length Game (COMPLETING THE KING'S
DREAMS 2) and with Divergent Paths (KING'S TURN 8, CATHEDRAL REWARDS): you choose its piece, a
piece below the highest level available makes it climb, it keeps the Reward tile for 1 VP."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.describe import describe_decision
from nctui.games.nightmare_cathedral.engine import (
    cards,
    cathedral,
    events as E,
    king_dreams as kd,
    king_turn as kt,
    new_game,
    turn,
)
from nctui.games.nightmare_cathedral.engine.actions import TakePiece
from nctui.games.nightmare_cathedral.engine.errors import IllegalAction
from nctui.games.nightmare_cathedral.engine.events import Event
from nctui.games.nightmare_cathedral.engine.flow import apply, legal_actions, step
from nctui.games.nightmare_cathedral.engine.invariants import TurnLength, violations
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.scoring import scores
from nctui.games.nightmare_cathedral.engine.work import EndTurn, Frame, NextReaction
from tests import helpers as H
from tests.helpers import all_of, of_kind, present
from tests.test_divergent_paths import COLOUR, GRAY, TILES, tile_by_available_piece
from tests.test_solo_setup import SOLO, solo_setup
from tests.test_variable_length import PLAIN, TRACK, VICTOR

VAR = replace(SOLO, length="variable")
DPS = replace(SOLO, divergent_paths=True)
DPV = replace(SOLO, length="variable", divergent_paths=True)
STAGE_II = "4A"  # its Cathedral track space is the Stage II space
PIECES = ("1A",) + TRACK


def _solo(config):
    """A new solo game up to its first decision, and its setup events."""
    res = new_game(config)
    return res.state, list(res.events)


def only_left(state, left):
    """``left`` still to build, every other piece in the Cathedral."""
    return replace(state, cathedral_track=left, cathedral_built=tuple(p for p in PIECES if p not in left))


@pytest.fixture
def performed(monkeypatch):
    """The King's action (KING'S TURN 4) does nothing; the calls are recorded."""
    calls = []

    def record(state, action, power, ev):
        calls.append((action, power))
        return state

    monkeypatch.setattr(kt, "perform_king_action", record)
    return calls


def about_to_complete(state, card=VICTOR):
    """The King's lower Dream is ``card`` (swapped with it wherever it was), one Cultist short; the
    other Dream one short too, so the tie sends the next Cultist to ``card`` (VICTOR shows the
    Cathedral icon)."""
    mine, other = state.king.dreams
    swap = {card: mine, mine: card} if card != mine else {}
    d = state.decks
    decks = replace(d, **{f: tuple(swap.get(c, c) for c in getattr(d, f)) for f in ("dream", "dream_offer", "dream2")})
    players = tuple(replace(p, dreams=tuple(swap.get(c, c) for c in p.dreams)) for p in state.players)
    short = cards.dream(state, other).vp - 1
    return replace(
        state,
        decks=decks,
        players=players,
        king=replace(state.king, dreams=(card, other), dream_cultists=(cards.dream(state, card).vp - 1, short)),
    )


def climbed(before, after) -> int:
    return sum(after.players[1].ritual) - sum(before.players[1].ritual)


def kinds(ev, seat=None):
    return [e.kind for e in ev if seat is None or e.seat == seat]


def king_reacts_to_summon(state):
    """END OF YOUR TURN: your Summon is ahead of the King's Dreamer (on Ritual): it Conforms and
    puts a Cultist on its Dream."""
    ev: list[Event] = []
    state = replace(state, phase="reactions", queue=(1,), day="summon", work=None, decision=None)
    return H.resolve(turn.next_reaction(state, NextReaction(), ev), ev), ev


def build_at_turn_end(state, seat, ev):
    """BUILDING THE CATHEDRAL (Standard Game): once every reaction is done ``seat`` builds, the end of
    the turn waiting beneath (as ``turn`` leaves it); resolved up to the next decision."""
    end = Frame(seat=state.active, steps=(), source="turn", then=EndTurn())
    state = replace(state, work=None, decision=None, frames=(end,))
    return H.resolve(cathedral.build(state, seat, ev), ev)


# ---------------------------------------------------------------------------------------------
# Setup


@pytest.mark.parametrize(
    "config,built,gray_out",
    [
        (VAR, ("1A", "1B", "2A"), 0),  # the Variable Length Game with 2 players
        (DPS, ("1C",), 4),  # Divergent Paths, Standard Game: 1C moved, its tile discarded
        (DPV, (), 5),  # Divergent Paths, Variable Length Game: no piece moved
    ],
)
def test_solo_sets_up_the_modules_as_in_a_2_player_game(config, built, gray_out):
    state = _solo(config)[0]  # no longer refused
    assert state.decision.seat == 0 and state.decision.kind == "solo_turn_start" and state.cathedral_built == built
    assert len(state.path_tiles) == gray_out and all(COLOUR[t] == "gray" for _, t in state.path_tiles)
    assert len(state.tiles_aside) == (len(COLOUR) - 5 if config.divergent_paths else 0)
    assert violations(solo_setup(config=config)) == []


# ---------------------------------------------------------------------------------------------
# Variable Length Game


def test_a_completed_dream_with_the_cathedral_icon_makes_the_king_build_and_climb():
    state = about_to_complete(solo_setup(config=VAR))
    ev: list[Event] = []
    s = kd.place_on_dream(state, ev, "power")
    assert present(s.king).completed == (VICTOR,)
    assert s.cathedral_built == state.cathedral_built + ("2B",) and s.cathedral_track == state.cathedral_track[1:]
    assert kinds(ev, 1)[-4:] == ["king_dream_completed", "king_builds", "cathedral_piece", "king_climbs"]
    assert climbed(state, s) == 1  # regardless of 2B's climb icon; you resolve nothing
    assert s.frames == state.frames and s.work == state.work and violations(replace(s, decision=state.decision)) == []


def test_harder_climb_climbs_two_for_the_kings_piece():
    state = about_to_complete(solo_setup(config=replace(VAR, difficulty=("harder_climb",))))
    assert climbed(state, kd.place_on_dream(state, [], "power")) == 2


@pytest.mark.parametrize("config,card", [(VAR, PLAIN), (SOLO, VICTOR)])
def test_no_piece_without_the_icon_or_in_the_standard_game(config, card):
    state = about_to_complete(solo_setup(config=config), card)
    s = kd.place_on_dream(state, [], "power")
    assert (
        present(s.king).completed == (card,) and s.cathedral_built == state.cathedral_built and climbed(state, s) == 0
    )


def test_the_stage_ii_space_is_resolved_instead_of_the_climb():
    state = about_to_complete(solo_setup(config=VAR))
    state = only_left(state, state.cathedral_track[state.cathedral_track.index(STAGE_II) :])
    ev: list[Event] = []
    s = kd.place_on_dream(state, ev, "power")
    assert s.cathedral_built[-1] == STAGE_II and climbed(state, s) == 0
    assert "stage2_dreams" in kinds(ev) and "king_climbs" not in kinds(ev)
    assert s.decks.dream2 == () and s.decks.development2 == ()


def test_the_kings_last_piece_completes_the_cathedral_then_none_is_left():
    state = about_to_complete(solo_setup(config=VAR))
    state = only_left(state, state.cathedral_track[-1:])
    s = kd.place_on_dream(state, [], "power")
    assert s.stage == 2 and s.cathedral_track == () and all(s.nightmare_at) and climbed(state, s) == 1
    one_short = (cards.dream(s, VICTOR).vp - 1,)
    again = replace(
        s,
        king=replace(present(s.king), dreams=(VICTOR,), dream_cultists=one_short, completed=()),
    )
    ev: list[Event] = []
    after = kd.place_on_dream(again, ev, "power")
    assert after.cathedral_built == s.cathedral_built and "no_cathedral_piece" in kinds(ev)


def test_a_dream_completed_while_the_king_reacts_on_your_turn_builds_at_once(performed):
    state = about_to_complete(solo_setup(config=VAR))
    s, ev = king_reacts_to_summon(state)
    order = kinds(ev)
    assert order.index("king_conforms") < order.index("king_builds") < order.index("king_horror_die")
    assert s.cathedral_built == state.cathedral_built + ("2B",) and climbed(state, s) == 1


def test_the_king_builds_nothing_at_the_end_of_its_turn_in_the_variable_length_game():
    state = solo_setup(config=VAR)
    ev: list[Event] = []
    s = build_at_turn_end(replace(state, phase="reactions", queue=(), day="develop", active=1, turn_number=5), 1, ev)
    assert s.cathedral_built == state.cathedral_built and "cathedral_piece" not in kinds(ev)


# ---------------------------------------------------------------------------------------------
# Divergent Paths


def yellow_position(config=DPV):
    """1A (gray) and 3A, 3B, 4A (yellow) available: the highest level available is yellow."""
    state, piece = tile_by_available_piece(solo_setup(config=config), TILES["yellow"][0])
    return about_to_complete(state), piece


def test_you_choose_the_kings_piece_on_your_turn_before_it_ends(performed):
    state, _ = yellow_position()
    s, ev = king_reacts_to_summon(state)
    d = s.decision
    assert d.seat == 0 and d.kind == "king_cathedral_piece" and s.active == 0 and not performed
    assert {a.piece for a in all_of(legal_actions(s), TakePiece)} == {"1A", "3A", "3B", "4A"}
    assert "king_dream_completed" in kinds(ev) and "cathedral_piece" not in kinds(ev)


def test_a_piece_below_the_highest_level_makes_the_king_climb_and_it_keeps_the_tile(performed):
    state, _ = yellow_position()
    s, _ = king_reacts_to_summon(state)
    tile = dict(s.path_tiles)["1A"]
    res = step(s, TakePiece(piece="1A"))  # gray while yellow is available
    ev = list(res.events)
    climbs = of_kind(ev, E.KingClimbs)
    assert climbs and (climbs[0].why, climbs[0].piece) == ("below_highest", "1A")
    assert res.state.players[1].tiles == (tile,) and "reward_tile" not in kinds(ev)
    assert kinds(ev).index("cathedral_piece") < kinds(ev).index("king_horror_die")  # before your turn ends
    assert violations(res.state) == []


def test_the_highest_level_piece_makes_no_climb(performed):
    state, piece = yellow_position()
    s, _ = king_reacts_to_summon(state)
    tile = dict(s.path_tiles)[piece]
    res = step(s, TakePiece(piece=piece))
    assert res.state.players[1].tiles == (tile,) and "king_climbs" not in kinds(res.events)


def test_harder_climb_doubles_the_divergent_paths_climb(performed):
    state, _ = yellow_position(replace(DPV, difficulty=("harder_climb",)))
    s, _ = king_reacts_to_summon(state)
    climbs = of_kind(step(s, TakePiece(piece="1A")).events, E.KingClimbs)
    assert climbs[0].steps == 2


def test_an_unavailable_piece_is_refused_by_the_rule(performed):
    state, _ = yellow_position()
    s, _ = king_reacts_to_summon(state)
    with pytest.raises(IllegalAction, match="AVAILABLE CATHEDRAL PIECES") as err:
        apply(s, TakePiece(piece="2B"))  # 1A still holds a piece on a path into 2B
    assert "SOLO KING'S TURN 8" in str(err.value) and "1A" in str(err.value)


def test_the_king_builds_at_the_end_of_its_turn_standard_game_and_you_choose(performed):
    state = solo_setup(config=DPS)
    ev: list[Event] = []
    s = build_at_turn_end(replace(state, phase="reactions", queue=(), day="develop", active=1, turn_number=3), 1, ev)
    assert s.decision.seat == 0 and s.decision.kind == "king_cathedral_piece"
    assert {a.piece for a in all_of(legal_actions(s), TakePiece)} == set(GRAY) - {"1C"}
    tile = dict(s.path_tiles)["2A"]
    res = step(s, TakePiece(piece="2A"))  # all gray: the highest level, no climb
    after = res.state
    assert after.players[1].tiles == (tile,) and "king_climbs" not in kinds(res.events)
    assert kinds(res.events).index("cathedral_piece") < kinds(res.events).index("turn_begins")  # then its turn ends
    assert violations(after) == []


def test_with_divergent_paths_your_piece_makes_the_king_climb_no_more(performed):
    state = solo_setup(config=DPS)  # BUILDING THE CATHEDRAL STANDARD GAME is "without the Divergent Paths module"
    s = build_at_turn_end(replace(state, phase="reactions", queue=(), day="develop", turn_number=3), 0, [])
    assert s.decision.kind == "cathedral_piece" and s.decision.seat == 0
    s = apply(s, TakePiece(piece="2A"))
    while s.active == 0:  # you resolve your Reward tile
        s = apply(s, legal_actions(s)[-1])
    assert s.players[1].ritual == state.players[1].ritual and s.players[1].tiles == ()


def test_a_single_available_piece_is_taken_without_asking():
    state, _ = yellow_position()
    tile = dict(state.path_tiles)[STAGE_II]  # the last piece, yellow, the Stage II symbol's
    state = replace(only_left(state, (STAGE_II,)), path_tiles=((STAGE_II, tile),), tiles_aside=())
    ev: list[Event] = []
    s = kd.place_on_dream(state, ev, "power")
    assert s.cathedral_track == () and s.stage == 2 and s.decision == state.decision and s.frames == ()
    assert s.players[1].tiles == (tile,) and "king_climbs" not in kinds(ev) and "stage2_dreams" in kinds(ev)
    assert violations(s) == []


def test_step_3_completing_a_dream_asks_for_the_piece_before_the_action(performed):
    state, _ = yellow_position()
    k = replace(state.king, dreamer="ritual", day_cultists=(0, 0, 2, 0, 0))  # any roll: fortify, Power 2
    state = replace(state, king=k, active=1)
    s = H.play_king_turn(state, [])
    assert present(s.decision).kind == "king_cathedral_piece" and present(s.decision).seat == 0 and performed == []
    s = apply(s, TakePiece(piece="3A"))
    assert performed == [("fortify", 1)] and present(s.king).completed == (VICTOR,)
    assert present(s.decision).seat == 0 and violations(s) == []


def test_kept_reward_tiles_score_1_vp_each_for_the_king():
    state = solo_setup(config=DPS)
    before = scores(state)[1]
    s = set_player(state, replace(state.players[1], tiles=TILES["gray"][:2]))
    after = scores(s)[1]
    assert after.upgrades - before.upgrades == 2 and after.total - before.total == 2


# ---------------------------------------------------------------------------------------------
# Whole games


@pytest.mark.parametrize("config", [VAR, DPS, DPV], ids=["variable", "divergent", "variable+divergent"])
@pytest.mark.parametrize("seed", [3])
def test_a_seeded_random_solo_game_ends_in_each_mode(config, seed):
    state, _ = _solo(replace(config, seed=seed))
    r = random.Random(seed)
    seen = []
    clock = TurnLength()  # every turn ends within a bound (issue 38 item 7)
    for _ in range(6000):
        if state.outcome is not None:
            break
        assert state.decision.seat == 0
        res = step(state, r.choice(legal_actions(state)))
        state = res.state
        seen += kinds(res.events, 1)
        assert violations(state) == [] and clock.check(state) == []
    assert state.outcome is not None
    assert ("king_builds" in seen) == (config.length == "variable")  # for its Dreams
    assert len(state.players[1].tiles) == seen.count("king_keeps_tile") > 0 or not config.divergent_paths


def test_pieces_for_two_dreams_completed_at_once_are_chosen_in_their_order(performed):
    state, _ = yellow_position()
    other = state.king.dreams[1]
    assert cards.dream(state, other).cathedral  # both Dreams show the Cathedral icon
    k = replace(state.king, dreamer="ritual", day_cultists=(0, 0, 10, 0, 0))  # Power 10: both complete
    s = H.play_king_turn(replace(state, king=k, active=1), [])
    assert cards.dream(state, VICTOR).name in describe_decision(s) and performed == []
    s = apply(s, TakePiece(piece="3A"))
    assert cards.dream(state, other).name in describe_decision(s) and performed == []
    s = apply(s, legal_actions(s)[0])
    assert performed == [("fortify", 5)] and len(s.players[1].tiles) == 2 and violations(s) == []
