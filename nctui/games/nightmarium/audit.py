"""What each seat of Nightmarium may know, worked out from the rulebook (seed 003, "How to
Play") independently of ``secrets``: the account tests/test_contract.py holds the views, the
redacted events and the timeline to. A token is a card id.

Face up, for everyone: the discard pile, the cards the Herald revealed, every card of every
Creature. A seat's own hand is its own. The deck and the other hands are hidden: their cards,
and so the cards picked from them for an exchange or a pure-legion discard.
"""

from __future__ import annotations

from collections.abc import Mapping

from .cards import all_cards
from .state import Discarded, Event, NightmariumState

HIDDEN_INFORMATION = True


def words(state: NightmariumState) -> Mapping[str, str]:
    """Each token as the game's words name it (a card id -> the card's name)."""
    return {c.id: c.name for c in all_cards().values()}


def _public(state: NightmariumState) -> set[str]:
    out = set(state.discard) | set(state.revealed)
    out.update(c for p in state.players for creature in p.creatures for c in creature.cards)
    return out


def secret_tokens(state: NightmariumState) -> frozenset[str]:
    """Every card in a hidden place: the deck and the hands."""
    return frozenset(all_cards()) - _public(state)


def known(state: NightmariumState, seat: int) -> frozenset[str]:
    """The cards ``seat`` may know the place of (``SPECTATOR``: the face-up ones only)."""
    out = _public(state)
    if 0 <= seat < len(state.players):
        out.update(state.players[seat].hand)
    return frozenset(out)


def shown(event: Event, seat: int) -> frozenset[str]:
    """The cards an event shows ``seat`` on purpose: cards discarded are face up on the discard
    pile, even when drawing in the same step shuffles that pile into a new deck ("How to Play",
    action B)."""
    return frozenset(event.cards) if isinstance(event, Discarded) else frozenset()
