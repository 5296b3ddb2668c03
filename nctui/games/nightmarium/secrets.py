"""Everything about Nightmarium's hidden information in one module: what a seat may see (its own
hand; the others' hand sizes; the deck's size, never its order nor the seed it was shuffled
from), how events and actions read to another seat, which steps cannot be taken back fairly, and
the resampling a computer player uses to imagine the cards it cannot see."""

from __future__ import annotations

import random

from msgspec.structs import replace

from nctui.platform.rng import Rng

from .cards import all_cards
from .state import (
    HIDDEN,
    Action,
    Discarded,
    Drew,
    Event,
    NightmariumState,
    Pick,
    Played,
    PureDiscard,
    Reshuffled,
    Revealed,
)


def view(state: NightmariumState, seat: int) -> NightmariumState:
    """The state as ``seat`` may see it (``seat`` -1: a spectator): hidden cards are ``HIDDEN``;
    the RNG and the seed are nobody's (with the seed and the public list of decisions, anyone
    could replay the shuffle and know every card)."""
    players = tuple(p if i == seat else replace(p, hand=(HIDDEN,) * len(p.hand)) for i, p in enumerate(state.players))
    exchange = state.exchange
    if exchange is not None and seat != state.turn:
        exchange = (HIDDEN,) * len(exchange)
    pure = state.pure
    if pure is not None and pure.picked and seat != pure.seats[0]:
        pure = PureDiscard(pure.legion, pure.seats, (HIDDEN,) * len(pure.picked))
    return replace(
        state,
        config=replace(state.config, seed=0),
        players=players,
        deck=(HIDDEN,) * len(state.deck),
        rng=Rng(),
        exchange=exchange,
        pure=pure,
    )


def view_all(state: NightmariumState, seat: int) -> NightmariumState:
    """Once the game is over nothing is secret: every hand, the deck in its order, the RNG and the
    seed (a replay of the finished game)."""
    return state


def redact_event(event: Event, seat: int) -> Event:
    if isinstance(event, Drew) and event.seat != seat:
        return Drew(event.seat, (), event.count)
    return event


def is_secret(action: Action) -> bool:
    return isinstance(action, Pick)


def redact_action(action: Action, seat: int, decider: int) -> Action:
    return Pick(HIDDEN) if isinstance(action, Pick) and seat != decider else action


def reveals(events: tuple[Event, ...]) -> str:
    """Why a step cannot be taken back fairly (a card came from the deck, or a card of a hand was
    shown to every seat: placed or discarded face up), or ''."""
    for event in events:
        if isinstance(event, Drew) and event.count:
            return "a card was drawn from the deck"
        if isinstance(event, Revealed | Reshuffled):
            return "cards were revealed or shuffled"
        if (isinstance(event, Played) and event.by != "herald") or (isinstance(event, Discarded) and event.cards):
            return "a card of a hand was shown to every seat"
    return ""


def resample(view_: NightmariumState, seat: int, rng: random.Random) -> NightmariumState:
    """A full state consistent with what ``seat`` sees: the unseen cards dealt at random to the
    deck and the other hands (a computer player's guess, never the truth)."""
    seen: list[str] = list(view_.discard) + list(view_.revealed) + list(view_.players[seat].hand)
    for p in view_.players:
        for c in p.creatures:
            seen += list(c.cards)
    unseen = sorted(set(all_cards()) - set(seen))  # sorted: a set of strings has no fixed order
    rng.shuffle(unseen)
    players = []
    for i, p in enumerate(view_.players):
        if i == seat:
            players.append(p)
            continue
        hand, unseen = tuple(unseen[: len(p.hand)]), unseen[len(p.hand) :]
        players.append(replace(p, hand=hand))
    exchange = view_.exchange
    if exchange is not None and view_.turn != seat:
        exchange = players[view_.turn].hand[: len(exchange)]
    pure = view_.pure
    if pure is not None and pure.picked and pure.seats[0] != seat:
        pure = PureDiscard(pure.legion, pure.seats, ())
    return replace(
        view_,
        players=tuple(players),
        deck=tuple(unseen),
        rng=Rng(state=rng.getrandbits(64)),
        exchange=exchange,
        pure=pure,
    )
