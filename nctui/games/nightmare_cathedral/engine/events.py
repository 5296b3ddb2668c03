"""Events: what happened, as typed data, for the log, the undo policy and the network.

``apply`` returns them alongside the new state; they are never stored in the state. Each event
type is a Struct with typed fields (areas, seats, sides, cards, amounts, reasons as codes) and
no wording: the game's ``describe`` puts them into words. Each also declares, for ``engine.secrets``:

- ``SECRET``: the fields only its ``seat`` may see (cards drawn, dealt, discarded face down);
  every other viewer gets them redacted;
- ``REVEALS``: what the event brings into view: ``"none"``; ``"owner"`` (hidden cards its seat
  now knows); ``"all"`` (hidden cards now public); ``"chance"`` (a random result: a shuffle, a
  die, a card drawn unseen). Any but ``"none"`` makes the step it belongs to one that the strict
  undo policy will not take back.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from ..content.schema import Step

HIDDEN = "?"
SHADOWS = -2  # the Shadows as a side

Reveal = Literal["none", "owner", "all", "chance"]


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="e", gc=False):
    """Base of every event. ``seat``: the seat the event is about (-1: none)."""

    seat: int = -1
    SECRET: ClassVar[tuple[str, ...]] = ()
    REVEALS: ClassVar[Reveal] = "none"

    @property
    def kind(self) -> str:
        """The event's tag (a stable name: the log, tests and the network use it)."""
        return str(type(self).__struct_config__.tag)

    def reveals(self) -> Reveal:
        return self.REVEALS


