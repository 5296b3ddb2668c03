"""A computer player that plans: it pursues its Dream cards, climbs the Ritual track, builds
Forts and fights for areas, weighing every option by what it leads to.

It sees only its seat's view. To look ahead it first completes the view into a plausible full
state (``engine.views.resample``: every hidden card is replaced by one it has not seen, the RNG
reseeded from the bot's own generator; the guess is kept, moved on by each option chosen, for
the seat's next decisions of the turn while its view agrees with it), then, for each option,
applies it with the real rules engine and follows its own later decisions of the same turn with
a quick greedy policy (a "rollout", within a budget of engine steps), and scores the position
reached with ``evaluate``: the running score (Ritual, Forts, Devoured, Upgrades, Dreams, as
``scoring.scores`` counts it) plus progress that will become VP (Dream cards in hand by how near
their conditions are, Ritual markers, areas controlled, units, Fort levels, cards), minus the
strongest opponent's (solo: the King's, its Cultists on Dreams included). A few decisions have
their own logic: which Dream cards to keep and take, how many cards to commit to a conflict,
which Development card to discard.

Reproducible: the bot's own ``random.Random(seed)`` shuffles the guesses and breaks ties, so a
game between bots depends only on the seeds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import msgspec

from ..content import schema as cs
from ..content.loader import get_pack
from ..engine import actions as A, board, scoring
from ..engine.conflict import card_limit
from ..engine.flow import advance, apply
from ..engine.nightmares import devoured_total, threshold
from ..engine.state import BASIC_COMBAT, HAND_LIMIT, GameState, Outcome
from ..engine.views import View, fight_of as _fight, player_view, resample
from ..engine.work import ClimbPayWork, DiscardDreamsWork, DrawDreamWork, Fight, HandLimitWork

# ---------------------------------------------------------------------------------------------
# Tables of the content pack


class _Tables:
    """What the evaluation looks up often, computed once per content pack."""

    def __init__(self, pack_id: str) -> None:
        p = get_pack(pack_id)
        c = p.cards
        self.pack = pack_id
        self.dreams = {d.id: d for d in c.dreams}
        self.dev = {d.id: d for d in c.development}
        self.ritual = p.tracks.ritual
        best = [0]
        for sp in self.ritual:
            best.append(max(best[-1], sp.vp))
        self.ritual_vp = tuple(best)  # VP scored by a marker that reached position i
        self.turn = p.tracks.turn
        self.time = p.tracks.time
        self.combat = {d.id: d.combat for d in c.development}
        self.combat[c.basic_combat.id] = c.basic_combat.combat
        self.combat.update((k.id, k.combat) for k in c.king_combat)

        # card_value(card, g) = slope * g + 0.1, the slope computed once per card
        self.card_slope = {
            d.id: 0.25
            + 0.08 * (d.combat.attack + d.combat.defense)
            + (0.25 + 0.4 * d.vp if d.kind == "upgrade" else 0.1)
            for d in c.development
        }
        self.display_memo: dict[int, tuple[tuple, int, int]] = {}  # id(display) -> (display, VP, upgrades)
        self.dream_reads = {d.id: _reads(d.needs) for d in c.dreams}  # what each Dream's conditions read
        # ``_held_dream``'s factors of each Dream card (the same products as term by term)
        self.dream_far = {d.id: 0.05 * d.vp for d in c.dreams}
        self.dream_vp = {d.id: d.vp + 0.0 for d in c.dreams}  # times the weights' ``dream_held``
        self.dream_vp_variable = {d.id: d.vp + (0.3 if d.cathedral else 0.0) for d in c.dreams}
        self.deficits = {d.id: tuple(_deficit_of(n) for n in d.needs) for d in c.dreams}

    def card_value(self, card: str, g: float) -> float:
        """A Development card in hand: what it may still do (an Upgrade to play, a Ploy, its
        combat icons)."""
        if card == BASIC_COMBAT:
            return 0.0
        return self.card_slope.get(card, 0.3) * g + 0.1

    def display(self, display: tuple) -> tuple[int, int]:
        """A display's (VP of its Development cards, Upgrades played on it), remembered by the
        display's identity: a state made with ``replace`` shares the displays it left alone."""
        known = self.display_memo.get(id(display))
        if known is not None and known[0] is display:
            return known[1], known[2]
        dev = self.dev
        vp = sum(dev[c].vp for stack in display for c in stack if c in dev)
        upgrades = sum(1 for stack in display for c in stack[1:] if c in dev)
        if len(self.display_memo) >= _MEMO:
            self.display_memo.clear()
        self.display_memo[id(display)] = (display, vp, upgrades)
        return vp, upgrades


_MEMO = 512  # entries per identity memo; cleared when full (a forgotten part is computed again)


@lru_cache(maxsize=8)
def tables(pack_id: str) -> _Tables:
    return _Tables(pack_id)


_thresholds: dict[tuple, int | None] = {}


def _nightmare_threshold(state: GameState) -> int | None:
    """``nightmares.threshold``: fixed by the pack, the Nightmares in play and the player count."""
    key = (state.pack, state.nightmares, len(state.players))
    if key not in _thresholds:
        _thresholds[key] = threshold(state)
    return _thresholds[key]


# ---------------------------------------------------------------------------------------------
# The evaluation


def remaining_turns(state: GameState) -> float:
    """About how many turns (of all seats) the game still has: the Time track, and in Stage 2
    the Devoured Units still needed to end it."""
    t = tables(state.pack)
    if state.outcome is not None:
        return 0.0
    per_round = len(t.turn)
    offset = (state.turn_pos - state.turn_start) % per_round if state.turn_start >= 0 else 0
    left = float(max(0, (len(t.time) - 1 - state.time) * per_round - offset))
    if state.end_triggered:
        return min(left, len(state.players))
    if state.stage >= 2:
        limit = _nightmare_threshold(state)
        if limit is not None:
            left = min(left, max(2.0, (limit - devoured_total(state)) * 1.6))
    return float(left)


class _Seat:
    """Facts about one seat on the board (``board_facts`` gathers every seat's in one pass)."""

    __slots__ = (
        "controlled",
        "controlled_ids",
        "followers",
        "fort_levels",
        "fort_vp",
        "forts",
        "max_in_area",
        "present",
        "present_ids",
        "symbols",
        "turns",
    )

    def __init__(self) -> None:
        self.controlled = self.present = self.followers = self.fort_levels = self.max_in_area = 0
        self.fort_vp = 0  # VP of the Forts of 2 levels or more owned (``scoring``: a level beyond the first)
        self.forts: list[int] = []
        self.symbols = 0
        self.controlled_ids: list[str] = []
        self.present_ids: list[str] = []
        self.turns: dict[str, float] = {}  # dream_turns of the Dream cards that read these facts alone


