"""The King of Horrors' automated rules (solo mode): its Dreamer on the rondel, the Horror Die,
Cultists and Power (KING'S TURN 1-3), its Dreams (COMPLETING THE KING'S DREAMS, REFILL DREAMS),
its reactions on your turn (THE KING CONFORMS / DISSENTS), the Area Selection cards and the ring
of the board (clockwise, SETUP 4).

Every King step is logged as an Event whose ``detail`` reads as a sentence.
"""

from __future__ import annotations

from msgspec.structs import replace

from . import board, cards, rng, units
from .actions import TakeDream
from .effects import push_effect, resolve
from .errors import IllegalAction
from .events import Event, plural
from .king_state import HORROR_DIE, KING_COMBAT, KingState
from .ops import draw_development, set_player
from .registry import continues, decides, explains, handles
from .state import Decision, GameState
from .work import Frame, KingDreamWork

Events = list[Event]
SOLO = "SOLO"  # rulebook sections below are those of the solo rulebook


def king(state: GameState) -> KingState:
    if state.king is None:
        raise ValueError("not a solo game: there is no King of Horrors")
    return state.king


def set_king(state: GameState, k: KingState) -> GameState:
    return replace(state, king=k)


def _bump(values: tuple[int, ...], i: int, by: int) -> tuple[int, ...]:
    return values[:i] + (values[i] + by,) + values[i + 1 :]


def rondel(state: GameState) -> tuple[str, ...]:
    return board.pack(state).matrix.rondel


# ---------------------------------------------------------------------------------------------
# The board's ring and the Area Selection cards


def ring(state: GameState) -> tuple[str, ...]:
    """Clockwise: the areas met walking the outer cells of the board's grid, along the top row
    left to right, down the right column, the bottom row right to left, up the left column,
    starting from the top-left cell (docs/rules-decisions.md)."""
    sm = board.side_map(state)
    at = {(r, c): a for a, r, c in sm.cells}
    last_r, last_c = sm.rows - 1, sm.cols - 1
    path = ([(0, c) for c in range(sm.cols)] + [(r, last_c) for r in range(1, sm.rows)]
            + [(last_r, c) for c in range(last_c - 1, -1, -1)] + [(r, 0) for r in range(last_r - 1, 0, -1)])
    in_play = board.area_index(state)
    return tuple(dict.fromkeys(at[p] for p in path if at.get(p, "#") in in_play))


def clockwise(state: GameState, area: str, steps: int = 1) -> str:
    r = ring(state)
    return r[(r.index(area) + steps) % len(r)]


def next_corner_clockwise(state: GameState, area: str) -> str:
    r = ring(state)
    i = r.index(area)
    return next(r[(i + k) % len(r)] for k in range(1, len(r) + 1) if board.is_corner(state, r[(i + k) % len(r)]))


def area_selection_cards(state: GameState) -> tuple[str, ...]:
    """The 12 Area Selection cards (cards.toml ``area_selection``; without it, one per area)."""
    return getattr(board.pack(state).cards, "area_selection", ()) or tuple(a.id for a in state.areas)


def king_combat_cards(state: GameState) -> tuple[str, ...]:
    """Its 2 own combat cards (cards.toml ``king_combat``; without it, their usual ids)."""
    return tuple(c.id for c in board.pack(state).cards.king_combat) or KING_COMBAT


def select_area(state: GameState, among: tuple[str, ...], why: str, ev: Events) -> tuple[str, GameState]:
    """Use the Area Selection cards to determine one of ``among`` at random: draw until one of
    them comes up; cards drawn go to the set-aside pile, which is shuffled into a new deck when
    the deck runs out."""
    if len(among) == 1:
        return among[0], state
    k = king(state)
    deck, aside, r = k.area_deck, k.area_aside, state.rng
    while True:
        if not deck:
            deck, r = rng.shuffle(r, aside)
            aside = ()
        card, deck = deck[0], deck[1:]
        aside += (card,)
        if card in among:
            break
    ev.append(Event(kind="king_area_card", seat=k.seat, area=card,
                    detail=f"the Area Selection cards chose {card} {why}"))
    return card, replace(set_king(state, replace(k, area_deck=deck, area_aside=aside)), rng=r)


# ---------------------------------------------------------------------------------------------
# The rondel, the Horror Die, Power (KING'S TURN 1-3)


def ahead(state: GameState) -> tuple[str, str]:
    """KING'S DREAMER: the two Day spaces clockwise of the King's Dreamer."""
    ro = rondel(state)
    i = ro.index(king(state).dreamer)
    return ro[(i + 1) % len(ro)], ro[(i + 2) % len(ro)]


