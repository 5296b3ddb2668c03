"""SETUP, steps 1-23 of the core rulebook, for 2-4 players, in the Standard or the Variable
Length Game, with or without the Divergent Paths module (the Cathedral: ``cathedral.set_up``).

Random steps happen in rulebook order with the state's RNG; steps 7, 17 and 19 are decisions.
The setup waits above a frame whose continuation begins the first turn (``turn``).
"""

from __future__ import annotations

from msgspec.structs import replace

from nctui.platform import rng

from ..content.loader import Pack
from . import board, cathedral, events as E
from .actions import Action, ChooseTurnStart, Conquer, PlaceDreamer
from .config import NIGHTMARES, GameConfig, check_config
from .errors import IllegalAction
from .events import Event
from .rules import Refusal, Rule, legal
from .state import BASIC_COMBAT, DREAM_OFFER, AreaState, Decks, GameState, PlayerState
from .work import ConquerWork, FirstTurn, Frame, PlaceDreamerWork, TurnStartWork

Events = list[Event]


def new_game(config: GameConfig) -> tuple[GameState, Events]:
    """Steps 1-6 and the decision of step 7."""
    problems = check_config(config)
    if problems:
        raise ValueError("; ".join(problems))
    p = board.get_pack(config.pack)
    n = config.seat_count
    sm = board.side_for(p, config.players)
    # Step 2: with 3 players the areas marked 4 are covered and not used.
    in_play = [a for a in sm.side.areas if config.players == 4 or not a.four_players_only]
    areas = tuple(AreaState(id=a.id, followers=(0,) * n) for a in in_play)
    players = tuple(
        PlayerState(seat=i, colour=c, ritual=(0, 0)) for i, c in enumerate(config.seat_colours())
    )  # steps 5 and 23
    state = GameState(
        config=config,
        pack=config.pack,
        rng=rng.seeded(config.seed),
        board_side=sm.side.id,
        areas=areas,
        players=players,
        time=0,
    )  # step 6
    cathedral_events: Events = []
    state = cathedral.set_up(state, cathedral_events)  # step 3 (Divergent Paths deals its tiles)
    first, r = rng.below(state.rng, n)  # step 4
    state = replace(state, rng=r, first_player=first)
    events: Events = [
        E.SetupBoard(side=sm.side.id, areas=len(areas)),
        E.FirstPlayer(seat=first),
        *cathedral_events,
    ]
    state = replace(
        state, work=TurnStartWork(seat=first), frames=(Frame(seat=first, steps=(), source="setup", then=FirstTurn()),)
    )
    return state, events


def turn_start_options(state: GameState, w: TurnStartWork | object) -> tuple[Action, ...]:
    """SETUP 7: any position of the Turn track."""
    return tuple(ChooseTurnStart(position=i) for i in range(len(board.pack(state).tracks.turn)))


def turn_start_refusal(state: GameState, w: object, action: ChooseTurnStart) -> Refusal:
    if 0 <= action.position < len(board.pack(state).tracks.turn):
        return None
    return IllegalAction(
        f"the Turn track has positions 0 to {len(board.pack(state).tracks.turn) - 1}",
        rule="the Starting marker",
        section="SETUP 7",
    )


def _choose_turn_start(state: GameState, w: TurnStartWork, action: ChooseTurnStart, ev: Events) -> GameState:
    """Step 7, then the card steps 8-16 and the first conquest decision of step 17."""
    state = replace(state, turn_start=action.position, turn_pos=action.position)
    ev.append(E.TurnStartChosen(seat=state.first_player, position=action.position))
    state = deal_cards(state, ev)
    queue = _snake(state)
    return replace(state, queue=queue, work=ConquerWork(seat=queue[0]))


TURN_START = Rule(TurnStartWork, (ChooseTurnStart,), turn_start_options, turn_start_refusal, _choose_turn_start)


def _snake(state: GameState) -> tuple[int, ...]:
    """Step 17: first player clockwise, then the last player counter-clockwise."""
    n = len(state.players)
    order = tuple((state.first_player + i) % n for i in range(n))
    return order + order[::-1]