_facts_memo: dict[int, tuple[tuple, str, str, list[_Seat]]] = {}


def board_facts(state: GameState) -> list[_Seat]:
    """Every seat's facts, remembered by the identity of ``state.areas`` (the look ahead meets
    many states whose areas a decision left alone). The facts are read, never changed."""
    areas = state.areas
    known = _facts_memo.get(id(areas))
    if known is not None and known[0] is areas and known[1] == state.pack and known[2] == state.board_side:
        return known[3]
    facts = _board_facts(state)
    if len(_facts_memo) >= _MEMO:
        _facts_memo.clear()
    _facts_memo[id(areas)] = (areas, state.pack, state.board_side, facts)
    return facts


def _board_facts(state: GameState) -> list[_Seat]:
    facts = [_Seat() for _ in state.players]
    symbols: list[set[str]] = [set() for _ in state.players]
    symbol_of = board.symbols(state)
    for a in state.areas:
        owner = a.fort_owner
        if owner < 0 and not a.fort_levels and not any(a.followers):
            continue  # no Follower and no Fort: nothing for any seat (controlled by the Shadows or nobody)
        if a.fort_levels >= 2:
            facts[owner].fort_vp += a.fort_levels - 1
        for seat, n in enumerate(a.followers):
            if n:
                f = facts[seat]
                f.followers += n
                if n > f.max_in_area:
                    f.max_in_area = n
                if seat != owner:
                    f.present += 1
                    f.present_ids.append(a.id)
        if owner >= 0:
            f = facts[owner]
            f.fort_levels += a.fort_levels
            f.forts.append(a.fort_levels)
            f.present += 1
            f.present_ids.append(a.id)
        if a.fort_levels > 0:  # ``board.controller``, inlined (a seat, or -1 for the Shadows, a tie, nobody)
            c = owner
        else:
            best = max(a.followers)
            c = a.followers.index(best) if best > a.shadows and a.followers.count(best) == 1 else -1
        if c >= 0:
            f = facts[c]
            f.controlled += 1
            f.controlled_ids.append(a.id)
            symbols[c].add(symbol_of[a.id])
    for f, syms in zip(facts, symbols):
        f.symbols = len(syms)
        f.forts.sort(reverse=True)
    return facts


def _next_turn_symbol(state: GameState, seat: int) -> str:
    """The Marked symbol of ``seat``'s next turn (this one while it is active)."""
    t = tables(state.pack)
    n = len(t.turn)
    if state.turn_pos < 0:
        return ""
    start = 0 if state.active == seat and state.phase != "setup" else 1
    for k in range(start, n + 1):
        pos = (state.turn_pos + k) % n
        if board.turn_owner(state, pos) == seat:
            return t.turn[pos]
    return t.turn[state.turn_pos]


def _matching(state: GameState, seat: int, where: str, ids: list[str]) -> int:
    if where == "any":
        return len(ids)
    if where == "marked":
        sym = _next_turn_symbol(state, seat)
        return sum(1 for a in ids if board.symbol_of(state, a) == sym)
    allowed = set(board.areas_matching(state, seat, where))
    return sum(1 for a in ids if a in allowed)


DeficitFn = Callable[[GameState, int, "_Seat", Any], float]


def _deficit_of(need: object) -> DeficitFn:
    """About how many of the seat's turns it needs to meet one Dream condition (0: met), as a
    function of (state, seat, the seat's board facts, its player state), made once per condition
    (``_Tables.deficits``)."""
    match need:
        case cs.ControlAreas(count=count, where="any"):
            return lambda state, seat, f, pl: max(0, count - len(f.controlled_ids)) * 1.0
        case cs.ControlAreas(count=count, where=where):
            return lambda state, seat, f, pl: max(0, count - _matching(state, seat, where, f.controlled_ids)) * 1.4
        case cs.ControlSymbols(count=count):
            return lambda state, seat, f, pl: max(0, count - f.symbols) * 1.2
        case cs.PresenceAreas(count=count, where="any"):
            return lambda state, seat, f, pl: max(0, count - len(f.present_ids)) * 0.6
        case cs.PresenceAreas(count=count, where=where):
            return lambda state, seat, f, pl: max(0, count - _matching(state, seat, where, f.present_ids)) * 1.2
        case cs.FollowersInArea(count=count):
            return lambda state, seat, f, pl: max(0, count - f.max_in_area) * 0.7
        case cs.FollowersOnBoard(count=count):
            return lambda state, seat, f, pl: max(0, count - f.followers) * 0.5
        case cs.FortLevels(count=count):
            return lambda state, seat, f, pl: max(0, count - f.fort_levels) * 0.7
        case cs.FortsWithLevels(levels=levels, count=count):

            def forts_with_levels(state: GameState, seat: int, f: _Seat, pl: Any) -> float:
                forts = f.forts + [0] * count
                return sum(max(0, levels - lv) for lv in forts[:count]) * 0.7 + max(0, count - len(f.forts)) * 0.8

            return forts_with_levels
        case cs.RitualReached(space=space, both=both):

            def ritual_reached(state: GameState, seat: int, f: _Seat, pl: Any) -> float:
                gaps = sorted(max(0, space - r) for r in pl.ritual)
                return (sum(gaps) if both else gaps[0]) * 0.4

            return ritual_reached
        case cs.LimboAtLeast(count=count):
            return lambda state, seat, f, pl: max(0, count - pl.limbo) * 1.2
        case cs.HandAtLeast(count=count):
            return lambda state, seat, f, pl: max(0, count - len(pl.hand)) * 0.6
        case cs.UpgradesPlayed(count=count):

            def upgrades_played(state: GameState, seat: int, f: _Seat, pl: Any) -> float:
                dev = tables(state.pack).dev
                have = sum(1 for stack in pl.display for c in stack[1:] if c in dev)
                short = max(0, count - have)
                in_hand = sum(1 for c in pl.hand if (d := dev.get(c)) is not None and d.kind == "upgrade")
                return min(short, in_hand) * 0.7 + max(0, short - in_hand) * 1.6

            return upgrades_played
        case cs.ShaperIn(where=where):
            return lambda state, seat, f, pl: 0.0 if pl.shaper in board.areas_matching(state, seat, where) else 0.8
        case cs.NoShadowsAdjacentFortress():

            def no_shadows(state: GameState, seat: int, f: _Seat, pl: Any) -> float:
                fortress = board.areas_matching(state, seat, "fortress")
                near = set(fortress).union(*(board.adjacent(state, a) for a in fortress))
                return sum(board.area(state, a).shadows for a in near) * 0.6

            return no_shadows
        case cs.ConflictsWon(count=count):
            return lambda state, seat, f, pl: max(0, count - pl.conflicts_won) * CONFLICT_TURNS
        case cs.DevouredAtLeast(count=count):
            return lambda state, seat, f, pl: (
                max(0, count - pl.devoured) * (0.7 if state.stage >= 2 else 1.5) + (0 if state.stage >= 2 else 3)
            )
    return lambda state, seat, f, pl: 3.0


