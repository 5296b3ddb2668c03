"""The data of a Nightmarium game: configuration, state, actions and events (frozen Structs)."""

from __future__ import annotations

from typing import Literal

import msgspec

from nctui.platform.game import PlayerKind as SeatKind
from nctui.platform.rng import Rng

from .cards import Ability, Legion, Part

HIDDEN = "?"  # a card a seat may not see, in its view
Level = Literal["random", "greedy", "planner"]


class NightmariumConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """2-5 seats, each a person or a computer player (``levels``: each computer seat's player);
    ``creatures``: how many complete Creatures win (five, or six or seven by agreement)."""

    seats: tuple[SeatKind, ...] = ("human", "bot")
    levels: tuple[Level, ...] = ("planner", "planner")
    creatures: int = 5
    seed: int = 0


class Creature(msgspec.Struct, frozen=True):
    """Cards bottom up: legs, then torso, then head. ``id`` stays while the Creature exists."""

    id: int
    cards: tuple[str, ...]


class Player(msgspec.Struct, frozen=True):
    hand: tuple[str, ...] = ()
    creatures: tuple[Creature, ...] = ()
    next_id: int = 0


class Activation(msgspec.Struct, frozen=True):
    """A completed Creature's abilities still to perform, next first (head to legs)."""

    creature: int  # its id
    abilities: tuple[Ability, ...]


class PureDiscard(msgspec.Struct, frozen=True):
    """Opponents still to discard for a pure-legion Creature, in turn order; ``picked``: what the
    first has chosen so far when they must discard two."""

    legion: Legion
    seats: tuple[int, ...]
    picked: tuple[str, ...] = ()


class NightmariumState(msgspec.Struct, frozen=True, kw_only=True):
    config: NightmariumConfig
    rng: Rng
    deck: tuple[str, ...]  # the top card first
    discard: tuple[str, ...] = ()  # the top card last
    players: tuple[Player, ...]
    turn: int = 0  # the seat whose turn it is
    actions_left: int = 2
    played: tuple[Legion, ...] = ()  # legions of the cards played by this turn's actions
    exchange: tuple[str, ...] | None = None  # cards picked for action B, once it has begun
    revealed: tuple[str, ...] = ()  # the Herald's cards still to place
    activation: Activation | None = None
    pure: PureDiscard | None = None
    turns: int = 0
    winner: int | None = None


# -- actions ----------------------------------------------------------------------------------------


class Draw(msgspec.Struct, frozen=True, tag="draw"):
    """Action A: draw a card."""


class Exchange(msgspec.Struct, frozen=True, tag="exchange"):
    """Action B begins: choose the cards to discard, one at a time."""


class Pick(msgspec.Struct, frozen=True, tag="pick"):
    """Action B: one more card to discard (or, for a pure-legion Creature, the card to discard)."""

    card: str


class Done(msgspec.Struct, frozen=True, tag="done"):
    """Action B: discard the cards picked and draw half as many (rounded down)."""


class Play(msgspec.Struct, frozen=True, tag="play"):
    """Action C, Mocker, or Herald: ``card`` as ``part`` of Creature ``creature`` (an id; a new
    Creature for legs when it is the player's ``next_id``)."""

    card: str
    part: Part
    creature: int


class Target(msgspec.Struct, frozen=True, tag="target"):
    """Executioner, Scavenger or Devourer: Creature ``creature`` of ``seat``."""

    seat: int
    creature: int


Action = Draw | Exchange | Pick | Done | Play | Target


# -- events -----------------------------------------------------------------------------------------


class Drew(msgspec.Struct, frozen=True, tag="drew"):
    seat: int
    cards: tuple[str, ...]  # empty for a reader who may not see them
    count: int


class Discarded(msgspec.Struct, frozen=True, tag="discarded"):
    seat: int
    cards: tuple[str, ...]
    why: Literal["exchange", "pure", "herald", "scavenger", "devourer"]


class Reshuffled(msgspec.Struct, frozen=True, tag="reshuffled"):
    cards: int


class Played(msgspec.Struct, frozen=True, tag="played"):
    seat: int
    card: str
    part: Part
    creature: int
    by: Literal["action", "mocker", "herald"]


class Completed(msgspec.Struct, frozen=True, tag="completed"):
    seat: int
    creature: int
    pure: Legion | None
    abilities: tuple[Ability, ...]


class Revealed(msgspec.Struct, frozen=True, tag="revealed"):
    seat: int
    cards: tuple[str, ...]


class Ability_(msgspec.Struct, frozen=True, tag="ability"):
    """An ability performed (``target`` seat and Creature where it has one)."""

    seat: int
    ability: Ability
    target_seat: int = -1
    target_creature: int = -1
    card: str = ""  # the card taken, discarded or (Executioner) moved to the hand


class NoTarget(msgspec.Struct, frozen=True, tag="no_target"):
    """An ability without a target: the activation ends (its later abilities are lost)."""

    seat: int
    ability: Ability
    lost: tuple[Ability, ...]


class Switched(msgspec.Struct, frozen=True, tag="switched"):
    """Another Creature was completed during Herald or Mocker: the first one's abilities stop."""

    seat: int
    lost: tuple[Ability, ...]


class TurnBegins(msgspec.Struct, frozen=True, tag="turn"):
    seat: int


class Won(msgspec.Struct, frozen=True, tag="won"):
    seat: int
    creatures: int


Event = (
    Drew | Discarded | Reshuffled | Played | Completed | Revealed | Ability_ | NoTarget | Switched | TurnBegins | Won
)


class StepResult(msgspec.Struct, frozen=True):
    state: NightmariumState
    events: tuple[Event, ...]
