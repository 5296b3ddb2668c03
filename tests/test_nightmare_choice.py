"""CHOOSING NIGHTMARES and SETUP 20-21: two Nightmares revealed at random, chosen by number, or
one of the pairs the designers suggest, by name."""

from __future__ import annotations

import pytest

from nctui.games.nightmare_cathedral.engine import GameConfig, apply, legal_actions, new_game, step
from nctui.games.nightmare_cathedral.engine.config import SUGGESTED_PAIRS, check_config, nightmare_pair
from nctui.games.nightmare_cathedral.engine.events import Event
from nctui.games.nightmare_cathedral.engine.invariants import violations
from tests.helpers import config, present


def through_setup(cfg: GameConfig):
    state = new_game(cfg).state
    events: list[Event] = []
    while state.phase == "setup":
        res = step(state, legal_actions(state)[0])
        state, events = res.state, events + list(res.events)
    return state, events


def test_the_suggested_pairs_are_the_rulebooks():
    assert SUGGESTED_PAIRS == {
        "ritual-climbing": (1, 5),  # Climbing the Ritual track
        "lots-of-conflict": (3, 7),  # A lot of conflict
        "strategic-end": (4, 8),  # A more strategic game end, with variable length of the game
        "devoured-competition": (3, 6),  # Fierce competition for Devoured units
        "quick-end": (2, 8),  # Game end triggered quickly after Nightmares enter play
        "card-play": (4, 6),  # Focus on card drawing and a lot of cards played
        "very-aggressive": (1, 7),  # Very aggressive game play ... end of game via Devoured units
    }


@pytest.mark.parametrize(
    "text, pair",
    [
        ("3,7", (3, 7)),
        (" 8, 2 ", (8, 2)),
        ("lots-of-conflict", (3, 7)),
        ("Quick-End", (2, 8)),
        ("random", ()),
        ("", ()),
    ],
)
def test_a_pair_by_numbers_or_by_name(text, pair):
    assert nightmare_pair(text) == pair


@pytest.mark.parametrize("text", ["3,3", "0,5", "3,9", "3", "3,4,5", "lots", "x,y"])
def test_a_bad_pair_is_refused_in_words(text):
    with pytest.raises(ValueError, match="two different numbers from 1 to 8") as err:
        nightmare_pair(text)
    assert "lots-of-conflict" in str(err.value)


@pytest.mark.parametrize("bad", [(3,), (3, 3), (0, 4), (5, 9), (1, 2, 3)])
def test_the_configuration_refuses_a_bad_pair(bad):
    assert any("nightmares" in p for p in check_config(config(2, nightmares=bad)))
    with pytest.raises(ValueError, match="nightmares"):
        new_game(config(2, nightmares=bad))


@pytest.mark.parametrize("name", sorted(SUGGESTED_PAIRS))
def test_a_suggested_pair_is_revealed_at_setup(name):
    state, events = through_setup(config(3, 2, nightmares=SUGGESTED_PAIRS[name]))
    assert state.nightmares == SUGGESTED_PAIRS[name]
    assert state.nightmare_at == ("", "")  # each miniature waits on its card (SETUP 21)
    shown = [e for e in events if e.kind == "nightmares"]
    assert len(shown) == 1 and shown[0].chosen is True  # chosen, not random
    assert shown[0].numbers == tuple(SUGGESTED_PAIRS[name])
    assert violations(state) == []


def test_chosen_numbers_are_kept_in_the_order_given():
    state, _ = through_setup(config(2, 1, nightmares=(7, 3)))
    assert state.nightmares == (7, 3)


def test_a_random_pair_is_two_different_nightmares_from_the_games_seed():
    pairs = [through_setup(config(2, seed))[0].nightmares for seed in range(12)]
    assert all(len(set(p)) == 2 and all(1 <= n <= 8 for n in p) for p in pairs)
    assert len(set(pairs)) > 4  # random
    assert through_setup(config(2, 5))[0].nightmares == pairs[5]  # reproducible
    _, events = through_setup(config(2, 5))
    assert [(e.numbers, e.chosen) for e in events if e.kind == "nightmares"] == [(pairs[5], False)]


def test_the_random_pair_comes_after_the_dreamers_are_placed():
    state = new_game(config(2, 4)).state
    while present(state.decision).kind != "place_dreamer":
        state = apply(state, legal_actions(state)[0])
    assert state.nightmares == ()
    state, _ = through_setup(config(2, 4))
    assert len(state.nightmares) == 2
