"""CONFLICTS 1-12, with MANEUVER ("resolve X conflicts"), REWARDS AND CONSEQUENCES and LIMBO.

A conflict is fought between 2 sides (a seat, or the Shadows) in one area. Its progress lives
in ``ConflictWork``: the stages follow the rulebook's steps, and every automatic part (reveal,
damage, winner, stranded units, the Defeat effect) runs in ``_advance`` between decisions.
"""

from __future__ import annotations

from itertools import combinations

from msgspec.structs import replace

from ..content import schema as cs
from . import board, cards, king_conflict as kc, units
from .actions import BreakTie, Done, PlayCombatCard, PlaysFirst, RetreatTo, StartConflict, TakeVictory
from .effects import implemented, push, push_effect, resolve
from .errors import IllegalAction
from .events import Event
from .movement import follower_fits
from .ops import draw_development, remove_one, set_player
from .registry import continues, decides, explains, handles, starts
from .state import BASIC_COMBAT, AreaState, Decision, GameState
from .work import ConflictWork, Frame, KingShieldWork

Events = list[Event]
SHADOWS = board.SHADOWS_SIDE
SECTION = "CONFLICTS"
CARD_TO_BOTTOM = "conflict_card_bottom"  # the continuation of a Victory or Defeat frame


# ---------------------------------------------------------------------------------------------
# The rules, as queries


def sides_in(a: AreaState) -> tuple[int, ...]:
    """The sides with units and/or Forts in an area: seats in order, then the Shadows."""
    seats = tuple(s for s in range(len(a.followers)) if board.present(a, s))
    return seats + ((SHADOWS,) if a.shadows else ())


def conflict_options(state: GameState, w: ConflictWork) -> tuple[StartConflict, ...]:
    """MANEUVER / CONFLICTS 1: any area with 2 or more sides, any 2 of them (the resolving
    player need not be one of them)."""
    return tuple(StartConflict(area=area_id, sides=pair)
                 for area_id in _conflict_areas(state, w)
                 for pair in combinations(sides_in(board.area(state, area_id)), 2))


def _conflict_areas(state: GameState, w: ConflictWork) -> tuple[str, ...]:
    """The areas the effect allows; while choosing, ``w.area`` is the one area an effect names."""
    if w.stage == "choose" and w.area:
        return (w.area,) if w.area in board.area_index(state) else ()
    return board.areas_matching(state, w.seat, w.where)


def card_limit(state: GameState, area_id: str, seat: int) -> int:
    """CONFLICTS 2: up to 1 card per Follower in the conflict and 1 for a Fort (any level)."""
    a = board.area(state, area_id)
    return a.followers[seat] + (1 if a.fort_owner == seat else 0)


def icons(state: GameState, w: ConflictWork, i: int, shadows: int) -> cs.Combat:
    """CONFLICTS 4: the Attacks and Defences of a side; the Shadows use the line of the
    Conflict card for the number of Shadows in the conflict."""
    if w.sides[i] == SHADOWS:
        lines = cards.card(state, w.shadow_card).lines
        return max((ln for ln in lines if ln.shadows <= shadows), key=lambda ln: ln.shadows).combat
    played = [kc.combat(state, c) for c in w.plays[i]]
    return cs.Combat(attack=sum(c.attack for c in played), defense=sum(c.defense for c in played))


def winner_of(a: AreaState, sides: tuple[int, int]) -> tuple[int | None, str]:
    """CONFLICTS 6-8 and FORTRESS: (winner, why); winner None for an unbreakable tie."""
    if a.fortress in sides:
        return a.fortress, "fortress"
    if a.fort_owner in sides:  # only one Fort per area: at most one side has Fort levels
        return a.fort_owner, "fort"
    n = [units.count(a, s) for s in sides]
    if n[0] != n[1]:
        return sides[n.index(max(n))], "units"
    return None, "tie"


def loser_of(w: ConflictWork) -> int:
    return w.sides[1] if w.winner == w.sides[0] else w.sides[0]


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


