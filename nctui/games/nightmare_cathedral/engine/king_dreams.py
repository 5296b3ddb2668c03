"""The King of Horrors' Dreams (solo rulebook: COMPLETING THE KING'S DREAMS, REFILL DREAMS).

Cultists go onto its Dreams; a Dream with as many Cultists as its VP is completed, and in the
Variable Length Game it builds a Cathedral piece per Cathedral icon (``cathedral.king_builds``).
When the King refills, ties are yours to break (``KingDreamWork``).
"""

from __future__ import annotations

from typing import Literal

from msgspec.structs import replace

from . import cards, cathedral, events as E
from .actions import TakeDream
from .errors import IllegalAction
from .events import Event
from .king import bump, king, modifier, set_king
from .king_state import KingState
from .rules import Refusal, Rule, legal
from .state import GameState
from .work import KingDreamWork

Events = list[Event]


def _missing(state: GameState, k: KingState, i: int) -> int:
    return cards.dream(state, k.dreams[i]).vp - k.dream_cultists[i]


DreamWhy = Literal["power", "conform", "marked", "conflict"]


def place_on_dream(state: GameState, ev: Events, why: DreamWhy) -> GameState:
    """COMPLETING THE KING'S DREAMS: on the Dream missing more Cultists (tie: the lower one, in
    play longer); with no Dream in play the Cultist goes back to the supply."""
    k = king(state)
    if not k.dreams:
        ev.append(E.KingCultistReturned(seat=k.seat))
        return state
    i = max(range(len(k.dreams)), key=lambda j: (_missing(state, k, j), -j))
    return add_cultist(state, i, ev, why=why)


def add_cultist(state: GameState, i: int, ev: Events, *, why: DreamWhy | Literal["ritual"]) -> GameState:
    """A Cultist onto the King's Dream ``i``, completing it when it has as many as its VP."""
    k = king(state)
    k = replace(k, dream_cultists=bump(k.dream_cultists, i, 1))
    card = k.dreams[i]
    ev.append(
        E.KingCultistOnDream(
            seat=k.seat, card=card, cultists=k.dream_cultists[i], vp=cards.dream(state, card).vp, why=why
        )
    )
    state = set_king(state, k)
    return complete_dream(state, i, ev) if _missing(state, k, i) <= 0 else state


def complete_dream(state: GameState, i: int, ev: Events) -> GameState:
    """Steps 1-3: Cultists back to the supply, the card to the completed pile, and in the Variable
    Length Game a Cathedral piece per Cathedral icon of the card (ours show one at most)."""
    k = king(state)
    card = k.dreams[i]
    k = replace(
        k,
        dreams=k.dreams[:i] + k.dreams[i + 1 :],
        dream_cultists=k.dream_cultists[:i] + k.dream_cultists[i + 1 :],
        completed=k.completed + (card,),
    )
    ev.append(E.KingDreamCompleted(seat=k.seat, card=card, vp=cards.dream(state, card).vp))
    state = set_king(state, k)
    if state.config.length != "variable" or not cards.dream(state, card).cathedral:
        return state
    return cathedral.king_builds(state, card, ev)


# ---------------------------------------------------------------------------------------------
# REFILL DREAMS


def refill_candidates(state: GameState) -> tuple[str, ...]:
    """REFILL DREAMS 1-2: the offered Dreams of the suit the King has completed most of, then
    the lowest VP; several left: the human chooses."""
    offer = state.decks.dream_offer
    if not offer:
        return ()
    done = [cards.dream(state, c).suit for c in king(state).completed]

    def key(c: str) -> tuple[int, int]:
        return (-done.count(cards.dream(state, c).suit), cards.dream(state, c).vp)

    best = min(key(c) for c in offer)
    return tuple(dict.fromkeys(c for c in offer if key(c) == best))


def refill_dreams(state: GameState, ev: Events) -> GameState:
    """REFILL DREAMS: with 0 or 1 incomplete Dreams, take Dreams from the display until 2; each
    new card goes on top; the display is refilled after each."""
    while len(king(state).dreams) < 2:
        options = refill_candidates(state)
        if not options:
            return state
        if len(options) > 1:
            return replace(state, work=KingDreamWork(seat=1 - king(state).seat, options=options))
        state = _take_for_king(state, options[0], ev)
    return state


def dream_discount(state: GameState, card: str, ev: Events) -> int:
    """Harder (DIFFICULTY MODIFIERS): "auto-adds a Cultist to each new Dream worth 3+VP whenever it
    takes a new one", its two setup Dreams included: the Cultists the new Dream starts with."""
    discount = int(modifier(state, "harder_dream_discount") and cards.dream(state, card).vp >= 3)
    if discount:
        ev.append(
            E.KingCultistOnDream(
                seat=king(state).seat, card=card, cultists=1, vp=cards.dream(state, card).vp, why="discount"
            )
        )
    return discount


def _take_for_king(state: GameState, card: str, ev: Events) -> GameState:
    k = king(state)
    decks = state.decks
    offer = tuple(c for c in decks.dream_offer if c != card) + decks.dream[:1]
    state = replace(state, decks=replace(decks, dream_offer=offer, dream=decks.dream[1:]))
    ev.append(E.KingTakesDream(seat=k.seat, card=card))
    if decks.dream:  # the display is refilled from the deck at once
        ev.append(E.DreamOfferRefilled(card=decks.dream[0]))
    discount = dream_discount(state, card, ev)
    return set_king(state, replace(k, dreams=k.dreams + (card,), dream_cultists=k.dream_cultists + (discount,)))


def _options(state: GameState, w: KingDreamWork) -> tuple[TakeDream, ...]:
    return legal(state, w, (TakeDream(card=c) for c in w.options), _refusal)


def _refusal(state: GameState, w: KingDreamWork, action: TakeDream) -> Refusal:
    if action.card in w.options:
        return None
    return IllegalAction(
        f"{action.card or 'the deck'} is not one of the Dreams tied for the King: the suit it has "
        "completed most of, then the fewest VP",
        rule="the King's Dream refill",
        section="SOLO REFILL DREAMS",
    )


def _apply(state: GameState, w: KingDreamWork, action: TakeDream, ev: Events) -> GameState:
    return refill_dreams(_take_for_king(replace(state, work=None), action.card, ev), ev)


KING_DREAM = Rule(KingDreamWork, (TakeDream,), _options, _refusal, _apply)
