"""The complete form of a scenario: the whole GameState as a ``[state]`` table of TOML.

The shorthand tables of a scenario (``nctui.games.nightmare_cathedral.scenarios``) cover the common parts of a position;
``[state]`` covers everything else, typed by the engine's own Structs (msgspec validates every
field). It is used two ways:

- **exact** (a ``[state]`` table and no shorthand table): the file is the whole position, every
  field left out takes the engine's default. Saving a position from a game (``x``) writes this.
- **overlay** (``[state]`` beside the shorthand tables): each top-level field given replaces the
  one the shorthand built, e.g. ``stage = 2``, ``nightmare_at``, ``end_triggered``, ``[state.king]``
  or a ``[state.work]`` step being resolved.

Either way the decision due is derived from the step being resolved (as ``flow.resolve`` does),
so a file never needs to list the options, and the position is checked with
``engine.playable.problems`` before it is played.

TOML has no null and the standard library cannot write it: ``to_toml`` writes the small subset
used here (tables, arrays of tables, inline values), omitting every field equal to its default.
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec
from msgspec.structs import replace

from .engine import flow, limbo, playable
from .engine.events import Event
from .engine.state import GameState

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


# ----------------------------------------------------------------------------------------------
# Reading


def state_from_table(table: dict[str, Any], base: GameState | None = None) -> tuple[GameState, list[Event]]:
    """The GameState of a ``[state]`` table: the whole of it (``base`` None) or ``base`` with the
    top-level fields given replaced. Raises ``msgspec.ValidationError`` (the field named) or
    ``ValueError`` (the position cannot be played, in words)."""
    if base is None:
        state = msgspec.convert(table, type=GameState)
    else:
        whole = msgspec.to_builtins(base)
        whole.update(table)
        state = msgspec.convert(whole, type=GameState)
    unknown = _unknown(table, msgspec.to_builtins(state), "")
    if unknown:
        # msgspec ignores unknown fields of the state's Structs; in a file they are typos.
        raise msgspec.ValidationError(f"Object contains unknown field `{unknown[1]}` - at `${unknown[0]}`")
    if "decision" in table:
        raise ValueError(
            "the decision due is derived from the step being resolved ([state.work]): leave [state.decision] out"
        )
    events: list[Event] = []
    state = derive_decision(state, events)
    wrong = playable.problems(state)
    if wrong:
        raise ValueError("; ".join(wrong[:3]) + (f" (and {len(wrong) - 3} more)" if len(wrong) > 3 else ""))
    return state, events


def _unknown(given: Any, known: Any, path: str) -> tuple[str, str] | None:
    """The first (path, key) of ``given`` that the decoded state has no field for."""
    if isinstance(given, dict) and isinstance(known, dict):
        for key, value in given.items():
            if key not in known:
                return path, key
            found = _unknown(value, known[key], f"{path}.{key}")
            if found:
                return found
    elif isinstance(given, list) and isinstance(known, list):
        for i, (value, k) in enumerate(zip(given, known)):
            found = _unknown(value, k, f"{path}[{i}]")
            if found:
                return found
    return None


def derive_decision(state: GameState, events: list[Event]) -> GameState:
    """The decision due, as the engine asks it: from the step being resolved, after resolving
    the automatic steps left (a position whose game is over asks nothing)."""
    if state.outcome is not None or (state.work is None and not state.frames):
        return replace(state, decision=None)
    try:
        state = flow.resolve(replace(state, decision=None), events)
    except Exception as exc:  # a hand-written step the engine cannot resolve
        raise ValueError(f"its steps being resolved cannot go on ({type(exc).__name__}: {exc})") from exc
    return limbo.offer(state)


# ----------------------------------------------------------------------------------------------
# Writing


def state_table(state: GameState) -> dict[str, Any]:
    """The ``[state]`` table of a position: every field but the derived decision, defaults left out."""
    table = _builtins(replace(state, decision=None))
    assert isinstance(table, dict)
    return table


def _builtins(value: Any) -> Any:
    """Like ``msgspec.to_builtins``, leaving out the fields of a Struct equal to their default."""
    if isinstance(value, msgspec.Struct):
        out: dict[str, Any] = {}
        config = value.__struct_config__
        if config.tag_field is not None:
            out[config.tag_field] = config.tag
        for field in msgspec.structs.fields(value):
            v = getattr(value, field.name)
            if field.default is not msgspec.NODEFAULT and v == field.default:
                continue
            if field.default_factory is not msgspec.NODEFAULT and v == field.default_factory():
                continue
            out[field.encode_name] = _builtins(v)
        return out
    if isinstance(value, (frozenset, set)):
        return sorted(_builtins(v) for v in value)
    if isinstance(value, (tuple, list)):
        return [_builtins(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _builtins(v) for k, v in value.items()}
    return value


def to_toml(doc: dict[str, Any]) -> str:
    """TOML text of ``doc`` (dicts, lists, str, int, float, bool; no None): tables and arrays of
    tables for the dicts, inline values for the rest."""
    lines: list[str] = []
    _table(doc, [], lines)
    return "\n".join(lines).strip() + "\n"


def _is_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _table(table: dict[str, Any], path: list[str], lines: list[str]) -> None:
    for key, value in table.items():
        if not isinstance(value, dict) and not _is_tables(value):
            lines.append(f"{_key(key)} = {_inline(value)}")
    for key, value in table.items():
        if isinstance(value, dict):
            lines += ["", f"[{'.'.join(map(_key, [*path, key]))}]"]
            _table(value, [*path, key], lines)
        elif _is_tables(value):
            for item in value:
                lines += ["", f"[[{'.'.join(map(_key, [*path, key]))}]]"]
                _table(item, [*path, key], lines)


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def _inline(value: Any) -> str:
    if value is None:
        raise TypeError("TOML has no null")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_inline(v)}" for k, v in value.items()) + " }" if value else "{}"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def scenario_text(state: GameState, *, name: str = "", description: str = "") -> str:
    """A scenario file of ``state`` in the exact form: loading it gives ``state`` back."""
    info = {k: v for k, v in (("name", name), ("description", description)) if v}
    head = '# A position saved from nctui: the whole game state (docs/scenarios.md, "The complete form").\n'
    return head + "\n" + to_toml({"scenario": info, "state": state_table(state)})
