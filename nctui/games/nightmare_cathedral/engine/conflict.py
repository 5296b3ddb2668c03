"""CONFLICTS 1-12, with MANEUVER ("resolve X conflicts"), REWARDS AND CONSEQUENCES and LIMBO.

A conflict is fought between 2 sides (a seat, or the Shadows) in one area. Choosing it is the
decision of a ``ConflictWork``; the conflict being fought is a ``Fight``, carried by the Work of
its stage (who plays first, cards, a tie, the retreat, the Victory), and every automatic part
(reveal, damage, winner, stranded units, the Defeat effect) runs in ``_advance`` between them.
In solo, ``king_combat`` plays the King's part.
"""

from __future__ import annotations

from itertools import combinations
from typing import Literal

from msgspec.structs import replace

from ..content import schema as cs
from . import board, cards, events as E, king_combat as kc, units
from .actions import Action, BreakTie, Done, PlayCombatCard, PlaysFirst, RetreatTo, StartConflict, TakeVictory
from .effects import push, push_effect
from .errors import IllegalAction
from .events import Event
from .movement import follower_fits
from .ops import draw_development, remove_one, set_player
from .rules import Refusal, Rule, legal, with_stop
from .state import BASIC_COMBAT, AreaState, GameState
from .work import (
    CardToBottom,
    CombatCardsWork,
    ConflictWork,
    Fight,
    Frame,
    KingShieldWork,
    PlaysFirstWork,
    RetreatWork,
    TieWork,
    VictoryWork,
    Work,
)

Events = list[Event]
SHADOWS = board.SHADOWS_SIDE
SECTION = "CONFLICTS"
Stage = Literal["order", "cards", "tie", "retreat", "victory"]


# ---------------------------------------------------------------------------------------------
# The rules, as queries


def sides_in(a: AreaState) -> tuple[int, ...]:
    return board.sides_in(a)


def conflict_options(state: GameState, w: ConflictWork) -> tuple[StartConflict, ...]:
    """MANEUVER / CONFLICTS 1: any area with 2 or more sides, any 2 of them (the resolving
    player need not be one of them)."""
    return tuple(
        StartConflict(area=area_id, sides=pair)
        for area_id in _conflict_areas(state, w)
        if _two_sides_or_more(a := board.area(state, area_id))
        for pair in combinations(board.sides_in(a), 2)
    )


def _two_sides_or_more(a: AreaState) -> bool:
    """Whether ``board.sides_in`` may name 2 sides: not when the area holds no Shadows, no Fort
    and the Followers of one seat at most (asked of every area after every step)."""
    return bool(a.shadows) or a.fort_owner >= 0 or a.followers.count(0) < len(a.followers) - 1


def _conflict_areas(state: GameState, w: ConflictWork) -> tuple[str, ...]:
    """The areas the effect allows (``w.area``: the one area an effect names)."""
    if w.area:
        return (w.area,) if w.area in board.area_index(state) else ()
    return board.areas_matching(state, w.seat, w.where)


def card_limit(state: GameState, area_id: str, seat: int) -> int:
    """CONFLICTS 2: up to 1 card per Follower in the conflict and 1 for a Fort (any level)."""
    a = board.area(state, area_id)
    return a.followers[seat] + (1 if a.fort_owner == seat else 0)


def icons(state: GameState, f: Fight, i: int, shadows: int) -> cs.Combat:
    """CONFLICTS 4: the Attacks and Defences of a side; the Shadows use the line of the
    Conflict card for the number of Shadows in the conflict."""
    if f.sides[i] == SHADOWS:
        lines = _conflict_card(state, f).lines
        return max((ln for ln in lines if ln.shadows <= shadows), key=lambda ln: ln.shadows).combat
    played = [kc.combat(state, c) for c in f.plays[i]]
    return cs.Combat(attack=sum(c.attack for c in played), defense=sum(c.defense for c in played))


def winner_of(a: AreaState, sides: tuple[int, int]) -> tuple[int | None, Literal["fortress", "fort", "units", "tie"]]:
    """CONFLICTS 6-8 and FORTRESS: (winner, why); winner None for an unbreakable tie."""
    if a.fortress in sides:
        return a.fortress, "fortress"
    if a.fort_owner in sides:  # only one Fort per area: at most one side has Fort levels
        return a.fort_owner, "fort"
    n = [units.count(a, s) for s in sides]
    if n[0] != n[1]:
        return sides[n.index(max(n))], "units"
    return None, "tie"


