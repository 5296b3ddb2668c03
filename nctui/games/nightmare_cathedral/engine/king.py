"""The King of Horrors' pieces and the small rules every King module shares (solo rulebook):
its accessors, the ring of the board (SETUP 4), the Area Selection cards, the Horror Die, its
climb (BUILDING THE CATHEDRAL, KING'S TURN 8), its draws (THE KING DISSENTS) and the difficulty
modifiers. The King's turn (``king_turn``), actions, Dreams, conflicts and Nightmare commands
build on this module; it builds on none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from msgspec.structs import replace

from nctui.platform import rng

from ..content import geometry
from . import board, cards, events as E, nightmares, units
from .events import AreaPurpose, ClimbReason, Event, TuckReason
from .king_state import HORROR_DIE, KING_COMBAT, KingState
from .ops import draw_development, set_player
from .state import AreaState, GameState
from .work import Frame, KingRitualBonuses

Events = list[Event]
SOLO = "SOLO"  # rulebook sections of the King's rules are those of the solo rulebook
KING_PIECE: Final = "king_piece"  # the source of a frame holding a piece you choose for the King


def king(state: GameState) -> KingState:
    if state.king is None:
        raise ValueError("not a solo game: there is no King of Horrors")
    return state.king


def set_king(state: GameState, k: KingState) -> GameState:
    return replace(state, king=k)


def is_king(state: GameState, seat: int) -> bool:
    return state.king is not None and state.king.seat == seat


def human(state: GameState) -> int:
    """The seat that makes the choices the King's rules leave to "you"."""
    return 1 - king(state).seat


def modifier(state: GameState, option: str) -> bool:
    """Whether a difficulty modifier (``config.DIFFICULTY_OPTIONS``) is in play."""
    return option in state.config.difficulty


def bump(values: tuple[int, ...], i: int, by: int) -> tuple[int, ...]:
    return values[:i] + (values[i] + by,) + values[i + 1 :]


def rondel(state: GameState) -> tuple[str, ...]:
    return board.pack(state).matrix.rondel


# ---------------------------------------------------------------------------------------------
# The board's ring and the Area Selection cards


def ring(state: GameState) -> tuple[str, ...]:
    """Clockwise: the outer areas in play (``geometry.ring``, docs/rules-decisions.md)."""
    return geometry.ring(board.side_map(state), board.area_index(state))


def clockwise(state: GameState, area: str, steps: int = 1) -> str:
    r = ring(state)
    return r[(r.index(area) + steps) % len(r)]


def next_corner_clockwise(state: GameState, area: str) -> str:
    r = ring(state)
    i = r.index(area)
    return next(r[(i + k) % len(r)] for k in range(1, len(r) + 1) if board.is_corner(state, r[(i + k) % len(r)]))


def area_selection_cards(state: GameState) -> tuple[str, ...]:
    """The 12 Area Selection cards (cards.toml ``area_selection``; without it, one per area)."""
    return board.pack(state).cards.area_selection or tuple(a.id for a in state.areas)


def king_combat_cards(state: GameState) -> tuple[str, ...]:
    """Its 2 own combat cards (cards.toml ``king_combat``; without it, their usual ids)."""
    return tuple(c.id for c in board.pack(state).cards.king_combat) or KING_COMBAT


def select_area(
    state: GameState, among: tuple[str, ...], why: AreaPurpose, ev: Events, *, source: str = ""
) -> tuple[str, GameState]:
    """Use the Area Selection cards to determine one of ``among`` at random: draw until one of
    them comes up; cards drawn go to the set-aside pile, which is shuffled into a new deck when
    the deck runs out. ``why``: what the area is chosen for (``source``: the area concerned)."""
    if len(among) == 1:
        return among[0], state
    k = king(state)
    deck, aside, r = k.area_deck, k.area_aside, state.rng
    while True:
        if not deck:
            deck, r = rng.shuffle(r, aside)
            aside = ()
        card, deck = deck[0], deck[1:]
        aside += (card,)
        if card in among:
            break
    ev.append(E.KingAreaCard(seat=k.seat, area=card, purpose=why, source=source))
    return card, replace(set_king(state, replace(k, area_deck=deck, area_aside=aside)), rng=r)


def roll_horror_die(state: GameState, ev: Events) -> tuple[int, GameState]:
    value, r = rng.choice(state.rng, HORROR_DIE)
    ev.append(E.KingHorrorDie(seat=king(state).seat, value=value))
    return value, replace(state, rng=r)


