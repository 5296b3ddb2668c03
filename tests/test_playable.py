"""A starting position read from a file is checked before play (``engine.playable``): every
reachable position passes; a position with pieces not conserved, an id the content does not know,
a seat or place out of range, or a number too large for the digest is refused in words."""

from __future__ import annotations

from pathlib import Path

import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.engine import playable
from nctui.games.nightmare_cathedral.engine.config import GameConfig
from nctui.games.nightmare_cathedral.engine.state import GameState
from nctui.games.nightmare_cathedral.scenarios import load_scenario
from nctui.platform import registry
from nctui.platform.store import Store
from tests.helpers import store_moves

NIGHTMARE_CATHEDRAL = registry.game("nightmare-cathedral")

SAVES = Path(__file__).resolve().parent.parent / "nctui" / "games" / "nightmare_cathedral" / "practice" / "positions"


@pytest.mark.parametrize(
    "config",
    [
        GameConfig(players=2, seats=("bot", "bot"), seed=11),
        GameConfig(players=4, seats=("bot",) * 4, seed=12),
        GameConfig(players=3, seats=("bot",) * 3, seed=13, length="variable", divergent_paths=True),
        GameConfig(players=1, seats=("bot", "king"), seed=14, difficulty=("harder_climb",)),
    ],
    ids=["2p", "4p", "3p-variable-divergent", "solo"],
)
def test_every_position_of_a_game_is_playable(config: GameConfig):
    store = Store(config)
    checked = 0
    while True:
        if store.state_id % 7 == 0 or store.state.outcome is not None:
            assert NIGHTMARE_CATHEDRAL.check_start(store.state) == [], store.state_id
            checked += 1
        if store.state.outcome is not None:
            break
        store_moves(store, 1, seed=config.seed)
    assert checked > 10


@pytest.mark.parametrize("path", sorted(SAVES.glob("*.toml")), ids=lambda p: p.name)
def test_the_example_scenarios_are_playable(path: Path):
    assert NIGHTMARE_CATHEDRAL.check_start(load_scenario(path)) == []


def _position() -> GameState:
    return load_scenario(SAVES / "crowded-centre-3p.toml")


def _player(state: GameState, seat: int, **changes) -> GameState:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


BROKEN = {
    "999 Followers": (lambda s: _player(s, 0, supply=999), "seat 0: Followers not conserved"),
    "unknown card in a hand": (
        lambda s: _player(s, 1, hand=(*s.players[1].hand, "d9-no-such-card")),
        "an unknown Development card (seat 1): 'd9-no-such-card'",
    ),
    "unknown card instead of one": (
        lambda s: _player(s, 1, hand=(*s.players[1].hand[:-1], "nope")),
        "an unknown Development card (seat 1): 'nope'",
    ),
    "unknown Dream": (lambda s: _player(s, 0, dreams=("dr1-nope",)), "an unknown Dream card (seat 0)"),
    "unknown card in a deck": (
        lambda s: replace(s, decks=replace(s.decks, conflict=("c1-nope",))),
        "an unknown Conflict card: 'c1-nope'",
    ),
    "unknown Action card": (
        lambda s: _player(s, 0, display=(("start-nope",), *s.players[0].display[1:])),
        "an unknown Action card (seat 0)",
    ),
    "Shaper nowhere": (lambda s: _player(s, 2, shaper="atlantis"), "seat 2: the Shaper is in no area in play"),
    "Dreamer nowhere": (lambda s: _player(s, 0, dreamer="moon"), "seat 0: the Dreamer is on no space"),
    "unknown area": (
        lambda s: replace(s, areas=(replace(s.areas[0], id="atlantis"), *s.areas[1:])),
        "areas that are not those in play: ['atlantis']",
    ),
    "area for another seat count": (
        lambda s: replace(s, areas=(replace(s.areas[0], followers=(0, 0)), *s.areas[1:])),
        "an area that does not count Followers for its 3 seats",
    ),
    "Fort of no seat": (
        lambda s: replace(s, areas=(replace(s.areas[0], fort_owner=7, fort_levels=1), *s.areas[1:])),
        "the Fort's owner is no seat",
    ),
    "unknown Nightmare": (lambda s: replace(s, nightmares=(3, 99)), "Nightmares (3, 99)"),
    "active player out of range": (lambda s: replace(s, active=5), "active player 5 is no seat"),
    "off the Time track": (lambda s: replace(s, time=40), "off the Time track"),
    "a seat missing": (lambda s: replace(s, players=s.players[:2]), "players that are not its 3 seats"),
    "another pack": (lambda s: replace(s, pack="other"), "its content pack 'other'"),
    "a number too large": (lambda s: _player(s, 0, turns=2**70), "a number is out of range"),
    "a King in a game for 3": (lambda s: replace(s, king=load_solo_king()), "a King of Horrors in a game"),
}


def load_solo_king():
    store = Store(GameConfig(players=1, seats=("bot", "king"), seed=3))
    while store.state.king is None:
        store_moves(store, 1)
    return store.state.king


@pytest.mark.parametrize("kind", list(BROKEN))
def test_a_broken_position_is_refused_in_words(kind: str):
    spoil, words = BROKEN[kind]
    wrong = playable.problems(spoil(_position()))
    assert wrong and any(words in w for w in wrong), wrong
    assert NIGHTMARE_CATHEDRAL.check_start(spoil(_position())) == wrong
