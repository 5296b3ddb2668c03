"""The rules listed in ``engine.table``: exactly one rule per kind of decision (Work), one start per
kind of effect step, one continuation per kind of frame end."""

from __future__ import annotations

from typing import get_args

from nctui.content import schema as cs
from nctui.engine import work as W
from nctui.engine.table import CONTINUATIONS, RULES, STEPS


def test_every_work_type_has_exactly_one_rule_and_its_own_decision_kind():
    assert set(RULES) == set(W.WORK_TYPES)
    assert all(rule.work is work for work, rule in RULES.items())
    assert len(set(W.DECISION_KINDS)) == len(W.WORK_TYPES)


def test_every_step_type_of_the_content_has_a_start():
    assert set(STEPS) == set(get_args(cs.Step))


def test_every_continuation_type_has_exactly_one_function():
    assert set(CONTINUATIONS) == set(W.THEN_TYPES)