def plural(n: int, word: str) -> str:
    """'1 Cultist', '3 Cultists': a count in an event's sentence."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# ---------------------------------------------------------------------------------------------
# SETUP


class SetupBoard(Event, tag="setup_board"):
    side: str  # the board side's id
    areas: int


class FirstPlayer(Event, tag="first_player"):
    solo: bool = False  # solo: you always start (SOLO SETUP 6), no draw

    def reveals(self) -> Reveal:
        return "none" if self.solo else "chance"


class TurnStartChosen(Event, tag="turn_start"):
    position: int


class StartingUpgrade(Event, tag="starting_upgrade"):
    card: str
    REVEALS = "all"


class DealtDevelopment(Event, tag="dealt_development"):
    cards: tuple[str, ...]
    SECRET = ("cards",)
    REVEALS = "owner"


class DealtDreams(Event, tag="dealt_dreams"):
    cards: tuple[str, ...]
    SECRET = ("cards",)
    REVEALS = "owner"


class DreamOffer(Event, tag="dream_offer"):
    cards: tuple[str, ...]
    REVEALS = "all"


class Conquered(Event, tag="conquer"):
    area: str
    followers: int


class ShadowsSeeded(Event, tag="seed_shadows"):
    area: str
    count: int


class DreamerPlaced(Event, tag="place_dreamer"):
    night: str


class NightmaresRevealed(Event, tag="nightmares"):
    numbers: tuple[int, ...]
    chosen: bool  # by the players (CHOOSING NIGHTMARES); else revealed at random

    def reveals(self) -> Reveal:
        return "none" if self.chosen else "chance"


class CathedralSetup(Event, tag="cathedral_setup"):
    piece: str
    built: int


class RewardTileDiscarded(Event, tag="reward_tile_discarded"):
    piece: str
    tile: str


class RewardTilesOut(Event, tag="reward_tiles_out"):
    colour: str
    tiles: tuple[str, ...]
    REVEALS = "chance"


class KingSetup(Event, tag="king_setup"):
    dreams: tuple[str, ...]
    REVEALS = "all"


# ---------------------------------------------------------------------------------------------
# TURN STRUCTURE


class TurnBegins(Event, tag="turn_begins"):
    turn: int
    marked: str  # the symbol under the Turn marker


class DayChosen(Event, tag="choose_day"):
    action: str
    ignore: bool


class RitualFollowersReturn(Event, tag="ritual_followers_return"):
    count: int


class DreamDiscarded(Event, tag="discard_dream"):
    card: str
    SECRET = ("card",)


class DreamTaken(Event, tag="take_dream"):
    """From the offer (public)."""

    card: str


class DreamDrawn(Event, tag="draw_dream"):
    """From the top of the Dream deck (its drawer sees it)."""

    card: str
    SECRET = ("card",)
    REVEALS = "owner"


class DreamOfferRefilled(Event, tag="dream_offer_refilled"):
    card: str
    REVEALS = "all"


class DevelopmentDiscarded(Event, tag="discard_development"):
    card: str
    REVEALS = "all"  # a card of a face-down hand shown to every seat: a look no undo takes back


class Reacted(Event, tag="react"):
    reaction: Literal["conform", "dissent", "pass"]


class DreamerMoves(Event, tag="dreamer_moves"):
    night: str


class DreamerFreeMove(Event, tag="dreamer_free_move"):
    night: str


class TimeAdvances(Event, tag="time_advances"):
    time: int


class GameOver(Event, tag="game_over"):
    reason: Literal["time", "devoured"]
    winners: tuple[int, ...]


# ---------------------------------------------------------------------------------------------
# Effects (RESOLVING ACTIONS AND REACTIONS)


class Stopped(Event, tag="stop"):
    decision: str  # the kind of decision the player stopped


class DrewDevelopment(Event, tag="drew_development"):
    cards: tuple[str, ...]
    count: int
    SECRET = ("cards",)
    REVEALS = "owner"


class DrewDreams(Event, tag="drew_dreams"):
    cards: tuple[str, ...]
    count: int
    SECRET = ("cards",)
    REVEALS = "owner"


class CardsDrawnToKeep(Event, tag="cards_drawn"):
    """Cards drawn to keep some of them (the rest go back, shuffled)."""

    deck: str
    cards: tuple[str, ...]
    keep: int
    SECRET = ("cards",)
    REVEALS = "owner"


class CardKept(Event, tag="card_kept"):
    deck: str
    card: str
    SECRET = ("card",)


class DeckShuffled(Event, tag="deck_shuffled"):
    deck: str
    REVEALS = "chance"


class DevelopmentReshuffled(Event, tag="development_reshuffled"):
    count: int
    REVEALS = "chance"


class Produced(Event, tag="produce"):
    """``seat``: the side the area produced for (-2: the Shadows)."""

    area: str
    count: int


class ShadowAdded(Event, tag="add_shadow"):
    area: str
    count: int = 1


class FollowerRemoved(Event, tag="remove_follower"):
    area: str
    for_fort: bool = False  # to pay for a Fort level


class RecoveredFromLimbo(Event, tag="recover_limbo"):
    area: str


class LimboReturn(Event, tag="limbo_return"):
    count: int


class OptionChosen(Event, tag="choose"):
    index: int
    steps: tuple[Step, ...] = ()  # the effect chosen, for the log


class NothingDone(Event, tag="nothing_done"):
    """RESOLVING ACTIONS AND REACTIONS: a step of ``seat``'s effect had nothing to do when it
    began (``engine.futile``): ``step`` is the kind of decision it would have asked."""

    step: str
    reason: str  # an ``engine.futile.Nothing``


class NothingInHand(NothingDone, tag="nothing_in_hand"):
    """A ``NothingDone`` whose reason tells what a hand holds (no Upgrade, no Ploy): the others
    learn only that nothing was played."""

    SECRET = ("reason",)


class ConformPerformed(Event, tag="perform_conform"):
    action: str


class DreamerFree(Event, tag="dreamer_free"):
    pass


class UpgradePlayed(Event, tag="play_upgrade"):
    card: str
    action: str
    REVEALS = "all"  # a card of a face-down hand shown to every seat: a look no undo takes back


class OverUnitLimit(Event, tag="over_unit_limit"):
    """A lower Unit Limit on the new Fortify card: these Followers went back to the supply."""

    areas: tuple[str, ...]


class PloyPlayed(Event, tag="play_ploy"):
    card: str
    REVEALS = "all"  # a card of a face-down hand shown to every seat: a look no undo takes back


class ConflictFollows(Event, tag="conflict_follows"):
    area: str


class GainMp(Event, tag="gain_mp"):
    mp: int
    shaper_only: bool = False


class FollowerMoved(Event, tag="move_follower"):
    source: str
    to: str


class ShaperMoved(Event, tag="move_shaper"):
    source: str
    to: str


class Converted(Event, tag="convert"):
    area: str
    side: int  # whose unit was supplanted


class FortLevelBuilt(Event, tag="build_fort_level"):
    area: str
    levels: int  # the Fort's levels now


class RitualPaid(Event, tag="ritual_pay"):
    area: str
    symbol: str
    space: int


class RitualPaidLimbo(Event, tag="ritual_pay_limbo"):
    space: int


class RitualClimbed(Event, tag="ritual_climb"):
    marker: int
    space: int


class RitualBonus(Event, tag="ritual_bonus"):
    space: int
    bonus: str


class RitualBonusIgnored(Event, tag="ritual_bonus_ignored"):
    space: int
    bonus: str


class NoEffectStage1(Event, tag="no_effect_stage1"):
    step: str  # the tag of the step that does nothing before Stage 2


class NightmaresUnavailable(Event, tag="nightmares_unavailable"):
    left: int


# ---------------------------------------------------------------------------------------------
# CONFLICTS


class ConflictStarted(Event, tag="conflict_start"):
    """``units``/``forts``: each side's units and Fort levels in the area as the conflict begins
    (step 1; what the conflict panel shows; empty in events recorded before they were kept)."""

    area: str
    sides: tuple[int, int]
    units: tuple[int, ...] = ()
    forts: tuple[int, ...] = ()


class PlaysFirstChosen(Event, tag="plays_first"):
    area: str
    first: int


class CombatCardPlayed(Event, tag="combat_card_played"):
    area: str
    card: str
    face_up: bool = False  # played once the cards are revealed (CONFLICTS 2): every seat sees it
    SECRET = ("card",)

    def reveals(self) -> Reveal:
        return "all" if self.face_up else "none"


class CombatCardsDone(Event, tag="combat_cards_done"):
    area: str
    count: int


class ConflictReveal(Event, tag="conflict_reveal"):
    """``seat``: the side revealing (-2: the Shadows' Conflict card)."""

    area: str
    cards: tuple[str, ...]
    attack: int
    defense: int
    REVEALS = "all"


class ConflictDamage(Event, tag="conflict_damage"):
    area: str
    damage: int


class UnitsEliminated(Event, tag="units_eliminated"):
    area: str
    count: int
    to_limbo: bool


class FortLevelsLost(Event, tag="fort_levels_lost"):
    area: str
    count: int


class ConflictWon(Event, tag="conflict_won"):
    area: str
    why: Literal["fortress", "fort", "units", "tie"]


class TieBroken(Event, tag="break_tie"):
    area: str
    winner: int


class Retreated(Event, tag="retreat"):
    source: str
    to: str


class VictoryResolved(Event, tag="conflict_victory"):
    card: str


class VictoryDrawInstead(Event, tag="victory_draw_instead"):
    card: str


class DefeatSuffered(Event, tag="conflict_defeat"):
    card: str


class ConflictCardBottom(Event, tag="conflict_card_bottom"):
    card: str


class BasicCombatReturned(Event, tag="basic_combat_returned"):
    pass


class CombatCardsDiscarded(Event, tag="combat_cards_discarded"):
    cards: tuple[str, ...]


class NoConflictPossible(Event, tag="no_conflict_possible"):
    left: int
    area: str = ""


# ---------------------------------------------------------------------------------------------
# PLAYING DREAM CARDS, BUILDING THE CATHEDRAL, DIVERGENT PATHS


class DreamPlayed(Event, tag="play_dream"):
    card: str
    vp: int
    REVEALS = "all"  # a card of a face-down hand shown to every seat: a look no undo takes back


class CathedralPiece(Event, tag="cathedral_piece"):
    piece: str
    built: int


class CathedralIcon(Event, tag="cathedral_icon"):
    icon: str


class CathedralComplete(Event, tag="cathedral_complete"):
    pass


class NoCathedralPiece(Event, tag="no_cathedral_piece"):
    pass


class RewardTile(Event, tag="reward_tile"):
    tile: str
    piece: str


class Stage2Development(Event, tag="stage2_development"):
    count: int
    REVEALS = "chance"


class Stage2Dreams(Event, tag="stage2_dreams"):
    count: int
    REVEALS = "chance"


class Stage2Conflicts(Event, tag="stage2_conflicts"):
    count: int
    removed: int


class Stage2ConflictsMissing(Event, tag="stage2_conflicts_missing"):
    count: int


# ---------------------------------------------------------------------------------------------
# THE NIGHTMARE CATHEDRAL: Nightmares and devouring


class SideboardFlipped(Event, tag="sideboard_flipped"):
    pass


class NightmaresEnter(Event, tag="nightmares_enter"):
    numbers: tuple[int, ...]


class NightmareCommanded(Event, tag="command_nightmare"):
    number: int
    area: str  # where it stands ("" in the Cathedral space)


class NightmareMoves(Event, tag="nightmare_moves"):
    number: int
    source: str  # an area, or "cathedral"
    to: str


class NightmareStuck(Event, tag="nightmare_stuck"):
    number: int  # 0: no Nightmare is commanded
    area: str = ""
    lost: int = 0  # moves lost


class NightmareReturns(Event, tag="nightmare_returns"):
    number: int
    source: str


class Devoured(Event, tag="devour"):
    area: str
    side: int


class NothingToDevour(Event, tag="nothing_to_devour"):
    left: int = 0
    area: str = ""


class EndTriggered(Event, tag="end_triggered"):
    devoured: int
    threshold: int


# ---------------------------------------------------------------------------------------------
# Solo: the King of Horrors (``seat`` is the King's; the seat of the human for your choices)

AreaPurpose = Literal[
    "remove", "overflow", "produce", "fort", "devour", "nightmare", "retreat", "devour_three", "shadow"
]
ClimbReason = Literal["piece", "below_highest", "nightmare"]
TuckReason = Literal["dissent", "develop", "choice", "powered"]


class KingAreaCard(Event, tag="king_area_card"):
    """The Area Selection cards chose ``area`` (``source``: the area a Follower overflows from)."""

    area: str
    purpose: AreaPurpose
    source: str = ""
    REVEALS = "chance"


class KingHorrorDie(Event, tag="king_horror_die"):
    value: int
    REVEALS = "chance"


class KingClimbs(Event, tag="king_climbs"):
    """The King's lower marker climbs (BUILDING THE CATHEDRAL, KING'S TURN 8, its Nightmares)."""

    steps: int
    to: int
    why: ClimbReason
    piece: str = ""


class KingTucks(Event, tag="king_tucks"):
    card: str
    action: str
    why: TuckReason
    REVEALS = "all"

    def reveals(self) -> Reveal:
        """A tuck you chose names a card already face up in the question (``KingTuckWork``)."""
        return "none" if self.why == "choice" else "all"


class KingHandCard(Event, tag="king_hand_card"):
    """Cards drawn unseen and shuffled into the King's face-down hand."""

    count: int
    REVEALS = "chance"


class KingDevours(Event, tag="king_devours"):
    count: int
    from_supply: int


class KingKeepsLast(Event, tag="king_keeps_last"):
    count: int  # Followers not removed


class KingRemoves(Event, tag="king_removes"):
    area: str


class KingProduceLost(Event, tag="king_produce_lost"):
    area: str


class KingProduces(Event, tag="king_produces"):
    area: str
    overflow_from: str = ""


class KingSummons(Event, tag="king_summons"):
    power: int


class KingMarkerClimbs(Event, tag="king_marker_climbs"):
    space: int
    space_kind: str


class KingRitual(Event, tag="king_ritual"):
    higher: bool
    steps: int


class KingNoFort(Event, tag="king_no_fort"):
    pass


class KingFortLevel(Event, tag="king_fort_level"):
    area: str
    levels: int  # the Fort's levels now (two built in one area read apart)


class KingNothingToDevour(Event, tag="king_nothing_to_devour"):
    pass


class KingFortifyToManeuver(Event, tag="king_fortify_to_maneuver"):
    pass


class KingManeuvers(Event, tag="king_maneuvers"):
    area: str
    chosen: bool = False  # your choice among the tied areas


class KingMpUnused(Event, tag="king_mp_unused"):
    pass


class KingDevelops(Event, tag="king_develops"):
    count: int
    REVEALS = "chance"


class KingDayCultist(Event, tag="king_day_cultist"):
    action: str


class KingMarkedProduce(Event, tag="king_marked_produce"):
    area: str
    side: int  # the area's controller, the Shadows, or -1: nobody controls it, nothing produced


class KingCombatCards(Event, tag="king_combat_cards"):
    area: str
    count: int
    cards: tuple[str, ...]  # when revealed at once (you play after seeing them), else ()
    revealed: bool
    REVEALS = "chance"


class KingVictoryCard(Event, tag="king_victory_card"):
    pass


class KingCombatReturned(Event, tag="king_combat_returned"):
    cards: tuple[str, ...]


class KingShieldDiscard(Event, tag="king_shield_discard"):
    card: str
    REVEALS = "all"  # a card of a face-down hand shown to every seat: a look no undo takes back


class KingConflictsEnd(Event, tag="king_conflicts_end"):
    resolved: int


class KingConflictCard(Event, tag="king_conflict_card"):
    area: str
    REVEALS = "chance"


class KingConflictSkipped(Event, tag="king_conflict_skipped"):
    area: str


class KingCultistReturned(Event, tag="king_cultist_returned"):
    pass


class KingCultistOnDream(Event, tag="king_cultist_on_dream"):
    card: str
    cultists: int
    vp: int
    # why it goes there (solo rulebook): KING'S TURN 3 "power", THE KING CONFORMS "conform",
    # MANEUVER's Marked Areas "marked" and conflicts "conflict", PERFORM RITUAL "ritual", the
    # harder game's "discount"; "placed": saved before the cause was recorded
    why: Literal["placed", "power", "conform", "marked", "conflict", "ritual", "discount"] = "placed"


class KingDreamCompleted(Event, tag="king_dream_completed"):
    card: str
    vp: int


class KingTakesDream(Event, tag="king_takes_dream"):
    card: str


class KingBuilds(Event, tag="king_builds"):
    card: str


class KingKeepsTile(Event, tag="king_keeps_tile"):
    tile: str
    piece: str
    tiles: int


class KingNightmareSkipped(Event, tag="king_nightmare_skipped"):
    why: Literal["both", "commanding"]


class KingCommandsNightmare(Event, tag="king_commands_nightmare"):
    number: int


class KingNightmareFailure(Event, tag="king_nightmare_failure"):
    number: int
    area: str


class KingEffectSkipped(Event, tag="king_effect_skipped"):
    step: str


class KingDreamerMoves(Event, tag="king_dreamer_moves"):
    roll: int
    counted: tuple[str, ...]  # the Day space of each Cultist counted
    to: str


class KingPower(Event, tag="king_power"):
    moved: int
    action: str
    power: int


class KingAction(Event, tag="king_action"):
    action: str
    power: int


class KingCultistsReturn(Event, tag="king_cultists_return"):
    count: int
    action: str


class KingConforms(Event, tag="king_conforms"):
    action: str
    easier: bool = False  # no Cultist on the matching action (easier game)


class KingDissents(Event, tag="king_dissents"):
    action: str


def _event_types() -> tuple[type[Event], ...]:
    return tuple(sorted(_subclasses(Event), key=lambda t: str(t.__struct_config__.tag)))


def _subclasses(cls: type[Event]) -> set[type[Event]]:
    out = set()
    for sub in cls.__subclasses__():
        out.add(sub)
        out |= _subclasses(sub)
    return out


EVENT_TYPES: tuple[type[Event], ...] = _event_types()
