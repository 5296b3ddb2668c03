"""What is being resolved: the decision due (a ``Work``), the stack of effect frames, and what
happens when a frame ends (its continuation, ``Then``).

Every decision comes from a Work: the setup, the turn structure, each step of an effect, each
stage of a conflict, each choice the King's rules leave to you. A Work's tag is its decision
kind (``Decision.kind``), and one rule (``engine.rules``) gives its options, checks an action
against them and applies it. ``work.seat`` is always the seat that decides.

An effect (a Day, Conform or Dissent effect, a Ploy, a Victory or Defeat, a Ritual bonus…) is
pushed as a ``Frame`` holding its remaining steps; the steps were copied when it began, so
covering a card mid-resolution changes nothing (DEVELOP). When a frame has no step left it is
popped and its continuation (``Frame.then``) runs: the turn structure and the King's turn carry
on that way, each continuation a typed Struct with the data it needs.
"""

from __future__ import annotations

from typing import Literal, TypeVar, get_args

import msgspec
from msgspec.structs import replace

from ..content.schema import AreaFilter, NightmareMove, Step


class _S(msgspec.Struct, frozen=True, kw_only=True, cache_hash=True, gc=False):
    """Base of the Structs below: frozen, keyword-only, the hash cached (``state.S``)."""


class _W(_S, tag_field="w"):
    seat: int  # the seat that decides


W_ = TypeVar("W_", bound=_W)


# ---------------------------------------------------------------------------------------------
# Setup (SETUP 7, 17, 19; solo SETUP 4 and the harder modifier)


class TurnStartWork(_W, tag="turn_start"):
    """SETUP 7: the first player chooses the Turn track position of the Starting marker."""


class ConquerWork(_W, tag="conquer"):
    """SETUP 17: conquer an area; ``GameState.queue`` holds the seats still to conquer (snake)."""


class PlaceDreamerWork(_W, tag="place_dreamer"):
    """SETUP 19: place your Dreamer on a Night space; ``GameState.queue``: the seats still to."""


class SoloTurnStartWork(_W, tag="solo_turn_start"):
    """Solo SETUP 1 (core SETUP 7): you choose the Turn track position of the Starting marker."""


class SoloCornerWork(_W, tag="solo_corner"):
    """Solo SETUP 4: you select your starting corner; the King's areas and your second follow."""


class KingPoweredWork(_W, tag="king_powered"):
    """DIFFICULTY MODIFIERS (harder), at setup: ``seat`` (the human) chooses ``left`` more King
    Action cards, each powered up by a Development card drawn and tucked under it."""

    left: int


# ---------------------------------------------------------------------------------------------
# The turn (TURN STRUCTURE 1-8, REACTION)


class ChooseDayWork(_W, tag="choose_day"):
    """TURN STRUCTURE 1-2: move your Dreamer to a Day space; perform it, or ignore it and draw 2."""


class DiscardDreamsWork(_W, tag="discard_dreams"):
    """TURN STRUCTURE 3: discard unwanted Dream cards, one at a time, then keep the rest."""


class DrawDreamWork(_W, tag="draw_dream"):
    """TURN STRUCTURE 4: draw Dream cards one by one from the offer or the deck's top, up to 2."""


class HandLimitWork(_W, tag="discard_development"):
    """TURN STRUCTURE 5: discard Development cards in excess of 8."""


class ReactWork(_W, tag="react"):
    """REACTION: Conform, Dissent or Pass (``GameState.queue``: the reactors still to come)."""


class MoveDreamerWork(_W, tag="move_dreamer"):
    """A Reward tile: at the end of the turn your Dreamer goes to any Night space."""


# ---------------------------------------------------------------------------------------------
# The steps of effects


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


class ShaperWork(_W, tag="shaper_move"):
    """Shaper moves: ``left`` adjacent moves, or one move to any area (``anywhere``)."""

    left: int
    anywhere: bool = False
    must: bool = False


