"""The practice hint in words: what the planner would choose, its next best options, and why
(what each option changes for the seat by the end of the planner's look ahead)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.state import GameState
from .actions import describe_action

if TYPE_CHECKING:  # the words need only the advice's fields: describe depends on no bot
    from ..bots.planner_bot import Advice

# measure -> what it counts, for the seat (``planner_bot.CHANGES``; "rivals", the others' units
# on the board, is worded apart).
_MEASURES = {
    "vp": "VP",
    "followers": "Follower on the board",
    "fort_levels": "Fort level",
    "ritual": "Ritual space",
    "cards": "card in hand",
    "dreams": "Dream card",
}


def _count(n: int, word: str) -> str:
    """'1 Follower on the board', '2 Followers on the board': the first word takes the plural."""
    if n == 1 or word == "VP":
        return f"{n} {word}"
    head, _, tail = word.partition(" ")
    return f"{n} {head}s" + (f" {tail}" if tail else "")


def reason(advice: Advice) -> str:
    """Why, in the game's terms: what the option changes for you and the others by the end of
    the planner's look ahead, e.g. 'you gain 1 VP and 2 Followers on the board; the others lose 1
    unit on the board'."""
    if not advice.changes:
        return (
            "none of your VP, Followers on the board, Fort levels, Ritual spaces, cards or Dreams change, "
            "nor the others' units: it keeps your position as it is (a waiting move)"
        )
    gains = [_count(d, _MEASURES.get(name, name)) for name, d in advice.changes if name != "rivals" and d > 0]
    losses = [_count(-d, _MEASURES.get(name, name)) for name, d in advice.changes if name != "rivals" and d < 0]
    others = [
        f"the others {'gain' if delta > 0 else 'lose'} {_count(abs(delta), 'unit on the board')}"
        for name, delta in advice.changes
        if name == "rivals"
    ]
    own = [f"you {verb} {_and(words)}" for verb, words in (("gain", gains), ("lose", losses)) if words]
    return "; ".join((", ".join(own), *others) if own else others)


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def describe_advice(advice: tuple[Advice, ...], state: GameState) -> list[str]:
    """The hint's lines: the planner's choice first, then its next best options, each with its
    value (VP, against the best) and its reason."""
    if not advice:
        return ["The planner has nothing to advise here."]
    best = advice[0].value
    lines = []
    for i, a in enumerate(advice):
        what = describe_action(a.action, state)
        if a.chosen:
            lines.append(
                f"The planner would choose: {what}. Within its look ahead (the next few decisions) {reason(a)}."
            )
        else:
            gap = best - a.value
            if gap > 0.05:
                behind = f"{gap:.1f} VP behind"
            else:
                behind = "about as good" if gap > -0.05 else f"{-gap:.1f} VP ahead by the look ahead alone"
            lines.append(f"{i + 1}. {what} ({behind}): {reason(a)}.")
    return lines
