"""THE NIGHTMARE CATHEDRAL: BUILDING THE CATHEDRAL (Standard and Variable Length Game), the
CATHEDRAL TRACK ICONS, the Stage II space, DIVERGENT PATHS and the end of Stage 1.

Every piece goes the same way, whatever builds it: ``take_piece`` (the next piece of the track,
or with Divergent Paths the player's choice among the available pieces), ``place`` (into the
Cathedral space; the Stage II space; the last piece completes the Cathedral), what the vacated
space gives (its icons, or with Divergent Paths its Reward tile), then ``_finish``.

Standard Game: once every player has had a first turn, after all reactions, the active player
builds; each player from the active player clockwise resolves the icons, one frame per icon;
then the turn ends. Variable Length Game: playing a Dream card with the Cathedral icon pauses
the game; the player who played it builds and alone resolves the icons; then the game resumes
(the Dream's own effect, then its window).

Solo: the King builds at the end of its turn (Standard Game) and for each Cathedral icon of a
Dream it completes (Variable Length Game, ``king_builds``); it climbs instead of resolving the
icons; with Divergent Paths you choose its piece and it keeps the Reward tile (``_king_place``).
"""

from __future__ import annotations

from msgspec.structs import replace

from nctui.platform import rng

from ..content import schema as cs
from ..content.loader import Pack
from . import board, divergent, events as E, nightmares
from .actions import TakePiece
from .config import GameConfig
from .effects import push, push_effect
from .errors import IllegalAction
from .events import Event
from .king import KING_PIECE, devour_three, human, is_king, king, king_climbs, modifier, pieces_pending, under_pieces
from .ops import set_player
from .rules import Refusal, Rule, legal
from .state import DREAM_OFFER, Decks, GameState
from .work import BuildAfterKing, CathedralNext, CathedralPieceWork, Frame, KingPieceDue, KingPieceWork, RewardDone

Events = list[Event]

# The icons' steps: (step, must resolve it). Standard Game: each player; Variable Length Game:
# "After you place this Cathedral piece, you may Produce 1..." etc., the placing player only.
ICON_STEPS: dict[str, tuple[cs.Step, bool]] = {
    "produce": (cs.Produce(amount=1, where="controlled"), False),  # may Produce 1 in an area you control
    "shaper_mp": (cs.Move(mp=1, shaper_only=True), False),  # 1 MP, only to move your Shaper
    "climb": (cs.Climb(free=1), False),  # may climb 1 step
    "shadow": (cs.AddShadows(count=1), True),  # must add 1 Shadow, respecting Unit Limits
}
# "players_2_3" and "players_2" only set up the Variable Length Game (``starting_pieces``);
# "stage2" is resolved once, not per player.


# ---------------------------------------------------------------------------------------------
# Setup


def starting_pieces(config: GameConfig, p: Pack) -> tuple[str, ...]:
    """The pieces in the Cathedral space before the first turn (docs/rules-decisions.md).

    Standard Game: the first piece, player-count icons ignored (SETUP 3). Variable Length Game:
    the first piece (assembly step 1); the piece whose space shows the 2-3 icon with 1 to 3
    players (assembly step 2 for 1-3 players; the icon for 2 or 3); the piece whose space shows
    the 2 icon with 2 players (the icon). Divergent Paths: 1C in the Standard Game, none in the
    Variable Length Game (its SETUP 5-7)."""
    if config.divergent_paths:
        return (divergent.STANDARD_FIRST_PIECE,) if config.length == "standard" else ()
    if config.length == "standard":
        return (p.tracks.first_piece,)
    wanted = {"players_2_3": config.players <= 3, "players_2": config.players == 2}
    return (p.tracks.first_piece,) + tuple(
        c.piece for c in p.tracks.cathedral if any(wanted.get(icon, False) for icon in c.icons)
    )


def set_up(state: GameState, ev: Events) -> GameState:
    """SETUP 3: the pieces on the Cathedral track (or the Divergent Paths sideboard), and those
    that start in the Cathedral space; a starting piece's Reward tile is discarded."""
    p = board.pack(state)
    if state.config.divergent_paths:
        state = divergent.set_up(state, ev)
    else:
        state = replace(state, cathedral_track=tuple(c.piece for c in p.tracks.cathedral), cathedral_built=())
    for piece in starting_pieces(state.config, p):
        state = _move(state, piece)
        ev.append(E.CathedralSetup(piece=piece, built=len(state.cathedral_built)))
        if state.config.divergent_paths:
            state, tile = divergent.take_tile(state, piece)
            ev.append(E.RewardTileDiscarded(piece=piece, tile=tile))
    return state


