"""Solo mode SETUP 1-6 (solo rulebook): a 2-player setup for the board, the decks and you; the
King of Horrors' play area; the corners (you choose, the King and your second area follow the
ring clockwise, ``king_turn.ring``); you start.

The human decides the Turn track start (core SETUP 7), its corner and its Night space, and with
the harder modifier ``harder_powered_1``/``_2`` the King's Action cards that start powered up
(DIFFICULTY MODIFIERS); the rest is automatic. ``flow.new_game`` hands solo configurations here.
"""

from __future__ import annotations

from msgspec.structs import replace

from nctui.platform import rng

from . import board, cards, events as E, setup
from .actions import Action, ChooseAction, ChooseTurnStart, Conquer
from .config import GameConfig, check_config
from .errors import IllegalAction
from .events import Event
from .king import (
    area_selection_cards,
    clockwise,
    draw,
    king,
    king_combat_cards,
    modifier,
    next_corner_clockwise,
    rondel,
    tuck,
)
from .king_dreams import dream_discount
from .king_state import KingState
from .ops import set_player
from .rules import Refusal, Rule, legal
from .state import GameState
from .work import KingPoweredWork, SoloCornerWork, SoloTurnStartWork

Events = list[Event]
HUMAN, KING = 0, 1
POWERED = {"harder_powered_1": 1, "harder_powered_2": 2}  # King Action cards powered up at setup


def new_game(config: GameConfig) -> tuple[GameState, Events]:
    """SETUP 1 as in 2 players, you are the starting player (SETUP 6); the first decision."""
    problems = check_config(config)
    if problems or config.players != 1:
        raise ValueError("; ".join(problems) or "solo.new_game needs players=1")
    state, events = setup.new_game(replace(config, players=2, seats=("human", "human"), difficulty=()))
    events = [e for e in events if e.kind != "first_player"]
    state = replace(state, config=config, first_player=HUMAN, work=SoloTurnStartWork(seat=HUMAN))
    events.append(E.FirstPlayer(seat=HUMAN, solo=True))
    return state, events


def _turn_start(state: GameState, w: SoloTurnStartWork, action: ChooseTurnStart, ev: Events) -> GameState:
    """Core SETUP 7-16 for you alone (the King gets no starting Upgrade, no Development cards),
    then the King's play area (solo SETUP 2-3, 5)."""
    state = replace(state, turn_start=action.position, turn_pos=action.position)
    ev.append(E.TurnStartChosen(seat=HUMAN, position=action.position))
    king_pl = state.players[KING]
    dealt = setup.deal_cards(replace(state, players=state.players[:1]), ev)
    starting = tuple(stack[:1] for stack in dealt.players[HUMAN].display)  # its Unit Limit: the starting Fortify card
    state = replace(dealt, players=dealt.players + (replace(king_pl, display=starting),))
    state = _king_area(state, ev)
    powered = sum(n for option, n in POWERED.items() if modifier(state, option))
    return replace(state, work=_after_powering(powered))


SOLO_TURN_START = Rule(
    SoloTurnStartWork, (ChooseTurnStart,), setup.turn_start_options, setup.turn_start_refusal, _turn_start
)


def _after_powering(left: int) -> KingPoweredWork | SoloCornerWork:
    """The King's Action cards still to power up, then your corner (SETUP 4)."""
    return KingPoweredWork(seat=HUMAN, left=left) if left > 0 else SoloCornerWork(seat=HUMAN)


def _powered_options(state: GameState, w: KingPoweredWork) -> tuple[Action, ...]:
    """DIFFICULTY MODIFIERS (harder): "1 or 2 actions of your choice", read as distinct: the cards
    with nothing tucked yet."""
    return legal(state, w, (ChooseAction(action=a) for a in rondel(state)), _powered_refusal)  # type: ignore[arg-type]