def loser_of(f: Fight) -> int:
    return f.sides[1] if f.winner == f.sides[0] else f.sides[0]


def retreat_fits(state: GameState, side: int, source: str, to: str) -> bool:
    """UNIT LIMIT in the destination (a Follower counted as gone from the conflict area)."""
    return follower_fits(state, side, source, to) if side >= 0 else units.room(state, side, to) > 0


def may_retreat_to(state: GameState, side: int, source: str, to: str) -> bool:
    """CONFLICTS 9: an adjacent area the side controls, where it has presence, or that is
    empty, within the Unit Limit."""
    a = board.area(state, to)
    presence = board.present(a, side) if side >= 0 else a.shadows > 0
    welcome = board.controller(a) == side or presence or board.is_empty(a)
    return welcome and retreat_fits(state, side, source, to)


def retreat_areas(state: GameState, f: Fight) -> tuple[str, ...]:
    side = loser_of(f)
    return tuple(b for b in board.adjacent(state, f.area) if may_retreat_to(state, side, f.area, b))


def _player(f: Fight) -> int:
    """The player facing the Shadows."""
    return f.sides[0] if f.sides[1] == SHADOWS else f.sides[1]


def _conflict_card(state: GameState, f: Fight) -> cs.ConflictCard:
    return cards.conflict(state, f.shadow_card)


def _unknown_area(state: GameState, area_id: str) -> Refusal:
    if area_id not in board.area_index(state):
        return IllegalAction(f"{area_id!r} is not an area in play", rule="areas in play", section="KEY CONCEPTS")
    return None


# ---------------------------------------------------------------------------------------------
# Step 1: resolve X conflicts


def start_conflicts(state: GameState, frame: Frame, step: cs.ResolveConflicts, ev: Events) -> GameState:
    return _next_conflict(state, ConflictWork(seat=frame.seat, left=step.count, where=step.where, area=step.area), ev)


def _next_conflict(state: GameState, w: ConflictWork, ev: Events) -> GameState:
    """MANEUVER: repeat until X conflicts are resolved or none is possible."""
    if w.left > 0 and not conflict_options(state, w):
        ev.append(E.NoConflictPossible(seat=w.seat, left=w.left))
        w = replace(w, left=0)
    return replace(state, work=w)


def _start_options(state: GameState, w: ConflictWork) -> tuple[Action, ...]:
    if w.left <= 0:
        return ()
    return conflict_options(state, w)


def _start_refusal(state: GameState, w: ConflictWork, action: StartConflict) -> Refusal:
    if (err := _unknown_area(state, action.area)) is not None:
        return err
    if w.area and action.area != w.area:
        return IllegalAction(
            f"this effect resolves a conflict only in {w.area}", rule="the effect's area", section="REWARD TILES"
        )
    if action.area not in _conflict_areas(state, w):
        return IllegalAction(
            f"this effect resolves conflicts only in {w.where} areas", rule="the effect's areas", section="MANEUVER"
        )
    here = board.sides_in(board.area(state, action.area))
    if len(set(action.sides)) < 2 or not set(action.sides) <= set(here):
        return IllegalAction(
            f"a conflict is between 2 different sides with units and/or Forts in {action.area} "
            f"(there: {here}; -2 is the Shadows)",
            rule="2 opposing sides",
            section=f"{SECTION} 1",
        )
    canonical = tuple(sorted(action.sides, key=_rank))
    if tuple(action.sides) != canonical:
        return IllegalAction(
            f"name the sides in seat order, the Shadows (-2) last: {canonical}",
            rule="2 opposing sides",
            section=f"{SECTION} 1",
        )
    return None


def _rank(side: int) -> int:
    return 99 if side == SHADOWS else side


def _start(state: GameState, w: ConflictWork, action: StartConflict, ev: Events) -> GameState:
    return begin(state, w, action.area, action.sides, ev)


START_CONFLICT = Rule(ConflictWork, (StartConflict,), _start_options, _start_refusal, _start)


