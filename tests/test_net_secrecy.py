"""Everything a seat receives over the protocol during whole games (2-4 people, and a spectator)
holds no card it may not know, checked with the game's independent account (``audit``)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from nctui.games.nightmare_cathedral.audit import known, shown, words
from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.games.nightmare_cathedral.engine.views import SPECTATOR
from nctui.platform.net import protocol as P
from nctui.platform.net.rooms import Rooms
from tests.test_net_host import Client, run_host
from tests.test_secrecy import _strings

CONFIGS = [
    GameConfig(players=2, seats=("human", "human"), seed=41),
    GameConfig(players=3, seats=("human",) * 3, seed=42, length="variable"),
    GameConfig(players=4, seats=("human",) * 4, seed=43, divergent_paths=True),
]


async def _play(c: Client, seat: int, rnd: random.Random) -> None:
    while True:
        msg = await c.recv()
        if not isinstance(msg, P.Update):
            continue
        if msg.view.state.outcome is not None:
            return
        if msg.deciding == seat and msg.view.state.decision is not None:
            await c.send(P.Act(action=rnd.choice(msg.view.state.decision.options), seen_state_id=msg.state_id))


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p")
def test_no_seat_receives_a_card_it_may_not_know(tmp_path: Path, config: GameConfig) -> None:
    received: dict[int, list[P.HostMessage]] = {}
    room_id = ""

    async def body(path: Path, rooms: Rooms) -> None:
        nonlocal room_id
        clients = [await Client.connect(path, f"SHA256:p{i}") for i in range(config.players)]
        watcher = await Client.connect(path, "SHA256:w")
        await clients[0].send(P.CreateRoom(config=config))
        room_id = (await clients[0].until(P.Rooms)).rooms[0].id
        for i, c in enumerate(clients):
            await c.send(P.JoinSeat(room=room_id, seat=i))
        await watcher.send(P.Watch(room=room_id))
        await asyncio.gather(
            *(_play(c, i, random.Random(config.seed + i)) for i, c in enumerate(clients)),
            _play(watcher, SPECTATOR, random.Random(0)),
        )
        for i, c in enumerate([*clients, watcher]):
            received[i if i < len(clients) else SPECTATOR] = c.received
        store = rooms.get(room_id).session.store
        names = words(store.state)
        ids = frozenset(names)
        for seat, messages in received.items():
            mine = seat if seat != SPECTATOR else -99
            updates = [m for m in messages if isinstance(m, P.Update)]
            assert updates and updates[-1].view.state.outcome is not None
            ever: set[str] = set()
            for up in updates:
                after = store.entry(up.state_id).state
                leaked = {x for x in _strings(up.view) if x in ids} - known(after, mine)
                assert not leaked, f"seat {seat} at state {up.state_id} sees {sorted(leaked)}"
                free: set[str] = set()
                for k in range(max(up.since, 0), up.state_id + 1):
                    free |= known(store.entry(k).state, mine)
                    for e in store.entry(k).events:
                        free |= shown(e, mine)
                ever |= free
                for e in up.events:
                    leaked = {x for x in _strings(e) if x in ids} - free
                    assert not leaked, f"seat {seat}: {e.kind} shows {sorted(leaked)}"
                hidden = [names[c] for c in ids - ever if c in names]
                lines = [item.summary for item in up.timeline]
                assert not [n for n in hidden if any(n in line for line in lines)], f"seat {seat}: timeline"
        for c in [*clients, watcher]:
            c.close()

    run_host(tmp_path, body)
