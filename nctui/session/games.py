"""Every game of the seeds this nctui plays, by id: the one list saves, the title screen, the
command line and the server read. Each game is named here explicitly (no registration by import
side effect)."""

from __future__ import annotations

from typing import Any

from ..companions.cathedral.game import Cathedral
from ..companions.dreamers.game import Dreamers
from ..companions.nightmarium.game import Nightmarium
from .nightmare_cathedral import NightmareCathedral
from .protocol import Game

AnyGame = Game[Any, Any, Any, Any]

NIGHTMARE_CATHEDRAL: AnyGame = NightmareCathedral()
CATHEDRAL: AnyGame = Cathedral()
NIGHTMARIUM: AnyGame = Nightmarium()
DREAMERS: AnyGame = Dreamers()

GAMES: dict[str, AnyGame] = {g.id: g for g in (NIGHTMARE_CATHEDRAL, CATHEDRAL, NIGHTMARIUM, DREAMERS)}


def game_named(game_id: str) -> AnyGame | None:
    """The game with this id, or None (a save of a game this version does not have)."""
    return GAMES.get(game_id)
