"""DEVELOP: "play any number of Upgrades and up to 3 Ploys" (the Develop cards) in any order: an
Upgrade after a Ploy too, the Ploys' limit kept; "Play 1 Upgrade or 1 Ploy" and "Play 1 Upgrade"
as printed (issue 39.20)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.describe import describe_decision
from nctui.games.nightmare_cathedral.engine import (
    IllegalAction,
    actions as A,
    apply,
    board,
    cards,
    legal_actions,
    work as W,
)
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.engine.table import RULES
from tests.helpers import but_limbo, present
from tests.test_limbo import asked
from tests.test_ritual import blank, pl

UPS = ("d1-bone-mortar", "d1-waking-bell")  # in the deck of the position (not a starting Upgrade)
WAKING = "d1-sudden-waking"  # Ploy: draw 2 Development cards (nothing to decide)
DEVELOP = (cs.PlayUpgrades(count=0), cs.PlayPloys(count=3))


def with_hand(*cards: str):
    state = blank(weeping_orchard=1)
    p = pl(state)
    deck = tuple(c for c in state.decks.development if c not in cards)
    old = tuple(c for c in p.hand if c not in cards and c != "basic-combat")
    kept = tuple(c for c in p.hand if c == "basic-combat")
    decks = replace(state.decks, development=deck, development_discard=state.decks.development_discard + old)
    return set_player(replace(state, decks=decks), replace(p, hand=cards + kept))


def plays(state) -> set[A.Action]:
    return set(but_limbo(legal_actions(state)))


def test_upgrades_and_ploys_are_one_decision_in_any_order():
    state = asked(with_hand(*UPS, WAKING, "d1-shadow-step"), *DEVELOP)
    assert present(state.decision).kind == "develop" and isinstance(state.work, W.DevelopWork)
    assert plays(state) == {
        A.PlayUpgrade(card=UPS[0]),
        A.PlayUpgrade(card=UPS[1]),
        A.PlayPloy(card=WAKING),
        A.PlayPloy(card="d1-shadow-step"),
        A.Done(),
    }
    assert "in any order" in describe_decision(state)
    state = apply(state, A.PlayPloy(card=WAKING))  # a Ploy first: it draws 2, then the same decision
    assert present(state.decision).kind == "develop"
    assert {A.PlayUpgrade(card=UPS[0]), A.PlayUpgrade(card=UPS[1])} <= plays(state)  # Upgrades after a Ploy
    assert "2 Ploys left" in describe_decision(state)
    state = apply(state, A.PlayUpgrade(card=UPS[0]))
    assert present(state.decision).kind == "develop" and A.PlayPloy(card="d1-shadow-step") in plays(state)
    assert UPS[0] in pl(state).display[board.pack(state).matrix.rondel.index(cards.upgrade_action(state, UPS[0]))]
    assert violations(state) == []


def test_at_most_3_ploys_then_upgrades_still():
    ploys = (WAKING, "d1-shadow-step")
    state = asked(with_hand(*ploys, UPS[0]), *DEVELOP)
    work = state.work
    assert isinstance(work, W.DevelopWork)
    work = replace(work, ploys_played=3)  # three Ploys played already
    state = replace(
        state, work=work, decision=replace(present(state.decision), options=RULES[W.DevelopWork].options(state, work))
    )
    assert plays(state) == {A.PlayUpgrade(card=UPS[0]), A.Done()}
    with pytest.raises(IllegalAction, match=r"only 3 Ploys.*\[DEVELOP\]"):
        apply(state, A.PlayPloy(card=ploys[0]))


def test_done_ends_both():
    state = asked(with_hand(*UPS, WAKING), *DEVELOP)
    state = apply(state, A.Done())
    assert state.decision is None or state.decision.kind != "develop"
    assert set(pl(state).hand) >= {*UPS, WAKING}


def test_play_1_upgrade_alone_stays_an_upgrade_step():
    state = asked(with_hand(*UPS, WAKING), cs.PlayUpgrades(count=1))
    assert present(state.decision).kind == "play_upgrade" and A.PlayPloy(card=WAKING) not in plays(state)


def test_nothing_to_play_is_no_decision():
    state = asked(with_hand(), *DEVELOP)
    assert state.decision is None or state.decision.kind != "develop"
