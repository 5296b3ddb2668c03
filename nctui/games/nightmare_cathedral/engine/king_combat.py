"""The King of Horrors in a conflict (solo rulebook: RESOLVING CONFLICTS AGAINST THE KING).

``conflict`` calls these where its steps meet the King: the King's cards are drawn at random
from its hand, it never decides anything itself, its Followers are eliminated to its supply, and
its Basic Combat and Shield come back (you may discard a card to climb when the Shield does).
The strength comparisons here also tell which conflicts the King desires (``king_conflicts``).
"""

from __future__ import annotations

from itertools import combinations

from msgspec.structs import replace

from nctui.platform import rng

from ..content import schema as cs
from . import board, cards, events as E, nightmares, units
from .actions import Action, DiscardDevelopment, Done
from .effects import push_effect
from .errors import IllegalAction
from .events import Event
from .king import king, king_combat_cards, king_draws, removal_area, remove_followers, select_area, set_king
from .ops import remove_one, set_player
from .rules import Refusal, Rule, legal, with_stop
from .state import BASIC_COMBAT, GameState
from .work import Fight, KingShieldWork

Events = list[Event]
SHADOWS = board.SHADOWS_SIDE
SOLO = "SOLO: RESOLVING CONFLICTS AGAINST THE KING"


def involves_king(state: GameState, sides: tuple[int, ...]) -> bool:
    return state.king is not None and state.king.seat in sides


def is_king(state: GameState, side: int) -> bool:
    return state.king is not None and side == state.king.seat


def you(state: GameState) -> int:
    return 0 if king(state).seat != 0 else 1


# ---------------------------------------------------------------------------------------------
# Playing cards


def king_plays(state: GameState, f: Fight, ev: Events) -> tuple[GameState, Fight]:
    """Steps 1-2: shuffle the King's hand and draw 1 card per Follower it has in the area, +1 for
    a Fort (all of them if fewer). Against you, you play after seeing them if you control the
    area (or the Shadows do and you are active), otherwise before they are revealed."""
    k = king(state)
    a = board.area(state, f.area)
    need = a.followers[k.seat] + (1 if a.fort_owner == k.seat else 0)
    hand, r = rng.shuffle(state.rng, k.hand)
    drawn, hand = hand[:need], hand[need:]
    state = replace(set_king(state, replace(k, hand=hand)), rng=r)
    i = f.sides.index(k.seat)
    plays = (drawn, ()) if i == 0 else ((), drawn)
    other = f.sides[1 - i]
    if other == SHADOWS:
        return state, replace(f, plays=plays, order=())
    controller = board.controller(a)  # nobody controlling is read as the Shadows controlling
    after = controller == other or (controller != k.seat and state.active == other)
    f = replace(f, plays=plays, order=(other,), revealed=after)
    ev.append(
        E.KingCombatCards(seat=k.seat, area=f.area, count=len(drawn), cards=drawn if after else (), revealed=after)
    )
    return state, f


def combat(state: GameState, card_id: str) -> cs.Combat:
    """A combat card's icons: the King's own cards live in ``king_combat``, not among the cards."""
    own = {c.id: c for c in board.pack(state).cards.king_combat}
    return own[card_id].combat if card_id in own else cards.combat(state, card_id)


def _hand(state: GameState, side: int) -> tuple[str, ...]:
    """The hand a side fights with: the King's own hand or a player's."""
    return king(state).hand if is_king(state, side) else state.players[side].hand


def strength(state: GameState, area_id: str, side: int) -> int:
    """Combat strength: the Shadows in the area; a player's (or the King's) Followers there +1 for
    a Fort, or the cards in hand, whichever is lower."""
    a = board.area(state, area_id)
    if side == SHADOWS:
        return a.shadows
    return min(a.followers[side] + (1 if a.fort_owner == side else 0), len(_hand(state, side)))


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


def possible(state: GameState, area_id: str) -> tuple[tuple[int, int], ...]:
    """CONFLICTS 1: every pair of sides that may fight in the area."""
    return tuple(combinations(board.sides_in(board.area(state, area_id)), 2))


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
    to, state = select_area(state, tied, "retreat", ev)
    ev.append(E.Retreated(seat=loser, source=source, to=to))
    return units.move(state, loser, source, to)


def tie_winner(state: GameState, sides: tuple[int, int]) -> int:
    """CONFLICTS 8 on the King's turn: it breaks a tie for itself, or (not in it) for the Shadows."""
    k = king(state).seat
    return k if k in sides else SHADOWS


def king_reward(state: GameState, winner: int, card: str, ev: Events) -> GameState:
    """REWARDS AND CONSEQUENCES (CONFLICTS 11) for the King against the Shadows: on Victory it
    takes the alternative (1 Development card, kept as THE KING DISSENTS does); on Defeat it
    resolves the card's Defeat effect by its own criteria (``king_defeat``)."""
    k = king(state).seat
    if winner == k:
        ev.append(E.KingVictoryCard(seat=k))
        return king_draws(state, 1, ev)
    return king_defeat(state, card, ev)