def roll_horror_die(state: GameState, ev: Events) -> tuple[int, GameState]:
    value, r = rng.choice(state.rng, HORROR_DIE)
    ev.append(Event(kind="king_horror_die", seat=king(state).seat, value=value,
                    detail=f"the King rolled the Horror Die: {value}"))
    return value, replace(state, rng=r)


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
    ev.append(Event(kind="king_dreamer_moves", seat=k.seat, value=roll,
                    detail=f"rolled {roll}: {', '.join(counted) or 'no Cultist to count'}; the King's Dreamer "
                           f"moves to {to}"))
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
    k = replace(k, day_cultists=_bump(k.day_cultists, slot, -moved), card_cultists=_bump(k.card_cultists, slot, moved))
    state = set_king(state, k)
    p = power(k, slot)
    ev.append(Event(kind="king_power", seat=k.seat, value=p, detail=f"{plural(moved, 'Cultist')} go onto the King's "
                    f"{k.dreamer} card: Power {p}"))
    target = p - 1 if p in (2, 4) else 5 if p >= 6 else p
    while power(king(state), slot) > target and king(state).card_cultists[slot]:
        k = king(state)
        state = set_king(state, replace(k, card_cultists=_bump(k.card_cultists, slot, -1)))
        state = place_on_dream(state, ev)
    p = power(king(state), slot)
    ev.append(Event(kind="king_action", seat=k.seat, value=p, detail=f"the King takes {k.dreamer} with Power {p}"))
    return p, state


def begin_king_turn(state: GameState, ev: Events) -> tuple[int, GameState]:
    """KING'S TURN 1-3: roll, move the Dreamer by Cultists, gather the Power. Step 4 (the
    King's actions) waits for the King Action cards' content; step 5 is ``refill_dreams``."""
    roll, state = roll_horror_die(state, ev)
    return gather_power(move_dreamer(state, roll, ev), ev)


def return_cultists(state: GameState, ev: Events) -> GameState:
    """KING'S TURN 7: the Cultists on its Action cards go back to the supply; one Cultist goes
    back on the Action Matrix, on the Day space of the King's Dreamer."""
    k = king(state)
    slot = rondel(state).index(k.dreamer)
    back = sum(k.card_cultists)
    k = replace(k, card_cultists=(0,) * len(k.card_cultists), day_cultists=_bump(k.day_cultists, slot, 1))
    ev.append(Event(kind="king_cultists_return", seat=k.seat, value=back,
                    detail=f"{plural(back, 'Cultist')} leave the King's Action cards; one goes back on the {k.dreamer} space"))
    return set_king(state, k)


# ---------------------------------------------------------------------------------------------
# The King's Dreams


def _missing(state: GameState, k: KingState, i: int) -> int:
    return cards.dream(state, k.dreams[i]).vp - k.dream_cultists[i]


def place_on_dream(state: GameState, ev: Events) -> GameState:
    """COMPLETING THE KING'S DREAMS: on the Dream missing more Cultists (tie: the lower one, in
    play longer); with no Dream in play the Cultist goes back to the supply."""
    k = king(state)
    if not k.dreams:
        ev.append(Event(kind="king_cultist_returned", seat=k.seat,
                        detail="the King has no Dream in play: the Cultist returns to its supply"))
        return state
    i = max(range(len(k.dreams)), key=lambda j: (_missing(state, k, j), -j))
    k = replace(k, dream_cultists=_bump(k.dream_cultists, i, 1))
    ev.append(Event(kind="king_cultist_on_dream", seat=k.seat, cards=(k.dreams[i],), value=k.dream_cultists[i],
                    detail=f"a Cultist goes onto the King's Dream {k.dreams[i]} ({k.dream_cultists[i]} of "
                           f"{cards.dream(state, k.dreams[i]).vp})"))
    state = set_king(state, k)
    return complete_dream(state, i, ev) if _missing(state, k, i) <= 0 else state


def complete_dream(state: GameState, i: int, ev: Events) -> GameState:
    """Steps 1 and 3 at once: Cultists back to the supply, the card to the completed pile; step 2
    (Variable Length Game: the King builds a piece per Cathedral icon) is ``king_builds_for_dream``."""
    k = king(state)
    card = k.dreams[i]
    k = replace(k, dreams=k.dreams[:i] + k.dreams[i + 1 :],
                dream_cultists=k.dream_cultists[:i] + k.dream_cultists[i + 1 :], completed=k.completed + (card,))
    ev.append(Event(kind="king_dream_completed", seat=k.seat, cards=(card,), value=cards.dream(state, card).vp,
                    detail=f"the King completes its Dream {card}"))
    return king_builds_for_dream(set_king(state, k), card, ev)


