"""Invariants that hold in every reachable state; random-play tests and `simulate` check them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, NamedTuple

from . import board, divergent, units
from .actions import ReturnFromLimbo
from .events import HIDDEN
from .flow import decision_of
from .king_state import KING_COMBAT
from .limbo import returns
from .state import BASIC_COMBAT, FOLLOWERS, FORT_LEVELS, SHADOWS, UNIT_LIMIT, AreaState, GameState
from .work import CardToBottom, Fight, KeepWork, KingTuckWork

MAX_TURN_DECISIONS = 300  # the longest turn met in random and computer players' games has ~55


class TurnLength:
    """Every turn ends within ``MAX_TURN_DECISIONS`` decisions, whoever plays (issue 38 item 7:
    a Ploy that drew itself back could be played for ever). Fed each state of a game in order."""

    def __init__(self, limit: int = MAX_TURN_DECISIONS) -> None:
        self.limit, self.turn, self.decisions = limit, -1, 0

    def check(self, state: GameState) -> list[str]:
        if state.turn_number != self.turn:
            self.turn, self.decisions = state.turn_number, 0
        self.decisions += 1
        if self.decisions > self.limit:
            return [f"turn {state.turn_number} still going after {self.limit} decisions"]
        return []


def violations(state: GameState) -> list[str]:
    """Every broken invariant, in words (empty when all hold)."""
    out: list[str] = []
    out += _pieces(state)
    if state.turn_start >= 0:  # the cards are dealt once the Turn track is set (SETUP 7-16)
        out += _cards(state)
    out += _board(state)
    if state.phase != "setup":  # UNIT LIMIT, each side's own: its Fortify card (the King's: 3 or 4)
        for pl in state.players:
            out += [
                f"seat {pl.seat}: {n} Followers over its Unit Limit in {a}" for a, n in units.over_limit(state, pl.seat)
            ]
    out += _nightmares(state)
    if state.config.divergent_paths and state.turn_start >= 0:
        out += divergent.violations(state)
    for pl in state.players:
        if pl.free_dreams and not set(pl.free_dreams) <= set(pl.dreams):  # mostly none: no sets to make
            out.append(f"seat {pl.seat}: a Dream exempt from the limit is not in hand")
    if state.phase == "over":
        if state.decision is not None or state.outcome is None:
            out.append("a finished game has an outcome and no decision")
    elif state.decision is None or not state.decision.options:
        out.append("an unfinished game always has a decider with options")
    out += _decision(state)
    return out


def _decision(state: GameState) -> list[str]:
    """The decision is the one its Work's rule asks (which lets LIMBO's take-back ask it again),
    and the take-back options a decision carries are its seat's (``flow`` adds them all; a
    hand-built position may lack them)."""
    d = state.decision
    if d is None:
        return []
    out = []
    taken = tuple([o for o in d.options if isinstance(o, ReturnFromLimbo)])
    if taken and not set(taken) <= set(returns(state, d)):  # mostly none taken: nothing to ask
        out.append(f"the decision offers {taken} to take Followers back from Limbo, not {returns(state, d)}")
    if state.work is None:
        return [*out, f"the decision {d.kind} comes from no Work"]
    asked = decision_of(state, state.work)
    base = d.options[: len(d.options) - len(taken)]
    if asked is None or (asked.seat, asked.kind, asked.options) != (d.seat, d.kind, base):
        out.append(f"the decision {d.kind} is not the one its step ({type(state.work).__name__}) asks")
    return out


def _pieces(state: GameState) -> list[str]:
    """COMPONENTS: each player's 20 Followers and 10 Fort levels, and the 30 Shadows, are
    somewhere, once."""
    out = []
    areas = state.areas
    totals = _on_board(areas)
    for pl in state.players:
        on_board = _followers_on_board(areas, totals, pl.seat)
        if pl.supply + pl.limbo + on_board + pl.devoured + pl.on_track != FOLLOWERS or min(pl.supply, pl.limbo) < 0:
            out.append(f"seat {pl.seat}: Followers not conserved ({pl.supply}+{pl.limbo}+{on_board}+{pl.devoured})")
        if pl.forts + totals.forts.get(pl.seat, 0) != FORT_LEVELS or pl.forts < 0:
            out.append(f"seat {pl.seat}: Fort levels not conserved")
    if state.shadows + totals.shadows + state.devoured_shadows != SHADOWS or state.shadows < 0:
        out.append("Shadows not conserved")
    return out


class _OnBoard(NamedTuple):
    followers: tuple[int, ...] | None  # per seat; None when the areas' tuples differ in length
    forts: dict[int, int]  # Fort levels by owner
    shadows: int


@board.identity_memo
def _on_board(areas: tuple[AreaState, ...]) -> _OnBoard:
    """The units on the board, counted once per tuple of areas (``identity_memo``): most
    decisions move none."""
    counts = {len(a.followers) for a in areas}
    followers = tuple(map(sum, zip(*(a.followers for a in areas)))) if len(counts) == 1 else None
    forts: dict[int, int] = {}
    for a in areas:
        forts[a.fort_owner] = forts.get(a.fort_owner, 0) + a.fort_levels
    return _OnBoard(followers=followers, forts=forts, shadows=sum(a.shadows for a in areas))


def _followers_on_board(areas: tuple[AreaState, ...], totals: _OnBoard, seat: int) -> int:
    if totals.followers is not None and -len(totals.followers) <= seat < len(totals.followers):
        return totals.followers[seat]
    # A hand-built position whose areas disagree on the seats, or no area: count area by area
    # (an area without the seat raises IndexError, as it always did).
    return sum(a.followers[seat] for a in areas)


DEVELOPMENT, DREAMS, CONFLICTS = 0, 1, 2  # the kinds of card whose conservation is checked


class _Reference(NamedTuple):
    """COMPONENTS: each kind of card a game holds, sorted (two multisets are equal when their
    sorted lists are), the Development cards counted to say what is wrong, and what each part
    of ``_card_parts`` holds."""

    cards: tuple[list[str], list[str], list[str]]  # by kind
    development: Counter[str]
    conflict_ids: frozenset[str]
    layout: tuple[tuple[int, Read | None], ...]  # per part: its kind, how to read it (None: its cards)
    quick: bool  # False: compare the Development cards as Counters only (see ``_reference``)


Read = Callable[[Any, frozenset[str]], Iterable[str]]


@cache
def _reference(pack_id: str, players: int, solo: bool) -> _Reference:
    """The cards of a game of this pack with ``players`` seats (the King's among them in solo):
    every Development card once and a Basic Combat card per player (not the King: SOLO SETUP),
    every Dream card once, every Conflict card once."""
    c = board.get_pack(pack_id).cards
    dev = Counter({d.id: 1 for d in c.development})
    dev[BASIC_COMBAT] = players - solo
    conflict_ids = frozenset(d.id for d in c.conflicts)
    cards = (sorted(dev.elements()), sorted({d.id for d in c.dreams}), sorted(conflict_ids))
    # A sorted list leaves out a negative count (no reachable state has one), and a card named
    # like the hidden placeholder would hide one in the state: Counters tell these apart.
    return _Reference(
        cards=cards,
        development=dev,
        conflict_ids=conflict_ids,
        layout=_layout(players, solo),
        quick=dev[BASIC_COMBAT] >= 0 and HIDDEN not in dev,
    )


def _card_parts(state: GameState) -> list[Any]:
    """The parts of the state that hold cards, in the order of ``_layout`` (a part added here is
    added there too: ``zip(strict=True)`` refuses parts and a layout of different lengths)."""
    d = state.decks
    parts: list[Any] = [
        d.development,
        d.development_discard,
        d.development2,
        d.removed,
        _cards_in_work(state),
        d.dream,
        d.dream_offer,
        d.dream2,
        _dreams_in_work(state),
        d.conflict,
        d.conflict2,
        d.removed,
        _cards_in_work(state, "conflict"),
    ]
    for pl in state.players:
        parts += (pl.hand, pl.display, pl.dreams, pl.dreams_played)
    k = state.king
    if k is not None:
        parts += (k.hand, k.tucked, k.dreams, k.completed)
    return parts


def _layout(players: int, solo: bool) -> tuple[tuple[int, Read | None], ...]:
    """The kind of card each part of ``_card_parts`` holds, and how to read them."""
    return (
        (DEVELOPMENT, None),
        (DEVELOPMENT, None),
        (DEVELOPMENT, None),
        (DEVELOPMENT, _not_conflicts),  # the Stage II space removes Conflicts too
        (DEVELOPMENT, None),  # drawn and not yet kept, played in a conflict, waiting to be tucked
        (DREAMS, None),
        (DREAMS, None),
        (DREAMS, None),
        (DREAMS, None),
        (CONFLICTS, None),
        (CONFLICTS, None),
        (CONFLICTS, _conflicts),
        (CONFLICTS, None),
        # each player's hand, display (the Action card at the bottom of a stack is not one), Dreams
        *((DEVELOPMENT, None), (DEVELOPMENT, _under_action_cards), (DREAMS, None), (DREAMS, None)) * players,
        # solo: the King's hand (its own combat cards aside), tucked cards, Dreams
        *((DEVELOPMENT, _not_king_combat), (DEVELOPMENT, _stacked), (DREAMS, None), (DREAMS, None)) * solo,
    )


def _not_conflicts(removed: tuple[str, ...], conflict_ids: frozenset[str]) -> list[str]:
    return [c for c in removed if c not in conflict_ids]


def _conflicts(removed: tuple[str, ...], conflict_ids: frozenset[str]) -> list[str]:
    return [c for c in removed if c in conflict_ids]


def _under_action_cards(display: tuple[tuple[str, ...], ...], _: frozenset[str]) -> list[str]:
    return [c for stack in display for c in stack[1:]]


def _not_king_combat(hand: tuple[str, ...], _: frozenset[str]) -> list[str]:
    return [c for c in hand if c not in KING_COMBAT]


def _stacked(stacks: tuple[tuple[str, ...], ...], _: frozenset[str]) -> list[str]:
    return [c for stack in stacks for c in stack]


def _sorted_cards(parts: list[Any], ref: _Reference) -> tuple[list[str], list[str], list[str]]:
    """Every card of ``parts``, by kind, sorted."""
    cards: tuple[list[str], list[str], list[str]] = ([], [], [])
    for part, (kind, read) in zip(parts, ref.layout, strict=True):
        cards[kind].extend(part if read is None else read(part, ref.conflict_ids))
    for pile in cards:
        pile.sort()
    return cards


# The card parts of the last position whose cards were all conserved, and its reference key.
_last: tuple[tuple[str, int, bool], list[Any]] | None = None


def _conserved(parts: list[Any], key: tuple[str, int, bool], ref: _Reference) -> tuple[bool, bool, bool]:
    """Whether the cards of each kind in ``parts`` are the reference's. This runs after every
    decision of every simulated game, and most decisions move a few cards or none. Against the
    last position found conserved with the same reference (same pack, seats, solo or not: the
    same parts in the same order), the cards held now are the reference exactly when the cards
    of the parts that changed are those they held then; a part left alone is the same object
    (states are made with ``replace``), so it is not even read. Otherwise, or when the quick
    comparison is not enough, every card is compared with the reference."""
    global _last
    last = _last
    if last is None or last[0] != key or len(last[1]) != len(parts) or not ref.quick:
        cards = _sorted_cards(parts, ref)
        held = (cards[0] == ref.cards[0], cards[1] == ref.cards[1], cards[2] == ref.cards[2])
    elif last[1] == parts:  # no card moved (the same parts, or equal ones)
        held = (True, True, True)
    else:
        now: tuple[list[str], list[str], list[str]] = ([], [], [])
        then: tuple[list[str], list[str], list[str]] = ([], [], [])
        for part, old, (kind, read) in zip(parts, last[1], ref.layout, strict=True):
            if part is not old:
                now[kind].extend(part if read is None else read(part, ref.conflict_ids))
                then[kind].extend(old if read is None else read(old, ref.conflict_ids))
        for moved in now + then:
            moved.sort()
        held = (now[0] == then[0], now[1] == then[1], now[2] == then[2])
    if all(held) and ref.quick:
        _last = (key, parts)
    return held


def _cards(state: GameState) -> list[str]:
    """Every card is in one place, once (``_conserved``); only a broken conservation pays for
    Counters to say what is wrong."""
    key = (state.pack, len(state.players), state.king is not None)
    ref = _reference(*key)
    parts = _card_parts(state)
    development, dreams, conflicts = _conserved(parts, key, ref)
    out = []
    if not development or not ref.quick:
        out += _development_problems(_sorted_cards(parts, ref)[DEVELOPMENT], ref.development)
    k = state.king
    if k is not None and sum(c in KING_COMBAT for c in k.hand) + _king_combat_in_play(state) != len(KING_COMBAT):
        out.append("the King's 2 combat cards are not conserved")
    if not dreams:
        out.append("Dream cards not conserved")
    if not conflicts:
        out.append("Conflict cards not conserved")
    return out


def _development_problems(seen: list[str], dev: Counter[str]) -> list[str]:
    """What is wrong with the Development cards ``seen``, in words."""
    counted = Counter(seen)
    out = []
    if HIDDEN in counted:
        out.append("a hidden placeholder is in the state itself")
    if counted != dev:
        out.append(f"Development cards not conserved: {sorted((counted - dev) + (dev - counted))[:5]}")
    return out


def _board(state: GameState) -> list[str]:
    out = list(_area_problems(state.areas))
    if state.phase != "setup":
        for pl in state.players:
            if pl.shaper == "" and not (state.king is not None and pl.seat == state.king.seat):  # no Shaper
                out.append(f"seat {pl.seat}: the Shaper is off the board")
    return out


@board.identity_memo
def _area_problems(areas: tuple[AreaState, ...]) -> tuple[str, ...]:
    """FORTS, UNIT LIMIT: what is wrong in each area. Checked once per tuple of areas
    (``identity_memo``): most decisions change no area."""
    out = []
    for a in areas:
        if a.fort_levels and not 1 <= a.fort_levels <= 3:
            out.append(f"{a.id}: a Fort has 1 to 3 levels")
        if (a.fort_levels == 0) != (a.fort_owner == -1):
            out.append(f"{a.id}: Fort owner and levels disagree")
        if a.fortress >= 0 and (a.fort_owner != a.fortress or a.fort_levels < 1):
            out.append(f"{a.id}: the Fortress lost its last Fort level")
        if a.shadows > UNIT_LIMIT:
            out.append(f"{a.id}: more than {UNIT_LIMIT} Shadows")
        if (a.followers and min(a.followers) < 0) or a.shadows < 0:
            out.append(f"{a.id}: negative units")
        if a.followers and max(a.followers) > 5:
            out.append(f"{a.id}: more Followers than any Unit Limit allows")
    return tuple(out)


def _nightmares(state: GameState) -> list[str]:
    """THE NIGHTMARE CATHEDRAL: off the board in Stage 1; in Stage 2 each in the Cathedral space or
    an area in play; a commanded Nightmare is one of the two; the devoured end only in Stage 2."""
    out = []
    where = state.nightmare_at
    if where and len(where) != len(state.nightmares):
        out.append("one place per Nightmare")
    if state.stage < 2 and any(where):
        out.append("a Nightmare is on the board before the Cathedral is complete")
    if state.stage >= 2:
        in_play = board.area_index(state)
        if len(where) != len(state.nightmares) or any(w != board.CATHEDRAL and w not in in_play for w in where):
            out.append(f"Stage 2: every Nightmare is in the Cathedral space or an area in play, not {where}")
    # Mostly no Nightmare is commanded: the tests below then make no generator.
    active = ((state.commanding,) if state.commanding else ()) + (
        tuple(n for n, _ in state.suspended) if state.suspended else ()
    )
    if active and any(n not in state.nightmares for n in active):
        out.append(f"a Nightmare not in play is being commanded: {active}")
    if state.suspended and not state.commanding:
        out.append("an interrupted activation with no Nightmare commanded")
    if not state.commanding and state.visited:
        out.append("areas visited with no Nightmare commanded")
    if state.commanded and any(n not in state.nightmares for _, n in state.commanded):
        out.append("a Nightmare not in play was commanded")
    if state.devoured_shadows < 0 or any(pl.devoured < 0 for pl in state.players):
        out.append("negative devoured units")
    if state.end_triggered and state.stage < 2:
        out.append("the devoured end was triggered before Stage 2")
    if state.outcome is not None and state.outcome.reason == "devoured" and len({p.turns for p in state.players}) != 1:
        out.append("a devoured end before every player had an equal number of turns")
    return out


def _fight(state: GameState) -> Fight | None:
    """The conflict being fought, if a decision of one of its stages is due."""
    f = getattr(state.work, "fight", None)
    return f if isinstance(f, Fight) else None


def _king_combat_in_play(state: GameState) -> int:
    """The King's own combat cards played in a conflict still in progress."""
    f = _fight(state)
    return 0 if f is None else sum(c in KING_COMBAT for c in f.plays[0] + f.plays[1])


def _cards_in_work(state: GameState, deck: str = "development") -> tuple[str, ...]:
    """Cards set aside by a step in progress: Development cards drawn and not yet kept, played
    in a conflict, or drawn by the King and waiting to be tucked; with ``deck="conflict"``, the
    Conflict card played for the Shadows, until its Victory or Defeat effect is resolved."""
    w = state.work
    f = _fight(state)
    held: tuple[str, ...] = ()
    if deck == "conflict":
        if f is not None and f.shadow_card:
            held += (f.shadow_card,)
        return held + tuple(fr.then.card for fr in state.frames if isinstance(fr.then, CardToBottom))
    if isinstance(w, KeepWork) and w.deck.startswith("development"):
        held += w.drawn
    # played in a conflict whose Victory or Defeat effect is being resolved (step 12 waits for it)
    played = sum((fr.then.played() for fr in state.frames if isinstance(fr.then, CardToBottom)), ())
    if f is not None:
        played += f.plays[0] + f.plays[1]
    # the King's own combat cards are not Development cards
    held += tuple(c for c in played if c not in KING_COMBAT)
    if isinstance(w, KingTuckWork):  # solo DEVELOP: the card waits for your choice of Action card
        held += (w.card,)
    return held


def _dreams_in_work(state: GameState) -> tuple[str, ...]:
    """Dream cards drawn and not yet kept (a Reward tile's draw from the Stage 2 Dream deck)."""
    w = state.work
    if isinstance(w, KeepWork) and w.deck.startswith("dream"):
        return w.drawn
    return ()