def begin(state: GameState, w: ConflictWork, area: str, sides: tuple[int, int], ev: Events) -> GameState:
    """Step 1; step 2's order: against the Shadows the player plays first; between players the
    controller plays second; with no controller among them the active player chooses. ``w``:
    the conflicts step it belongs to (the King's loop and Nightmares resolve one: ``left`` 1)."""
    a, b = sides
    here = board.area(state, area)
    forts = tuple(here.fort_levels if here.fort_owner == side else 0 for side in (a, b))
    counts = (units.count(here, a), units.count(here, b))
    ev.append(E.ConflictStarted(seat=w.seat, area=area, sides=(a, b), units=counts, forts=forts))
    f = Fight(resolver=w.seat, left=w.left, where=w.where, area=area, sides=(a, b), only_in=w.area)
    if kc.involves_king(state, (a, b)):  # SOLO: the King's cards come from its shuffled hand
        state, f = kc.king_plays(state, f, ev)
        return _advance(state, f, "cards", ev)
    controller = board.controller(board.area(state, area))
    if b == SHADOWS:
        return _advance(state, replace(f, order=(a,)), "cards", ev)
    if controller in (a, b):
        return _advance(state, replace(f, order=(b if controller == a else a, controller)), "cards", ev)
    return _advance(state, f, "order", ev)


def _order_options(state: GameState, w: PlaysFirstWork) -> tuple[Action, ...]:
    return legal(state, w, (PlaysFirst(seat=s) for s in w.fight.sides), _order_refusal)


def _order_refusal(state: GameState, w: PlaysFirstWork, action: PlaysFirst) -> Refusal:
    if action.seat in w.fight.sides:
        return None
    return IllegalAction(
        f"seat {action.seat} is not a side of this conflict", rule="who plays first", section=f"{SECTION} 2"
    )


def _plays_first(state: GameState, w: PlaysFirstWork, action: PlaysFirst, ev: Events) -> GameState:
    f = w.fight
    other = f.sides[1] if action.seat == f.sides[0] else f.sides[0]
    ev.append(E.PlaysFirstChosen(seat=state.active, area=f.area, first=action.seat))
    return _advance(state, replace(f, order=(action.seat, other)), "cards", ev)


PLAYS_FIRST = Rule(PlaysFirstWork, (PlaysFirst,), _order_options, _order_refusal, _plays_first)


# ---------------------------------------------------------------------------------------------
# Step 2: cards face down


def _cards_options(state: GameState, w: CombatCardsWork) -> tuple[Action, ...]:
    hand = dict.fromkeys(state.players[w.seat].hand)
    played = len(w.fight.plays[w.fight.sides.index(w.seat)])
    return with_stop(legal(state, w, (PlayCombatCard(card=c) for c in hand), _cards_refusal), played > 0)


def _cards_refusal(state: GameState, w: CombatCardsWork, action: PlayCombatCard | Done) -> Refusal:
    if isinstance(action, Done):
        return IllegalAction(
            "a conflict is resolved to its end; a player plays at least 1 card",
            rule="at least 1 card",
            section=f"{SECTION} 2",
        )
    if action.card in state.players[w.seat].hand:
        return None
    return IllegalAction(
        f"{action.card} is not in your hand: play a Development card or your Basic Combat card",
        rule="cards played in a conflict",
        section=f"{SECTION} 2",
    )


def _play_card(state: GameState, w: CombatCardsWork, action: PlayCombatCard | Done, ev: Events) -> GameState:
    f = w.fight
    seat = w.seat
    i = f.sides.index(seat)
    if isinstance(action, Done):
        ev.append(E.CombatCardsDone(seat=seat, area=f.area, count=len(f.plays[i])))
        return _advance(state, replace(f, order=f.order[1:]), "cards", ev)
    pl = state.players[seat]
    state = set_player(state, replace(pl, hand=remove_one(pl.hand, action.card)))
    plays = (f.plays[0] + (action.card,), f.plays[1]) if i == 0 else (f.plays[0], f.plays[1] + (action.card,))
    ev.append(E.CombatCardPlayed(seat=seat, area=f.area, card=action.card, face_up=f.revealed))
    f = replace(f, plays=plays)
    if len(plays[i]) >= card_limit(state, f.area, seat):  # never more than allowed
        f = replace(f, order=f.order[1:])
    return _advance(state, f, "cards", ev)


PLAY_COMBAT_CARD = Rule(CombatCardsWork, (PlayCombatCard, Done), _cards_options, _cards_refusal, _play_card)


