"""SETUP, steps 1-23 of the core rulebook, for 2-4 players, in the Standard or the Variable
Length Game, with or without the Divergent Paths module (the Cathedral: ``cathedral.set_up``).

Random steps happen in rulebook order with the state's RNG; steps 7, 17 and 19 are decisions.
"""

from __future__ import annotations

from msgspec.structs import replace

from . import board, cathedral, rng
from .actions import ChooseTurnStart, Conquer, PlaceDreamer
from .config import NIGHTMARES, GameConfig, check_config
from .errors import IllegalAction
from .events import Event
from .state import BASIC_COMBAT, DREAM_OFFER, AreaState, Decision, Decks, GameState, PlayerState

Events = list[Event]


def new_game(config: GameConfig) -> tuple[GameState, Events]:
    """Steps 1-6 and the decision of step 7."""
    problems = check_config(config)
    if problems:
        raise ValueError("; ".join(problems))
    if config.players == 1:  # you against the King of Horrors (solo rules)
        from .solo import new_solo_game

        return new_solo_game(config)
    p = board.get_pack(config.pack)
    n = config.seat_count
    sm = board.side_for(p, config.players)
    # Step 2: with 3 players the areas marked 4 are covered and not used.
    in_play = [a for a in sm.side.areas if config.players == 4 or not a.four_players_only]
    areas = tuple(AreaState(id=a.id, followers=(0,) * n) for a in in_play)
    players = tuple(
        PlayerState(seat=i, colour=c, ritual=(0, 0)) for i, c in enumerate(config.seat_colours())
    )  # steps 5 and 23
    state = GameState(config=config, pack=config.pack, rng=rng.seeded(config.seed), board_side=sm.side.id,
                      areas=areas, players=players, time=0)  # step 6
    cathedral_events: Events = []
    state = cathedral.set_up(state, cathedral_events)  # step 3 (Divergent Paths deals its tiles)
    first, r = rng.below(state.rng, n)  # step 4
    state = replace(state, rng=r, first_player=first)
    events: Events = [
        Event(kind="setup_board", detail=sm.side.name, value=len(areas)),
        Event(kind="first_player", seat=first),
        *cathedral_events,
    ]
    return _ask_turn_start(state), events


def _ask_turn_start(state: GameState) -> GameState:
    track = board.pack(state).tracks.turn
    options = tuple(ChooseTurnStart(position=i) for i in range(len(track)))
    d = Decision(seat=state.first_player, kind="turn_start",
                 prompt="Choose the starting position of the Turn track", options=options)
    return replace(state, decision=d)


def choose_turn_start(state: GameState, action: ChooseTurnStart, ev: Events) -> GameState:
    """Step 7, then the card steps 8-16 and the first conquest decision of step 17."""
    state = replace(state, turn_start=action.position, turn_pos=action.position)
    ev.append(Event(kind="turn_start", seat=state.first_player, value=action.position))
    state = _deal_cards(state, ev)
    return _next_conquest(replace(state, queue=_snake(state)))


def _snake(state: GameState) -> tuple[int, ...]:
    """Step 17: first player clockwise, then the last player counter-clockwise."""
    n = len(state.players)
    order = tuple((state.first_player + i) % n for i in range(n))
    return order + order[::-1]


def _deal_cards(state: GameState, ev: Events) -> GameState:
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
    deck, r = rng.shuffle(r, dev1)
    deck = list(deck)
    order = [(state.first_player + i) % len(players) for i in range(len(players))]
    for seat in order:
        i = next((k for k, c in enumerate(deck) if c in upgrades), None)
        if i is None:
            break
        card = deck.pop(i)
        pl = players[seat]
        slot = p.matrix.rondel.index(_card(p, card).action)
        disp = pl.display[:slot] + (pl.display[slot] + (card,),) + pl.display[slot + 1 :]
        players[seat] = replace(pl, display=disp)
        ev.append(Event(kind="starting_upgrade", seat=seat, cards=(card,)))
    # Step 12: shuffle again. Step 13: deal 3 each.
    deck_t, r = rng.shuffle(r, deck)
    deck = list(deck_t)
    for seat in order:
        dealt, deck = tuple(deck[:3]), deck[3:]
        players[seat] = replace(players[seat], hand=players[seat].hand + dealt)
        ev.append(Event(kind="dealt_development", seat=seat, cards=dealt, private_to=seat))
    # Steps 14-15: the Dream deck, 2 Dreams each, an offer of 3.
    dreams, r = rng.shuffle(r, [d.id for d in p.cards.dreams if d.stage == 1])
    dreams = list(dreams)
    for seat in order:
        dealt, dreams = tuple(dreams[:2]), dreams[2:]
        players[seat] = replace(players[seat], dreams=dealt)
        ev.append(Event(kind="dealt_dreams", seat=seat, cards=dealt, private_to=seat))
    offer, dreams = tuple(dreams[:DREAM_OFFER]), dreams[DREAM_OFFER:]
    ev.append(Event(kind="dream_offer", cards=offer))
    # Step 16: the Conflict deck. Step 22: Stage 2 decks set aside.
    conflicts, r = rng.shuffle(r, [c.id for c in p.cards.conflicts if c.stage == 1])
    d2, r = rng.shuffle(r, dev2)
    dr2, r = rng.shuffle(r, [d.id for d in p.cards.dreams if d.stage == 2])
    c2, r = rng.shuffle(r, [c.id for c in p.cards.conflicts if c.stage == 2])
    decks = Decks(
        development=tuple(deck), dream=tuple(dreams), dream_offer=offer, conflict=conflicts,
        development2=d2, dream2=dr2, conflict2=c2, removed=removed,
    )
    return replace(state, players=tuple(players), decks=decks, rng=r)


