"""The data of a game of Dreamers and Nightmares: configuration, state, actions, events."""

from __future__ import annotations

from typing import Literal

import msgspec

from nctui.platform.game import PlayerKind as SeatKind
from nctui.platform.rng import Rng

from .content import Face

Level = Literal["random", "gambler"]
Row = Literal["power", "hunt", "exhaust", "shadow"]
Phase = Literal[
    "track",
    "return",
    "roll",
    "shadow",
    "envy",
    "fear",
    "imprison",
    "ability",
    "tie",
    "rest",
    "nightmare",
    "minion_return",
    "minion_give",
    "over",
]


class DreamersConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """2-4 seats; ``temptation``: the Nightmare of Temptation replaces Envy or Primeval Fear."""

    seats: tuple[SeatKind, ...] = ("human", "bot")
    levels: tuple[Level, ...] = ("gambler", "gambler")
    temptation: Literal["none", "envy", "fear"] = "none"
    seed: int = 0


class Die(msgspec.Struct, frozen=True, array_like=True):
    colour: int
    face: Face
    sideways: bool = False  # Shadow of Imprisonment: an Exhaust dream turned on its side counts twice


class Card(msgspec.Struct, frozen=True):
    """A Dreamer card's rows (a Nightmare keeps only its Power row)."""

    power: tuple[Die, ...] = ()
    hunt: tuple[Die, ...] = ()
    exhaust: tuple[Die, ...] = ()
    shadows: tuple[tuple[Die, ...], ...] = ((), (), (), ())


class Seat(msgspec.Struct, frozen=True):
    role: Literal["dreamer", "nightmare", "out"] = "dreamer"
    nightmare: int = -1  # the colour of the Nightmare card it claimed
    card: Card = Card()


class DreamersState(msgspec.Struct, frozen=True, kw_only=True):
    config: DreamersConfig
    rng: Rng
    bag: tuple[int, int, int, int]  # dice of each colour in the bag
    on_cards: tuple[tuple[Die, ...], ...] = ((), (), (), ())  # Power spent on each unclaimed Nightmare card
    seats: tuple[Seat, ...]
    turn: int = 0
    actor: int = 0  # whose dreams are being resolved (a Minion's target, or the turn's Dreamer)
    phase: Phase = "track"
    track: int = -1
    step: int = 0
    drawn: tuple[int, ...] = ()  # colours drawn, before two go back
    unresolved: tuple[Die, ...] = ()
    exhausted: bool = False
    tempted: bool = False
    trigger: tuple[int, int] = (-1, -1)  # (the Nightmare's seat, its ability's Dreamer) for "ability"
    tie: tuple[int, ...] = ()  # colours tied for the Nightmare a Dreamer becomes
    pending_effect: int = -1  # a Shadow's colour whose effect waits for a Nightmare's ability
    minions: tuple[int, ...] = ()  # colours drawn by Send Minions
    final: tuple[int, ...] | None = None  # Dreamers still to take their final turn
    bag_ran_out: bool = False
    turns: int = 0
    winners: tuple[int, ...] = ()


# -- actions ----------------------------------------------------------------------------------------


class ChooseTrack(msgspec.Struct, frozen=True, tag="track"):
    track: int


class Return(msgspec.Struct, frozen=True, tag="return"):
    """One of the dreams drawn goes back to the bag (two do; a Minion: one)."""

    colour: int


class Reroll(msgspec.Struct, frozen=True, tag="reroll"):
    """Spend a Power of ``colour`` to reroll these unresolved dreams of that colour."""

    colour: int
    faces: tuple[Face, ...]


class Resolve(msgspec.Struct, frozen=True, tag="resolve"):
    """Resolve the rolled dreams: Power, Hunt, Exhaust, then the Shadows."""


class ShadowNext(msgspec.Struct, frozen=True, tag="shadow"):
    colour: int


class PickDie(msgspec.Struct, frozen=True, tag="pick"):
    """A dream on a card: ``row`` ("shadow": ``index`` counts along the colour's row ``colour``)."""

    row: str
    colour: int
    index: int


class Skip(msgspec.Struct, frozen=True, tag="skip"):
    """Decline what one may do (Primeval Fear's move, a Nightmare's ability)."""


class UseAbility(msgspec.Struct, frozen=True, tag="use"):
    pass


class BecomeNightmare(msgspec.Struct, frozen=True, tag="become"):
    colour: int


class Rest(msgspec.Struct, frozen=True, tag="rest"):
    """Rest, returning every dream on the card but Power to the bag."""


class DreamAgain(msgspec.Struct, frozen=True, tag="again"):
    pass


class Consume(msgspec.Struct, frozen=True, tag="consume"):
    seat: int
    face: Face


class SendMinions(msgspec.Struct, frozen=True, tag="minions"):
    pass


class Give(msgspec.Struct, frozen=True, tag="give"):
    seat: int


Action = (
    ChooseTrack
    | Return
    | Reroll
    | Resolve
    | ShadowNext
    | PickDie
    | Skip
    | UseAbility
    | BecomeNightmare
    | Rest
    | DreamAgain
    | Consume
    | SendMinions
    | Give
)


# -- events -----------------------------------------------------------------------------------------


class Drawn(msgspec.Struct, frozen=True, tag="drawn"):
    seat: int
    colours: tuple[int, ...]


class Rolled(msgspec.Struct, frozen=True, tag="rolled"):
    seat: int
    dice: tuple[Die, ...]


class Rerolled(msgspec.Struct, frozen=True, tag="rerolled"):
    """A Power spent (onto its Nightmare card, or to the bag) to reroll dreams of its colour."""

    seat: int
    spent: Die
    dice: tuple[Die, ...]


class Placed(msgspec.Struct, frozen=True, tag="placed"):
    seat: int
    die: Die
    row: Row


class Taken(msgspec.Struct, frozen=True, tag="taken"):
    """A Nightmare takes a dream of its colour a Dreamer resolved, as Power."""

    nightmare: int
    dreamer: int
    die: Die


class Effect(msgspec.Struct, frozen=True, tag="effect"):
    """A Shadow effect or a Nightmare ability, and what it did."""

    seat: int
    what: str  # "depths", "envy", "imprisonment", "fear", "drown", "covet", "shackle", "terror", "tempt"
    done: bool  # False: it had nothing to act on


class RowFilled(msgspec.Struct, frozen=True, tag="filled"):
    seat: int
    row: Literal["hunt", "exhaust", "shadow"]
    colour: int = -1  # exhausted: the colour drawn whose Power goes back; a Nightmare's colour


class Rested(msgspec.Struct, frozen=True, tag="rested"):
    seat: int
    returned: int


class TurnBegins(msgspec.Struct, frozen=True, tag="turn"):
    seat: int
    final: bool = False


class Consumed(msgspec.Struct, frozen=True, tag="consumed"):
    seat: int
    victim: int
    die: Die


class GameEnds(msgspec.Struct, frozen=True, tag="ends"):
    reason: Literal["power", "no_dreamers", "bag"]
    winners: tuple[int, ...]
    power: tuple[int, ...]


Event = Drawn | Rolled | Rerolled | Placed | Taken | Effect | RowFilled | Rested | TurnBegins | Consumed | GameEnds


class StepResult(msgspec.Struct, frozen=True):
    state: DreamersState
    events: tuple[Event, ...]
