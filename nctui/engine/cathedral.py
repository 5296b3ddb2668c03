"""THE NIGHTMARE CATHEDRAL: BUILDING THE CATHEDRAL (Standard Game), the CATHEDRAL TRACK ICONS,
the Stage II space, and the end of Stage 1 when the last piece is placed.

Once every player has had a first turn, after all reactions, the active player moves the next
piece of the track into the Cathedral space; then, from the active player clockwise, each
player resolves the icons of the space just uncovered, one frame per icon.
"""

from __future__ import annotations

from msgspec.structs import replace

from ..content import schema as cs
from . import board, rng, turn
from .effects import implemented, push_effect, resolve
from .events import Event
from .registry import CONTINUATIONS, continues
from .state import DREAM_OFFER, Decks, GameState
from .work import Frame

Events = list[Event]

# Standard Game meaning of each icon resolved by every player: (step, must resolve it).
ICON_STEPS: dict[str, tuple[cs.Step, bool]] = {
    "produce": (cs.Produce(amount=1, where="controlled"), False),  # may Produce 1 in an area you control
    "shaper_mp": (cs.Move(mp=1, shaper_only=True), False),  # 1 MP, only to move your Shaper
    "climb": (cs.Climb(free=1), False),  # may climb 1 step
    "shadow": (cs.AddShadows(count=1), True),  # must add 1 Shadow, respecting Unit Limits
}
# "players_2_3" and "players_2" only set up the Variable Length Game: ignored here;
# "stage2" is resolved once, not per player.


def builds_now(state: GameState) -> bool:
    """From the end of the turn in which the last player takes its first turn (turns go round
    the table in order, so that is turn number N for N players) while pieces remain."""
    return state.turn_number >= len(state.players) and bool(state.cathedral_track)


def icons(state: GameState, piece: str) -> tuple[str, ...]:
    return next(sp.icons for sp in board.pack(state).tracks.cathedral if sp.piece == piece)


@continues("build_cathedral")
def build(state: GameState, seat: int, ev: Events) -> GameState:
    """Called by turn.next_reaction once every reaction is done (``seat``: the active player)."""
    if not builds_now(state):
        return turn.end_turn(state, ev)
    piece, rest = state.cathedral_track[0], state.cathedral_track[1:]
    state = replace(state, cathedral_track=rest, cathedral_built=state.cathedral_built + (piece,))
    ev.append(Event(kind="cathedral_piece", seat=seat, detail=piece, value=len(state.cathedral_built)))
    if "stage2" in icons(state, piece):
        state = stage_two_space(state, ev)
    if not rest:
        state = replace(state, stage=2)
        ev.append(Event(kind="cathedral_complete", value=2))
        complete = CONTINUATIONS.get("complete_cathedral")  # Stage 2: the sideboard flips, Nightmares enter
        if complete is not None:
            state = complete(state, ev)
    return _walk(state, seat, ev)


def _walk(state: GameState, seat: int, ev: Events) -> GameState:
    """``seat`` resolves the uncovered space's icons; players with nothing to resolve are skipped."""
    piece = state.cathedral_built[-1]
    while True:
        steps = _player_steps(state, seat, piece, ev)
        if steps:
            return resolve(_push(state, seat, piece, steps), ev)
        seat = (seat + 1) % len(state.players)
        if seat == state.active:
            return turn.end_turn(state, ev)


def _player_steps(state: GameState, seat: int, piece: str, ev: Events) -> list[tuple[cs.Step, bool]]:
    out = []
    for icon in icons(state, piece):
        if icon not in ICON_STEPS:
            continue
        step, must = ICON_STEPS[icon]
        if implemented((step,)):
            ev.append(Event(kind="cathedral_icon", seat=seat, detail=icon))
            out.append((step, must))
        else:  # a step still to be written elsewhere: say so rather than fake it
            ev.append(Event(kind="cathedral_icon_skipped", seat=seat, detail=icon))
    return out


def _push(state: GameState, seat: int, piece: str, steps: list[tuple[cs.Step, bool]]) -> GameState:
    """One frame per icon, first icon on top; the last one to resolve hands on to the next player."""
    for i, (step, must) in reversed(list(enumerate(steps))):
        then = "cathedral_next" if i == len(steps) - 1 else ""
        state = push_effect(state, seat, (step,), "cathedral", card=piece, must=must, then=then)
    return state


@continues("cathedral_next")
def _next_player(state: GameState, frame: Frame, ev: Events) -> GameState:
    seat = (frame.seat + 1) % len(state.players)
    if seat == state.active:
        return turn.end_turn(state, ev)
    return _walk(state, seat, ev)


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
    ev.append(Event(kind="stage2_development", value=len(d.development2)))
    ev.append(Event(kind="stage2_dreams", value=len(d.dream2)))
    ev.append(Event(kind="dream_offer", cards=offer))
    return replace(state, rng=r, decks=_exchange_conflicts(decks, ev))


def _exchange_conflicts(d: Decks, ev: Events) -> Decks:
    """A pack without Stage 2 Conflict cards (ours, until they are written) keeps its Stage 1
    deck rather than leave conflicts without a card for the Shadows (docs/rules-decisions.md)."""
    if not d.conflict2:
        ev.append(Event(kind="stage2_conflicts_missing", value=len(d.conflict)))
        return d
    ev.append(Event(kind="stage2_conflicts", value=len(d.conflict2), detail=str(len(d.conflict))))
    return replace(d, conflict=d.conflict2, conflict2=(), removed=d.removed + d.conflict)
