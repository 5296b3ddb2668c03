"""The rules of the dice game of Dreamers and Nightmares (seed 002). Pure: a state in, a new
state and its events out; ``legal_actions`` is exactly what ``step`` accepts; everything that
needs no choice resolves at once, up to the next decision."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from msgspec.structs import replace

from nctui.platform import rng as R

from .content import Face, content
from .state import (
    Action,
    BecomeNightmare,
    Card,
    ChooseTrack,
    Consume,
    Consumed,
    Die,
    Drawn,
    DreamAgain,
    DreamersConfig,
    DreamersState,
    Effect,
    Event,
    GameEnds,
    Give,
    PickDie,
    Placed,
    Reroll,
    Rerolled,
    Resolve,
    Rest,
    Rested,
    Return,
    Rolled,
    RowFilled,
    Seat,
    SendMinions,
    ShadowNext,
    Skip,
    StepResult,
    Taken,
    TurnBegins,
    UseAbility,
)
from .words import REFUSALS, Reason

VALUE = {"power": 1, "double": 2}
ORDER: tuple[Face, ...] = ("power", "double", "hunt", "exhaust")  # resolved before the Shadows
ENVY, DEPTHS, IMPRISONMENT, FEAR = "envy", "depths", "imprisonment", "fear"


class Refused(ValueError):
    def __init__(self, reason: Reason) -> None:
        super().__init__(REFUSALS[reason])
        self.reason = reason


def new_game(config: DreamersConfig) -> StepResult:
    """Setup: every Dreamer card empty, the 80 dreams in the bag; the first seat begins."""
    if not 2 <= len(config.seats) <= 4 or len(config.levels) != len(config.seats):
        raise ValueError("the dice game is for 2 to 4 players, each with a level")
    n = content().dice_per_colour
    state = DreamersState(
        config=config, rng=R.seeded(config.seed), bag=(n, n, n, n), seats=tuple(Seat() for _ in config.seats)
    )
    return StepResult(state, (TurnBegins(0),))


# -- small helpers ----------------------------------------------------------------------------------


def colour_id(i: int) -> str:
    return content().colour[i].id


def power(seat: Seat) -> int:
    return sum(VALUE.get(d.face, 0) for d in seat.card.power)


def powers(state: DreamersState) -> tuple[int, ...]:
    return tuple(power(s) for s in state.seats)


def _seat(state: DreamersState, i: int, seat: Seat) -> DreamersState:
    return replace(state, seats=state.seats[:i] + (seat,) + state.seats[i + 1 :])


def _card(state: DreamersState, i: int, card: Card) -> DreamersState:
    return _seat(state, i, replace(state.seats[i], card=card))


def _bag_add(bag: tuple[int, ...], colour: int, n: int = 1) -> tuple[int, int, int, int]:
    out = list(bag)
    out[colour] += n
    return (out[0], out[1], out[2], out[3])


def _draw(state: DreamersState, n: int) -> tuple[DreamersState, tuple[int, ...]]:
    """``n`` random dreams from the bag (fewer when it runs out: the game ends after this turn)."""
    bag, rng = list(state.bag), state.rng
    out: list[int] = []
    for _ in range(n):
        total = sum(bag)
        if total == 0:
            return replace(state, bag=(bag[0], bag[1], bag[2], bag[3]), rng=rng, bag_ran_out=True), tuple(out)
        x, rng = R.below(rng, total)
        colour = 0
        while x >= bag[colour]:
            x -= bag[colour]
            colour += 1
        bag[colour] -= 1
        out.append(colour)
    ran_out = state.bag_ran_out or sum(bag) == 0
    return replace(state, bag=(bag[0], bag[1], bag[2], bag[3]), rng=rng, bag_ran_out=ran_out), tuple(out)


def _roll(state: DreamersState, colours: tuple[int, ...]) -> tuple[DreamersState, tuple[Die, ...]]:
    rng, dice = state.rng, []
    for c in colours:
        face, rng = R.choice(rng, content().colour[c].faces)
        dice.append(Die(c, face))
    return replace(state, rng=rng), tuple(dice)


def nightmare_of(state: DreamersState, colour: int) -> int:
    """The seat that claimed the Nightmare of ``colour``, or -1."""
    return next((i for i, s in enumerate(state.seats) if s.role == "nightmare" and s.nightmare == colour), -1)


def card_of_colour(state: DreamersState, colour: int) -> Any:
    """The Nightmare card of ``colour`` (Temptation in place of Envy or Primeval Fear if chosen)."""
    cards = {n.id: n for n in content().nightmare}
    cid = colour_id(colour)
    if state.config.temptation == cid:
        return cards["temptation"]
    return cards[cid]


def shadow_limit(state: DreamersState) -> int:
    c = content()
    return c.shadow_limit_two_players if len(state.seats) == 2 else c.shadow_limit


def exhaustion(card: Card) -> int:
    return sum(2 if d.sideways else 1 for d in card.exhaust)


def dreamers(state: DreamersState) -> tuple[int, ...]:
    return tuple(i for i, s in enumerate(state.seats) if s.role == "dreamer")


def next_seat(state: DreamersState, seat: int) -> int:
    """The next player in turn order (an eliminated one too: 'still considered the next player')."""
    return (seat + 1) % len(state.seats)


# -- whose decision, and what may be chosen ---------------------------------------------------------


def decider(state: DreamersState) -> int | None:
    if state.phase == "over":
        return None
    if state.phase == "envy":
        return next_seat(state, state.actor)
    if state.phase == "ability":
        return state.trigger[0]
    if state.phase in ("nightmare", "minion_return", "minion_give"):
        return state.turn
    return state.actor


def _card_dice(card: Card, *, except_envy_shadow: bool = False) -> list[PickDie]:
    out = [PickDie(row, d.colour, i) for row in ("power", "hunt", "exhaust") for i, d in enumerate(getattr(card, row))]
    for colour, row in enumerate(card.shadows):
        if except_envy_shadow and colour_id(colour) == ENVY:
            continue
        out.extend(PickDie("shadow", colour, i) for i in range(len(row)))
    return out


def legal_actions(state: DreamersState) -> tuple[Action, ...]:
    phase, actor = state.phase, state.seats[state.actor]
    if phase == "over":
        return ()
    if phase == "track":
        return tuple(ChooseTrack(t) for t in range(len(content().track)))
    if phase == "return":
        return tuple(Return(c) for c in sorted(set(state.drawn)))
    if phase == "roll":
        return (Resolve(), *_rerolls(state))
    if phase == "shadow":  # "You may, at any time, spend a [Power] ... to reroll": also among Shadows
        shadows = sorted({d.colour for d in state.unresolved if d.face == "shadow"})
        return (*(ShadowNext(c) for c in shadows), *_rerolls(state))
    if phase == "envy":
        return tuple(_card_dice(actor.card, except_envy_shadow=True))
    if phase == "fear":
        return (Skip(), *(PickDie("exhaust", d.colour, i) for i, d in enumerate(actor.card.exhaust)))
    if phase == "imprison":
        return tuple(PickDie("exhaust", d.colour, i) for i, d in enumerate(actor.card.exhaust) if not d.sideways)
    if phase == "ability":
        return (UseAbility(), Skip())
    if phase == "tie":
        return tuple(BecomeNightmare(c) for c in state.tie)
    if phase == "rest":
        again = () if state.exhausted or state.step >= content().dream_again else (DreamAgain(),)
        if state.tempted and again:
            return again
        ones = [p for p in _card_dice(actor.card) if p.row != "power"]
        return (Rest(), *ones, *again)
    if phase == "nightmare":
        me = state.seats[state.turn].nightmare
        eats = {
            (i, d.face) for i, s in enumerate(state.seats) if i != state.turn for d in s.card.power if d.colour == me
        }
        return (SendMinions(), *(Consume(i, f) for i, f in sorted(eats)))
    if phase == "minion_return":
        return tuple(Return(c) for c in sorted(set(state.minions)))
    if phase == "minion_give":
        return tuple(Give(i) for i in dreamers(state))
    return ()


def _rerolls(state: DreamersState) -> list[Reroll]:
    """Spend one Power of a colour to reroll any number of unresolved dreams of that colour."""
    out: list[Reroll] = []
    card = state.seats[state.actor].card
    for colour in sorted({d.colour for d in card.power}):
        faces = tuple(sorted(d.face for d in state.unresolved if d.colour == colour))
        seen: set[tuple[str, ...]] = set()
        for k in range(1, len(faces) + 1):
            for pick in combinations(faces, k):
                if pick not in seen:
                    seen.add(pick)
                    out.append(Reroll(colour, pick))
    return out


# -- a step -----------------------------------------------------------------------------------------


def step(state: DreamersState, action: Action) -> StepResult:
    if state.phase == "over":
        raise Refused("over")
    if action not in legal_actions(state):
        raise Refused(state.phase if state.phase in REFUSALS else "not_now")
    events: list[Event] = []
    state = _apply(state, action, events)
    state = _settle(state, events)
    return StepResult(state, tuple(events))


def _apply(state: DreamersState, action: Action, events: list[Event]) -> DreamersState:
    match action:
        case ChooseTrack(track=t):
            state = replace(state, track=t, step=0)
            return _draw_dreams(state, events)
        case Return(colour=c) if state.phase == "return":
            drawn = list(state.drawn)
            drawn.remove(c)
            state = replace(state, drawn=tuple(drawn), bag=_bag_add(state.bag, c))
            if len(drawn) > len(_drawn_target(state)):
                return state
            state, dice = _roll(state, state.drawn)
            events.append(Rolled(state.actor, dice))
            return replace(state, drawn=(), unresolved=dice, phase="roll")
        case Reroll(colour=c, faces=faces):
            return _reroll(state, c, faces, events)
        case Resolve():
            return replace(state, phase="shadow")
        case ShadowNext(colour=c):
            return _shadow(state, c, events)
        case PickDie() if state.phase == "envy":
            return _envy_pick(state, action, events)
        case PickDie() if state.phase == "fear":
            card = state.seats[state.actor].card
            die = card.exhaust[action.index]
            exhaust = card.exhaust[: action.index] + card.exhaust[action.index + 1 :]
            state = _card(state, state.actor, replace(card, exhaust=exhaust, hunt=(*card.hunt, die)))
            events.append(Effect(state.actor, FEAR, True))
            return replace(state, phase="shadow")
        case PickDie() if state.phase == "imprison":
            return _imprison(state, action.index, events)
        case Skip() if state.phase == "fear":
            events.append(Effect(state.actor, FEAR, False))
            return replace(state, phase="shadow")
        case UseAbility():
            return _ability(state, events)
        case Skip():
            return replace(state, phase="shadow", trigger=(-1, -1))
        case BecomeNightmare(colour=c):
            return _become(state, state.actor, c, events)
        case Rest():
            return _rest(state, None, events)
        case PickDie() if state.phase == "rest":
            return _rest(state, action, events)
        case DreamAgain():
            state = replace(state, step=state.step + 1, tempted=False)
            return _draw_dreams(state, events)
        case Consume(seat=victim, face=face):
            return _consume(state, victim, face, events)
        case SendMinions():
            state, two = _draw(state, 2)
            events.append(Drawn(state.turn, two))
            if len(two) < 2:
                return replace(state, minions=two, phase="minion_give" if two else "rest")
            return replace(state, minions=two, phase="minion_return")
        case Return(colour=c):
            minions = list(state.minions)
            minions.remove(c)
            return replace(state, minions=tuple(minions), bag=_bag_add(state.bag, c), phase="minion_give")
        case Give(seat=target):
            state, dice = _roll(state, state.minions)
            events.append(Rolled(target, dice))
            return replace(state, minions=(), actor=target, unresolved=dice, phase="shadow")
    raise Refused("not_now")


def _drawn_target(state: DreamersState) -> tuple[int, ...]:
    """How many dreams stay after returning two (the draw minus two, at least none)."""
    n = content().track[state.track].draws[state.step] - content().returned
    return tuple(range(max(n, 0)))


def _draw_dreams(state: DreamersState, events: list[Event]) -> DreamersState:
    """Step 2: draw the number under the sleep marker; then two go back (chosen)."""
    state, drawn = _draw(state, content().track[state.track].draws[state.step])
    events.append(Drawn(state.actor, drawn))
    if state.bag_ran_out:  # "rolling and resolving all remaining dreams": none go back
        state, dice = _roll(state, drawn)
        events.append(Rolled(state.actor, dice))
        return replace(state, unresolved=dice, phase="roll")
    return replace(state, drawn=drawn, phase="return")


def _bag_add_all(bag: tuple[int, ...], colours: tuple[int, ...]) -> tuple[int, int, int, int]:
    out = tuple(bag)
    for c in colours:
        out = _bag_add(out, c)
    return (out[0], out[1], out[2], out[3])


def _reroll(state: DreamersState, colour: int, faces: tuple[str, ...], events: list[Event]) -> DreamersState:
    """Spend one Power of that colour (the lowest: a single before a double) onto its Nightmare
    card, or to the bag if that Nightmare is claimed; reroll the chosen dreams."""
    card = state.seats[state.actor].card
    spent = min((d for d in card.power if d.colour == colour), key=lambda d: VALUE[d.face])
    power_row = list(card.power)
    power_row.remove(spent)
    state = _card(state, state.actor, replace(card, power=tuple(power_row)))
    if nightmare_of(state, colour) >= 0:
        state = replace(state, bag=_bag_add(state.bag, colour))
    else:
        on = list(state.on_cards)
        on[colour] = (*on[colour], spent)
        state = replace(state, on_cards=tuple(on))
    keep, again = list(state.unresolved), []
    for f in faces:
        die = next(d for d in keep if d.colour == colour and d.face == f)
        keep.remove(die)
        again.append(colour)
    state, rolled = _roll(state, tuple(again))
    events.append(Rerolled(state.actor, spent, rolled))
    return replace(state, unresolved=(*keep, *rolled))


def _place(state: DreamersState, die: Die, events: list[Event]) -> DreamersState:
    """A resolved dream goes to its row, unless a Nightmare of its colour takes that face."""
    owner = nightmare_of(state, die.colour)
    if owner >= 0 and owner != state.actor and card_of_colour(state, die.colour).takes == die.face:
        taken = Die(die.colour, "power")
        nm = state.seats[owner]
        state = _card(state, owner, replace(nm.card, power=(*nm.card.power, taken)))
        events.append(Taken(owner, state.actor, die))
        return replace(state, trigger=(owner, state.actor), phase="ability")
    card = state.seats[state.actor].card
    if die.face in ("power", "double"):
        card = replace(card, power=(*card.power, die))
        row = "power"
    elif die.face == "hunt":
        card, row = replace(card, hunt=(*card.hunt, die)), "hunt"
    elif die.face == "exhaust":
        card, row = replace(card, exhaust=(*card.exhaust, die)), "exhaust"
    else:
        shadows = list(card.shadows)
        shadows[die.colour] = (*shadows[die.colour], die)
        card, row = replace(card, shadows=tuple(shadows)), "shadow"
    events.append(Placed(state.actor, die, row))  # type: ignore[arg-type]
    return _card(state, state.actor, card)


def _resolve_plain(state: DreamersState, events: list[Event]) -> DreamersState:
    """Step 3's order: every Power, then Hunt, then Exhaust dream (a Nightmare's ability may
    interrupt; the rest waits)."""
    for face in ORDER:
        while True:
            die = next((d for d in state.unresolved if d.face == face), None)
            if die is None:
                break
            rest = list(state.unresolved)
            rest.remove(die)
            state = _place(replace(state, unresolved=tuple(rest)), die, events)
            if state.phase == "ability":
                return state
    return state


def _shadow(state: DreamersState, colour: int, events: list[Event]) -> DreamersState:
    """A Shadow: placed in its colour's Shadow row, then its effect."""
    die = next(d for d in state.unresolved if d.face == "shadow" and d.colour == colour)
    rest = list(state.unresolved)
    rest.remove(die)
    state = _place(replace(state, unresolved=tuple(rest), phase="shadow"), die, events)
    if state.phase == "ability":
        return replace(state, pending_effect=colour)  # its effect comes after the ability
    return _shadow_effect(state, colour, events)