# ---------------------------------------------------------------------------------------------
# When a piece is built


def builds_now(state: GameState) -> bool:
    """Standard Game only: from the end of the turn in which the last player takes its first turn
    (turns go round the table in order, so that is turn number N for N players) while pieces
    remain."""
    return state.config.length == "standard" and state.turn_number >= len(state.players) and bool(state.cathedral_track)


def build(state: GameState, seat: int, ev: Events) -> GameState:
    """Standard Game, once every reaction is done (``seat``: the active player; the turn's end
    waits beneath). Pieces the King's reaction made it build (you choose them) come first."""
    if pieces_pending(state):
        return under_pieces(state, Frame(seat=seat, steps=(), source="cathedral", then=BuildAfterKing(seat=seat)))
    if not builds_now(state):
        return state
    return take_piece(state, seat, ev)


def build_after_king(state: GameState, then: BuildAfterKing, ev: Events) -> GameState:
    return build(state, then.seat, ev)


def cathedral_dream(state: GameState, seat: int, ev: Events) -> GameState:
    """A Dream card with the Cathedral icon was just played by ``seat`` (its effect frame is
    pushed): the Standard Game ignores the icon; the Variable Length Game builds a piece first."""
    if state.config.length != "variable":
        return state
    if not state.cathedral_track:  # the Cathedral is complete: there is no piece left to take
        ev.append(E.NoCathedralPiece(seat=seat))
        return state
    return take_piece(state, seat, ev)


def take_piece(state: GameState, seat: int, ev: Events) -> GameState:
    """The next piece of the track; with Divergent Paths ``seat`` chooses among the available
    pieces (a decision when there is a choice), but you choose the King's."""
    if not state.config.divergent_paths:
        return place(state, seat, state.cathedral_track[0], ev)
    if is_king(state, seat):  # KING'S TURN 8; the turn ends once its piece is built
        return push(state, Frame(seat=seat, steps=(), source=KING_PIECE, then=KingPieceDue()))
    pieces = divergent.available(state)
    if not pieces:  # cannot happen with a sideboard whose paths all start at gray spaces
        ev.append(E.NoCathedralPiece(seat=seat))
        return state
    if len(pieces) == 1:
        return place(state, seat, pieces[0], ev)
    return replace(state, work=CathedralPieceWork(seat=seat))


def _piece_options(state: GameState, w: CathedralPieceWork | KingPieceWork) -> tuple[TakePiece, ...]:
    return legal(state, w, (TakePiece(piece=p) for p in divergent.available(state)), _piece_refusal)


def _piece_refusal(state: GameState, w: CathedralPieceWork | KingPieceWork, action: TakePiece) -> Refusal:
    if action.piece in divergent.available(state):
        return None
    if isinstance(w, KingPieceWork):
        return IllegalAction(
            f"the King too takes an available piece: {_unavailable(state, action.piece)}",
            rule="available Cathedral pieces",
            section="SOLO KING'S TURN 8, COMPLETING THE KING'S DREAMS 2; DIVERGENT PATHS: AVAILABLE CATHEDRAL PIECES",
        )
    return IllegalAction(
        _unavailable(state, action.piece),
        rule="available Cathedral pieces",
        section="DIVERGENT PATHS: AVAILABLE CATHEDRAL PIECES",
    )


def _unavailable(state: GameState, piece: str) -> str:
    if piece not in {sp.piece for sp in divergent.spaces(state)}:
        return f"{piece!r} is not a Cathedral piece"
    return f"{divergent.why_unavailable(state, piece)}: choose one of the available pieces"


def _choose_piece(state: GameState, w: CathedralPieceWork, action: TakePiece, ev: Events) -> GameState:
    """DIVERGENT PATHS: the piece chosen among the available ones."""
    return place(replace(state, work=None), w.seat, action.piece, ev)


CATHEDRAL_PIECE = Rule(CathedralPieceWork, (TakePiece,), _piece_options, _piece_refusal, _choose_piece)


def place(state: GameState, seat: int, piece: str, ev: Events) -> GameState:
    """The piece is put in; then the space's icons or Reward tile."""
    state = _put(state, seat, piece, ev)
    if state.config.divergent_paths:
        return _reward(state, seat, piece, ev)
    return _walk(state, seat, ev)


