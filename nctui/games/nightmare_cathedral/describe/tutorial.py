"""Words of the tutorial (``nctui tutorial``): seven lessons (``practice/tutorial.toml``), each a
position played through the normal game screen against computer seats, with a panel saying what
is happening and what to try.

The first lesson is a new game on a fixed seed (setup and the first turn); the others start from
prepared positions (``practice/lessons/*.toml`` and two of the practice positions, docs/scenarios.md),
so that each reaches its concept within one turn: Marked Areas and Dreams, the Ritual track,
moving and conflicts, Shadows and the Fortress, the Cathedral and Stage 2, Nightmares, devouring
and the end of the game. The words follow the core rulebook (its sections are named in each
lesson's ``rules``); the player reads no section numbers, and R opens the rules summary at the
lesson's topic.

A lesson suggests an option for some decisions (``Lesson.suggest``): the screen highlights it,
Enter takes it, any other option may be chosen instead."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, NamedTuple

import msgspec

from ..engine.state import GameState
from .names import Words, plural, seat_name, words_for

TUTORIAL_SEED = 2024  # the first lesson's game: always the same board, cards and computer moves


class Want(NamedTuple):
    """An option to suggest: the action's tag, and fields it must have."""

    tag: str
    fields: tuple[tuple[str, object], ...] = ()

    def matches(self, action: object) -> bool:
        if not isinstance(action, msgspec.Struct) or action.__struct_config__.tag != self.tag:
            return False
        return all(getattr(action, name, None) == value for name, value in self.fields)


