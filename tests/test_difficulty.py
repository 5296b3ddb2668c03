"""Solo DIFFICULTY MODIFIERS: option ids, presets, and the modifiers of the flow and scoring."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.engine import board, king as kg, king_dreams as kd, new_game, scoring, step, units
from nctui.games.nightmare_cathedral.engine.config import (
    DIFFICULTY_OPTIONS,
    DIFFICULTY_PRESETS,
    EASIER,
    check_config,
    difficulty,
)
from nctui.games.nightmare_cathedral.engine.ops import set_player
from tests.golden import fingerprint, outcome_of
from tests.helpers import present
from tests.test_solo_setup import SOLO, solo_setup


def test_presets_and_ids():
    assert difficulty("easy") == EASIER and difficulty("normal") == ()
    assert "harder_powered_1" in difficulty("hard") and len(DIFFICULTY_PRESETS["hard"]) == 2  # ours: docs/balance.md
    assert difficulty("harder_climb, easier_ritual") == ("harder_climb", "easier_ritual")
    with pytest.raises(ValueError, match="difficulty"):
        difficulty("harder_everything")
    assert check_config(replace(SOLO, difficulty=("nope",)))
    assert check_config(replace(SOLO, difficulty=("harder_powered_1", "harder_powered_2")))
    assert check_config(replace(SOLO, difficulty=DIFFICULTY_PRESETS["hard"])) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_modifiers_are_refused_outside_solo(players):
    from nctui.games.nightmare_cathedral.engine import new_game
    from nctui.games.nightmare_cathedral.engine.config import GameConfig

    config = GameConfig(players=players, seats=("bot",) * players, difficulty=("harder_climb",))
    assert [p for p in check_config(config) if "solo games only" in p]
    with pytest.raises(ValueError, match="solo games only"):
        new_game(config)
    assert check_config(replace(config, difficulty=())) == []


def _dream(state, vp):
    return next(
        d.id
        for d in board.pack(state).cards.dreams
        if d.stage == 1 and d.vp == vp and d.id in state.decks.dream_offer + state.decks.dream
    )


@pytest.mark.parametrize(
    "mods,vp,cultists", [((), 3, 0), (("harder_dream_discount",), 3, 1), (("harder_dream_discount",), 2, 0)]
)
def test_dream_discount(mods, vp, cultists, monkeypatch):
    state = solo_setup(config=replace(SOLO, difficulty=mods))
    card = _dream(state, max(vp, 3))
    if vp < 3:  # the base pack's Dreams are worth 3+ VP since the tuning's step 3; a pack may print 2
        real = kd.cards.dream
        monkeypatch.setattr(kd.cards, "dream", lambda s, c: replace(real(s, c), vp=vp) if c == card else real(s, c))
    state = replace(
        state, decks=replace(state.decks, dream_offer=(card,)), king=replace(state.king, dreams=(), dream_cultists=())
    )
    s = kd.refill_dreams(state, [])
    assert present(s.king).dreams[0] == card and present(s.king).dream_cultists[0] == cultists


@pytest.mark.parametrize("seed", range(6))
def test_dream_discount_on_the_kings_two_setup_dreams(seed):
    """ "whenever it takes a new one": the two Dreams of its setup are new Dreams too."""
    normal = solo_setup(config=replace(SOLO, seed=seed))
    hard = solo_setup(config=replace(SOLO, seed=seed, difficulty=("harder_dream_discount",)))
    assert hard.king.dreams == normal.king.dreams and normal.king.dream_cultists == (0, 0)
    assert hard.king.dream_cultists == tuple(int(kg.cards.dream(hard, c).vp >= 3) for c in hard.king.dreams)


def test_hand_scoring():
    state = solo_setup()
    hand = state.king.hand + ("a", "b", "c", "d")
    assert scoring.king_extra_vp(replace(state, king=replace(state.king, hand=hand))) == 2
    hard = solo_setup(config=replace(SOLO, difficulty=("harder_hand_scoring",)))
    assert scoring.king_extra_vp(replace(hard, king=replace(hard.king, hand=hand))) == 4


def test_harder_devoured_from_supply_then_board():
    state = solo_setup(config=replace(SOLO, difficulty=("harder_devoured",)))
    s = kg.devour_three(state, [])
    assert s.players[1].devoured == 3 and s.players[1].supply == state.players[1].supply - 3
    short = set_player(state, replace(state.players[1], supply=1))
    on_board = units.on_board(short, 1)
    s = kg.devour_three(short, [])
    assert s.players[1].devoured == 3 and s.players[1].supply == 0 and units.on_board(s, 1) == on_board - 2


def _solo_game(seed: int, difficulty: tuple[str, ...]):
    """A whole solo game whose choices come from one seeded stream: the same seed makes the same
    choice at every decision that offers the same number of options."""
    state = new_game(replace(SOLO, seed=seed, difficulty=difficulty)).state
    pick = random.Random(seed)
    while state.decision is not None:
        state = step(state, state.decision.options[pick.randrange(len(state.decision.options))]).state
    return state


@pytest.mark.parametrize("option", DIFFICULTY_OPTIONS)
def test_every_difficulty_modifier_changes_a_game(option):
    """Each modifier is read by some rule: among a few seeds, a game with it differs from the same
    game (same seed, same choice stream) without it, in its final state or its outcome."""

    def played(state):  # the game, not its configuration (which names the modifier)
        return fingerprint(replace(state, config=SOLO)), outcome_of(state)

    for seed in range(6):
        if played(_solo_game(seed, ())) != played(_solo_game(seed, (option,))):
            return
    pytest.fail(f"{option}: no game of seeds 0-5 changed")


def test_harder_devoured_three_can_trigger_the_end():
    """ "the King immediately adds 3 followers ... to the Devoured board"; "Once a limit ... is
    reached, the game end will trigger": the 3 count at once (no later devour needed)."""
    from nctui.games.nightmare_cathedral.engine import nightmares

    state = replace(solo_setup(config=replace(SOLO, difficulty=("harder_devoured",))), stage=2)
    limit = nightmares.threshold(state)
    assert limit is not None
    near = replace(state, devoured_shadows=limit - 3)
    ev: list = []
    s = kg.devour_three(near, ev)
    assert s.end_triggered and ev[-1].kind == "end_triggered"
    assert not kg.devour_three(replace(state, devoured_shadows=limit - 4), []).end_triggered


def test_harder_hand_scoring_the_running_score_leaves_out_its_hidden_combat_cards():
    """With harder_hand_scoring the King scores 1 VP per card in hand but its own 2 combat cards;
    its hand is face down in your view, yet its combat cards are known to be there (they return
    after every conflict): the score you see is the true one."""
    from nctui.games.nightmare_cathedral.engine import player_view
    from nctui.games.nightmare_cathedral.engine.facts import facts

    state = solo_setup(config=replace(SOLO, difficulty=("harder_hand_scoring",)))
    state = replace(state, king=replace(state.king, hand=(*kg.king_combat_cards(state), "d1-wax-stair")))
    assert scoring.king_extra_vp(state) == 1
    seen = facts(player_view(state, 0)).scores[state.king.seat]
    assert seen == scoring.scores(state)[state.king.seat]
