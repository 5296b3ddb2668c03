"""TURN STRUCTURE: the active player's eight steps and the inactive players' reactions.

This module conducts the turn; it calls only downward (Dream windows, the Cathedral, the King's
turn, the end of the game). A step that must wait for something else to be resolved first (an
effect, a Dream window, the pieces being built) pushes a frame whose continuation carries the
turn on, then hands over:

    begin_turn → Day action (effect frame; then ``ActionDone``) → Dream window (``AfterWindow``)
    → 3 discard Dreams → 4 draw Dreams → 5 hand limit → 6 end-of-turn window (``NextReaction``)
    → each reaction (effect frame; ``ReactionDone`` → window → ``NextReaction``)
    → the Cathedral is built (``EndTurn`` beneath it) → 7-8 Dreamers, Turn and Time markers.

Solo: the King's turn (``king_turn``) runs above ``KingTurnReactions``, which then asks you to
react; the King reacts on your turn without a decision.
"""

from __future__ import annotations

from msgspec.structs import replace

from ..content import schema as cs
from . import board, cards, cathedral, dreams, events as E, king_turn
from .actions import Action, ChooseDay, DiscardDevelopment, DiscardDream, KeepDreams, PlaceDreamer, React, TakeDream
from .effects import push, push_effect
from .errors import IllegalAction
from .events import Event
from .king import is_king, under_pieces
from .ops import counted_dreams, drop_dream, remove_one, set_player
from .rules import Refusal, Rule, legal
from .scoring import devoured_end_due, end_game
from .setup import night_refusal
from .state import BASIC_COMBAT, DREAM_HAND, HAND_LIMIT, GameState
from .work import (
    ActionDone,
    AfterWindow,
    ChooseDayWork,
    DiscardDreamsWork,
    DrawDreamWork,
    EndTurn,
    FirstTurn,
    Frame,
    HandLimitWork,
    KingTurnReactions,
    MoveDreamerWork,
    NextReaction,
    ReactionDone,
    ReactWork,
)

Events = list[Event]
IGNORE_DRAW = cs.Draw(deck="development", count=2)  # TURN STRUCTURE 2: ignore the action and draw 2


def first_turn(state: GameState, then: FirstTurn, ev: Events) -> GameState:
    """SETUP 23: the first player begins."""
    return begin_turn(replace(state, phase="turn"), ev)


def begin_turn(state: GameState, ev: Events) -> GameState:
    """A new turn: the owner of the Turn marker's position is the active player."""
    active = board.turn_owner(state, state.turn_pos)
    state = replace(
        state,
        active=active,
        day="",
        ignored=False,
        turn_number=state.turn_number + 1,
        phase="turn",
        players=tuple(replace(pl, conflicts_won=0) for pl in state.players),
        commanded=(),
        commanding=0,
        visited=(),
        suspended=(),
    )  # COMMAND NIGHTMARES: once per turn
    ev.append(E.TurnBegins(seat=active, turn=state.turn_number, marked=board.marked_symbol(state)))
    if is_king(state, active):  # solo: the King's turn asks it nothing; your reaction waits beneath it
        state = push(state, Frame(seat=active, steps=(), source="turn", then=KingTurnReactions()))
        return king_turn.play(state, ev)
    return replace(state, work=ChooseDayWork(seat=active))


# ---------------------------------------------------------------------------------------------
# Steps 1-2: the Day action


def legal_days(state: GameState, seat: int) -> tuple[str, ...]:
    """Step 1: a Day space NOT adjacent to the Night space your Dreamer is on."""
    m = board.pack(state).matrix
    night = next(n for n in m.nights if n.id == state.players[seat].dreamer)
    return tuple(a for a in m.rondel if a not in night.adjacent)


def _day_options(state: GameState, w: ChooseDayWork) -> tuple[Action, ...]:
    out: list[Action] = []
    for a in legal_days(state, w.seat):
        out += [ChooseDay(action=a), ChooseDay(action=a, ignore=True)]  # type: ignore[arg-type]
    return tuple(out)


def _day_refusal(state: GameState, w: ChooseDayWork, action: ChooseDay) -> Refusal:
    if action.action in legal_days(state, w.seat):
        return None
    return IllegalAction(
        f"your Dreamer's Night space is adjacent to {action.action}: choose a Day space that is not adjacent to it",
        rule="Dreamer moves to a non-adjacent Day space",
        section="TURN STRUCTURE 1",
    )