# ---------------------------------------------------------------------------------------------
# Steps 3-8: reveal, damage, winner


def _fight(state: GameState, f: Fight, ev: Events) -> tuple[GameState, Fight, Stage]:
    if SHADOWS in f.sides:  # step 3: a single Conflict card is drawn for the Shadows
        deck = state.decks.conflict
        state = replace(state, decks=replace(state.decks, conflict=deck[1:]))
        f = replace(f, shadow_card=deck[0])
    f = replace(f, revealed=True)
    shadows = board.area(state, f.area).shadows
    got = [icons(state, f, i, shadows) for i in (0, 1)]
    for i, side in enumerate(f.sides):
        played = (f.shadow_card,) if side == SHADOWS else f.plays[i]
        ev.append(E.ConflictReveal(seat=side, area=f.area, cards=played, attack=got[i].attack, defense=got[i].defense))
    for i, side in enumerate(f.sides):  # each Defence cancels 1 Attack
        state = take_damage(state, f.area, side, max(0, got[1 - i].attack - got[i].defense), ev)
    winner, why = winner_of(board.area(state, f.area), f.sides)
    if winner is None:
        return state, f, "tie"
    state, f = _won(state, f, winner, why, ev)
    return state, f, "retreat"


def take_damage(state: GameState, area_id: str, side: int, damage: int, ev: Events) -> GameState:
    """Step 5: 1 unit per damage, then Fort levels (FORTRESS: never the last one); excess is
    ignored. LIMBO: eliminated Followers go to Limbo; Shadows and Fort levels to supplies."""
    ev.append(E.ConflictDamage(seat=side, area=area_id, damage=damage))
    a = board.area(state, area_id)
    killed = min(damage, units.count(a, side))
    if killed:
        state = _eliminate(state, side, area_id, killed, ev)
    if side < 0 or a.fort_owner != side:
        return state
    lost = min(damage - killed, a.fort_levels - (1 if a.fortress == side else 0))
    for _ in range(lost):
        state = units.remove_fort_level(state, area_id)
    if lost:
        ev.append(E.FortLevelsLost(seat=side, area=area_id, count=lost))
    return state


def _eliminate(state: GameState, side: int, area_id: str, n: int, ev: Events) -> GameState:
    to = "limbo" if side >= 0 and not kc.is_king(state, side) else "supply"  # SOLO: the King has no Limbo
    ev.append(E.UnitsEliminated(seat=side, area=area_id, count=n, to_limbo=to == "limbo"))
    return units.remove(state, side, area_id, n, to=to)


def _won(
    state: GameState, f: Fight, winner: int, why: Literal["fortress", "fort", "units", "tie"], ev: Events
) -> tuple[GameState, Fight]:
    ev.append(E.ConflictWon(seat=winner, area=f.area, why=why))
    if winner >= 0:  # Dream conditions count conflicts won this turn
        pl = state.players[winner]
        state = set_player(state, replace(pl, conflicts_won=pl.conflicts_won + 1))
    return state, replace(f, winner=winner)


def _tie_options(state: GameState, w: TieWork) -> tuple[Action, ...]:
    return legal(state, w, (BreakTie(winner=s) for s in w.fight.sides), _tie_refusal)


def _tie_refusal(state: GameState, w: TieWork, action: BreakTie) -> Refusal:
    if action.winner in w.fight.sides:
        return None
    return IllegalAction(
        f"side {action.winner} is not one of the tied sides", rule="unbreakable tie", section=f"{SECTION} 8"
    )


def _break_tie(state: GameState, w: TieWork, action: BreakTie, ev: Events) -> GameState:
    """Step 8: the active player breaks an otherwise unbreakable tie."""
    ev.append(E.TieBroken(seat=state.active, area=w.fight.area, winner=action.winner))
    state, f = _won(state, w.fight, action.winner, "tie", ev)
    return _advance(state, f, "retreat", ev)


BREAK_TIE = Rule(TieWork, (BreakTie,), _tie_options, _tie_refusal, _break_tie)


# ---------------------------------------------------------------------------------------------
# Steps 9-10: retreat


def _retreat_options(state: GameState, w: RetreatWork) -> tuple[Action, ...]:
    return legal(state, w, (RetreatTo(area=b) for b in board.adjacent(state, w.fight.area)), _retreat_refusal)