# What a Dream condition reads of the state (``_deficit_of``), besides the content pack: the seat's
# board facts (so ``state.areas``), its player state, the Turn track (Marked areas), the
# Nightmares' places, the stage.
_FACTS, _PLAYER, _TURN, _NIGHTMARES, _STAGE = 1, 2, 4, 8, 16
_EVERYTHING = _FACTS | _PLAYER | _TURN | _NIGHTMARES | _STAGE


def _where_reads(where: str) -> int:
    """What ``_matching``/``board.areas_matching`` read for an area filter, besides the areas."""
    if where in ("marked", "marked_or_fort"):
        return _TURN
    if where in ("shaper", "adjacent_shaper"):
        return _PLAYER
    if where == "nightmare":
        return _NIGHTMARES
    return 0


def _reads(needs: tuple) -> int:
    out = 0
    for need in needs:
        match need:
            case cs.ControlAreas(where=where) | cs.PresenceAreas(where=where):
                out |= _FACTS | _where_reads(where)
            case (
                cs.ControlSymbols()
                | cs.FollowersInArea()
                | cs.FollowersOnBoard()
                | cs.FortLevels()
                | cs.FortsWithLevels()
                | cs.NoShadowsAdjacentFortress()
            ):
                out |= _FACTS
            case cs.RitualReached() | cs.LimboAtLeast() | cs.HandAtLeast() | cs.UpgradesPlayed() | cs.ConflictsWon():
                out |= _PLAYER
            case cs.ShaperIn(where=where):
                out |= _PLAYER | _FACTS | _where_reads(where)
            case cs.DevouredAtLeast():
                out |= _PLAYER | _STAGE
            case _:
                out |= _EVERYTHING
    return out


_turns_memo: dict[tuple, tuple[_Seat | None, object, float]] = {}
_TURNS_MEMO = 4096


def dream_turns(state: GameState, seat: int, card: str, f: _Seat | None = None) -> float:
    """About how many of the seat's turns before this Dream card can be played (0: now)."""
    return _dream_turns(tables(state.pack), state, seat, card, f or board_facts(state)[seat])


_OTHER_READS = _TURN | _NIGHTMARES | _STAGE


def _turns_needed(deficits: tuple[DeficitFn, ...], state: GameState, seat: int, f: _Seat) -> float:
    player = state.players[seat]
    total: float = 0  # summed in order, as ``sum`` did (a loop: no generator made per call)
    for deficit in deficits:
        total += deficit(state, seat, f, player)
    return total


def _dream_turns(t: _Tables, state: GameState, seat: int, card: str, f: _Seat) -> float:
    """``dream_turns``, remembered by what the card's conditions read (``_reads``): the seat's
    facts and player state by identity (the facts are remembered by the identity of the areas),
    the rest by value."""
    reads = t.dream_reads[card]
    if reads == _FACTS:  # remembered with the facts themselves
        turns = f.turns.get(card)
        if turns is None:
            turns = f.turns[card] = _turns_needed(t.deficits[card], state, seat, f)
        return turns
    pl = state.players[seat] if reads & _PLAYER else None
    key: tuple = (card, seat, id(f) if reads & _FACTS else 0, id(pl))
    if reads & _OTHER_READS:
        key += (
            (state.turn_pos, state.active, state.phase, state.turn_start, state.first_player, len(state.players))
            if reads & _TURN
            else None,
            (state.nightmares, state.nightmare_at, state.commanding) if reads & _NIGHTMARES else None,
            state.stage if reads & _STAGE else 0,
        )
    known = _turns_memo.get(key)
    if known is not None and (known[0] is f or not reads & _FACTS) and known[1] is pl:
        return known[2]
    turns = _turns_needed(t.deficits[card], state, seat, f)
    if len(_turns_memo) >= _TURNS_MEMO:
        _turns_memo.clear()
    _turns_memo[key] = (f if reads & _FACTS else None, pl, turns)
    return turns


def dream_value(
    state: GameState,
    seat: int,
    card: str,
    f: _Seat | None = None,
    my_turns: float | None = None,
    w: Weights | None = None,
) -> float:
    """A Dream card in hand: its VP, discounted by how far its conditions are and how few turns
    are left to meet them (``w``: the weights, the planner's ``W`` by default)."""
    if my_turns is None:
        my_turns = remaining_turns(state) / max(1, len(state.players))
    return _dream_value(tables(state.pack), state, seat, card, f or board_facts(state)[seat], my_turns, w or W)


def _dream_value(t: _Tables, state: GameState, seat: int, card: str, f: _Seat, my_turns: float, w: Weights) -> float:
    return _held_dream(t, state, card, _dream_turns(t, state, seat, card, f), my_turns + 0.5, w)


def _held_dream(t: _Tables, state: GameState, card: str, turns: float, reach: float, w: Weights) -> float:
    """A Dream card's value once its turns are known: its VP (a Cathedral Dream 0.3 more in
    Variable Length) times ``dream_held``, discounted per turn; a tenth of that past ``reach``."""
    if turns > reach:
        return t.dream_far[card]
    held = (t.dream_vp_variable if state.config.length == "variable" else t.dream_vp)[card] * w.dream_held
    key = (w.dream_discount, turns)
    discount = _discounts.get(key)
    if discount is None:
        discount = _discounts[key] = w.dream_discount**turns
    return held * discount


_discounts: dict[tuple[float, float], float] = {}  # dream_discount ** turns, for the few numbers of turns met


