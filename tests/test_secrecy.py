"""No card reaches a seat that may not know it: whole games in every configuration, checking every
view, every event as delivered to each seat, every log line and every timeline line.

What a seat may know is the game's independent account (``nightmare_cathedral.audit``, written
without ``engine.views``; tests/test_contract.py holds every game to its own): the cards in public
places and in the seat's own places. An event may name a card the seat knows before or after the
step, or one that an event of the step shows on purpose (``audit.shown``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from nctui.games.nightmare_cathedral import audit
from nctui.games.nightmare_cathedral.audit import known
from nctui.games.nightmare_cathedral.bots import GreedyBot, RandomBot
from nctui.games.nightmare_cathedral.describe import describe_event
from nctui.games.nightmare_cathedral.engine import (
    Action,
    GameConfig,
    GameState,
    events as E,
    new_game,
    player_view,
    step,
)
from nctui.games.nightmare_cathedral.engine.events import HIDDEN, Event
from nctui.games.nightmare_cathedral.engine.views import SPECTATOR, redact, step_reveals
from nctui.platform.store import Store
from tests.helpers import of_kind

CONFIGS = [
    GameConfig(players=2, seats=("bot", "bot"), seed=11),
    GameConfig(players=3, seats=("bot",) * 3, seed=12, length="variable"),
    GameConfig(players=4, seats=("bot",) * 4, seed=13, divergent_paths=True),
    GameConfig(players=2, seats=("bot", "bot"), seed=50005, divergent_paths=True),  # a Dream kept beyond the limit
    GameConfig(players=2, seats=("bot", "bot"), seed=15, divergent_paths=True, length="variable"),
    GameConfig(players=1, seats=("human", "king"), seed=16),
    GameConfig(
        players=1,
        seats=("human", "king"),
        seed=17,
        difficulty=("easier_conform", "easier_desirable", "easier_ritual", "easier_nightmare"),
    ),
    GameConfig(
        players=1,
        seats=("human", "king"),
        seed=18,
        length="variable",
        divergent_paths=True,
        difficulty=("harder_climb", "harder_powered_2", "harder_devoured", "harder_dream_discount"),
    ),
]


def _card_ids(pack: str) -> frozenset[str]:
    return frozenset(audit.card_names(pack))


def _strings(value: object) -> Iterator[str]:
    """Every string held anywhere in a Struct tree (a view, an event)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple | list | frozenset):
        for v in value:
            yield from _strings(v)
    elif hasattr(value, "__struct_fields__"):
        for name in value.__struct_fields__:
            yield from _strings(getattr(value, name))


def _play(config: GameConfig) -> Iterator[tuple[GameState, Action, GameState, tuple[Event, ...]]]:
    """(before, action, after, events) along a whole game between random and greedy bots."""
    state = new_game(config).state
    rnd = random.Random(config.seed)
    bots = {s: (GreedyBot if s % 2 else RandomBot)(config.seed + s) for s in range(len(state.players))}
    while state.decision is not None:
        seat = state.decision.seat
        action = (
            bots[seat].choose(player_view(state, seat)) if rnd.random() < 0.8 else rnd.choice(state.decision.options)
        )
        result = step(state, action)
        yield state, action, result.state, result.events
        state = result.state


def _id(c: GameConfig) -> str:
    return f"{c.players}p-{c.length}-dp{int(c.divergent_paths)}-{c.seed}"


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_no_seat_ever_receives_a_card_it_may_not_know(config):
    ids = _card_ids(config.pack)
    names = audit.card_names(config.pack)
    store = Store(config)
    viewers = [*range(config.seat_count), SPECTATOR]
    steps = 0
    for before, action, after, events in _play(config):
        store.dispatch(action, seen_state_id=store.state_id)
        steps += 1
        for v in viewers:
            mine = v if v != SPECTATOR else -99
            allowed = known(before, mine) | known(after, mine)
            view = player_view(after, v)
            leaked = {c for c in _strings(view.state) if c in ids} - known(after, mine)
            assert not leaked, f"step {steps}: seat {v}'s view shows {sorted(leaked)}"
            free = set(allowed)
            for e in events:  # a card revealed by an event may be named by the events after it
                seen = redact(e, v)
                free |= audit.shown(e, mine)
                leaked = {c for c in _strings(seen) if c in ids} - free
                assert not leaked, f"step {steps}: {e.kind} shows seat {v} {sorted(leaked)}"
                line = describe_event(seen, view.state)
                hidden_names = [names[c] for c in ids - free if c in names]
                assert not [n for n in hidden_names if n in line], f"step {steps}: seat {v} reads {line!r}"
            for item in store.timeline(viewer=v)[-1:]:
                hidden_names = [names[c] for c in ids - free if c in names]
                assert not [n for n in hidden_names if n in item.summary], (steps, v, item.summary)
    assert after.outcome is not None and steps > 50


@pytest.mark.parametrize("config", CONFIGS[:4] + CONFIGS[5:6], ids=lambda c: f"{c.players}p-{c.seed}")
def test_every_random_draw_or_hidden_card_seen_is_declared_by_an_event(config):
    """The engine says what a step revealed (the strict undo policy relies on it): whenever the
    RNG moved, a hidden pile lost cards or the King's Area Selection deck moved, some event of
    the step declares a reveal."""
    checked = 0
    for before, _, after, events in _play(config):
        hidden = ("development", "dream", "conflict", "development2", "dream2", "conflict2")
        shrank = any(len(getattr(after.decks, n)) < len(getattr(before.decks, n)) for n in hidden)
        # the King's own two combat cards coming back to its hand are known cards, not a draw
        back = sum(len(e.cards) for e in of_kind(events, E.KingCombatReturned))
        king_moved = (
            before.king is not None
            and after.king is not None
            and (before.king.area_deck != after.king.area_deck or len(after.king.hand) - back > len(before.king.hand))
        )
        if after.rng != before.rng or shrank or king_moved:
            assert step_reveals(events) is not None, [e.kind for e in events]
            checked += 1
    assert checked > 10


def test_hidden_placeholders_never_reach_the_real_state():
    for _, _, after, _ in _play(CONFIGS[0]):
        assert HIDDEN not in set(_strings(after))