def deal_cards(state: GameState, ev: Events) -> GameState:
    """Steps 8-16 and 22: the Action cards, the starting Upgrades, the hands, the Dream deck and
    offer, the Conflict deck, the Stage 2 decks set aside."""
    p = board.pack(state)
    n_players = state.config.players if state.config.players > 1 else 2
    r = state.rng
    keep = {2: (2,), 3: (2, 3), 4: (2, 3, 4)}[max(2, n_players)]
    dev1 = [d.id for d in p.cards.development if d.stage == 1 and d.players in keep]
    dev2 = [d.id for d in p.cards.development if d.stage == 2 and d.players in keep]
    removed = tuple(d.id for d in p.cards.development if d.players not in keep)
    upgrades = {d.id for d in p.cards.development if d.kind == "upgrade"}
    # Step 9: Action cards in a row, the Basic Combat card in hand.
    start = {a.action: a.id for a in p.cards.actions}
    display = tuple((start[a],) for a in p.matrix.rondel)
    players = [replace(pl, display=display, hand=(BASIC_COMBAT,)) for pl in state.players]
    # Steps 10-11: deal a starting Upgrade to each player, first player first.
    shuffled, r = rng.shuffle(r, dev1)
    deck = list(shuffled)
    order = [(state.first_player + i) % len(players) for i in range(len(players))]
    for seat in order:
        i = next((k for k, c in enumerate(deck) if c in upgrades), None)
        if i is None:
            break
        card = deck.pop(i)
        pl = players[seat]
        slot = p.matrix.rondel.index(_upgrade_action(p, card))
        disp = pl.display[:slot] + (pl.display[slot] + (card,),) + pl.display[slot + 1 :]
        players[seat] = replace(pl, display=disp)
        ev.append(E.StartingUpgrade(seat=seat, card=card))
    # Step 12: shuffle again. Step 13: deal 3 each.
    shuffled, r = rng.shuffle(r, deck)
    deck = list(shuffled)
    for seat in order:
        dealt, deck = tuple(deck[:3]), deck[3:]
        players[seat] = replace(players[seat], hand=players[seat].hand + dealt)
        ev.append(E.DealtDevelopment(seat=seat, cards=dealt))
    # Steps 14-15: the Dream deck, 2 Dreams each, an offer of 3.
    shuffled, r = rng.shuffle(r, [d.id for d in p.cards.dreams if d.stage == 1])
    dreams = list(shuffled)
    for seat in order:
        dealt, dreams = tuple(dreams[:2]), dreams[2:]
        players[seat] = replace(players[seat], dreams=dealt)
        ev.append(E.DealtDreams(seat=seat, cards=dealt))
    offer, dreams = tuple(dreams[:DREAM_OFFER]), dreams[DREAM_OFFER:]
    ev.append(E.DreamOffer(cards=offer))
    # Step 16: the Conflict deck. Step 22: Stage 2 decks set aside.
    conflicts, r = rng.shuffle(r, [c.id for c in p.cards.conflicts if c.stage == 1])
    d2, r = rng.shuffle(r, dev2)
    dr2, r = rng.shuffle(r, [d.id for d in p.cards.dreams if d.stage == 2])
    c2, r = rng.shuffle(r, [c.id for c in p.cards.conflicts if c.stage == 2])
    decks = Decks(
        development=tuple(deck),
        dream=tuple(dreams),
        dream_offer=offer,
        conflict=conflicts,
        development2=d2,
        dream2=dr2,
        conflict2=c2,
        removed=removed,
    )
    return replace(state, players=tuple(players), decks=decks, rng=r)


def _upgrade_action(p: Pack, card_id: str) -> str:
    """The Action card a starting Upgrade goes on."""
    action = next(d.action for d in p.cards.development if d.id == card_id)
    assert action is not None
    return action


def _conquer_options(state: GameState, w: ConquerWork) -> tuple[Action, ...]:
    """Step 17: an unconquered area of a kind (corner / non-corner) the seat still needs."""
    return legal(state, w, (Conquer(area=a.id) for a in state.areas), _conquer_refusal)


def _conquered(state: GameState) -> dict[str, int]:
    return {a.id: next(i for i, f in enumerate(a.followers) if f) for a in state.areas if sum(a.followers)}


def _conquer_refusal(state: GameState, w: ConquerWork, action: Conquer) -> Refusal:
    if action.area not in board.area_index(state):
        return IllegalAction(f"{action.area!r} is not an area in play", rule="areas in play", section="SETUP 2")
    taken = _conquered(state)
    if action.area in taken:
        return IllegalAction(
            f"{action.area} is already conquered", rule="conquer an unconquered area", section="SETUP 17"
        )
    mine = [a for a, s in taken.items() if s == w.seat]
    corner = board.is_corner(state, action.area)
    if any(board.is_corner(state, a) == corner for a in mine):
        return IllegalAction(
            "you must take exactly 1 corner area and exactly 1 non-corner area",
            rule="one corner, one non-corner",
            section="SETUP 17",
        )
    return None


