"""Every game over the host: a whole game of Nightmarium (two people and a computer player)
played through ``RemoteGame`` in this process, each person seeing what a local game would show
their seat; and no message a client receives carries a room's seed (the host keeps it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.games.nightmarium.state import NightmariumConfig
from nctui.platform import registry
from nctui.platform.game import SPECTATOR
from nctui.platform.net import protocol as P
from nctui.platform.net.rooms import Rooms
from tests.helpers import present
from tests.test_net_host import Client, run_host
from tests.test_net_lobby import ANN, BOB, CY, HostThread, Person, wait_for


@pytest.fixture
def host(tmp_path: Path) -> Iterator[HostThread]:
    yield from HostThread.running(tmp_path)


def test_a_whole_game_of_nightmarium_through_remote_games(host: HostThread) -> None:
    """Ann and Bob each decide as the planner would from what their RemoteGame shows them (its
    view and facts, worked out on their side), a computer plays the third seat on the host, Cy
    watches; at the end each one's story (events, timeline) is the host's for that seat."""
    config = NightmariumConfig(seats=("human", "human", "bot"), levels=("planner",) * 3, seed=3)
    room = host.rooms.create(config, identity=ANN, name="creatures")
    ann, bob, cy = Person(host.path, ANN, "Ann"), Person(host.path, BOB, "Bob"), Person(host.path, CY, "Cy")
    games = [ann.sit(room.id, 0), bob.sit(room.id, 1)]
    cy.link.send(P.Watch(room=room.id))
    watching = wait_for(lambda: cy.link.game, "Cy's first update")
    nightmarium = registry.game("nightmarium")
    players = [registry.simulated("nightmarium").computer(config, seat, "planner") for seat in (0, 1)]
    session = room.session
    decisions = 0
    while session.store.state.winner is None:
        now = session.state_id
        seat = session.deciding_seat()
        if seat in (0, 1):
            game = games[seat]
            wait_for(lambda g=game, n=now, s=seat: g.state_id == n and g.deciding_seat() == s, "the update")
            view = game.view(seat)
            assert game.facts(seat).options == nightmarium.facts(view).options  # worked out client-side
            assert game.facts(seat).options == nightmarium.options(session.store.state)
            game.send(players[seat].choose(view), seen_state_id=now, seat=seat)
            decisions += 1
        wait_for(lambda n=now: session.state_id > n or session.store.state.winner is not None, "the next state")
        assert decisions < 2000, "the game does not end"
    end = session.state_id
    for seat, game in ((0, games[0]), (1, games[1]), (SPECTATOR, watching)):
        wait_for(lambda g=game: g.state_id == end, "the last update")
        assert game.view(seat) == session.view(seat) and game.view(seat).winner is not None
        assert game.events(-1, seat) == session.events(-1, seat)
        assert [(t.state_id, t.seat, t.summary) for t in game.timeline(seat)] == list(session.timeline(seat))
        assert game.deciding_seat() is None
    assert decisions > 10
    assert not [n for p in (ann, bob, cy) for n in p.news if n is None or isinstance(n, P.Refused | P.Bye)]
    for p in (ann, bob, cy):
        p.link.close()


SEED = 0xB60B1EB6  # the first seed the host draws in this test: bytes no message should hold


def seed_patterns(seed: int) -> list[bytes]:
    """How a message would hold ``seed`` (the protocol is JSON: its digits)."""
    return [str(seed).encode()]


def _people(game_id: str) -> Any:
    """A configuration of ``game_id`` with a person at every seat of its fewest (at least two)."""
    entry = registry.entry(game_id)
    bots = registry.simulated(game_id).computer_game(1, entry.levels[:1] * max(2, entry.players[0]))
    return msgspec.structs.replace(bots, seats=tuple("human" for _ in registry.game(game_id).seats(bots)))


def test_no_message_a_client_receives_carries_the_seed(tmp_path: Path) -> None:
    """A room of each game, played a few decisions by two people with a third watching: the
    creator's request has no seed (0), the host draws one and keeps it; no message any of them
    receives (the lobby's rooms, the join, every update) holds it."""

    async def body(path: Path, rooms: Rooms) -> None:
        ann, bob, cy = [await Client.connect(path, who) for who in (ANN, BOB, CY)]
        scanned: list[bytes] = []
        for game_id in registry.GAME_IDS:
            request = P.create_room(_people(game_id), name=game_id)
            assert P.payloads(game_id).config(request.config).seed == 0  # the request carries none
            await ann.send(request)
            info = next(r for r in (await ann.until(P.Rooms)).rooms if r.name == game_id)
            room = rooms.get(info.id)
            for seat, who in enumerate((ann, bob)):
                await who.send(P.JoinSeat(room=room.id, seat=seat))
            await cy.send(P.Watch(room=room.id))
            joined = await cy.until(P.Joined)
            assert P.payloads(game_id).config(joined.config) == room.game.with_seed(room.config, 0)
            s = room.session
            for _ in range(8):  # each person takes the first option when theirs is due
                now, seat = s.state_id, present(s.deciding_seat())
                assert seat in (0, 1)
                await (ann, bob)[seat].send(P.act(room.game.options(s.store.state)[0], now))
                for who in (ann, bob, cy):
                    await who.until(P.Update, lambda m, n=now: m.state_id > n)
            # a game going on: nothing is public yet
            assert registry.simulated(room.game.id).winners(s.store.state) is None
            for who in (ann, bob, cy):
                await who.send(P.Leave())
                await who.until(P.Rooms)
                frames = [(m, f) for m, f in zip(who.received, who.frames)]
                scanned += [f for m, f in frames]
                who.received.clear()
                who.frames.clear()
        drawn = [r.config.seed for r in rooms.rooms.values()]
        assert sorted(drawn) == list(range(SEED, SEED + len(registry.GAME_IDS)))  # the host's, kept there
        patterns = [p for seed in drawn for p in seed_patterns(seed)]
        assert len(scanned) > 40
        assert not [f for f in scanned if any(p in f for p in patterns)], "a message told a room's seed"
        for c in (ann, bob, cy):
            c.close()

    run_host(tmp_path, body, first_seed=SEED)


def test_the_scan_would_find_the_seed() -> None:
    """The scan above looks for what would be there: the seed as the protocol writes it in a
    configuration."""
    assert any(p in msgspec.json.encode(GameConfig(seed=SEED)) for p in seed_patterns(SEED))


def test_the_views_a_remote_game_keeps_share_what_did_not_change() -> None:
    """Each view decoded from the host's message is kept (``view_at``) with every part equal to
    the newest kept view's taken from that view: equal to what was decoded, a fraction of the
    memory (a Nightmare Cathedral view is ~18 KiB decoded, most of it the same as the last)."""
    import itertools
    import random
    import tracemalloc

    from nctui.platform.net.client import shared

    game = registry.game("nightmare-cathedral")
    payloads = P.payloads("nightmare-cathedral")
    state, rng = game.new(GameConfig(players=2, seed=5)).state, random.Random(5)
    messages = []
    for _ in range(40):
        messages.append(msgspec.json.encode(game.view(state, 0)))
        state = game.step(state, rng.choice(game.options(state))).state
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        alone = [payloads.view(m) for m in messages]
        each = tracemalloc.get_traced_memory()[0] - start
        kept: list[Any] = []
        start = tracemalloc.get_traced_memory()[0]
        for m in messages:
            view = payloads.view(m)
            kept.append(shared(view, kept[-1]) if kept else view)
        together = tracemalloc.get_traced_memory()[0] - start - each  # the decoded ones still held
    finally:
        tracemalloc.stop()
    assert kept == alone  # the same views
    fields = kept[0].state.__struct_fields__
    for before, now in itertools.pairwise(kept):  # each part the same as before is the one before
        for name in fields:
            part, earlier = getattr(now.state, name), getattr(before.state, name)
            assert part is earlier or part != earlier, name
    assert together < each / 3, (together, each)
    assert shared((1, (2, 3)), (1, (2, 4)))[1][0] == 2 and shared(alone[0], alone[0]) is alone[0]