def king_builds_for_dream(state: GameState, card: str, ev: Events) -> GameState:
    """COMPLETING THE KING'S DREAMS 2: in the Variable Length Game the King builds a Cathedral
    piece per Cathedral icon of the card (ours show one at most): ``cathedral.king_builds``."""
    if state.config.length != "variable" or not cards.dream(state, card).cathedral:
        return state
    from . import cathedral

    return cathedral.king_builds(state, card, ev)


KING_PIECE = "king_piece"  # the source of a frame holding a piece you choose for the King


def pieces_pending(state: GameState) -> bool:
    """Divergent Paths: a piece the King builds waits for your choice on the frame stack."""
    return any(f.source == KING_PIECE for f in state.frames)


def under_pieces(state: GameState, frame: Frame) -> GameState:
    """Push ``frame`` beneath the King's pieces on top of the stack, so they are built first."""
    top = len(state.frames)
    while top and state.frames[top - 1].source == KING_PIECE:
        top -= 1
    return replace(state, frames=state.frames[:top] + (frame,) + state.frames[top:])


def refill_candidates(state: GameState) -> tuple[str, ...]:
    """REFILL DREAMS 1-2: the offered Dreams of the suit the King has completed most of, then
    the lowest VP; several left: the human chooses."""
    offer = state.decks.dream_offer
    if not offer:
        return ()
    done = [cards.dream(state, c).suit for c in king(state).completed]

    def key(c: str) -> tuple[int, int]:
        return (-done.count(cards.dream(state, c).suit), cards.dream(state, c).vp)

    best = min(key(c) for c in offer)
    return tuple(dict.fromkeys(c for c in offer if key(c) == best))


def refill_dreams(state: GameState, ev: Events) -> GameState:
    """REFILL DREAMS: with 0 or 1 incomplete Dreams, take Dreams from the display until 2; each
    new card goes on top; the display is refilled after each."""
    k = king(state)
    if len(k.dreams) >= 2:
        return state
    options = refill_candidates(state)
    if not options:
        return state
    if len(options) > 1:
        return replace(state, work=KingDreamWork(seat=1 - k.seat, options=options))
    return refill_dreams(_take_for_king(state, options[0], ev), ev)


def _take_for_king(state: GameState, card: str, ev: Events) -> GameState:
    k = king(state)
    decks = state.decks
    offer = tuple(c for c in decks.dream_offer if c != card) + decks.dream[:1]
    state = replace(state, decks=replace(decks, dream_offer=offer, dream=decks.dream[1:]))
    ev.append(Event(kind="king_takes_dream", seat=k.seat, cards=(card,),
                    detail=f"the King takes the Dream {card} from the display"))
    discount = int(modifier(state, "harder_dream_discount") and cards.dream(state, card).vp >= 3)
    if discount:  # harder: a Cultist auto-added to each new Dream worth 3+ VP
        ev.append(Event(kind="king_cultist_on_dream", seat=k.seat, cards=(card,), value=1,
                        detail=f"a Cultist goes onto the King's new Dream {card} at once (harder game)"))
    return set_king(state, replace(k, dreams=k.dreams + (card,), dream_cultists=k.dream_cultists + (discount,)))


@decides(KingDreamWork)
def decide_king_dream(state: GameState) -> Decision | None:
    w: KingDreamWork = state.work  # type: ignore[assignment]
    return Decision(seat=w.seat, kind="king_dream", prompt="Choose the Dream the King of Horrors takes",
                    options=tuple(TakeDream(card=c) for c in w.options))


@handles(TakeDream, KingDreamWork)
def choose_king_dream(state: GameState, action: TakeDream, ev: Events) -> GameState:
    state = _take_for_king(replace(state, work=None), action.card, ev)
    return resolve(refill_dreams(state, ev), ev)


@explains(TakeDream, KingDreamWork)
def explain_king_dream(state: GameState, action: TakeDream) -> IllegalAction:
    return IllegalAction(f"{action.card or 'the deck'} is not one of the Dreams tied for the King: the suit it has "
                         "completed most of, then the fewest VP", rule="the King's Dream refill",
                         section="SOLO REFILL DREAMS")


# ---------------------------------------------------------------------------------------------
# The King's reactions on your turn


