"""Strict undo and the cards a seat shows (issue 38 item 8, issue 41 item 4), and each side's
Unit Limit after a Fortify card is covered (issue 38 item 8).

The strict policy's own words: "a slip of the finger may be taken back, but never a look at a
card or a roll of the dice". A card of a face-down hand put face up (discarded to the hand limit
or for the King's Shield, played as an Upgrade, a Ploy, a Dream, or as a combat card once the
cards are revealed) has been looked at by every other seat: the step reports a reveal and its
seat cannot take it back. A card already face up (the King's tuck you choose) reveals nothing.
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.engine import board, events as E, units
from nctui.games.nightmare_cathedral.engine.actions import PlayUpgrade
from nctui.games.nightmare_cathedral.engine.flow import StepResult, apply
from nctui.games.nightmare_cathedral.engine.invariants import violations
from nctui.games.nightmare_cathedral.engine.ops import set_player
from nctui.games.nightmare_cathedral.game import NightmareCathedral
from nctui.games.nightmarium import secrets as nightmarium_secrets
from nctui.games.nightmarium.state import Discarded, Played
from nctui.platform.store import Store, StrictPolicy
from tests import helpers as H
from tests.helpers import config, new_game

GAME = NightmareCathedral()
SHOWN = [
    E.DevelopmentDiscarded(seat=0, card="d1-wax-stair"),
    E.UpgradePlayed(seat=0, card="d1-wax-stair", action="ritual"),
    E.PloyPlayed(seat=0, card="d1-sudden-waking"),
    E.DreamPlayed(seat=0, card="dr1-walker-among-shadows", vp=4),
    E.KingShieldDiscard(seat=0, card="d1-wax-stair"),
    E.CombatCardPlayed(seat=0, area="salt-spire", card="d1-wax-stair", face_up=True),
]


@pytest.mark.parametrize("event", SHOWN, ids=lambda e: e.kind)
def test_a_card_shown_from_a_hand_is_a_reveal_strict_undo_keeps(event):
    assert event.reveals() == "all" and GAME.reveals((event,))


def test_what_was_already_face_up_or_face_down_reveals_nothing():
    assert not GAME.reveals((E.CombatCardPlayed(seat=0, area="salt-spire", card="d1-wax-stair"),))
    assert not GAME.reveals((E.KingTucks(seat=1, card="d1-wax-stair", action="ritual", why="choice"),))
    assert GAME.reveals((E.KingTucks(seat=1, card="d1-wax-stair", action="ritual", why="develop"),))


def _upgrade_position(upgrade: str):
    """The active player may play Upgrades, holding ``upgrade``."""
    state = H.through_setup(new_game(config(2, 1)).state)
    seat = state.active
    pl = state.players[seat]
    state = set_player(state, replace(pl, hand=(*pl.hand, upgrade)))
    decks = state.decks
    state = replace(state, decks=replace(decks, development=tuple(c for c in decks.development if c != upgrade)))
    others = tuple(replace(p, hand=tuple(c for c in p.hand if c != upgrade)) for p in state.players)
    state = replace(state, players=tuple(p if p.seat == seat else others[p.seat] for p in state.players))
    return H.resolve(
        H.push_effect(replace(state, work=None, frames=()), seat, (cs.PlayUpgrades(count=1),), "day")
    ), seat


def test_an_upgrade_played_cannot_be_taken_back_under_strict_undo():
    state, seat = _upgrade_position("d1-wax-stair")
    store = Store(game=GAME, initial=StepResult(state=state, events=()), policy=StrictPolicy())
    store.dispatch(PlayUpgrade(card="d1-wax-stair"), seat=seat)
    assert not store.can_undo(seat)


def test_nightmarium_a_card_placed_or_discarded_from_a_hand_is_a_reveal():
    assert nightmarium_secrets.reveals((Played(0, "x", "legs", 0, "action"),))
    assert nightmarium_secrets.reveals((Discarded(0, ("x",), "exchange"),))
    assert not nightmarium_secrets.reveals((Played(0, "x", "legs", 0, "herald"),))  # already revealed


def test_covering_the_fortify_card_with_a_lower_unit_limit_sends_the_extra_followers_back():
    """UNIT LIMIT: "at any time, a player may have 4 or 5 of their Followers in a single area
    (and still up to 3 in any others)"; "The effects of any covered card permanently change". A
    4th Follower allowed by Watchful Battlements goes back to the supply when Mortar of Bone (Unit
    Limit 3) covers it; the invariant checks every side's limit."""
    state, seat = _upgrade_position("d1-bone-mortar")
    pl = state.players[seat]
    display = tuple(
        (*stack, "d1-watchful-battlements") if i == board.pack(state).matrix.rondel.index("fortify") else stack
        for i, stack in enumerate(pl.display)
    )
    state = set_player(state, replace(pl, display=display))
    decks = state.decks  # the Upgrade came from the deck (or another hand)
    others = tuple(replace(p, hand=tuple(c for c in p.hand if c != "d1-watchful-battlements")) for p in state.players)
    state = replace(
        state,
        players=tuple(p if p.seat == seat else others[p.seat] for p in state.players),
        decks=replace(decks, development=tuple(c for c in decks.development if c != "d1-watchful-battlements")),
    )
    area = next(a.id for a in state.areas if a.followers[seat] > 0)
    a = board.area(state, area)
    extra = 4 - a.followers[seat]
    state = units.place(state, seat, area, extra)
    assert units.follower_limits(state, seat) == (3, 4) and violations(state) == []
    supply = state.players[seat].supply
    after = apply(state, PlayUpgrade(card="d1-bone-mortar"))
    assert board.area(after, area).followers[seat] == 3 and after.players[seat].supply == supply + 1
    assert violations(after) == []
    over = replace(
        state,
        areas=board.replace_area(
            state, replace(a, followers=tuple(5 if i == seat else n for i, n in enumerate(a.followers)))
        ),
    )
    assert any("over its Unit Limit" in v for v in violations(over))