def retreat_areas(state: GameState, w: ConflictWork) -> tuple[str, ...]:
    side = loser_of(w)
    return tuple(b for b in board.adjacent(state, w.area) if may_retreat_to(state, side, w.area, b))


def _player(w: ConflictWork) -> int:
    """The player facing the Shadows."""
    return w.sides[0] if w.sides[1] == SHADOWS else w.sides[1]


def _conflict_card(state: GameState, w: ConflictWork) -> cs.ConflictCard:
    return cards.card(state, w.shadow_card)  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------------
# Step 1: resolve X conflicts


@starts(cs.ResolveConflicts)
def start_conflicts(state: GameState, frame: Frame, step: cs.ResolveConflicts, ev: Events) -> GameState:
    return _next_conflict(state, ConflictWork(seat=frame.seat, left=step.count, where=step.where, area=step.area), ev)


def _next_conflict(state: GameState, w: ConflictWork, ev: Events) -> GameState:
    """MANEUVER: repeat until X conflicts are resolved or none is possible."""
    if w.left > 0 and not conflict_options(state, w):
        ev.append(Event(kind="no_conflict_possible", seat=w.seat, value=w.left))
        w = replace(w, left=0)
    return replace(state, work=w)


@handles(StartConflict)
def handle_start(state: GameState, action: StartConflict, ev: Events) -> GameState:
    """Step 1; step 2's order: against the Shadows the player plays first; between players the
    controller plays second; with no controller among them the active player chooses."""
    w: ConflictWork = state.work  # type: ignore[assignment]
    a, b = action.sides
    ev.append(Event(kind="conflict_start", seat=w.seat, area=action.area, detail=f"{a},{b}"))
    w = replace(w, area=action.area, sides=(a, b), stage="cards", plays=((), ()), revealed=False, winner=-1)
    if kc.involves_king(state, (a, b)):  # SOLO: the King's cards come from its shuffled hand
        return _advance(*kc.king_plays(state, w, ev), ev)
    controller = board.controller(board.area(state, action.area))
    if b == SHADOWS:
        w = replace(w, order=(a,))
    elif controller in (a, b):
        w = replace(w, order=(b if controller == a else a, controller))
    else:
        w = replace(w, stage="order")
    return _advance(state, w, ev)


@handles(PlaysFirst)
def handle_plays_first(state: GameState, action: PlaysFirst, ev: Events) -> GameState:
    w: ConflictWork = state.work  # type: ignore[assignment]
    other = w.sides[1] if action.seat == w.sides[0] else w.sides[0]
    ev.append(Event(kind="plays_first", seat=state.active, area=w.area, value=action.seat))
    return _advance(state, replace(w, stage="cards", order=(action.seat, other)), ev)


# ---------------------------------------------------------------------------------------------
# Step 2: cards face down


@handles(PlayCombatCard)
def handle_play_card(state: GameState, action: PlayCombatCard, ev: Events) -> GameState:
    w: ConflictWork = state.work  # type: ignore[assignment]
    seat = w.order[0]
    i = w.sides.index(seat)
    pl = state.players[seat]
    state = set_player(state, replace(pl, hand=remove_one(pl.hand, action.card)))
    plays = tuple(p + (action.card,) if j == i else p for j, p in enumerate(w.plays))
    ev.append(Event(kind="combat_card_played", seat=seat, area=w.area, cards=(action.card,), private_to=seat))
    w = replace(w, plays=plays)
    if len(plays[i]) >= card_limit(state, w.area, seat):  # never more than allowed
        w = replace(w, order=w.order[1:])
    return _advance(state, w, ev)


@handles(Done, ConflictWork)
def handle_cards_done(state: GameState, action: Done, ev: Events) -> GameState:
    w: ConflictWork = state.work  # type: ignore[assignment]
    seat = w.order[0]
    ev.append(Event(kind="combat_cards_done", seat=seat, area=w.area, value=len(w.plays[w.sides.index(seat)])))
    return _advance(state, replace(w, order=w.order[1:]), ev)