def king_reacts(state: GameState, day: str, ev: Events) -> GameState:
    """END OF YOUR TURN: the King Conforms if your action is ahead of it, else it Dissents."""
    k = king(state)
    if day in ahead(state):
        if modifier(state, "easier_conform"):  # easier: no Cultist on the matching action
            ev.append(Event(kind="king_conforms", seat=k.seat, detail=f"the King conforms to {day}: a Cultist "
                            "goes on a Dream"))
            return place_on_dream(state, ev)
        slot = rondel(state).index(day)
        state = set_king(state, replace(k, day_cultists=_bump(k.day_cultists, slot, 1)))
        ev.append(Event(kind="king_conforms", seat=k.seat, detail=f"the King conforms to {day}: a Cultist goes on "
                        f"the {day} space and one on a Dream"))
        return place_on_dream(state, ev)
    ev.append(Event(kind="king_dissents", seat=k.seat, detail=f"the King dissents from {day}: it draws a "
                    "Development card"))
    return king_draws(state, 1, ev)


def king_draws(state: GameState, count: int, ev: Events) -> GameState:
    """THE KING DISSENTS: an Upgrade is tucked below its matching Action; any other card is
    shuffled into the King's hand."""
    seat = king(state).seat
    before = state.players[seat].hand
    drawn_ev: Events = []
    state = draw_development(state, seat, count, drawn_ev)
    ev.extend(e for e in drawn_ev if e.kind != "drew_development")
    drawn = state.players[seat].hand[len(before):]
    state = set_player(state, replace(state.players[seat], hand=before))
    for card in drawn:
        state = _keep_drawn(state, card, ev)
    return state


def _keep_drawn(state: GameState, card: str, ev: Events) -> GameState:
    k = king(state)
    if cards.is_upgrade(state, card):
        slot = rondel(state).index(cards.development(state, card).action)
        ev.append(Event(kind="king_tucks", seat=k.seat, cards=(card,),
                        detail=f"the King tucks the Upgrade {card} under its {rondel(state)[slot]} card"))
        return set_king(state, replace(k, tucked=k.tucked[:slot] + (k.tucked[slot] + (card,),) + k.tucked[slot + 1 :]))
    hand, r = rng.shuffle(state.rng, k.hand + (card,))
    ev.append(Event(kind="king_hand_card", seat=k.seat, value=len(hand),
                    detail="the King shuffles a card into its hand"))
    return replace(set_king(state, replace(k, hand=hand)), rng=r)


# ---------------------------------------------------------------------------------------------
# ENDGAME & SCORING (solo)

SUIT_SET_VP = (0, 0, 1, 3, 6, 10, 15, 21)  # by Dreams completed of one suit: 1/2/3/4/5/6/7


def king_dream_vp(state: GameState) -> int:
    """The printed VP of its completed Dreams, plus 0/1/3/6/10/15/21 per suit for 1-7 of it."""
    done = [cards.dream(state, c) for c in king(state).completed]
    suits = [d.suit for d in done]
    return sum(d.vp for d in done) + sum(SUIT_SET_VP[min(suits.count(s), 7)] for s in set(suits))


def king_extra_vp(state: GameState) -> int:
    """1 VP per Divergent Paths Reward tile it claimed, 1 VP for every 3rd card left in its hand
    (its Basic Combat and Shield included)."""
    k = king(state)
    if modifier(state, "harder_hand_scoring"):  # harder: 1 VP per card, its own 2 combat cards excluded
        return len(state.players[k.seat].tiles) + sum(c not in king_combat_cards(state) for c in k.hand)
    return len(state.players[k.seat].tiles) + len(k.hand) // 3


# ---------------------------------------------------------------------------------------------
# The King's turn (KING'S TURN 1-8) in the game flow; difficulty modifiers (DIFFICULTY MODIFIERS)

KING_TURN = "king_turn"  # the source of the empty frames that carry the King's turn on


def is_king(state: GameState, seat: int) -> bool:
    return state.king is not None and state.king.seat == seat


def modifier(state: GameState, option: str) -> bool:
    """Whether a difficulty modifier (``config.DIFFICULTY_OPTIONS``) is in play."""
    return option in state.config.difficulty