# ---------------------------------------------------------------------------------------------
# Frames the King's steps wait in


def pieces_pending(state: GameState) -> bool:
    """Divergent Paths: a piece the King builds waits for your choice on the frame stack."""
    return any(f.source == KING_PIECE for f in state.frames)


def under_pieces(state: GameState, frame: Frame) -> GameState:
    """Push ``frame`` beneath the King's pieces on top of the stack, so they are built first."""
    top = len(state.frames)
    while top and state.frames[top - 1].source == KING_PIECE:
        top -= 1
    return replace(state, frames=state.frames[:top] + (frame,) + state.frames[top:])


# ---------------------------------------------------------------------------------------------
# Its Ritual markers, its cards


def king_climbs(
    state: GameState, why: ClimbReason, ev: Events, *, steps: int | None = None, piece: str = ""
) -> GameState:
    """BUILDING THE CATHEDRAL / KING'S TURN 8: the King climbs its lower marker (the one further
    back; tied: the first) 1 step, 2 with the harder modifier (``steps`` overrides), ignoring
    costs, up to the last space; the King's own bonuses of the spaces reached follow in a frame."""
    seat = king(state).seat
    pl = state.players[seat]
    if steps is None:
        steps = 2 if modifier(state, "harder_climb") else 1
    m = 0 if pl.ritual[0] <= pl.ritual[1] else 1
    last = len(board.pack(state).tracks.ritual)
    to = min(pl.ritual[m] + steps, last)
    ritual = (to, pl.ritual[1]) if m == 0 else (pl.ritual[0], to)
    best = (max(pl.ritual_best[0], ritual[0]), max(pl.ritual_best[1], ritual[1]))
    state = set_player(state, replace(pl, ritual=ritual, ritual_best=best))
    ev.append(E.KingClimbs(seat=seat, steps=to - pl.ritual[m], to=to, why=why, piece=piece))
    # its Ritual bonuses apply wherever it reaches a special or ritual-only space (the solo text on
    # Nightmares: "If the King reaches a [special] space due to ... a Nightmare ability, it does not
    # command another Nightmare"); they resolve as soon as the engine resolves frames
    track = board.pack(state).tracks.ritual
    kinds = tuple(
        track[p - 1].kind for p in range(pl.ritual[m] + 1, to + 1) if track[p - 1].kind in ("special", "ritual")
    )
    if kinds:
        then = KingRitualBonuses(kinds=kinds, command=why != "nightmare")
        state = under_pieces(state, Frame(seat=seat, steps=(), source="king_hook", then=then))
    return state


def tuck(state: GameState, slot: int, card: str, ev: Events, *, why: TuckReason) -> GameState:
    """Tuck ``card`` under the King's Action card ``slot`` (its Power counts it from now on)."""
    k = king(state)
    tucked = k.tucked[:slot] + (k.tucked[slot] + (card,),) + k.tucked[slot + 1 :]
    ev.append(E.KingTucks(seat=k.seat, card=card, action=rondel(state)[slot], why=why))
    return set_king(state, replace(k, tucked=tucked))


def draw(state: GameState, n: int) -> tuple[tuple[str, ...], GameState]:
    """Draw ``n`` Development cards for the King (its PlayerState hand stays untouched)."""
    seat = king(state).seat
    before = state.players[seat].hand
    state = draw_development(state, seat, n, [])
    drawn = state.players[seat].hand[len(before) :]
    return drawn, set_player(state, replace(state.players[seat], hand=before))


def king_draws(state: GameState, count: int, ev: Events) -> GameState:
    """THE KING DISSENTS: an Upgrade is tucked below its matching Action; any other card is
    shuffled into the King's hand."""
    seat = king(state).seat
    before = state.players[seat].hand
    drawn_ev: Events = []
    state = draw_development(state, seat, count, drawn_ev)
    ev.extend(e for e in drawn_ev if e.kind != "drew_development")
    drawn = state.players[seat].hand[len(before) :]
    state = set_player(state, replace(state.players[seat], hand=before))
    for card in drawn:
        state = _keep_drawn(state, card, ev)
    return state


