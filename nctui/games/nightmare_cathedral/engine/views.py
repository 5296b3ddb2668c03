"""Every secret of the game, in one module: what a seat (or a spectator) may see, how events and
actions are redacted for other seats, what a step reveals, and how a computer player guesses
the hidden part of the game from what it sees (``resample``). UI, bots, the King's panel and
the network only ever get views, redacted events and redacted actions.

A view is the state with every secret replaced by ``HIDDEN``: other seats' hands and Dreams
(those kept beyond the limit by a Reward tile included), the order of every deck, the King's
face-down cards and Area Selection deck, cards drawn and not yet kept by another seat, cards
played face down in a conflict until they are revealed, the RNG, and the options of a decision
that is not the viewer's. The configuration's seed is hidden too until the game is over: with
the seed and the public list of actions, anyone could replay the game and learn every hidden card.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import TypeVar

import msgspec
from msgspec.structs import replace

from nctui.platform.rng import Rng

from ..content.loader import get_pack
from . import actions as A
from .events import HIDDEN, Event, Reveal
from .king_state import KING_COMBAT, KingState
from .state import BASIC_COMBAT, GameState, PlayerState
from .work import CardToBottom, Fight, KeepWork, Work, fight_of, with_fight

SPECTATOR = -1


class View(msgspec.Struct, frozen=True, kw_only=True):
    seat: int  # SPECTATOR for a spectator
    state: GameState

    @property
    def my_turn_to_decide(self) -> bool:
        d = self.state.decision
        return d is not None and d.seat == self.seat


def _hide(cards: tuple[str, ...]) -> tuple[str, ...]:
    return (HIDDEN,) * len(cards)  # one C-level copy: every view of every decision hides ~10 piles


def _hide_work(work: Work | None, seat: int) -> Work | None:
    """Cards a step holds aside: those drawn and not yet kept are seen by the drawer only;
    cards played face down in a conflict by their owner only, until revealed (CONFLICTS 2)."""
    if isinstance(work, KeepWork) and work.seat != seat:
        return replace(work, drawn=_hide(work.drawn))
    f = fight_of(work)
    if work is None or f is None or f.revealed:
        return work
    plays = (
        f.plays[0] if f.sides[0] == seat else _hide(f.plays[0]),
        f.plays[1] if f.sides[1] == seat else _hide(f.plays[1]),
    )
    return with_fight(work, replace(f, plays=plays))


def _hide_king(king: KingState | None, seat: int) -> KingState | None:
    """Solo: the King's combat cards are face down and the Area Selection deck is shuffled."""
    if king is None or king.seat == seat:
        return king
    return replace(king, hand=_hide(king.hand), area_deck=_hide(king.area_deck))


def _hide_player(pl: PlayerState) -> PlayerState:
    """Another seat's hand and Dreams; which of its Dreams a Reward tile exempts from the limit
    is as secret as the Dreams themselves (how many is not)."""
    return replace(pl, hand=_hide(pl.hand), dreams=_hide(pl.dreams), free_dreams=_hide(pl.free_dreams))


def player_view(state: GameState, seat: int) -> View:
    d = state.decision
    decks = state.decks
    hidden_decks = replace(
        decks,
        development=_hide(decks.development),
        dream=_hide(decks.dream),
        conflict=_hide(decks.conflict),
        development2=_hide(decks.development2),
        dream2=_hide(decks.dream2),
        conflict2=_hide(decks.conflict2),
    )
    players = tuple(pl if pl.seat == seat else _hide_player(pl) for pl in state.players)
    if d is not None and d.seat != seat:
        d = replace(d, options=())
    config = state.config if state.phase == "over" else replace(state.config, seed=0)
    redacted = replace(
        state,
        config=config,
        rng=Rng(state=0),
        decks=hidden_decks,
        players=players,
        decision=d,
        work=_hide_work(state.work, seat),
        king=_hide_king(state.king, seat),
    )
    return View(seat=seat, state=redacted)


def spectator_view(state: GameState) -> View:
    return player_view(state, SPECTATOR)