def _put(state: GameState, seat: int, piece: str, ev: Events) -> GameState:
    """The piece goes into the Cathedral space; the vacated space's Stage II symbol runs once;
    the last piece completes the Cathedral (THE NIGHTMARE CATHEDRAL: Stage 2)."""
    state = _move(state, piece)
    ev.append(E.CathedralPiece(seat=seat, piece=piece, built=len(state.cathedral_built)))
    if "stage2" in icons(state, piece):
        state = stage_two_space(state, ev)
    if not state.cathedral_track:
        state = replace(state, stage=2)
        ev.append(E.CathedralComplete())
        state = nightmares.complete(state, ev)
        if state.king is not None and modifier(state, "harder_devoured"):
            state = devour_three(state, ev)
    return state


def _move(state: GameState, piece: str) -> GameState:
    return replace(
        state,
        cathedral_track=tuple(p for p in state.cathedral_track if p != piece),
        cathedral_built=state.cathedral_built + (piece,),
    )


def icons(state: GameState, piece: str) -> tuple[str, ...]:
    """The icons of the Cathedral track space ``piece`` starts on (none for the first piece)."""
    return next((sp.icons for sp in board.pack(state).tracks.cathedral if sp.piece == piece), ())


# ---------------------------------------------------------------------------------------------
# Cathedral track icons


def _walk(state: GameState, seat: int, ev: Events) -> GameState:
    """``seat`` resolves the uncovered space's icons; players with nothing to resolve are
    skipped. When every player is done, what waits beneath goes on (Standard Game: the end of
    the turn; Variable Length Game: the Dream card that paused the game)."""
    piece = state.cathedral_built[-1]
    while seat >= 0:
        if is_king(state, seat):  # solo: the King climbs instead of resolving the icons
            state = _king_climb(state, piece, ev)
        else:
            steps = _player_steps(state, seat, piece, ev)
            if steps:
                return _push(state, seat, piece, steps)
        seat = _next_seat(state, seat)
    return state


def _next_seat(state: GameState, seat: int) -> int:
    """The next player to resolve the icons, or -1: in the Standard Game each player clockwise
    from the active player; in the Variable Length Game the placing player only."""
    if state.config.length == "variable":
        return -1
    seat = (seat + 1) % len(state.players)
    return -1 if seat == state.active else seat


def _player_steps(state: GameState, seat: int, piece: str, ev: Events) -> list[tuple[cs.Step, bool]]:
    out = []
    for icon in icons(state, piece):
        if icon not in ICON_STEPS:
            continue
        step, must = ICON_STEPS[icon]
        ev.append(E.CathedralIcon(seat=seat, icon=icon))
        out.append((step, must))
    return out


def _push(state: GameState, seat: int, piece: str, steps: list[tuple[cs.Step, bool]]) -> GameState:
    """One frame per icon, first icon on top; the last one to resolve hands on to the next player."""
    for i, (step, must) in reversed(list(enumerate(steps))):
        then = CathedralNext(seat=seat) if i == len(steps) - 1 else None
        state = push_effect(state, seat, (step,), "cathedral", card=piece, must=must, then=then)
    return state


def next_player(state: GameState, then: CathedralNext, ev: Events) -> GameState:
    seat = _next_seat(state, then.seat)
    return state if seat < 0 else _walk(state, seat, ev)


def _king_climb(state: GameState, piece: str, ev: Events) -> GameState:
    """SOLO BUILDING THE CATHEDRAL / KING'S TURN 8: whoever built, you resolve the icons as usual
    while the King climbs its lower marker (regardless of the icons); the Stage II space's steps
    are performed instead (by ``place``)."""
    if "stage2" in icons(state, piece):
        return state
    return king_climbs(state, "piece", ev, piece=piece)


# ---------------------------------------------------------------------------------------------
# Divergent Paths: the Reward tile


def _reward(state: GameState, seat: int, piece: str, ev: Events) -> GameState:
    """REWARD TILES: the player who placed the piece takes the vacated space's tile and resolves
    its ability, in the Standard Game too (not every player); then the tile is discarded."""
    state, tile = divergent.take_tile(state, piece)
    if not tile:
        return divergent.tiles_out(state, ev)
    ev.append(E.RewardTile(seat=seat, tile=tile, piece=piece))
    steps = divergent.reward_steps(state, tile)
    return push_effect(state, seat, steps, "reward", card=tile, then=RewardDone())


def reward_done(state: GameState, then: RewardDone, ev: Events) -> GameState:
    """Once the tile is resolved and discarded, the next colour of tiles may come out."""
    return divergent.tiles_out(state, ev)


# ---------------------------------------------------------------------------------------------
# Solo: the King builds


