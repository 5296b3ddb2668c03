"""Finished games watched again (issue 40): for every registered game, a whole game saved to a file
and opened as a ``Replay`` steps forwards and backwards through exactly the recorded states, its
log the recorded events, everything shown once the game is over (``view_all``); a replay decides
nothing; a game not over is shown as its seat saw it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from nctui.platform import registry, saves
from nctui.platform.game import SPECTATOR
from nctui.platform.registry import GameEntry
from nctui.platform.replay import Replay, ReplayOnly
from nctui.platform.store import Store
from tests.test_contract import CASES, played


def _case(entry: GameEntry):  # the first case of two seats or more
    return next(c for c in CASES if c.entry == entry and c.seats >= 2)


@pytest.mark.parametrize("entry", registry.ENTRIES, ids=lambda e: e.id)
def test_replay_forwards_and_backwards_matches_the_recorded_states(entry: GameEntry, tmp_path: Path) -> None:
    case = _case(entry)
    game = registry.game(entry.id)
    start, steps = played(case)
    states = [start.state, *(s.after for s in steps)]
    recorded = [tuple(start.events), *(tuple(s.events) for s in steps)]
    path = tmp_path / f"finished{saves.SUFFIX}"
    store = Store(game=game, initial=start, actions=tuple(s.action for s in steps))
    saves.save(store, path, "finished1234")
    replay = Replay(saves.load(path).store, seat=0)
    assert replay.over and replay.state_id == 0 and replay.last_id == len(steps)
    seen = []
    replay.subscribe(lambda: seen.append(replay.state_id))
    for i in range(len(states)):  # forwards, one decision at a time
        if i:
            replay.redo()
        assert replay.state_id == i and replay.store.state == states[i], f"{case.id}: decision {i}"
        for seat in (0, SPECTATOR):
            assert replay.view(seat) == game.view_all(states[i], seat)
        assert replay.events(i - 1, 0).events == recorded[i]  # the log: what happened, nothing hidden
    with pytest.raises(ReplayOnly, match="end of the game"):
        replay.redo()
    assert replay.events(-1, 1).events == tuple(ev for evs in recorded for ev in evs)
    for i in range(len(states) - 2, -1, -1):  # backwards
        replay.undo(0)
        assert replay.state_id == i and replay.store.state == states[i], f"{case.id}: back to {i}"
        assert replay.view_at(i, 1) == game.view_all(states[i], 1)
    with pytest.raises(ReplayOnly, match="start of the game"):
        replay.undo(0)
    rnd = random.Random(case.seed)
    for target in rnd.sample(range(len(states)), min(8, len(states))):  # the timeline: anywhere
        replay.undo_to(target, seat=0)
        assert replay.store.state == states[target] and replay.view_at(target, 1) == game.view_all(states[target], 1)
    assert seen[: len(states) - 1] == list(range(1, len(states)))
    assert [t.state_id for t in replay.timeline(0)] == list(range(len(states)))
    with pytest.raises(ReplayOnly, match="nothing is decided"):
        replay.send(steps[0].action, seen_state_id=replay.state_id, seat=0)


@pytest.mark.parametrize("entry", registry.ENTRIES, ids=lambda e: e.id)
def test_a_game_not_over_is_replayed_as_its_seat_saw_it(entry: GameEntry) -> None:
    case = _case(entry)
    game = registry.game(entry.id)
    start, steps = played(case)
    half = len(steps) // 2
    replay = Replay(Store(game=game, initial=start, actions=tuple(s.action for s in steps[:half])), seat=1, cursor=half)
    assert not replay.over and replay.state_id == half
    assert replay.view(1) == game.view(steps[half - 1].after, 1)
    assert replay.events(-1, 1).events == tuple(replay.store.events_since(-1, 1))