# ---------------------------------------------------------------------------------------------
# Steps 3-8: reveal, damage, winner


def _fight(state: GameState, w: ConflictWork, ev: Events) -> tuple[GameState, ConflictWork]:
    if SHADOWS in w.sides:  # step 3: a single Conflict card is drawn for the Shadows
        deck = state.decks.conflict
        state = replace(state, decks=replace(state.decks, conflict=deck[1:]))
        w = replace(w, shadow_card=deck[0])
    w = replace(w, revealed=True)
    shadows = board.area(state, w.area).shadows
    got = [icons(state, w, i, shadows) for i in (0, 1)]
    for i, side in enumerate(w.sides):
        played = (w.shadow_card,) if side == SHADOWS else w.plays[i]
        ev.append(Event(kind="conflict_reveal", seat=side, area=w.area, cards=played, value=got[i].attack,
                        detail=f"{got[i].attack} attack, {got[i].defense} defence"))
    for i, side in enumerate(w.sides):  # each Defence cancels 1 Attack
        state = take_damage(state, w.area, side, max(0, got[1 - i].attack - got[i].defense), ev)
    winner, why = winner_of(board.area(state, w.area), w.sides)
    if winner is None:
        return state, replace(w, stage="tie")
    return _won(state, w, winner, why, ev)


def take_damage(state: GameState, area_id: str, side: int, damage: int, ev: Events) -> GameState:
    """Step 5: 1 unit per damage, then Fort levels (FORTRESS: never the last one); excess is
    ignored. LIMBO: eliminated Followers go to Limbo; Shadows and Fort levels to supplies."""
    ev.append(Event(kind="conflict_damage", seat=side, area=area_id, value=damage))
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
        ev.append(Event(kind="fort_levels_lost", seat=side, area=area_id, value=lost))
    return state


def _eliminate(state: GameState, side: int, area_id: str, n: int, ev: Events) -> GameState:
    to = "limbo" if side >= 0 and not kc.is_king(state, side) else "supply"  # SOLO: the King has no Limbo
    ev.append(Event(kind="units_eliminated", seat=side, area=area_id, value=n, detail=to))
    return units.remove(state, side, area_id, n, to=to)


def _won(state: GameState, w: ConflictWork, winner: int, why: str, ev: Events) -> tuple[GameState, ConflictWork]:
    ev.append(Event(kind="conflict_won", seat=winner, area=w.area, detail=why))
    if winner >= 0:  # Dream conditions count conflicts won this turn
        pl = state.players[winner]
        state = set_player(state, replace(pl, conflicts_won=pl.conflicts_won + 1))
    return state, replace(w, winner=winner, stage="retreat")


@handles(BreakTie)
def handle_break_tie(state: GameState, action: BreakTie, ev: Events) -> GameState:
    """Step 8: the active player breaks an otherwise unbreakable tie."""
    w: ConflictWork = state.work  # type: ignore[assignment]
    ev.append(Event(kind="break_tie", seat=state.active, area=w.area, value=action.winner))
    state, w = _won(state, w, action.winner, "tie", ev)
    return _advance(state, w, ev)


# ---------------------------------------------------------------------------------------------
# Steps 9-10: retreat


@handles(RetreatTo)
def handle_retreat(state: GameState, action: RetreatTo, ev: Events) -> GameState:
    w: ConflictWork = state.work  # type: ignore[assignment]
    side = loser_of(w)
    state = units.move(state, side, w.area, action.area)
    ev.append(Event(kind="retreat", seat=side, area=action.area, detail=w.area, value=1))
    return _advance(state, w, ev)


def _strand(state: GameState, w: ConflictWork, ev: Events) -> GameState:
    """Step 10: losing units that may not be moved away are eliminated."""
    side = loser_of(w)
    left = units.count(board.area(state, w.area), side)
    if left and not retreat_areas(state, w):
        state = _eliminate(state, side, w.area, left, ev)
    return state


