"""Effects being resolved: the stack of effect frames and the progress of the current step.

An effect (a Day, Conform or Dissent effect, a Ploy, a Victory or Defeat, a Ritual bonus…) is
pushed as a ``Frame`` holding its remaining steps; the steps were copied when it began, so
covering a card mid-resolution changes nothing (DEVELOP). A step that needs choices sets the
state's ``work`` to one of the progress Structs below; its decider turns it into a Decision.
"""

from __future__ import annotations

from typing import Literal, Union

import msgspec

from ..content.schema import AreaFilter, NightmareMove, Step


class _W(msgspec.Struct, frozen=True, kw_only=True, tag_field="w"):
    seat: int


class _P(msgspec.Struct, frozen=True, kw_only=True, tag_field="p"):
    """Where a step of the King's that waits above its turn (for your cards, your choice) stands."""


class KingLoopProgress(_P, tag="king_conflicts"):
    """The King's desired-conflict loop (solo MANEUVER 1-5) while a conflict is fought."""

    drawn: tuple[str, ...] = ()  # Area Selection cards drawn so far
    resolved: int = 0
    area: str = ""  # the area of the card drawn last (more desired conflicts may follow there)
    sides: tuple[int, int] = (-1, -1)  # the conflict being fought
    wins: tuple[int, int] = (0, 0)  # conflicts won before it: the King's, yours
    fought: tuple[tuple[int, int], ...] = ()  # conflicts fought for the card drawn last


class KingCommandProgress(_P, tag="king_command"):
    """A King's Nightmare command (COMMANDING NIGHTMARES) while a conflict it started is fought."""

    number: int
    left: int  # resolutions still to do, the current one included
    step: int = -1  # the next step of the current resolution; -1: the Nightmare moves first
    failed: bool = False  # the current resolution resolves the Failure effect


class KingManeuverRest(_P, tag="king_maneuver_rest"):
    """The rest of the King's Maneuver while you choose the piece a completed Dream builds."""

    mp: int
    cultists: int  # Cultists still to place on Dreams for its controlled Marked Areas


KingProgress = Union[KingLoopProgress, KingCommandProgress, KingManeuverRest]


class Frame(msgspec.Struct, frozen=True, kw_only=True):
    seat: int  # who resolves it
    steps: tuple[Step, ...]
    source: str  # "day", "conform", "dissent", "ploy", "bonus", "victory", "defeat", "cathedral", "dream", ...
    card: str = ""  # the card the effect comes from, for the log
    must: bool = False  # resolve as completely as possible (Victory/Defeat): no stopping early
    then: str = ""  # continuation run when the frame is done (registry.CONTINUATIONS)
    progress: KingProgress | None = None  # a King's step waiting above its turn


class ProduceWork(_W, tag="produce"):
    """PRODUCE: ``left`` units to produce (``spread``: one at a time; ``one``: all in one area);
    ``each``: every area of ``areas`` still produces ``left``, in the order the player picks."""

    left: int
    where: AreaFilter
    mode: Literal["spread", "one", "each"]
    areas: tuple[str, ...] = ()
    must: bool = False


class MoveWork(_W, tag="move"):
    """MANEUVER, MP: Movement Points still to spend (``shaper_only``: on the Shaper alone)."""

    mp: int
    shaper_only: bool = False
    must: bool = False


class ShaperWork(_W, tag="shaper"):
    """Shaper moves: ``left`` adjacent moves, or one move to any area (``anywhere``)."""

    left: int
    anywhere: bool = False
    must: bool = False


class ConvertWork(_W, tag="convert"):
    """CONVERSIONS still to perform, in the Shaper's area or an area adjacent to it."""

    left: int
    where: Literal["shaper", "adjacent_shaper"] = "shaper"
    must: bool = False


class FortWork(_W, tag="fort"):
    """FORTIFY: Fort levels still to add, one at a time; each is built, then paid (``owed``)."""

    costs: tuple[int, ...]  # Followers owed for each level still to build
    where: AreaFilter = "controlled"
    existing_only: bool = False
    controlled: tuple[str, ...] = ()  # areas controlled when the step began, board order (FORTIFY)
    owed: int = 0  # Followers still to remove for the level just built
    must: bool = False


class ClimbWork(_W, tag="climb"):
    """PERFORM RITUAL: paid steps first, then free ones; ``marker`` is set while the space it
    is entering is being paid for (``owed``: the symbols still unpaid)."""

    paid_left: int  # paid steps still allowed; -1 = any number
    free_left: int
    special: bool  # special spaces may be entered
    primary: bool  # the Ritual action's primary effect: ritual-only spaces may be entered
    kinds: tuple[str, ...]  # the space kinds a free step may enter
    marker: int = -1  # the marker entering a space now, while its cost is paid
    owed: tuple[str, ...] = ()  # symbols still to pay for that space
    must: bool = False


class BonusWork(_W, tag="bonus"):
    """SPACES (special): resolve or ignore the bonus of the special space just entered."""

    space: int  # index in tracks.ritual of the special space just entered


