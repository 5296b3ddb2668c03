"""The King of Horrors' five actions (solo rulebook: ACTION ACTIVATION, REMOVING FOLLOWERS,
DEVOURING UNITS, PERFORM RITUAL, SUMMON, FORTIFY, MANEUVER, DEVELOP) and its Unit Limit.

``perform_king_action`` resolves the row of the King's Action card for its Power: the King
decides nothing. Random picks use the Area Selection cards (``king.select_area``). The two
ties its rules leave to "you" are the human's decisions: the area of a Maneuver's Follower
(``KingManeuverWork``: the Maneuver waits and resumes with its remaining MP) and the Action card
a Develop tucks its card under (``KingTuckWork``).
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from nctui.platform import rng

from . import board, cards, events as E, king as kt, nightmares, units
from .actions import Action, ChooseAction, ChooseArea
from .errors import IllegalAction
from .events import Event
from .king import best_areas, pick_area, removable, remove_followers
from .king_dreams import add_cultist, place_on_dream
from .king_nightmares import devour_order
from .ops import set_player
from .rules import Refusal, Rule, legal
from .state import AreaState, GameState
from .work import Frame, KingCommand, KingConflicts, KingManeuverRest, KingManeuverWork, KingRitualBonuses, KingTuckWork

Events = list[Event]
SHADOWS = board.SHADOWS_SIDE
MAX_FORT_LEVELS = 3  # FORT LEVELS (core rules)
NEVER = 99  # "damage" that can never take an area's control away (a Fortress' last level)


def row_power(power: int) -> int:
    """ACTION ACTIVATION: the row "with the highest number that is equal to the current Power".
    Power is normally brought to 1, 3 or 5; when no Cultist is left to move it may stay even
    (or above 5 with many tucked cards, or 0): the highest row not above it, at least [1]."""
    return max([r for r in (1, 3, 5) if r <= power] or [1])


def params(state: GameState, action: str, power: int) -> tuple[int, ...]:
    card = next(c for c in board.pack(state).cards.king_actions if c.action == action)
    return next(r.params for r in card.rows if r.power == row_power(power))


def perform_king_action(state: GameState, action: str, power: int, ev: Events) -> GameState:
    """KING'S TURN 4: resolve the chosen action with the remaining Power (1, 3 or 5)."""
    return ACTIONS[action](state, params(state, action, power), row_power(power), ev)


def _hook(state: GameState, then: KingCommand | KingConflicts) -> GameState:
    """A King routine that may wait for your decisions (your combat cards): a commanded
    Nightmare, the conflict loop. It is pushed as a frame whose continuation runs it, so that it
    comes after the rest of this action and before the King's turn goes on (a Ritual's commands
    come after its climb)."""
    # under the pieces of Dreams this action completed: those are built "immediately"
    return kt.under_pieces(state, Frame(seat=kt.king(state).seat, steps=(), source="king_hook", then=then))


def command_nightmare(state: GameState, ev: Events) -> GameState:
    """COMMANDING NIGHTMARES (``king_nightmares``)."""
    return _hook(state, KingCommand())


# ---------------------------------------------------------------------------------------------
# Unit Limit, presence


def king_room(state: GameState, area_id: str) -> int:
    """The King's Unit Limit, the same everywhere its units are counted (``units.room``)."""
    return units.room(state, kt.king(state).seat, area_id)


def controlled(state: GameState) -> tuple[str, ...]:
    return board.areas_matching(state, kt.king(state).seat, "controlled")


# ---------------------------------------------------------------------------------------------
# SUMMON: the King's production (also the Ritual track's special spaces in Stage 1)


def _overflow(state: GameState, area_id: str, ev: Events) -> tuple[str, GameState]:
    """SUMMON: a Follower over the Unit Limit goes to an adjacent area the King doesn't control
    (one with room; random among several)."""
    mine = set(controlled(state))
    near = tuple(a for a in board.adjacent(state, area_id) if a not in mine and king_room(state, a) > 0)
    if not near:
        return "", state
    return kt.select_area(state, near, "overflow", ev, source=area_id)