# ---------------------------------------------------------------------------------------------
# Steps 11-12: Victory or Defeat, put the cards away


@handles(TakeVictory)
def handle_victory(state: GameState, action: TakeVictory, ev: Events) -> GameState:
    """REWARDS AND CONSEQUENCES: resolve Victory as completely as possible, or draw 1
    Development card instead."""
    w: ConflictWork = state.work  # type: ignore[assignment]
    seat = _player(w)
    card = _conflict_card(state, w)
    if not action.take:
        ev.append(Event(kind="victory_draw_instead", seat=seat, cards=(w.shadow_card,)))
        return _finish(draw_development(state, seat, 1, ev), w, None, ev)
    ev.append(Event(kind="conflict_victory", seat=seat, cards=(w.shadow_card,)))
    return _finish(state, w, _effect_frame(seat, card.victory.steps, "victory", w.shadow_card), ev)


def _effect_frame(seat: int, steps: tuple, source: str, card: str) -> Frame:
    """Step 11: the effect is resolved as completely as possible, then the card goes to the
    bottom of the deck (the frame holds it meanwhile)."""
    return Frame(seat=seat, steps=steps, source=source, card=card, must=True, then=CARD_TO_BOTTOM)


@continues(CARD_TO_BOTTOM)
def _effect_done(state: GameState, frame: Frame, ev: Events) -> GameState:
    return _to_bottom(state, frame.card, ev)


def _to_bottom(state: GameState, card: str, ev: Events) -> GameState:
    ev.append(Event(kind="conflict_card_bottom", cards=(card,)))
    return replace(state, decks=replace(state.decks, conflict=state.decks.conflict + (card,)))


def _defeat(state: GameState, w: ConflictWork, ev: Events) -> GameState:
    seat = _player(w)
    steps = _conflict_card(state, w).defeat.steps
    if not implemented(steps):  # never with the base pack; a pack's new step would wait for its rule
        ev.append(Event(kind="effect_not_resolvable", seat=seat, cards=(w.shadow_card,), detail="defeat"))
        return _finish(state, w, None, ev)
    ev.append(Event(kind="conflict_defeat", seat=seat, cards=(w.shadow_card,)))
    return _finish(state, w, _effect_frame(seat, steps, "defeat", w.shadow_card), ev)


def _put_away(state: GameState, w: ConflictWork, keep_card: bool, ev: Events) -> GameState:
    """Step 12: played cards are discarded, except Basic Combat cards, which return to their
    owners' hands; the Conflict card goes to the bottom of its deck unless an effect frame
    holds it."""
    if w.shadow_card and not keep_card:
        state = _to_bottom(state, w.shadow_card, ev)
    decks = state.decks
    for side, played in zip(w.sides, w.plays):
        if kc.is_king(state, side):
            state, played = kc.put_away_king(state, played, ev)
        gone = tuple(c for c in played if c != BASIC_COMBAT)
        if len(gone) < len(played):
            pl = state.players[side]
            state = set_player(state, replace(pl, hand=pl.hand + (BASIC_COMBAT,)))
            ev.append(Event(kind="basic_combat_returned", seat=side))
        if gone:
            decks = replace(decks, development_discard=decks.development_discard + gone)
            ev.append(Event(kind="combat_cards_discarded", seat=side, cards=gone))
    return replace(state, decks=decks)


def _finish(state: GameState, w: ConflictWork, effect: Frame | None, ev: Events) -> GameState:
    """The conflict is over; the next one follows, after the Victory or Defeat effect if any."""
    state = _put_away(state, w, effect is not None, ev)
    fresh = ConflictWork(seat=w.seat, left=w.left - 1, where=w.where)
    shield = kc.shield_taker(state, w)
    if effect is None and shield is None:
        return resolve(_next_conflict(state, fresh, ev), ev)
    state = replace(state, work=None)
    if fresh.left > 0:
        state = push_effect(state, w.seat, (cs.ResolveConflicts(count=fresh.left, where=w.where),), "conflicts",
                            must=True)
    if effect is None:  # SOLO: you may discard a card as the King's Shield returns
        return resolve(replace(state, work=KingShieldWork(seat=shield)), ev)
    return resolve(push(state, effect), ev)