def king_builds(state: GameState, card: str, ev: Events) -> GameState:
    """COMPLETING THE KING'S DREAMS 2 (Variable Length Game): at once, even when the King reacts
    on your turn, the King builds a piece for the Cathedral icon of ``card``. Without Divergent
    Paths: the next piece. With them you choose it: at once when a single piece is available,
    else as soon as the King's current step lets the game ask you (a frame on the stack)."""
    seat = king(state).seat
    if not state.cathedral_track:
        ev.append(E.NoCathedralPiece(seat=seat))
        return state
    ev.append(E.KingBuilds(seat=seat, card=card))
    if not state.config.divergent_paths:
        return _king_place(state, state.cathedral_track[0], ev)
    if pieces_pending(state) or len(divergent.available(state)) > 1:  # in the order of the Dreams
        return under_pieces(
            state, Frame(seat=seat, steps=(), source=KING_PIECE, card=card, then=KingPieceDue(card=card))
        )
    return _king_takes(state, card, ev)


def king_piece_due(state: GameState, then: KingPieceDue, ev: Events) -> GameState:
    return _king_takes(state, then.card, ev)


def _king_takes(state: GameState, card: str, ev: Events) -> GameState:
    """Divergent Paths: a single available piece is taken at once; else you choose."""
    seat = king(state).seat
    pieces = divergent.available(state)
    if not pieces:  # the Cathedral is complete
        ev.append(E.NoCathedralPiece(seat=seat))
        return state
    if len(pieces) == 1:
        return _king_place(state, pieces[0], ev)
    return replace(state, work=KingPieceWork(seat=human(state), card=card))


def _choose_king_piece(state: GameState, w: KingPieceWork, action: TakePiece, ev: Events) -> GameState:
    """SOLO KING'S TURN 8 / COMPLETING THE KING'S DREAMS 2: the piece you chose for the King."""
    return _king_place(replace(state, work=None), action.piece, ev)


KING_CATHEDRAL_PIECE = Rule(KingPieceWork, (TakePiece,), _piece_options, _piece_refusal, _choose_king_piece)


def _king_place(state: GameState, piece: str, ev: Events) -> GameState:
    """The King's piece is put in as anyone's; no icon or Reward tile is resolved. Without
    Divergent Paths it climbs (the Stage II space's steps instead). With them it keeps the tile
    (1 VP at the end) and climbs only if the piece is below the highest level available."""
    seat = king(state).seat
    lower = state.config.divergent_paths and divergent.below_highest(state, piece, divergent.available(state))
    state = _put(state, seat, piece, ev)
    if not state.config.divergent_paths:
        return _king_climb(state, piece, ev)
    state, tile = divergent.take_tile(state, piece)
    if tile:
        pl = state.players[seat]
        state = set_player(state, replace(pl, tiles=pl.tiles + (tile,)))
        ev.append(E.KingKeepsTile(seat=seat, tile=tile, piece=piece, tiles=len(pl.tiles) + 1))
    if lower:
        state = king_climbs(state, "below_highest", ev, piece=piece)
    return divergent.tiles_out(state, ev)


# ---------------------------------------------------------------------------------------------
# The Stage II space


def stage_two_space(state: GameState, ev: Events) -> GameState:
    """The Stage II space, once: (1) Stage 2 Developments into the deck, not the discard pile;
    (2) Stage 2 Dreams into the deck, then the offer too, and a new offer of 3; (3) the Stage 1
    Conflict cards leave the game (kept in the removed pile), the Stage 2 deck replaces them."""
    d = state.decks
    development, r = rng.shuffle(state.rng, d.development + d.development2)
    dreams, r = rng.shuffle(r, d.dream + d.dream2)
    dreams, r = rng.shuffle(r, dreams + d.dream_offer)
    offer, dreams = dreams[:DREAM_OFFER], dreams[DREAM_OFFER:]
    decks = replace(d, development=development, development2=(), dream=dreams, dream2=(), dream_offer=offer)
    ev.append(E.Stage2Development(count=len(d.development2)))
    ev.append(E.Stage2Dreams(count=len(d.dream2)))
    ev.append(E.DreamOffer(cards=offer))
    return replace(state, rng=r, decks=_exchange_conflicts(decks, ev))


def _exchange_conflicts(d: Decks, ev: Events) -> Decks:
    """A pack without Stage 2 Conflict cards (ours, until they are written) keeps its Stage 1
    deck rather than leave conflicts without a card for the Shadows (docs/rules-decisions.md)."""
    if not d.conflict2:
        ev.append(E.Stage2ConflictsMissing(count=len(d.conflict)))
        return d
    ev.append(E.Stage2Conflicts(count=len(d.conflict2), removed=len(d.conflict)))
    return replace(d, conflict=d.conflict2, conflict2=(), removed=d.removed + d.conflict)
