"""The simple effect steps (RESOLVING ACTIONS AND REACTIONS): drawing, producing (PRODUCE),
Shadows, removing Followers, bringing them back from Limbo, choices, Upgrades and Ploys (DEVELOP).

Each step starts in a ``start_*`` function (its frame's seat resolves it) and, when it needs
decisions, leaves a Work whose rule (``*_RULE``) asks them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from msgspec.structs import replace

from nctui.platform import rng

from ..content import schema as cs
from . import board, cards, events as E, units
from .actions import (
    Action,
    AddShadow,
    ChooseAction,
    ChooseOption,
    Done,
    KeepCard,
    PayFollower,
    PlayPloy,
    PlayUpgrade,
    ProduceIn,
    RecoverTo,
)
from .effects import push_effect
from .errors import IllegalAction
from .events import Event
from .ops import draw_development, remove_one, set_player
from .rules import Refusal, Rule, legal, with_stop
from .state import GameState
from .work import (
    ChooseWork,
    ConformWork,
    DevelopWork,
    Frame,
    KeepWork,
    PloyWork,
    ProduceWork,
    RecoverWork,
    RemoveWork,
    ShadowWork,
    UpgradeWork,
    Work,
    kind_of,
)

Events = list[Event]
SHADOWS = board.SHADOWS_SIDE
EFFECTS = "RESOLVING ACTIONS AND REACTIONS"
WAIT = (Done(),)  # the only option of a step waiting for Followers from Limbo: stop


def stop(state: GameState, w: Work, ev: Events) -> GameState:
    """Done: the player ends the current optional step (or waiting step) here."""
    ev.append(E.Stopped(seat=w.seat, decision=kind_of(w)))
    return replace(state, work=None)


def placing(
    state: GameState, seat: int, options: Callable[[GameState], tuple[Action, ...]], optional: bool
) -> tuple[Action, ...]:
    """The options of a step placing the seat's Followers from its supply. An empty supply ends
    it (no options), unless Followers in Limbo could be taken back for it (LIMBO, "at any time"):
    then it still asks, with nothing to place yet (``WAIT``), so that the player may take them
    back (``flow`` adds that option) or stop."""
    opts = options(state)
    if not opts and units.refill_would_help(state, seat, options):
        return WAIT
    return with_stop(opts, optional)


def _not_in_play(state: GameState, area_id: str) -> Refusal:
    if area_id not in board.area_index(state):
        return IllegalAction(f"{area_id!r} is not an area in play", rule="areas in play", section="KEY CONCEPTS")
    return None


# ---------------------------------------------------------------------------------------------
# Draw


def start_draw(state: GameState, frame: Frame, step: cs.Draw, ev: Events) -> GameState:
    seat = frame.seat
    if step.deck == "development" and not step.keep:
        return draw_development(state, seat, step.count, ev)
    deck = getattr(state.decks, step.deck)
    drawn, rest = deck[: step.count], deck[step.count :]
    state = replace(state, decks=replace(state.decks, **{step.deck: rest}))
    if not step.keep:
        return _gain(state, seat, step.deck, drawn, ev)
    ev.append(E.CardsDrawnToKeep(seat=seat, deck=step.deck, cards=drawn, keep=min(step.keep, len(drawn))))
    return replace(
        state,
        work=KeepWork(
            seat=seat, deck=step.deck, drawn=drawn, keep_left=min(step.keep, len(drawn)), beyond_limit=step.beyond_limit
        ),
    )


def _gain(state: GameState, seat: int, deck: str, drawn: tuple[str, ...], ev: Events) -> GameState:
    pl = state.players[seat]
    if deck.startswith("dream"):
        pl = replace(pl, dreams=pl.dreams + drawn)
        ev.append(E.DrewDreams(seat=seat, cards=drawn, count=len(drawn)))
    else:
        pl = replace(pl, hand=pl.hand + drawn)
        ev.append(E.DrewDevelopment(seat=seat, cards=drawn, count=len(drawn)))
    return set_player(state, pl)


def _keep_options(state: GameState, w: KeepWork) -> tuple[Action, ...]:
    if w.keep_left <= 0:
        return ()
    return legal(state, w, (KeepCard(card=c) for c in w.drawn), _keep_refusal)


def _keep_refusal(state: GameState, w: KeepWork, action: KeepCard) -> Refusal:
    if action.card in w.drawn:
        return None
    return IllegalAction(f"{action.card} is not one of the cards just drawn", rule="keep a card drawn", section=EFFECTS)


def _keep(state: GameState, w: KeepWork, action: KeepCard, ev: Events) -> GameState:
    pl = state.players[w.seat]
    kept = (
        replace(pl, dreams=pl.dreams + (action.card,))
        if w.deck.startswith("dream")
        else replace(pl, hand=pl.hand + (action.card,))
    )
    state = set_player(state, kept)
    ev.append(E.CardKept(seat=w.seat, deck=w.deck, card=action.card))
    if w.beyond_limit:  # this Dream doesn't count against the limit of 2 (Reward tile)
        pl = state.players[w.seat]
        state = set_player(state, replace(pl, free_dreams=pl.free_dreams + (action.card,)))
    drawn = remove_one(w.drawn, action.card)
    if w.keep_left > 1:
        return replace(state, work=replace(w, drawn=drawn, keep_left=w.keep_left - 1))
    # the rest goes back and the deck is shuffled
    deck, r = rng.shuffle(state.rng, getattr(state.decks, w.deck) + drawn)
    ev.append(E.DeckShuffled(deck=w.deck))
    return replace(state, rng=r, decks=replace(state.decks, **{w.deck: deck}), work=None)


KEEP = Rule(KeepWork, (KeepCard,), _keep_options, _keep_refusal, _keep)


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
        ev.append(E.Produced(seat=side, area=area_id, count=n))
    return state


def start_produce(state: GameState, frame: Frame, step: cs.Produce, ev: Events) -> GameState:
    if step.mode == "each":
        areas = producing_each(state, frame.seat, step.where)
        if order_matters(state, areas, step.amount):
            return replace(
                state,
                work=ProduceWork(
                    seat=frame.seat, left=step.amount, where=step.where, mode="each", areas=areas, must=True
                ),
            )
        for area_id in areas:
            state = produce_in(state, area_id, step.amount, ev)
        return state
    return replace(
        state, work=ProduceWork(seat=frame.seat, left=step.amount, where=step.where, mode=step.mode, must=frame.must)
    )


def producing_each(state: GameState, seat: int, where: str) -> tuple[str, ...]:
    """The areas that each produce, an area once per reason: a Marked Area holding your Fort
    produces twice for "every Marked Area and every area with your Fort" (PRODUCE: "a single area
    [may] produce more than once during the resolution of a single effect")."""
    if where == "marked_or_fort":
        return board.areas_matching(state, seat, "marked") + board.areas_matching(state, seat, "fort")
    return board.areas_matching(state, seat, where)


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
        over = [
            a
            for a in areas
            if board.controller(board.area(state, a)) == seat and board.area(state, a).followers[seat] + amount > base
        ]
        if len(set(over)) > 1:
            return True
    return False


def _produce_candidates(state: GameState, w: ProduceWork) -> tuple[ProduceIn, ...]:
    areas = w.areas if w.mode == "each" else board.areas_matching(state, w.seat, w.where)
    return tuple(ProduceIn(area=a) for a in dict.fromkeys(areas))


def _produce_options(state: GameState, w: ProduceWork) -> tuple[Action, ...]:
    if w.left <= 0:
        return ()
    if w.mode == "each":  # every area produces: only the order is chosen
        return _produce_candidates(state, w)
    # the predicates of ``_produce_refusal``: the candidates are in play and the effect's areas by
    # construction, so each one that can produce (``legal`` listed the same, refusing the others)
    return placing(
        state, w.seat, lambda s: tuple(c for c in _produce_candidates(s, w) if can_produce(s, c.area)), not w.must
    )


def _produce_refusal(state: GameState, w: ProduceWork, action: ProduceIn) -> Refusal:
    if (err := _not_in_play(state, action.area)) is not None:
        return err
    if action.area not in (a.area for a in _produce_candidates(state, w)):
        return IllegalAction(f"this effect produces only in {_where(w)}", rule="the effect's areas", section=EFFECTS)
    if w.mode == "each" or can_produce(state, action.area):
        return None
    return IllegalAction(
        f"{action.area} cannot produce now: it needs a controller with room under its Unit Limit "
        "and units in its supply",
        rule="production",
        section="PRODUCE",
    )


def _where(w: ProduceWork) -> str:
    return "the areas still to produce" if w.mode == "each" else f"{w.where} areas"


def _produce(state: GameState, w: ProduceWork, action: ProduceIn | Done, ev: Events) -> GameState:
    if isinstance(action, Done):
        return stop(state, w, ev)
    if w.mode == "each":
        state = produce_in(state, action.area, w.left, ev)
        rest = remove_one(w.areas, action.area)
        if not order_matters(state, rest, w.left):  # the rest no longer depends on the order
            for area_id in rest:
                state = produce_in(state, area_id, w.left, ev)
            rest = ()
        return replace(state, work=replace(w, areas=rest, left=w.left if rest else 0))
    n = w.left if w.mode == "one" else 1
    state = produce_in(state, action.area, n, ev)
    return replace(state, work=replace(w, left=0 if w.mode == "one" else w.left - 1))


PRODUCE = Rule(ProduceWork, (ProduceIn,), _produce_options, _produce_refusal, _produce)


# ---------------------------------------------------------------------------------------------
# Shadows, removing Followers, Limbo


def start_shadows(state: GameState, frame: Frame, step: cs.AddShadows, ev: Events) -> GameState:
    return replace(
        state,
        work=ShadowWork(
            seat=frame.seat, left=step.count, where=step.where, spread=step.spread, then_conflict=step.then_conflict
        ),
    )


def _shadow_options(state: GameState, w: ShadowWork) -> tuple[Action, ...]:
    if w.left <= 0 or state.shadows <= 0:
        return ()
    areas = (w.area,) if w.area else board.areas_matching(state, w.seat, w.where)
    return legal(state, w, (AddShadow(area=a) for a in areas), _shadow_refusal)


def _shadow_refusal(state: GameState, w: ShadowWork, action: AddShadow) -> Refusal:
    if (err := _not_in_play(state, action.area)) is not None:
        return err
    if w.area and action.area != w.area:
        return IllegalAction(f"these Shadows go to a single area: {w.area}", rule="a single area", section=EFFECTS)
    if not w.area and action.area not in board.areas_matching(state, w.seat, w.where):
        return IllegalAction(
            f"this effect adds Shadows only to {w.where} areas", rule="the effect's areas", section=EFFECTS
        )
    if units.room(state, SHADOWS, action.area) <= 0:
        return IllegalAction(f"{action.area} already holds 3 Shadows", rule="Unit Limit", section="UNIT LIMIT")
    return None


def _add_shadow(state: GameState, w: ShadowWork, action: AddShadow, ev: Events) -> GameState:
    """A Reward tile's "add 2 Shadows to a single area, then resolve a conflict in that area":
    the area is known with the first Shadow, and the conflict is pushed on top of the effect at
    once, so it starts as soon as the Shadows are added (even if the Unit Limit stops the second)."""
    if w.then_conflict and not w.area:
        w = replace(w, then_conflict=False)
        state = push_effect(state, w.seat, (cs.ResolveConflicts(count=1, area=action.area),), "reward")
        ev.append(E.ConflictFollows(seat=w.seat, area=action.area))
    state = units.place(state, SHADOWS, action.area, 1)
    ev.append(E.ShadowAdded(seat=w.seat, area=action.area))
    area = "" if w.spread else action.area
    return replace(state, work=replace(w, left=w.left - 1, area=area))


ADD_SHADOW = Rule(ShadowWork, (AddShadow,), _shadow_options, _shadow_refusal, _add_shadow)


def start_remove(state: GameState, frame: Frame, step: cs.RemoveFollowers, ev: Events) -> GameState:
    return replace(state, work=RemoveWork(seat=frame.seat, left=step.count, where=step.where))


def _remove_options(state: GameState, w: RemoveWork) -> tuple[Action, ...]:
    if w.left <= 0:
        return ()
    return legal(state, w, (PayFollower(area=a) for a in board.areas_matching(state, w.seat, w.where)), _remove_refusal)


def _remove_refusal(state: GameState, w: RemoveWork, action: PayFollower) -> Refusal:
    if (err := _not_in_play(state, action.area)) is not None:
        return err
    if action.area not in board.areas_matching(state, w.seat, w.where):
        return IllegalAction(
            f"this effect removes Followers only from {w.where} areas", rule="the effect's areas", section=EFFECTS
        )
    if board.area(state, action.area).followers[w.seat] <= 0:
        return IllegalAction(f"you have no Follower in {action.area}", rule="remove your own Follower", section=EFFECTS)
    return None


def _remove(state: GameState, w: RemoveWork, action: PayFollower, ev: Events) -> GameState:
    state = units.remove(state, w.seat, action.area, 1)
    ev.append(E.FollowerRemoved(seat=w.seat, area=action.area))
    return replace(state, work=replace(w, left=w.left - 1))


REMOVE = Rule(RemoveWork, (PayFollower,), _remove_options, _remove_refusal, _remove)


def start_recover(state: GameState, frame: Frame, step: cs.RecoverLimbo, ev: Events) -> GameState:
    return replace(state, work=RecoverWork(seat=frame.seat, left=step.count, where=step.where, must=frame.must))


def _recover_options(state: GameState, w: RecoverWork) -> tuple[Action, ...]:
    if w.left <= 0 or state.players[w.seat].limbo <= 0:
        return ()
    opts = legal(state, w, (RecoverTo(area=a) for a in board.areas_matching(state, w.seat, w.where)), _recover_refusal)
    return with_stop(opts, not w.must)


def _recover_refusal(state: GameState, w: RecoverWork, action: RecoverTo) -> Refusal:
    if (err := _not_in_play(state, action.area)) is not None:
        return err
    if action.area not in board.areas_matching(state, w.seat, w.where):
        return IllegalAction(
            f"this effect brings Followers back only into {w.where} areas", rule="the effect's areas", section=EFFECTS
        )
    if units.room(state, w.seat, action.area) <= 0:
        return IllegalAction(
            f"your Unit Limit allows no more of your Followers in {action.area}",
            rule="Unit Limit",
            section="UNIT LIMIT",
        )
    return None


def _recover(state: GameState, w: RecoverWork, action: RecoverTo | Done, ev: Events) -> GameState:
    if isinstance(action, Done):
        return stop(state, w, ev)
    state = units.place(units.from_limbo(state, w.seat), w.seat, action.area, 1)
    ev.append(E.RecoveredFromLimbo(seat=w.seat, area=action.area))
    return replace(state, work=replace(w, left=w.left - 1))


RECOVER = Rule(RecoverWork, (RecoverTo,), _recover_options, _recover_refusal, _recover)


# ---------------------------------------------------------------------------------------------
# Choices


def start_choose(state: GameState, frame: Frame, step: cs.Choose, ev: Events) -> GameState:
    return replace(state, work=ChooseWork(seat=frame.seat, options=step.options, must=frame.must))


def _choose_options(state: GameState, w: ChooseWork) -> tuple[Action, ...]:
    return with_stop(
        legal(state, w, (ChooseOption(index=i) for i in range(len(w.options))), _choose_refusal), not w.must
    )


def _choose_refusal(state: GameState, w: ChooseWork, action: ChooseOption) -> Refusal:
    if 0 <= action.index < len(w.options):
        return None
    return IllegalAction(f"choose one of the {len(w.options)} options", rule="choose exactly one", section=EFFECTS)


def _choose(state: GameState, w: ChooseWork, action: ChooseOption | Done, ev: Events) -> GameState:
    if isinstance(action, Done):
        return stop(state, w, ev)
    state = replace(state, work=None)
    ev.append(E.OptionChosen(seat=w.seat, index=action.index, steps=w.options[action.index]))
    return push_effect(state, w.seat, w.options[action.index], "choice", must=w.must)


CHOOSE = Rule(ChooseWork, (ChooseOption,), _choose_options, _choose_refusal, _choose)


def start_conform(state: GameState, frame: Frame, step: cs.PerformConform, ev: Events) -> GameState:
    return replace(state, work=ConformWork(seat=frame.seat))


def _conform_options(state: GameState, w: ConformWork) -> tuple[Action, ...]:
    rondel = board.pack(state).matrix.rondel
    return with_stop(tuple(ChooseAction(action=a) for a in rondel), True)


def _conform_refusal(state: GameState, w: ConformWork, action: ChooseAction) -> Refusal:
    return (
        None
        if action.action in board.pack(state).matrix.rondel
        else IllegalAction(
            f"{action.action!r} is not one of your Action cards", rule="your Action cards", section=EFFECTS
        )
    )


def _conform(state: GameState, w: ConformWork, action: ChooseAction | Done, ev: Events) -> GameState:
    if isinstance(action, Done):
        return stop(state, w, ev)
    effect = cards.action_effect(state, w.seat, action.action, "conform")
    ev.append(E.ConformPerformed(seat=w.seat, action=action.action))
    return push_effect(
        replace(state, work=None),
        w.seat,
        effect.steps,
        "conform",
        card=cards.action_card_id(state, w.seat, action.action),
    )


CONFORM = Rule(ConformWork, (ChooseAction,), _conform_options, _conform_refusal, _conform)


def start_move_dreamer(state: GameState, frame: Frame, step: cs.MoveDreamer, ev: Events) -> GameState:
    ev.append(E.DreamerFree(seat=frame.seat))
    return set_player(state, replace(state.players[frame.seat], dreamer_free=True))


# ---------------------------------------------------------------------------------------------
# Upgrades and Ploys (DEVELOP)


def start_upgrades(state: GameState, frame: Frame, step: cs.PlayUpgrades, ev: Events) -> GameState:
    """DEVELOP: "play any number of Upgrades and up to 3 Ploys" is one decision when the Ploy step
    follows: the cards are played in any order (an Upgrade after a Ploy too)."""
    rest = state.frames[-1].steps if state.frames and frame.steps[:1] == (step,) else ()
    if rest and isinstance(rest[0], cs.PlayPloys) and frame.steps[1:2] == rest[:1]:
        state = replace(state, frames=state.frames[:-1] + (replace(state.frames[-1], steps=rest[1:]),))
        return replace(state, work=DevelopWork(seat=frame.seat, upgrades=step.count, ploys=rest[0].count))
    return replace(state, work=UpgradeWork(seat=frame.seat, left=step.count))


def start_ploys(state: GameState, frame: Frame, step: cs.PlayPloys, ev: Events) -> GameState:
    return replace(state, work=PloyWork(seat=frame.seat, left=step.count))


def _played_all(w: UpgradeWork | PloyWork) -> bool:
    return bool(w.left) and w.played >= w.left


def _left(count: int, played: int) -> int:
    """What a step of ``count`` cards (0: any number; -1: none) allows after ``played``: the
    count of a step playing the rest (0 any number, -1 none)."""
    if count <= 0:
        return count
    return count - played if played < count else -1


def _upgrades_in(state: GameState, seat: int) -> tuple[PlayUpgrade, ...]:
    # the predicate of ``_upgrade_refusal`` (the card is in hand), without building refusals
    hand = dict.fromkeys(state.players[seat].hand)
    return tuple(PlayUpgrade(card=c) for c in hand if cards.is_upgrade(state, c))


def _ploys_in(state: GameState, seat: int) -> tuple[PlayPloy, ...]:
    # the predicate of ``_ploy_refusal`` (the card is in hand), without building refusals
    hand = dict.fromkeys(state.players[seat].hand)
    return tuple(PlayPloy(card=c) for c in hand if _is_ploy_with_effect(state, c))


def _upgrade_options(state: GameState, w: UpgradeWork) -> tuple[Action, ...]:
    if _played_all(w):
        return ()
    return with_stop(_upgrades_in(state, w.seat), True)


def _upgrade_refusal(state: GameState, w: UpgradeWork | DevelopWork, action: PlayUpgrade) -> Refusal:
    if action.card in state.players[w.seat].hand and cards.is_upgrade(state, action.card):
        if isinstance(w, DevelopWork) and _left(w.upgrades, w.upgrades_played) < 0:
            return IllegalAction(
                f"this effect plays only {w.upgrades} Upgrade{'s' if w.upgrades > 1 else ''}",
                rule="playing Upgrades",
                section="DEVELOP",
            )
        return None
    return IllegalAction(
        "only an Upgrade card from your hand can be played now", rule="playing Upgrades", section="DEVELOP"
    )


def _cover(state: GameState, seat: int, card: str, ev: Events) -> GameState:
    """An Upgrade covers its Action card for good; the covered card still scores."""
    pl = state.players[seat]
    action_id = cards.upgrade_action(state, card)
    slot = board.pack(state).matrix.rondel.index(action_id)
    display = pl.display[:slot] + (pl.display[slot] + (card,),) + pl.display[slot + 1 :]
    state = set_player(state, replace(pl, hand=remove_one(pl.hand, card), display=display))
    ev.append(E.UpgradePlayed(seat=seat, card=card, action=action_id))
    if action_id == "fortify":
        state, left = units.trim_to_limit(state, seat)
        if left:
            ev.append(E.OverUnitLimit(seat=seat, areas=left))
    return state


def _upgrade(state: GameState, w: UpgradeWork, action: PlayUpgrade | Done, ev: Events) -> GameState:
    if isinstance(action, Done):
        return stop(state, w, ev)
    state = _cover(state, w.seat, action.card, ev)
    return replace(state, work=replace(w, played=w.played + 1))


UPGRADE = Rule(UpgradeWork, (PlayUpgrade,), _upgrade_options, _upgrade_refusal, _upgrade)


def _ploy_options(state: GameState, w: PloyWork) -> tuple[Action, ...]:
    if _played_all(w):
        return ()
    return with_stop(_ploys_in(state, w.seat), True)


def _is_ploy_with_effect(state: GameState, card: str) -> bool:
    return card in _ploys_with_effect(state.pack)


@lru_cache(maxsize=8)
def _ploys_with_effect(pack_id: str) -> frozenset[str]:
    """The pack's Ploys that have an effect (``cards.is_ploy`` and an effect)."""
    return frozenset(
        d.id for d in board.get_pack(pack_id).cards.development if d.kind == "ploy" and d.effect is not None
    )


def _ploy_refusal(state: GameState, w: PloyWork | DevelopWork, action: PlayPloy) -> Refusal:
    if action.card in state.players[w.seat].hand and _is_ploy_with_effect(state, action.card):
        return None
    return IllegalAction("only a Ploy from your hand can be played now", rule="playing Ploys", section="DEVELOP")


def _play_ploy(state: GameState, seat: int, card: str, more: tuple[cs.Step, ...], ev: Events) -> GameState:
    """The Ploy goes to the discard pile and its effect resolves; then ``more`` (the cards the
    step still lets the player play)."""
    pl = state.players[seat]
    state = set_player(state, replace(pl, hand=remove_one(pl.hand, card)))
    discard = (*state.decks.development_discard, card)
    state = replace(state, decks=replace(state.decks, development_discard=discard))
    ev.append(E.PloyPlayed(seat=seat, card=card))
    state = replace(state, work=None)
    if more:  # more cards may follow once this one is resolved
        state = push_effect(state, seat, more, "develop")
    effect = cards.development(state, card).effect
    return push_effect(state, seat, effect.steps if effect is not None else (), "ploy", card=card)


def _ploy(state: GameState, w: PloyWork, action: PlayPloy | Done, ev: Events) -> GameState:
    if isinstance(action, Done):
        return stop(state, w, ev)
    left = _left(w.left, w.played + 1)
    return _play_ploy(state, w.seat, action.card, (cs.PlayPloys(count=left),) if left >= 0 else (), ev)


PLOY = Rule(PloyWork, (PlayPloy,), _ploy_options, _ploy_refusal, _ploy)


def _develop_options(state: GameState, w: DevelopWork) -> tuple[Action, ...]:
    ups = _upgrades_in(state, w.seat) if _left(w.upgrades, w.upgrades_played) >= 0 else ()
    ploys = _ploys_in(state, w.seat) if _left(w.ploys, w.ploys_played) >= 0 else ()
    return with_stop(ups + ploys, True)


def _develop_refusal(state: GameState, w: DevelopWork, action: PlayUpgrade | PlayPloy) -> Refusal:
    if isinstance(action, PlayUpgrade):
        return _upgrade_refusal(state, w, action)
    if _left(w.ploys, w.ploys_played) < 0:
        return IllegalAction(f"this effect plays only {w.ploys} Ploys", rule="playing Ploys", section="DEVELOP")
    return _ploy_refusal(state, w, action)


def _develop(state: GameState, w: DevelopWork, action: PlayUpgrade | PlayPloy | Done, ev: Events) -> GameState:
    """An Upgrade is played and the decision asked again; a Ploy resolves first, then the same
    decision comes back with what is left of both counts."""
    if isinstance(action, Done):
        return stop(state, w, ev)
    if isinstance(action, PlayUpgrade):
        state = _cover(state, w.seat, action.card, ev)
        return replace(state, work=replace(w, upgrades_played=w.upgrades_played + 1))
    ups, ploys = _left(w.upgrades, w.upgrades_played), _left(w.ploys, w.ploys_played + 1)
    more = ((cs.PlayUpgrades(count=ups),) if ups >= 0 else ()) + ((cs.PlayPloys(count=ploys),) if ploys >= 0 else ())
    return _play_ploy(state, w.seat, action.card, more, ev)


DEVELOP = Rule(DevelopWork, (PlayUpgrade, PlayPloy), _develop_options, _develop_refusal, _develop)
