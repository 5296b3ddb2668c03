"""Everything a seat receives over the protocol during whole games (2-4 people, and a spectator)
holds neither the room's seed nor any state of its random generator (for the seats, the room's
creator and the spectator: nothing replays the hidden cards), and no card it may not know:
Nightmare Cathedral's checked with its game's independent account (``audit``); Nightmarium's (2
people and a computer player) with its own account below: a hand is its holder's alone, the deck
nobody's, and a card drawn is shown only to its drawer."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from nctui.games.nightmare_cathedral.audit import known, shown, words
from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.games.nightmare_cathedral.engine.views import SPECTATOR
from nctui.games.nightmarium.cards import all_cards
from nctui.games.nightmarium.state import HIDDEN, Drew, NightmariumConfig, NightmariumState
from nctui.platform import registry
from nctui.platform.net import protocol as P
from nctui.platform.net.rooms import Rooms
from tests.test_net_host import Client, events, run_host, view
from tests.test_secrecy import _strings

CONFIGS = [
    GameConfig(players=2, seats=("human", "human"), seed=41),
    GameConfig(players=3, seats=("human",) * 3, seed=42, length="variable"),
    GameConfig(players=4, seats=("human",) * 4, seed=43, divergent_paths=True),
]
NM = "nightmarium"

Chooser = Callable[[Any], Any]  # a view → the action its seat decides


def _nc_choice(rnd: random.Random) -> Chooser:
    return lambda v: rnd.choice(v.state.decision.options)


async def _play(c: Client, seat: int, game: str, over: Callable[[Any], bool], choose: Chooser | None) -> None:
    """Play ``seat`` (with ``choose``; None: watch) until the game is over."""
    while True:
        msg = await c.recv()
        if not isinstance(msg, P.Update):
            continue
        seen = view(msg, game)
        if over(seen):
            return
        if choose is not None and msg.deciding == seat:
            await c.send(P.act(choose(seen), msg.state_id))


async def _seated(path: Path, game: str, config: Any, people: int) -> tuple[list[Client], Client, str]:
    """``people`` clients at seats 0, 1, …, and a spectator, in a new room of ``config``."""
    clients = [await Client.connect(path, f"SHA256:p{i}") for i in range(people)]
    watcher = await Client.connect(path, "SHA256:w")
    await clients[0].send(P.create_room(config))
    room_id = (await clients[0].until(P.Rooms)).rooms[0].id
    for i, c in enumerate(clients):
        await c.send(P.JoinSeat(room=room_id, seat=i))
    await watcher.send(P.Watch(room=room_id))
    return clients, watcher, room_id


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p")
def test_no_seat_receives_a_card_it_may_not_know(tmp_path: Path, config: GameConfig) -> None:
    received: dict[int, list[P.HostMessage]] = {}

    async def body(path: Path, rooms: Rooms) -> None:
        clients, watcher, room_id = await _seated(path, "nightmare-cathedral", config, config.players)
        over = lambda v: v.state.outcome is not None  # noqa: E731
        await asyncio.gather(
            *(
                _play(c, i, "nightmare-cathedral", over, _nc_choice(random.Random(config.seed + i)))
                for i, c in enumerate(clients)
            ),
            _play(watcher, SPECTATOR, "nightmare-cathedral", over, None),
        )
        for i, c in enumerate([*clients, watcher]):
            received[i if i < len(clients) else SPECTATOR] = c.received
        store = rooms.get(room_id).session.store
        assert_nothing_replays_the_game(
            [*clients, watcher], store, rooms.get(room_id).config.seed, over, "nightmare-cathedral"
        )
        names = words(store.state)
        ids = frozenset(names)
        for seat, messages in received.items():
            mine = seat if seat != SPECTATOR else -99
            updates = [m for m in messages if isinstance(m, P.Update)]
            assert updates and view(updates[-1]).state.outcome is not None
            ever: set[str] = set()
            for up in updates:
                after = store.entry(up.state_id).state
                leaked = {x for x in _strings(view(up)) if x in ids} - known(after, mine)
                assert not leaked, f"seat {seat} at state {up.state_id} sees {sorted(leaked)}"
                free: set[str] = set()
                for k in range(max(up.since, 0), up.state_id + 1):
                    free |= known(store.entry(k).state, mine)
                    for e in store.entry(k).events:
                        free |= shown(e, mine)
                ever |= free
                for e in events(up):
                    leaked = {x for x in _strings(e) if x in ids} - free
                    assert not leaked, f"seat {seat}: {e.kind} shows {sorted(leaked)}"
                hidden = [names[c] for c in ids - ever if c in names]
                lines = [item.summary for item in up.timeline]
                assert not [n for n in hidden if any(n in line for line in lines)], f"seat {seat}: timeline"
        for c in [*clients, watcher]:
            c.close()

    run_host(tmp_path, body, first_seed=config.seed)


def assert_nothing_replays_the_game(
    clients: list[Client], store: Any, seed: int, over: Callable[[Any], bool], game: str
) -> None:
    """No byte any seat, the room's creator (``clients[0]``) or the spectator received while the
    game went on holds the room's seed or any state of its random generator: with those and the
    public decisions one could replay every hidden card."""
    secrets = {seed} | {store.entry(i).state.rng.state for i in range(store.last_id + 1)}
    patterns = [str(s).encode() for s in secrets if s >= 10**6]  # a long number: not there by chance
    assert patterns
    for c in clients:
        scanned = 0
        for msg, frame in zip(c.received, c.frames, strict=True):
            if isinstance(msg, P.Update) and over(view(msg, game)):
                continue  # after the game the seed may be shown
            scanned += 1
            found = [p for p in patterns if p in frame]
            assert not found, f"a {msg.__struct_config__.tag} message carries a replay key"
        assert scanned > 5


def nightmarium_known(state: NightmariumState, seat: int) -> set[str]:
    """The cards ``seat`` may know where they are: its own hand, and every card face up (the
    Creatures, the discard pile, the Herald's revealed cards)."""
    out = set(state.discard) | set(state.revealed)
    for i, p in enumerate(state.players):
        out.update(c for creature in p.creatures for c in creature.cards)
        if i == seat:
            out.update(p.hand)
    return out


def test_a_nightmarium_seat_receives_its_own_hand_only(tmp_path: Path) -> None:
    """Two people (each deciding as the planner would, from their view only) and a computer
    player, and a spectator: each person's views show their own hand, every other hand and the
    deck as hidden cards; a drawn card reaches its drawer only; nothing else names a card that
    is not face up."""
    config = NightmariumConfig(seats=("human", "human", "bot"), levels=("planner",) * 3, seed=7)
    simulated = registry.simulated(NM)
    ids = set(all_cards())

    async def body(path: Path, rooms: Rooms) -> None:
        clients, watcher, room_id = await _seated(path, NM, config, 2)
        over = lambda v: v.winner is not None  # noqa: E731
        await asyncio.gather(
            *(_play(c, i, NM, over, simulated.computer(config, i, "planner").choose) for i, c in enumerate(clients)),
            _play(watcher, SPECTATOR, NM, over, None),
        )
        store = rooms.get(room_id).session.store
        assert store.state.winner is not None
        assert_nothing_replays_the_game([*clients, watcher], store, rooms.get(room_id).config.seed, over, NM)
        for seat, c in [*enumerate(clients), (SPECTATOR, watcher)]:
            updates = [m for m in c.received if isinstance(m, P.Update)]
            assert len(updates) > 10
            for up in updates:
                truth, seen = store.entry(up.state_id).state, view(up, NM)
                for i, (real, theirs) in enumerate(zip(truth.players, seen.players)):
                    if i == seat:
                        assert theirs.hand == real.hand
                    else:
                        assert theirs.hand == (HIDDEN,) * len(real.hand), f"seat {seat} sees the hand of {i}"
                assert set(seen.deck) <= {HIDDEN}
                leaked = {x for x in _strings(seen) if x in ids} - nightmarium_known(truth, seat)
                assert not leaked, f"seat {seat} at state {up.state_id} sees {sorted(leaked)}"
                for e in events(up, NM):
                    if isinstance(e, Drew) and e.seat != seat:
                        assert e.cards == (), f"seat {seat} sees what seat {e.seat} drew"
        for c in [*clients, watcher]:
            c.close()

    run_host(tmp_path, body)