def _shadow_effect(state: DreamersState, colour: int, events: list[Event]) -> DreamersState:
    kind = colour_id(colour)
    card = state.seats[state.actor].card
    if kind == DEPTHS:  # a dream from the bag, rolled, resolved first unless a Shadow
        state, drawn = _draw(state, 1)
        if not drawn:
            events.append(Effect(state.actor, DEPTHS, False))
            return state
        state, dice = _roll(state, drawn)
        events.append(Effect(state.actor, DEPTHS, True))
        events.append(Rolled(state.actor, dice))
        return _add_first(state, dice[0], events)
    if kind == ENVY:  # the next player picks a dream on the card to reroll
        if not _card_dice(card, except_envy_shadow=True):
            events.append(Effect(state.actor, ENVY, False))
            return state
        return replace(state, phase="envy")
    if kind == IMPRISONMENT:  # "rotate any one to its side": the player chooses among distinct ones
        upright = [i for i, d in enumerate(card.exhaust) if not d.sideways]
        if not upright:
            events.append(Effect(state.actor, IMPRISONMENT, False))
            return state
        if len({(card.exhaust[i].colour, card.exhaust[i].face) for i in upright}) > 1:
            return replace(state, phase="imprison")
        return _imprison(state, upright[0], events)
    if not card.exhaust:  # Primeval Fear: may move an Exhaust dream to the Hunt row
        events.append(Effect(state.actor, FEAR, False))
        return state
    return replace(state, phase="fear")


