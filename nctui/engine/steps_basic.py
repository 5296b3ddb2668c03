"""The simple effect steps: drawing, producing, Shadows, Limbo, choices, Upgrades and Ploys."""

from __future__ import annotations

from msgspec.structs import replace

from ..content import schema as cs
from . import board, cards, rng, units
from .actions import (
    AddShadow, ChooseAction, ChooseOption, Done, KeepCard, PayFollower, PlayPloy, PlayUpgrade, ProduceIn, RecoverTo,
)
from .effects import push_effect, resolve
from .errors import IllegalAction
from .events import Event
from .ops import draw_development, remove_one, set_player
from .registry import decides, explains, handles, starts
from .state import Decision, GameState
from .work import (
    ChooseWork, ConflictWork, ConformWork, Frame, KeepWork, PickWork, ProduceWork, RecoverWork, RemoveWork, ShadowWork,
)

Events = list[Event]
SHADOWS = board.SHADOWS_SIDE


def _done(optional: bool) -> tuple[Done, ...]:
    return () if not optional else (Done(),)


def ask(seat: int, kind: str, prompt: str, options: tuple, *, optional: bool) -> Decision | None:
    """A decision, or None when there is nothing to choose (the step ends)."""
    if not options:
        return None
    return Decision(seat=seat, kind=kind, prompt=prompt, options=tuple(options) + _done(optional))


@explains(Done, absent=True)
def explain_done(state: GameState, action: Done) -> IllegalAction:
    """Why stopping isn't allowed now."""
    w = state.work
    if isinstance(w, ConflictWork):
        return IllegalAction("a conflict is resolved to its end; a player plays at least 1 card",
                             rule="at least 1 card", section="CONFLICTS 2")
    if w is not None and getattr(w, "must", False):
        return IllegalAction("this effect must be resolved as completely as possible",
                             rule="resolve Victory and Defeat in full", section="REWARDS AND CONSEQUENCES")
    return IllegalAction(f"there is nothing to stop: {state.decision.prompt}", rule="the decision that is due")


@handles(Done)
def done(state: GameState, action: Done, ev: Events) -> GameState:
    """End the current optional step (or window) early."""
    ev.append(Event(kind="stop", seat=state.decision.seat, detail=state.decision.kind))
    return resolve(replace(state, work=None), ev)


# ---------------------------------------------------------------------------------------------
# Draw


@starts(cs.Draw)
def start_draw(state: GameState, frame: Frame, step: cs.Draw, ev: Events) -> GameState:
    seat = frame.seat
    if step.deck == "development" and not step.keep:
        return draw_development(state, seat, step.count, ev)
    deck = getattr(state.decks, step.deck)
    drawn, rest = deck[: step.count], deck[step.count:]
    state = replace(state, decks=replace(state.decks, **{step.deck: rest}))
    if not step.keep:
        return _gain(state, seat, step.deck, drawn, ev)
    return replace(state, work=KeepWork(seat=seat, deck=step.deck, drawn=drawn, keep_left=min(step.keep, len(drawn)),
                                        beyond_limit=step.beyond_limit))


def _gain(state: GameState, seat: int, deck: str, drawn: tuple[str, ...], ev: Events) -> GameState:
    pl = state.players[seat]
    if deck.startswith("dream"):
        pl = replace(pl, dreams=pl.dreams + drawn)
        ev.append(Event(kind="drew_dreams", seat=seat, cards=drawn, value=len(drawn), private_to=seat))
    else:
        pl = replace(pl, hand=pl.hand + drawn)
        ev.append(Event(kind="drew_development", seat=seat, cards=drawn, value=len(drawn), private_to=seat))
    return set_player(state, pl)


@decides(KeepWork)
def decide_keep(state: GameState) -> Decision | None:
    w: KeepWork = state.work  # type: ignore[assignment]
    if w.keep_left <= 0:
        return None
    return ask(w.seat, "keep_card", f"Keep {w.keep_left} of the cards drawn", tuple(KeepCard(card=c) for c in w.drawn),
                optional=False)