def king_defeat(state: GameState, card: str, ev: Events) -> GameState:
    """A Conflict card's Defeat effect for the King (docs/rules-decisions.md): Followers are
    removed by REMOVING FOLLOWERS (never its last one in an area); its own Followers are devoured
    from the area those criteria pick (Stage 2 only); Shadows go to the areas the effect names,
    one area (or each Shadow, when spread) drawn by the Area Selection cards."""
    seat = king(state).seat
    ev.append(E.DefeatSuffered(seat=seat, card=card))
    for step in cards.conflict(state, card).defeat.steps:
        if isinstance(step, cs.RemoveFollowers):
            state = remove_followers(state, step.count, ev, within=board.areas_matching(state, seat, step.where))
        elif isinstance(step, cs.Devour) and state.stage >= 2:
            for _ in range(step.count):
                where = board.areas_matching(state, seat, step.where)
                area, state = removal_area(state, ev, within=where)
                if not area:
                    ev.append(E.KingKeepsLast(seat=seat, count=1))
                    break
                state = nightmares.devour(state, seat, area, seat, ev)
        elif isinstance(step, cs.AddShadows):
            state = _king_shadows(state, step, ev)
        else:
            ev.append(E.KingEffectSkipped(seat=seat, step=str(type(step).__struct_config__.tag)))
    return state


def _king_shadows(state: GameState, step: cs.AddShadows, ev: Events) -> GameState:
    seat = king(state).seat
    area = ""
    for _ in range(step.count):
        if state.shadows <= 0:
            break
        if not area or step.spread:
            pool = tuple(a for a in board.areas_matching(state, seat, step.where) if units.room(state, SHADOWS, a) > 0)
            if not pool:
                break
            area, state = select_area(state, pool, "shadow", ev)
        elif units.room(state, SHADOWS, area) <= 0:
            break
        state = units.place(state, SHADOWS, area, 1)
        ev.append(E.ShadowAdded(seat=seat, area=area))
    return state


def put_away_king(state: GameState, played: tuple[str, ...], ev: Events) -> tuple[GameState, tuple[str, ...]]:
    """Step 5: its Basic Combat and Shield go back to its hand; returns the cards to discard."""
    own = king_combat_cards(state)
    back = tuple(c for c in played if c in own)
    k = king(state)
    if back:
        state = set_king(state, replace(k, hand=k.hand + back))
        ev.append(E.KingCombatReturned(seat=k.seat, cards=back))
    return state, tuple(c for c in played if c not in own)


def shield_taker(state: GameState, f: Fight) -> int | None:
    """Step 5: when the Shield returns after a conflict against you, you may discard a card from
    your hand to climb 1 step: your seat if so."""
    if not involves_king(state, f.sides) or SHADOWS in f.sides:
        return None
    own = king_combat_cards(state)
    played = f.plays[f.sides.index(king(state).seat)]
    seat = next(s for s in f.sides if not is_king(state, s))
    return seat if len(own) > 1 and own[1] in played and _discardable(state, seat) else None


def _discardable(state: GameState, seat: int) -> tuple[str, ...]:
    """Your Development cards (the Basic Combat card is never discarded)."""
    return tuple(c for c in dict.fromkeys(state.players[seat].hand) if c != BASIC_COMBAT)


def _shield_options(state: GameState, w: KingShieldWork) -> tuple[Action, ...]:
    return with_stop(
        legal(state, w, (DiscardDevelopment(card=c) for c in _discardable(state, w.seat)), _shield_refusal), True
    )


def _shield_refusal(state: GameState, w: KingShieldWork, action: DiscardDevelopment) -> Refusal:
    if action.card != BASIC_COMBAT and action.card in state.players[w.seat].hand:
        return None
    why = "the Basic Combat card is never discarded" if action.card == BASIC_COMBAT else "it is not in your hand"
    return IllegalAction(f"you cannot discard {action.card}: {why}", rule="the King's Shield returns", section=SOLO)


def _shield(state: GameState, w: KingShieldWork, action: DiscardDevelopment | Done, ev: Events) -> GameState:
    if isinstance(action, Done):
        return replace(state, work=None)
    pl = state.players[w.seat]
    state = set_player(state, replace(pl, hand=remove_one(pl.hand, action.card)))
    state = replace(
        state,
        work=None,
        decks=replace(state.decks, development_discard=state.decks.development_discard + (action.card,)),
    )
    ev.append(E.KingShieldDiscard(seat=w.seat, card=action.card))
    return push_effect(state, w.seat, (cs.Climb(free=1),), "king_shield", must=True)


KING_SHIELD = Rule(KingShieldWork, (DiscardDevelopment,), _shield_options, _shield_refusal, _shield)
