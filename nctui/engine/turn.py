"""TURN STRUCTURE: the active player's eight steps and the inactive players' reactions."""

from __future__ import annotations

from msgspec.structs import replace

from . import board, cards, king_turn
from .effects import implemented, push_effect, resolve
from .registry import CONTINUATIONS, continues
from .actions import ChooseDay, DiscardDevelopment, DiscardDream, KeepDreams, PlaceDreamer, React, TakeDream
from .errors import IllegalAction
from .events import Event
from .ops import counted_dreams, draw_development, drop_dream, remove_one, set_player
from .state import BASIC_COMBAT, DREAM_HAND, HAND_LIMIT, Decision, GameState

Events = list[Event]



def _can_resolve(state: GameState, seat: int, action: str, part: str) -> bool:
    """An effect is offered only when the engine resolves every one of its steps."""
    return implemented(cards.action_effect(state, seat, action, part).steps)


def begin_turn(state: GameState, ev: Events) -> GameState:
    """A new turn: the owner of the Turn marker's position is the active player."""
    active = board.turn_owner(state, state.turn_pos)
    state = replace(state, active=active, day="", ignored=False, turn_number=state.turn_number + 1, phase="turn",
                    players=tuple(replace(pl, conflicts_won=0) for pl in state.players),
                    commanded=(), commanding=0, visited=(), suspended=())  # COMMAND NIGHTMARES: once per turn
    ev.append(Event(kind="turn_begins", seat=active, value=state.turn_number, detail=board.marked_symbol(state)))
    if king_turn.is_king(state, active):  # solo: the King's turn asks it nothing
        return king_turn.play_king_turn(state, ev)
    return replace(state, decision=Decision(
        seat=active, kind="choose_day", prompt="Move your Dreamer to a Day space", options=day_options(state, active)))


def legal_days(state: GameState, seat: int) -> tuple[str, ...]:
    """Step 1: a Day space NOT adjacent to the Night space your Dreamer is on."""
    m = board.pack(state).matrix
    night = next(n for n in m.nights if n.id == state.players[seat].dreamer)
    return tuple(a for a in m.rondel if a not in night.adjacent)


def day_options(state: GameState, seat: int) -> tuple[ChooseDay, ...]:
    out: list[ChooseDay] = []
    for a in legal_days(state, seat):
        if _can_resolve(state, seat, a, "day"):
            out.append(ChooseDay(action=a))
        out.append(ChooseDay(action=a, ignore=True))
    return tuple(out)


def explain_day(state: GameState, action: ChooseDay) -> IllegalAction:
    if action.action not in legal_days(state, state.active):
        return IllegalAction(
            f"your Dreamer's Night space is adjacent to {action.action}: choose a Day space that is not adjacent to it",
            rule="Dreamer moves to a non-adjacent Day space", section="TURN STRUCTURE 1")
    return IllegalAction(f"the {action.action} action's effects are not playable yet: ignore it and draw 2",
                         rule="unimplemented action", section="TURN STRUCTURE 2")


def choose_day(state: GameState, action: ChooseDay, ev: Events) -> GameState:
    """Steps 1-2."""
    seat = state.active
    state = set_player(state, replace(state.players[seat], dreamer=action.action))
    state = replace(state, day=action.action, ignored=action.ignore)
    ev.append(Event(kind="choose_day", seat=seat, detail=action.action, value=int(action.ignore)))
    if action.ignore:
        state = draw_development(state, seat, 2, ev)
        return after_action(state, seat, ev)
    effect = cards.action_effect(state, seat, action.action, "day")
    state = push_effect(state, seat, effect.steps, "day", card=cards.action_card_id(state, seat, action.action),
                        then="day_done")
    return resolve(state, ev)


@continues("day_done")
def _day_done(state: GameState, frame, ev: Events) -> GameState:
    return after_action(_conclude(state, frame.seat, ev), frame.seat, ev)


def _conclude(state: GameState, seat: int, ev: Events) -> GameState:
    """The action or reaction is complete: Followers paid on the Ritual track go home."""
    pl = state.players[seat]
    if pl.on_track:
        ev.append(Event(kind="ritual_followers_return", seat=seat, value=pl.on_track))
        state = set_player(state, replace(pl, supply=pl.supply + pl.on_track, on_track=0))
    return state


def after_action(state: GameState, seat: int, ev: Events) -> GameState:
    """Before an action or reaction is complete, its player may play Dream cards (the golden
    rule); then the turn goes on."""
    window = CONTINUATIONS.get("dream_window")
    if window is not None:
        return window(state, seat, ev)
    return continue_turn(state, seat, ev)


def continue_turn(state: GameState, seat: int, ev: Events) -> GameState:
    """After the active player's action: step 3; after a reaction: the next reactor."""
    if state.phase == "reactions":
        return next_reaction(replace(state, queue=state.queue[1:]), ev)
    return _discard_dreams_step(state, ev)


