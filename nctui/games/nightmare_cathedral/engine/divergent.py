"""DIVERGENT PATHS: the module's sideboard, its Reward tiles and which pieces are available.

Every Cathedral piece starts on the sideboard (``GameState.cathedral_track`` holds the pieces
still on it, in sideboard order); ``path_tiles`` pairs each face-up Reward tile with the space it
lies next to; ``tiles_aside`` holds the yellow and red tiles until they come out. A tile taken
with its piece is resolved, then discarded (removed from the game): the discarded tiles are
exactly those of the vacated spaces, so ``violations`` can check that every tile is accounted
for. ``cathedral`` places the pieces; this module knows the sideboard.

The Stage II symbol: our sideboard's spaces carry no icons, so the Stage II space of the
Divergent Paths sideboard is the space of the piece whose Cathedral track space is the Stage II
space (4A); removing that piece runs the procedure of the Stage II space (docs/rules-decisions.md).
"""

from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from nctui.platform import rng

from ..content import schema as cs
from . import board, cards, events as E
from .events import Event
from .state import GameState

Events = list[Event]
STANDARD_FIRST_PIECE = "1C"  # SETUP 5: "move the Cathedral piece 1C to the main board"
# "Randomly place faceup gray ... Reward tiles in the Reward tile slots next to the brown Cathedral
# piece spaces": the rulebook calls the spaces of the gray tiles brown there and gray elsewhere.
SLOT = {"gray": "gray", "brown": "gray", "yellow": "yellow", "red": "red"}
COMES_OUT = (("gray", "yellow"), ("yellow", "red"))  # one tile of the first left: the second come out
LEVELS = ("gray", "yellow", "red")  # solo: "the highest level available one (red > yellow > gray)"


def spaces(state: GameState) -> tuple[cs.PathSpace, ...]:
    return board.pack(state).tracks.divergent_paths


def space_of(state: GameState, piece: str) -> cs.PathSpace:
    return next(sp for sp in spaces(state) if sp.piece == piece)


def _colour(state: GameState, tile: str) -> str:
    return cards.tile(state, tile).colour


# ---------------------------------------------------------------------------------------------
# Setup


def set_up(state: GameState, ev: Events) -> GameState:
    """SETUP 2-4 of the module: all the pieces on the sideboard, the gray tiles dealt face up at
    random onto the gray slots, the yellow and red set aside (``cathedral.set_up`` moves 1C)."""
    if not spaces(state) or not board.pack(state).cards.reward_tiles:
        raise ValueError(f"content pack {state.pack!r} has no Divergent Paths sideboard and Reward tiles")
    every = tuple(t.id for t in board.pack(state).cards.reward_tiles)
    state = replace(
        state,
        cathedral_track=tuple(sp.piece for sp in spaces(state)),
        cathedral_built=(),
        path_tiles=(),
        tiles_aside=every,
    )
    return _deal(state, "gray", ev)


def _deal(state: GameState, colour: str, ev: Events) -> GameState:
    """The tiles of ``colour`` set aside come out face up, at random, onto the slots of that colour."""
    tiles = tuple(t for t in state.tiles_aside if _colour(state, t) == colour)
    dealt, r = rng.shuffle(state.rng, tiles)
    slots = tuple(sp.piece for sp in spaces(state) if SLOT[sp.colour] == colour)
    pairs = tuple(zip(slots, dealt))
    ev.append(E.RewardTilesOut(colour=colour, tiles=tuple(t for _, t in pairs)))
    aside = tuple(t for t in state.tiles_aside if t not in dealt)
    return replace(state, rng=r, path_tiles=state.path_tiles + pairs, tiles_aside=aside)


def _tile_at(state: GameState, piece: str) -> str:
    return dict(state.path_tiles).get(piece, "")


# ---------------------------------------------------------------------------------------------
# Available pieces


def available(state: GameState) -> tuple[str, ...]:
    """AVAILABLE CATHEDRAL PIECES: a piece on a gray space, or on a space of another colour that
    has a Reward tile and whose every incoming path starts at a vacated space; sideboard order."""
    left = set(state.cathedral_track)
    tiles = dict(state.path_tiles)
    return tuple(
        sp.piece
        for sp in spaces(state)
        if sp.piece in left
        and (SLOT[sp.colour] == "gray" or (sp.piece in tiles and not left.intersection(sp.incoming)))
    )


