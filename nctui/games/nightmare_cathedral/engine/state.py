"""The game state: one tree of frozen Structs holding tuples, frozensets and scalars only.

Change it with ``msgspec.structs.replace`` so unchanged parts are shared between states.
Nothing in it grows with the length of the game beyond the board's own contents: events are
returned by ``apply``, never stored here.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from nctui.platform.rng import Rng

from .actions import Action
from .config import GameConfig
from .king_state import KingState
from .work import Frame, Work

FOLLOWERS = 20  # per player (COMPONENTS)
FORT_LEVELS = 10  # per player
SHADOWS = 30
HAND_LIMIT = 8  # TURN STRUCTURE step 5
DREAM_HAND = 2  # TURN STRUCTURE step 4
DREAM_OFFER = 3  # SETUP step 15
UNIT_LIMIT = 3  # UNIT LIMIT
BASIC_COMBAT = "basic-combat"


class S(msgspec.Struct, frozen=True, kw_only=True, cache_hash=True, gc=False):
    """Base of every state Struct. Each caches its hash (immutable all the way down): a state
    made with ``replace`` shares the parts a step left alone, and their hashes with them, so
    hashing a new position (the planner's memo table) reads only what changed."""


class AreaState(S):
    id: str
    followers: tuple[int, ...]  # per seat
    shadows: int = 0
    fort_owner: int = -1  # seat, or -1 for no Fort
    fort_levels: int = 0
    fortress: int = -1  # seat whose Fortress marker is here, or -1


class PlayerState(S):
    seat: int
    colour: str
    supply: int = FOLLOWERS  # Followers in supply
    limbo: int = 0
    forts: int = FORT_LEVELS  # Fort levels in supply
    shaper: str = ""  # area id, "" while off the board
    dreamer: str = ""  # Night space id, or a Day action id during the turn
    ritual: tuple[int, int] = (0, 0)  # positions of the two Ritual markers (0 = start)
    ritual_best: tuple[int, int] = (0, 0)  # the furthest space each marker has reached
    hand: tuple[str, ...] = ()  # Development cards, the Basic Combat card included
    dreams: tuple[str, ...] = ()  # Dream cards in hand
    dreams_played: tuple[str, ...] = ()  # personal Dream discard pile
    display: tuple[tuple[str, ...], ...] = ()  # per action (rondel order): the card stack, top last
    turns: int = 0  # turns taken as the active player
    devoured: int = 0
    on_track: int = 0  # Followers paid for Ritual steps, back to supply when the action ends
    conflicts_won: int = 0  # this turn, for Dream conditions
    dreamer_free: bool = False  # Reward tile: at the end of the turn the Dreamer goes to any Night space
    free_dreams: tuple[str, ...] = ()  # Dreams in hand that don't count against the limit of 2 (Reward tile)
    tiles: tuple[str, ...] = ()  # Divergent Paths Reward tiles kept (the solo King scores them)


class Decks(S):
    development: tuple[str, ...] = ()  # top first
    development_discard: tuple[str, ...] = ()
    dream: tuple[str, ...] = ()
    dream_offer: tuple[str, ...] = ()
    conflict: tuple[str, ...] = ()
    development2: tuple[str, ...] = ()  # Stage 2 decks, set aside until the Stage II space
    dream2: tuple[str, ...] = ()
    conflict2: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()  # cards returned to the box (player count)


# A decision's kind is the tag of the Work that asks it (``work.DECISION_KINDS``).
DecisionKind = str


class Decision(S):
    """The decision that is due: who decides, what kind (the tag of ``GameState.work``), and
    every option."""

    seat: int
    kind: DecisionKind
    options: tuple[Action, ...]


class Score(S):
    seat: int
    ritual: int = 0
    forts: int = 0
    devoured: int = 0
    upgrades: int = 0
    dreams: int = 0

    @property
    def total(self) -> int:
        return self.ritual + self.forts + self.devoured + self.upgrades + self.dreams


class Outcome(S):
    """How the game ended: the reason, each seat's score breakdown, the winner(s)."""

    reason: Literal["time", "devoured"]
    scores: tuple[Score, ...]
    winners: tuple[int, ...]
    tie_break: str = ""


Phase = Literal["setup", "turn", "reactions", "over"]


class GameState(S):
    config: GameConfig
    pack: str
    rng: Rng
    stage: int = 1
    phase: Phase = "setup"
    first_player: int = 0
    board_side: str = ""
    areas: tuple[AreaState, ...] = ()
    players: tuple[PlayerState, ...] = ()
    shadows: int = SHADOWS  # Shadows in supply
    devoured_shadows: int = 0
    decks: Decks = Decks()
    nightmares: tuple[int, ...] = ()
    turn_start: int = -1  # Turn track position of the Starting marker
    turn_pos: int = -1  # Turn track position of the Turn marker
    time: int = 0  # Time track position
    turn_number: int = 0  # turns begun so far
    cathedral_built: tuple[str, ...] = ()  # pieces in the Cathedral space
    active: int = -1
    day: str = ""  # the Day action chosen this turn
    ignored: bool = False  # the active player ignored the Action and drew 2
    queue: tuple[int, ...] = ()  # seats still to decide in the current round of a phase
    frames: tuple[Frame, ...] = ()  # effects being resolved, innermost last
    work: Work | None = None  # the step being resolved, while it needs decisions
    cathedral_track: tuple[str, ...] = ()  # pieces still on the Cathedral track, next first
    # Stage 2 (THE NIGHTMARE CATHEDRAL)
    nightmare_at: tuple[str, ...] = ()  # per Nightmare of ``nightmares``: "" on its card, "cathedral", or an area
    commanded: tuple[tuple[int, int], ...] = ()  # (seat, Nightmare number) commanded this turn
    commanding: int = 0  # the Nightmare being commanded now (its number), 0 when none
    visited: tuple[str, ...] = ()  # areas the commanded Nightmare started in or entered this activation
    suspended: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (commanding, visited) interrupted by a nested command
    end_triggered: bool = False  # the devoured threshold was reached: play on to equal turns
    # Divergent Paths
    path_tiles: tuple[tuple[str, str], ...] = ()  # (piece, Reward tile) face up on the sideboard
    tiles_aside: tuple[str, ...] = ()  # yellow and red tiles waiting to come out
    decision: Decision | None = None
    outcome: Outcome | None = None
    king: KingState | None = None  # solo mode: the King of Horrors' play area