def _imprison(state: DreamersState, index: int, events: list[Event]) -> DreamersState:
    """Shadow of Imprisonment: the Exhaust dream at ``index`` turned on its side (seed 002)."""
    card = state.seats[state.actor].card
    exhaust = card.exhaust[:index] + (replace(card.exhaust[index], sideways=True),) + card.exhaust[index + 1 :]
    events.append(Effect(state.actor, IMPRISONMENT, True))
    return replace(_card(state, state.actor, replace(card, exhaust=exhaust)), phase="shadow")


def _add_first(state: DreamersState, die: Die, events: list[Event]) -> DreamersState:
    """A new dream 'you must resolve before any others' unless it is a Shadow."""
    if die.face == "shadow":
        return replace(state, unresolved=(*state.unresolved, die))
    return _place(state, die, events)


def _envy_pick(state: DreamersState, pick: PickDie, events: list[Event]) -> DreamersState:
    card = state.seats[state.actor].card
    if pick.row == "shadow":
        row = card.shadows[pick.colour]
        die = row[pick.index]
        shadows = list(card.shadows)
        shadows[pick.colour] = row[: pick.index] + row[pick.index + 1 :]
        card = replace(card, shadows=tuple(shadows))
    else:
        row = getattr(card, pick.row)
        die = row[pick.index]
        card = replace(card, **{pick.row: row[: pick.index] + row[pick.index + 1 :]})
    state = _card(state, state.actor, card)
    state, dice = _roll(state, (die.colour,))
    events.append(Effect(state.actor, ENVY, True))
    events.append(Rolled(state.actor, dice))
    return _add_first(replace(state, phase="shadow"), dice[0], events)


