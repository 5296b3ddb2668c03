"""Typed schema of a content pack.

Every component of the game is data: the board, the Action Matrix, the tracks and every card.
Effects are tuples of small *steps* from a fixed vocabulary (``Step``); Dream cards carry
*conditions* (``Condition``). The engine interprets these; the loader validates them.

All Structs are frozen and hold tuples only, like the game state.
"""

# Annotations are objects here, not strings (no ``from __future__ import annotations``): msgspec
# resolves them when the cached pack is first decoded, at every start, and evaluating ~200
# strings cost ~5 ms of it. ``Step`` is named before it is defined, so it stays a string.
from typing import Literal

import msgspec

Struct = msgspec.Struct


class _C(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every content Struct: frozen, keyword-only, unknown fields are errors."""


# --------------------------------------------------------------------------------------------
# Vocabulary shared by effects and conditions

ActionId = Literal["ritual", "summon", "fortify", "maneuver", "develop"]
ACTION_IDS: tuple[str, ...] = ("ritual", "summon", "fortify", "maneuver", "develop")

# Which areas an effect may touch, from the point of view of the player resolving it.
AreaFilter = Literal[
    "any",  # any area in play
    "controlled",  # areas you control
    "fort",  # areas holding one of your Forts
    "marked",  # Marked Areas of the current turn
    "marked_or_fort",  # Summon: where you have Forts and in Marked Areas
    "presence",  # areas where you are present
    "empty",  # areas with no units and no Forts
    "shadows",  # areas holding Shadows
    "adjacent_cathedral",  # areas next to the Cathedral space
    "shaper",  # the area of your Shaper
    "adjacent_shaper",  # areas adjacent to your Shaper
    "fortress",  # the area of your Fortress
    "corner",  # corner areas
    "nightmare",  # the current area of a Nightmare (Stage 2)
]

DeckId = Literal["development", "dream", "development2", "dream2"]


class Combat(_C):
    """Combat icons printed on a card: Attacks and Defences (shields)."""

    attack: int = 0
    defense: int = 0


# --------------------------------------------------------------------------------------------
# Effect steps (tag field: "do")


class _Step(_C, tag_field="do"):
    pass


class Produce(_Step, tag="produce"):
    """Produce ``amount``: ``spread`` among matching areas, all in ``one`` of them, or ``each``
    matching area produces ``amount``."""

    amount: int = 1
    where: AreaFilter = "controlled"
    mode: Literal["spread", "one", "each"] = "spread"


class Move(_Step, tag="move"):
    """Gain Movement Points (Followers and Shaper, or the Shaper only)."""

    mp: int
    shaper_only: bool = False


class Convert(_Step, tag="convert"):
    """Shaper conversions: supplant an enemy unit with one of yours."""

    count: int = 1
    where: Literal["shaper", "adjacent_shaper"] = "shaper"


class ShaperMove(_Step, tag="shaper_move"):
    """Move your Shaper: ``steps`` adjacent moves, or anywhere when ``anywhere``."""

    steps: int = 1
    anywhere: bool = False


class AddFortLevels(_Step, tag="add_fort_levels"):
    """Add up to ``count`` Fort levels; ``cost`` lists Followers removed for each level in turn."""

    count: int = 1
    cost: tuple[int, ...] = ()
    where: AreaFilter = "controlled"
    existing_only: bool = False  # only onto an existing Fort


class Climb(_Step, tag="climb"):
    """Climb the Ritual track.

    ``paid``: each step is paid with Followers from areas whose symbols match the step (or 3
    Followers from Limbo); ``steps`` = 0 with ``paid`` means any number of paid steps.
    ``free``: steps climbed without paying. ``special`` lets the climb enter special spaces.
    ``primary``: the Ritual action's primary effect, the only one that may enter ritual spaces.
    ``kinds`` restricts which space kinds a free step may enter.
    """

    steps: int = 0
    paid: bool = False
    free: int = 0
    special: bool = False
    primary: bool = False
    kinds: tuple[Literal["open", "special", "ritual"], ...] = ("open",)


class Draw(_Step, tag="draw"):
    """Draw ``count`` cards; ``keep`` < count means keep that many and return the rest."""

    deck: DeckId = "development"
    count: int = 1
    keep: int = 0
    beyond_limit: bool = False  # a Dream kept this way doesn't count against the limit of 2


class PlayUpgrades(_Step, tag="play_upgrades"):
    """Play Upgrade cards from hand onto Action cards; ``count`` 0 means any number."""

    count: int = 0


class PlayPloys(_Step, tag="play_ploys"):
    """Play up to ``count`` Ploy cards from hand and resolve them. A pack must give a count: a
    Ploy that draws cards comes back from the reshuffled discard pile, so "any number" could go on
    for ever (the validator refuses 0)."""

    count: int = 1


class ResolveConflicts(_Step, tag="resolve_conflicts"):
    """Resolve X conflicts (repeat until X are done or none is possible); ``area``: in that one
    area only (a Reward tile's "resolve a conflict in that area"; then ``count`` is 1)."""

    count: int = 1
    where: AreaFilter = "any"
    area: str = ""


class AddShadows(_Step, tag="add_shadows"):
    """Add Shadows (respecting Unit Limits) to one area or ``spread`` among matching areas."""

    count: int = 1
    where: AreaFilter = "any"
    spread: bool = False
    then_conflict: bool = False  # Reward tile: then resolve a conflict in that area


class RemoveFollowers(_Step, tag="remove_followers"):
    """Return your own Followers from the board to your supply (a cost)."""

    count: int = 1
    where: AreaFilter = "any"


class RecoverLimbo(_Step, tag="recover_limbo"):
    """Return Followers from your Limbo to the board in areas you control."""

    count: int = 1
    where: AreaFilter = "controlled"


class CommandNightmare(_Step, tag="command_nightmare"):
    """Stage 2 only: command a Nightmare."""

    count: int = 1


class Devour(_Step, tag="devour"):
    """Stage 2 only: devour units."""

    count: int = 1
    where: AreaFilter = "nightmare"
    whose: Literal["any", "shadows", "opponents", "own"] = "any"


NightmareToward = Literal[
    "any",  # any adjacent area
    "most_units",  # the adjacent area(s) with the most units
    "fewest_units",
    "followers",  # areas holding Followers
    "shadows",  # areas holding Shadows
    "marked",  # Marked Areas
    "fort",  # areas holding a Fort
    "empty",  # areas with no units and no Fort
    "commander",  # areas where the commanding player is present
    "opponents",  # areas where an opponent of the commanding player is present
]


class NightmareMove(_Step, tag="nightmare_move"):
    """Stage 2: move the commanded Nightmare ``steps`` times into an adjacent area matching
    ``toward`` (or ``anywhere``), never into an area it has entered in this activation nor the one
    it started in; ``on_enter`` resolves in each area entered (its "current area")."""

    steps: int = 1
    toward: NightmareToward = "any"
    anywhere: bool = False
    on_enter: tuple["Step", ...] = ()


class NightmareReturn(_Step, tag="nightmare_return"):
    """Stage 2: the commanded Nightmare returns to the Cathedral space."""


class MoveDreamer(_Step, tag="move_dreamer"):
    """Move your Dreamer to any Night space at the end of the turn."""


class PerformConform(_Step, tag="perform_conform"):
    """Perform the Conform part of any one of your Action cards."""


class Choose(_Step, tag="choose"):
    """Choose exactly one of several effects."""

    options: tuple[tuple["Step", ...], ...]


Step = (
    Produce
    | Move
    | Convert
    | ShaperMove
    | AddFortLevels
    | Climb
    | Draw
    | PlayUpgrades
    | PlayPloys
    | ResolveConflicts
    | AddShadows
    | RemoveFollowers
    | RecoverLimbo
    | CommandNightmare
    | Devour
    | NightmareMove
    | NightmareReturn
    | MoveDreamer
    | PerformConform
    | Choose
)


class Effect(_C):
    """A printed effect: the steps in order, and our own one-line wording of them."""

    text: str
    steps: tuple[Step, ...] = ()


NO_EFFECT = Effect(text="-", steps=())


# --------------------------------------------------------------------------------------------
# Dream card conditions (tag field: "need")


class _Cond(_C, tag_field="need"):
    pass


class ControlAreas(_Cond, tag="control_areas"):
    """Control at least ``count`` areas matching ``where``."""

    count: int
    where: AreaFilter = "any"


class ControlSymbols(_Cond, tag="control_symbols"):
    """Control areas showing at least ``count`` different symbols."""

    count: int


class PresenceAreas(_Cond, tag="presence_areas"):
    """Be present in at least ``count`` areas matching ``where``."""

    count: int
    where: AreaFilter = "any"


class FollowersInArea(_Cond, tag="followers_in_area"):
    """Have at least ``count`` of your Followers in one area."""

    count: int


class FollowersOnBoard(_Cond, tag="followers_on_board"):
    """Have at least ``count`` Followers on the board."""

    count: int


class FortLevels(_Cond, tag="fort_levels"):
    """Have at least ``count`` Fort levels on the board."""

    count: int


class FortsWithLevels(_Cond, tag="forts_with_levels"):
    """Have at least ``count`` Forts of at least ``levels`` levels."""

    levels: int
    count: int = 1


class RitualReached(_Cond, tag="ritual_reached"):
    """Have a Ritual marker (or ``both`` of them) at or beyond space ``space``."""

    space: int
    both: bool = False


class LimboAtLeast(_Cond, tag="limbo_at_least"):
    count: int


class HandAtLeast(_Cond, tag="hand_at_least"):
    """Hold at least ``count`` Development cards (the Basic Combat card counts)."""

    count: int


class UpgradesPlayed(_Cond, tag="upgrades_played"):
    """Have at least ``count`` Upgrade cards in your display."""

    count: int


class ShaperIn(_Cond, tag="shaper_in"):
    """Your Shaper stands in an area matching ``where``."""

    where: AreaFilter


class NoShadowsAdjacentFortress(_Cond, tag="no_shadows_near_fortress"):
    """No Shadows in your Fortress area nor in any area adjacent to it."""


class ConflictsWon(_Cond, tag="conflicts_won"):
    """Have won at least ``count`` conflicts this turn."""

    count: int = 1


class DevouredAtLeast(_Cond, tag="devoured_at_least"):
    """Stage 2: at least ``count`` of your units are devoured."""

    count: int


Condition = (
    ControlAreas
    | ControlSymbols
    | PresenceAreas
    | FollowersInArea
    | FollowersOnBoard
    | FortLevels
    | FortsWithLevels
    | RitualReached
    | LimboAtLeast
    | HandAtLeast
    | UpgradesPlayed
    | ShaperIn
    | NoShadowsAdjacentFortress
    | ConflictsWon
    | DevouredAtLeast
)

DreamTiming = Literal["any_time", "own_turn", "after_conflict_won", "end_of_own_turn"]


# --------------------------------------------------------------------------------------------
# Board


class Symbol(_C):
    id: str
    name: str
    glyph: str  # one terminal cell wide
    letter: str  # one ASCII letter, for monochrome terminals


class Area(_C):
    id: str
    cell: str  # the one-character code of its cells in the grid
    name: str
    symbol: str
    corner: bool = False
    four_players_only: bool = False  # covered by an overlay tile in a 3-player game


class BoardSide(_C):
    """One side of the board. ``grid``: rows of space-separated cell codes; ``#`` is the
    Cathedral space, ``.`` is off the board. Areas are adjacent when two of their cells share
    an edge; an area is adjacent to the Cathedral when one of its cells touches a ``#``."""

    id: str
    name: str
    players: tuple[int, ...]
    grid: str
    areas: tuple[Area, ...]


class Board(_C):
    symbols: tuple[Symbol, ...]
    sides: tuple[BoardSide, ...]


# --------------------------------------------------------------------------------------------
# Action Matrix and tracks


class DaySpace(_C):
    action: ActionId
    name: str
    arrow: str  # the Night space the Dreamer moves to after this action
    row: int  # layout position, for drawing only
    col: int


class NightSpace(_C):
    id: str
    name: str
    adjacent: tuple[ActionId, ...]
    row: int
    col: int


class Matrix(_C):
    rondel: tuple[ActionId, ...]  # clockwise order of the Day spaces (the King's rondel)
    days: tuple[DaySpace, ...]
    nights: tuple[NightSpace, ...]


RitualKind = Literal["open", "special", "ritual"]
RitualBonus = Literal["none", "movement3", "fort_level", "shaper_convert", "produce2", "command_nightmare"]


class RitualSpace(_C):
    kind: RitualKind
    cost: tuple[str, ...]  # symbols of the areas that pay for entering it
    bonus: RitualBonus = "none"
    vp: int = 0  # a VP space: markers that reached it score this


CathedralIcon = Literal[
    "players_2_3",  # Variable Length: set up before the first turn with 2 or 3 players
    "players_2",  # Variable Length: set up before the first turn with 2 players
    "produce",
    "shaper_mp",
    "climb",
    "shadow",
    "stage2",
]


class CathedralSpace(_C):
    piece: str  # e.g. "1B"
    icons: tuple[CathedralIcon, ...] = ()


class PathSpace(_C):
    """A space of the Divergent Paths sideboard."""

    piece: str
    colour: Literal["gray", "yellow", "red", "brown"]
    incoming: tuple[str, ...] = ()  # pieces whose spaces have paths leading into this one


class Tracks(_C):
    turn: tuple[str, ...]  # symbols of the Turn track positions, clockwise
    time: tuple[str, ...]  # labels of the Time track; the last one is the skull
    ritual: tuple[RitualSpace, ...]  # the spaces after the start
    first_piece: str  # the piece set in the Cathedral space at setup in the Standard Game
    cathedral: tuple[CathedralSpace, ...]  # the track, closest to the beginning first
    divergent_paths: tuple[PathSpace, ...]


# --------------------------------------------------------------------------------------------
# Cards


class ActionCard(_C):
    """A starting Action card: Day, Conform and Dissent effects."""

    id: str
    action: ActionId
    name: str
    day: Effect
    conform: Effect
    dissent: Effect
    unit_limit: int = 0  # printed on Fortify cards; 0 elsewhere
    unit_limit_one_area: int = 0  # an Upgrade may raise the limit in one area to 4 or 5


class BasicCombat(_C):
    id: str
    name: str
    combat: Combat


class DevelopmentCard(_C):
    id: str
    name: str
    stage: Literal[1, 2]
    kind: Literal["upgrade", "ploy"]
    combat: Combat
    players: Literal[2, 3, 4] = 2  # 3 = marked "3+", 4 = marked "4"
    vp: int = 0  # Upgrades: VP scored at the end, covered or not
    # Upgrades: the Action card they cover and its new effects.
    action: ActionId | None = None
    day: Effect | None = None
    conform: Effect | None = None
    dissent: Effect | None = None
    unit_limit: int = 0
    unit_limit_one_area: int = 0
    # Ploys: the effect when played.
    effect: Effect | None = None


class DreamCard(_C, kw_only=True):  # kw_only is not inherited: `needs` follows defaults
    id: str
    name: str
    stage: Literal[1, 2]
    suit: str
    vp: int
    cathedral: bool = False
    when: DreamTiming = "own_turn"
    needs: tuple[Condition, ...]
    text: str
    effect: Effect = NO_EFFECT


class ShadowLine(_C):
    """One line of a Conflict card: what the Shadows generate for a number of Shadows."""

    shadows: int
    combat: Combat


class ConflictCard(_C):
    id: str
    name: str
    stage: Literal[1, 2]
    lines: tuple[ShadowLine, ...]  # for 1, 2 and 3 Shadows
    victory: Effect
    defeat: Effect


class NightmareCard(_C):
    number: int
    name: str
    command: Effect
    text: str
    devoured: tuple[int | None, int | None, int | None] = (None, None, None)  # 1-2 / 3 / 4


class Suit(_C):
    id: str
    name: str
    glyph: str
    letter: str


# The solo King of Horrors (solo rules). ``HORROR_DIE``: the faces of the Horror Die.
HORROR_DIE: tuple[int, ...] = (2, 2, 3, 3, 4, 4)

# The layout of ``KingRow.params`` per action (docs/content.md, "The King of Horrors"):
#   ritual:   (followers_removed, steps, higher_marker_on_die_at_least)
#   summon:   (per_controlled_area, extra_if_fort, marked_areas_produce 0/1)
#   fortify:  for die 2, 3, 4 in turn: (followers_removed, fort_levels_built, cards_drawn,
#             units_devoured), 12 ints
#   maneuver: (movement_points,)
#   develop:  (cards_drawn, cultist_on_maneuver 0/1, cultist_on_ritual 0/1)
KING_PARAMS: dict[str, tuple[str, ...]] = {
    "ritual": ("followers_removed", "steps", "higher_marker_on_die_at_least"),
    "summon": ("per_controlled_area", "extra_if_fort", "marked_areas_produce"),
    "fortify": tuple(
        f"die{d}_{x}"
        for d in (2, 3, 4)
        for x in ("followers_removed", "fort_levels_built", "cards_drawn", "units_devoured")
    ),
    "maneuver": ("movement_points",),
    "develop": ("cards_drawn", "cultist_on_maneuver", "cultist_on_ritual"),
}
KING_POWERS: tuple[int, ...] = (1, 3, 5)


class KingRow(_C):
    """One row of a King's Action card: what it does at this Power (``params``: KING_PARAMS)."""

    power: Literal[1, 3, 5]
    text: str
    params: tuple[int, ...] = ()


class KingActionCard(_C):
    """A King of Horrors Action card: one row per Power 1, 3, 5; ``note``: what applies at every
    Power (a Stage 2 command, Fortify's fallback to Maneuver)."""

    action: ActionId
    name: str
    rows: tuple[KingRow, ...]
    note: str = ""


class KingCombatCard(_C):
    """The King's own combat cards: its Basic Combat and its Advanced Combat (the Shield); both
    return to its hand after a conflict. ``text``: what happens when it returns."""

    id: str
    name: str
    kind: Literal["basic", "advanced"]
    combat: Combat
    returns: bool = True
    text: str = ""


class KingNightmareCard(_C):
    """What the King does when it commands Nightmare ``number`` (COMMANDING NIGHTMARES).

    Resolved ``times`` times (the (Nx) multiplier; one fewer, at least 1, in the easier game); each
    resolution succeeds or fails on its own: the Nightmare moves into an adjacent area matching
    ``toward`` (seen from the King; never an area it has been to during this command; Area
    Selection cards pick among several) and ``effect`` resolves in its current area. With no such
    area it moves into a random adjacent area and ``failure`` resolves there instead. ``anywhere``:
    it moves into the area of a random Area Selection card (not one it has been to), so it never
    fails. ``returns``: after the last resolution it goes back to the Cathedral space. ``text``:
    the whole card as a player reads it."""

    number: int
    times: int
    text: str
    effect: Effect
    toward: NightmareToward = "any"
    anywhere: bool = False
    failure: Effect = NO_EFFECT
    returns: bool = False


class RewardTile(_C):
    id: str
    colour: Literal["gray", "yellow", "red"]
    name: str
    effect: Effect


class Cards(_C):
    suits: tuple[Suit, ...]
    actions: tuple[ActionCard, ...]
    basic_combat: BasicCombat
    development: tuple[DevelopmentCard, ...]
    dreams: tuple[DreamCard, ...]
    conflicts: tuple[ConflictCard, ...]
    nightmares: tuple[NightmareCard, ...] = ()
    reward_tiles: tuple[RewardTile, ...] = ()
    king_actions: tuple[KingActionCard, ...] = ()
    king_combat: tuple[KingCombatCard, ...] = ()
    king_nightmares: tuple[KingNightmareCard, ...] = ()
    area_selection: tuple[str, ...] = ()  # the solo Area Selection cards: one area id each


class PackInfo(_C):
    id: str
    name: str
    version: int
    description: str = ""