class ConvertWork(_W, tag="convert"):
    """CONVERSIONS still to perform, in the Shaper's area or an area adjacent to it."""

    left: int
    where: Literal["shaper", "adjacent_shaper"] = "shaper"
    must: bool = False


class FortWork(_W, tag="build_fort_level"):
    """FORTIFY: Fort levels still to add, one at a time; each is built, then paid (``FortPayWork``)."""

    costs: tuple[int, ...]  # Followers owed for each level still to build
    where: AreaFilter = "controlled"
    existing_only: bool = False
    controlled: tuple[str, ...] = ()  # areas controlled when the step began, board order (FORTIFY)
    must: bool = False


class FortPayWork(_W, tag="pay_fort_level"):
    """FORTIFY: the level just built is paid in full, one Follower at a time, before anything else."""

    owed: int
    rest: FortWork  # the levels still to build afterwards


class ClimbWork(_W, tag="climb"):
    """PERFORM RITUAL: paid steps first, then free ones."""

    paid_left: int  # paid steps still allowed; -1 = any number
    free_left: int
    special: bool  # special spaces may be entered
    primary: bool  # the Ritual action's primary effect: ritual-only spaces may be entered
    kinds: tuple[str, ...]  # the space kinds a free step may enter
    must: bool = False


class ClimbPayWork(_W, tag="climb_pay"):
    """PERFORM RITUAL: ``marker`` is entering its next space; ``owed``: the symbols still unpaid
    (a space is paid in full)."""

    marker: int
    owed: tuple[str, ...]
    climb: ClimbWork  # the climb it belongs to


class BonusWork(_W, tag="ritual_bonus"):
    """SPACES (special): resolve or ignore the bonus of the special space just entered."""

    space: int  # index in tracks.ritual of the special space just entered


class UpgradeWork(_W, tag="play_upgrade"):
    """DEVELOP: play Upgrade cards (``left`` 0: any number)."""

    left: int
    played: int = 0


class PloyWork(_W, tag="play_ploy"):
    """Play Ploy cards and resolve them (``left`` 0: any number)."""

    left: int
    played: int = 0


class DevelopWork(_W, tag="develop"):
    """DEVELOP: "play any number of Upgrades and up to 3 Ploys": an Upgrade step followed by a
    Ploy step is one decision, so the cards are played in any order (``upgrades``/``ploys``: the
    step's count, 0 any number)."""

    upgrades: int
    ploys: int
    upgrades_played: int = 0
    ploys_played: int = 0


class KeepWork(_W, tag="keep_card"):
    deck: str
    drawn: tuple[str, ...]
    keep_left: int
    beyond_limit: bool = False


class ChooseWork(_W, tag="choose"):
    options: tuple[tuple[Step, ...], ...]
    must: bool = False


class ConformWork(_W, tag="choose_action"):
    """Reward tile: perform the Conform part of any of your Action cards."""


class ShadowWork(_W, tag="add_shadow"):
    left: int
    where: AreaFilter = "any"
    spread: bool = False
    then_conflict: bool = False
    area: str = ""  # the one area, once chosen (not spread)
    must: bool = True


class RemoveWork(_W, tag="remove_follower"):
    left: int
    where: AreaFilter = "any"
    must: bool = True


class RecoverWork(_W, tag="recover"):
    left: int
    where: AreaFilter = "controlled"
    must: bool = False


# ---------------------------------------------------------------------------------------------
# Conflicts (CONFLICTS 1-12): choosing one, then each of its stages


class ConflictWork(_W, tag="start_conflict"):
    """CONFLICTS 1 / MANEUVER: ``seat`` resolves ("is instructed to resolve") ``left`` conflicts
    in ``where`` areas (``area``: in that one area only)."""

    left: int  # conflicts still to resolve
    where: AreaFilter = "any"
    area: str = ""