def _card(p, card_id: str):
    return next(d for d in p.cards.development if d.id == card_id)


def conquest_options(state: GameState, seat: int) -> tuple[Conquer, ...]:
    """Step 17: an unconquered area of a kind (corner / non-corner) the seat still needs."""
    taken = _conquered(state)
    mine = [a for a, s in taken.items() if s == seat]
    has_corner = any(board.is_corner(state, a) for a in mine)
    has_other = any(not board.is_corner(state, a) for a in mine)
    return tuple(
        Conquer(area=a.id)
        for a in state.areas
        if a.id not in taken
        and ((board.is_corner(state, a.id) and not has_corner) or (not board.is_corner(state, a.id) and not has_other))
    )


def _conquered(state: GameState) -> dict[str, int]:
    return {a.id: next(i for i, f in enumerate(a.followers) if f) for a in state.areas if sum(a.followers)}


def _next_conquest(state: GameState) -> GameState:
    seat = state.queue[0]
    d = Decision(seat=seat, kind="conquer", prompt="Conquer an area (one corner, one other)",
                 options=conquest_options(state, seat))
    return replace(state, decision=d)


def explain_conquer(state: GameState, action: Conquer) -> IllegalAction:
    if action.area in _conquered(state):
        return IllegalAction(f"{action.area} is already conquered", rule="conquer an unconquered area", section="SETUP 17")
    return IllegalAction(
        "you must take exactly 1 corner area and exactly 1 non-corner area",
        rule="one corner, one non-corner", section="SETUP 17")


def conquer(state: GameState, action: Conquer, ev: Events) -> GameState:
    """Step 17: place the pieces, then the next conquest, or seeding and the Dreamers."""
    seat = state.queue[0]
    a = board.area(state, action.area)
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
    state = replace(state, areas=board.replace_area(state, a), players=players, queue=state.queue[1:])
    ev.append(Event(kind="conquer", seat=seat, area=a.id, value=sum(a.followers)))
    if state.queue:
        return _next_conquest(state)
    state = _seed_shadows(state, ev)
    return _next_dreamer(replace(state, queue=tuple(
        (state.first_player + i) % len(state.players) for i in range(len(state.players)))))


def _seed_shadows(state: GameState, ev: Events) -> GameState:
    """Step 18."""
    areas, pool = [], state.shadows
    for a in state.areas:
        if board.is_empty(a):
            k = 1 if board.adjacent_to_cathedral(state, a.id) else 2
            a = replace(a, shadows=k)
            pool -= k
            ev.append(Event(kind="seed_shadows", area=a.id, value=k))
        areas.append(a)
    return replace(state, areas=tuple(areas), shadows=pool)


def _next_dreamer(state: GameState) -> GameState:
    nights = board.pack(state).matrix.nights
    d = Decision(seat=state.queue[0], kind="place_dreamer", prompt="Place your Dreamer on a Night space",
                 options=tuple(PlaceDreamer(night=n.id) for n in nights))
    return replace(state, decision=d)


def place_dreamer(state: GameState, action: PlaceDreamer, ev: Events) -> GameState:
    """Step 19, then steps 20-21 and the first turn."""
    if state.phase != "setup":  # a Reward tile sent the Dreamer to any Night space
        from .turn import free_dreamer

        return free_dreamer(state, action, ev)
    seat = state.queue[0]
    pl = replace(state.players[seat], dreamer=action.night)
    state = replace(state, players=state.players[:seat] + (pl,) + state.players[seat + 1 :], queue=state.queue[1:])
    ev.append(Event(kind="place_dreamer", seat=seat, detail=action.night))
    if state.queue:
        return _next_dreamer(state)
    state = reveal_nightmares(state, ev)
    from .turn import begin_turn

    return begin_turn(replace(state, phase="turn"), ev)


def reveal_nightmares(state: GameState, ev: Events) -> GameState:
    """Steps 20-21: two Nightmares, revealed at random, or chosen by the players (CHOOSING
    NIGHTMARES: two numbers, e.g. a suggested pair); each miniature waits on its card."""
    chosen = state.config.nightmares
    r = state.rng
    if not chosen:
        pool, r = rng.shuffle(r, range(1, NIGHTMARES + 1))
        chosen = tuple(sorted(pool[:2]))
    how = "chosen" if state.config.nightmares else "random"
    ev.append(Event(kind="nightmares", detail=" & ".join(str(n) for n in chosen), value=int(how == "chosen")))
    return replace(state, nightmares=tuple(chosen), nightmare_at=("",) * len(chosen), rng=r)