def play_king_turn(state: GameState, ev: Events) -> GameState:
    """KING'S TURN 1-4: roll, move, gather Power, then resolve the chosen action. The rest of
    the turn waits under an empty frame, so that whatever the action asks (conflicts, your
    choices) is resolved first; when the frame ends, step 5 begins."""
    pw, state = begin_king_turn(state, ev)
    k = king(state)
    state = replace(state, day=k.dreamer, ignored=False, decision=None)
    state = under_pieces(state, Frame(seat=k.seat, steps=(), source=KING_TURN, then="king_action_done"))
    if pieces_pending(state):  # step 3 completed a Dream: you choose its piece before the action
        later = Frame(seat=k.seat, steps=(), source=KING_TURN, card=str(pw), then="king_perform")
        return resolve(under_pieces(state, later), ev)
    state = _perform(state, k.dreamer, pw, ev)
    if state.outcome is not None:
        return state
    waiting = any(f.source == KING_TURN for f in state.frames)
    if waiting and (state.work is not None or state.decision is None):
        state = resolve(state, ev)
    return state


@continues("king_perform")
def _perform_later(state: GameState, frame: Frame, ev: Events) -> GameState:
    return _perform(state, king(state).dreamer, int(frame.card), ev)


def _perform(state: GameState, action: str, pw: int, ev: Events) -> GameState:
    """KING'S TURN 4: the chosen action at its Power."""
    from .king_actions import perform_king_action  # king_actions builds on this module

    return perform_king_action(state, action, pw, ev)


@continues("king_action_done")
def _after_action(state: GameState, frame, ev: Events) -> GameState:
    """KING'S TURN 5: refill its Dreams (you may be asked which one it takes)."""
    state = push_effect(state, frame.seat, (), KING_TURN, then="king_dreams_done")
    return resolve(refill_dreams(state, ev), ev)


@continues("king_dreams_done")
def _after_refill(state: GameState, frame, ev: Events) -> GameState:
    """KING'S TURN 6: you may react (Conform or Dissent) as usual; steps 7-8 follow the reaction
    (``turn.ask_reaction``)."""
    from . import turn

    return turn.ask_reaction(replace(state, phase="reactions", queue=(1 - frame.seat,)), ev)


def king_climbs(state: GameState, why: str, ev: Events) -> GameState:
    """BUILDING THE CATHEDRAL / KING'S TURN 8: the King climbs its lower marker (the one further
    back; tied: the first) 1 step, 2 with the harder modifier, ignoring costs and bonuses, up to
    the last space."""
    seat = king(state).seat
    pl = state.players[seat]
    steps = 2 if modifier(state, "harder_climb") else 1
    m = 0 if pl.ritual[0] <= pl.ritual[1] else 1
    last = len(board.pack(state).tracks.ritual)
    to = min(pl.ritual[m] + steps, last)
    ritual = pl.ritual[:m] + (to,) + pl.ritual[m + 1 :]
    best = pl.ritual_best[:m] + (max(pl.ritual_best[m], to),) + pl.ritual_best[m + 1 :]
    state = set_player(state, replace(pl, ritual=ritual, ritual_best=best))  # type: ignore[arg-type]
    ev.append(Event(kind="king_climbs", seat=seat, value=to - pl.ritual[m],
                    detail=f"{why}: the King climbs its lower Ritual marker {plural(to - pl.ritual[m], 'step')}, to "
                           f"space {to}"))
    return state


def devour_three(state: GameState, ev: Events) -> GameState:
    """Harder game: when the Devoured side-board comes into play the King adds 3 Followers from
    its supply to it; short of them, it devours the rest from the board (REMOVING FOLLOWERS
    order: where it has most Followers, then its Fortress area, then an Area Selection card)."""
    seat = king(state).seat
    pl = state.players[seat]
    before = pl.devoured
    from_supply = min(3, pl.supply)
    state = set_player(state, replace(pl, supply=pl.supply - from_supply, devoured=pl.devoured + from_supply))
    for _ in range(3 - from_supply):
        mine = {a.id: a.followers[seat] for a in state.areas if a.followers[seat] > 0}
        if not mine:
            break
        most = max(mine.values())
        tied = tuple(a for a, n in mine.items() if n == most)
        fortress = tuple(a for a in tied if board.area(state, a).fortress == seat)
        area, state = select_area(state, fortress or tied, "to devour from", ev)
        state = units.remove(state, seat, area)
        pl = state.players[seat]
        state = set_player(state, replace(pl, supply=pl.supply - 1, devoured=pl.devoured + 1))
    n = state.players[seat].devoured - before
    ev.append(Event(kind="king_devours", seat=seat, value=n, detail=f"the Devoured side-board comes into play: "
                    f"the King devours {n} of its Followers, {from_supply} from its supply (harder game)"))
    return state