def _discard_dreams_step(state: GameState, ev: Events) -> GameState:
    """Step 3: discard any unwanted Dream cards (one at a time, then keep the rest)."""
    pl = state.players[state.active]
    if not pl.dreams:
        return _draw_dreams_step(state, ev)
    opts = tuple(DiscardDream(card=c) for c in pl.dreams) + (KeepDreams(),)
    return replace(state, decision=Decision(
        seat=state.active, kind="discard_dreams", prompt="Discard unwanted Dream cards to the bottom of the deck",
        options=opts))


def discard_dream(state: GameState, action: DiscardDream, ev: Events) -> GameState:
    pl = state.players[state.active]
    state = set_player(state, drop_dream(pl, action.card))
    state = replace(state, decks=replace(state.decks, dream=state.decks.dream + (action.card,)))
    ev.append(Event(kind="discard_dream", seat=pl.seat, cards=(action.card,), private_to=pl.seat))
    return _discard_dreams_step(state, ev)


def keep_dreams(state: GameState, action: KeepDreams, ev: Events) -> GameState:
    return _draw_dreams_step(state, ev)


def _draw_dreams_step(state: GameState, ev: Events) -> GameState:
    """Step 4: draw one by one, from the offer or the deck's top, until 2 in hand."""
    pl = state.players[state.active]
    decks = state.decks
    if counted_dreams(pl) >= DREAM_HAND or not (decks.dream_offer or decks.dream):
        return _hand_limit_step(state, ev)
    opts = tuple(TakeDream(card=c) for c in decks.dream_offer)
    if decks.dream:
        opts += (TakeDream(card=""),)
    return replace(state, decision=Decision(
        seat=state.active, kind="draw_dream", prompt="Draw a Dream card from the offer or the deck", options=opts))


def take_dream(state: GameState, action: TakeDream, ev: Events) -> GameState:
    decks = state.decks
    pl = state.players[state.active]
    if action.card:
        offer = remove_one(decks.dream_offer, action.card)
        deck = decks.dream
        card = action.card
        ev.append(Event(kind="take_dream", seat=pl.seat, cards=(card,), detail="offer"))
        if deck:  # the offer is replenished at once
            offer, deck = offer + (deck[0],), deck[1:]
            ev.append(Event(kind="dream_offer_refilled", cards=(offer[-1],)))
    else:
        card, deck, offer = decks.dream[0], decks.dream[1:], decks.dream_offer
        ev.append(Event(kind="take_dream", seat=pl.seat, cards=(card,), detail="deck", private_to=pl.seat))
    state = replace(state, decks=replace(decks, dream=deck, dream_offer=offer))
    state = set_player(state, replace(pl, dreams=pl.dreams + (card,)))
    return _draw_dreams_step(state, ev)


def _hand_limit_step(state: GameState, ev: Events) -> GameState:
    """Step 5: discard Development cards in excess of 8; Basic Combat counts, stays."""
    pl = state.players[state.active]
    if len(pl.hand) <= HAND_LIMIT:
        return _reactions_begin(state, ev)
    opts = tuple(DiscardDevelopment(card=c) for c in dict.fromkeys(pl.hand) if c != BASIC_COMBAT)
    return replace(state, decision=Decision(
        seat=state.active, kind="discard_development",
        prompt=f"Discard down to {HAND_LIMIT} Development cards ({len(pl.hand) - HAND_LIMIT} to go)", options=opts))


def explain_discard_development(state: GameState, action: DiscardDevelopment) -> IllegalAction:
    if action.card == BASIC_COMBAT:
        return IllegalAction("the Basic Combat card may not be discarded", rule="Basic Combat stays in hand",
                             section="TURN STRUCTURE 5")
    return IllegalAction(f"{action.card} is not in your hand", rule="discard from your hand", section="TURN STRUCTURE 5")


def discard_development(state: GameState, action: DiscardDevelopment, ev: Events) -> GameState:
    pl = state.players[state.active]
    state = set_player(state, replace(pl, hand=remove_one(pl.hand, action.card)))
    state = replace(state, decks=replace(state.decks, development_discard=state.decks.development_discard + (action.card,)))
    ev.append(Event(kind="discard_development", seat=pl.seat, cards=(action.card,)))
    return _hand_limit_step(state, ev)


def _reactions_begin(state: GameState, ev: Events) -> GameState:
    """Step 6: inactive players react in clockwise order from the active player's left."""
    n = len(state.players)
    queue = tuple((state.active + i) % n for i in range(1, n))
    return next_reaction(replace(state, phase="reactions", queue=queue), ev)


def reaction_options(state: GameState, seat: int) -> tuple[React, ...]:
    night = state.players[seat].dreamer
    m = board.pack(state).matrix
    adjacent = any(n.id == night and state.day in n.adjacent for n in m.nights)
    opts: list[React] = []
    if adjacent and _can_resolve(state, seat, state.day, "conform"):
        opts.append(React(kind="conform"))
    if _can_resolve(state, seat, state.day, "dissent"):
        opts.append(React(kind="dissent"))
    opts.append(React(kind="pass"))
    return tuple(opts)