def _ability(state: DreamersState, events: list[Event]) -> DreamersState:
    """A Nightmare's ability on the Dreamer whose dream it took (content.toml)."""
    nm, dreamer = state.trigger
    ability = card_of_colour(state, state.seats[nm].nightmare).ability
    card = state.seats[dreamer].card
    state = replace(state, trigger=(-1, -1), phase="shadow")
    if ability == "drown":
        state, drawn = _draw(state, 1)
        events.append(Effect(nm, "drown", bool(drawn)))
        if drawn:
            state, dice = _roll(state, drawn)
            events.append(Rolled(dreamer, dice))
            state = _add_first(state, dice[0], events)
        return state
    if ability == "covet":
        best = max(card.power, key=lambda d: VALUE[d.face], default=None)
        events.append(Effect(nm, "covet", best is not None))
        if best is None:
            return state
        row = list(card.power)
        row.remove(best)
        return replace(_card(state, dreamer, replace(card, power=tuple(row))), bag=_bag_add(state.bag, best.colour))
    if ability == "shackle":
        i = next((i for i, d in enumerate(card.exhaust) if not d.sideways), -1)
        events.append(Effect(nm, "shackle", i >= 0))
        if i < 0:
            return state
        exhaust = card.exhaust[:i] + (replace(card.exhaust[i], sideways=True),) + card.exhaust[i + 1 :]
        return _card(state, dreamer, replace(card, exhaust=exhaust))
    if ability == "terror":
        events.append(Effect(nm, "terror", bool(card.exhaust)))
        if not card.exhaust:
            return state
        die = max(card.exhaust, key=lambda d: d.sideways)
        left = list(card.exhaust)
        left.remove(die)
        return _card(state, dreamer, replace(card, exhaust=tuple(left), hunt=(*card.hunt, die)))
    events.append(Effect(nm, "tempt", True))
    return replace(state, tempted=True)


