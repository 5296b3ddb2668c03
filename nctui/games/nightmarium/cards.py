"""The 108 Night Terror cards as data (``cards.toml``, written by tools/gen_nightmarium.py):
each card's legion, the body parts it may become, and its ability (or none)."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files
from typing import Literal

import msgspec

Legion = Literal["necronauts", "insektoids", "chimeridae", "homunculi"]
Part = Literal["legs", "torso", "head"]
Ability = Literal["herald", "weeper", "mocker", "executioner", "scavenger", "devourer", "none"]
LEGIONS: tuple[Legion, ...] = ("necronauts", "insektoids", "chimeridae", "homunculi")
PARTS: tuple[Part, ...] = ("legs", "torso", "head")  # bottom up: the order a Creature is built


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    legion: Legion
    parts: tuple[Part, ...]
    ability: Ability


class Deck(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    card: tuple[Card, ...]


class CardError(ValueError):
    """The card data is wrong (one line)."""


def load(text: str | None = None) -> dict[str, Card]:
    """The cards by id, checked: 108 of them, ids and names unique, 27 per legion, each with at
    least one part and no part twice."""
    raw = files(__package__).joinpath("cards.toml").read_text(encoding="utf-8") if text is None else text
    try:
        deck = msgspec.convert(tomllib.loads(raw), Deck)
    except (tomllib.TOMLDecodeError, msgspec.ValidationError) as exc:
        raise CardError(f"cards.toml: {exc}") from None
    cards = {c.id: c for c in deck.card}
    if len(cards) != len(deck.card) or len({c.name for c in deck.card}) != len(deck.card):
        raise CardError("cards.toml: card ids and names must be unique")
    if len(cards) != 108:
        raise CardError(f"cards.toml: the deck has 108 Night Terrors, not {len(cards)}")
    for legion in LEGIONS:
        if sum(c.legion == legion for c in deck.card) != 27:
            raise CardError(f"cards.toml: each legion has 27 cards ({legion} does not)")
    for c in deck.card:
        if not c.parts or len(set(c.parts)) != len(c.parts):
            raise CardError(f"cards.toml: {c.id} needs one or more different parts")
    return cards


@cache
def all_cards() -> dict[str, Card]:
    return load()


def card(card_id: str) -> Card:
    return all_cards()[card_id]