def explain_react(state: GameState, action: React) -> IllegalAction:
    seat = state.queue[0]
    if action.kind == "conform" and _can_resolve(state, seat, state.day, "conform"):
        return IllegalAction(
            f"your Dreamer is not on a Night space adjacent to {state.day}: you may only Dissent or Pass",
            rule="Conform needs an adjacent Night space", section="REACTION")
    return IllegalAction(f"the {action.kind} effect of {state.day} is not playable yet (seat {seat})",
                         rule="unimplemented reaction", section="REACTION")


def next_reaction(state: GameState, ev: Events) -> GameState:
    """Step 6: the active player's end of turn effects (Dream cards) come first, then the
    reactions; once every inactive player has reacted, the Cathedral is built."""
    if len(state.queue) == len(state.players) - 1:  # step 6 begins: nobody has reacted yet
        window = CONTINUATIONS.get("end_of_turn_window")
        if window is not None:
            return window(state, state.active, ev)
    return ask_reaction(state, ev)


def ask_reaction(state: GameState, ev: Events) -> GameState:
    """The next inactive player reacts; with none left, the Cathedral is built (or the turn ends)."""
    if not state.queue:
        if king_turn.is_king(state, state.active):  # KING'S TURN 7, after your reaction
            state = king_turn.return_cultists(state, ev)
        build = CONTINUATIONS.get("build_cathedral")
        return build(state, state.active, ev) if build is not None else end_turn(state, ev)
    seat = state.queue[0]
    if king_turn.is_king(state, seat):  # END OF YOUR TURN: the King Conforms or Dissents, no decision
        state = king_turn.king_reacts(state, state.day, ev)
        return next_reaction(replace(state, queue=state.queue[1:]), ev)
    return replace(state, decision=Decision(
        seat=seat, kind="react", prompt=f"React to {state.day}: Conform, Dissent or Pass",
        options=reaction_options(state, seat)))


def react(state: GameState, action: React, ev: Events) -> GameState:
    seat = state.queue[0]
    ev.append(Event(kind="react", seat=seat, detail=action.kind))
    if action.kind == "pass":
        return next_reaction(replace(state, queue=state.queue[1:]), ev)
    effect = cards.action_effect(state, seat, state.day, action.kind)
    state = push_effect(state, seat, effect.steps, action.kind, card=cards.action_card_id(state, seat, state.day),
                        then="reaction_done")
    return resolve(state, ev)


@continues("reaction_done")
def _reaction_done(state: GameState, frame, ev: Events) -> GameState:
    return after_action(_conclude(state, frame.seat, ev), frame.seat, ev)


def end_turn(state: GameState, ev: Events) -> GameState:
    """Step 7: the Dreamer follows its arrow. A Reward tile ("at the end of the turn move your
    Dreamer to any night space") sends a player's Dreamer anywhere instead, whoever took it:
    the other players first, clockwise, then the active player."""
    n = len(state.players)
    order = [(state.active + i) % n for i in range(1, n)] + [state.active]
    seat = next((s for s in order if state.players[s].dreamer_free), None)
    if seat is not None:
        nights = board.pack(state).matrix.nights
        return replace(state, phase="turn", queue=(), decision=Decision(
            seat=seat, kind="move_dreamer", prompt="Move your Dreamer to any Night space",
            options=tuple(PlaceDreamer(night=n.id) for n in nights)))
    arrow = next(d.arrow for d in board.pack(state).matrix.days if d.action == state.day)
    return _advance_turn_marker(state, arrow, ev)


def _advance_turn_marker(state: GameState, night: str, ev: Events) -> GameState:
    """Steps 7-8: the Dreamer moves to its Night space; the Turn marker moves; maybe the Time marker."""
    p = board.pack(state)
    seat = state.active
    pl = state.players[seat]
    if king_turn.is_king(state, seat):  # its Dreamer stays on its Day space (KING'S DREAMER)
        state = set_player(state, replace(pl, turns=pl.turns + 1))
    else:
        state = set_player(state, replace(pl, dreamer=night, turns=pl.turns + 1, dreamer_free=False))
        ev.append(Event(kind="dreamer_moves", seat=seat, detail=night))
    pos = (state.turn_pos + 1) % len(p.tracks.turn)
    state = replace(state, turn_pos=pos, queue=(), phase="turn")
    from .scoring import devoured_end_due, end_game

    if pos == state.turn_start:
        state = replace(state, time=state.time + 1)
        ev.append(Event(kind="time_advances", value=state.time, detail=p.tracks.time[state.time]))
        if state.time == len(p.tracks.time) - 1:
            return end_game(state, "time", ev)
    if devoured_end_due(state):
        return end_game(state, "devoured", ev)
    return begin_turn(state, ev)


def free_dreamer(state: GameState, action: PlaceDreamer, ev: Events) -> GameState:
    seat = state.decision.seat
    if seat == state.active:
        return _advance_turn_marker(state, action.night, ev)
    state = set_player(state, replace(state.players[seat], dreamer=action.night, dreamer_free=False))
    ev.append(Event(kind="dreamer_free_move", seat=seat, detail=action.night))
    return end_turn(state, ev)