# ---------------------------------------------------------------------------------------------
# Between decisions


def _advance(state: GameState, w: ConflictWork, ev: Events) -> GameState:
    """Run the automatic parts of the conflict until someone must decide."""
    while True:
        if w.stage == "cards" and w.order and not state.players[w.order[0]].hand:
            w = replace(w, order=w.order[1:])  # nothing to play (the Basic Combat card is always there)
        elif w.stage == "cards" and not w.order:
            state, w = _fight(state, w, ev)
        elif w.stage == "retreat":
            state = _strand(state, w, ev)
            if units.count(board.area(state, w.area), loser_of(w)):
                if not kc.king_retreats(state, loser_of(w)):
                    break
                state = kc.king_retreat(state, loser_of(w), w.area, retreat_areas(state, w), ev)
                continue
            w = replace(w, stage="victory")
        elif w.stage == "tie" and kc.is_king(state, state.active):  # SOLO: the King decides nothing freely
            state, w = _won(state, w, kc.tie_winner(state, w.sides), "tie", ev)
        elif w.stage == "victory" and SHADOWS in w.sides and kc.is_king(state, _player(w)):
            return _finish(kc.king_reward(state, w.winner, ev), w, None, ev)
        elif w.stage == "victory" and SHADOWS not in w.sides:
            return _finish(state, w, None, ev)
        elif w.stage == "victory" and w.winner == SHADOWS:
            return _defeat(state, w, ev)
        else:
            break
    return resolve(replace(state, work=w), ev)


@decides(ConflictWork)
def decide_conflict(state: GameState) -> Decision | None:
    w: ConflictWork = state.work  # type: ignore[assignment]
    return _DECIDERS[w.stage](state, w)


def _decide_choose(state: GameState, w: ConflictWork) -> Decision | None:
    opts = conflict_options(state, w)
    if w.left <= 0 or not opts:
        return None
    return Decision(seat=w.seat, kind="start_conflict", options=opts,
                    prompt=f"Resolve a conflict ({w.left} left): choose an area and 2 opposing sides")


def _decide_order(state: GameState, w: ConflictWork) -> Decision:
    return Decision(seat=state.active, kind="plays_first", options=tuple(PlaysFirst(seat=s) for s in w.sides),
                    prompt=f"Neither side controls {w.area}: choose who plays their cards first")


def _decide_cards(state: GameState, w: ConflictWork) -> Decision:
    seat = w.order[0]
    played = len(w.plays[w.sides.index(seat)])
    limit = card_limit(state, w.area, seat)
    opts = tuple(PlayCombatCard(card=c) for c in dict.fromkeys(state.players[seat].hand))
    return Decision(seat=seat, kind="play_combat_card", options=opts + ((Done(),) if played else ()),
                    prompt=f"Play 1 to {limit} cards face down in the conflict in {w.area} ({played} played)")


def _decide_tie(state: GameState, w: ConflictWork) -> Decision:
    return Decision(seat=state.active, kind="break_tie", options=tuple(BreakTie(winner=s) for s in w.sides),
                    prompt=f"The conflict in {w.area} is tied: choose its winner")


def _decide_retreat(state: GameState, w: ConflictWork) -> Decision:
    side = loser_of(w)
    left = units.count(board.area(state, w.area), side)
    return Decision(seat=side if side >= 0 else state.active, kind="retreat",
                    options=tuple(RetreatTo(area=b) for b in retreat_areas(state, w)),
                    prompt=f"Retreat a losing unit from {w.area} ({left} left)")