def occupy(state: GameState, seat: int, area_id: str, ev: Events) -> GameState:
    """Step 17's pieces: a corner gets 2 Followers, a 1-level Fort, the Fortress marker and the
    Shaper; another area 2 Followers (1 next to the Cathedral)."""
    a = board.area(state, area_id)
    pl = state.players[seat]
    fol = list(a.followers)
    if board.is_corner(state, a.id):
        fol[seat] += 2
        a = replace(a, followers=tuple(fol), fort_owner=seat, fort_levels=1, fortress=seat)
        pl = replace(pl, supply=pl.supply - 2, forts=pl.forts - 1, shaper=a.id)
    else:
        k = 1 if board.adjacent_to_cathedral(state, a.id) else 2
        fol[seat] += k
        a = replace(a, followers=tuple(fol))
        pl = replace(pl, supply=pl.supply - k)
    players = state.players[:seat] + (pl,) + state.players[seat + 1 :]
    ev.append(E.Conquered(seat=seat, area=a.id, followers=sum(a.followers)))
    return replace(state, areas=board.replace_area(state, a), players=players)


def _conquer(state: GameState, w: ConquerWork, action: Conquer, ev: Events) -> GameState:
    """Step 17: place the pieces, then the next conquest, or seeding and the Dreamers."""
    state = replace(occupy(state, w.seat, action.area, ev), queue=state.queue[1:])
    if state.queue:
        return replace(state, work=ConquerWork(seat=state.queue[0]))
    state = seed_shadows(state, ev)
    n = len(state.players)
    return place_dreamers(state, tuple((state.first_player + i) % n for i in range(n)))


CONQUER = Rule(ConquerWork, (Conquer,), _conquer_options, _conquer_refusal, _conquer)


def seed_shadows(state: GameState, ev: Events) -> GameState:
    """Step 18."""
    areas, pool = [], state.shadows
    for a in state.areas:
        if board.is_empty(a):
            k = 1 if board.adjacent_to_cathedral(state, a.id) else 2
            a = replace(a, shadows=k)
            pool -= k
            ev.append(E.ShadowsSeeded(area=a.id, count=k))
        areas.append(a)
    return replace(state, areas=tuple(areas), shadows=pool)


def place_dreamers(state: GameState, queue: tuple[int, ...]) -> GameState:
    """Step 19, for the seats of ``queue`` in order."""
    return replace(state, queue=queue, work=PlaceDreamerWork(seat=queue[0]))


def _dreamer_options(state: GameState, w: PlaceDreamerWork) -> tuple[Action, ...]:
    return tuple(PlaceDreamer(night=n.id) for n in board.pack(state).matrix.nights)


def night_refusal(state: GameState, w: object, action: PlaceDreamer) -> Refusal:
    if any(n.id == action.night for n in board.pack(state).matrix.nights):
        return None
    return IllegalAction(f"{action.night!r} is not a Night space", rule="Night spaces", section="ACTION MATRIX")


def _place_dreamer(state: GameState, w: PlaceDreamerWork, action: PlaceDreamer, ev: Events) -> GameState:
    """Step 19, then steps 20-21; the first turn follows (the frame beneath)."""
    pl = replace(state.players[w.seat], dreamer=action.night)
    state = replace(state, players=state.players[: w.seat] + (pl,) + state.players[w.seat + 1 :], queue=state.queue[1:])
    ev.append(E.DreamerPlaced(seat=w.seat, night=action.night))
    if state.queue:
        return replace(state, work=PlaceDreamerWork(seat=state.queue[0]))
    return replace(reveal_nightmares(state, ev), work=None, phase="turn")


PLACE_DREAMER = Rule(PlaceDreamerWork, (PlaceDreamer,), _dreamer_options, night_refusal, _place_dreamer)


def reveal_nightmares(state: GameState, ev: Events) -> GameState:
    """Steps 20-21: two Nightmares, revealed at random, or chosen by the players (CHOOSING
    NIGHTMARES: two numbers, e.g. a suggested pair); each miniature waits on its card."""
    chosen = state.config.nightmares
    r = state.rng
    if not chosen:
        pool, r = rng.shuffle(r, range(1, NIGHTMARES + 1))
        chosen = tuple(sorted(pool[:2]))
    ev.append(E.NightmaresRevealed(numbers=tuple(chosen), chosen=bool(state.config.nightmares)))
    return replace(state, nightmares=tuple(chosen), nightmare_at=("",) * len(chosen), rng=r)