def _choose_day(state: GameState, w: ChooseDayWork, action: ChooseDay, ev: Events) -> GameState:
    """Steps 1-2: the Dreamer moves; the action is performed, or ignored for 2 cards."""
    seat = w.seat
    state = set_player(state, replace(state.players[seat], dreamer=action.action))
    state = replace(state, day=action.action, ignored=action.ignore, work=None)
    ev.append(E.DayChosen(seat=seat, action=action.action, ignore=action.ignore))
    if action.ignore:
        return push_effect(state, seat, (IGNORE_DRAW,), "turn", then=ActionDone(seat=seat, conclude=False))
    effect = cards.action_effect(state, seat, action.action, "day")
    return push_effect(
        state,
        seat,
        effect.steps,
        "day",
        card=cards.action_card_id(state, seat, action.action),
        then=ActionDone(seat=seat),
    )


CHOOSE_DAY = Rule(ChooseDayWork, (ChooseDay,), _day_options, _day_refusal, _choose_day)


def action_done(state: GameState, then: ActionDone | ReactionDone, ev: Events) -> GameState:
    """The action or reaction is complete: Followers paid on the Ritual track go home; before
    the turn goes on, its player may play Dream cards (the golden rule)."""
    if not isinstance(then, ActionDone) or then.conclude:
        state = _conclude(state, then.seat, ev)
    state = push(state, Frame(seat=then.seat, steps=(), source="turn", then=AfterWindow()))
    return dreams.open_window(state, then.seat)


def _conclude(state: GameState, seat: int, ev: Events) -> GameState:
    pl = state.players[seat]
    if pl.on_track:
        ev.append(E.RitualFollowersReturn(seat=seat, count=pl.on_track))
        state = set_player(state, replace(pl, supply=pl.supply + pl.on_track, on_track=0))
    return state


def after_window(state: GameState, then: AfterWindow, ev: Events) -> GameState:
    """After the active player's action: step 3; after a reaction: the next reactor."""
    if state.phase == "reactions":
        return next_reaction(replace(state, queue=state.queue[1:]), NextReaction(), ev)
    return _discard_dreams_step(state)


# ---------------------------------------------------------------------------------------------
# Steps 3-5: Dream cards and the hand limit


def _discard_dreams_step(state: GameState) -> GameState:
    """Step 3: discard any unwanted Dream cards (one at a time, then keep the rest)."""
    if not state.players[state.active].dreams:
        return _draw_dreams_step(state)
    return replace(state, work=DiscardDreamsWork(seat=state.active))


def _discard_options(state: GameState, w: DiscardDreamsWork) -> tuple[Action, ...]:
    dreams_in_hand = state.players[w.seat].dreams
    if not dreams_in_hand:
        return ()
    return tuple(DiscardDream(card=c) for c in dreams_in_hand) + (KeepDreams(),)


def _discard_refusal(state: GameState, w: DiscardDreamsWork, action: DiscardDream | KeepDreams) -> Refusal:
    if isinstance(action, KeepDreams) or action.card in state.players[w.seat].dreams:
        return None
    return IllegalAction(
        f"{action.card} is not a Dream card in your hand", rule="discard from your hand", section="TURN STRUCTURE 3"
    )


def _discard_dream(state: GameState, w: DiscardDreamsWork, action: DiscardDream | KeepDreams, ev: Events) -> GameState:
    if isinstance(action, KeepDreams):
        return _draw_dreams_step(state)
    pl = state.players[w.seat]
    state = set_player(state, drop_dream(pl, action.card))
    state = replace(state, decks=replace(state.decks, dream=state.decks.dream + (action.card,)))
    ev.append(E.DreamDiscarded(seat=pl.seat, card=action.card))
    return _discard_dreams_step(state)


DISCARD_DREAMS = Rule(DiscardDreamsWork, (DiscardDream, KeepDreams), _discard_options, _discard_refusal, _discard_dream)


def _draw_dreams_step(state: GameState) -> GameState:
    """Step 4: draw one by one, from the offer or the deck's top, until 2 in hand."""
    pl = state.players[state.active]
    decks = state.decks
    if counted_dreams(pl) >= DREAM_HAND or not (decks.dream_offer or decks.dream):
        return _hand_limit_step(state)
    return replace(state, work=DrawDreamWork(seat=state.active))


def _draw_options(state: GameState, w: DrawDreamWork) -> tuple[Action, ...]:
    decks = state.decks
    return tuple(TakeDream(card=c) for c in decks.dream_offer) + ((TakeDream(card=""),) if decks.dream else ())