def _keep_drawn(state: GameState, card: str, ev: Events) -> GameState:
    k = king(state)
    if cards.is_upgrade(state, card):
        slot = rondel(state).index(cards.upgrade_action(state, card))
        return tuck(state, slot, card, ev, why="dissent")
    hand, r = rng.shuffle(state.rng, k.hand + (card,))
    ev.append(E.KingHandCard(seat=k.seat, count=1))
    return replace(set_king(state, replace(k, hand=hand)), rng=r)


def devour_three(state: GameState, ev: Events) -> GameState:
    """Harder game: when the Devoured side-board comes into play the King adds 3 Followers from
    its supply to it; short of them, it devours the rest from the board (REMOVING FOLLOWERS
    order: where it has most Followers, then its Fortress area, then an Area Selection card).
    Like any devoured unit they count toward the Nightmares' limit: reaching it triggers the end."""
    seat = king(state).seat
    pl = state.players[seat]
    before = pl.devoured
    from_supply = min(3, pl.supply)
    state = set_player(state, replace(pl, supply=pl.supply - from_supply, devoured=pl.devoured + from_supply))
    for _ in range(3 - from_supply):
        mine = {a.id: a.followers[seat] for a in state.areas if a.followers[seat] > 0}
        if not mine:
            break
        most = max(mine.values())
        tied = tuple(a for a, n in mine.items() if n == most)
        fortress = tuple(a for a in tied if board.area(state, a).fortress == seat)
        area, state = select_area(state, fortress or tied, "devour_three", ev)
        state = units.remove(state, seat, area)
        pl = state.players[seat]
        state = set_player(state, replace(pl, supply=pl.supply - 1, devoured=pl.devoured + 1))
    n = state.players[seat].devoured - before
    ev.append(E.KingDevours(seat=seat, count=n, from_supply=from_supply))
    return nightmares.check_threshold(state, ev)  # "Once a limit ... is reached, the game end will trigger"


# ---------------------------------------------------------------------------------------------
# REMOVING FOLLOWERS (also the Defeat of a conflict against the Shadows)


def best_areas(areas: list[AreaState], keys: Sequence[Callable[[AreaState], Any]]) -> list[AreaState]:
    """The areas with the smallest value of each key in turn."""
    for key in keys:
        best = min(key(a) for a in areas)
        areas = [a for a in areas if key(a) == best]
    return areas


def pick_area(
    state: GameState, areas: list[AreaState], keys: Sequence[Callable[[AreaState], Any]], why: AreaPurpose, ev: Events
) -> tuple[str, GameState]:
    """The best area by ``keys``; the Area Selection cards decide among the areas still tied."""
    return select_area(state, tuple(a.id for a in best_areas(areas, keys)), why, ev)


def removal_area(
    state: GameState, ev: Events, *, besides: str = "", within: tuple[str, ...] | None = None
) -> tuple[str, GameState]:
    """REMOVING FOLLOWERS, for one Follower: more of its Followers than Fort levels > most of its
    Followers plus Fort levels > its Fortress' area > random. Never its last Follower in an area
    (docs/rules-decisions.md): "" when every area it is in holds just 1. ``within``: only these
    areas (a Defeat's "from an area where you have a Fort")."""
    seat = king(state).seat
    pool = [a for a in removable(state, besides) if within is None or a.id in within]
    if not pool:
        return "", state
    return pick_area(
        state,
        pool,
        [
            lambda a: a.followers[seat] <= a.fort_levels,
            lambda a: -(a.followers[seat] + a.fort_levels),
            lambda a: a.fortress != seat,
        ],
        "remove",
        ev,
    )


def removable(state: GameState, besides: str = "") -> list[AreaState]:
    """The areas it may remove a Follower from: not its last one there, nor from ``besides``."""
    seat = king(state).seat
    return [a for a in state.areas if a.followers[seat] >= 2 and a.id != besides]


def remove_followers(
    state: GameState, n: int, ev: Events, *, besides: str = "", within: tuple[str, ...] | None = None
) -> GameState:
    """Remove ``n`` Followers to its supply, or as many as the last-Follower exception allows;
    the rest of the action resolves as if all were removed."""
    seat = king(state).seat
    for i in range(n):
        area, state = removal_area(state, ev, besides=besides, within=within)
        if not area:
            ev.append(E.KingKeepsLast(seat=seat, count=n - i))
            break
        state = units.remove(state, seat, area)
        ev.append(E.KingRemoves(seat=seat, area=area))
    return state