def _retreat_refusal(state: GameState, w: RetreatWork, action: RetreatTo) -> Refusal:
    f = w.fight
    if (err := _unknown_area(state, action.area)) is not None:
        return err
    rule, section = "retreat", f"{SECTION} 9"
    if action.area not in board.adjacent(state, f.area):
        return IllegalAction(f"{action.area} is not adjacent to {f.area}", rule=rule, section=section)
    if not retreat_fits(state, loser_of(f), f.area, action.area):
        return IllegalAction(f"{action.area} is full: retreat respects the Unit Limit", rule=rule, section=section)
    if not may_retreat_to(state, loser_of(f), f.area, action.area):
        return IllegalAction(
            f"{action.area} is controlled by another side and the retreating side has no presence "
            "there: units retreat only to areas their side controls, is present in, or that are "
            "empty",
            rule=rule,
            section=section,
        )
    return None


def _retreat(state: GameState, w: RetreatWork, action: RetreatTo, ev: Events) -> GameState:
    f = w.fight
    side = loser_of(f)
    state = units.move(state, side, f.area, action.area)
    ev.append(E.Retreated(seat=side, source=f.area, to=action.area))
    return _advance(state, f, "retreat", ev)


RETREAT = Rule(RetreatWork, (RetreatTo,), _retreat_options, _retreat_refusal, _retreat)


def _strand(state: GameState, f: Fight, ev: Events) -> GameState:
    """Step 10: losing units that may not be moved away are eliminated."""
    side = loser_of(f)
    left = units.count(board.area(state, f.area), side)
    if left and not retreat_areas(state, f):
        state = _eliminate(state, side, f.area, left, ev)
    return state


# ---------------------------------------------------------------------------------------------
# Steps 11-12: Victory or Defeat, put the cards away


def _victory_options(state: GameState, w: VictoryWork) -> tuple[Action, ...]:
    return (TakeVictory(take=True), TakeVictory(take=False))


def _victory_refusal(state: GameState, w: VictoryWork, action: TakeVictory) -> Refusal:
    return None


def _victory(state: GameState, w: VictoryWork, action: TakeVictory, ev: Events) -> GameState:
    """REWARDS AND CONSEQUENCES: resolve Victory as completely as possible, or draw 1
    Development card instead."""
    f = w.fight
    seat = _player(f)
    if not action.take:
        ev.append(E.VictoryDrawInstead(seat=seat, card=f.shadow_card))
        return _finish(draw_development(state, seat, 1, ev), f, None, ev)
    ev.append(E.VictoryResolved(seat=seat, card=f.shadow_card))
    steps = _conflict_card(state, f).victory.steps
    return _finish(state, f, _effect_frame(f, seat, steps, "victory"), ev)


TAKE_VICTORY = Rule(VictoryWork, (TakeVictory,), _victory_options, _victory_refusal, _victory)


def _effect_frame(f: Fight, seat: int, steps: tuple[cs.Step, ...], source: Literal["victory", "defeat"]) -> Frame:
    """Step 11: the effect is resolved as completely as possible, then the card goes to the
    bottom of the deck; step 12 comes after it (the frame holds the Conflict card and the cards
    played meanwhile)."""
    card = f.shadow_card
    return Frame(
        seat=seat,
        steps=steps,
        source=source,
        card=card,
        must=True,
        then=CardToBottom(card=card, sides=f.sides, plays=f.plays),
    )


def card_to_bottom(state: GameState, then: CardToBottom, ev: Events) -> GameState:
    """Steps 11 (the card to the bottom) and 12, once the Victory or Defeat effect is resolved."""
    return _discard_played(_to_bottom(state, then.card, ev), then.sides, then.plays, ev)


def _to_bottom(state: GameState, card: str, ev: Events) -> GameState:
    ev.append(E.ConflictCardBottom(card=card))
    return replace(state, decks=replace(state.decks, conflict=state.decks.conflict + (card,)))


def _defeat(state: GameState, f: Fight, ev: Events) -> GameState:
    seat = _player(f)
    ev.append(E.DefeatSuffered(seat=seat, card=f.shadow_card))
    steps = _conflict_card(state, f).defeat.steps
    return _finish(state, f, _effect_frame(f, seat, steps, "defeat"), ev)


