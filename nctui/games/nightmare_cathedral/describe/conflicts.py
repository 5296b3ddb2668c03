"""CONFLICTS as the conflict panel reads them: each conflict among a run of events, step by step.

A report follows the rulebook's steps: the two sides with their units and Fort levels (step 1),
the cards played face down (step 2; the King's drawn from its hand in solo), the cards revealed
with their ⚔ Attacks and ⛨ Defences (steps 3-4), damage and losses (step 5), the winner and why
(steps 6-8), the retreat (steps 9-10), the Victory or Defeat effect (step 11). Only what the
events say is used: a card played face down stays unnamed until its reveal, unless the viewer
played it (the events are already redacted for the viewer).
"""

from collections.abc import Sequence
from typing import Literal, NamedTuple, get_args

from ..engine import events as E
from ..engine.events import HIDDEN, Event
from ..engine.state import GameState
from .events import describe_event
from .names import SHADOWS, Words, combat_icons, plural, side_does, side_name, words_for

LineKind = Literal["sides", "cards", "reveal", "damage", "winner", "retreat", "effect", "after"]
STAGE_KINDS = frozenset(get_args(LineKind))

WHY_WON = {
    "fortress": "its Fortress is there: it wins every conflict in its Fortress area",
    "fort": "it has the Fort there (step 6)",
    "units": "more units are left (step 7)",
    "tie": "the tie was broken (step 8)",
}

# Events that put a finished conflict's cards away (steps 11-12): after them the report is done.
_PUT_AWAY = (E.ConflictCardBottom, E.CombatCardsDiscarded, E.BasicCombatReturned, E.KingCombatReturned)


class ConflictLine(NamedTuple):
    kind: LineKind
    text: str
    side: int = -1  # the side the line is about (-1: none): its colour on screen


class ConflictReport(NamedTuple):
    """One conflict: ``begins`` is the position of its ``conflict_start`` among the events."""

    begins: int
    area: str
    sides: tuple[int, int]
    lines: tuple[ConflictLine, ...]
    winner: int | None
    done: bool

    def title(self, state: GameState) -> str:
        a, b = self.sides
        where = words_for(state.pack).area(self.area)
        return f"Conflict in {where}: {side_name(state, a)} against {side_name(state, b)}"


class _Open:
    """A conflict being read: its lines so far and each side's units and Fort levels."""

    def __init__(self, index: int, e: E.ConflictStarted) -> None:
        self.index, self.area, self.sides = index, e.area, e.sides
        self.units = list(e.units) if len(e.units) == 2 else None
        self.forts = list(e.forts) if len(e.forts) == 2 else [0, 0]
        self.lines: list[ConflictLine] = []
        self.played = [0, 0]
        self.icons: list[tuple[int, int] | None] = [None, None]  # each side's ⚔ and ⛨ once revealed
        self.winner: int | None = None
        self.done = False

    def report(self) -> ConflictReport:
        return ConflictReport(self.index, self.area, self.sides, tuple(self.lines), self.winner, self.done)


def conflict_reports(events: Sequence[Event], state: GameState) -> list[ConflictReport]:
    """CONFLICTS 1-12: a report per conflict started among ``events``, in order (a Victory
    effect may start another conflict before the first one's cards are put away)."""
    w = words_for(state.pack)
    reports: list[_Open] = []
    stack: list[_Open] = []
    for i, e in enumerate(events):
        if isinstance(e, E.ConflictStarted):
            c = _Open(i, e)
            c.lines.append(ConflictLine("sides", _sides_line(c, state)))
            reports.append(c)
            stack.append(c)
            continue
        if not stack:
            continue
        c = stack[-1]
        if isinstance(e, _PUT_AWAY) and c.winner is not None:
            c.done = True
            stack.pop()
            continue
        line = _line(c, e, state, w)
        if line is not None:
            c.lines.append(line)
    for c in reports:
        if c.done and c.units is not None:
            c.lines.append(ConflictLine("after", "After: " + _strengths(c, state)))
    return [c.report() for c in reports]


def _strengths(c: _Open, state: GameState) -> str:
    if c.units is None:
        return ""
    return " · ".join(_strength(state, side, c.units[i], c.forts[i]) for i, side in enumerate(c.sides))


def _strength(state: GameState, side: int, n: int, fort: int) -> str:
    """'Green 2 Followers, Fort 1', '3 Shadows': a side's units (and Fort levels) in the area."""
    if side == SHADOWS:
        return plural(n, "Shadow")
    return f"{side_name(state, side)} {plural(n, 'Follower')}" + (f", Fort {fort}" if fort else "")


def _sides_line(c: _Open, state: GameState) -> str:
    if c.units is None:
        return " against ".join(side_name(state, s) for s in c.sides)
    return " against ".join(_strength(state, s, c.units[i], c.forts[i]) for i, s in enumerate(c.sides))


