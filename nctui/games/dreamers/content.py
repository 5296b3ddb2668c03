"""The dice game's content as data (``content.toml``): colours and their faces, Sleep Tracks,
Nightmare cards and the rules' numbers, typed and checked."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files
from typing import Literal

import msgspec

Face = Literal["power", "double", "hunt", "exhaust", "shadow"]
AbilityId = Literal["drown", "covet", "shackle", "terror", "tempt"]


class Colour(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    faces: tuple[Face, ...]


class Track(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    draws: tuple[int, ...]


class NightmareCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    colour: str  # a colour id, or "choice" (Temptation takes the colour it replaces)
    takes: Face
    ability: AbilityId


class Content(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    dice_per_colour: int
    power_to_end: int
    hunt_limit: int
    exhaust_limit: int
    shadow_limit: int
    shadow_limit_two_players: int
    returned: int
    dream_again: int
    colour: tuple[Colour, ...]
    track: tuple[Track, ...]
    nightmare: tuple[NightmareCard, ...]


class ContentError(ValueError):
    """The content is wrong (one line)."""


def load(text: str | None = None) -> Content:
    raw = files(__package__).joinpath("content.toml").read_text(encoding="utf-8") if text is None else text
    try:
        content = msgspec.convert(tomllib.loads(raw), Content)
    except (tomllib.TOMLDecodeError, msgspec.ValidationError) as exc:
        raise ContentError(f"content.toml: {exc}") from None
    if len(content.colour) != 4 or content.dice_per_colour * 4 != 80:
        raise ContentError("content.toml: 80 dice in 4 colours")
    if any(len(c.faces) != 6 for c in content.colour):
        raise ContentError("content.toml: a die has six faces")
    for t in content.track:
        if len(t.draws) != content.dream_again + 1 or any(d <= content.returned for d in t.draws):
            raise ContentError(
                f"content.toml: track {t.id} needs {content.dream_again + 1} steps, each "
                f"drawing more than the {content.returned} returned"
            )
    ids = {c.id for c in content.colour}
    for n in content.nightmare:
        if n.colour not in ids | {"choice"}:
            raise ContentError(f"content.toml: nightmare {n.id} has no colour {n.colour}")
    return content


@cache
def content() -> Content:
    return load()


def colour_index(colour_id: str) -> int:
    return next(i for i, c in enumerate(content().colour) if c.id == colour_id)