@handles(KeepCard)
def keep_card(state: GameState, action: KeepCard, ev: Events) -> GameState:
    w: KeepWork = state.work  # type: ignore[assignment]
    state = _gain(state, w.seat, w.deck, (action.card,), ev)
    if w.beyond_limit:  # this Dream doesn't count against the limit of 2 (Reward tile)
        pl = state.players[w.seat]
        state = set_player(state, replace(pl, free_dreams=pl.free_dreams + (action.card,)))
    drawn = remove_one(w.drawn, action.card)
    if w.keep_left > 1:
        return resolve(replace(state, work=replace(w, drawn=drawn, keep_left=w.keep_left - 1)), ev)
    # the rest goes back and the deck is shuffled
    deck, r = rng.shuffle(state.rng, getattr(state.decks, w.deck) + drawn)
    state = replace(state, rng=r, decks=replace(state.decks, **{w.deck: deck}), work=None)
    return resolve(state, ev)


# ---------------------------------------------------------------------------------------------
# Produce


def can_produce(state: GameState, area_id: str) -> bool:
    """PRODUCE: for the controlling side, within its Unit Limit and supply."""
    side = board.controller(board.area(state, area_id))
    return side != board.NO_SIDE and units.room(state, side, area_id) > 0 and units.supply(state, side) > 0


def produce_in(state: GameState, area_id: str, amount: int, ev: Events) -> GameState:
    side = board.controller(board.area(state, area_id))
    if side == board.NO_SIDE:
        return state
    n = min(amount, units.room(state, side, area_id), units.supply(state, side))
    if n > 0:
        state = units.place(state, side, area_id, n)
        ev.append(Event(kind="produce", seat=side, area=area_id, value=n))
    return state


@starts(cs.Produce)
def start_produce(state: GameState, frame: Frame, step: cs.Produce, ev: Events) -> GameState:
    if step.mode == "each":
        areas = board.areas_matching(state, frame.seat, step.where)
        if order_matters(state, areas, step.amount):
            return replace(state, work=ProduceWork(seat=frame.seat, left=step.amount, where=step.where, mode="each",
                                                   areas=areas, must=True))
        for area_id in areas:
            state = produce_in(state, area_id, step.amount, ev)
        return state
    return replace(state, work=ProduceWork(seat=frame.seat, left=step.amount, where=step.where, mode=step.mode,
                                           must=frame.must))


def order_matters(state: GameState, areas: tuple[str, ...], amount: int) -> bool:
    """Whether the order in which areas each produce changes the result, so that it is the
    resolving player's choice: a side's supply can't fill all its areas (PRODUCE: units come from
    the supply), or its higher Unit Limit in ONE area could be used in more than one (UNIT LIMIT)."""
    return _supply_short(state, areas, amount) or _one_area_limit_contested(state, areas, amount)


def _supply_short(state: GameState, areas: tuple[str, ...], amount: int) -> bool:
    wanted: dict[int, list[int]] = {}
    for area_id in areas:
        side = board.controller(board.area(state, area_id))
        n = min(amount, units.room(state, side, area_id)) if side != board.NO_SIDE else 0
        if n > 0:
            wanted.setdefault(side, []).append(n)
    return any(len(ns) > 1 and 0 < units.supply(state, side) < sum(ns) for side, ns in wanted.items())


def _one_area_limit_contested(state: GameState, areas: tuple[str, ...], amount: int) -> bool:
    for seat in range(len(state.players)):
        base, one = units.follower_limits(state, seat)
        if one <= base or any(a.followers[seat] > base for a in state.areas):
            continue
        over = [a for a in areas if board.controller(board.area(state, a)) == seat
                and board.area(state, a).followers[seat] + amount > base]
        if len(over) > 1:
            return True
    return False