def view_all(state: GameState, seat: int) -> View:
    """Once the game is over nothing is secret: ``seat``'s view with every hand, every deck, the
    King's cards, the RNG and the seed (a replay of the finished game)."""
    return View(seat=seat, state=state)


# ---------------------------------------------------------------------------------------------
# Events and actions as another seat may see them

E = TypeVar("E", bound=Event)


def redact(event: E, seat: int | None) -> E:
    """The event as ``seat`` may see it (``None`` or ``SPECTATOR``: a spectator): the fields it
    declares ``SECRET`` are hidden from everyone but the seat it is about, unless the event
    reveals them to all (a combat card played face up)."""
    if not event.SECRET or event.seat == seat or event.reveals() == "all":
        return event
    hidden = {name: _hidden_value(getattr(event, name)) for name in event.SECRET}
    return replace(event, **hidden)


def _hidden_value(value: object) -> object:
    if isinstance(value, tuple):
        return _hide(value)
    return HIDDEN


def reveals(event: Event) -> Reveal:
    """What an event brings into view: "none", "owner" (hidden cards its seat now knows), "all"
    (hidden cards now public) or "chance" (a random result)."""
    return event.reveals()


def step_reveals(events: tuple[Event, ...] | list[Event]) -> Event | None:
    """The first event of a step that revealed hidden information or a random result, if any:
    the strict undo policy never takes such a step back."""
    return next((e for e in events if reveals(e) != "none"), None)


# Actions whose fields only the deciding seat may know (the cards they name go face down).
_SECRET_ACTIONS: dict[type, tuple[str, ...]] = {
    A.DiscardDream: ("card",),  # to the bottom of the Dream deck
    A.KeepCard: ("card",),  # kept from cards drawn
    A.PlayCombatCard: ("card",),  # played face down
}


def redact_action(action: A.Action, seat: int | None, decider: int) -> A.Action:
    """A decision as ``seat`` may see it in a timeline or over the network (``decider`` made it)."""
    fields = _SECRET_ACTIONS.get(type(action))
    if not fields or seat == decider:
        return action
    return replace(action, **{name: HIDDEN for name in fields})


def is_secret_action(action: A.Action) -> bool:
    return type(action) in _SECRET_ACTIONS


# ---------------------------------------------------------------------------------------------
# Resampling: a full state consistent with a view, for computer players


def _deal_unknown(
    rnd: random.Random, unknown: Counter[str], stage_of: Mapping[str, int], deck2: tuple[str, ...], filler: str
) -> tuple[tuple[str, ...], list[str]]:
    """Unseen cards dealt as guesses: the Stage 2 deck gets Stage 2 cards (shuffled), and what is
    left of them joins the others, shuffled, for every other hidden place. Returns (the Stage 2
    deck guessed, the rest)."""
    stage2 = [x for x in sorted(unknown.elements()) if stage_of[x] == 2]
    rest = [x for x in sorted(unknown.elements()) if stage_of[x] != 2]
    rnd.shuffle(stage2)
    filled2, stage2 = _fill(deck2, stage2, filler)
    rest += stage2
    rnd.shuffle(rest)
    return filled2, rest


def _fill(slots: tuple[str, ...], pool: list[str], fallback: str) -> tuple[tuple[str, ...], list[str]]:
    """Replace each HIDDEN slot by the next card of ``pool`` (``fallback`` once it runs dry)."""
    out = []
    for c in slots:
        if c == HIDDEN:
            c = pool.pop() if pool else fallback
        out.append(c)
    return tuple(out), pool


def resample(view: View, rnd: random.Random) -> GameState:
    """A guess at the full state behind a view: every hidden card is replaced by one of the cards
    the seat has not seen (shuffled by ``rnd``), the RNG is reseeded. Stage 2 decks get Stage 2
    cards. The guess conserves the cards when the view is consistent; it never needs to be exact."""
    state = view.state
    guess = _Guess(state, rnd)
    state = guess.development(state)
    state = guess.dreams(state)
    state = guess.conflicts(state)
    return replace(state, rng=Rng(state=rnd.getrandbits(64)))


