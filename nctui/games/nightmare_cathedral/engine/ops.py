"""Small state operations shared by the rules modules."""

from __future__ import annotations

from msgspec.structs import replace

from nctui.platform import rng

from . import events as E
from .events import Event
from .state import GameState, PlayerState


def set_player(state: GameState, pl: PlayerState) -> GameState:
    return replace(state, players=state.players[: pl.seat] + (pl,) + state.players[pl.seat + 1 :])


def draw_development(state: GameState, seat: int, count: int, ev: list[Event]) -> GameState:
    """Draw from the Development deck. When it runs out, the discard pile is shuffled into a new
    deck (docs/rules-decisions.md); with both empty, fewer cards are drawn."""
    decks = state.decks
    deck, discard, r = decks.development, decks.development_discard, state.rng
    drawn: list[str] = []
    for _ in range(count):
        if not deck and discard:
            deck, r = rng.shuffle(r, discard)
            discard = ()
            ev.append(E.DevelopmentReshuffled(count=len(deck)))
        if not deck:
            break
        drawn.append(deck[0])
        deck = deck[1:]
    pl = state.players[seat]
    state = replace(state, rng=r, decks=replace(decks, development=deck, development_discard=discard))
    ev.append(E.DrewDevelopment(seat=seat, cards=tuple(drawn), count=len(drawn)))
    return set_player(state, replace(pl, hand=pl.hand + tuple(drawn)))


def remove_one(items: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = items.index(card)
    return items[:i] + items[i + 1 :]


def drop_dream(pl: PlayerState, card: str) -> PlayerState:
    """A Dream card leaves the hand (played or discarded); it no longer counts, nor is exempt."""
    free = remove_one(pl.free_dreams, card) if card in pl.free_dreams else pl.free_dreams
    return replace(pl, dreams=remove_one(pl.dreams, card), free_dreams=free)


def counted_dreams(pl: PlayerState) -> int:
    """Dreams in hand that count against the limit of 2."""
    return len(pl.dreams) - len(pl.free_dreams)