@decides(ProduceWork)
def decide_produce(state: GameState) -> Decision | None:
    w: ProduceWork = state.work  # type: ignore[assignment]
    if w.left <= 0:
        return None
    if w.mode == "each":
        return ask(w.seat, "produce", "Every area produces: choose which produces next (a short supply, or a "
                   "higher Unit Limit that holds in one area only, makes the order count)",
                   tuple(ProduceIn(area=a) for a in w.areas), optional=False)
    what = f"Produce {w.left} in one area" if w.mode == "one" else f"Produce 1 ({w.left} left)"
    what, opts = placing(state, w.seat, what, lambda s: produce_options(s, w))
    return ask(w.seat, "produce", what, opts, optional=not w.must and opts != WAIT)


def produce_options(state: GameState, w: ProduceWork) -> tuple[ProduceIn, ...]:
    return tuple(ProduceIn(area=a) for a in board.areas_matching(state, w.seat, w.where) if can_produce(state, a))


WAIT = (Done(),)  # the only option of a step waiting for Followers from Limbo: stop


def placing(state: GameState, seat: int, prompt: str, options) -> tuple[str, tuple]:
    """(prompt, options) of a step placing the seat's Followers from its supply. An empty supply
    ends it (no options), unless Followers in Limbo could be taken back for it (LIMBO, "at any
    time"): then it still asks, with nothing to place yet (``WAIT``), so that the player may take
    them back (``flow`` adds that option) or stop."""
    opts = options(state)
    if opts or not units.refill_would_help(state, seat, options):
        return prompt, opts
    return f"{prompt}: your supply is empty (take Followers back from Limbo, or stop)", WAIT


@handles(ProduceIn)
def handle_produce(state: GameState, action: ProduceIn, ev: Events) -> GameState:
    w: ProduceWork = state.work  # type: ignore[assignment]
    if w.mode == "each":
        state = produce_in(state, action.area, w.left, ev)
        rest = remove_one(w.areas, action.area)
        if not order_matters(state, rest, w.left):  # the rest no longer depends on the order
            for area_id in rest:
                state = produce_in(state, area_id, w.left, ev)
            rest = ()
        return resolve(replace(state, work=replace(w, areas=rest, left=w.left if rest else 0)), ev)
    n = w.left if w.mode == "one" else 1
    state = produce_in(state, action.area, n, ev)
    left = 0 if w.mode == "one" else w.left - 1
    return resolve(replace(state, work=replace(w, left=left)), ev)


# ---------------------------------------------------------------------------------------------
# Shadows, removing Followers, Limbo


@starts(cs.AddShadows)
def start_shadows(state: GameState, frame: Frame, step: cs.AddShadows, ev: Events) -> GameState:
    return replace(state, work=ShadowWork(seat=frame.seat, left=step.count, where=step.where, spread=step.spread,
                                          then_conflict=step.then_conflict))


@decides(ShadowWork)
def decide_shadows(state: GameState) -> Decision | None:
    w: ShadowWork = state.work  # type: ignore[assignment]
    if w.left <= 0 or state.shadows <= 0:
        return None
    areas = (w.area,) if w.area else board.areas_matching(state, w.seat, w.where)
    opts = tuple(AddShadow(area=a) for a in areas if units.room(state, SHADOWS, a) > 0)
    return ask(w.seat, "add_shadow", f"Add a Shadow ({w.left} left), respecting Unit Limits", opts, optional=False)


@handles(AddShadow)
def handle_add_shadow(state: GameState, action: AddShadow, ev: Events) -> GameState:
    w: ShadowWork = state.work  # type: ignore[assignment]
    state = units.place(state, SHADOWS, action.area, 1)
    ev.append(Event(kind="add_shadow", seat=w.seat, area=action.area, value=1))
    area = "" if w.spread else action.area
    return resolve(replace(state, work=replace(w, left=w.left - 1, area=area)), ev)


@starts(cs.RemoveFollowers)
def start_remove(state: GameState, frame: Frame, step: cs.RemoveFollowers, ev: Events) -> GameState:
    return replace(state, work=RemoveWork(seat=frame.seat, left=step.count, where=step.where))