class Weights(msgspec.Struct, frozen=True, kw_only=True, cache_hash=True):
    """The evaluation's weights, in VP. ``g`` (1 early, falling to 0 as the end nears) scales what
    only pays off later: a unit, a Fort level, a card are worth something while there are turns
    left to use them; VP are VP. A bot holds its own (``PlannerBot(weights=...)``), passed down
    to ``evaluate`` and part of its memo keys; ``W`` is the planner level's, the default.
    ``parse_weights`` reads a changed set from a bot match's setting."""

    area: tuple[float, float] = (0.25, 0.55)  # per area controlled: (always, times g)
    presence: tuple[float, float] = (0.1, 0.2)  # per area where the seat is present
    follower: tuple[float, float] = (0.12, 0.22)  # per Follower on the board
    fort_level: tuple[float, float] = (0.15, 0.35)  # per Fort level (its VP are in the score)
    limbo: float = 0.1  # per Follower in Limbo, times g
    supply: float = 0.04  # per Follower in supply (up to 6), times g
    ritual_step: float = 0.45  # per space climbed, times g (the VP spaces reached are in the score)
    upgrade: float = 0.5  # per Upgrade in the display, times g (its VP are in the score)
    opponent_hand: float = 0.35  # per card in an opponent's hand, times g
    opponent_dream: float = 1.0  # per Dream card in an opponent's hand, times g
    king_cultist: float = 0.8  # per Cultist on the King's Dreams, times g
    opponent: float = 0.5  # the strongest opponent's value counts against the seat's (2 players, solo)
    opponent_many: float = 0.4  # with 3-4 players
    opponent_mean: float = 0.15  # and the opponents' mean
    horizon: float = 6.0  # g = min(1, own turns left / horizon)
    dream_held: float = 0.85  # a Dream card in hand that could be played now, per VP
    dream_discount: float = 0.6  # per turn its conditions are estimated to need
    king_conform: float = 0.6  # solo: choosing an action ahead of the King lets it Conform (Cultists)
    ploy: float = 0.45  # playing a Ploy, beyond what the look ahead sees of it
    win: float = 4.0  # a game won, in a finished game
    final_opponent: float = 0.6  # a finished game: the best other total counts this much against the seat's


W = Weights()  # the planner level's weights (the King's difficulty figures are measured against them)
CONFLICT_TURNS = 2.0  # a Dream condition's turns to expect per conflict still to win in one turn


def parse_weights(text: str, base: Weights = W) -> Weights:
    """``base`` with the weights ``text`` names changed: ``name:value`` joined by ``+``, a pair
    as ``low/high`` (``opponent:1.0+opponent_mean:0+area:0.25/0.7``). Raises ``ValueError`` with
    one line naming what it cannot read."""
    fields = {f.name: f for f in msgspec.structs.fields(Weights)}
    changes: dict[str, float | tuple[float, ...]] = {}
    for item in filter(None, text.split("+")):
        name, sep, value = item.partition(":")
        if not sep or name not in fields:
            raise ValueError(f"weights: {item!r} is not name:value with a name of {', '.join(fields)}")
        try:
            numbers = tuple(float(v) for v in value.split("/"))
        except ValueError:
            raise ValueError(f"weights: {item!r} has no number after the colon") from None
        pair = isinstance(getattr(base, name), tuple)
        if len(numbers) != (2 if pair else 1):
            raise ValueError(f"weights: {name} takes {'two numbers as low/high' if pair else 'one number'}")
        changes[name] = numbers if pair else numbers[0]
    return msgspec.structs.replace(base, **changes)


def _ritual_value(pl, g: float, w: Weights) -> float:
    """The markers' potential beyond the VP they have reached (those are in the score)."""
    return w.ritual_step * g * (pl.ritual[0] + pl.ritual[1])


def _pending(state: GameState, seat: int, weights: Weights) -> float:
    """A climb being paid for counts as done, its cost as paid (so that a step is worth starting)."""
    w = state.work
    if isinstance(w, ClimbPayWork) and w.seat == seat:
        t = tables(state.pack)
        pl = state.players[seat]
        top = len(t.ritual_vp) - 1
        gain = t.ritual_vp[min(pl.ritual[w.marker] + 1, top)] - t.ritual_vp[min(pl.ritual_best[w.marker], top)]
        return max(0, gain) + weights.ritual_step - 0.3 * len(w.owed)
    return 0.0


_weights_memo: dict[tuple[Weights, float], tuple[float, float, float, float, float]] = {}


def _weights_at(g: float, w: Weights) -> tuple[float, float, float, float, float]:
    """The weights per area controlled, area present, Follower, Fort level and Ritual step for
    one ``g`` (computed as ``seat_value`` used to, term by term: the same floats)."""
    key = (w, g)
    at = _weights_memo.get(key)
    if at is None:
        if len(_weights_memo) >= _MEMO:
            _weights_memo.clear()
        at = _weights_memo[key] = (
            w.area[0] + w.area[1] * g,
            w.presence[0] + w.presence[1] * g,
            w.follower[0] + w.follower[1] * g,
            w.fort_level[0] + w.fort_level[1] * g,
            w.ritual_step * g,
        )
    return at


def _dreams_value(
    t: _Tables, state: GameState, seat: int, held: tuple[str, ...], f: _Seat, my_turns: float, w: Weights
) -> float:
    """The Dream cards in hand (``dream_value`` each, summed in order)."""
    reads_of, reach = t.dream_reads, my_turns + 0.5
    total: float = 0  # summed in order, as ``sum`` did
    for card in held:
        reads = reads_of.get(card)
        if reads is None:
            continue  # not a Dream card
        if reads == _FACTS:  # ``_dream_turns``' first case, inlined: the most common
            turns = f.turns.get(card)
            if turns is None:
                turns = f.turns[card] = _turns_needed(t.deficits[card], state, seat, f)
        else:
            turns = _dream_turns(t, state, seat, card, f)
        total += _held_dream(t, state, card, turns, reach, w)
    return total


_AFTER_ACTION = (DiscardDreamsWork, DrawDreamWork, HandLimitWork)  # TURN STRUCTURE 3-5: the action is over


def _excess_lost(state: GameState, seat: int) -> bool:
    """The seat's action is over and the hand limit comes next (TURN STRUCTURE 3-5): its cards
    beyond the limit are as good as discarded."""
    w = state.work
    return isinstance(w, _AFTER_ACTION) and w.seat == seat


def seat_value(
    state: GameState,
    seat: int,
    f: _Seat,
    score: int,
    g: float,
    my_turns: float,
    *,
    own: bool,
    capped: bool = True,
    w: Weights = W,
) -> float:
    """Everything a seat has that is or will become VP, in VP (``capped``: the seat's cards
    beyond the hand limit are worth nothing once its action is over)."""
    pl = state.players[seat]
    area, presence, follower, fort_level, ritual_step = _weights_at(g, w)
    value = (
        score
        + f.controlled * area
        + f.present * presence
        + f.followers * follower
        + f.fort_levels * fort_level
        + (pl.limbo * w.limbo + min(pl.supply, 6) * w.supply) * g
        + ritual_step * (pl.ritual[0] + pl.ritual[1])
    )
    t = tables(state.pack)
    value += t.display(pl.display)[1] * w.upgrade * g
    if own:
        value += _hand_value(state.pack, pl.hand, g, capped and len(pl.hand) > HAND_LIMIT and _excess_lost(state, seat))
        value += _dreams_value(t, state, seat, pl.dreams, f, my_turns, w)
        value += _pending(state, seat, w)
    else:
        value += (len(pl.hand) * w.opponent_hand + len(pl.dreams) * w.opponent_dream) * g
    return value


_hand_memo: dict[tuple[str, tuple[str, ...], float, bool], float] = {}


