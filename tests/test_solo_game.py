"""Solo game flow (solo rulebook): the King's reactions on your turn, the King's turn 1-8, its
Cathedral climbs."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.engine import cathedral, king as kg, king_turn as kt, new_game, turn
from nctui.games.nightmare_cathedral.engine.actions import ChooseDay, React
from nctui.games.nightmare_cathedral.engine.events import Event
from nctui.games.nightmare_cathedral.engine.flow import apply, legal_actions
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.work import EndTurn, Frame, NextReaction
from tests import helpers as H
from tests.helpers import present
from tests.test_solo_setup import SOLO, solo_setup


def _solo(config):
    """A new solo game up to its first decision, and its setup events."""
    res = new_game(config)
    return res.state, list(res.events)


@pytest.fixture
def stub(monkeypatch):
    calls = []

    def perform(state, action, power, ev):
        calls.append((action, power))
        return state

    monkeypatch.setattr(kt, "perform_king_action", perform)
    return calls


def _human_turn(state, day, ignore=True):
    state = apply(state, ChooseDay(action=day, ignore=ignore))
    while state.decision.seat == 0 and state.active == 0:
        state = apply(state, legal_actions(state)[-1])
    return state


def test_king_conforms_to_your_action_ahead_of_it():
    state = solo_setup()  # the King's Dreamer on ritual: summon and fortify are ahead
    ev: list[Event] = []
    s = turn.next_reaction(
        replace(state, phase="reactions", queue=(1,), day="summon", work=None, decision=None), NextReaction(), ev
    )
    assert [e.kind for e in ev][:1] == ["king_conforms"]
    assert present(s.king).day_cultists[1] == 2 and sum(present(s.king).dream_cultists) == 1


def test_king_reacts_without_a_decision():
    state = solo_setup()
    ev: list[Event] = []
    s = turn.next_reaction(
        replace(state, phase="reactions", queue=(1,), day="develop", work=None, decision=None), NextReaction(), ev
    )
    assert any(e.kind == "king_dissents" for e in ev)  # develop is not ahead of ritual
    assert s.decision is None and s.work is None  # the King asks nothing: the turn goes on
    s = H.resolve(s, ev)
    assert present(s.decision).seat == 0


def test_easier_conform_adds_no_cultist_to_the_action():
    state = solo_setup(config=replace(SOLO, difficulty=("easier_conform",)))
    s = kt.king_reacts(state, "summon", [])
    assert present(s.king).day_cultists == present(state.king).day_cultists and sum(present(s.king).dream_cultists) == 1
    plain = kt.king_reacts(solo_setup(), "summon", [])
    assert present(plain.king).day_cultists[1] == 2


def test_king_turn_asks_only_you_and_runs_steps_1_to_8(stub):
    state = _human_turn(solo_setup(), "develop")
    assert state.active == 1 and stub and stub[0][0] == state.king.dreamer
    assert state.decision.seat == 0 and state.decision.kind in ("react", "king_dream")
    while state.decision.kind == "king_dream":
        state = apply(state, legal_actions(state)[0])
    assert state.decision.kind == "react" and state.day == state.king.dreamer
    king_before = state.players[1].ritual
    state = apply(state, React(kind="pass"))
    k = present(state.king)
    while state.active == 1:  # you resolve the uncovered icons as usual
        assert present(state.decision).seat == 0
        state = apply(state, legal_actions(state)[-1])
    assert sum(k.card_cultists) == 0 and k.day_cultists[kg.rondel(state).index(k.dreamer)] == 1  # step 7
    assert state.active == 0 and state.players[1].turns == 1
    assert state.players[1].dreamer == solo_setup().players[1].dreamer  # no Night space for the King
    assert sum(state.players[1].ritual) == sum(king_before) + 1  # step 8: the King climbs 1
    assert violations(state) == []


def test_you_build_and_the_king_climbs_instead_of_the_icons(stub):
    state = replace(solo_setup(), turn_number=3)
    ev: list[Event] = []
    end = Frame(seat=0, steps=(), source="turn", then=EndTurn())  # the end of the turn waits beneath
    s = replace(state, phase="reactions", queue=(), day="develop", work=None, decision=None, frames=(end,))
    s = cathedral.take_piece(s, 0, ev)
    assert [e.kind for e in ev] == ["cathedral_piece", "cathedral_icon"] and ev[-1].seat == 0  # you first
    s = H.resolve(s, ev)
    while s.active == 0:
        assert present(s.decision).seat == 0
        s = apply(s, legal_actions(s)[-1])
    assert sum(s.players[1].ritual) == 1  # then the King climbs instead of the icons


def test_harder_climb_climbs_two_and_stage_ii_space_instead():
    state = solo_setup(config=replace(SOLO, difficulty=("harder_climb",)))
    assert kg.king_climbs(state, "piece", []).players[1].ritual in ((2, 0), (0, 2))
    s = replace(state, cathedral_built=state.cathedral_built + ("4A",))
    assert cathedral._king_climb(s, "4A", []).players[1].ritual == (0, 0)


@pytest.mark.parametrize("seed", [0, 1])
def test_a_solo_game_plays_to_its_end_asking_only_you(stub, seed):
    state, _ = _solo(replace(SOLO, seed=seed, difficulty=("harder_climb", "harder_dream_discount")))
    r = random.Random(seed)
    for _ in range(4000):
        if state.outcome is not None:
            break
        assert state.decision.seat == 0
        state = apply(state, r.choice(legal_actions(state)))
        assert violations(state) == []
    assert state.outcome is not None and state.players[1].turns >= 1
    from tests.test_game_end import assert_breakdowns_sum

    assert_breakdowns_sum(state, state.outcome.scores)  # the King's sources too


def test_a_kings_nightmare_conflict_waiting_for_your_cards_resumes_the_kings_action():
    """Seed 20: the King's Ritual enters two special spaces; the second command's conflict waits
    for your combat cards, and the King's turn goes on afterwards (it used to be lost)."""
    from nctui.games.nightmare_cathedral.bots import RandomBot
    from nctui.games.nightmare_cathedral.engine import player_view, step
    from nctui.games.nightmare_cathedral.simulate import bot_seed, make_config

    config = make_config(players=1, seed=20)
    state, _ = _solo(config)
    bot = RandomBot(bot_seed(config.seed, 0))
    while state.decision is not None:
        state = step(state, bot.choose(player_view(state, 0))).state
    assert state.outcome is not None