def produce_one(state: GameState, area_id: str, ev: Events) -> GameState:
    seat = kt.king(state).seat
    to = area_id
    if king_room(state, area_id) <= 0:
        to, state = _overflow(state, area_id, ev)
        if not to:
            ev.append(E.KingProduceLost(seat=seat, area=area_id))
            return state
    state = units.place(state, seat, to)
    ev.append(E.KingProduces(seat=seat, area=to, overflow_from=area_id if to != area_id else ""))
    return state


def king_produce(state: GameState, wanted: tuple[tuple[str, int], ...], ev: Events) -> GameState:
    """Produce ``n`` Followers in each area. Short of supply: areas with more of your units
    first, then more of its own; ties: the Area Selection cards."""
    seat = kt.king(state).seat
    left = [w for w in wanted if w[1] > 0]
    short = sum(n for _, n in left) > state.players[seat].supply
    while left and state.players[seat].supply > 0:
        if short:
            pool = [board.area(state, a) for a, _ in left]
            area, state = pick_area(
                state, pool, [lambda a: -a.followers[1 - seat], lambda a: -a.followers[seat]], "produce", ev
            )
        else:
            area = left[0][0]
        n = dict(left)[area]
        left = [w for w in left if w[0] != area]
        for _ in range(min(n, state.players[seat].supply)):
            state = produce_one(state, area, ev)
    return state


def _marked_production(state: GameState, ev: Events) -> GameState:
    """SUMMON: every Marked Area produces 1 for whoever controls it, the Shadows where they do
    (an empty area too); a tied area is controlled by nobody and "produces no units" (PRODUCE)."""
    seat = kt.king(state).seat
    for area_id in board.marked_areas(state):
        who = board.controller(board.area(state, area_id))
        if who == board.NO_SIDE:
            ev.append(E.KingMarkedProduce(seat=seat, area=area_id, side=board.NO_SIDE))
            continue
        if who == seat:
            state = king_produce(state, ((area_id, 1),), ev)
            continue
        side = who
        if units.room(state, side, area_id) > 0 and units.supply(state, side) > 0:
            state = units.place(state, side, area_id)
            ev.append(E.KingMarkedProduce(seat=seat, area=area_id, side=side))
    return state


def summon(state: GameState, p: tuple[int, ...], power: int, ev: Events) -> GameState:
    """SUMMON: its controlled areas produce (more with a Fort), then maybe the Marked Areas."""
    per, extra, marked = p
    seat = kt.king(state).seat
    wanted = tuple((a, per + (extra if board.area(state, a).fort_owner == seat else 0)) for a in controlled(state))
    ev.append(E.KingSummons(seat=seat, power=power))
    state = king_produce(state, wanted, ev)
    return _marked_production(state, ev) if marked else state


# ---------------------------------------------------------------------------------------------
# PERFORM RITUAL


def _dream_cultists_each(state: GameState, ev: Events) -> GameState:
    """PERFORM RITUAL: add 1 Cultist to each of its Dreams (completing some)."""
    for card in kt.king(state).dreams:
        state = add_cultist(state, kt.king(state).dreams.index(card), ev, why="ritual")
    return state


def _entered(state: GameState, kind: str, ev: Events) -> GameState:
    """PERFORM RITUAL: the King's own bonuses instead of the printed ones. A special space: Stage 1
    its controlled areas produce 1 each, Stage 2 it commands a Nightmare; a ritual-only space:
    1 Cultist on each of its Dreams (docs/rules-decisions.md)."""
    if kind == "special" and state.stage < 2:
        return king_produce(state, tuple((a, 1) for a in controlled(state)), ev)
    if kind == "special":
        return command_nightmare(state, ev)
    return _dream_cultists_each(state, ev) if kind == "ritual" else state


def ritual_bonuses(state: GameState, then: KingRitualBonuses, ev: Events) -> GameState:
    """The King's bonuses for the spaces a climb outside its Ritual action reached (``king.king_climbs``);
    after a Nightmare's climb, no command."""
    for kind in then.kinds:
        if kind == "special" and state.stage >= 2 and not then.command:
            continue
        state = _entered(state, kind, ev)
    return state