class Lesson(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One lesson (``practice/tutorial.toml``, whose head says what each field means)."""

    title: str
    position: str
    you: int
    topic: str
    topic_title: str
    rules: str
    intro: str
    done: str
    tips: dict[str, str] = {}
    later: dict[str, str] = {}
    turned: Literal["", "stage2", "end"] = ""
    ends: Literal["turn", "game"] = "turn"
    suggest: dict[str, tuple[dict[str, str | int | bool], ...]] = {}

    def wants(self, kind: str) -> tuple[Want, ...]:
        """The options to suggest for a decision of ``kind``, first match first."""
        return tuple(
            Want(str(w["a"]), tuple((k, v) for k, v in w.items() if k != "a")) for w in self.suggest.get(kind, ())
        )


class _Lessons(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    lessons: tuple[Lesson, ...]


LESSONS_FILE = Path(__file__).resolve().parent.parent / "practice" / "tutorial.toml"
LESSONS: tuple[Lesson, ...] = msgspec.toml.decode(LESSONS_FILE.read_bytes(), type=_Lessons).lessons


# What each decision kind means, in plain words, where a lesson says nothing more.
EXPLAIN: dict[str, str] = {
    "turn_start": (
        "Choose where the Starting marker goes on the Turn track. Each turn the Turn marker shows "
        "one symbol: the areas with that symbol are the Marked Areas of that turn. Any start is fine."
    ),
    "conquer": (
        "Each player takes exactly 2 areas: 1 corner (2 Followers, your Shaper, a Fort and your "
        "Fortress) and 1 other (1 Follower next to the Cathedral, 2 elsewhere)."
    ),
    "place_dreamer": (
        "Put your Dreamer on a Night space (dark). When another player takes a Day action next to "
        "it, you may Conform: use the Conform effect of your own card for that action."
    ),
    "choose_day": (
        "Move your Dreamer to a Day space that is not next to its Night space and take that "
        "action, or ignore it and draw 2 Development cards."
    ),
    "discard_dreams": (
        "Dream cards are secret goals worth VP. Keep those you can reach soon; a discarded one goes "
        "to the bottom of the Dream deck."
    ),
    "draw_dream": "Refill your hand to 2 Dream cards, from the face-up offer or the top of the deck.",
    "discard_development": (
        "You may keep at most 8 Development cards; your Basic Combat card counts and is never discarded."
    ),
    "react": (
        "Another player's action: Conform if your Dreamer is next to it, Dissent from anywhere "
        "(each uses your own card), or Pass. An option that would do nothing now says so."
    ),
    "produce": "Place Followers from your supply in the areas the effect names.",
    "move": (
        "Each MP moves one Follower or your Shaper to an adjacent area. A Follower cannot leave an "
        "area where an opponent's Followers or Shadows are; it may move into one."
    ),
    "shaper_move": "Your Shaper moves freely: it is not a unit and is never stopped.",
    "convert": (
        "Your Shaper replaces an enemy unit (an opponent's Follower or a Shadow) by one of your "
        "Followers; the replaced unit goes back to its supply."
    ),
    "build_fort_level": "Add a Fort level in an area you control; Forts of 2 and 3 levels score at the end.",
    "pay_fort_level": "Pay for the Fort level by removing Followers from the board.",
    "climb": "Choose the Ritual marker that climbs; each marker scores the best VP space it reached.",
    "climb_pay": "Choose the area whose Follower pays for this step (or 3 Followers from your Limbo).",
    "ritual_bonus": "A special space offers a bonus: take it or ignore it.",
    "play_upgrade": "An Upgrade goes on one of your Action cards and improves it for good.",
    "play_ploy": "A Ploy is played once, for its effect.",
    "develop": "Upgrades and Ploys in any order: an Upgrade improves an Action card for good, a Ploy is played once.",
    "choose": "The effect offers a choice: each option says what it does.",
    "start_conflict": "Choose where the conflict is fought, and between which two sides.",
    "play_combat_card": (
        "Play cards face down, at least 1: up to 1 for each of your Followers there and 1 for your "
        "Fort. ⚔ deals damage, each ⛨ cancels one."
    ),
    "retreat": "The losing side's units move to an adjacent area it controls, is present in, or that is empty.",
    "take_victory": "You beat the Shadows: resolve the card's Victory effect, or draw 1 Development card instead.",
    "play_dream": "A Dream card whose condition is met can be played now: it scores its VP at the end.",
    "keep_card": "Keep the cards you want among those drawn.",
    "add_shadow": "Add the Shadows where the effect says, at most 3 in an area.",
    "command_nightmare": "Choose the Nightmare you command: its card says what it does.",
    "move_nightmare": "Choose where the Nightmare goes.",
    "devour": "Choose the unit the Nightmare devours.",
}
GENERIC = "Read the question and the options: each one says what it does, and its context is shown above them."


def header(index: int) -> str:
    """The lesson's first line: where it is in the tutorial, and the rules it opens."""
    lesson = LESSONS[index]
    more = " · n: next" if index + 1 < len(LESSONS) else ""
    return f"Lesson {index + 1}/{len(LESSONS)}: {lesson.title} · see rules: {lesson.topic_title} (R){more}"


def done(lesson: Lesson, state: GameState, start_turns: int) -> bool:
    """The lesson has reached its end: your turn is over ("turn"), or the game ("game")."""
    if state.outcome is not None:
        return True
    return lesson.ends == "turn" and state.players[lesson.you].turns > start_turns


def _turned(lesson: Lesson, state: GameState) -> bool:
    return (lesson.turned == "stage2" and state.stage == 2) or (lesson.turned == "end" and state.end_triggered)


def tip(lesson: Lesson, state: GameState, kind: str) -> str:
    """What the decision due means in this lesson."""
    if _turned(lesson, state) and kind in lesson.later:
        return lesson.later[kind]
    return lesson.tips.get(kind) or EXPLAIN.get(kind, GENERIC)


def suggested(lesson: Lesson, state: GameState) -> int:
    """The index of the option the lesson suggests for the decision due (-1: none)."""
    d = state.decision
    if d is None or d.seat != lesson.you:
        return -1
    for w in lesson.wants(d.kind):
        for i, action in enumerate(d.options):
            if w.matches(action):
                return i
    return -1


def tutorial_lines(index: int, state: GameState, start_turns: int) -> tuple[str, ...]:
    """What the tutorial panel says now: the lesson, then its end, or the decision due explained,
    or who is deciding."""
    lesson = LESSONS[index]
    seat = lesson.you
    top = header(index)
    if done(lesson, state, start_turns):
        more = " n: next lesson." if index + 1 < len(LESSONS) else ""
        return (top, f"Lesson complete. {lesson.done}{more}")
    d = state.decision
    if d is None:
        return (top, "The game is over.")
    if d.seat != seat:
        return (top, f"{seat_name(state, d.seat)} (the computer) is deciding. Watch the log.")
    first = state.phase == "setup" and not any(a.followers[seat] for a in state.areas)
    intro = (lesson.intro,) if first or _is_opening(lesson, state) else ()
    here = "" if lesson.position else now(state, seat)  # a prepared position's tips say it all
    return (top, *intro, tip(lesson, state, d.kind), *((f"Now: {here}",) if here else ()))


def _is_opening(lesson: Lesson, state: GameState) -> bool:
    """A prepared position's choice of Day space (the lesson's own words come first)."""
    d = state.decision
    return bool(lesson.position) and d is not None and d.kind == "choose_day" and state.active == lesson.you


def now(state: GameState, seat: int) -> str:
    """What the decision due means in this game, beside what its kind means in general
    ('' when the question and its context say it all)."""
    w = words_for(state.pack)
    d = state.decision
    pl = state.players[seat]
    match d.kind if d is not None else "":
        case "conquer":
            mine = [a for a in state.areas if a.followers[seat]]
            return (
                "your first area: a corner is a good start."
                if not mine
                else f"your second area, beside {w.area(mine[0].id)}? A different symbol helps the Ritual track."
            )
        case "place_dreamer":
            return "the Day spaces next to your Night space are the actions you may Conform to."
        case "react":
            return _react(state, seat, w)
        case "choose_day":
            return (
                f"your Dreamer is on {w.space(pl.dreamer)}; the Day spaces next to it are closed to it."
                if pl.dreamer
                else ""
            )
        case "discard_dreams" | "draw_dream":
            return f"you hold {plural(len(pl.dreams), 'Dream card')}: " + (w.cards_list(pl.dreams) or "none")
        case "climb" | "climb_pay" | "ritual_bonus":
            return f"your Ritual markers are on spaces {pl.ritual[0]} and {pl.ritual[1]} (0: the start)."
        case "build_fort_level" | "pay_fort_level":
            return f"you have {plural(pl.forts, 'Fort level')} left and {pl.supply} Followers in supply."
        case "produce" | "add_shadow" | "move":
            n = sum(a.followers[seat] for a in state.areas)
            return f"{plural(n, 'Follower')} of yours {'is' if n == 1 else 'are'} on the board, {pl.supply} in supply."
    return ""


def _react(state: GameState, seat: int, w: Words) -> str:
    d = state.decision
    conform = d is not None and any(getattr(a, "kind", "") == "conform" for a in d.options)
    who, day = seat_name(state, state.active), w.day_short(state.day)
    return (
        f"{who} performs {day}; your Dreamer is next to it, so you may Conform."
        if conform
        else f"{who} performs {day}; your Dreamer is not next to it: Dissent or Pass."
    )
