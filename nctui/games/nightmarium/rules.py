"""The rules of Nightmarium (seed 003, "How to Play", "Activating Abilities", "Creature
Abilities"). Pure: a state in, a new state and its events out. ``legal_actions`` is exactly what
``step`` accepts; whatever needs no choice resolves at once up to the next decision."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from nctui.platform import rng as R

from .cards import PARTS, Ability, all_cards, card
from .state import (
    Ability_,
    Action,
    Activation,
    Completed,
    Creature,
    Discarded,
    Done,
    Draw,
    Drew,
    Event,
    Exchange,
    NightmariumConfig,
    NightmariumState,
    NoTarget,
    Pick,
    Play,
    Played,
    Player,
    PureDiscard,
    Reshuffled,
    Revealed,
    StepResult,
    Switched,
    Target,
    TurnBegins,
    Won,
)
from .words import REFUSALS, Reason

HAND = 5  # "deal five cards to each player"
TARGETED: tuple[Ability, ...] = ("executioner", "scavenger", "devourer")


class Refused(ValueError):
    def __init__(self, reason: Reason) -> None:
        super().__init__(REFUSALS[reason])
        self.reason = reason


# -- setting up -------------------------------------------------------------------------------------


def new_game(config: NightmariumConfig) -> StepResult:
    """Shuffle the deck, deal five cards to each player; the first seat begins."""
    if not 2 <= len(config.seats) <= 5 or len(config.levels) != len(config.seats):
        raise ValueError("Nightmarium is for 2 to 5 players, each with a level")
    if not 5 <= config.creatures <= 7:
        raise ValueError("the game is played to 5 Creatures (or 6 or 7)")
    deck, rng = R.shuffle(R.seeded(config.seed), sorted(all_cards()))
    players = []
    for _ in config.seats:
        players.append(Player(hand=deck[:HAND]))
        deck = deck[HAND:]
    state = NightmariumState(config=config, rng=rng, deck=deck, players=tuple(players))
    return StepResult(state, (TurnBegins(0),))


# -- small helpers ----------------------------------------------------------------------------------


def _set_player(state: NightmariumState, seat: int, player: Player) -> NightmariumState:
    return replace(state, players=state.players[:seat] + (player,) + state.players[seat + 1 :])


def complete(creature: Creature) -> bool:
    return len(creature.cards) == 3


def completed(player: Player) -> int:
    return sum(complete(c) for c in player.creatures)


def _draw(state: NightmariumState, n: int, events: list[Event]) -> tuple[NightmariumState, tuple[str, ...]]:
    """The top ``n`` cards (fewer if deck and discard pile run out); an empty deck is made again
    from the shuffled discard pile."""
    taken: list[str] = []
    deck, discard, rng = state.deck, state.discard, state.rng
    while len(taken) < n:
        if not deck:
            if not discard:
                break
            deck, rng = R.shuffle(rng, discard)
            events.append(Reshuffled(len(discard)))
            discard = ()
        taken.append(deck[0])
        deck = deck[1:]
    return replace(state, deck=deck, discard=discard, rng=rng), tuple(taken)


def _draw_to_hand(state: NightmariumState, seat: int, n: int, events: list[Event]) -> NightmariumState:
    state, cards = _draw(state, n, events)
    player = state.players[seat]
    events.append(Drew(seat, cards, len(cards)))
    return _set_player(state, seat, replace(player, hand=player.hand + cards))


def _remove(hand: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    out = list(hand)
    for c in cards:
        out.remove(c)
    return tuple(out)


# -- where a card may go ----------------------------------------------------------------------------


def placements(state: NightmariumState, seat: int, card_id: str) -> list[Play]:
    """Every way ``card_id`` may join ``seat``'s Creatures: legs begin a new Creature (while
    fewer Creatures than the goal), a torso goes on legs alone, a head on legs and torso."""
    player = state.players[seat]
    out = []
    for part in card(card_id).parts:
        if part == "legs":
            if len(player.creatures) < state.config.creatures:
                out.append(Play(card_id, "legs", player.next_id))
            continue
        below = PARTS.index(part)
        out.extend(Play(card_id, part, c.id) for c in player.creatures if len(c.cards) == below)
    return out


def _place(state: NightmariumState, seat: int, play: Play, by: Any, events: list[Event]) -> NightmariumState:
    player = state.players[seat]
    if play.part == "legs":
        creatures = (*player.creatures, Creature(player.next_id, (play.card,)))
        player = replace(player, creatures=creatures, next_id=player.next_id + 1)
    else:
        player = replace(
            player,
            creatures=tuple(
                replace(c, cards=(*c.cards, play.card)) if c.id == play.creature else c for c in player.creatures
            ),
        )
    state = _set_player(state, seat, player)
    events.append(Played(seat, play.card, play.part, play.creature, by))
    if play.part == "head":
        state = _completed(state, seat, play.creature, events)
    return state


def _completed(state: NightmariumState, seat: int, creature_id: int, events: list[Event]) -> NightmariumState:
    """A Creature completed: the win at the goal; else its pure-legion discards, then its
    abilities head to legs, replacing whatever activation was under way (Herald or Mocker)."""
    player = state.players[seat]
    creature = next(c for c in player.creatures if c.id == creature_id)
    legions = {card(c).legion for c in creature.cards}
    pure = next(iter(legions)) if len(legions) == 1 else None
    abilities = tuple(card(c).ability for c in reversed(creature.cards))
    events.append(Completed(seat, creature_id, pure, abilities))
    if completed(player) >= state.config.creatures:
        events.append(Won(seat, completed(player)))
        # the game ends at once: a Herald card still to place goes to the discard pile
        return replace(
            state,
            winner=seat,
            activation=None,
            pure=None,
            revealed=(),
            exchange=None,
            discard=state.discard + state.revealed,
        )
    if state.activation is not None and state.activation.abilities:
        events.append(Switched(seat, state.activation.abilities))
    state = replace(state, activation=Activation(creature_id, tuple(a for a in abilities if a != "none")))
    if pure is not None:
        n = len(state.players)
        others = tuple((seat + k) % n for k in range(1, n))
        state = replace(state, pure=PureDiscard(pure, others))
    return state


# -- the decision due -------------------------------------------------------------------------------


def decider(state: NightmariumState) -> int | None:
    if state.winner is not None:
        return None
    if state.pure is not None:
        return state.pure.seats[0]
    return state.turn


def _pure_options(state: NightmariumState) -> tuple[Pick, ...]:
    """A pure-legion discard: a card of that legion; without one, any card (two in all)."""
    assert state.pure is not None
    hand = _remove(state.players[state.pure.seats[0]].hand, state.pure.picked)
    of_legion = [c for c in hand if card(c).legion == state.pure.legion]
    if not state.pure.picked and of_legion:
        return tuple(Pick(c) for c in dict.fromkeys(of_legion))
    return tuple(Pick(c) for c in dict.fromkeys(hand))


def _targets(state: NightmariumState, ability: Ability) -> tuple[Target, ...]:
    seat = state.turn
    assert state.activation is not None
    if ability == "devourer":
        return tuple(Target(seat, c.id) for c in state.players[seat].creatures if c.id != state.activation.creature)
    out = []
    for other, player in enumerate(state.players):
        if other == seat:
            continue
        for c in player.creatures:
            if ability == "executioner" or not complete(c):
                out.append(Target(other, c.id))
    return tuple(out)


def _mocker_options(state: NightmariumState) -> tuple[Play, ...]:
    hand = state.players[state.turn].hand
    return tuple(p for c in dict.fromkeys(hand) for p in placements(state, state.turn, c))


def _main_options(state: NightmariumState) -> tuple[Action, ...]:
    seat = state.turn
    hand = state.players[seat].hand
    out: list[Action] = [Draw()]
    if hand:
        out.append(Exchange())
    must = state.played[0] if state.played else None  # both actions plays: one legion
    for c in dict.fromkeys(hand):
        if must is None or card(c).legion == must:
            out.extend(placements(state, seat, c))
    return tuple(out)


def legal_actions(state: NightmariumState) -> tuple[Action, ...]:
    if state.winner is not None:
        return ()
    if state.pure is not None:
        return _pure_options(state)
    if state.revealed:  # the Herald's cards in either order (a torso first may let the head fit)
        return tuple(p for c in dict.fromkeys(state.revealed) for p in placements(state, state.turn, c))
    if state.activation is not None and state.activation.abilities:
        ability = state.activation.abilities[0]
        return _mocker_options(state) if ability == "mocker" else _targets(state, ability)
    if state.exchange is not None:
        hand = _remove(state.players[state.turn].hand, state.exchange)
        picks: tuple[Action, ...] = tuple(Pick(c) for c in dict.fromkeys(hand))
        return (Done(),) + picks if state.exchange else picks
    return _main_options(state)


# -- a step -----------------------------------------------------------------------------------------


def step(state: NightmariumState, action: Action) -> StepResult:
    """Validate ``action``, apply it, then resolve everything automatic up to the next decision."""
    if state.winner is not None:
        raise Refused("over")
    if action not in legal_actions(state):
        raise Refused(_why(state, action))
    events: list[Event] = []
    state = _apply(state, action, events)
    state = _settle(state, events)
    return StepResult(state, tuple(events))


def _why(state: NightmariumState, action: Action) -> Reason:
    if state.pure is not None:
        return "pure_discard"
    if state.revealed:
        return "herald"
    if state.activation is not None and state.activation.abilities:
        return "ability"
    if state.exchange is not None:
        return "exchange"
    if isinstance(action, Play):
        if action.card not in state.players[state.turn].hand:
            return "not_in_hand"
        if state.played and card(action.card).legion != state.played[0]:
            return "same_legion"
        return "placement"
    return "not_now"


def _apply(state: NightmariumState, action: Action, events: list[Event]) -> NightmariumState:
    seat = state.turn
    if state.pure is not None:
        assert isinstance(action, Pick)
        return _pure_pick(state, action.card, events)
    if state.revealed:
        assert isinstance(action, Play)
        rest = list(state.revealed)
        rest.remove(action.card)
        state = replace(state, revealed=tuple(rest))
        return _place(state, seat, action, "herald", events)
    if state.activation is not None and state.activation.abilities:
        return _perform(state, action, events)
    if state.exchange is not None:
        if isinstance(action, Pick):
            return replace(state, exchange=(*state.exchange, action.card))
        return _exchange(state, events)
    if isinstance(action, Draw):
        return _draw_to_hand(replace(state, actions_left=state.actions_left - 1), seat, 1, events)
    if isinstance(action, Exchange):
        return replace(state, exchange=())
    assert isinstance(action, Play)
    player = state.players[seat]
    state = _set_player(state, seat, replace(player, hand=_remove(player.hand, (action.card,))))
    state = replace(state, actions_left=state.actions_left - 1, played=(*state.played, card(action.card).legion))
    return _place(state, seat, action, "action", events)


def _exchange(state: NightmariumState, events: list[Event]) -> NightmariumState:
    """Action B: the picked cards to the discard pile, then one card drawn for every two."""
    seat, picked = state.turn, state.exchange or ()
    player = state.players[seat]
    state = _set_player(state, seat, replace(player, hand=_remove(player.hand, picked)))
    state = replace(state, discard=state.discard + picked, exchange=None, actions_left=state.actions_left - 1)
    events.append(Discarded(seat, picked, "exchange"))
    return _draw_to_hand(state, seat, len(picked) // 2, events)


def _pure_pick(state: NightmariumState, card_id: str, events: list[Event]) -> NightmariumState:
    assert state.pure is not None
    seat = state.pure.seats[0]
    legion = state.pure.legion
    picked = (*state.pure.picked, card_id)
    hand = _remove(state.players[seat].hand, picked)
    done = (card(card_id).legion == legion and len(picked) == 1) or len(picked) == 2 or not hand
    if not done:
        return replace(state, pure=replace(state.pure, picked=picked))
    rest = state.pure.seats[1:]
    player = state.players[seat]
    state = _set_player(state, seat, replace(player, hand=hand))
    events.append(Discarded(seat, picked, "pure"))
    return replace(state, discard=state.discard + picked, pure=PureDiscard(legion, rest) if rest else None)


def _perform(state: NightmariumState, action: Action, events: list[Event]) -> NightmariumState:
    """The next ability of the activation, with its target."""
    assert state.activation is not None
    seat = state.turn
    ability = state.activation.abilities[0]
    state = replace(state, activation=replace(state.activation, abilities=state.activation.abilities[1:]))
    if ability == "mocker":
        assert isinstance(action, Play)
        player = state.players[seat]
        state = _set_player(state, seat, replace(player, hand=_remove(player.hand, (action.card,))))
        events.append(Ability_(seat, "mocker", card=action.card))
        return _place(state, seat, action, "mocker", events)
    assert isinstance(action, Target)
    victim = state.players[action.seat]
    creature = next(c for c in victim.creatures if c.id == action.creature)
    if ability == "scavenger":
        taken = creature.cards
        state = _set_player(
            state, action.seat, replace(victim, creatures=tuple(c for c in victim.creatures if c.id != creature.id))
        )
        state = replace(state, discard=state.discard + taken)
        events.append(Ability_(seat, "scavenger", action.seat, creature.id, ""))
        events.append(Discarded(action.seat, taken, "scavenger"))
        return state
    top = creature.cards[-1]
    rest = creature.cards[:-1]
    creatures = tuple(
        replace(c, cards=rest) if c.id == creature.id else c for c in victim.creatures if c.id != creature.id or rest
    )
    state = _set_player(state, action.seat, replace(victim, creatures=creatures))
    events.append(Ability_(seat, ability, action.seat, creature.id, top))
    if ability == "executioner":
        me = state.players[seat]
        return _set_player(state, seat, replace(me, hand=(*me.hand, top)))
    events.append(Discarded(action.seat, (top,), "devourer"))
    return replace(state, discard=state.discard + (top,))


def _settle(state: NightmariumState, events: list[Event]) -> NightmariumState:
    """Resolve what needs no choice: abilities without one (Weeper, Herald's reveal), abilities
    without a target (the activation ends), Herald cards that fit nowhere, the end of a turn."""
    while state.winner is None:
        if state.pure is not None:
            options = _pure_options(state)
            if not options:  # an empty hand discards nothing
                rest = state.pure.seats[1:]
                state = replace(state, pure=replace(state.pure, seats=rest, picked=()) if rest else None)
                continue
            return state
        if state.revealed:  # "Discard any cards that you cannot play": only once none fits
            if any(placements(state, state.turn, c) for c in state.revealed):
                return state
            gone = state.revealed
            state = replace(state, revealed=(), discard=state.discard + gone)
            events.append(Discarded(state.turn, gone, "herald"))
            continue
        activation = state.activation
        if activation is not None and activation.abilities:
            ability = activation.abilities[0]
            if ability == "weeper":
                state = replace(state, activation=replace(activation, abilities=activation.abilities[1:]))
                events.append(Ability_(state.turn, "weeper"))
                state = _draw_to_hand(state, state.turn, 2, events)
                continue
            if ability == "herald":
                state = replace(state, activation=replace(activation, abilities=activation.abilities[1:]))
                state, shown = _draw(state, 2, events)
                events.append(Ability_(state.turn, "herald"))
                events.append(Revealed(state.turn, shown))
                state = replace(state, revealed=shown)
                continue
            if not (_mocker_options(state) if ability == "mocker" else _targets(state, ability)):
                events.append(NoTarget(state.turn, ability, activation.abilities[1:]))
                state = replace(state, activation=None)
                continue
            return state
        if activation is not None:
            state = replace(state, activation=None)
        if state.exchange is not None or state.actions_left > 0:
            return state
        nxt = (state.turn + 1) % len(state.players)
        state = replace(state, turn=nxt, actions_left=2, played=(), turns=state.turns + 1)
        events.append(TurnBegins(nxt))
    return state


def problems(state: NightmariumState) -> list[str]:
    """Broken invariants: the 108 cards each in exactly one place; Creatures built bottom up
    with each card in a part it may be; no more Creatures than the goal."""
    places = list(state.deck) + list(state.discard) + list(state.revealed)
    out = []
    for seat, player in enumerate(state.players):
        places += list(player.hand)
        if len(player.creatures) > state.config.creatures:
            out.append(f"player {seat + 1} has more Creatures than the goal")
        for c in player.creatures:
            places += list(c.cards)
            if not 1 <= len(c.cards) <= 3:
                out.append(f"player {seat + 1} has an empty Creature")
            for i, card_id in enumerate(c.cards):
                if PARTS[i] not in card(card_id).parts:
                    out.append(f"{card(card_id).name} cannot be the {PARTS[i]} of a Creature")
    if sorted(places) != sorted(all_cards()):
        out.append("the 108 cards are not each in exactly one place")
    return out