def climb(state: GameState, marker: int, steps: int, ev: Events) -> GameState:
    """Climb one marker ``steps`` spaces (not past the last), ignoring costs and printed bonuses."""
    seat = kt.king(state).seat
    track = board.pack(state).tracks.ritual
    for _ in range(steps):
        pl = state.players[seat]
        pos = pl.ritual[marker] + 1
        if pos > len(track):
            break
        ritual = tuple(pos if m == marker else x for m, x in enumerate(pl.ritual))
        best = tuple(max(b, x) for b, x in zip(pl.ritual_best, ritual))
        state = set_player(state, replace(pl, ritual=ritual, ritual_best=best))
        ev.append(E.KingMarkerClimbs(seat=seat, space=pos, space_kind=track[pos - 1].kind))
        state = _entered(state, track[pos - 1].kind, ev)
    return state


# easier Ritual: the stated 3 or 5 steps become at most 2 or 4
EASIER_RITUAL_STEPS = {3: 2, 5: 4}


def ritual(state: GameState, p: tuple[int, ...], power: int, ev: Events) -> GameState:
    """PERFORM RITUAL: remove 2/1/0 Followers, roll: at least the threshold climbs the higher
    marker, else the lower one; in Stage 2 it also commands a Nightmare. Easier Ritual (DIFFICULTY
    MODIFIERS): "a max of 2 or 4 spaces ..., instead of the stated 3 or 5"."""
    removed, steps, at_least = p
    if kt.modifier(state, "easier_ritual"):
        steps = EASIER_RITUAL_STEPS.get(steps, steps)
    state = remove_followers(state, removed, ev)
    die, state = kt.roll_horror_die(state, ev)
    pos = state.players[kt.king(state).seat].ritual
    higher = die >= at_least
    marker = max((0, 1), key=lambda m: pos[m]) if higher else min((0, 1), key=lambda m: pos[m])
    ev.append(E.KingRitual(seat=kt.king(state).seat, higher=higher, steps=steps))
    state = climb(state, marker, steps, ev)
    return command_nightmare(state, ev) if state.stage >= 2 else state


# ---------------------------------------------------------------------------------------------
# FORTIFY


def _draw_to_hand(state: GameState, n: int, ev: Events) -> GameState:
    """Development cards straight into the King's hand, shuffled."""
    drawn, state = kt.draw(state, n)
    k = kt.king(state)
    hand, r = rng.shuffle(state.rng, k.hand + drawn)
    ev.append(E.KingHandCard(seat=k.seat, count=len(drawn)))
    return replace(kt.set_king(state, replace(k, hand=hand)), rng=r)


def build_fort_level(state: GameState, ev: Events) -> GameState:
    """FORTIFY: in an area it controls (below 3 levels): fewest of its Fort levels > fewest of
    your units > random."""
    seat = kt.king(state).seat
    pool = [board.area(state, a) for a in controlled(state)]
    pool = [a for a in pool if a.fort_levels < MAX_FORT_LEVELS]
    if not pool or state.players[seat].forts <= 0:
        ev.append(E.KingNoFort(seat=seat))
        return state
    area, state = pick_area(state, pool, [lambda a: a.fort_levels, lambda a: a.followers[1 - seat]], "fort", ev)
    state = units.add_fort_level(state, seat, area)
    ev.append(E.KingFortLevel(seat=seat, area=area, levels=board.area(state, area).fort_levels))
    return state


def devour_one(state: GameState, ev: Events) -> GameState:
    """FORTIFY (Stage 2): devour 1 unit in an area holding a Nightmare (docs/rules-decisions.md)."""
    where = board.nightmare_areas(state)
    for side in devour_order(state):
        pool = tuple(a for a in where if units.count(board.area(state, a), side) > 0)
        if pool:
            area, state = kt.select_area(state, pool, "devour", ev)
            return nightmares.devour(state, kt.king(state).seat, area, side, ev)
    ev.append(E.KingNothingToDevour(seat=kt.king(state).seat))
    return state


