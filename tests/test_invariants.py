"""The invariant check catches broken conservation: every card, Follower, Fort level and Shadow
is somewhere, once (COMPONENTS), and no hidden placeholder leaks into the state itself."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.engine import GameConfig, GameState, invariants, new_game
from nctui.games.nightmare_cathedral.engine.events import HIDDEN
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.king_state import KING_COMBAT
from nctui.games.nightmare_cathedral.engine.state import BASIC_COMBAT
from nctui.games.nightmare_cathedral.engine.work import CombatCardsWork, Fight, KeepWork, KingTuckWork
from tests.helpers import random_game

DEV = "Development cards not conserved"
DREAMS = "Dream cards not conserved"
CONFLICTS = "Conflict cards not conserved"
PLACEHOLDER = "a hidden placeholder is in the state itself"
KING = "the King's 2 combat cards are not conserved"


def _state(players: int = 2, seed: int = 0, after: int = 60, **kw) -> GameState:
    """A state of a random game, ``after`` decisions in (its last state if the game is shorter)."""
    last = None
    for i, (state, _) in enumerate(random_game(players, seed, **kw)):
        last = state
        if i == after:
            break
    assert last is not None
    return last


def _solo(after: int = 40) -> GameState:
    """A state of a solo game against the King, played by the first option of every decision."""
    from nctui.games.nightmare_cathedral.engine import apply

    state = new_game(GameConfig(players=1, seats=("human", "king"), seed=3)).state
    for _ in range(after):
        if state.decision is None:
            break
        state = apply(state, state.decision.options[0])
    return state


@pytest.fixture(params=["first", "after"], ids=["first position", "after the unbroken one"])
def fresh(request, monkeypatch) -> Callable[[GameState], GameState]:
    """The check compares cards with the last position it found conserved, if any: each break
    is checked both ways. Returns what gives the unbroken state for a test to break."""

    def prepare(state: GameState) -> GameState:
        if request.param == "first":
            monkeypatch.setattr(invariants, "_last", None)
        else:
            assert violations(state) == []
        return state

    return prepare


def _found(state: GameState, *messages: str) -> list[str]:
    """The messages of ``violations`` that begin with one of ``messages``."""
    return [v for v in violations(state) if v.startswith(messages)]


def _with_decks(state: GameState, **decks) -> GameState:
    return replace(state, decks=replace(state.decks, **decks))


def _with_player(state: GameState, seat: int, **fields) -> GameState:
    players = list(state.players)
    players[seat] = replace(players[seat], **fields)
    return replace(state, players=tuple(players))


def test_the_states_these_tests_break_keep_every_invariant():
    assert violations(_state()) == []
    assert violations(_state(players=4, seed=2, after=200)) == []
    assert violations(_solo()) == []


def _hand_card(state: GameState) -> str:
    return next(c for c in state.players[0].hand if c != BASIC_COMBAT)


BREAKS: dict[str, Callable[[GameState], GameState]] = {
    "a card missing from a hand": lambda s: _with_player(s, 0, hand=s.players[0].hand[1:]),
    "a hand card also in the discard pile": lambda s: _with_decks(
        s, development_discard=s.decks.development_discard + (_hand_card(s),)
    ),
    "a deck card twice in the deck": lambda s: _with_decks(
        s, development=s.decks.development + s.decks.development[:1]
    ),
    "a Stage 2 card missing": lambda s: _with_decks(s, development2=s.decks.development2[1:]),
    "a card missing from the box": lambda s: _with_decks(s, removed=s.decks.removed[1:]),
    "a card in a display twice": lambda s: _with_player(
        s,
        0,
        display=s.players[0].display[:1]
        + ((s.players[0].display[1][0], s.decks.development[0]),)
        + s.players[0].display[2:],
    ),
    # the count of cards is kept: only a multiset comparison sees these
    "one card in place of another": lambda s: _with_decks(s, development=(_hand_card(s),) + s.decks.development[1:]),
    "a Development card in place of a Basic Combat card": lambda s: _with_player(
        s, 0, hand=tuple(s.decks.development[0] if c == BASIC_COMBAT else c for c in s.players[0].hand)
    ),
    "a Basic Combat card in place of a Development card": lambda s: _with_decks(
        s, development=(BASIC_COMBAT,) + s.decks.development[1:]
    ),
}


@pytest.mark.parametrize("name", list(BREAKS))
def test_a_development_card_missing_or_duplicated_is_reported(name, fresh):
    state = BREAKS[name](fresh(_state()))
    assert _found(state, DEV), name
    assert not _found(state, PLACEHOLDER, DREAMS, CONFLICTS)


@pytest.mark.parametrize("where", ["development", "development_discard", "hand"])
def test_a_hidden_placeholder_among_development_cards_is_reported(where, fresh):
    state = fresh(_state())
    if where == "hand":
        state = _with_player(state, 1, hand=(HIDDEN,) + state.players[1].hand[1:])
    else:
        cards = getattr(state.decks, where)
        state = _with_decks(state, **{where: (HIDDEN,) + cards[1:]})
    assert _found(state, PLACEHOLDER) == [PLACEHOLDER]
    assert _found(state, DEV)


def test_moving_a_card_between_places_breaks_nothing():
    state = _state()
    moved = _with_decks(
        state, development=state.decks.development[1:], removed=state.decks.removed + state.decks.development[:1]
    )
    assert violations(moved) == []
    moved = _with_decks(
        state, conflict=state.decks.conflict[1:], removed=state.decks.removed + state.decks.conflict[:1]
    )  # the Stage II space does this
    assert violations(moved) == []


@pytest.mark.parametrize(
    "name,change",
    [
        ("missing from the offer", lambda s: _with_decks(s, dream_offer=s.decks.dream_offer[1:])),
        ("twice", lambda s: _with_decks(s, dream=s.decks.dream + s.decks.dream_offer[:1])),
        ("a placeholder in the deck", lambda s: _with_decks(s, dream=(HIDDEN,) + s.decks.dream[1:])),
        ("a Stage 2 card in place of another", lambda s: _with_decks(s, dream2=s.decks.dream[:1] + s.decks.dream2[1:])),
        ("missing from a hand", lambda s: _with_player(s, 0, dreams=())),
    ],
)
def test_a_dream_card_missing_or_duplicated_is_reported(name, change, fresh):
    state = fresh(_state())
    assert state.players[0].dreams
    assert _found(change(state), DREAMS) == [DREAMS], name


@pytest.mark.parametrize(
    "name,change",
    [
        ("missing", lambda s: _with_decks(s, conflict=s.decks.conflict[1:])),
        ("twice", lambda s: _with_decks(s, conflict2=s.decks.conflict2 + s.decks.conflict[:1])),
        ("a placeholder", lambda s: _with_decks(s, conflict=(HIDDEN,) + s.decks.conflict[1:])),
        ("twice, once in the box", lambda s: _with_decks(s, removed=s.decks.removed + s.decks.conflict[:1])),
    ],
)
def test_a_conflict_card_missing_or_duplicated_is_reported(name, change, fresh):
    assert _found(change(fresh(_state())), CONFLICTS) == [CONFLICTS], name


def test_a_conflict_card_among_development_cards_breaks_both(fresh):
    state = fresh(_state())
    state = _with_decks(
        state, conflict=state.decks.conflict[1:], development=state.decks.development + state.decks.conflict[:1]
    )
    assert len(_found(state, DEV)) == 1 and _found(state, CONFLICTS) == [CONFLICTS]


def test_cards_held_by_a_step_in_progress_count():
    state = _state()
    d = state.decks
    drawn = _with_decks(
        replace(state, work=KeepWork(seat=0, deck="development", drawn=d.development[:2], keep_left=1)),
        development=d.development[2:],
    )
    assert not _found(drawn, DEV)
    assert _found(replace(drawn, work=KeepWork(seat=0, deck="development", drawn=d.development[:1], keep_left=1)), DEV)
    fight = Fight(
        resolver=0,
        left=1,
        where="any",
        area=state.areas[0].id,
        sides=(0, -2),
        plays=((_hand_card(state),), ()),
        shadow_card=d.conflict[0],
    )
    played = replace(state, work=CombatCardsWork(seat=0, fight=fight))
    assert _found(played, DEV)  # the card is also still in the hand
    assert _found(played, CONFLICTS)  # and the Conflict card still in its deck
    hand = tuple(c for c in state.players[0].hand if c != _hand_card(state))
    fought = _with_decks(_with_player(played, 0, hand=hand), conflict=d.conflict[1:])
    assert not _found(fought, DEV, CONFLICTS)


def test_the_kings_cards_are_counted(fresh):
    state = fresh(_solo())
    k = state.king
    assert k is not None and set(KING_COMBAT) <= set(k.hand) and k.dreams
    without = replace(state, king=replace(k, hand=tuple(c for c in k.hand if c != KING_COMBAT[1])))
    assert _found(without, KING) == [KING]
    twice = replace(state, king=replace(k, hand=k.hand + KING_COMBAT[:1]))
    assert _found(twice, KING) == [KING] and not _found(twice, DEV)
    assert _found(replace(state, king=replace(k, dreams=k.dreams[1:])), DREAMS) == [DREAMS]
    tucked = replace(state, king=replace(k, tucked=((state.decks.development[0],),) + k.tucked[1:]))
    assert _found(tucked, DEV)
    waiting = _with_decks(
        replace(state, work=KingTuckWork(seat=0, card=state.decks.development[0], options=())),
        development=state.decks.development[1:],
    )
    assert not _found(waiting, DEV)
    assert _found(replace(waiting, work=None), DEV)


def test_the_king_has_no_basic_combat_card(fresh):
    state = fresh(_solo())
    hand = state.players[0].hand
    assert hand.count(BASIC_COMBAT) == 1
    assert _found(_with_player(state, 0, hand=hand + (BASIC_COMBAT,)), DEV)


def test_units_not_conserved_are_reported():
    state = _state()
    pl = state.players[0]
    assert _found(_with_player(state, 0, supply=pl.supply - 1), "seat 0: Followers not conserved")
    assert _found(_with_player(state, 1, forts=state.players[1].forts + 1), "seat 1: Fort levels not conserved")
    assert _found(replace(state, shadows=state.shadows + 1), "Shadows not conserved")


def test_a_break_right_after_a_conserved_position_is_reported():
    """The check compares a position with the last one found conserved, reading only the parts
    that changed: a break in one part, or a move between parts, is seen all the same."""
    state = _state()
    assert violations(state) == []
    card = state.decks.development[0]
    drawn = _with_player(
        _with_decks(state, development=state.decks.development[1:]), 0, hand=state.players[0].hand + (card,)
    )
    assert not _found(drawn, DEV)  # a draw moves a card: nothing is broken
    assert _found(_with_player(drawn, 1, hand=drawn.players[1].hand + (card,)), DEV)
    assert _found(_with_decks(drawn, development_discard=drawn.decks.development_discard + (HIDDEN,)), PLACEHOLDER)
    swapped = _with_player(drawn, 0, hand=drawn.players[0].hand[:-1] + (drawn.decks.development[0],))
    assert _found(swapped, DEV)  # as many cards as before, not the same ones
    assert _found(_with_decks(drawn, dream=drawn.decks.dream + drawn.decks.dream[:1]), DREAMS)
    assert not _found(
        replace(drawn, decks=replace(drawn.decks), players=tuple(replace(p) for p in drawn.players)),
        DEV,
        DREAMS,
        CONFLICTS,
    )  # equal parts, new objects
    assert violations(state) == []
