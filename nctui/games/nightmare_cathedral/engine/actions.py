"""Actions: a small msgspec tagged union (tag field ``a``), serialisable in saves and over the
network. Each names what a seat decided; ``apply`` checks it against the due decision."""

from __future__ import annotations

from functools import cache
from typing import Literal, TypeGuard, get_args

import msgspec

from ..content.schema import ActionId
from .errors import InvalidAction


class _A(msgspec.Struct, frozen=True, kw_only=True, tag_field="a", forbid_unknown_fields=True, gc=False):
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

    action: ActionId
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


class Done(_A, tag="done"):
    """Stop: end an optional step early, finish playing cards, close a Dream window."""


# ---- effects (RESOLVING ACTIONS AND REACTIONS and the steps of effects)


class ProduceIn(_A, tag="produce_in"):
    """PRODUCE: the area that produces the next unit(s)."""

    area: str


class MoveFollower(_A, tag="move_follower"):
    """MP: move one of your Followers to an adjacent area."""

    source: str
    to: str


class MoveShaper(_A, tag="move_shaper"):
    """MP / Shaper moves: move your Shaper."""

    to: str


class ConvertUnit(_A, tag="convert_unit"):
    """CONVERSIONS: supplant a unit of ``side`` (a seat, or -2 for the Shadows) in ``area``."""

    area: str
    side: int


class BuildFortLevel(_A, tag="build_fort_level"):
    """Add a Fort level in ``area``."""

    area: str


class PayFollower(_A, tag="pay_follower"):
    """Remove one of your Followers from ``area`` to pay a cost."""

    area: str


class PayLimbo(_A, tag="pay_limbo"):
    """LIMBO: spend 3 Followers from your Limbo to pay for one Ritual step."""


class ReturnFromLimbo(_A, tag="return_from_limbo"):
    """LIMBO: take ``count`` of your Followers back from Limbo to your supply ("at any time": a
    free move offered with each of your decisions while Limbo holds Followers)."""

    count: int


class ClimbMarker(_A, tag="climb_marker"):
    """PERFORM RITUAL: climb one step with Ritual marker 0 or 1."""

    marker: int


class TakeBonus(_A, tag="take_bonus"):
    """A special Ritual space's own effect: resolve it (True) or ignore it (False)."""

    take: bool


class PlayUpgrade(_A, tag="play_upgrade"):
    """DEVELOP: play an Upgrade card on top of its Action card."""

    card: str


class PlayPloy(_A, tag="play_ploy"):
    """Play a Ploy card and resolve it."""

    card: str


class KeepCard(_A, tag="keep_card"):
    """Keep one of the cards just drawn."""

    card: str


class ChooseOption(_A, tag="choose_option"):
    """Choose one of the options of an effect."""

    index: int


class ChooseAction(_A, tag="choose_action"):
    """Choose one of your Action cards (e.g. to perform its Conform part)."""

    action: ActionId


class AddShadow(_A, tag="add_shadow"):
    """Add a Shadow to ``area``."""

    area: str


class RecoverTo(_A, tag="recover_to"):
    """Put a Follower from your Limbo into ``area``."""

    area: str


class ChooseArea(_A, tag="choose_area"):
    """Choose one of the areas a rule leaves to you (solo: where the King of Horrors places its
    Follower when its Maneuver criteria leave a tie)."""

    area: str


# ---- conflicts


class StartConflict(_A, tag="start_conflict"):
    """CONFLICTS 1: an area and the two opposing sides (seats, -2 for the Shadows)."""

    area: str
    sides: tuple[int, int]


class PlaysFirst(_A, tag="plays_first"):
    """CONFLICTS 2: with no controller, the active player chooses who plays first."""

    seat: int


class PlayCombatCard(_A, tag="play_combat_card"):
    """CONFLICTS 2: play a card face down."""

    card: str


class BreakTie(_A, tag="break_tie"):
    """CONFLICTS 8: the active player names the winner of an unbreakable tie."""

    winner: int


class RetreatTo(_A, tag="retreat_to"):
    """CONFLICTS 9: move one losing unit to ``area``."""

    area: str


class TakeVictory(_A, tag="take_victory"):
    """CONFLICTS 11: resolve the Victory effect (True) or draw 1 Development card instead."""

    take: bool


# ---- Nightmares (Stage 2)


class ChooseNightmare(_A, tag="choose_nightmare"):
    """COMMAND NIGHTMARES: command the Nightmare with this number."""

    number: int


class MoveNightmare(_A, tag="move_nightmare"):
    """COMMAND NIGHTMARES: the commanded Nightmare enters ``to``."""

    to: str


class DevourUnit(_A, tag="devour_unit"):
    """DEVOURING UNITS: devour a unit of ``side`` (a seat, or -2 for the Shadows) in ``area``."""

    area: str
    side: int


class TakePiece(_A, tag="take_piece"):
    """DIVERGENT PATHS: place this available Cathedral piece and take its Reward tile."""

    piece: str


# ---- Dream cards


class PlayDream(_A, tag="play_dream"):
    """PLAYING DREAM CARDS: play a Dream card whose condition is met."""

    card: str


Action = (
    ChooseTurnStart
    | Conquer
    | PlaceDreamer
    | ChooseDay
    | DiscardDream
    | KeepDreams
    | TakeDream
    | DiscardDevelopment
    | React
    | Done
    | ProduceIn
    | MoveFollower
    | MoveShaper
    | ConvertUnit
    | BuildFortLevel
    | PayFollower
    | PayLimbo
    | ReturnFromLimbo
    | ClimbMarker
    | TakeBonus
    | PlayUpgrade
    | PlayPloy
    | KeepCard
    | ChooseOption
    | ChooseAction
    | AddShadow
    | RecoverTo
    | ChooseArea
    | StartConflict
    | PlaysFirst
    | PlayCombatCard
    | BreakTie
    | RetreatTo
    | TakeVictory
    | PlayDream
    | ChooseNightmare
    | TakePiece
    | MoveNightmare
    | DevourUnit
)

ACTION_TYPES: tuple[type, ...] = get_args(Action)


_ACTION_TYPE_SET = frozenset(ACTION_TYPES)


def is_action(value: object) -> TypeGuard[Action]:
    return type(value) in _ACTION_TYPE_SET or isinstance(value, ACTION_TYPES)


@cache
def _decoder() -> msgspec.json.Decoder[Action]:
    # made when first used (a save read, a peer's action): making it reads the annotations of
    # every action, ~1 % of the start-up to the first frame
    return msgspec.json.Decoder(Action)


def decode_action(data: bytes | str) -> Action:
    """An action from JSON; malformed input raises InvalidAction."""
    try:
        return _decoder().decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise InvalidAction(f"not a valid action: {exc}") from exc


def encode_action(action: Action) -> bytes:
    return msgspec.json.encode(action)