def fortify(state: GameState, p: tuple[int, ...], power: int, ev: Events) -> GameState:
    """FORTIFY: all its controlled areas at 3 Fort levels: a Maneuver of the same Power instead.
    Else roll: remove Followers, build Fort levels, draw cards, devour (Stage 2) per the row."""
    if all(board.area(state, a).fort_levels >= MAX_FORT_LEVELS for a in controlled(state)):
        ev.append(E.KingFortifyToManeuver(seat=kt.king(state).seat))
        return perform_king_action(state, "maneuver", power, ev)
    die, state = kt.roll_horror_die(state, ev)
    removed, forts, drawn, devoured = p[(die - 2) * 4 : (die - 1) * 4]
    state = remove_followers(state, removed, ev)
    for _ in range(forts):
        state = build_fort_level(state, ev)
    if drawn:
        state = _draw_to_hand(state, drawn, ev)
    for _ in range(devoured if state.stage >= 2 else 0):
        state = devour_one(state, ev)
    return state


# ---------------------------------------------------------------------------------------------
# MANEUVER


def strengths(a: AreaState) -> dict[int, int]:
    """MANEUVER: units per side for majority, a Fort counting as one whatever its levels."""
    s = {seat: n + (1 if a.fort_owner == seat else 0) for seat, n in enumerate(a.followers)}
    s[SHADOWS] = a.shadows
    return s


def has_majority(a: AreaState, side: int) -> bool:
    s = strengths(a)
    return all(s[side] > n for o, n in s.items() if o != side)


def situation(state: GameState, a: AreaState) -> int:
    """0 empty, 1 tied for majority, 2 your majority, 3 any other."""
    if board.is_empty(a):
        return 0
    s = strengths(a)
    top = max(s.values())
    if list(s.values()).count(top) > 1:
        return 1
    return 2 if has_majority(a, 1 - kt.king(state).seat) else 3


def marked_in(state: GameState, area_id: str) -> int:
    """Turns until the area's symbol is under the Turn marker, counting from the next position."""
    track = board.pack(state).tracks.turn
    sym = board.symbol_of(state, area_id)
    return next((k for k in range(1, len(track) + 1) if track[(state.turn_pos + k) % len(track)] == sym), NEVER)


def damage_to_lose(a: AreaState) -> int:
    """Damage its controller must be dealt to lose control (CONFLICTS 5: a side removes its units
    first and its Fort levels only when it has no units left): with a Fort, all the owner's
    Followers and then every level (never for a Fortress); without, its lead over the next side,
    down to a tie (docs/rules-decisions.md)."""
    who = board.controller(a)
    if who == board.NO_SIDE or board.is_empty(a):
        return 0
    if a.fortress >= 0:
        return NEVER
    if a.fort_levels > 0:
        return a.followers[who] + a.fort_levels
    counts = list(a.followers) + [a.shadows]
    mine = counts[who] if who >= 0 else a.shadows
    counts.remove(mine)
    return max(0, mine - max(counts, default=0))


def maneuver_targets(state: GameState) -> list[AreaState]:
    seat = kt.king(state).seat
    mine = controlled(state)
    near = {b for a in mine for b in board.adjacent(state, a)}
    index = board.area_index(state)
    return [
        board.area(state, a)
        for a in sorted(near, key=lambda a: index[a])
        if a not in mine and not has_majority(board.area(state, a), seat) and king_room(state, a) > 0
    ]


def maneuver_choices(state: GameState) -> tuple[str, ...]:
    """MANEUVER, one MP: the areas its criteria leave: empty > tied > your majority > other;
    marked soonest; fewest damage to lose control. Several left: you choose between them."""
    pool = maneuver_targets(state)
    if not pool:
        return ()
    keys = [lambda a: situation(state, a), lambda a: marked_in(state, a.id), damage_to_lose]
    return tuple(a.id for a in best_areas(pool, keys))


def place_follower(state: GameState, area: str, ev: Events, *, chosen: bool = False) -> GameState:
    """MANEUVER: one of its Followers from supply goes to ``area``; with none in supply, one is
    removed from a different area first (REMOVING FOLLOWERS)."""
    seat = kt.king(state).seat
    if state.players[seat].supply <= 0:
        state = remove_followers(state, 1, ev, besides=area)
        if state.players[seat].supply <= 0:
            return state
    state = units.place(state, seat, area)
    ev.append(E.KingManeuvers(seat=seat, area=area, chosen=chosen))
    return state


