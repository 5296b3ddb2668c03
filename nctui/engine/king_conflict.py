"""Conflicts involving the King of Horrors (solo rulebook: RESOLVING CONFLICTS AGAINST THE KING,
MANEUVER's conflict loop).

``conflict.py`` calls the helpers here from its solo branches (``state.king`` set and a side is
the King's seat): the King's cards are drawn at random from its hand, it never decides anything
itself, its Followers are eliminated to its supply, and its Basic Combat and Shield come back.
"""

from __future__ import annotations

from msgspec.structs import replace

from ..content import schema as cs
from . import board, cards, rng, units
from .actions import DiscardDevelopment, Done, StartConflict
from .effects import push, push_effect, resolve
from .errors import IllegalAction
from .events import Event, plural
from .king_turn import king, king_combat_cards, king_draws, place_on_dream, select_area, set_king
from .ops import remove_one, set_player
from .registry import continues, decides, explains, handles
from .state import BASIC_COMBAT, Decision, GameState
from .work import ConflictWork, Frame, KingLoopProgress, KingShieldWork

Events = list[Event]
SHADOWS = board.SHADOWS_SIDE
SOLO = "SOLO: RESOLVING CONFLICTS AGAINST THE KING"
MAX_CONFLICTS = 3  # MANEUVER 5: 3 conflicts resolved or 3 cards drawn
LOOP_DONE = "king_conflict_done"


def king_seat(state: GameState) -> int | None:
    return state.king.seat if state.king is not None else None


def involves_king(state: GameState, sides: tuple[int, ...]) -> bool:
    return state.king is not None and state.king.seat in sides


def is_king(state: GameState, side: int) -> bool:
    return state.king is not None and side == state.king.seat


# ---------------------------------------------------------------------------------------------
# Playing cards


def king_plays(state: GameState, w: ConflictWork, ev: Events) -> tuple[GameState, ConflictWork]:
    """Steps 1-2: shuffle the King's hand and draw 1 card per Follower it has in the area, +1 for
    a Fort (all of them if fewer). Against you, you play after seeing them if you control the
    area (or the Shadows do and you are active), otherwise before they are revealed."""
    k = king(state)
    a = board.area(state, w.area)
    need = a.followers[k.seat] + (1 if a.fort_owner == k.seat else 0)
    hand, r = rng.shuffle(state.rng, k.hand)
    drawn, hand = hand[:need], hand[need:]
    state = replace(set_king(state, replace(k, hand=hand)), rng=r)
    i = w.sides.index(k.seat)
    plays = tuple(drawn if j == i else () for j in range(2))
    other = w.sides[1 - i]
    if other == SHADOWS:
        return state, replace(w, plays=plays, order=())
    controller = board.controller(a)  # nobody controlling is read as the Shadows controlling
    after = controller == other or (controller != k.seat and state.active == other)
    w = replace(w, plays=plays, order=(other,), revealed=after)
    ev.append(Event(kind="king_combat_cards", seat=k.seat, area=w.area, value=len(drawn),
                    cards=drawn if after else (), detail=(
                        f"the King reveals {plural(len(drawn), 'combat card')}: you play yours after seeing them" if after
                        else f"the King draws {plural(len(drawn), 'combat card')} face down: you play yours first")))
    return state, w


def combat(state: GameState, card_id: str) -> cs.Combat:
    """A combat card's icons: the King's own cards live in ``king_combat``, not among the cards."""
    own = {c.id: c for c in board.pack(state).cards.king_combat}
    return own[card_id].combat if card_id in own else cards.combat(state, card_id)


def king_hand(state: GameState, seat: int) -> tuple[str, ...]:
    """The hand a side fights with: the King's own hand or a player's."""
    return king(state).hand if is_king(state, seat) else state.players[seat].hand


def strength(state: GameState, area_id: str, side: int) -> int:
    """Combat strength: the Shadows in the area; a player's (or the King's) Followers there +1 for
    a Fort, or the cards in hand, whichever is lower."""
    a = board.area(state, area_id)
    if side == SHADOWS:
        return a.shadows
    return min(a.followers[side] + (1 if a.fort_owner == side else 0), len(king_hand(state, side)))


def margin(state: GameState, area_id: str, sides: tuple[int, int]) -> int:
    """How much the conflict is in the King's favour: its strength (or the Shadows' when it is not
    in the conflict) minus its opponent's (yours)."""
    k = king(state).seat
    mine = k if k in sides else SHADOWS
    other = next(s for s in sides if s != mine)
    return strength(state, area_id, mine) - strength(state, area_id, other)


