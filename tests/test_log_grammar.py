"""Grammar of the log lines (nctui/games/nightmare_cathedral/describe): counts agree with their nouns and verbs ('1
Cultist goes', '2 Shadows seep'), the Shadows are many ('The Shadows reveal'), and a line opens
with a capital. Checked over every log line of seeded random games: 2, 3 and 4 players and solo."""

from __future__ import annotations

import random
import re

import pytest

from nctui.games.nightmare_cathedral.describe.events import describe_events
from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.games.nightmare_cathedral.engine.config import SeatKind
from nctui.platform.store import Store

# Nouns the log counts, singular -> plural (the counted words of every line of the games below).
NOUNS = {
    "Cultist": "Cultists",
    "Follower": "Followers",
    "Shadow": "Shadows",
    "card": "cards",
    "unit": "units",
    "step": "steps",
    "conflict": "conflicts",
    "area": "areas",
    "player": "players",
    "Dream": "Dreams",
    "Development card": "Development cards",
    "Dream card": "Dream cards",
    "Fort level": "Fort levels",
}
SINGULAR = {plural: singular for singular, plural in NOUNS.items()}
# Verbs that follow a count directly: third person singular -> plural.
VERBS = {
    "goes": "go",
    "seeps": "seep",
    "leaves": "leave",
    "is": "are",
    "has": "have",
    "returns": "return",
    "comes": "come",
    "moves": "move",
}
SHADOWS_VERBS = {"reveals", "takes", "wins", "retreats", "is", "has", "plays", "loses"}


def number_problems(line: str) -> list[str]:
    """What is wrong with the counts of ``line`` ('1 Followers', '2 Cultist', '1 Cultist go',
    'the Shadows takes'); an empty list when nothing is."""
    problems = []
    for m in re.finditer(r"(?<![\w.-])(\d+) ((?:Development |Dream |Fort )?[A-Za-z]+)(?: (\w+))?", line):
        n, noun, after = int(m.group(1)), m.group(2), m.group(3) or ""
        if n == 1 and noun in SINGULAR and not line[m.end(2) :].startswith(" of "):
            problems.append(f"1 with a plural: {m.group(0)!r}")
        if n != 1 and noun in NOUNS:
            problems.append(f"{n} with a singular: {m.group(0)!r}")
        if noun in NOUNS or noun in SINGULAR:
            if n == 1 and after in VERBS.values():
                problems.append(f"1 with a plural verb: {m.group(0)!r}")
            if n != 1 and after in VERBS:
                problems.append(f"{n} with a singular verb: {m.group(0)!r}")
    for m in re.finditer(r"(?<!of )\b[Tt]he Shadows (\w+)", line):  # not "1 unit of the Shadows is"
        if m.group(1) in SHADOWS_VERBS:
            problems.append(f"the Shadows are many: {m.group(0)!r}")
    if line[:1].islower():
        problems.append("opens with a small letter")
    return problems


@pytest.mark.parametrize(
    "line",
    [
        "Red takes 1 Followers back from Limbo",
        "2 Cultist go onto the King's Fortify card",
        "1 Cultist go onto the King's Fortify card",
        "2 Shadows seeps into Ash Nave",
        "the Shadows takes 1 damage",
        "The Shadows reveals Gnawing Hunger: 3 attack, 2 defence",
        "Red is dealt 1 Development cards",
        "Red loses 2 Fort level",
    ],
)
def test_the_check_finds_a_wrong_number(line: str) -> None:
    assert number_problems(line)


@pytest.mark.parametrize(
    "line",
    [
        "Red takes 1 Follower back from Limbo",
        "1 Cultist goes onto the King's Fortify card",
        "2 Shadows seep into Ash Nave",
        "The Shadows take 1 damage",
        "1 unit of the Shadows is eliminated",
        "Red is dealt 3 Development cards: A, B, C",
        "Red breaks the tie: the Shadows win",
    ],
)
def test_the_check_passes_a_right_line(line: str) -> None:
    assert number_problems(line) == []


def _log_lines(players: int, seed: int) -> list[str]:
    human: SeatKind = "human"
    seats: tuple[SeatKind, ...] = (human,) * players if players > 1 else ("human", "king")
    store = Store(GameConfig(players=players, seats=seats, seed=seed))
    rng = random.Random(seed)
    lines = describe_events(store.initial.events, store.state)
    while store.state.decision is not None:
        entry = store.dispatch(rng.choice(store.state.decision.options))
        lines += describe_events(entry.events, store.state)
    return lines


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_log_line_of_random_games_agrees_in_number(players: int) -> None:
    problems: dict[str, str] = {}
    for seed in range(3):
        for line in _log_lines(players, seed):
            for problem in number_problems(line):
                problems.setdefault(problem, line)
    assert not problems, "\n".join(f"{p}: {line}" for p, line in problems.items())