def _powered_refusal(state: GameState, w: KingPoweredWork, action: ChooseAction) -> Refusal:
    if action.action in rondel(state) and not king(state).tucked[rondel(state).index(action.action)]:
        return None
    return IllegalAction(
        f"the King's {action.action} card is already powered up: choose a different action (a card "
        "each under 1 or 2 actions of your choice)",
        rule="the King starts with powered-up actions",
        section="SOLO DIFFICULTY MODIFIERS",
    )


def _power_up(state: GameState, w: KingPoweredWork, action: ChooseAction, ev: Events) -> GameState:
    """DIFFICULTY MODIFIERS (harder): draw and tuck 1 card from the Development deck under the
    chosen action."""
    drawn, state = draw(state, 1)
    slot = rondel(state).index(action.action)
    for card in drawn:
        state = tuck(state, slot, card, ev, why="powered")
    return replace(state, work=_after_powering(w.left - 1))


KING_POWERED = Rule(KingPoweredWork, (ChooseAction,), _powered_options, _powered_refusal, _power_up)


def _king_area(state: GameState, ev: Events) -> GameState:
    """SETUP 2: 2 Dreams from the deck, the one worth fewest VP on top (last); its 2 combat
    cards face down. SETUP 3: its Dreamer on Ritual, a Cultist on every Day space. SETUP 5: the
    Cultist on the right-hand King's Nightmare card. The Area Selection cards are shuffled."""
    decks = state.decks
    two = sorted(decks.dream[:2], key=lambda c: -cards.dream(state, c).vp)  # lower (higher VP) first
    hand, r = rng.shuffle(state.rng, king_combat_cards(state))
    area_deck, r = rng.shuffle(r, area_selection_cards(state))
    n = len(board.pack(state).matrix.rondel)
    k = KingState(
        seat=KING,
        dreamer="ritual",
        day_cultists=(1,) * n,
        card_cultists=(0,) * n,
        tucked=((),) * n,
        hand=hand,
        dreams=tuple(two),
        dream_cultists=(0,) * len(two),
        nightmare_marker=1,
        area_deck=area_deck,
    )
    ev.append(E.KingSetup(seat=KING, dreams=tuple(two)))
    state = replace(state, king=k, rng=r, decks=replace(decks, dream=decks.dream[2:]))
    # harder: the Dream discount applies to the two setup Dreams too ("whenever it takes a new one")
    cultists = tuple(dream_discount(state, c, ev) for c in two)
    return replace(state, king=replace(k, dream_cultists=cultists))


def _corner_options(state: GameState, w: SoloCornerWork) -> tuple[Action, ...]:
    return legal(state, w, (Conquer(area=a.id) for a in state.areas), _corner_refusal)


def _corner_refusal(state: GameState, w: SoloCornerWork, action: Conquer) -> Refusal:
    if action.area in board.area_index(state) and board.is_corner(state, action.area):
        return None
    return IllegalAction(
        f"{action.area} is not a corner area: select your starting corner; your second area follows",
        rule="you select your starting corner",
        section="SOLO SETUP 4",
    )


def _choose_corner(state: GameState, w: SoloCornerWork, action: Conquer, ev: Events) -> GameState:
    """SETUP 4: your corner; the King's corner is the next corner clockwise, its second area the
    next area clockwise from that one; your second area is forced: the area counter-clockwise
    of your corner. Then Shadows as in 2 players and your Dreamer (core SETUP 18-19)."""
    mine = action.area
    theirs = next_corner_clockwise(state, mine)
    state = replace(state, work=None)
    for seat, area in (
        (HUMAN, mine),
        (KING, theirs),
        (KING, clockwise(state, theirs)),
        (HUMAN, clockwise(state, mine, -1)),
    ):
        state = setup.occupy(state, seat, area, ev)
    state = set_player(state, replace(state.players[KING], shaper=""))  # the King has no Shaper
    state = setup.seed_shadows(state, ev)
    return setup.place_dreamers(state, (HUMAN,))


SOLO_CORNER = Rule(SoloCornerWork, (Conquer,), _corner_options, _corner_refusal, _choose_corner)
