"""The public rules interface: ``new_game``, ``legal_actions``, ``check``, ``step`` and ``apply``.

``step`` validates an action against the decision held in the state (``check``), lets the rule
of the decision apply it, then resolves everything automatic up to the next decision
(``resolve``): the steps of effect frames start, finished frames hand over to their
continuations, and the next Work's rule asks its decision. A refusal says which rule forbids
the action and where the rulebook says so.
"""

from __future__ import annotations

from operator import attrgetter, is_

import msgspec
from msgspec.structs import replace

from . import events as E, futile, limbo, setup, solo
from .actions import Action, Done, ReturnFromLimbo, is_action
from .config import GameConfig
from .errors import IllegalAction, InvalidAction, NoDecision
from .events import Event
from .rules import Rule
from .state import Decision, GameState
from .table import ABSENT, CONTINUATIONS, RULES, STEPS
from .work import Work, kind_of

Events = list[Event]


class StepResult(msgspec.Struct, frozen=True, kw_only=True):
    state: GameState
    events: tuple[Event, ...]


class EngineBug(RuntimeError):
    """The rules left the game with nothing to decide before its end."""


def new_game(config: GameConfig) -> StepResult:
    """SETUP (solo: the solo SETUP) up to the first decision."""
    state, events = (solo.new_game if config.players == 1 else setup.new_game)(config)
    state = resolve(state, events)
    return StepResult(state=limbo.offer(state), events=tuple(events))


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Exactly the actions ``apply`` accepts now (empty once the game is over)."""
    return state.decision.options if state.decision is not None else ()


def deciding_seat(state: GameState) -> int | None:
    return state.decision.seat if state.decision is not None else None


def rule_of(work: Work) -> Rule[Work]:
    return RULES[type(work)]


def decision_of(state: GameState, work: Work) -> Decision | None:
    """The decision ``work`` asks now, or None when it has nothing left to ask (the step is over)."""
    last = _last_asked
    if (
        last is not None
        and last[1] is work
        and (last[0] is state or all(map(is_, _asked_from(last[0]), _asked_from(state))))
    ):
        return last[2]  # the very same position: asked again by the invariant check, say
    options = rule_of(work).options(state, work)
    decision = Decision(seat=work.seat, kind=kind_of(work), options=options) if options else None
    globals()["_last_asked"] = (state, work, decision)
    return decision


# A decision depends on every part of the state but the decision itself; the last one asked is
# remembered by the identity of those parts (states share every part a step left alone), compared
# only when the work is the very same.
_asked_from = attrgetter(*(f for f in GameState.__struct_fields__ if f != "decision"))
_last_asked: tuple[GameState, Work, Decision | None] | None = None


def resolve(state: GameState, ev: Events) -> GameState:
    """Resolve automatic steps until a decision is due or the game is over."""
    while state.outcome is None:
        if state.work is not None:
            decision = decision_of(state, state.work)
            if decision is None:
                state = replace(state, work=None)
                continue
            return replace(state, decision=decision)
        if not state.frames:
            raise EngineBug("nothing to decide and nothing left to resolve before the end of the game")
        top = state.frames[-1]
        if not top.steps:
            state = replace(state, frames=state.frames[:-1])
            if top.then is not None:
                state = CONTINUATIONS[type(top.then)](state, top.then, ev)
            continue
        first = top.steps[0]
        state = replace(state, frames=state.frames[:-1] + (replace(top, steps=top.steps[1:]),))
        state = STEPS[type(first)](state, top, first, ev)
        if state.work is not None and decision_of(state, state.work) is None:
            # the step has nothing to do from its start: say so (the log), then drop it above
            why = futile.reason(state, state.work)
            kind = E.NothingInHand if why in futile.HAND_REASONS else E.NothingDone
            ev.append(kind(seat=state.work.seat, step=kind_of(state.work), reason=why))
    return state


def check(state: GameState, action: object) -> None:
    """Raise InvalidAction or IllegalAction unless ``action`` is legal now."""
    if not is_action(action):
        raise InvalidAction(f"not an action: {action!r}")
    d = state.decision
    if d is None or state.work is None:
        raise NoDecision("the game is over: there is nothing to decide", rule="game over", section="GAME END & SCORING")
    if action in d.options:
        return
    raise _refusal(state, state.work, d, action)


def _refusal(state: GameState, w: Work, d: Decision, action: Action) -> IllegalAction:
    """Why ``action`` is refused: the decision's own rule says so when it is one of the kinds of
    action it asks; else the rule of that kind of action, or the decision that is due."""
    rule = rule_of(w)
    if type(action) in rule.actions:
        why = rule.refusal(state, w, action)
        if why is not None:
            return why
        return IllegalAction(
            f"{_describe(action)} is not one of the options of the decision due", rule="the decision's options"
        )
    if isinstance(action, Done):
        if getattr(w, "must", False):
            return IllegalAction(
                "this effect must be resolved as completely as possible",
                rule="resolve Victory and Defeat in full",
                section="REWARDS AND CONSEQUENCES",
            )
        return IllegalAction("there is nothing to stop: the decision due must be made", rule="the decision that is due")
    absent = ABSENT.get(type(action))
    if absent is not None:
        return absent(state, action)
    return IllegalAction(
        f"now is the time for another decision, not to {type(action).__name__}", rule="the decision that is due"
    )


def _describe(action: Action) -> str:
    return msgspec.json.encode(action).decode()


def step(state: GameState, action: Action) -> StepResult:
    """Validate, then resolve up to the next decision; report the events."""
    check(state, action)
    assert state.decision is not None and state.work is not None
    events: Events = []
    seat = state.decision.seat
    new = replace(state, decision=None)
    if isinstance(action, ReturnFromLimbo):
        new = limbo.take_back(new, seat, action, events)
    else:
        new = rule_of(state.work).apply(new, state.work, action, events)
    new = resolve(new, events)
    return StepResult(state=limbo.offer(new), events=tuple(events))


def apply(state: GameState, action: Action) -> GameState:
    return step(state, action).state


def advance(state: GameState, option: Action) -> GameState:
    """``apply`` for an action taken from ``state.decision.options`` itself (a look ahead trying
    the options): the same state, without checking the action against the options again nor
    keeping the events (test_engine_options compares the two)."""
    d, work = state.decision, state.work
    if d is None or work is None:
        raise NoDecision("the game is over: there is nothing to decide", rule="game over", section="GAME END & SCORING")
    events: Events = []
    new = replace(state, decision=None)
    if isinstance(option, ReturnFromLimbo):
        new = limbo.take_back(new, d.seat, option, events)
    else:
        new = rule_of(work).apply(new, work, option, events)
    return limbo.offer(resolve(new, events))