class Fight(_S):
    """The conflict being fought in ``area`` between ``sides`` (seats, -2 for the Shadows);
    ``resolver``, ``left``, ``where`` and ``only_in``: the conflicts step it belongs to."""

    resolver: int
    left: int  # conflicts still to resolve, this one included
    where: AreaFilter
    area: str
    sides: tuple[int, int]
    order: tuple[int, ...] = ()  # seats still to play cards, the next first
    plays: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # per side; face down until revealed
    revealed: bool = False
    shadow_card: str = ""  # the Conflict card played for the Shadows, while in play
    winner: int = -1
    only_in: str = ""  # the step's one area ("resolve N conflicts in that area"), else ""


class PlaysFirstWork(_W, tag="plays_first"):
    """CONFLICTS 2: with no controller among the sides, the active player chooses who plays first."""

    fight: Fight


class CombatCardsWork(_W, tag="play_combat_card"):
    """CONFLICTS 2: ``seat`` plays 1 card or more face down (up to its limit)."""

    fight: Fight


class TieWork(_W, tag="break_tie"):
    """CONFLICTS 8: the active player breaks an otherwise unbreakable tie."""

    fight: Fight


class RetreatWork(_W, tag="retreat"):
    """CONFLICTS 9: ``seat`` moves the losing units away, one at a time."""

    fight: Fight


class VictoryWork(_W, tag="take_victory"):
    """REWARDS AND CONSEQUENCES: the Victory effect, or 1 Development card instead."""

    fight: Fight


FightWork = PlaysFirstWork | CombatCardsWork | TieWork | RetreatWork | VictoryWork


def fight_of(work: object) -> Fight | None:
    """The conflict being fought, when the decision due is one of its stages."""
    if isinstance(work, PlaysFirstWork | CombatCardsWork | TieWork | RetreatWork | VictoryWork):
        return work.fight
    return None


def with_fight(work: W_, fight: Fight) -> W_:
    """``work`` carrying ``fight`` instead (a view hides its face-down cards, a guess fills them)."""
    if isinstance(work, PlaysFirstWork | CombatCardsWork | TieWork | RetreatWork | VictoryWork):
        return replace(work, fight=fight)
    return work


# ---------------------------------------------------------------------------------------------
# Dreams, Stage 2, the Cathedral


class DreamWork(_W, tag="play_dream"):
    """PLAYING DREAM CARDS: a window in which ``seat`` may play Dream cards whose timing is
    one of ``timings`` (the golden rule: only between actions and reactions)."""

    timings: tuple[str, ...]


class NightmareWork(_W, tag="command_nightmare"):
    """COMMAND NIGHTMARES: choose 1 of the 2 Nightmares to command (``left`` commands to give)."""

    left: int = 1
    must: bool = False


class NightmareMoveWork(_W, tag="move_nightmare"):
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


class CathedralPieceWork(_W, tag="cathedral_piece"):
    """DIVERGENT PATHS: choose the Cathedral piece to place (and take its Reward tile)."""


# ---------------------------------------------------------------------------------------------
# Solo: the choices the King's rules leave to you


class KingDreamWork(_W, tag="king_dream"):
    """REFILL DREAMS 3: the human picks among the offered Dreams tied for the King."""

    options: tuple[str, ...]


class KingShieldWork(_W, tag="king_shield_discard"):
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


class KingPieceWork(_W, tag="king_cathedral_piece"):
    """SOLO, Divergent Paths: ``seat`` (you) chooses the Cathedral piece the King takes; ``card``:
    the King's Dream that makes it build ("" at the end of its turn)."""

    card: str = ""


