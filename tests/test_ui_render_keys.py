"""The panels' render keys (``FitsContent.render_key``): a panel whose key did not change is not
rendered again, so its key must hold every part of the view and facts that its render function
reads. Checked two ways along seeded random games (2-4 players, solo against the King, the
Divergent Paths): every field of the engine's structs that the render reads, the key reads too;
and two consecutive positions with the same key draw the same."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import islice, pairwise
from typing import Any

import msgspec
import pytest

import nctui.games.nightmare_cathedral.engine
from nctui.games.nightmare_cathedral.bots import RandomBot
from nctui.games.nightmare_cathedral.engine import GameConfig, new_game, player_view, step
from nctui.games.nightmare_cathedral.engine.facts import facts as facts_of
from nctui.games.nightmare_cathedral.engine.views import View
from nctui.games.nightmare_cathedral.ui.widgets.hand import hand_key, render_hand
from nctui.games.nightmare_cathedral.ui.widgets.matrix import matrix_key, render_matrix
from nctui.games.nightmare_cathedral.ui.widgets.tracks import render_tracks, tracks_key

WIDTHS = (60, 118)
PANELS: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    # name: (render of a view and its facts at a width, the key of a view and its facts)
    "tracks": (lambda v, f, w: render_tracks(v, f, w), tracks_key),
    "hand": (lambda v, f, w: render_hand(v, f, None, w), hand_key),
    "matrix": (lambda v, f, w: render_matrix(v, w), lambda v, f: matrix_key(v)),
}
GAMES = (
    GameConfig(players=2, seats=("bot",) * 2, seed=3),
    GameConfig(players=3, seats=("bot",) * 3, seed=5),
    GameConfig(players=4, seats=("bot",) * 4, seed=8, divergent_paths=True),
    GameConfig(players=1, seats=("bot", "king"), seed=6),
)


def _engine_structs() -> list[type[msgspec.Struct]]:
    found: dict[type, None] = {}
    for module in pkgutil.iter_modules(nctui.games.nightmare_cathedral.engine.__path__):
        for value in vars(importlib.import_module(f"nctui.games.nightmare_cathedral.engine.{module.name}")).values():
            if (
                isinstance(value, type)
                and issubclass(value, msgspec.Struct)
                and value.__module__.startswith("nctui.games.nightmare_cathedral.engine.")
            ):
                # the content is the pack's (in the keys)
                found[value] = None
    return list(found)


class _Recorded:
    """A struct field's descriptor that notes each read of it in ``into[0]`` (when set)."""

    def __init__(self, field: Any, name: tuple[str, str], into: list[set[tuple[str, str]] | None]) -> None:
        self.field, self.name, self.into = field, name, into

    def __get__(self, obj: object, cls: type | None = None) -> object:
        if obj is None:
            return self
        reads = self.into[0]
        if reads is not None:
            reads.add(self.name)
        return self.field.__get__(obj, cls)


@contextmanager
def recording() -> Iterator[Callable[[Callable[[], object]], set[tuple[str, str]]]]:
    """A function that calls a function and returns every (struct, field) of the engine it
    read from Python (the structs' fields are patched once, for the ``with`` block)."""
    into: list[set[tuple[str, str]] | None] = [None]
    patched = []
    for cls in _engine_structs():
        for name in cls.__struct_fields__:
            field = cls.__dict__.get(name)
            if field is not None and type(field).__name__ == "member_descriptor":
                patched.append((cls, name, field))
                setattr(cls, name, _Recorded(field, (cls.__name__, name), into))

    def reads_of(call: Callable[[], object]) -> set[tuple[str, str]]:
        reads: set[tuple[str, str]] = set()
        into[0] = reads
        try:
            call()
        finally:
            into[0] = None
        return reads

    try:
        yield reads_of
    finally:
        for cls, name, field in patched:
            setattr(cls, name, field)


def _views(config: GameConfig, steps: int) -> Iterator[tuple[View, ...]]:
    """Each seat's view along a random game, one tuple a position (at most ``steps``)."""
    state = new_game(config).state
    bots = [RandomBot(config.seed * 10 + i) for i in range(len(config.seats))]
    for _ in range(steps):
        yield tuple(player_view(state, seat) for seat in range(len(state.players)))
        if state.decision is None:
            return
        seat = state.decision.seat
        state = step(state, bots[seat].choose(player_view(state, seat))).state


def test_the_recording_notes_the_fields_read() -> None:
    view = player_view(new_game(GAMES[0]).state, 0)
    with recording() as reads_of:
        reads = reads_of(lambda: view.state.turn_pos)
    assert ("View", "state") in reads and ("GameState", "turn_pos") in reads
    assert ("GameState", "time") not in reads
    assert view.state.turn_pos == -1  # the fields are as they were


@pytest.mark.parametrize("config", GAMES, ids=lambda c: f"{c.players}p-seed{c.seed}")
def test_what_a_panel_reads_is_in_its_key(config: GameConfig) -> None:
    with recording() as reads_of:
        for views in islice(_views(config, 400), 0, None, 4):
            for view in views:
                facts = facts_of(view)
                for name, (render, key) in PANELS.items():
                    in_key = reads_of(lambda: key(view, facts))  # noqa: B023 - called at once
                    drawn = reads_of(lambda: [render(view, facts, w) for w in WIDTHS])  # noqa: B023
                    assert drawn <= in_key, f"{name} reads fields its key does not: {sorted(drawn - in_key)}"


def _drawn(view: View) -> dict[str, tuple[object, tuple[object, ...]]]:
    """Each panel's key and its drawings at each width."""
    facts = facts_of(view)
    return {
        name: (key(view, facts), tuple(render(view, facts, w) for w in WIDTHS))
        for name, (render, key) in PANELS.items()
    }


@pytest.mark.parametrize("config", GAMES, ids=lambda c: f"{c.players}p-seed{c.seed}")
def test_the_same_key_draws_the_same(config: GameConfig) -> None:
    same = dict.fromkeys(PANELS, 0)
    for seat in (0, 1):
        for before, after in pairwise(_drawn(views[seat]) for views in _views(config, 200)):
            for name, (key, drawings) in after.items():
                if before[name][0] == key:
                    same[name] += 1
                    assert before[name][1] == drawings, name
    assert all(same.values()), same  # every panel kept its key somewhere along the game
