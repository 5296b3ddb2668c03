"""The King of Horrors' turn (solo rulebook: KING'S TURN 1-8) and its reactions on your turn
(THE KING CONFORMS / DISSENTS).

Its turn is conducted here: roll the Horror Die, move its Dreamer by Cultists, gather the Power
(steps 1-3), resolve the action (step 4, ``king_actions``), refill its Dreams (step 5); each
later step waits in a frame beneath whatever the earlier one asks (conflicts, your choices).
``turn`` pushed your reaction (step 6) beneath it all; steps 7-8 follow the reaction there.
"""

from __future__ import annotations

from typing import Final

from msgspec.structs import replace

from . import events as E, king as kg
from .events import Event
from .king import bump, king, king_draws, modifier, pieces_pending, rondel, set_king, under_pieces
from .king_actions import perform_king_action
from .king_dreams import place_on_dream, refill_dreams
from .king_state import KingState
from .state import GameState
from .work import Frame, KingActionDone, KingPerform

Events = list[Event]
KING_TURN: Final = "king_turn"  # the source of the empty frames that carry the King's turn on


# ---------------------------------------------------------------------------------------------
# The rondel, the Horror Die, Power (KING'S TURN 1-3)


def ahead(state: GameState) -> tuple[str, str]:
    """KING'S DREAMER: the two Day spaces clockwise of the King's Dreamer."""
    ro = rondel(state)
    i = ro.index(king(state).dreamer)
    return ro[(i + 1) % len(ro)], ro[(i + 2) % len(ro)]


def count_cultists(state: GameState, roll: int) -> tuple[str, ...]:
    """KING'S TURN 1: the Day space of each Cultist counted, starting from the Cultist on the
    space after the Dreamer's, clockwise (looping round the rondel); the last one is where it
    ends. With no Cultist on the Action Matrix, nothing is counted."""
    k = king(state)
    ro = rondel(state)
    if not sum(k.day_cultists):
        return ()
    start = ro.index(k.dreamer)
    counted: list[str] = []
    i = start
    while len(counted) < roll:
        i = (i + 1) % len(ro)
        counted += [ro[i]] * min(k.day_cultists[i], roll - len(counted))
    return tuple(counted)


def move_dreamer(state: GameState, roll: int, ev: Events) -> GameState:
    """KING'S TURN 1: the Dreamer advances by ``roll`` Cultists; its space is the chosen action."""
    k = king(state)
    counted = count_cultists(state, roll)
    to = counted[-1] if counted else k.dreamer
    ev.append(E.KingDreamerMoves(seat=k.seat, roll=roll, counted=counted, to=to))
    return set_king(state, replace(k, dreamer=to))


def power(k: KingState, slot: int) -> int:
    """KING'S TURN 3: one per Cultist on the Action card, one per card tucked under it."""
    return k.card_cultists[slot] + len(k.tucked[slot])


def gather_power(state: GameState, ev: Events) -> tuple[int, GameState]:
    """KING'S TURN 2-3: the chosen space's Cultists go onto its Action card; a Power of 2 or 4
    sends one Cultist to a Dream, 6 or more sends Cultists until 5 or none is left on the card."""
    k = king(state)
    slot = rondel(state).index(k.dreamer)
    moved = k.day_cultists[slot]
    k = replace(k, day_cultists=bump(k.day_cultists, slot, -moved), card_cultists=bump(k.card_cultists, slot, moved))
    state = set_king(state, k)
    p = power(k, slot)
    ev.append(E.KingPower(seat=k.seat, moved=moved, action=k.dreamer, power=p))
    target = p - 1 if p in (2, 4) else 5 if p >= 6 else p
    while power(king(state), slot) > target and king(state).card_cultists[slot]:
        k = king(state)
        state = set_king(state, replace(k, card_cultists=bump(k.card_cultists, slot, -1)))
        state = place_on_dream(state, ev, "power")
    p = power(king(state), slot)
    ev.append(E.KingAction(seat=k.seat, action=k.dreamer, power=p))
    return p, state


def begin_king_turn(state: GameState, ev: Events) -> tuple[int, GameState]:
    """KING'S TURN 1-3: roll, move the Dreamer by Cultists, gather the Power. Step 4 (the
    King's actions) waits for the King Action cards' content; step 5 is ``refill_dreams``."""
    roll, state = kg.roll_horror_die(state, ev)  # through the module: tests fix the die
    return gather_power(move_dreamer(state, roll, ev), ev)


def return_cultists(state: GameState, ev: Events) -> GameState:
    """KING'S TURN 7: the Cultists on its Action cards go back to the supply; one Cultist goes
    back on the Action Matrix, on the Day space of the King's Dreamer."""
    k = king(state)
    slot = rondel(state).index(k.dreamer)
    back = sum(k.card_cultists)
    k = replace(k, card_cultists=(0,) * len(k.card_cultists), day_cultists=bump(k.day_cultists, slot, 1))
    ev.append(E.KingCultistsReturn(seat=k.seat, count=back, action=k.dreamer))
    return set_king(state, k)


# ---------------------------------------------------------------------------------------------
# The King's turn


def play(state: GameState, ev: Events) -> GameState:
    """KING'S TURN 1-4: roll, move, gather Power, then resolve the chosen action. Step 5 waits in
    a frame beneath whatever the action asks (conflicts, your choices)."""
    pw, state = begin_king_turn(state, ev)
    k = king(state)
    state = replace(state, day=k.dreamer, ignored=False)
    state = under_pieces(state, Frame(seat=k.seat, steps=(), source=KING_TURN, then=KingActionDone()))
    if pieces_pending(state):  # step 3 completed a Dream: you choose its piece before the action
        return under_pieces(state, Frame(seat=k.seat, steps=(), source=KING_TURN, then=KingPerform(power=pw)))
    return perform_king_action(state, k.dreamer, pw, ev)


def perform_later(state: GameState, then: KingPerform, ev: Events) -> GameState:
    """KING'S TURN 4, once the pieces its step 3 built are placed."""
    return perform_king_action(state, king(state).dreamer, then.power, ev)


def action_done(state: GameState, then: KingActionDone, ev: Events) -> GameState:
    """KING'S TURN 5: refill its Dreams (you may be asked which one it takes)."""
    return refill_dreams(state, ev)


# ---------------------------------------------------------------------------------------------
# The King's reactions on your turn


def king_reacts(state: GameState, day: str, ev: Events) -> GameState:
    """END OF YOUR TURN: the King Conforms if your action is ahead of it, else it Dissents."""
    k = king(state)
    if day in ahead(state):
        if modifier(state, "easier_conform"):  # easier: no Cultist on the matching action
            ev.append(E.KingConforms(seat=k.seat, action=day, easier=True))
            return place_on_dream(state, ev, "conform")
        slot = rondel(state).index(day)
        state = set_king(state, replace(k, day_cultists=bump(k.day_cultists, slot, 1)))
        ev.append(E.KingConforms(seat=k.seat, action=day))
        return place_on_dream(state, ev, "conform")
    ev.append(E.KingDissents(seat=k.seat, action=day))
    return king_draws(state, 1, ev)