Work = (
    TurnStartWork
    | ConquerWork
    | PlaceDreamerWork
    | SoloTurnStartWork
    | SoloCornerWork
    | KingPoweredWork
    | ChooseDayWork
    | DiscardDreamsWork
    | DrawDreamWork
    | HandLimitWork
    | ReactWork
    | MoveDreamerWork
    | ProduceWork
    | MoveWork
    | ShaperWork
    | ConvertWork
    | FortWork
    | FortPayWork
    | ClimbWork
    | ClimbPayWork
    | BonusWork
    | UpgradeWork
    | PloyWork
    | DevelopWork
    | KeepWork
    | ChooseWork
    | ConformWork
    | ShadowWork
    | RemoveWork
    | RecoverWork
    | ConflictWork
    | PlaysFirstWork
    | CombatCardsWork
    | TieWork
    | RetreatWork
    | VictoryWork
    | DreamWork
    | NightmareWork
    | NightmareMoveWork
    | DevourWork
    | CathedralPieceWork
    | KingDreamWork
    | KingShieldWork
    | KingManeuverWork
    | KingTuckWork
    | KingPieceWork
)
WORK_TYPES: tuple[type[_W], ...] = get_args(Work)


def kind_of(work: Work) -> str:
    """The decision kind of a Work: its tag."""
    kind = _KINDS.get(type(work))
    return kind if kind is not None else str(type(work).__struct_config__.tag)


DECISION_KINDS: tuple[str, ...] = tuple(str(t.__struct_config__.tag) for t in WORK_TYPES)
_KINDS: dict[type, str] = dict(zip(WORK_TYPES, DECISION_KINDS))


# ---------------------------------------------------------------------------------------------
# Continuations: what happens when a frame ends (each names the rule that carries on)


class _T(_S, tag_field="t"):
    pass


class FirstTurn(_T, tag="first_turn"):
    """SETUP 23: setup is done; the first turn begins (``turn``)."""


class ActionDone(_T, tag="action_done"):
    """The active player's action (or its "ignore and draw 2") is resolved (``turn``);
    ``conclude``: the action was performed, so Followers paid on the Ritual track go home."""

    seat: int
    conclude: bool = True


class ReactionDone(_T, tag="reaction_done"):
    """A reaction's effect is resolved (``turn``)."""

    seat: int


class AfterWindow(_T, tag="after_window"):
    """The Dream window after an action or a reaction has closed: the turn goes on (``turn``)."""


class NextReaction(_T, tag="next_reaction"):
    """The next inactive player reacts, or the reactions are over (``turn``)."""


class KingTurnReactions(_T, tag="king_turn_reactions"):
    """The King's turn (its steps 1-5) is over: you may react (KING'S TURN 6, ``turn``)."""


class EndTurn(_T, tag="end_turn"):
    """TURN STRUCTURE 7-8: the Dreamers, the Turn marker, the Time track (``turn``)."""


class DreamPlayed(_T, tag="dream_played"):
    """A Dream card's effect is resolved: its player's window opens again (``dreams``)."""

    seat: int


class CardToBottom(_T, tag="card_to_bottom"):
    """CONFLICTS 11-12: the Victory or Defeat effect is resolved; the Conflict card goes to the
    bottom of its deck, then the cards played (``plays``, per side of ``sides``, face up) are
    discarded and Basic Combat cards return to their owners (``conflict``)."""

    card: str
    sides: tuple[int, int] = (-1, -1)
    plays: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    def played(self) -> tuple[str, ...]:
        return self.plays[0] + self.plays[1]


class ActivationEnds(_T, tag="activation_ends"):
    """A Nightmare's command effect is resolved; an activation it interrupted goes on (``nightmares``)."""


class CathedralNext(_T, tag="cathedral_next"):
    """Standard Game: ``seat`` has resolved the icons; the next player resolves them (``cathedral``)."""

    seat: int


class RewardDone(_T, tag="reward_done"):
    """DIVERGENT PATHS: the Reward tile is resolved; tiles of the next colour may come out (``cathedral``)."""


class BuildAfterKing(_T, tag="build_after_king"):
    """The pieces the King's reaction made it build are placed; now the active player builds (``cathedral``)."""

    seat: int


