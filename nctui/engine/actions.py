"""Actions: a small msgspec tagged union (tag field ``a``), serialisable in saves and over the
network. Each names what a seat decided; ``apply`` checks it against the due decision."""

from __future__ import annotations

from typing import Literal, Union

import msgspec


class _A(msgspec.Struct, frozen=True, kw_only=True, tag_field="a", forbid_unknown_fields=True):
    pass


class ChooseTurnStart(_A, tag="turn_start"):
    """SETUP 7: the Turn track position that gets the Starting marker."""

    position: int


class Conquer(_A, tag="conquer"):
    """SETUP 17: conquer an area."""

    area: str


class PlaceDreamer(_A, tag="place_dreamer"):
    """SETUP 19: put your Dreamer on a Night space."""

    night: str


class ChooseDay(_A, tag="choose_day"):
    """TURN STRUCTURE 1-2: move your Dreamer to a Day space; perform it, or ignore it and draw 2."""

    action: Literal["ritual", "summon", "fortify", "maneuver", "develop"]
    ignore: bool = False


class DiscardDream(_A, tag="discard_dream"):
    """TURN STRUCTURE 3: put a Dream card from your hand at the bottom of the Dream deck."""

    card: str


class KeepDreams(_A, tag="keep_dreams"):
    """TURN STRUCTURE 3: discard no more Dream cards."""


class TakeDream(_A, tag="take_dream"):
    """TURN STRUCTURE 4: take a Dream card from the offer, or the top of the deck (card "")."""

    card: str = ""


class DiscardDevelopment(_A, tag="discard_development"):
    """TURN STRUCTURE 5: discard a Development card in excess of 8."""

    card: str


class React(_A, tag="react"):
    """REACTION: Conform, Dissent or Pass."""

    kind: Literal["conform", "dissent", "pass"]


Action = Union[
    ChooseTurnStart,
    Conquer,
    PlaceDreamer,
    ChooseDay,
    DiscardDream,
    KeepDreams,
    TakeDream,
    DiscardDevelopment,
    React,
]

ACTION_TYPES: tuple[type, ...] = Action.__args__  # type: ignore[attr-defined]

_decoder = msgspec.json.Decoder(Action)


def decode_action(data: bytes | str) -> Action:
    """An action from JSON; malformed input raises InvalidAction."""
    from .errors import InvalidAction

    try:
        return _decoder.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise InvalidAction(f"not a valid action: {exc}") from exc


def encode_action(action: Action) -> bytes:
    return msgspec.json.encode(action)
