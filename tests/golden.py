"""Golden games: whole games recorded once and replayed by ``tests/test_golden.py``.

A golden game is its configuration, the bots that played it (for the record), every action, the
number of legal options and the deciding seat before each action, the outcome, and a fingerprint
of the final state. Replaying the actions must give the same counts, seats, outcome and
fingerprint: any difference means a rule changed. When a rule changes on purpose, the commit
that changes it rewrites the affected files (``python tools/golden.py --write NAME...``) and says
which rule changed.

The fingerprint is a sha256 of the final state in a canonical form: Struct fields whose value is
their default are left out, so a field added to the state later (with its default at the end of
the game) does not change it, while any change of a value the rules produced does.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import msgspec

from nctui.games.nightmare_cathedral.engine import (
    GameConfig,
    GameState,
    decode_action,
    encode_action,
    legal_actions,
    new_game,
    step,
)

FOLDER = Path(__file__).parent / "data" / "golden"


class Golden(msgspec.Struct, kw_only=True):
    name: str
    note: str
    config: GameConfig
    bots: tuple[str, ...]  # the kind of bot at each seat that chose the actions (solo: the human's seat)
    actions: tuple[str, ...]  # each action as its JSON
    action_count: int
    option_counts: tuple[int, ...]  # len(legal_actions) before each action
    seats: tuple[int, ...]  # the deciding seat before each action
    outcome: dict[str, Any]
    fingerprint: str


def _canonical(value: Any) -> Any:
    if isinstance(value, msgspec.Struct):
        out: dict[str, Any] = {}
        cfg = value.__struct_config__
        if cfg.tag is not None:
            out[str(cfg.tag_field)] = cfg.tag
        for f in msgspec.structs.fields(value):
            v = getattr(value, f.name)
            default = (
                f.default
                if f.default is not msgspec.NODEFAULT
                else (f.default_factory() if f.default_factory is not msgspec.NODEFAULT else msgspec.NODEFAULT)
            )
            if default is not msgspec.NODEFAULT and v == default:
                continue
            out[f.name] = _canonical(v)
        return out
    if isinstance(value, (tuple, list)):
        return [_canonical(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted((_canonical(v) for v in value), key=repr)
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in value.items()}
    return value


def fingerprint(state: GameState) -> str:
    text = json.dumps(_canonical(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def outcome_of(state: GameState) -> dict[str, Any]:
    o = state.outcome
    if o is None:
        return {}
    return {
        "reason": o.reason,
        "winners": list(o.winners),
        "totals": [s.total for s in o.scores],
        "scores": [[s.ritual, s.forts, s.devoured, s.upgrades, s.dreams] for s in o.scores],
        "turns": state.turn_number,
    }


class Replay(msgspec.Struct, kw_only=True):
    final: GameState
    option_counts: tuple[int, ...]
    seats: tuple[int, ...]


def replay(config: GameConfig, actions: tuple[str, ...]) -> Replay:
    """Play the recorded actions from a new game; every one must be legal."""
    state = new_game(config).state
    counts, seats = [], []
    for text in actions:
        counts.append(len(legal_actions(state)))
        seats.append(state.decision.seat if state.decision is not None else -1)
        state = step(state, decode_action(text)).state
    return Replay(final=state, option_counts=tuple(counts), seats=tuple(seats))


def record(
    name: str, note: str, config: GameConfig, bots: tuple[str, ...], actions: list[Any], final: GameState
) -> Golden:
    texts = tuple(encode_action(a).decode() for a in actions)
    r = replay(config, texts)
    if fingerprint(r.final) != fingerprint(final):
        raise AssertionError(f"{name}: the recorded actions do not replay to the game played")
    return Golden(
        name=name,
        note=note,
        config=config,
        bots=bots,
        actions=texts,
        action_count=len(texts),
        option_counts=r.option_counts,
        seats=r.seats,
        outcome=outcome_of(final),
        fingerprint=fingerprint(final),
    )


def write(g: Golden) -> Path:
    FOLDER.mkdir(parents=True, exist_ok=True)
    path = FOLDER / f"{g.name}.json"
    path.write_bytes(msgspec.json.encode(g) + b"\n")
    return path


def read_all() -> list[Golden]:
    return [msgspec.json.decode(p.read_bytes(), type=Golden) for p in sorted(FOLDER.glob("*.json"))]
