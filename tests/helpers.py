"""Helpers for engine tests: play seeded random games through players' views."""

from __future__ import annotations

from typing import Iterator

from nctui.bots import RandomBot
from nctui.engine import GameConfig, GameState, new_game, player_view, step
from nctui.engine.actions import Action
from nctui.store import Store


def config(players: int = 2, seed: int = 0, **kw) -> GameConfig:
    return GameConfig(players=players, seats=("bot",) * players, seed=seed, **kw)


def random_game(players: int = 2, seed: int = 0, **kw) -> Iterator[tuple[GameState, Action | None]]:
    """Yield (state, action taken from it) along one game; the last state has action None."""
    res = new_game(config(players, seed, **kw))
    state = res.state
    bots = [RandomBot(seed * 10 + i) for i in range(len(state.players))]
    while state.decision is not None:
        seat = state.decision.seat
        action = bots[seat].choose(player_view(state, seat))
        yield state, action
        state = step(state, action).state
    yield state, None


def play(players: int = 2, seed: int = 0, **kw) -> tuple[GameState, list[Action]]:
    actions: list[Action] = []
    state = None
    for state, action in random_game(players, seed, **kw):
        if action is not None:
            actions.append(action)
    return state, actions


def human_config(players: int = 2, seed: int = 1) -> GameConfig:
    """A hot-seat game of humans (the tests decide for them)."""
    return GameConfig(players=players, seats=("human",) * players, seed=seed)


def store_moves(store: Store, count: int, seed: int = 0) -> None:
    """Let random bots, each looking at its own view, make ``count`` decisions in ``store``."""
    bots = [RandomBot(seed + i) for i in range(len(store.state.players))]
    for _ in range(count):
        d = store.state.decision
        if d is None:
            return
        store.dispatch(bots[d.seat].choose(player_view(store.state, d.seat)), seen_state_id=store.state_id, seat=d.seat)