def _hand_sum(t: _Tables, hand: tuple[str, ...], g: float, lost: bool = False) -> float:
    values = sorted((t.card_value(c, g) for c in hand), reverse=True)
    return sum(values[: HAND_LIMIT - 1]) + (0.0 if lost else sum(values[HAND_LIMIT - 1 :]) * 0.3)


def _hand_value(pack: str, hand: tuple[str, ...], g: float, lost: bool = False) -> float:
    """The seat's own Development cards: the best up to the hand limit (Basic Combat, worth
    nothing here, counts), the rest at 30 % (they may still be spent this turn), or nothing when
    they are ``lost`` (the hand limit comes next)."""
    key = (pack, hand, g, lost)
    known = _hand_memo.get(key)
    if known is not None:
        return known
    value = _hand_sum(tables(pack), hand, g, lost)
    if len(_hand_memo) >= _MEMO:
        _hand_memo.clear()
    _hand_memo[key] = value
    return value


def king_value(state: GameState, f: _Seat, score: int, g: float, w: Weights = W) -> float:
    """The King of Horrors: its score, its Cultists on Dreams (each about 1 VP), its board."""
    k = state.king
    assert k is not None
    return (
        score
        + sum(k.dream_cultists) * w.king_cultist * g
        + f.controlled * (w.area[0] + w.area[1] * g) * 0.8
        + f.followers * (w.follower[0] + w.follower[1] * g) * 0.7
        + f.fort_levels * (w.fort_level[0] + w.fort_level[1] * g)
        + _ritual_value(state.players[k.seat], g, w) * 0.8
    )


_devoured_memo: dict[tuple, tuple[int, ...]] = {}


def _devoured_vp(state: GameState) -> tuple[int, ...]:
    """``scoring.devoured_vp``: fixed by the stage and the devoured counts."""
    if state.stage < 2:
        return (0,) * len(state.players)
    key = (tuple(pl.devoured for pl in state.players), state.devoured_shadows)
    if key not in _devoured_memo:
        if len(_devoured_memo) >= _MEMO:
            _devoured_memo.clear()
        _devoured_memo[key] = scoring.devoured_vp(state)
    return _devoured_memo[key]


def fast_scores(state: GameState, facts: list[_Seat] | None = None) -> tuple[int, ...]:
    """Every seat's total as ``scoring.scores`` counts it, from the bot's tables (faster): the
    Forts' VP from the board facts (``board_facts(state)``, remembered by the areas), the rest
    remembered by the identity of each player's state and the King's."""
    facts = facts or board_facts(state)
    return tuple(rest + f.fort_vp for rest, f in zip(_scores_off_board(state), facts))


_scores_memo: dict[int, tuple[tuple, object, object, tuple, tuple[int, ...]]] = {}


def _scores_off_board(state: GameState) -> tuple[int, ...]:
    """Every seat's score but its Forts': Ritual, Devoured, Upgrades and Dreams (the King's own),
    remembered by the identity of the players (and the King, the config), else by each player's."""
    players, king, config = state.players, state.king, state.config
    rest = (state.stage, state.devoured_shadows, state.pack)
    known = _scores_memo.get(id(players))
    if known is not None and known[0] is players and known[1] is king and known[2] is config and known[3] == rest:
        return known[4]
    scores = _scores_of_players(state)
    if len(_scores_memo) >= _MEMO:
        _scores_memo.clear()
    _scores_memo[id(players)] = (players, king, config, rest, scores)
    return scores


def _scores_of_players(state: GameState) -> tuple[int, ...]:
    t = tables(state.pack)
    devoured = _devoured_vp(state)
    king = state.king
    out = []
    for pl in state.players:
        if king is not None and pl.seat == king.seat:
            out.append(_king_vp(state, t, pl) + devoured[pl.seat])
        else:
            out.append(_player_vp(t, pl) + devoured[pl.seat])
    return tuple(out)


def _ritual_points(t: _Tables, best: tuple[int, int]) -> int:
    top = len(t.ritual_vp) - 1
    return sum(t.ritual_vp[min(b, top)] for b in best)


def _dreams_points(t: _Tables, played: tuple[str, ...]) -> int:
    return sum(t.dreams[c].vp for c in played)


_player_vp_memo: dict[tuple, int] = {}


def _player_vp(t: _Tables, pl) -> int:
    """A player's Ritual, Upgrade and Dream VP, remembered by what they read (its Ritual markers'
    best spaces, its display, its Dreams played)."""
    key = (t.pack, pl.ritual_best, pl.display, pl.dreams_played)
    vp = _player_vp_memo.get(key)
    if vp is None:
        vp = _ritual_points(t, pl.ritual_best) + t.display(pl.display)[0] + _dreams_points(t, pl.dreams_played)
        if len(_player_vp_memo) >= _MEMO:
            _player_vp_memo.clear()
        _player_vp_memo[key] = vp
    return vp


_king_vp_memo: dict[tuple, int] = {}


def _king_vp(state: GameState, t: _Tables, pl) -> int:
    """The King's Ritual and Dream VP and its extras (``scoring``), remembered by what they read:
    its markers, its completed Dreams, its hand, its Reward tiles, the difficulty."""
    king = state.king
    assert king is not None
    key = (state.pack, king.seat, pl.ritual_best, king.completed, king.hand, pl.tiles, state.config.difficulty)
    vp = _king_vp_memo.get(key)
    if vp is None:
        vp = _ritual_points(t, pl.ritual_best) + scoring.king_dream_vp(state) + scoring.king_extra_vp(state)
        if len(_king_vp_memo) >= _MEMO:
            _king_vp_memo.clear()
        _king_vp_memo[key] = vp
    return vp


def _final_value(outcome: Outcome, seat: int, w: Weights) -> float:
    totals = [s.total for s in outcome.scores]
    best_other = max(t for i, t in enumerate(totals) if i != seat)
    won = seat in outcome.winners
    return totals[seat] - w.final_opponent * best_other + (w.win if won else 0.0)


_evaluate_memo: dict[tuple[GameState, int, bool, Weights], float] = {}
_EVALUATE_MEMO = 4096


def evaluate(state: GameState, seat: int, capped: bool = True, w: Weights = W) -> float:
    """The position for ``seat``: its value minus its strongest opponent's (part weight), in VP,
    by the weights ``w`` (the planner level's ``W`` by default). Remembered by position and
    weights: a quarter of the positions a look ahead values are reached again (the same moves in
    another order, say). ``capped``: see ``seat_value``."""
    key = (state, seat, capped, w)
    value = _evaluate_memo.get(key)
    if value is None:
        value = _evaluate(state, seat, capped, w)
        if len(_evaluate_memo) >= _EVALUATE_MEMO:
            _evaluate_memo.clear()
        _evaluate_memo[key] = value
    return value