def _consume(state: DreamersState, victim: int, face: str, events: list[Event]) -> DreamersState:
    me = state.seats[state.turn]
    card = state.seats[victim].card
    die = next(d for d in card.power if d.colour == me.nightmare and d.face == face)
    row = list(card.power)
    row.remove(die)
    state = _card(state, victim, replace(card, power=tuple(row)))
    mine = state.seats[state.turn].card
    state = _card(state, state.turn, replace(mine, power=(*mine.power, die)))
    events.append(Consumed(state.turn, victim, die))
    return replace(state, phase="rest")  # the Nightmare's turn ends


def _rest(state: DreamersState, one: PickDie | None, events: list[Event]) -> DreamersState:
    """Rest: one or all dreams on the card (Power stays) back to the bag; the turn ends."""
    card = state.seats[state.actor].card
    if one is None:
        back = (*card.hunt, *card.exhaust, *(d for row in card.shadows for d in row))
        card = replace(card, hunt=(), exhaust=(), shadows=((), (), (), ()))
    else:
        return_card = _without(card, one)
        back, card = return_card
    state = _card(state, state.actor, card)
    state = replace(state, bag=_bag_add_all(state.bag, tuple(d.colour for d in back)))
    events.append(Rested(state.actor, len(back)))
    return _end_turn(state, events)


