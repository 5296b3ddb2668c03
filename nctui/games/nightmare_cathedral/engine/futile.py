"""RESOLVING ACTIONS AND REACTIONS: the steps that would do nothing now, and why.

A step of an effect begins (``table.STEPS``) and asks its decision; when it has nothing to ask
from its very start (no marker can pay for its next space, Limbo is empty, no area qualifies,
no Upgrade in hand…) it does nothing. ``flow.resolve`` then reports it as a ``NothingDone``
event, and ``would_do_nothing`` says so in advance for the options of the decision due (a
Choose effect's options, Conform and Dissent), so an option can say it before it is chosen.

The answer is the engine's own: the step is started on a scratch copy and its rule is asked
for its options, so no rule is written twice. Only the reason (``Nothing``) is worked out here,
from the Work the step started.
"""

from __future__ import annotations

from typing import Literal

from msgspec.structs import replace

from ..content import schema as cs
from . import cards, ritual
from .actions import Action, ChooseDay, ChooseOption, React, TakeVictory
from .events import Event, NoEffectStage1
from .state import GameState
from .table import RULES, STEPS
from .work import (
    ChooseDayWork,
    ChooseWork,
    ClimbWork,
    ConflictWork,
    DevelopWork,
    Frame,
    PloyWork,
    ReactWork,
    RecoverWork,
    UpgradeWork,
    VictoryWork,
    Work,
)

Nothing = Literal[
    "nothing_to_pay",  # a paid climb: no marker's next space can be paid (Followers or 3 from Limbo)
    "track_end",  # a climb: no marker may enter its next space (the end, or a kind it may not enter)
    "limbo_empty",  # bringing Followers back from Limbo: Limbo is empty
    "no_upgrade",  # playing Upgrades: none in hand
    "no_ploy",  # playing Ploys: none in hand
    "no_development",  # playing Upgrades and Ploys (DEVELOP): neither in hand
    "no_conflict",  # resolving conflicts: none is possible
    "no_effect",  # the effect has no step at all (printed "-")
    "no_target",  # any other step: nothing qualifies (no area, no unit, no room)
    "stage1",  # a Nightmare's or devouring's step before Stage 2 (events.NoEffectStage1)
]

HAND_REASONS = frozenset(
    {"no_upgrade", "no_ploy", "no_development"}
)  # they tell what a hand holds: secret (events.NothingInHand)

# Steps that never wait for a decision: they act (draw, move a Dreamer…) or push more steps.
_ALWAYS_ACT = (cs.Draw, cs.MoveDreamer, cs.NightmareReturn, cs.Choose, cs.PerformConform)


def reason(state: GameState, work: Work) -> Nothing:
    """Why ``work``, just started, has nothing to ask."""
    match work:
        case ClimbWork(paid_left=paid_left):
            return "nothing_to_pay" if paid_left != 0 and _unpaid_open(state, work) else "track_end"
        case RecoverWork(seat=seat):
            return "limbo_empty" if state.players[seat].limbo <= 0 else "no_target"
        case UpgradeWork():
            return "no_upgrade"
        case PloyWork():
            return "no_ploy"
        case DevelopWork():
            return "no_development"
        case ConflictWork():
            return "no_conflict"
    return "no_target"


def _unpaid_open(state: GameState, w: ClimbWork) -> bool:
    """A marker could enter its next space if only it could be paid."""
    kinds = ritual.allowed_kinds(w, paid=True)
    return any(
        0 <= (i := ritual.next_index(state, w.seat, m)) and ritual.spaces(state)[i].kind in kinds
        for m in ritual.MARKERS
    )


def step_nothing(state: GameState, seat: int, step: cs.Step) -> Nothing | None:
    """The reason ``step`` would do nothing if ``seat`` began it now, or None when it would do
    something (or may: a step that acts without asking is taken to)."""
    if isinstance(step, _ALWAYS_ACT):
        return None
    ev: list[Event] = []
    frame = Frame(seat=seat, steps=(), source="choice")
    started = STEPS[type(step)](replace(state, work=None, decision=None), frame, step, ev)
    work = started.work
    if ev and all(isinstance(e, NoEffectStage1) for e in ev):
        return "stage1"
    if ev or work is None or RULES[type(work)].options(started, work):
        return None
    return reason(started, work)


def effect_nothing(state: GameState, seat: int, steps: tuple[cs.Step, ...]) -> Nothing | None:
    """An effect does nothing when each of its steps does nothing: a step that does nothing
    leaves the state as it was, so each following step is judged on the same state."""
    if not steps:
        return "no_effect"
    reasons = [step_nothing(state, seat, s) for s in steps]
    if any(r is None for r in reasons):
        return None
    if isinstance(steps[0], cs.PlayUpgrades) and steps[1:2] and isinstance(steps[1], cs.PlayPloys):
        return "no_development"  # one decision (``steps_basic.start_upgrades``): neither in hand
    return reasons[0]


def option_nothing(state: GameState, action: Action) -> Nothing | None:
    """Whether an option of the decision due would do nothing: a Choose effect's option, a
    Conform or Dissent, performing a Day action, or a Victory effect, whose effect would do nothing (all stay
    offered: the rulebook lets a player choose them, see docs/rules-decisions.md)."""
    w = state.work
    match w, action:
        case ChooseWork(options=options, seat=seat), ChooseOption(index=i) if 0 <= i < len(options):
            return effect_nothing(state, seat, options[i])
        case ReactWork(seat=seat), React(kind="conform" | "dissent" as kind) if state.day:
            return effect_nothing(state, seat, cards.action_effect(state, seat, state.day, kind).steps)
        case ChooseDayWork(seat=seat), ChooseDay(action=day, ignore=False):
            return effect_nothing(state, seat, cards.action_effect(state, seat, day, "day").steps)
        case VictoryWork(fight=fight), TakeVictory(take=True) if fight.shadow_card:
            seat = state.decision.seat if state.decision is not None else fight.resolver
            return effect_nothing(state, seat, cards.conflict(state, fight.shadow_card).victory.steps)
    return None


def options_nothing(state: GameState) -> tuple[str, ...]:
    """For each option of the decision due, why it would do nothing ('' when it would do something)."""
    if state.decision is None:
        return ()
    return tuple(option_nothing(state, a) or "" for a in state.decision.options)