def maneuver_step(state: GameState, ev: Events, *, left: int = 0) -> GameState:
    """MANEUVER, one MP: a Follower in the one best area; when several are tied the Maneuver
    waits for your choice (``KingManeuverWork``, ``left`` MP still to spend after this one)."""
    options = maneuver_choices(state)
    if not options:
        ev.append(E.KingMpUnused(seat=kt.king(state).seat))
        return state
    if len(options) > 1 and any(can_place(state, a) for a in options):
        return replace(state, work=KingManeuverWork(seat=kt.human(state), options=options, mp=left))
    return place_follower(state, options[0], ev)  # alone, or nothing can be placed anywhere: no choice to make


def can_place(state: GameState, area: str) -> bool:
    """MANEUVER: whether a Follower can go to ``area``: one in its supply, or one it can remove
    from a different area (never its last one there: REMOVING FOLLOWERS)."""
    return state.players[kt.king(state).seat].supply > 0 or bool(removable(state, besides=area))


def spend_mp(state: GameState, mp: int, ev: Events) -> GameState:
    """MANEUVER: spend ``mp`` MP one at a time, stopping where you are asked to choose; once all
    are spent, its desired conflicts (the "king_conflicts" hook)."""
    for left in range(mp - 1, -1, -1):
        state = maneuver_step(state, ev, left=left)
        if isinstance(state.work, KingManeuverWork):
            return state
    return _hook(state, KingConflicts())


def maneuver(state: GameState, p: tuple[int, ...], power: int, ev: Events) -> GameState:
    """MANEUVER: 1 MP per Marked Area it controls for a Cultist on a Dream; 1 Follower per other
    MP; then its desired conflicts."""
    mine = set(controlled(state))
    return _maneuver(state, p[0], min(p[0], sum(1 for a in board.marked_areas(state) if a in mine)), ev)


def _maneuver(state: GameState, mp: int, cultists: int, ev: Events) -> GameState:
    """The Maneuver from its ``cultists`` Cultists still to place on Dreams, with ``mp`` MP. A Dream
    they complete builds its Cathedral piece "immediately": when you are to choose that piece,
    the rest of the Maneuver waits beneath your choice (a frame under the pending pieces)."""
    for left in range(cultists - 1, -1, -1):
        state = place_on_dream(state, ev, "marked")
        mp -= 1
        if kt.pieces_pending(state):
            rest = Frame(
                seat=kt.king(state).seat,
                steps=(),
                source="king_maneuver_rest",
                then=KingManeuverRest(mp=mp, cultists=left),
            )
            return kt.under_pieces(state, rest)
    return spend_mp(state, mp, ev)


def maneuver_rest(state: GameState, then: KingManeuverRest, ev: Events) -> GameState:
    return _maneuver(state, then.mp, then.cultists, ev)


def _maneuver_options(state: GameState, w: KingManeuverWork) -> tuple[Action, ...]:
    return legal(state, w, (ChooseArea(area=a) for a in w.options), _maneuver_refusal)


def _maneuver_refusal(state: GameState, w: KingManeuverWork, action: ChooseArea) -> Refusal:
    if action.area in w.options:
        return None
    return IllegalAction(
        f"{action.area} is not one of the areas tied for the King's Follower ({', '.join(w.options)})"
        ": you choose only between the areas its Maneuver criteria leave tied",
        rule="the King's Maneuver: you choose between the tied areas",
        section="SOLO MANEUVER",
    )


def _choose_maneuver_area(state: GameState, w: KingManeuverWork, action: ChooseArea, ev: Events) -> GameState:
    """MANEUVER: "you may choose between the tied areas"; then the rest of its MP."""
    state = place_follower(replace(state, work=None), action.area, ev, chosen=True)
    return spend_mp(state, w.mp, ev)


KING_MANEUVER = Rule(KingManeuverWork, (ChooseArea,), _maneuver_options, _maneuver_refusal, _choose_maneuver_area)