def _without(card: Card, pick: PickDie) -> tuple[tuple[Die, ...], Card]:
    if pick.row == "shadow":
        row = card.shadows[pick.colour]
        shadows = list(card.shadows)
        shadows[pick.colour] = row[: pick.index] + row[pick.index + 1 :]
        return (row[pick.index],), replace(card, shadows=tuple(shadows))
    row = getattr(card, pick.row)
    return (row[pick.index],), replace(card, **{pick.row: row[: pick.index] + row[pick.index + 1 :]})


def _become(state: DreamersState, seat: int, colour: int, events: list[Event]) -> DreamersState:
    """A Dreamer becomes the Nightmare of ``colour``: every dream but Power back to the bag, the
    Power on that Nightmare card taken; the turn ends."""
    card = state.seats[seat].card
    back = (*card.hunt, *card.exhaust, *(d for row in card.shadows for d in row))
    on = list(state.on_cards)
    gained, on[colour] = on[colour], ()
    new = Card(power=(*card.power, *gained))
    state = _seat(state, seat, Seat(role="nightmare", nightmare=colour, card=new))
    state = replace(state, on_cards=tuple(on), bag=_bag_add_all(state.bag, tuple(d.colour for d in back)), tie=())
    events.append(RowFilled(seat, "shadow", colour))
    return _end_turn(state, events)


# -- after the dreams: filled rows, rest, the end ---------------------------------------------------


def _settle(state: DreamersState, events: list[Event]) -> DreamersState:
    """Resolve everything that needs no choice, up to the next decision."""
    while True:
        if state.phase == "shadow":
            if state.pending_effect >= 0:  # a Shadow's effect waited for a Nightmare's ability
                colour = state.pending_effect
                state = _shadow_effect(replace(state, pending_effect=-1), colour, events)
                continue
            state = _resolve_plain(state, events)
            if state.phase != "shadow":
                return state
            shadows = {d.colour for d in state.unresolved if d.face == "shadow"}
            if len(shadows) > 1 or (shadows and _rerolls(state)):  # an order to choose, or a reroll
                return state
            if shadows:
                state = _shadow(state, shadows.pop(), events)
                continue
            state = _filled_rows(state, events)
            continue
        if state.phase == "rest" and state.seats[state.actor].role != "dreamer":
            state = _end_turn(state, events)
            continue
        if state.phase == "rest" and state.turn != state.actor:  # a Minion resolved: the Nightmare's turn ends
            state = _end_turn(replace(state, actor=state.turn), events)
            continue
        if state.phase == "track" and state.seats[state.turn].role == "nightmare":
            state = replace(state, phase="nightmare")
            continue
        return state