def _evaluate(state: GameState, seat: int, capped: bool, w: Weights) -> float:
    n = len(state.players)
    if state.outcome is not None:
        return _final_value(state.outcome, seat, w)
    facts = board_facts(state)
    sc = fast_scores(state, facts)
    my_turns = remaining_turns(state) / max(1, n)
    g = min(1.0, my_turns / w.horizon)
    mine = seat_value(state, seat, facts[seat], sc[seat], g, my_turns, own=True, capped=capped, w=w)
    others = []
    for i in range(n):
        if i == seat:
            continue
        if state.king is not None and i == state.king.seat:
            others.append(king_value(state, facts[i], sc[i], g, w))
        else:
            others.append(seat_value(state, i, facts[i], sc[i], g, my_turns, own=False, w=w))
    if not others:
        return mine
    humans = n - (1 if state.king is not None else 0)
    weight = w.opponent if humans <= 2 else w.opponent_many
    return mine - weight * max(others) - w.opponent_mean * sum(others) / len(others)


# ---------------------------------------------------------------------------------------------
# The bot


BUDGET = 600  # engine steps per decision, rollouts included, shared evenly among the options
# The planner before issue 38's fixes of its wasted turns, for --duel and the matches: cards beyond
# the hand limit still worth 30 % after its action, a Reaction that changes nothing as good as a Pass.
PREVIOUS_PLANNER: dict[str, Any] = {"capped": False, "react_cost": 0.0}
MIN_SHARE = 12  # engine steps each option may use at least
REACT_COST = 0.05  # VP: a Conform or Dissent must be worth this much more than a Pass to be chosen
PLAN_SHARE = 80  # engine steps to play out a conflict with a number of cards
ROLLOUT_DEPTH = 24
FITTED_SCALE = 40  # ``value=1``: the VP a chance of winning of 1 counts as (a VP is about 0.025 of chance)
KING_TUCK_ORDER = ("develop", "summon", "fortify", "maneuver", "ritual")  # least harmful first


class Advice(msgspec.Struct, frozen=True, kw_only=True):
    """An option as the planner sees it (``PlannerBot.advise``): its value in VP after the look
    ahead, whether the planner chooses it, and the measures of ``CHANGES`` it moves."""

    action: A.Action
    value: float
    chosen: bool
    changes: tuple[tuple[str, int], ...]  # (measure, change), only the measures that change


# What the hint reports: the seat's score and what becomes VP later; "rivals" counts the other
# seats' units on the board (fewer is better for the seat).
CHANGES = ("vp", "followers", "fort_levels", "ritual", "cards", "dreams", "rivals")


def _measures(state: GameState, seat: int) -> tuple[int, ...]:
    pl = state.players[seat]
    return (
        fast_scores(state)[seat],
        sum(a.followers[seat] for a in state.areas),
        sum(a.fort_levels for a in state.areas if a.fort_owner == seat),
        sum(pl.ritual),
        len(pl.hand),
        len(pl.dreams) + len(pl.dreams_played),
        sum(sum(a.followers) - a.followers[seat] + a.shadows for a in state.areas),
    )


def changes(before: GameState, after: GameState, seat: int) -> tuple[tuple[str, int], ...]:
    """The measures of ``CHANGES`` that differ from ``before`` to ``after`` for ``seat``."""
    return tuple(
        (name, b - a) for name, a, b in zip(CHANGES, _measures(before, seat), _measures(after, seat)) if b != a
    )


