"""Every game of the seeds this nctui plays, named once: the one list saves, the command line, the
title screen, the lobby, the server and the tests read. A game is one package under
``nctui.games`` and one ``GameEntry`` here; nothing else names it (no registration by import side
effect).

An entry is data: where the game's ``Game``, its screens and its New game screen are (as
"module:name" references, imported the first time they are asked for: starting one game does not
pay for the others), and its capabilities (computer player levels, hints, scenario files,
practice positions, a tutorial, a rules summary). Code asks the entry what a game can do; it
never probes the game object with ``getattr``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, cast

import msgspec

from .game import Advisor, Game, Positions, Simulated

AnyGame = Game[Any, Any, Any, Any]


class GameEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One game: who it is, where its parts are, and what it can do."""

    id: str  # in saves and on the wire: never changes
    title: str
    key: str  # its letter on the title screen
    blurb: str  # its line on the title screen, after the title
    package: str  # every module of the game is in it (the layer test reads it)
    game: str  # "module:Class" of its ``Game`` (which also implements ``Simulated``)
    screen: str  # "module:callable": the screen that plays one of its games, given a ``GameClient``
    new_game: str  # "module:callable": its New game screen, given a ``NewGameMode`` (see ``ui``)
    players: tuple[int, int]  # the fewest and most seats
    levels: tuple[str, ...]  # its computer players, weakest first (``nctui simulate --levels``)
    hints: bool = False  # the game is an ``Advisor`` (h: a hint in practice games)
    scenarios: bool = False  # the game is ``Positions``: a position saved as a file and played again
    practice: str = ""  # "module:callable" -> its bundled practice positions, or "" for none
    tutorial: str = ""  # "module:callable" -> the guided first game's screen, or "" for none
    rules: str = ""  # "package:file" of its rules summary (the Rules screen), or "" for none
    audit: str = ""  # "module": the independent account of what each seat may know (the contract test)


NC = "nctui.games.nightmare_cathedral"

ENTRIES: tuple[GameEntry, ...] = (
    GameEntry(
        id="nightmare-cathedral",
        title="Nightmare Cathedral",
        key="n",
        blurb="the board game, 2-4 players or solo",
        package=NC,
        game=f"{NC}.game:NightmareCathedral",
        screen=f"{NC}.ui.screens.game:GameScreen",
        new_game=f"{NC}.ui.screens.new_game:new_game_screen",
        players=(1, 4),
        levels=("random", "greedy", "planner", "expert"),
        hints=True,
        scenarios=True,
        practice=f"{NC}.practice:positions",
        tutorial=f"{NC}.ui.screens.tutorial:tutorial",
        rules=f"{NC}.ui:rules_summary.toml",
        audit=f"{NC}.audit",
    ),
    GameEntry(
        id="cathedral",
        title="Cathedral",
        key="a",
        blurb="the city game for two",
        package="nctui.games.cathedral",
        game="nctui.games.cathedral.game:Cathedral",
        screen="nctui.games.cathedral.ui.screen:CathedralScreen",
        new_game="nctui.games.cathedral.ui.new_game:new_game_screen",
        players=(2, 2),
        levels=("random", "greedy", "strong"),
        rules="nctui.games.cathedral.ui:rules_summary.toml",
        audit="nctui.games.cathedral.audit",
    ),
    GameEntry(
        id="nightmarium",
        title="Nightmarium",
        key="m",
        blurb="the card game of Night Terrors, 2-5 players",
        package="nctui.games.nightmarium",
        game="nctui.games.nightmarium.game:Nightmarium",
        screen="nctui.games.nightmarium.ui.screen:NightmariumScreen",
        new_game="nctui.games.nightmarium.ui.new_game:new_game_screen",
        players=(2, 5),
        levels=("random", "greedy", "planner"),
        rules="nctui.games.nightmarium.ui:rules_summary.toml",
        audit="nctui.games.nightmarium.audit",
    ),
    GameEntry(
        id="dreamers",
        title="Dreamers and Nightmares",
        key="d",
        blurb="the dice game, 2-4 players",
        package="nctui.games.dreamers",
        game="nctui.games.dreamers.game:Dreamers",
        screen="nctui.games.dreamers.ui.screen:DreamersScreen",
        new_game="nctui.games.dreamers.ui.new_game:new_game_screen",
        players=(2, 4),
        levels=("random", "gambler"),
        rules="nctui.games.dreamers.ui:rules_summary.toml",
        audit="nctui.games.dreamers.audit",
    ),
)

GAME_IDS: tuple[str, ...] = tuple(e.id for e in ENTRIES)
_BY_ID = {e.id: e for e in ENTRIES}
_made: dict[str, AnyGame] = {}


def load(reference: str) -> Any:
    """What a "module:name" reference names (the module imported if it was not)."""
    module, _, name = reference.partition(":")
    return getattr(import_module(module), name)


def entry(game_id: str) -> GameEntry:
    """The entry of the game with this id; ``KeyError`` for one this version does not have."""
    return _BY_ID[game_id]


def entry_named(game_id: str) -> GameEntry | None:
    return _BY_ID.get(game_id)


def game_named(game_id: str) -> AnyGame | None:
    """The game with this id, or None (a save of a game this version does not have)."""
    made = _made.get(game_id)
    if made is None and game_id in _BY_ID:
        made = _made[game_id] = load(_BY_ID[game_id].game)()
    return made


def game(game_id: str) -> AnyGame:
    """The game with this id, which this version has."""
    found = game_named(game_id)
    if found is None:
        raise KeyError(game_id)
    return found


def entry_of_module(module: str) -> GameEntry | None:
    """The game whose package holds ``module`` (a type's ``__module__``), or None."""
    return next((e for e in ENTRIES if module == e.package or module.startswith(e.package + ".")), None)


def game_of(value: object) -> AnyGame:
    """The game a configuration or a state is of (by the package its type is defined in)."""
    found = entry_of_module(type(value).__module__)
    if found is None:
        raise TypeError(f"{type(value).__name__} is of no registered game")
    return game(found.id)


# -- capabilities: the entry says which the game has; these give it typed ----------------------


def simulated(game_id: str) -> Simulated:
    """Every game can be played headless between computer players."""
    return cast(Simulated, game(game_id))


def advisor(game_id: str) -> Advisor | None:
    """The game's hints, when its entry says it has them."""
    return cast(Advisor, game(game_id)) if entry(game_id).hints else None


def positions(game_id: str) -> Positions | None:
    """The game's scenario files, when its entry says it has them."""
    return cast(Positions, game(game_id)) if entry(game_id).scenarios else None