def _filled_rows(state: DreamersState, events: list[Event]) -> DreamersState:
    """Step 4: the Hunt row (eliminated), the Exhaust row (exhausted), the Shadow rows (a
    Nightmare), in that order."""
    seat = state.actor
    card = state.seats[seat].card
    c = content()
    if len(card.hunt) >= c.hunt_limit:
        back = (*card.power, *card.hunt, *card.exhaust, *(d for row in card.shadows for d in row))
        state = _seat(state, seat, Seat(role="out"))
        state = replace(state, bag=_bag_add_all(state.bag, tuple(d.colour for d in back)))
        events.append(RowFilled(seat, "hunt"))
        return replace(state, phase="rest")
    if exhaustion(card) >= c.exhaust_limit and not state.exhausted:
        state, drawn = _draw(state, 1)
        colour = drawn[0] if drawn else -1
        keep = tuple(d for d in card.power if d.colour != colour)
        lost = tuple(d.colour for d in card.power if d.colour == colour) + drawn
        state = _card(state, seat, replace(card, power=keep))
        state = replace(state, bag=_bag_add_all(state.bag, lost), exhausted=True)
        events.append(RowFilled(seat, "exhaust", colour))
        card = state.seats[seat].card
    limit = shadow_limit(state)
    # "If you have three or more dreams in any Shadow row ..., you become a Nightmare", of "your most
    # filled Shadow row"'s colour; "there can never be two Nightmares of the same color", so the
    # rows of claimed Nightmares are left out first (docs/rules-decisions.md, issue 38 item 12)
    full = [i for i, row in enumerate(card.shadows) if len(row) >= limit and nightmare_of(state, i) < 0]
    if full:
        most = max(len(card.shadows[i]) for i in full)
        free = [i for i in full if len(card.shadows[i]) == most]
        if len(free) == 1:
            return _become(state, seat, free[0], events)
        if free:
            return replace(state, phase="tie", tie=tuple(free))
    return replace(state, phase="rest")


def _end_turn(state: DreamersState, events: list[Event]) -> DreamersState:
    """The end of a turn: the end of the game (15 Power and the final turns, no Dreamers, an
    empty bag), else the next player who still plays."""
    state = replace(
        state,
        drawn=(),
        unresolved=(),
        exhausted=False,
        tempted=False,
        track=-1,
        step=0,
        actor=state.turn,
        trigger=(-1, -1),
        minions=(),
    )
    left = dreamers(state)
    if not left:
        return _game_over(state, "no_dreamers", events)
    if state.bag_ran_out:
        return _game_over(state, "bag", events)
    final = state.final
    if final is None and max(powers(state)) >= content().power_to_end:
        final = tuple(s for s in _order_after(state, state.turn) if s in left)
    elif final is not None:
        final = tuple(s for s in final if s in left)
    if final is not None:
        if not final:
            return _game_over(state, "power", events)
        nxt, final = final[0], final[1:]
        state = replace(state, final=final, turn=nxt, actor=nxt, phase="track", turns=state.turns + 1)
        events.append(TurnBegins(nxt, True))
        return state
    nxt = next(s for s in [*_order_after(state, state.turn), state.turn] if state.seats[s].role != "out")
    state = replace(state, turn=nxt, actor=nxt, phase="track", turns=state.turns + 1)
    events.append(TurnBegins(nxt))
    return state


def _order_after(state: DreamersState, seat: int) -> list[int]:
    """The other seats in turn order after ``seat``."""
    n = len(state.seats)
    return [(seat + k) % n for k in range(1, n)]


def _game_over(state: DreamersState, reason: Any, events: list[Event]) -> DreamersState:
    """The most Power wins (with no Dreamers left: the Nightmare with the most); ties share."""
    totals = powers(state)
    pool = [i for i, s in enumerate(state.seats) if s.role != "out"] or list(range(len(state.seats)))
    if reason == "no_dreamers":
        pool = [i for i, s in enumerate(state.seats) if s.role == "nightmare"] or pool
    best = max(totals[i] for i in pool)
    winners = tuple(i for i in pool if totals[i] == best)
    events.append(GameEnds(reason, winners, totals))
    return replace(state, phase="over", winners=winners)


def problems(state: DreamersState) -> list[str]:
    """Broken invariants: 80 dreams, 20 of each colour, between the bag, the cards, the Nightmare
    cards, the dreams drawn and those unresolved."""
    counts = list(state.bag)
    dice: list[Die] = list(state.unresolved) + [d for row in state.on_cards for d in row]
    for s in state.seats:
        card = s.card
        dice += list(card.power) + list(card.hunt) + list(card.exhaust) + [d for r in card.shadows for d in r]
    for d in dice:
        counts[d.colour] += 1
    for c in (*state.drawn, *state.minions):
        counts[c] += 1
    n = content().dice_per_colour
    if counts != [n] * 4:
        return [f"the dreams are not 20 of each colour: {counts}"]
    return []