def _draw_refusal(state: GameState, w: DrawDreamWork, action: TakeDream) -> Refusal:
    if action.card in state.decks.dream_offer or (not action.card and state.decks.dream):
        return None
    return IllegalAction(
        f"{action.card or 'the deck'} is not in the Dream offer",
        rule="draw from the offer or the deck",
        section="TURN STRUCTURE 4",
    )


def _take_dream(state: GameState, w: DrawDreamWork, action: TakeDream, ev: Events) -> GameState:
    decks = state.decks
    pl = state.players[w.seat]
    if action.card:
        offer = remove_one(decks.dream_offer, action.card)
        deck = decks.dream
        card = action.card
        ev.append(E.DreamTaken(seat=pl.seat, card=card))
        if deck:  # the offer is replenished at once
            offer, deck = (*offer, deck[0]), deck[1:]
            ev.append(E.DreamOfferRefilled(card=offer[-1]))
    else:
        card, deck, offer = decks.dream[0], decks.dream[1:], decks.dream_offer
        ev.append(E.DreamDrawn(seat=pl.seat, card=card))
    state = replace(state, decks=replace(decks, dream=deck, dream_offer=offer))
    state = set_player(state, replace(pl, dreams=(*pl.dreams, card)))
    return _draw_dreams_step(state)


DRAW_DREAM = Rule(DrawDreamWork, (TakeDream,), _draw_options, _draw_refusal, _take_dream)


def _hand_limit_step(state: GameState) -> GameState:
    """Step 5: discard Development cards in excess of 8; Basic Combat counts, stays."""
    if len(state.players[state.active].hand) <= HAND_LIMIT:
        return reactions_begin(state)
    return replace(state, work=HandLimitWork(seat=state.active))


def _limit_options(state: GameState, w: HandLimitWork) -> tuple[Action, ...]:
    hand = state.players[w.seat].hand
    if len(hand) <= HAND_LIMIT:
        return ()
    return legal(state, w, (DiscardDevelopment(card=c) for c in dict.fromkeys(hand)), _limit_refusal)


def _limit_refusal(state: GameState, w: HandLimitWork, action: DiscardDevelopment) -> Refusal:
    if action.card == BASIC_COMBAT:
        return IllegalAction(
            "the Basic Combat card may not be discarded", rule="Basic Combat stays in hand", section="TURN STRUCTURE 5"
        )
    if action.card not in state.players[w.seat].hand:
        return IllegalAction(
            f"{action.card} is not in your hand", rule="discard from your hand", section="TURN STRUCTURE 5"
        )
    return None


def _discard_development(state: GameState, w: HandLimitWork, action: DiscardDevelopment, ev: Events) -> GameState:
    pl = state.players[w.seat]
    state = set_player(state, replace(pl, hand=remove_one(pl.hand, action.card)))
    state = replace(
        state, decks=replace(state.decks, development_discard=(*state.decks.development_discard, action.card))
    )
    ev.append(E.DevelopmentDiscarded(seat=pl.seat, card=action.card))
    return _hand_limit_step(state)


HAND_LIMIT_RULE = Rule(HandLimitWork, (DiscardDevelopment,), _limit_options, _limit_refusal, _discard_development)


# ---------------------------------------------------------------------------------------------
# Step 6: the reactions


def reactions_begin(state: GameState) -> GameState:
    """Step 6: first the active player's end of turn effects (Dream cards), then the inactive
    players react in clockwise order from the active player's left."""
    n = len(state.players)
    queue = tuple((state.active + i) % n for i in range(1, n))
    state = replace(state, phase="reactions", queue=queue, work=None)
    state = push(state, Frame(seat=state.active, steps=(), source="turn", then=NextReaction()))
    return dreams.open_window(state, state.active)


def next_reaction(state: GameState, then: NextReaction, ev: Events) -> GameState:
    """The next inactive player reacts (the King without a decision); with none left, the
    Cathedral is built and the turn ends."""
    while state.queue and is_king(state, state.queue[0]):  # END OF YOUR TURN: the King Conforms or Dissents
        state = replace(king_turn.king_reacts(state, state.day, ev), queue=state.queue[1:])
    if state.queue:
        return replace(state, work=ReactWork(seat=state.queue[0]))
    if is_king(state, state.active):  # KING'S TURN 7, after your reaction
        state = king_turn.return_cultists(state, ev)
    state = under_pieces(state, Frame(seat=state.active, steps=(), source="turn", then=EndTurn()))
    return cathedral.build(state, state.active, ev)


