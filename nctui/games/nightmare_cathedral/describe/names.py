"""Names from the content pack and of the seats: every sentence of ``describe`` names things
through here (areas, symbols, Day and Night spaces, cards, Nightmares, seats and sides)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..content.loader import Pack, get_pack
from ..content.schema import DaySpace
from ..engine import king_combat as kc
from ..engine.events import HIDDEN, plural
from ..engine.state import GameState

SEAT_LETTERS = {"red": "R", "blue": "B", "green": "G", "yellow": "Y"}
END_REASONS = {"time": "the Time marker reached the skull", "devoured": "the Devoured end condition was met"}
SHADOWS = -2

__all__ = [
    "END_REASONS",
    "SEAT_LETTERS",
    "Words",
    "combat_icons",
    "plural",
    "seat_letter",
    "seat_name",
    "side_name",
    "words_for",
]


class Words:
    """Names from one content pack: areas, symbols, spaces, cards."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        self.areas = {a.id: a for sm in pack.sides for a in sm.side.areas}
        self.sides = {sm.side.id: sm.side for sm in pack.sides}
        self.corners = {a.id for sm in pack.sides for a in sm.side.areas if a.corner}
        self.symbols = {s.id: s for s in pack.board.symbols}
        self.days: dict[str, DaySpace] = {d.action: d for d in pack.matrix.days}
        self.nights = {n.id: n for n in pack.matrix.nights}
        c = pack.cards
        names = {a.id: a.name for a in c.actions}
        names[c.basic_combat.id] = c.basic_combat.name
        names.update((d.id, d.name) for d in c.development)
        names.update((d.id, d.name) for d in c.dreams)
        names.update((d.id, d.name) for d in c.conflicts)
        names.update((d.id, d.name) for d in c.king_combat)
        names.update((t.id, t.name) for t in c.reward_tiles)
        self.cards = names
        self.nightmares = {n.number: n.name for n in c.nightmares}

    def area(self, area_id: str) -> str:
        if area_id == "cathedral":
            return "the Cathedral space"
        a = self.areas.get(area_id)
        return a.name if a else area_id

    def symbol(self, symbol_id: str, *, name: bool = True) -> str:
        """'◉E Eye': the glyph, the letter (for monochrome terminals) and the name."""
        s = self.symbols.get(symbol_id)
        if s is None:
            return symbol_id
        return f"{s.glyph}{s.letter} {s.name}" if name else f"{s.glyph}{s.letter}"

    def day(self, action: str) -> str:
        d = self.days.get(action)
        return d.name if d else action.capitalize()

    def day_short(self, action: str) -> str:
        """'Ritual', 'Maneuver': the action's one-word name."""
        return action.capitalize()

    def space(self, space_id: str) -> str:
        """A Night space or a Day space, by id."""
        if space_id in self.nights:
            return self.nights[space_id].name
        if space_id in self.days:
            return self.day_short(space_id)
        return space_id or "off the board"

    def card(self, card_id: str) -> str:
        if card_id == HIDDEN:
            return "a hidden card"
        return self.cards.get(card_id, card_id)

    def cards_list(self, cards: Sequence[str]) -> str:
        return ", ".join(self.card(c) for c in cards)

    def nightmare(self, number: int) -> str:
        name = self.nightmares.get(number)
        return f"{number} ({name})" if name else str(number)

    def board_side(self, side_id: str) -> str:
        side = self.sides.get(side_id)
        return side.name if side else side_id


@lru_cache(maxsize=8)
def words_for(pack_id: str) -> Words:
    return Words(get_pack(pack_id))


def _is_king(state: GameState, seat: int) -> bool:
    """The King of Horrors' seat in solo (named from the start, before its play area is set up)."""
    seats = state.config.seats
    return 0 <= seat < len(seats) and seats[seat] == "king"


def seat_name(state: GameState, seat: int) -> str:
    """'Red', from the seat's colour; 'King' for the King of Horrors' seat in solo."""
    if _is_king(state, seat):
        return "King"
    if 0 <= seat < len(state.players):
        return state.players[seat].colour.capitalize()
    return "Nobody"


def seat_letter(state: GameState, seat: int) -> str:
    if _is_king(state, seat):
        return "K"
    if 0 <= seat < len(state.players):
        colour = state.players[seat].colour
        return SEAT_LETTERS.get(colour, colour[:1].upper())
    return "?"


def side_name(state: GameState, side: int) -> str:
    """A seat's colour, or the Shadows (side -2)."""
    return "the Shadows" if side == SHADOWS else seat_name(state, side)


def side_does(state: GameState, side: int, does: str, do: str, *, opens: bool = True) -> str:
    """A side as a subject, with its verb agreeing: 'Red reveals', 'The Shadows reveal' (the
    Shadows are many; 'the Shadows' when the words do not open the sentence)."""
    if side == SHADOWS:
        return f"{'The' if opens else 'the'} Shadows {do}"
    return f"{seat_name(state, side)} {does}"


def combat_icons(state: GameState, card: str) -> str:
    """'2⚔ 1⛨': a combat card's Attacks and Defences ('' for a hidden or unknown card)."""
    if card == HIDDEN:
        return ""
    try:
        cb = kc.combat(state, card)
    except (KeyError, LookupError, ValueError):
        return ""
    return f"{cb.attack}⚔ {cb.defense}⛨"