# ---------------------------------------------------------------------------------------------
# DEVELOP


def develop(state: GameState, p: tuple[int, ...], power: int, ev: Events) -> GameState:
    """DEVELOP: draw 2/3/4; the first Upgrade is tucked under its action (none: the last card
    under the card with the fewest tucked), the others into its hand; Cultists on the Maneuver /
    Ritual Day spaces; in Stage 2 it commands a Nightmare."""
    n, on_maneuver, on_ritual = p
    drawn, state = kt.draw(state, n)
    ev.append(E.KingDevelops(seat=kt.king(state).seat, count=len(drawn)))
    ups = [c for c in drawn if cards.is_upgrade(state, c)]
    card = ups[0] if ups else (drawn[-1] if drawn else "")
    if card:
        state = _tuck_drawn(state, card, bool(ups), ev)
    rest = tuple(c for c in drawn if c != card)
    k = kt.king(state)
    hand, r = rng.shuffle(state.rng, k.hand + rest)
    state = replace(kt.set_king(state, replace(k, hand=hand)), rng=r)
    state = _day_cultists(state, (("maneuver", on_maneuver), ("ritual", on_ritual)), ev)
    return command_nightmare(state, ev) if state.stage >= 2 else state


def tuck_choices(state: GameState) -> tuple[str, ...]:
    """DEVELOP: the King's Action cards (action ids) with the fewest cards tucked."""
    tucked = kt.king(state).tucked
    fewest = min(len(t) for t in tucked)
    return tuple(a for a, t in zip(kt.rondel(state), tucked) if len(t) == fewest)


def _tuck_drawn(state: GameState, card: str, upgrade: bool, ev: Events) -> GameState:
    """An Upgrade: under its matching action. Otherwise under the card with the fewest tucked,
    "your choice if tied": the card, face up, waits in ``KingTuckWork`` for your decision, which
    comes before the rest of the turn (a Stage 2 command included)."""
    ro = kt.rondel(state)
    options = (cards.upgrade_action(state, card),) if upgrade else tuck_choices(state)
    if len(options) == 1:
        return kt.tuck(state, ro.index(options[0]), card, ev, why="develop")
    return replace(state, work=KingTuckWork(seat=kt.human(state), card=card, options=options))


def _tuck_options(state: GameState, w: KingTuckWork) -> tuple[Action, ...]:
    return legal(state, w, (ChooseAction(action=a) for a in w.options), _tuck_refusal)  # type: ignore[arg-type]


def _tuck_refusal(state: GameState, w: KingTuckWork, action: ChooseAction) -> Refusal:
    if action.action in w.options:
        return None
    return IllegalAction(
        f"the King's {action.action} card is not one of those with the fewest cards tucked "
        f"({', '.join(w.options)}): you choose only between the tied cards",
        rule="the King's Develop: the last card goes under the card with the fewest tucked",
        section="SOLO DEVELOP",
    )


def _choose_tuck(state: GameState, w: KingTuckWork, action: ChooseAction, ev: Events) -> GameState:
    """DEVELOP: "your choice if tied"."""
    return kt.tuck(replace(state, work=None), kt.rondel(state).index(action.action), w.card, ev, why="choice")


KING_TUCK = Rule(KingTuckWork, (ChooseAction,), _tuck_options, _tuck_refusal, _choose_tuck)


def _day_cultists(state: GameState, spaces: tuple[tuple[str, int], ...], ev: Events) -> GameState:
    ro = kt.rondel(state)
    for action, flag in spaces:
        if flag:
            k = kt.king(state)
            i = ro.index(action)
            state = kt.set_king(
                state, replace(k, day_cultists=k.day_cultists[:i] + (k.day_cultists[i] + 1,) + k.day_cultists[i + 1 :])
            )
            ev.append(E.KingDayCultist(seat=k.seat, action=action))
    return state


ACTIONS: dict[str, Callable[[GameState, tuple[int, ...], int, Events], GameState]] = {
    "ritual": ritual,
    "summon": summon,
    "fortify": fortify,
    "maneuver": maneuver,
    "develop": develop,
}