class _Guess:
    """The unseen cards of each kind, dealt into the hidden places of a view."""

    def __init__(self, state: GameState, rnd: random.Random) -> None:
        self.rnd = rnd
        self.cards = get_pack(state.pack).cards
        self.conflict_ids = {x.id for x in self.cards.conflicts}

    def development(self, state: GameState) -> GameState:
        """Development cards, Basic Combat cards and the King's own combat cards."""
        d, w, k = state.decks, state.work, state.king
        f = fight_of(w)
        seen: Counter[str] = Counter(x for x in d.development_discard if x != HIDDEN)
        seen.update(x for x in d.removed if x not in self.conflict_ids)
        for pl in state.players:
            seen.update(x for x in pl.hand if x != HIDDEN)
            seen.update(x for stack in pl.display for x in stack[1:])
        if k is not None:
            seen.update(x for x in k.hand if x != HIDDEN and x not in KING_COMBAT)
            seen.update(x for stack in k.tucked for x in stack)
        if isinstance(w, KeepWork) and w.deck.startswith("development"):
            seen.update(x for x in w.drawn if x != HIDDEN)
        if f is not None:
            seen.update(x for x in f.plays[0] + f.plays[1] if x != HIDDEN and x not in KING_COMBAT)
        for fr in state.frames:  # face up, waiting for step 12 after a Victory or Defeat effect
            if isinstance(fr.then, CardToBottom):
                seen.update(x for x in fr.then.played() if x not in KING_COMBAT)
        stage = {x.id: x.stage for x in self.cards.development}
        unknown = Counter(dict.fromkeys(stage, 1))
        unknown[BASIC_COMBAT] = len(state.players) - (k is not None)
        unknown -= seen
        basics = unknown.pop(BASIC_COMBAT, 0)
        filler = min(stage)
        dev2, pool = _deal_unknown(self.rnd, unknown, stage, d.development2, filler)
        if k is not None:
            state, f, pool = self._king(state, f, pool, filler)
        if f is not None and HIDDEN in f.plays[0] + f.plays[1]:
            f, pool, basics = self._face_down(state, f, pool, basics, filler)
        players = []
        for pl in state.players:
            hand = pl.hand
            if HIDDEN in hand and basics > 0:  # the card every hand holds
                i = hand.index(HIDDEN)
                hand, basics = (*hand[:i], BASIC_COMBAT, *hand[i + 1 :]), basics - 1
            hand, pool = _fill(hand, pool, filler)
            players.append(replace(pl, hand=hand) if hand != pl.hand else pl)
        w = state.work
        if f is not None and w is not None:
            w = with_fight(w, f)
        if isinstance(w, KeepWork) and HIDDEN in w.drawn and w.deck.startswith("development"):
            drawn, pool = _fill(w.drawn, pool, filler)
            w = replace(w, drawn=drawn)
        development, pool = _fill(d.development, pool, filler)
        decks = replace(d, development=development, development2=dev2)
        return replace(state, decks=decks, players=tuple(players), work=w)

    def _king(
        self, state: GameState, f: Fight | None, pool: list[str], filler: str
    ) -> tuple[GameState, Fight | None, list[str]]:
        """The King's face-down hand (its own 2 combat cards are in it or in play) and its Area
        Selection deck."""
        k = state.king
        assert k is not None
        mine = f.sides.index(k.seat) if f is not None and k.seat in f.sides else -1
        played = f.plays[mine] if f is not None and mine >= 0 else ()
        slots = [("hand", i) for i, x in enumerate(k.hand) if x == HIDDEN]
        slots += [("play", i) for i, x in enumerate(played) if x == HIDDEN]
        own = [x for x in KING_COMBAT if x not in k.hand and x not in played]
        self.rnd.shuffle(slots)
        hand, plays = list(k.hand), list(played)
        for (where, i), x in zip(slots, own):
            (hand if where == "hand" else plays)[i] = x
        filled, pool = _fill(tuple(hand), pool, filler)
        free = Counter(self.cards.area_selection or tuple(a.id for a in state.areas))
        free.subtract(x for x in k.area_deck + k.area_aside if x != HIDDEN)
        areas = sorted(free.elements())
        self.rnd.shuffle(areas)
        area_deck, _ = _fill(k.area_deck, areas, areas[0] if areas else state.areas[0].id)
        if f is not None and mine >= 0 and plays:
            f = replace(f, plays=(tuple(plays), f.plays[1]) if mine == 0 else (f.plays[0], tuple(plays)))
        return replace(state, king=replace(k, hand=filled, area_deck=area_deck)), f, pool

    def _face_down(
        self, state: GameState, f: Fight, pool: list[str], basics: int, filler: str
    ) -> tuple[Fight, list[str], int]:
        """Cards a player played face down: Basic Combat first (the card most played: it comes back)."""
        king_side = state.king.seat if state.king is not None else -99
        plays: list[tuple[str, ...]] = []
        for side, cards in zip(f.sides, f.plays):
            if HIDDEN in cards and side >= 0 and basics > 0 and side != king_side:
                cards, basics = (BASIC_COMBAT, *cards[1:]), basics - 1
            filled, pool = _fill(cards, pool, filler)
            plays.append(filled)
        return replace(f, plays=(plays[0], plays[1])), pool, basics

    def dreams(self, state: GameState) -> GameState:
        d, w, k = state.decks, state.work, state.king
        seen: Counter[str] = Counter(x for x in d.dream_offer if x != HIDDEN)
        for pl in state.players:
            seen.update(x for x in pl.dreams + pl.dreams_played if x != HIDDEN)
        if k is not None:
            seen.update(k.dreams + k.completed)
        if isinstance(w, KeepWork) and w.deck.startswith("dream"):
            seen.update(x for x in w.drawn if x != HIDDEN)
        stage = {x.id: x.stage for x in self.cards.dreams}
        filler = min(stage)
        dream2, pool = _deal_unknown(self.rnd, Counter(dict.fromkeys(stage, 1)) - seen, stage, d.dream2, filler)
        players = list(state.players)
        for i, pl in enumerate(players):
            if HIDDEN in pl.dreams:
                dreams, pool = _fill(pl.dreams, pool, filler)
                free = dreams[: len(pl.free_dreams)] if HIDDEN in pl.free_dreams else pl.free_dreams
                players[i] = replace(pl, dreams=dreams, free_dreams=free)
        if isinstance(w, KeepWork) and HIDDEN in w.drawn and w.deck.startswith("dream"):
            drawn, pool = _fill(w.drawn, pool, filler)
            w = replace(w, drawn=drawn)
        dream, pool = _fill(d.dream, pool, filler)
        return replace(state, decks=replace(d, dream=dream, dream2=dream2), players=tuple(players), work=w)

    def conflicts(self, state: GameState) -> GameState:
        d = state.decks
        f = fight_of(state.work)
        seen: Counter[str] = Counter(x for x in d.removed if x in self.conflict_ids)
        if f is not None and f.shadow_card:
            seen[f.shadow_card] += 1
        seen.update(fr.then.card for fr in state.frames if isinstance(fr.then, CardToBottom))
        seen.update(x for x in d.conflict + d.conflict2 if x != HIDDEN)
        stage_of = {x.id: x.stage for x in self.cards.conflicts}
        unknown = Counter(dict.fromkeys(self.conflict_ids, 1)) - seen
        stage2 = [x for x in sorted(unknown.elements()) if stage_of[x] == 2]
        stage1 = [x for x in sorted(unknown.elements()) if stage_of[x] != 2]
        self.rnd.shuffle(stage2)
        filler = min(self.conflict_ids)
        conflict2, stage2 = _fill(d.conflict2, stage2, filler)
        stage1 = stage1 + stage2 if state.stage >= 2 or not d.conflict2 else stage1
        self.rnd.shuffle(stage1)
        conflict, _ = _fill(d.conflict, stage1, filler)
        return replace(state, decks=replace(d, conflict=conflict, conflict2=conflict2))