def king_turn_reactions(state: GameState, then: KingTurnReactions, ev: Events) -> GameState:
    """KING'S TURN 6: you may react (Conform or Dissent) as usual; steps 7-8 follow."""
    return next_reaction(replace(state, phase="reactions", queue=(1 - state.active,)), NextReaction(), ev)


def _react_options(state: GameState, w: ReactWork) -> tuple[Action, ...]:
    return legal(state, w, (React(kind=k) for k in ("conform", "dissent", "pass")), _react_refusal)


def _react_refusal(state: GameState, w: ReactWork, action: React) -> Refusal:
    if action.kind != "conform":
        return None
    night = state.players[w.seat].dreamer
    if any(n.id == night and state.day in n.adjacent for n in board.pack(state).matrix.nights):
        return None
    return IllegalAction(
        f"your Dreamer is not on a Night space adjacent to {state.day}: you may only Dissent or Pass",
        rule="Conform needs an adjacent Night space",
        section="REACTION",
    )


def _react(state: GameState, w: ReactWork, action: React, ev: Events) -> GameState:
    ev.append(E.Reacted(seat=w.seat, reaction=action.kind))
    state = replace(state, work=None)
    if action.kind == "pass":
        return next_reaction(replace(state, queue=state.queue[1:]), NextReaction(), ev)
    effect = cards.action_effect(state, w.seat, state.day, action.kind)
    return push_effect(
        state,
        w.seat,
        effect.steps,
        action.kind,
        card=cards.action_card_id(state, w.seat, state.day),
        then=ReactionDone(seat=w.seat),
    )


REACT = Rule(ReactWork, (React,), _react_options, _react_refusal, _react)


# ---------------------------------------------------------------------------------------------
# Steps 7-8: the end of the turn


def end_turn(state: GameState, then: EndTurn, ev: Events) -> GameState:
    """Step 7: the Dreamer follows its arrow. A Reward tile ("at the end of the turn move your
    Dreamer to any night space") sends a player's Dreamer anywhere instead, whoever took it:
    the other players first, clockwise, then the active player."""
    n = len(state.players)
    order = [(state.active + i) % n for i in range(1, n)] + [state.active]
    seat = next((s for s in order if state.players[s].dreamer_free), None)
    if seat is not None:
        return replace(state, phase="turn", queue=(), work=MoveDreamerWork(seat=seat))
    arrow = next(d.arrow for d in board.pack(state).matrix.days if d.action == state.day)
    return _advance_turn_marker(state, arrow, ev)


def _advance_turn_marker(state: GameState, night: str, ev: Events) -> GameState:
    """Steps 7-8: the Dreamer moves to its Night space; the Turn marker moves; maybe the Time marker."""
    p = board.pack(state)
    seat = state.active
    pl = state.players[seat]
    if is_king(state, seat):  # its Dreamer stays on its Day space (KING'S DREAMER)
        state = set_player(state, replace(pl, turns=pl.turns + 1))
    else:
        state = set_player(state, replace(pl, dreamer=night, turns=pl.turns + 1, dreamer_free=False))
        ev.append(E.DreamerMoves(seat=seat, night=night))
    pos = (state.turn_pos + 1) % len(p.tracks.turn)
    state = replace(state, turn_pos=pos, queue=(), phase="turn")
    if pos == state.turn_start:
        state = replace(state, time=state.time + 1)
        ev.append(E.TimeAdvances(time=state.time))
        if state.time == len(p.tracks.time) - 1:
            return end_game(state, "time", ev)
    if devoured_end_due(state):
        return end_game(state, "devoured", ev)
    return begin_turn(state, ev)


def _free_options(state: GameState, w: MoveDreamerWork) -> tuple[Action, ...]:
    return tuple(PlaceDreamer(night=n.id) for n in board.pack(state).matrix.nights)


def _free_dreamer(state: GameState, w: MoveDreamerWork, action: PlaceDreamer, ev: Events) -> GameState:
    if w.seat == state.active:
        return _advance_turn_marker(replace(state, work=None), action.night, ev)
    state = set_player(state, replace(state.players[w.seat], dreamer=action.night, dreamer_free=False))
    ev.append(E.DreamerFreeMove(seat=w.seat, night=action.night))
    return end_turn(replace(state, work=None), EndTurn(), ev)


MOVE_DREAMER = Rule(MoveDreamerWork, (PlaceDreamer,), _free_options, night_refusal, _free_dreamer)