class PlannerBot:
    name = "planner"

    def __init__(
        self,
        seed: int = 0,
        *,
        budget: int = BUDGET,
        keep_guess: bool = True,
        capped: bool = True,
        react_cost: float = REACT_COST,
        weights: Weights = W,
        value: int = 0,
        vscale: int = FITTED_SCALE,
    ) -> None:
        self._random = random.Random(seed)
        self._weights = weights  # the evaluation's (the planner level's ``W`` unless a match sets others)
        self._value_kind = value  # 2 players, a look ahead's positions: 1 ``fitted_value``, 2 both seats' ``evaluate``
        self._vscale = float(vscale)
        self._budget = budget
        self._keep_guess = keep_guess
        self._capped = capped
        self._react_cost = react_cost
        self._steps = 0
        self._limit = 0
        # The quick policy's choice in a position, and the engine steps it took, for one decision's
        # look ahead: rollouts of different options often meet the same position (Followers moved
        # in another order, say). Looking it up counts the same steps, so the budget, and so every
        # choice, is exactly what it would be without the table. With the choice, the position it
        # leads to (None if its step failed): the rollout goes on from there.
        self._quick_memo: dict[GameState, tuple[A.Action, int, GameState | None]] = {}
        self._kept: GameState | None = None  # the guess moved on by the last option chosen

    # -- the decision

    def choose(self, view: View) -> A.Action:
        d = view.state.decision
        if d is None or d.seat != view.seat or not d.options:
            raise ValueError("the bot was asked to decide when it has no decision")
        options = d.options
        if len(options) == 1:
            return options[0]
        seat = view.seat
        self._steps = 0
        special = self._special(view.state, seat, d)
        if special is not None:
            self._kept = None
            return special
        state = self._guess(view)
        share = max(MIN_SHARE, self._budget // len(options))  # every option gets the same look ahead
        scored = []
        for i, option in enumerate(options):
            self._limit = self._steps + share
            scored.append((self._option_value(state, seat, option), self._random.random(), i))
        choice = options[max(scored)[2]]
        try:
            self._kept = apply(state, choice)
        except Exception:  # noqa: BLE001
            self._kept = None
        return choice

    def _guess(self, view: View) -> GameState:
        """The full state the look ahead starts from: the guess made for the seat's previous
        decision, moved on by the option chosen, while the view still agrees with it (the same
        turn, nothing hidden drawn since, no other seat's decision between); else a new guess
        (``resample``). Kept, the guess keeps the look ahead's memo tables too: the positions the
        previous decision's rollouts reached are this decision's."""
        kept, self._kept = self._kept, None
        if (
            kept is not None
            and self._keep_guess
            and kept.turn_number == view.state.turn_number
            and player_view(kept, view.seat).state == view.state
        ):
            return kept
        self._quick_memo.clear()
        return resample(view, self._random)

    def _option_value(self, state: GameState, seat: int, option: A.Action) -> float:
        return self._look_ahead(state, seat, option)[0]

    def _look_ahead(self, state: GameState, seat: int, option: A.Action) -> tuple[float, GameState]:
        """The option's value and the position its rollout reaches (``state`` when it fails)."""
        prior = self._prior(state, seat, option)
        try:
            after = self._apply(state, option)
            after = self._rollout(after, seat, state.turn_number)
        except Exception:  # noqa: BLE001 - a guess at hidden cards may not resolve: fall back on the prior
            return prior - 1.0, state
        return self._value(after, seat) + prior, after

    def _value(self, state: GameState, seat: int) -> float:
        """A position reached by a look ahead, for ``seat``: ``evaluate`` (the planner level's); in a
        2-player game with ``value=1`` the fitted chance of winning (``fitted_value``) times
        ``vscale`` (about the VP a whole chance is worth, so that the priors keep their scale), with
        ``value=2`` the difference of both seats' ``evaluate`` (symmetric: the opponent's gains
        count as much as the seat's own), divided by 1 + the opponent's weight (VP)."""
        if self._value_kind and len(state.players) == 2 and state.king is None:
            if self._value_kind == 1:
                from .fitted_value import win_chance  # imports this module: not at its top

                return self._vscale * win_chance(state, seat)
            w = self._weights_of(seat)
            mine, theirs = evaluate(state, seat, self._capped, w), evaluate(state, 1 - seat, self._capped, w)
            return (mine - theirs) / (1.0 + w.opponent + w.opponent_mean)
        return evaluate(state, seat, self._capped, self._weights_of(seat))

    def advise(self, view: View, count: int = 3, *, chosen: A.Action | None = None) -> tuple[Advice, ...]:
        """What this bot would choose in ``view`` (first, by ``choose``'s procedure on its own
        guess at the hidden cards) and its next best options by their look ahead, each with what
        it changes for the seat by the end of the look ahead (the practice hint). Sees only the
        view, like ``choose``. ``chosen``: the option another procedure chose (the expert's)."""
        d = view.state.decision
        if d is None or d.seat != view.seat or not d.options:
            raise ValueError("the bot was asked to advise when it has no decision")
        seat = view.seat
        self._steps = 0
        # As ``choose``: a decision with its own logic, else the best look ahead (one sample of
        # the hidden cards serves the choice and the ranking, so they agree).
        special = self._special(view.state, seat, d) if len(d.options) > 1 else d.options[0]
        state = resample(view, self._random)
        share = max(MIN_SHARE, self._budget // len(d.options))
        looked = []
        for i, option in enumerate(d.options):
            self._steps, self._limit = 0, share
            value, after = self._look_ahead(state, seat, option)
            looked.append((value, -i, option, after))
        choice = (
            chosen if chosen is not None else special if special is not None else max(looked, key=lambda r: r[:2])[2]
        )
        ranked = sorted(
            ((option == choice, value, k, option, after) for value, k, option, after in looked),
            key=lambda r: r[:3],
            reverse=True,
        )
        return tuple(
            Advice(action=option, value=round(value, 2), chosen=chosen, changes=changes(state, after, seat))
            for chosen, value, _, option, after in ranked[:count]
        )

    def _weights_of(self, seat: int) -> Weights:
        """The weights a look ahead values ``seat``'s options by: the bot's own (the expert may
        model the other seats by others)."""
        return self._weights

    def _apply(self, state: GameState, action: A.Action) -> GameState:
        self._steps += 1
        return apply(state, action)

    def _advance(self, state: GameState, option: A.Action) -> GameState:
        """``_apply`` for one of ``state.decision.options`` itself (the same state, unchecked)."""
        self._steps += 1
        return advance(state, option)

    def _rollout(self, state: GameState, seat: int, turn: int) -> GameState:
        """Follow the seat's own decisions of this turn (and the other side's cards in a conflict)
        with the quick policy, until the turn ends, another seat decides, or the budget runs out."""
        for _ in range(ROLLOUT_DEPTH):
            d = state.decision
            if d is None or state.turn_number != turn or self._steps + len(d.options) > self._limit:
                break
            after = None
            if d.seat != seat:
                if _fight(state.work) is None:
                    break
                action = self._other_in_conflict(state, d)
            elif d.kind in ("discard_dreams", "draw_dream", "discard_development"):
                break
            else:
                action, after = self._quick(state, seat, d)
            if after is None:  # the action is one of the options of state.decision
                state = self._advance(state, action)
            else:  # the quick policy resolved this step trying the option: counted, not resolved again
                self._steps += 1
                state = after
        return state

    def _quick(self, state: GameState, seat: int, d) -> tuple[A.Action, GameState | None]:
        """One-ply greedy choice, used inside rollouts, and the position it leads to when the
        choice was tried (None: not tried, or its step failed)."""
        options = d.options
        if len(options) == 1:
            return options[0], None
        if d.kind == "play_combat_card":
            return self._card_heuristic(state, seat, d), None
        if d.kind == "plays_first":
            return self._plays_first(seat, d), None
        known = self._quick_memo.get(state)
        if known is not None:
            self._steps += known[1]
            return known[0], known[2]
        before = self._steps
        best, after = self._greedy(state, seat, options)
        self._quick_memo[state] = (best, self._steps - before, after)
        return best, after

    def _greedy(self, state: GameState, seat: int, options: tuple[A.Action, ...]) -> tuple[A.Action, GameState | None]:
        best, best_after, best_value = options[0], None, float("-inf")
        for option in options:
            prior = self._prior(state, seat, option)
            after: GameState | None
            try:
                after = self._advance(state, option)
                value = evaluate(after, seat, self._capped, self._weights_of(seat)) + prior
            except Exception:  # noqa: BLE001
                after, value = None, prior - 1.0
            if value > best_value:
                best, best_after, best_value = option, after, value
        return best, best_after

    # -- small heuristics

    def _prior(self, state: GameState, seat: int, option: A.Action) -> float:
        """Corrections for what a short look ahead cannot see."""
        match option:
            case A.PlayPloy():
                return self._weights.ploy
            case A.React(kind="conform" | "dissent"):
                return -self._react_cost
            case A.ChooseDay(action=action) if state.king is not None:
                from ..engine.king_turn import ahead

                return (
                    -self._weights.king_conform if action in ahead(state) else 0.0
                )  # solo: the King conforms, feeding its Dreams
        return 0.0

    def _other_in_conflict(self, state: GameState, d) -> A.Action:
        """What the other side does in a conflict, as the bot expects it: play its strongest
        cards, retreat anywhere, take its Victory, break a tie for itself."""
        options = d.options
        if d.kind == "play_combat_card":
            t = tables(state.pack)
            cards = [o for o in options if isinstance(o, A.PlayCombatCard)]
            if not cards:
                return next((o for o in options if isinstance(o, A.Done)), options[0])
            return max(cards, key=lambda o: self._strength(t, o.card))
        if d.kind == "break_tie":
            return next((o for o in options if isinstance(o, A.BreakTie) and o.winner == d.seat), options[0])
        if d.kind == "take_victory":
            return next((o for o in options if isinstance(o, A.TakeVictory) and not o.take), options[0])
        return options[0]

    @staticmethod
    def _strength(t: _Tables, card: str) -> float:
        c = t.combat.get(card)
        return -1.0 if c is None else c.attack + 0.8 * c.defense

    def _card_heuristic(self, state: GameState, seat: int, d) -> A.Action:
        """Quick policy for cards in a conflict: the strongest first, as many as the other side
        may bring (Basic Combat always; Done when enough)."""
        w = _fight(state.work)
        assert w is not None
        t = tables(state.pack)
        i = w.sides.index(seat)
        played = len(w.plays[i])
        target = self._card_target(state, seat, w)
        cards = [o for o in d.options if isinstance(o, A.PlayCombatCard)]
        done = next((o for o in d.options if isinstance(o, A.Done)), None)
        if done is not None and (played >= target or not cards):
            return done
        return max(cards, key=lambda o: self._strength(t, o.card)) if cards else d.options[0]

    @staticmethod
    def _card_target(state: GameState, seat: int, w: Fight) -> int:
        limit = card_limit(state, w.area, seat)
        other = w.sides[1] if w.sides[0] == seat else w.sides[0]
        a = board.area(state, w.area)
        if other == board.SHADOWS_SIDE:
            need = min(3, a.shadows) + 1
        elif other >= 0:
            need = a.followers[other] + (1 if a.fort_owner == other else 0)
        else:
            need = 1
        return max(1, min(limit, need))

    @staticmethod
    def _plays_first(seat: int, d) -> A.Action:
        """Neither side controls the area: let the other side show its hand first."""
        firsts = [o for o in d.options if isinstance(o, A.PlaysFirst)]
        return next((o for o in firsts if o.seat != seat), firsts[0] if firsts else d.options[0])

    # -- decisions with their own logic

    def _special(self, state: GameState, seat: int, d) -> A.Action | None:
        kind = d.kind
        if kind == "discard_dreams":
            return self._discard_dreams(state, seat, d)
        if kind == "draw_dream":
            return self._draw_dream(state, seat, d)
        if kind == "discard_development":
            t = tables(state.pack)
            discards = [o for o in d.options if isinstance(o, A.DiscardDevelopment)]
            if discards:
                return min(discards, key=lambda o: (t.card_value(o.card, 1.0), self._random.random()))
            return None
        if kind == "plays_first":
            return self._plays_first(seat, d)
        if kind in ("king_tuck", "king_powered"):
            for action in KING_TUCK_ORDER:
                for o in d.options:
                    if getattr(o, "action", None) == action:
                        return o
            return d.options[0]
        if kind == "play_combat_card":
            return self._play_cards(state, seat, d)
        return None

    def _dream_pool_value(self, state: GameState, seat: int, f: _Seat, my_turns: float) -> float:
        """The expected value of the top card of the Dream deck: the mean over the cards the seat
        has not seen of the current stage."""
        t = tables(state.pack)
        seen = set(state.decks.dream_offer) | set(state.players[seat].dreams)
        for pl in state.players:
            seen.update(pl.dreams_played)
        if state.king is not None:
            seen.update(state.king.dreams + state.king.completed)
        pool = [
            c
            for c, d in t.dreams.items()
            if c not in seen and (d.stage == 1 or state.stage >= 2 or not state.decks.dream2)
        ]
        if not pool:
            return 0.0
        return sum(dream_value(state, seat, c, f, my_turns, self._weights) for c in pool) / len(pool)

    def _dream_context(self, state: GameState, seat: int) -> tuple[_Seat, float]:
        n = len(state.players)
        # the next chance to play is the seat's next turn: one round of turns fewer
        return board_facts(state)[seat], max(0.0, remaining_turns(state) / max(1, n) - 1)

    def _discard_dreams(self, state: GameState, seat: int, d) -> A.Action:
        f, my_turns = self._dream_context(state, seat)
        keep = next(o for o in d.options if isinstance(o, A.KeepDreams))
        if not state.decks.dream_offer and not state.decks.dream:
            return keep
        held = [
            (dream_value(state, seat, o.card, f, my_turns, self._weights), o)
            for o in d.options
            if isinstance(o, A.DiscardDream)
        ]
        offers = sorted(
            (dream_value(state, seat, c, f, my_turns, self._weights) for c in state.decks.dream_offer), reverse=True
        )
        deck = self._dream_pool_value(state, seat, f, my_turns) if state.decks.dream else 0.0
        replacement = max(offers[:1] + [deck])
        worst_value, worst = min(held, key=lambda x: x[0])
        if worst_value < replacement - 0.35:
            return worst
        return keep

    def _draw_dream(self, state: GameState, seat: int, d) -> A.Action:
        f, my_turns = self._dream_context(state, seat)
        best, best_value = d.options[0], float("-inf")
        for o in d.options:
            if not isinstance(o, A.TakeDream):
                continue
            if o.card:
                value = dream_value(state, seat, o.card, f, my_turns, self._weights)
            else:
                value = self._dream_pool_value(state, seat, f, my_turns)
            value += self._random.random() * 1e-6
            if value > best_value:
                best, best_value = o, value
        return best

    def _play_cards(self, state: GameState, seat: int, d) -> A.Action:
        """How many cards to commit: for each count from what is already played up to the limit,
        play the strongest ones, let the conflict resolve in a rollout, and keep the best."""
        w = _fight(state.work)
        assert w is not None
        t = tables(state.pack)
        cards = sorted(
            (o for o in d.options if isinstance(o, A.PlayCombatCard)),
            key=lambda o: (-self._strength(t, o.card), o.card),
        )
        done = next((o for o in d.options if isinstance(o, A.Done)), None)
        if not cards:
            return done or d.options[0]
        limit = card_limit(state, w.area, seat)
        played = len(w.plays[w.sides.index(seat)])
        full = resample(View(seat=seat, state=state), self._random)
        plans: list[tuple[float, int]] = []
        hand = [o.card for o in cards]
        for extra in range(0 if done is not None else 1, min(limit - played, len(hand)) + 1):
            s = full
            self._limit = self._steps + PLAN_SHARE
            try:
                for card in hand[:extra]:
                    if s.decision is None or s.decision.seat != seat or s.decision.kind != "play_combat_card":
                        break
                    s = self._apply(s, A.PlayCombatCard(card=card))
                if (
                    s.decision is not None
                    and s.decision.seat == seat
                    and s.decision.kind == "play_combat_card"
                    and any(isinstance(o, A.Done) for o in s.decision.options)
                ):
                    s = self._apply(s, A.Done())
                s = self._rollout(s, seat, full.turn_number)
                value = evaluate(s, seat, self._capped, self._weights)
            except Exception:  # noqa: BLE001
                value = float("-inf")
            plans.append((value - 0.01 * extra, extra))
        best_extra = max(plans)[1] if plans else 1
        if best_extra == 0 and done is not None:
            return done
        return cards[0]