def _side(c: _Open, side: int) -> int:
    return c.sides.index(side) if side in c.sides else -1


def _line(c: _Open, e: Event, state: GameState, w: Words) -> ConflictLine | None:
    """The line an event adds to its conflict's report (None: nothing to show)."""
    s = e.seat
    match e:
        case E.PlaysFirstChosen(first=first):
            return ConflictLine("cards", f"{side_does(state, first, 'plays', 'play')} cards first", first)
        case E.CombatCardPlayed(card=card):
            i = _side(c, s)
            if i >= 0:
                c.played[i] += 1
            named = "" if card == HIDDEN else f" ({w.card(card)}, {combat_icons(state, card)})"
            return ConflictLine(
                "cards", f"{side_does(state, s, 'plays', 'play')} card {c.played[max(i, 0)]} face down{named}", s
            )
        case E.KingCombatCards(count=n, revealed=revealed):
            how = "reveals them: you play yours after seeing them" if revealed else "face down: you play yours first"
            return ConflictLine("cards", f"The King draws {plural(n, 'combat card')}, {how}", s)
        case E.ConflictReveal(cards=cards, attack=attack, defense=defense):
            if (i := _side(c, s)) >= 0:
                c.icons[i] = (attack, defense)
            return ConflictLine("reveal", _reveal(state, w, s, cards, attack, defense), s)
        case E.ConflictDamage(damage=n):
            taken = (f"{n} damage" if n else "no damage") + _sum(c, s)
            return ConflictLine("damage", f"{side_does(state, s, 'takes', 'take')} {taken}", s)
        case E.UnitsEliminated(count=n, to_limbo=to_limbo):
            _lose(c, s, n)
            gone = " (stranded: no area to retreat to)" if c.winner is not None else ""
            who = plural(n, "Shadow") if s == SHADOWS else f"{plural(n, 'Follower')} of {side_name(state, s)}"
            return ConflictLine(
                "damage",
                f"  {who} {'is' if n == 1 else 'are'} eliminated" + (" to Limbo" if to_limbo else "") + gone,
                s,
            )
        case E.FortLevelsLost(count=n):
            i = _side(c, s)
            if i >= 0:
                c.forts[i] = max(0, c.forts[i] - n)
            return ConflictLine("damage", f"  {side_name(state, s)} loses {plural(n, 'Fort level')}", s)
        case E.ConflictWon(why=why):
            c.winner = s
            return ConflictLine("winner", f"{side_does(state, s, 'wins', 'win')}: {WHY_WON.get(why, why)}", s)
        case E.TieBroken(winner=winner):
            return ConflictLine("winner", f"A tie: {side_name(state, s)} chooses the winner", winner)
        case E.Retreated(source=source, to=to):
            _lose(c, s, 1)
            return ConflictLine(
                "retreat",
                f"{side_does(state, s, 'retreats', 'retreat')} a unit from {w.area(source)} to {w.area(to)}",
                s,
            )
        case E.VictoryResolved(card=card):
            return ConflictLine("effect", f"Victory: {_effect_text(w, card, 'victory')}", s)
        case E.VictoryDrawInstead():
            return ConflictLine("effect", f"Victory: {side_name(state, s)} draws 1 Development card instead", s)
        case E.DefeatSuffered(card=card):
            return ConflictLine("effect", f"Defeat: {_effect_text(w, card, 'defeat')}", s)
        case E.KingVictoryCard():
            return ConflictLine("effect", describe_event(e, state), s)
    return None


def _sum(c: _Open, side: int) -> str:
    """CONFLICTS 5: ' (3⚔ against 1⛨)': the other side's Attacks, each Defence cancelling 1."""
    i = _side(c, side)
    mine, theirs = (c.icons[i], c.icons[1 - i]) if i >= 0 else (None, None)
    if mine is None or theirs is None:
        return ""
    return f" ({theirs[0]}⚔ against {mine[1]}⛨)"


def _lose(c: _Open, side: int, n: int) -> None:
    i = _side(c, side)
    if i >= 0 and c.units is not None:
        c.units[i] = max(0, c.units[i] - n)


def _reveal(state: GameState, w: Words, side: int, cards: Sequence[str], attack: int, defense: int) -> str:
    total = f"{attack}⚔ {defense}⛨"
    if side == SHADOWS:
        name = w.card(cards[0]) if cards else "the Conflict card"
        return f"The Shadows' Conflict card {name}: {total}"
    each = ", ".join(f"{w.card(card)} {combat_icons(state, card)}".rstrip() for card in cards)
    return f"{side_does(state, side, 'reveals', 'reveal')} {each or 'no card'} = {total}"


def _effect_text(w: Words, card: str, which: Literal["victory", "defeat"]) -> str:
    found = next((x for x in w.pack.cards.conflicts if x.id == card), None)
    if found is None:
        return w.card(card)
    return f"{getattr(found, which).text} ({found.name})"
