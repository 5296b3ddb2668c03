"""Every game of the seeds this nctui plays, by id: the one list saves, the title screen, the
command line and the server read. Each game is named here explicitly (no registration by import
side effect).

A companion game's rules are imported the first time it is asked for: starting Nightmare
Cathedral (the first frame of ``nctui play``) does not pay for the three others."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from nctui.games.nightmare_cathedral.game import NightmareCathedral

from .game import Game

AnyGame = Game[Any, Any, Any, Any]

NIGHTMARE_CATHEDRAL: AnyGame = NightmareCathedral()

# id -> (module, class) of each companion game
_COMPANIONS = {
    "cathedral": ("nctui.games.cathedral.game", "Cathedral"),
    "nightmarium": ("nctui.games.nightmarium.game", "Nightmarium"),
    "dreamers": ("nctui.games.dreamers.game", "Dreamers"),
}
GAME_IDS: tuple[str, ...] = (NIGHTMARE_CATHEDRAL.id, *_COMPANIONS)
COMPANION_IDS: tuple[str, ...] = tuple(_COMPANIONS)
_made: dict[str, AnyGame] = {NIGHTMARE_CATHEDRAL.id: NIGHTMARE_CATHEDRAL}


def game_named(game_id: str) -> AnyGame | None:
    """The game with this id, or None (a save of a game this version does not have)."""
    game = _made.get(game_id)
    if game is None and game_id in _COMPANIONS:
        module, name = _COMPANIONS[game_id]
        game = _made[game_id] = getattr(import_module(module), name)()
    return game


def game(game_id: str) -> AnyGame:
    """The game with this id, which this version has."""
    found = game_named(game_id)
    if found is None:
        raise KeyError(game_id)
    return found


def companions() -> tuple[AnyGame, ...]:
    """The three companion games."""
    return tuple(game(g) for g in COMPANION_IDS)


_CONSTANTS = {"CATHEDRAL": "cathedral", "NIGHTMARIUM": "nightmarium", "DREAMERS": "dreamers"}

if TYPE_CHECKING:
    CATHEDRAL: AnyGame
    NIGHTMARIUM: AnyGame
    DREAMERS: AnyGame
else:

    def __getattr__(name: str) -> AnyGame:
        """``CATHEDRAL``, ``NIGHTMARIUM``, ``DREAMERS``: each companion game, imported when named."""
        if name in _CONSTANTS:
            return game(_CONSTANTS[name])
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