class KingPieceDue(_T, tag="king_piece_due"):
    """Solo, Divergent Paths: the King builds the piece for ``card`` now (``cathedral``)."""

    card: str = ""


class KingPerform(_T, tag="king_perform"):
    """KING'S TURN 4, once the pieces its step 3 built are placed (``king_turn``)."""

    power: int


class KingActionDone(_T, tag="king_action_done"):
    """KING'S TURN 5: refill its Dreams (``king_turn``)."""


class KingManeuverRest(_T, tag="king_maneuver_rest"):
    """The rest of the King's Maneuver after you chose the piece a completed Dream builds (``king_actions``)."""

    mp: int
    cultists: int  # Cultists still to place on Dreams for its controlled Marked Areas


class KingConflicts(_T, tag="king_conflicts"):
    """MANEUVER 1-5: the King's desired conflicts, after its Maneuver (``king_conflicts``)."""


class KingLoop(_T, tag="king_loop"):
    """The King's desired-conflict loop while a conflict is fought (``king_conflicts``)."""

    drawn: tuple[str, ...] = ()  # Area Selection cards drawn so far
    resolved: int = 0
    area: str = ""  # the area of the card drawn last (more desired conflicts may follow there)
    sides: tuple[int, int] = (-1, -1)  # the conflict being fought
    wins: tuple[int, int] = (0, 0)  # conflicts won before it: the King's, yours
    fought: tuple[tuple[int, int], ...] = ()  # conflicts fought for the card drawn last


class KingCommand(_T, tag="king_command"):
    """COMMANDING NIGHTMARES: the King commands a Nightmare (``king_nightmares``)."""


class KingCommandResume(_T, tag="king_command_resume"):
    """A King's Nightmare command while a conflict it started is fought (``king_nightmares``)."""

    number: int
    left: int  # resolutions still to do, the current one included
    step: int = -1  # the next step of the current resolution; -1: the Nightmare moves first
    failed: bool = False  # the current resolution resolves the Failure effect


class KingRitualBonuses(_T, tag="king_ritual_bonuses"):
    """PERFORM RITUAL (solo): the King's bonuses of the special and ritual-only spaces (``kinds``)
    its marker reached outside its Ritual action (a Cathedral piece, a Nightmare); ``command``:
    false for a Nightmare's climb ("it does not command another Nightmare") (``king_actions``)."""

    kinds: tuple[str, ...]
    command: bool = True


Then = (
    FirstTurn
    | ActionDone
    | ReactionDone
    | AfterWindow
    | NextReaction
    | KingTurnReactions
    | EndTurn
    | DreamPlayed
    | CardToBottom
    | ActivationEnds
    | CathedralNext
    | RewardDone
    | BuildAfterKing
    | KingPieceDue
    | KingPerform
    | KingActionDone
    | KingManeuverRest
    | KingConflicts
    | KingLoop
    | KingCommand
    | KingCommandResume
    | KingRitualBonuses
)
THEN_TYPES: tuple[type[_T], ...] = get_args(Then)

# Where an effect comes from, for the log and the decision's context.
Source = Literal[
    "setup",
    "turn",
    "day",
    "conform",
    "dissent",
    "reaction",
    "choice",
    "develop",
    "ploy",
    "bonus",
    "climb",
    "victory",
    "defeat",
    "conflicts",
    "dream",
    "cathedral",
    "reward",
    "nightmare",
    "command",
    "king_shield",
    "king_turn",
    "king_piece",
    "king_hook",
    "king_conflicts",
    "king_nightmare",
    "king_maneuver_rest",
]


class Frame(_S):
    seat: int  # who resolves it
    steps: tuple[Step, ...]
    source: Source
    card: str = ""  # the card the effect comes from, for the log
    must: bool = False  # resolve as completely as possible (Victory/Defeat): no stopping early
    then: Then | None = None  # what happens when the frame ends