def _decide_victory(state: GameState, w: ConflictWork) -> Decision:
    card = _conflict_card(state, w)
    opts = ((TakeVictory(take=True),) if implemented(card.victory.steps) else ()) + (TakeVictory(take=False),)
    return Decision(seat=_player(w), kind="take_victory", options=opts,
                    prompt=f"Victory: {card.victory.text} Or draw 1 Development card instead")


_DECIDERS = {
    "choose": _decide_choose, "order": _decide_order, "cards": _decide_cards, "tie": _decide_tie,
    "retreat": _decide_retreat, "victory": _decide_victory,
}


# ---------------------------------------------------------------------------------------------
# Refusals


def _unknown_area(state: GameState, area_id: str) -> IllegalAction | None:
    if area_id not in board.area_index(state):
        return IllegalAction(f"{area_id!r} is not an area in play", rule="areas in play", section="KEY CONCEPTS")
    return None


@explains(StartConflict)
def explain_start(state: GameState, action: StartConflict) -> IllegalAction:
    w: ConflictWork = state.work  # type: ignore[assignment]
    if (err := _unknown_area(state, action.area)) is not None:
        return err
    if w.area and action.area != w.area:
        return IllegalAction(f"this effect resolves a conflict only in {w.area}", rule="the effect's area",
                             section="REWARD TILES")
    if action.area not in _conflict_areas(state, w):
        return IllegalAction(f"this effect resolves conflicts only in {w.where} areas", rule="the effect's areas",
                             section="MANEUVER")
    here = sides_in(board.area(state, action.area))
    if len(set(action.sides)) < 2 or not set(action.sides) <= set(here):
        return IllegalAction(f"a conflict is between 2 different sides with units and/or Forts in {action.area} "
                             f"(there: {here}; -2 is the Shadows)", rule="2 opposing sides", section=f"{SECTION} 1")
    canonical = tuple(sorted(action.sides, key=_rank))
    return IllegalAction(f"name the sides in seat order, the Shadows (-2) last: {canonical}",
                         rule="2 opposing sides", section=f"{SECTION} 1")


def _rank(side: int) -> int:
    return 99 if side == SHADOWS else side


@explains(PlaysFirst)
def explain_plays_first(state: GameState, action: PlaysFirst) -> IllegalAction:
    return IllegalAction(f"seat {action.seat} is not a side of this conflict", rule="who plays first",
                         section=f"{SECTION} 2")


@explains(PlayCombatCard)
def explain_play_card(state: GameState, action: PlayCombatCard) -> IllegalAction:
    return IllegalAction(f"{action.card} is not in your hand: play a Development card or your Basic Combat card",
                         rule="cards played in a conflict", section=f"{SECTION} 2")


@explains(BreakTie)
def explain_break_tie(state: GameState, action: BreakTie) -> IllegalAction:
    return IllegalAction(f"side {action.winner} is not one of the tied sides", rule="unbreakable tie",
                         section=f"{SECTION} 8")


@explains(RetreatTo)
def explain_retreat(state: GameState, action: RetreatTo) -> IllegalAction:
    w: ConflictWork = state.work  # type: ignore[assignment]
    if (err := _unknown_area(state, action.area)) is not None:
        return err
    rule, section = "retreat", f"{SECTION} 9"
    if action.area not in board.adjacent(state, w.area):
        return IllegalAction(f"{action.area} is not adjacent to {w.area}", rule=rule, section=section)
    if not retreat_fits(state, loser_of(w), w.area, action.area):
        return IllegalAction(f"{action.area} is full: retreat respects the Unit Limit", rule=rule, section=section)
    return IllegalAction(f"{action.area} is controlled by another side and the retreating side has no presence "
                         "there: units retreat only to areas their side controls, is present in, or that are empty",
                         rule=rule, section=section)


@explains(TakeVictory)
def explain_victory(state: GameState, action: TakeVictory) -> IllegalAction:
    return IllegalAction("this Victory effect cannot be resolved yet: draw 1 Development card instead",
                         rule="Victory or a card", section="REWARDS AND CONSEQUENCES")