def desirable(state: GameState, area_id: str, sides: tuple[int, int]) -> bool:
    """The King finds a conflict desirable if its strength (the Shadows' when it is not in it)
    is at least its opponent's; DIFFICULTY MODIFIERS (easier): at least 1 more."""
    if king(state).seat not in sides and SHADOWS not in sides:
        return False
    need = 1 if "easier_desirable" in state.config.difficulty else 0
    return margin(state, area_id, sides) >= need


# ---------------------------------------------------------------------------------------------
# After the fight


def king_retreats(state: GameState, loser: int) -> bool:
    """Who moves a losing unit the King decides for: its own, and the Shadows' on its turn (the
    active player retreats the Shadows)."""
    return is_king(state, loser) or (loser == SHADOWS and is_king(state, state.active))


def king_retreat(state: GameState, loser: int, source: str, options: tuple[str, ...], ev: Events) -> GameState:
    """Step 4: the King retreats to the area with the fewest of its Followers (the Shadows, on its
    turn: the fewest Shadows); ties by the Area Selection cards."""
    fewest = min(units.count(board.area(state, b), loser) for b in options)
    tied = tuple(b for b in options if units.count(board.area(state, b), loser) == fewest)
    to, state = select_area(state, tied, "for the retreat", ev)
    ev.append(Event(kind="retreat", seat=loser, area=to, detail=source, value=1))
    return units.move(state, loser, source, to)


def tie_winner(state: GameState, sides: tuple[int, int]) -> int:
    """CONFLICTS 8 on the King's turn: it breaks a tie for itself, or (not in it) for the Shadows."""
    k = king(state).seat
    return k if k in sides else SHADOWS


def king_reward(state: GameState, winner: int, ev: Events) -> GameState:
    """REWARDS AND CONSEQUENCES for the King against the Shadows: on Victory it takes the
    alternative (1 Development card, kept as THE KING DISSENTS does); Defeat effects need choices
    it cannot make and are not resolved."""
    k = king(state).seat
    if winner == k:
        ev.append(Event(kind="king_victory_card", seat=k, detail="the King wins against the Shadows and draws a card"))
        return king_draws(state, 1, ev)
    ev.append(Event(kind="king_defeat_skipped", seat=k, detail="the King loses against the Shadows: no Defeat effect"))
    return state


def put_away_king(state: GameState, played: tuple[str, ...], ev: Events) -> tuple[GameState, tuple[str, ...]]:
    """Step 5: its Basic Combat and Shield go back to its hand; returns the cards to discard."""
    own = king_combat_cards(state)
    back = tuple(c for c in played if c in own)
    k = king(state)
    if back:
        state = set_king(state, replace(k, hand=k.hand + back))
        ev.append(Event(kind="king_combat_returned", seat=k.seat, cards=back,
                        detail="the King's own combat card(s) return to its hand"))
    return state, tuple(c for c in played if c not in own)


def shield_taker(state: GameState, w: ConflictWork) -> int | None:
    """Step 5: when the Shield returns after a conflict against you, you may discard a card from
    your hand to climb 1 step: your seat if so."""
    if not involves_king(state, w.sides) or SHADOWS in w.sides:
        return None
    own = king_combat_cards(state)
    played = w.plays[w.sides.index(king(state).seat)]
    you = next(s for s in w.sides if not is_king(state, s))
    return you if len(own) > 1 and own[1] in played and _discardable(state, you) else None


def _discardable(state: GameState, seat: int) -> tuple[str, ...]:
    """Your Development cards (the Basic Combat card is never discarded)."""
    return tuple(c for c in dict.fromkeys(state.players[seat].hand) if c != BASIC_COMBAT)


@decides(KingShieldWork)
def decide_shield(state: GameState) -> Decision:
    w: KingShieldWork = state.work  # type: ignore[assignment]
    opts = tuple(DiscardDevelopment(card=c) for c in _discardable(state, w.seat))
    return Decision(seat=w.seat, kind="king_shield_discard", options=opts + (Done(),),
                    prompt="The King's Shield returns to its hand: you may discard a card to climb 1 step")


@handles(DiscardDevelopment, KingShieldWork)
def handle_shield_discard(state: GameState, action: DiscardDevelopment, ev: Events) -> GameState:
    seat = state.work.seat  # type: ignore[union-attr]
    pl = state.players[seat]
    state = set_player(state, replace(pl, hand=remove_one(pl.hand, action.card)))
    state = replace(state, work=None, decks=replace(state.decks, development_discard=state.decks.development_discard
                                                    + (action.card,)))
    ev.append(Event(kind="king_shield_discard", seat=seat, cards=(action.card,),
                    detail="you discard a card as the King's Shield returns, to climb 1 step"))
    return resolve(push_effect(state, seat, (cs.Climb(free=1),), "king_shield", must=True), ev)