def why_unavailable(state: GameState, piece: str) -> str:
    """In words, why ``piece`` cannot be taken now."""
    sp = next((sp for sp in spaces(state) if sp.piece == piece), None)
    if sp is None:
        return f"there is no piece {piece!r} on the sideboard"
    if piece not in state.cathedral_track:
        return f"piece {piece} is already in the Cathedral"
    if piece not in dict(state.path_tiles):
        return f"the {sp.colour} space of piece {piece} has no Reward tile yet"
    blocking = [p for p in sp.incoming if p in state.cathedral_track]
    return f"a path leads into the space of {piece} from {', '.join(blocking)}, still holding a piece"


def level(state: GameState, piece: str) -> int:
    """The level of a piece's space: gray 0, yellow 1, red 2 ("red > yellow > gray")."""
    return LEVELS.index(SLOT[space_of(state, piece).colour])


def below_highest(state: GameState, piece: str, pieces: tuple[str, ...]) -> bool:
    """SOLO: ``piece`` is not of the highest level among the available ``pieces``."""
    return level(state, piece) < max(level(state, p) for p in pieces)


def _tile_name(state: GameState, piece: str) -> str:
    tile = _tile_at(state, piece)
    return cards.tile(state, tile).name if tile else "no tile"


# ---------------------------------------------------------------------------------------------
# Reward tiles


def take_tile(state: GameState, piece: str) -> tuple[GameState, str]:
    """REWARD TILES: the placing player takes the tile of the space just vacated ("" if none)."""
    tile = _tile_at(state, piece)
    return replace(state, path_tiles=tuple(pt for pt in state.path_tiles if pt[0] != piece)), tile


def reward_steps(state: GameState, tile: str) -> tuple[cs.Step, ...]:
    """The tile's ability. Once the Stage II space has shuffled the Stage 2 decks in, the Stage 2
    cards are in the Development and Dream decks: a tile's Stage 2 draw draws from those."""
    steps = cards.tile(state, tile).effect.steps
    return tuple(_after_stage_ii(state, s) for s in steps)


def _after_stage_ii(state: GameState, step: cs.Step) -> cs.Step:
    if isinstance(step, cs.Draw) and step.deck.endswith("2") and stage_ii_done(state):
        return replace(step, deck=step.deck[:-1])
    return step


def stage_ii_done(state: GameState) -> bool:
    return board.stage2_cards_added(state)


def tiles_out(state: GameState, ev: Events) -> GameState:
    """REWARD TILES: with one gray tile left on the sideboard the yellow tiles come out face up
    (at random onto the yellow slots); with one yellow left, the red ones."""
    for before, colour in COMES_OUT:
        left = sum(1 for _, t in state.path_tiles if _colour(state, t) == before)
        waiting = any(_colour(state, t) == colour for t in state.tiles_aside)
        if left <= 1 and waiting:
            state = _deal(state, colour, ev)
    return state


# ---------------------------------------------------------------------------------------------
# Conservation


def violations(state: GameState) -> list[str]:
    """Every Reward tile is once on the sideboard, aside, or discarded with a vacated space's
    piece (the solo King keeps those it takes); face-up tiles lie on slots of their colour whose
    piece is still there."""
    if not state.config.divergent_paths:
        return []
    out = []
    out_tiles = [t for _, t in state.path_tiles]
    kept = [t for pl in state.players for t in pl.tiles]
    every = Counter(t.id for t in board.pack(state).cards.reward_tiles)
    if Counter(out_tiles + list(state.tiles_aside) + kept) - every:
        out.append("a Reward tile is in two places")
    if len(kept) > len(state.cathedral_built):
        out.append("more Reward tiles kept than pieces built")
    if len(out_tiles) + len(state.tiles_aside) + len(state.cathedral_built) != sum(every.values()):
        out.append("Reward tiles not conserved: face up + aside + discarded with their pieces")
    for piece, tile in state.path_tiles:
        if piece not in state.cathedral_track or SLOT[space_of(state, piece).colour] != _colour(state, tile):
            out.append(f"Reward tile {tile} lies by {piece}, not a slot of its colour holding a piece")
    if set(state.cathedral_track) & set(state.cathedral_built):
        out.append("a Cathedral piece is both on the sideboard and in the Cathedral")
    return out