@decides(RemoveWork)
def decide_remove(state: GameState) -> Decision | None:
    w = state.work
    if w.left <= 0:
        return None
    opts = tuple(PayFollower(area=a) for a in board.areas_matching(state, w.seat, w.where)
                 if board.area(state, a).followers[w.seat] > 0)
    return ask(w.seat, "remove_follower", f"Return a Follower to your supply ({w.left} left)", opts, optional=False)


@handles(PayFollower, RemoveWork)
def handle_remove(state: GameState, action: PayFollower, ev: Events) -> GameState:
    w = state.work
    state = units.remove(state, w.seat, action.area, 1)
    ev.append(Event(kind="remove_follower", seat=w.seat, area=action.area, value=1))
    return resolve(replace(state, work=replace(w, left=w.left - 1)), ev)


@starts(cs.RecoverLimbo)
def start_recover(state: GameState, frame: Frame, step: cs.RecoverLimbo, ev: Events) -> GameState:
    return replace(state, work=RecoverWork(seat=frame.seat, left=step.count, where=step.where, must=frame.must))


@decides(RecoverWork)
def decide_recover(state: GameState) -> Decision | None:
    w: RecoverWork = state.work  # type: ignore[assignment]
    if w.left <= 0 or state.players[w.seat].limbo <= 0:
        return None
    opts = tuple(RecoverTo(area=a) for a in board.areas_matching(state, w.seat, w.where)
                 if units.room(state, w.seat, a) > 0)
    return ask(w.seat, "recover", f"Bring a Follower back from Limbo ({w.left} left)", opts, optional=not w.must)


@handles(RecoverTo)
def handle_recover(state: GameState, action: RecoverTo, ev: Events) -> GameState:
    w: RecoverWork = state.work  # type: ignore[assignment]
    state = units.place(units.from_limbo(state, w.seat), w.seat, action.area, 1)
    ev.append(Event(kind="recover_limbo", seat=w.seat, area=action.area, value=1))
    return resolve(replace(state, work=replace(w, left=w.left - 1)), ev)


# ---------------------------------------------------------------------------------------------
# Choices


@starts(cs.Choose)
def start_choose(state: GameState, frame: Frame, step: cs.Choose, ev: Events) -> GameState:
    return replace(state, work=ChooseWork(seat=frame.seat, options=step.options, must=frame.must))


@decides(ChooseWork)
def decide_choose(state: GameState) -> Decision | None:
    w: ChooseWork = state.work  # type: ignore[assignment]
    return ask(w.seat, "choose", "Choose one", tuple(ChooseOption(index=i) for i in range(len(w.options))),
                optional=not w.must)


@handles(ChooseOption)
def handle_choose(state: GameState, action: ChooseOption, ev: Events) -> GameState:
    w: ChooseWork = state.work  # type: ignore[assignment]
    state = replace(state, work=None)
    ev.append(Event(kind="choose", seat=w.seat, value=action.index))
    return resolve(push_effect(state, w.seat, w.options[action.index], "choice", must=w.must), ev)


@starts(cs.PerformConform)
def start_conform(state: GameState, frame: Frame, step: cs.PerformConform, ev: Events) -> GameState:
    return replace(state, work=ConformWork(seat=frame.seat))


@decides(ConformWork)
def decide_conform(state: GameState) -> Decision | None:
    from .effects import implemented

    w = state.work
    rondel = board.pack(state).matrix.rondel
    opts = tuple(ChooseAction(action=a) for a in rondel
                 if implemented(cards.action_effect(state, w.seat, a, "conform").steps))
    return ask(w.seat, "choose_action", "Perform the Conform part of one of your Action cards", opts, optional=True)


@handles(ChooseAction)
def handle_choose_action(state: GameState, action: ChooseAction, ev: Events) -> GameState:
    seat = state.work.seat
    effect = cards.action_effect(state, seat, action.action, "conform")
    ev.append(Event(kind="perform_conform", seat=seat, detail=action.action))
    return resolve(push_effect(replace(state, work=None), seat, effect.steps, "conform",
                               card=cards.action_card_id(state, seat, action.action)), ev)