@handles(Done, KingShieldWork)
def handle_shield_pass(state: GameState, action: Done, ev: Events) -> GameState:
    return resolve(replace(state, work=None), ev)


@explains(DiscardDevelopment, KingShieldWork)
def explain_shield_discard(state: GameState, action: DiscardDevelopment) -> IllegalAction:
    why = "the Basic Combat card is never discarded" if action.card == BASIC_COMBAT else "it is not in your hand"
    return IllegalAction(f"you cannot discard {action.card}: {why}", rule="the King's Shield returns", section=SOLO)


# ---------------------------------------------------------------------------------------------
# MANEUVER: the King's conflict loop


def possible(state: GameState, area_id: str) -> tuple[tuple[int, int], ...]:
    from .conflict import sides_in
    from itertools import combinations
    return tuple(combinations(sides_in(board.area(state, area_id)), 2))


def wanted(state: GameState, area_id: str, skip: tuple = ()) -> tuple[tuple[int, int], ...]:
    """MANEUVER 3: its desired conflicts in the area, those involving you first, then the most
    in its favour."""
    you = _you(state)
    pairs = [p for p in possible(state, area_id) if p not in skip and desirable(state, area_id, p)]
    return tuple(sorted(pairs, key=lambda p: (you not in p, -margin(state, area_id, p))))


def _you(state: GameState) -> int:
    return 0 if king(state).seat != 0 else 1


@continues("king_conflicts")
def king_conflicts(state: GameState, *args) -> GameState:
    """MANEUVER 1-5, called as ``(state, ev)`` or as a frame continuation ``(state, frame, ev)``."""
    ev: Events = args[-1]
    return _loop(state, KingLoopProgress(), ev)


def _loop(state: GameState, p: KingLoopProgress, ev: Events) -> GameState:
    seat = king(state).seat
    if p.resolved >= MAX_CONFLICTS:
        return state
    if p.area and (pairs := wanted(state, p.area, p.fought)):
        return _fight(state, p, pairs[0], ev)
    cards = tuple(c for c in _area_cards(state) if c not in p.drawn and possible(state, c))
    if len(p.drawn) >= MAX_CONFLICTS or not cards:
        ev.append(Event(kind="king_conflicts_end", seat=seat, value=p.resolved,
                        detail=f"the King's conflicts end after {plural(p.resolved, 'conflict')}"))
        return state
    deck, r = rng.shuffle(state.rng, cards)
    state = replace(state, rng=r)
    area = deck[0]
    ev.append(Event(kind="king_conflict_card", seat=seat, area=area,
                    detail=f"the King draws the Area Selection card {area}"))
    p = replace(p, drawn=p.drawn + (area,), area=area, fought=())
    if not wanted(state, area):
        ev.append(Event(kind="king_conflict_skipped", seat=seat, area=area,
                        detail=f"no conflict in {area} is desirable for the King: the card is set aside"))
    return _loop(state, p, ev)


def _area_cards(state: GameState) -> tuple[str, ...]:
    from .king_turn import area_selection_cards
    return tuple(c for c in area_selection_cards(state) if c in board.area_index(state))


def _fight(state: GameState, p: KingLoopProgress, sides: tuple[int, int], ev: Events) -> GameState:
    from .conflict import handle_start
    seat = king(state).seat
    wins = (state.players[seat].conflicts_won, state.players[_you(state)].conflicts_won)
    p = replace(p, sides=sides, wins=wins, fought=p.fought + (sides,))
    frame = Frame(seat=seat, steps=(), source="king_conflicts", progress=p, then=LOOP_DONE)
    state = replace(push(state, frame), work=ConflictWork(seat=seat, left=1))
    return handle_start(state, StartConflict(area=p.area, sides=sides), ev)


@continues(LOOP_DONE)
def _conflict_done(state: GameState, frame: Frame, ev: Events) -> GameState:
    """MANEUVER: a Cultist on a Dream for each conflict the King wins, or not involving it, you lose."""
    p = frame.progress
    assert isinstance(p, KingLoopProgress)
    seat = king(state).seat
    you = _you(state)
    king_won = state.players[seat].conflicts_won > p.wins[0]
    you_lost = seat not in p.sides and state.players[you].conflicts_won == p.wins[1]
    if king_won or you_lost:
        state = place_on_dream(state, ev)
    return _loop(state, replace(p, resolved=p.resolved + 1), ev)
