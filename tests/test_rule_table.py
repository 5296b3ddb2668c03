"""The rules are listed once (engine.table) and every decision and event has words (describe)."""

from __future__ import annotations

import typing

import msgspec
import pytest
from msgspec.structs import replace

from nctui.games.nightmare_cathedral.content import schema as cs
from nctui.games.nightmare_cathedral.describe import describe_decision, describe_event
from nctui.games.nightmare_cathedral.engine import decode_action, events as E, new_game, step, work as W
from nctui.games.nightmare_cathedral.engine.flow import decision_of
from nctui.games.nightmare_cathedral.engine.state import GameState
from nctui.games.nightmare_cathedral.engine.table import CONTINUATIONS, RULES, STEPS
from nctui.games.nightmare_cathedral.engine.work import DECISION_KINDS, WORK_TYPES, kind_of
from tests import golden
from tests.helpers import present


def test_every_work_type_has_exactly_one_rule_and_one_kind():
    assert set(RULES) == set(WORK_TYPES)
    assert all(rule.work is work for work, rule in RULES.items())
    assert len(DECISION_KINDS) == len(set(DECISION_KINDS)) == len(WORK_TYPES)


def test_every_step_of_the_content_vocabulary_starts_somewhere():
    assert set(STEPS) == set(typing.get_args(cs.Step))


def test_every_continuation_has_one_function():
    assert set(CONTINUATIONS) == set(W.THEN_TYPES)


def _states_by_kind() -> dict[str, GameState]:
    """A state of each decision kind met in the golden games (the King's Maneuver tie is built)."""
    found: dict[str, GameState] = {}
    for g in golden.read_all():
        s = new_game(g.config).state
        for a in g.actions:
            assert s.decision is not None
            found.setdefault(s.decision.kind, s)
            s = step(s, decode_action(a)).state
    return found


STATES = _states_by_kind()


@pytest.mark.parametrize("kind", DECISION_KINDS)
def test_every_decision_kind_has_words(kind):
    state = STATES.get(kind)
    if state is None:  # the King's Maneuver and Develop ties: rare in whole games
        assert kind in ("king_maneuver", "king_tuck")
        solo = next(s for s in STATES.values() if s.king is not None and s.phase == "turn")
        work: W.Work
        if kind == "king_maneuver":
            work = W.KingManeuverWork(seat=0, options=tuple(a.id for a in solo.areas[:2]), mp=1)
        else:
            work = W.KingTuckWork(seat=0, card="d1-wax-stair", options=("ritual", "summon"))
        state = replace(solo, work=work, decision=decision_of(replace(solo, work=work), work))
    text = describe_decision(state)
    assert text and text != kind and "_" not in text, (kind, text)


def _sample(event_type: type[E.Event]) -> E.Event:
    """An instance of ``event_type`` with plausible field values."""
    values: dict[str, object] = {}
    hints = typing.get_type_hints(event_type)
    for field in msgspec.structs.fields(event_type):
        hint = hints[field.name]
        origin = typing.get_origin(hint)
        if origin is typing.Literal:
            values[field.name] = typing.get_args(hint)[0]
        elif hint is bool:
            values[field.name] = False
        elif hint is int:
            values[field.name] = 1 if field.name != "seat" else 0
        elif hint is str:
            values[field.name] = "ritual" if field.name == "action" else "x"
        elif origin is tuple and typing.get_args(hint)[0] is int:
            values[field.name] = (0, 1)
        elif origin is tuple:
            values[field.name] = ("x",)
    return event_type(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize("event_type", E.EVENT_TYPES, ids=[t.__struct_config__.tag for t in E.EVENT_TYPES])
def test_every_event_has_a_sentence(event_type):
    state = STATES["choose_day"]
    event = _sample(event_type)
    text = describe_event(event, state)
    assert text and text != event.kind.replace("_", " ").capitalize(), (event, text)


def test_event_tags_are_unique_and_every_event_declares_what_it_reveals():
    tags = [t.__struct_config__.tag for t in E.EVENT_TYPES]
    assert len(tags) == len(set(tags))
    for t in E.EVENT_TYPES:
        assert t.REVEALS in typing.get_args(E.Reveal)
        assert set(t.SECRET) <= {f.name for f in msgspec.structs.fields(t)}


def test_a_decision_kind_is_its_works_tag():
    for state in STATES.values():
        d = present(state.decision)
        work = state.work
        assert work is not None
        assert d.kind == kind_of(work) and d.seat == work.seat