def _put_away(state: GameState, f: Fight, ev: Events) -> GameState:
    """Steps 11-12 with no effect left to resolve: the Conflict card goes to the bottom of its
    deck, then the played cards are put away."""
    if f.shadow_card:
        state = _to_bottom(state, f.shadow_card, ev)
    return _discard_played(state, f.sides, f.plays, ev)


def _discard_played(
    state: GameState, sides: tuple[int, int], plays: tuple[tuple[str, ...], tuple[str, ...]], ev: Events
) -> GameState:
    """Step 12: played cards are discarded, except Basic Combat cards, which return to their
    owners' hands."""
    decks = state.decks
    for side, played in zip(sides, plays):
        if kc.is_king(state, side):
            state, played = kc.put_away_king(state, played, ev)
        gone = tuple(c for c in played if c != BASIC_COMBAT)
        if len(gone) < len(played):
            pl = state.players[side]
            state = set_player(state, replace(pl, hand=pl.hand + (BASIC_COMBAT,)))
            ev.append(E.BasicCombatReturned(seat=side))
        if gone:
            decks = replace(decks, development_discard=decks.development_discard + gone)
            ev.append(E.CombatCardsDiscarded(seat=side, cards=gone))
    return replace(state, decks=decks)


def _finish(state: GameState, f: Fight, effect: Frame | None, ev: Events) -> GameState:
    """The conflict is over; the next one follows, after the Victory or Defeat effect if any
    (the effect comes before step 12: its frame puts the played cards away once resolved)."""
    if effect is None:
        state = _put_away(state, f, ev)
    fresh = ConflictWork(seat=f.resolver, left=f.left - 1, where=f.where, area=f.only_in)
    shield = kc.shield_taker(state, f)
    if effect is None and shield is None:
        return _next_conflict(state, fresh, ev)
    state = replace(state, work=None)
    if fresh.left > 0:
        state = push_effect(
            state,
            f.resolver,
            (cs.ResolveConflicts(count=fresh.left, where=f.where, area=f.only_in),),
            "conflicts",
            must=True,
        )
    if effect is None:  # SOLO: you may discard a card as the King's Shield returns
        return replace(state, work=KingShieldWork(seat=shield if shield is not None else -1))
    return push(state, effect)


# ---------------------------------------------------------------------------------------------
# Between decisions


def _advance(state: GameState, f: Fight, stage: Stage, ev: Events) -> GameState:
    """Run the automatic parts of the conflict until someone must decide."""
    while True:
        if stage == "cards" and f.order and not state.players[f.order[0]].hand:
            f = replace(f, order=f.order[1:])  # nothing to play (the Basic Combat card is always there)
        elif stage == "cards" and not f.order:
            state, f, stage = _fight(state, f, ev)
        elif stage == "retreat":
            state = _strand(state, f, ev)
            loser = loser_of(f)
            if units.count(board.area(state, f.area), loser):
                if not kc.king_retreats(state, loser):
                    break
                state = kc.king_retreat(state, loser, f.area, retreat_areas(state, f), ev)
                continue
            stage = "victory"
        elif stage == "tie" and kc.is_king(state, state.active):  # SOLO: the King decides nothing freely
            state, f = _won(state, f, kc.tie_winner(state, f.sides), "tie", ev)
            stage = "retreat"
        elif stage == "victory" and SHADOWS in f.sides and kc.is_king(state, _player(f)):
            return _finish(kc.king_reward(state, f.winner, f.shadow_card, ev), f, None, ev)
        elif stage == "victory" and SHADOWS not in f.sides:
            return _finish(state, f, None, ev)
        elif stage == "victory" and f.winner == SHADOWS:
            return _defeat(state, f, ev)
        else:
            break
    return replace(state, work=_stage_work(state, f, stage))


def _stage_work(state: GameState, f: Fight, stage: Stage) -> Work:
    """The decision a stage waits for, from the seat that makes it."""
    if stage == "order":
        return PlaysFirstWork(seat=state.active, fight=f)
    if stage == "cards":
        return CombatCardsWork(seat=f.order[0], fight=f)
    if stage == "tie":
        return TieWork(seat=state.active, fight=f)
    if stage == "retreat":
        loser = loser_of(f)
        return RetreatWork(seat=loser if loser >= 0 else state.active, fight=f)
    return VictoryWork(seat=_player(f), fight=f)
