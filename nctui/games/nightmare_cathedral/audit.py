"""What each seat of Nightmare Cathedral may know, worked out independently of ``engine.views``:
the account the secrecy tests (tests/test_secrecy.py, tests/test_contract.py) hold the views,
the redacted events and the timeline to. A token is a card id.

A seat may know the place of the cards in public places (discard piles, the Dream offer, removed
cards, displays, played Dreams, the King's Dreams and tucked cards, revealed conflict cards,
effects in progress) and in its own places (hand, Dreams, cards it drew to keep, cards it played
face down). Every other card is in a hidden place. Nothing here reads the views: it is written
from the rulebook's list of what is face up (CORE: COMPONENTS, CONFLICTS 2; SOLO: the King's
cards are face down).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from .content.loader import get_pack
from .engine.events import Event
from .engine.state import BASIC_COMBAT, GameState
from .engine.work import CardToBottom, KeepWork, KingDreamWork, KingTuckWork, fight_of

HIDDEN_INFORMATION = True
SPECTATOR = -1
_NOBODY = -99  # no place of the state belongs to it (-1 and -2 name sides in a fight)


@cache
def card_names(pack: str) -> dict[str, str]:
    """Every card of a pack: id -> name."""
    c = get_pack(pack).cards
    out = {x.id: x.name for group in (c.development, c.dreams, c.conflicts, c.king_combat) for x in group}
    out[c.basic_combat.id] = c.basic_combat.name
    return out


def words(state: GameState) -> Mapping[str, str]:
    """Each token as the game's words name it (a card id -> the card's name)."""
    return card_names(state.pack)


def secret_tokens(state: GameState) -> frozenset[str]:
    """Every card in a hidden place (some seat may not know where it is)."""
    return frozenset(card_names(state.pack)) - known(state, SPECTATOR)


def known(state: GameState, seat: int) -> frozenset[str]:
    """The cards ``seat`` may know the place of (``SPECTATOR``: public places only)."""
    seat = _NOBODY if seat < 0 else seat
    d = state.decks
    out = set(d.development_discard) | set(d.dream_offer) | set(d.removed) | {BASIC_COMBAT}
    for pl in state.players:
        out.update(c for stack in pl.display for c in stack)
        out.update(pl.dreams_played)
        if pl.seat == seat:
            out.update(pl.hand + pl.dreams + pl.free_dreams)
    k = state.king
    if k is not None:
        out.update(k.dreams + k.completed)
        if k.seat == seat:  # nobody plays the King's seat, but its view knows its own face-down hand
            out.update(k.hand)
        out.update(c for stack in k.tucked for c in stack)
    out.update(f.card for f in state.frames if f.card)  # a card's effect (a frame may be a piece's)
    for fr in state.frames:  # revealed conflict cards waiting for step 12 after a Victory or Defeat effect
        if isinstance(fr.then, CardToBottom):
            out.update(fr.then.played())
    w = state.work
    if isinstance(w, KeepWork) and w.seat == seat:
        out.update(w.drawn)
    if isinstance(w, KingTuckWork):
        out.add(w.card)
    if isinstance(w, KingDreamWork):
        out.update(w.options)
    f = fight_of(w)
    if f is not None:
        if f.shadow_card:
            out.add(f.shadow_card)
        for side, cards in zip(f.sides, f.plays):
            if f.revealed or side == seat:
                out.update(cards)
    return frozenset(out.intersection(card_names(state.pack)))


def _strings(value: object) -> set[str]:
    """Every string of an event's fields."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, tuple | list | frozenset):
        return {s for v in value for s in _strings(v)}
    if hasattr(value, "__struct_fields__"):
        return {s for name in value.__struct_fields__ for s in _strings(getattr(value, name))}
    return set()


def shown(event: Event, seat: int) -> frozenset[str]:
    """The cards an event shows ``seat`` on purpose: it declares a reveal to everyone, or to its
    own seat; a Development card discarded is face up on the discard pile, even if a reshuffle in
    the same step takes it back into the deck before the step ends."""
    reveal = event.reveals()
    if reveal == "all" or (reveal == "owner" and event.seat == seat) or event.kind == "discard_development":
        return frozenset(_strings(event))
    return frozenset()
