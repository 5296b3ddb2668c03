"""Every Struct of the engine, the content schema and the platform's RNG is frozen and holds no list,
dict or set."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import typing

import msgspec
import pytest

import nctui.games.nightmare_cathedral.content
import nctui.games.nightmare_cathedral.engine
import nctui.platform.rng

FORBIDDEN = (list, dict, set)


def _structs() -> list[type]:
    found: dict[str, type] = {}
    modules = [nctui.platform.rng]
    for pkg in (nctui.games.nightmare_cathedral.engine, nctui.games.nightmare_cathedral.content):
        modules += [importlib.import_module(m.name) for m in pkgutil.iter_modules(pkg.__path__, pkg.__name__ + ".")]
    for module in modules:
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, msgspec.Struct) and obj.__module__ == module.__name__:
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return list(found.values())


def _bad_types(tp: object) -> list[object]:
    origin = typing.get_origin(tp) or tp
    if origin in FORBIDDEN or tp in FORBIDDEN:
        return [tp]
    return [bad for arg in typing.get_args(tp) for bad in _bad_types(arg)]


STRUCTS = _structs()


def test_the_walker_finds_the_state():
    names = {s.__name__ for s in STRUCTS}
    assert {"GameState", "AreaState", "PlayerState", "Decks", "Decision", "Board", "DevelopmentCard"} <= names


@pytest.mark.parametrize("struct", STRUCTS, ids=lambda s: s.__qualname__)
def test_struct_is_frozen_and_holds_no_mutable_container(struct):
    assert struct.__struct_config__.frozen, f"{struct.__qualname__} is not frozen"
    hints = typing.get_type_hints(struct, include_extras=False)
    for field in struct.__struct_fields__:
        assert not _bad_types(hints[field]), f"{struct.__qualname__}.{field}: {hints[field]}"


def test_the_walker_catches_a_list_field():
    class Bad(msgspec.Struct, frozen=True):
        items: list[int]

    assert _bad_types(typing.get_type_hints(Bad)["items"])


# The Structs a game makes by the hundred thousand (a planner's look ahead): the state and its
# parts, the work, actions and events. Frozen and holding no mutable container, they cannot be part
# of a reference cycle, so the garbage collector need not track them (``gc=False``: fewer objects
# for each collection to walk).
UNTRACKED_MODULES = ("state", "work", "actions", "events", "king_state", "rng", "config")


@pytest.mark.parametrize(
    "struct",
    [
        s
        for s in STRUCTS
        if s.__module__.rsplit(".", 1)[-1] in UNTRACKED_MODULES
        and s.__module__.startswith(("nctui.games.nightmare_cathedral.engine.", "nctui.platform."))
    ],
    ids=lambda s: s.__qualname__,
)
def test_the_states_structs_are_not_tracked_by_the_garbage_collector(struct):
    assert struct.__struct_config__.gc is False, f"{struct.__qualname__} is tracked by the garbage collector"


def test_a_game_state_is_not_tracked_by_the_garbage_collector():
    import gc

    from nctui.games.nightmare_cathedral.engine.config import GameConfig
    from nctui.games.nightmare_cathedral.engine.flow import new_game

    state = new_game(GameConfig(players=2, seed=1)).state
    assert not gc.is_tracked(state) and not gc.is_tracked(state.areas[0]) and not gc.is_tracked(state.players[0])
