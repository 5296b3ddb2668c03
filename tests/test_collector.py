"""nctui.ui.textual_ext.collector: the collections made while the app waits for a key, not in the middle of one."""

from __future__ import annotations

import asyncio
import gc
import time

import pytest

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.ui.app import create_app
from nctui.ui.textual_ext import collector

DEADLINE = 60.0  # seconds: met only when the app never collects


@pytest.fixture
def steady():
    """The collector as `nctui play` sets it, put back after the test."""
    threshold = gc.get_threshold()
    gc.set_threshold(*collector.GC_THRESHOLD)
    gc.collect()
    yield
    gc.set_threshold(*threshold)


def test_the_generation_due_is_the_oldest_whose_turn_comes_with_one_more_collection(monkeypatch):
    monkeypatch.setattr(gc, "get_threshold", lambda: (10_000, 50, 100))
    for counts, due in (
        ((9_000, 3, 2), 0),
        ((9_000, 49, 2), 0),
        ((9_000, 50, 2), 1),
        ((9_000, 50, 99), 1),
        ((9_000, 50, 100), 2),
        ((9_000, 3, 100), 0),
    ):
        monkeypatch.setattr(gc, "get_count", lambda counts=counts: counts)
        assert collector.due_generation() == due, counts


def test_a_collection_only_once_the_app_has_waited_and_enough_was_made(monkeypatch):
    collected: list[int] = []
    monkeypatch.setattr(gc, "collect", collected.append)
    monkeypatch.setattr(gc, "get_threshold", lambda: (10_000, 50, 100))
    monkeypatch.setattr(gc, "get_count", lambda: (collector.YOUNG_ENOUGH, 50, 0))
    assert collector.collect_while_waiting(collector.WAIT_AFTER / 2) is None  # a frame just drawn
    assert collector.collect_while_waiting(collector.WAIT_AFTER) == 1 and collected == [1]
    monkeypatch.setattr(gc, "get_count", lambda: (collector.YOUNG_ENOUGH - 1, 0, 0))
    assert collector.collect_while_waiting(5.0) is None and collected == [1]  # too little to collect
    monkeypatch.setattr(gc, "get_count", lambda: (collector.YOUNG_ENOUGH, 0, 0))
    monkeypatch.setattr(gc, "isenabled", lambda: False)  # start-up: off until the first frame
    assert collector.collect_while_waiting(5.0) is None and collected == [1]


def test_the_app_collects_while_it_waits_for_a_key(steady, tmp_path, monkeypatch):
    """Objects made (a key's work) are collected once the app has drawn and waited, not when
    the next key's work makes enough of them to set the collector off."""
    from nctui.ui.screens import shell  # it makes the kept screens ahead

    # nothing else makes objects meanwhile (the kept screens made ahead could set the collector off)
    monkeypatch.setattr(shell, "PREPARE_AFTER", 600)
    collections: list[int] = []  # the generations the app's looks collected
    look = collector.collect_while_waiting

    def looked(waited: float) -> int | None:
        generation = look(waited)
        if generation is not None:
            collections.append(generation)
        return generation

    monkeypatch.setattr(collector, "collect_while_waiting", looked)

    async def go():
        app = create_app(GameConfig(players=2, seats=("human", "human"), seed=42), save_dir=str(tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            gc.collect()  # from none: the collector is not set off by the test's own objects
            collections.clear()
            made: list[list[object]] = [[] for _ in range(3 * collector.YOUNG_ENOUGH)]  # noqa: F841  # young, alive
            assert gc.get_count()[0] >= 3 * collector.YOUNG_ENOUGH
            app.screen.refresh()  # a frame, as the key's work that made them draws
            # a look every LOOK_EVERY seconds (for LOOK_FOR after a frame) collects once no frame
            # came for WAIT_AFTER: waited for
            # (on a loaded machine the app's timer comes late), up to a deadline only a failure meets
            deadline = time.monotonic() + DEADLINE
            while not collections and time.monotonic() < deadline:
                await asyncio.sleep(collector.LOOK_EVERY)
            assert collections == [0] and gc.get_count()[0] < collector.YOUNG_ENOUGH
            # LOOK_FOR after the last frame the looks stop (an idle app wakes for nothing) until a frame
            looks = app._looks
            assert looks is not None
            while looks._active.is_set() and time.monotonic() < deadline:
                await asyncio.sleep(collector.LOOK_EVERY)
            assert not looks._active.is_set()
            app.screen.refresh()
            while not looks._active.is_set() and time.monotonic() < deadline:
                await asyncio.sleep(collector.LOOK_EVERY)
            assert looks._active.is_set()

    asyncio.run(go())
