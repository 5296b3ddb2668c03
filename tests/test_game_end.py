"""GAME END & SCORING: both end triggers, playing on to equal turns, and FINAL SCORE with the
rulebook's scoring example."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.content.loader import get_pack
from nctui.games.nightmare_cathedral.engine import apply, cards, step, turn, units
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.scoring import DevouredLine, breakdowns, scores
from nctui.games.nightmare_cathedral.engine.state import GameState, Score
from tests import helpers as H
from tests.helpers import auto, present
from tests.test_nightmares import CATHEDRAL, nightmare, opp, pack_with, put, stage2


def finish_turn(state: GameState) -> GameState:
    """Play the current turn to the beginning of the next one, or to the end of the game."""
    number = state.turn_number
    while state.turn_number == number and state.decision is not None:
        state = step(state, auto(state)).state
        assert violations(state) == []
    return state


def devour_to_the_threshold(state: GameState) -> GameState:
    """After the active player's action, an effect devours the unit that reaches the threshold
    (1 here); the rest of the turn is still to play."""
    state = apply(state, auto(state))  # the Day action, ignored
    here = state.areas[0].id
    state = put(replace(state, nightmare_at=(here, CATHEDRAL), commanding=1), opp(state), here)
    ev: list = []
    state = H.resolve(H.push_effect(state, state.active, (cs.Devour(count=1),), "nightmare", must=True), ev)
    assert state.end_triggered and any(e.kind == "end_triggered" for e in ev)
    return replace(state, commanding=0)


ONE = (nightmare(1, devoured=(1, 1, 1)), nightmare(2, devoured=()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_devoured_end_in_the_first_players_turn_lets_every_other_player_play_once_more(players):
    state = stage2(*ONE, players=players)
    first = state.active
    state = finish_turn(devour_to_the_threshold(state))
    for _ in range(players - 1):
        assert state.outcome is None and state.active != first
        state = finish_turn(state)
    assert state.outcome is not None and state.outcome.reason == "devoured" and state.phase == "over"
    assert {pl.turns for pl in state.players} == {1}


def test_a_devoured_end_in_the_last_players_turn_ends_the_game_with_that_turn():
    state = finish_turn(stage2(*ONE, players=3))
    state = finish_turn(state)
    assert [pl.turns for pl in state.players].count(0) == 1  # the last player of the round is active
    state = finish_turn(devour_to_the_threshold(state))
    assert state.outcome is not None and state.outcome.reason == "devoured"
    assert {pl.turns for pl in state.players} == {1}


def test_the_time_marker_ends_the_game_at_once_even_with_turns_unequal():
    state = stage2(*ONE, players=3)
    track = len(get_pack("base").tracks.turn)
    last = len(get_pack("base").tracks.time) - 2
    # the last turn before the Turn marker re-enters the start on the last Time space
    state = replace(state, time=last, turn_pos=(state.turn_start - 1) % track)
    state = turn.begin_turn(state, [])
    state = devour_to_the_threshold(state)
    state = finish_turn(state)
    assert state.outcome is not None and state.outcome.reason == "time"


def test_the_end_is_checked_only_at_the_end_of_a_turn():
    state = devour_to_the_threshold(stage2(*ONE, players=2))
    assert state.outcome is None and state.decision is not None  # the turn goes on


# ---------------------------------------------------------------------------------------------
# FINAL SCORE


def _stage2_upgrades() -> tuple[tuple[str, ...], tuple[cs.DevelopmentCard, ...]]:
    """Two Stage 2 Upgrade cards worth 1 VP for the same Action card: the pack's own when it has
    them, else hand-built."""
    real = [d for d in get_pack("base").cards.development if d.stage == 2 and d.kind == "upgrade" and d.vp == 1]
    for action in get_pack("base").matrix.rondel:  # two for one Action card: the second covers the first
        same = [d.id for d in real if d.action == action]
        if len(same) >= 2:
            return (same[0], same[1]), ()
    made = tuple(
        cs.DevelopmentCard(
            id=f"test-s2-upgrade-{i}",
            name=f"Test Upgrade {i}",
            stage=2,
            kind="upgrade",
            combat=cs.Combat(),
            vp=1,
            action="summon",
            day=cs.Effect(text="-"),
            conform=cs.Effect(text="-"),
            dissent=cs.Effect(text="-"),
        )
        for i in (1, 2)
    )
    return tuple(c.id for c in made), made


def assert_breakdowns_sum(state: GameState, result: tuple[Score, ...]) -> None:
    """Each group of ``scoring.breakdowns`` adds up to its Score field."""
    for b, sc in zip(breakdowns(state), result, strict=True):
        assert sum(r.vp for r in b.ritual) == sc.ritual and sum(f.vp for f in b.forts) == sc.forts
        assert b.devoured is not None and b.devoured.vp == sc.devoured
        extra = b.king_extra.vp if b.king_extra is not None else 0
        assert sum(c.vp for c in b.upgrades) + extra == sc.upgrades
        assert sum(c.vp for c in b.dreams) + sum(s.vp for s in b.suit_sets) == sc.dreams


def test_the_rulebooks_scoring_example_for_blue_totals_34():
    upgrades, extra = _stage2_upgrades()
    state = stage2(players=4)
    state = replace(state, pack=pack_with(nightmare(1), nightmare(2), development=extra))
    blue = state.config.seat_colours().index("blue")
    green = state.config.seat_colours().index("green")
    # Ritual: markers reached the VP spaces worth 7 and 3
    pl = state.players[blue]
    state = set_player(state, replace(pl, ritual=(15, 9), ritual_best=(15, 9)))
    assert [sp.vp for sp in get_pack("base").tracks.ritual][14] == 7
    # Forts of 1, 2 and 3 levels
    for area, levels in zip(state.areas[:3], (1, 2, 3)):
        state = units.place(state, blue, area.id)
        for _ in range(levels):
            state = units.add_fort_level(state, blue, area.id)
    # Devoured: red most; blue and green tied 2nd; the Shadows 4th, yellow fewest
    for seat, n in zip(range(4), (5, 3, 3, 1)):
        p = state.players[seat]
        state = set_player(state, replace(p, devoured=n, supply=p.supply - n))
    state = replace(state, devoured_shadows=2, shadows=state.shadows - 2)
    # two Stage 2 Upgrades on one Action card: the covered one scores too
    pl = state.players[blue]
    slots = list(pl.display)
    for card_id in upgrades:
        slot = get_pack(state.pack).matrix.rondel.index(cards.development(state, card_id).action)
        slots[slot] += (card_id,)
    display = tuple(slots)
    # Dreams in the personal discard pile: 15 VP
    dreams = tuple(d.id for d in get_pack("base").cards.dreams if d.vp == 5)[:3]
    state = set_player(state, replace(pl, display=display, dreams_played=dreams))

    result = scores(state)
    assert result[blue] == Score(seat=blue, ritual=10, forts=3, devoured=4, upgrades=2, dreams=15)
    assert result[blue].total == 34
    assert result[green].devoured == 4  # (5 + 3) // 2, shared
    # the breakdown names each source and sums to the score (issue 39 item 15)
    b = breakdowns(state)[blue]
    assert [(r.space, r.vp) for r in b.ritual] == [(15, 7), (9, 3)]
    assert sorted((f.levels, f.vp) for f in b.forts) == [(2, 1), (3, 2)]
    assert b.devoured == DevouredLine(devoured=3, first=2, last=3, tied=2, pool=8, vp=4)
    assert [c.vp for c in b.dreams] == [5, 5, 5] and sum(c.vp for c in b.upgrades) == 2
    assert_breakdowns_sum(state, result)


def test_a_game_ended_by_devouring_scores_and_names_its_winners():
    state = stage2(*ONE, players=2)
    state = finish_turn(devour_to_the_threshold(state))
    state = finish_turn(state)
    out = present(state.outcome)
    assert out.reason == "devoured" and out.scores == scores(state)
    assert out.scores[opp(stage2(*ONE))].devoured == 8  # the only side with a devoured unit
    best = max(s.total for s in out.scores)
    assert all(out.scores[w].total == best for w in out.winners)


# ---------------------------------------------------------------------------------------------
# Whole games


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_random_games_reach_stage_2_and_end_with_scores_that_add_up(players, seed):
    from tests.helpers import random_game

    stage2_seen = False
    for state, action in random_game(players, seed):
        stage2_seen |= state.stage == 2
        if action is None:
            break
    assert stage2_seen and state.phase == "over" and state.outcome is not None
    for sc in state.outcome.scores:
        assert sc.total == sc.ritual + sc.forts + sc.devoured + sc.upgrades + sc.dreams
    assert state.outcome.scores == scores(state)
    assert_breakdowns_sum(state, state.outcome.scores)
    assert violations(state) == []


def test_random_games_with_a_threshold_of_one_end_by_devouring_after_equal_turns():
    """The real Nightmares with a Devoured Units number of 1: the first devoured unit triggers
    the end, and every game still ends with the players' turns equal."""
    from nctui.games.nightmare_cathedral.content.loader import register
    from tests.helpers import random_game

    base = get_pack("base")
    low = tuple(replace(c, devoured=(1, 1, 1)) for c in base.cards.nightmares)
    if not low:
        pytest.skip("the pack has no Nightmares")
    register(replace(base, info=replace(base.info, id="threshold-one"), cards=replace(base.cards, nightmares=low)))
    reasons = []
    for players in (2, 3, 4):
        for seed in range(4):
            for state, action in random_game(players, seed, pack="threshold-one"):
                assert violations(state) == [], (players, seed)
                if action is None:
                    break
            reasons.append(present(state.outcome).reason)
            if present(state.outcome).reason == "devoured":
                assert len({pl.turns for pl in state.players}) == 1 and state.end_triggered
                assert sum(pl.devoured for pl in state.players) + state.devoured_shadows >= 1
    assert "devoured" in reasons