@starts(cs.MoveDreamer)
def start_move_dreamer(state: GameState, frame: Frame, step: cs.MoveDreamer, ev: Events) -> GameState:
    ev.append(Event(kind="dreamer_free", seat=frame.seat))
    return set_player(state, replace(state.players[frame.seat], dreamer_free=True))


# ---------------------------------------------------------------------------------------------
# Upgrades and Ploys (DEVELOP)


@starts(cs.PlayUpgrades)
def start_upgrades(state: GameState, frame: Frame, step: cs.PlayUpgrades, ev: Events) -> GameState:
    return replace(state, work=PickWork(seat=frame.seat, kind="upgrade", left=step.count))


@starts(cs.PlayPloys)
def start_ploys(state: GameState, frame: Frame, step: cs.PlayPloys, ev: Events) -> GameState:
    return replace(state, work=PickWork(seat=frame.seat, kind="ploy", left=step.count))


def ploy_playable(state: GameState, card_id: str) -> bool:
    from .effects import implemented

    eff = cards.card(state, card_id).effect
    return eff is not None and implemented(eff.steps)


@decides(PickWork)
def decide_pick(state: GameState) -> Decision | None:
    w: PickWork = state.work  # type: ignore[assignment]
    if w.left and w.played >= w.left:
        return None
    hand = dict.fromkeys(state.players[w.seat].hand)
    if w.kind == "upgrade":
        opts = tuple(PlayUpgrade(card=c) for c in hand if cards.is_upgrade(state, c))
        prompt = "Play an Upgrade on its Action card"
    else:
        opts = tuple(PlayPloy(card=c) for c in hand if cards.is_ploy(state, c) and ploy_playable(state, c))
        prompt = "Play a Ploy"
    if w.left:
        prompt += f" ({w.left - w.played} left)"
    return ask(w.seat, "play_" + w.kind, prompt, opts, optional=True)


@handles(PlayUpgrade)
def handle_upgrade(state: GameState, action: PlayUpgrade, ev: Events) -> GameState:
    """An Upgrade covers its Action card for good; the covered card still scores."""
    w: PickWork = state.work  # type: ignore[assignment]
    pl = state.players[w.seat]
    card = cards.development(state, action.card)
    slot = board.pack(state).matrix.rondel.index(card.action)
    display = pl.display[:slot] + (pl.display[slot] + (action.card,),) + pl.display[slot + 1:]
    state = set_player(state, replace(pl, hand=remove_one(pl.hand, action.card), display=display))
    ev.append(Event(kind="play_upgrade", seat=w.seat, cards=(action.card,), detail=card.action))
    return resolve(replace(state, work=replace(w, played=w.played + 1)), ev)


@handles(PlayPloy)
def handle_ploy(state: GameState, action: PlayPloy, ev: Events) -> GameState:
    w: PickWork = state.work  # type: ignore[assignment]
    pl = state.players[w.seat]
    state = set_player(state, replace(pl, hand=remove_one(pl.hand, action.card)))
    state = replace(state, decks=replace(state.decks, development_discard=state.decks.development_discard + (action.card,)))
    ev.append(Event(kind="play_ploy", seat=w.seat, cards=(action.card,)))
    state = replace(state, work=None)
    if not w.left or w.played + 1 < w.left:  # more Ploys may follow once this one is resolved
        more = cs.PlayPloys(count=0 if not w.left else w.left - w.played - 1)
        state = push_effect(state, w.seat, (more,), "develop")
    effect = cards.card(state, action.card).effect
    return resolve(push_effect(state, w.seat, effect.steps, "ploy", card=action.card), ev)


@explains(PlayUpgrade)
def explain_upgrade(state: GameState, action: PlayUpgrade) -> IllegalAction:
    return IllegalAction("only an Upgrade card from your hand can be played now",
                         rule="playing Upgrades", section="DEVELOP")


@explains(PlayPloy)
def explain_ploy(state: GameState, action: PlayPloy) -> IllegalAction:
    return IllegalAction("only a Ploy from your hand whose effect can be resolved can be played now",
                         rule="playing Ploys", section="DEVELOP")