class PickWork(_W, tag="pick"):
    kind: Literal["upgrade", "ploy"]
    left: int  # 0 = any number
    played: int = 0


class KeepWork(_W, tag="keep"):
    deck: str
    drawn: tuple[str, ...]
    keep_left: int
    beyond_limit: bool = False


class ChooseWork(_W, tag="choose"):
    options: tuple[tuple[Step, ...], ...]
    must: bool = False


class ConformWork(_W, tag="conform"):
    """Reward tile: perform the Conform part of any of your Action cards."""


class ShadowWork(_W, tag="shadows"):
    left: int
    where: AreaFilter = "any"
    spread: bool = False
    then_conflict: bool = False
    area: str = ""  # the one area, once chosen (not spread)
    must: bool = True


class RemoveWork(_W, tag="remove"):
    left: int
    where: AreaFilter = "any"
    must: bool = True


class RecoverWork(_W, tag="recover"):
    left: int
    where: AreaFilter = "controlled"
    must: bool = False


class ConflictWork(_W, tag="conflict"):
    """CONFLICTS 1-12. ``seat`` resolves ("is instructed to resolve") the conflicts; the
    current one is fought in ``area`` between ``sides`` (seats, -2 for the Shadows)."""

    left: int  # conflicts still to resolve, the current one included
    where: AreaFilter = "any"
    stage: Literal["choose", "order", "cards", "tie", "retreat", "victory"] = "choose"
    area: str = ""
    sides: tuple[int, int] = (-1, -1)
    order: tuple[int, ...] = ()  # seats still to play cards, the next first
    plays: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # per side; face down until revealed
    revealed: bool = False
    shadow_card: str = ""  # the Conflict card played for the Shadows, while in play
    winner: int = -1


class DreamWork(_W, tag="dream"):
    """PLAYING DREAM CARDS: a window in which ``seat`` may play Dream cards whose timing is
    one of ``timings`` (the golden rule: only between actions and reactions)."""

    timings: tuple[str, ...]


class NightmareWork(_W, tag="nightmare"):
    """COMMAND NIGHTMARES: choose 1 of the 2 Nightmares to command (``left`` commands to give)."""

    left: int = 1
    must: bool = False


class NightmareMoveWork(_W, tag="nightmare_move"):
    """COMMAND NIGHTMARES: the commanded Nightmare (``GameState.commanding``) still has ``left``
    moves of ``step``; the commanding player picks each area it enters."""

    step: NightmareMove
    left: int
    must: bool = True


class DevourWork(_W, tag="devour"):
    """DEVOURING UNITS: ``left`` units still to devour in ``where``, of the sides ``whose`` names."""

    left: int
    where: AreaFilter = "nightmare"
    whose: str = "any"
    must: bool = True


class SoloSetupWork(_W, tag="solo_setup"):
    """The human's setup decisions: ``step`` is "turn_start" or "corner"."""

    step: str


class KingDreamWork(_W, tag="king_dream"):
    """REFILL DREAMS 3: the human picks among the offered Dreams tied for the King."""

    options: tuple[str, ...]


class KingShieldWork(_W, tag="king_shield"):
    """RESOLVING CONFLICTS AGAINST THE KING 5: the King's Shield returned after a conflict against
    ``seat``, who may discard a card from hand to climb 1 step."""


class KingManeuverWork(_W, tag="king_maneuver"):
    """MANEUVER: the King's criteria leave ``options`` (areas) tied for its next Follower; ``seat``
    (the human) chooses. ``mp``: the King's Movement Points left after this one."""

    options: tuple[str, ...]
    mp: int


class KingTuckWork(_W, tag="king_tuck"):
    """DEVELOP: ``card`` (no Upgrade was drawn) goes under one of the King's Action cards tied for
    the fewest tucked, ``options`` (action ids); ``seat`` (the human) chooses. Until then the card
    waits here, face up (a tucked card is public: the prompt and the log name it)."""

    card: str
    options: tuple[str, ...]


class KingPoweredWork(_W, tag="king_powered"):
    """DIFFICULTY MODIFIERS (harder), at setup: ``seat`` (the human) chooses ``left`` more King
    Action cards, each powered up by a Development card drawn and tucked under it."""

    left: int


class KingPieceWork(_W, tag="king_piece"):
    """SOLO, Divergent Paths: ``seat`` (you) chooses the Cathedral piece the King takes
    (``why``: what makes it build, for the prompt)."""

    why: str = ""


Work = Union[
    ProduceWork, MoveWork, ShaperWork, ConvertWork, FortWork, ClimbWork, BonusWork, PickWork, KeepWork,
    ChooseWork, ConformWork, ShadowWork, RemoveWork, RecoverWork, ConflictWork, DreamWork,
    NightmareWork, NightmareMoveWork, DevourWork, SoloSetupWork, KingDreamWork,
    KingShieldWork, KingManeuverWork, KingTuckWork, KingPoweredWork, KingPieceWork,
]
