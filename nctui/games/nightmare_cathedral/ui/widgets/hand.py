"""The viewer's hand: Development cards with their combat icons, the Basic Combat card, and the
Dream cards with their conditions and whether each can be played now. Other seats: counts only
(their cards are hidden in the view anyway).

A Dream "can be played now" when the due decision offers it (a ``PlayDream`` option): the engine
opens a Dream window only when the golden rule allows, so the options are the truth. Otherwise
the line says whether its conditions hold (``Facts.dreams_met``, from the rules) and when it
may be played. With the focus, up/down (or j/k) move a cursor over the cards, Enter chooses
the option about the card under it and ``i`` shows the card in the inspector.
"""

from __future__ import annotations

import textwrap

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.reactive import reactive

from nctui.ui.textual_ext.placed import FitsContent
from nctui.ui.widgets.common import OptionsPicked, clip

from ...content import schema as cs
from ...describe import seat_letter, seat_name
from ...describe.names import combat_icons, words_for
from ...engine.actions import PlayDream
from ...engine.events import HIDDEN, plural
from ...engine.facts import WHEN, Facts
from ...engine.state import HAND_LIMIT, GameState
from ...engine.views import View
from ...engine.work import fight_of
from .cards import card_def, combat_text, suit_tag
from .seats import seat_style

LABEL = Style(color="#9a9aaa")
NAME = Style(bold=True)
CAN_PLAY = Style(color="#5fd75f", bold=True)
MET = Style(color="#ffd75f")
NOT_MET = Style(color="#9a9aaa")
CURSOR = Style(reverse=True)
OPTION = Style(color="#ffd75f", bold=True)


def hand_cards(view: View) -> list[str]:
    """The viewer's cards in the order drawn: Development cards, then Dreams."""
    state, me = view.state, view.seat
    if not 0 <= me < len(state.players):
        return []
    pl = state.players[me]
    return [c for c in (*pl.hand, *pl.dreams) if c != HIDDEN]


def option_numbers(state: GameState, seat: int, card_id: str) -> list[int]:
    """1-based numbers of the due decision's options about this card (play, discard, keep …)."""
    d = state.decision
    if d is None or d.seat != seat:
        return []
    return [i + 1 for i, a in enumerate(d.options) if getattr(a, "card", None) == card_id]


def dream_status(state: GameState, facts: Facts, seat: int, card_id: str) -> tuple[str, Style]:
    """Whether the Dream can be played now, and if not, why (in words)."""
    d = state.decision
    if d is not None and d.seat == seat and PlayDream(card=card_id) in d.options:
        return "✓ can be played now", CAN_PLAY
    card = card_def(state.pack, card_id)
    if not isinstance(card, cs.DreamCard):
        return "", LABEL
    if card_id in facts.dreams_met:
        return f"◇ conditions met; play it {WHEN.get(card.when, card.when)}", MET
    return "✗ conditions not met", NOT_MET


class HandView(FitsContent, can_focus=True):
    """Draws the hand of ``view``'s seat with the ``facts`` of the view (set before the view;
    nothing is drawn until both are); ``cursor``: the index of the card under the cursor."""

    BINDINGS = [
        Binding("up", "move(-1)", "Previous card", show=False, id="hand.up"),
        Binding("down", "move(1)", "Next card", show=False, id="hand.down"),
        Binding("k", "move(-1)", "Previous card", show=False, id="hand.k"),
        Binding("j", "move(1)", "Next card", show=False, id="hand.j"),
        Binding("enter", "pick", "Pick", id="hand.pick"),
    ]

    DEFAULT_CSS = """
    HandView { height: auto; width: 100%; }
    """

    view: reactive[View | None] = reactive(None, repaint=False)
    facts: reactive[Facts | None] = reactive(None, repaint=False)
    cursor: reactive[int] = reactive(0, layout=True)
    # the decision list's lines (``Prompt.slots``: the option on each, () for one each), set before
    # the view: a card's number is its option's line in the list
    slots: tuple[int, ...] = ()

    def current(self) -> str | None:
        """The card under the cursor (when the hand has the focus)."""
        cards = hand_cards(self.view) if self.view else []
        return cards[min(self.cursor, len(cards) - 1)] if cards else None

    def on_focus(self) -> None:
        self.refresh(layout=True)

    def on_blur(self) -> None:
        self.refresh(layout=True)

    def action_move(self, delta: int) -> None:
        n = len(hand_cards(self.view)) if self.view else 0
        if n:
            self.cursor = (min(self.cursor, n - 1) + delta) % n

    def action_pick(self) -> None:
        """Enter: the option of the due decision about the card under the cursor (the screen
        sends it, or lets the player choose among several in the list)."""
        card = self.current()
        if card is not None and self.view is not None:
            name = getattr(card_def(self.view.state.pack, card), "name", card)
            numbers = option_numbers(self.view.state, self.view.seat, card)
            self.post_message(OptionsPicked(name, tuple(n - 1 for n in numbers)))

    def render(self) -> Text:
        if self.view is None or self.facts is None:
            return Text("")
        return render_hand(
            self.view, self.facts, self.current() if self.has_focus else None, self.content_width or 80, self.slots
        )

    def render_key(self) -> tuple[object, ...] | None:
        if self.view is None or self.facts is None or self.has_focus:  # a card under the cursor: drawn each time
            return None
        return (*hand_key(self.view, self.facts), self.slots)


def hand_key(view: View, facts: Facts) -> tuple[object, ...]:
    """All that ``render_hand`` reads of ``view`` and ``facts`` with no card under a cursor."""
    state, me, d, king = view.state, view.seat, view.state.decision, view.state.king
    mine = state.players[me] if 0 <= me < len(state.players) else None
    return (
        state.pack,
        state.config.seats,
        me,
        None if mine is None else (mine.hand, mine.dreams),
        tuple((pl.seat, pl.colour, len(pl.hand), len(pl.dreams)) for pl in state.players),
        None if king is None else (king.seat, len(king.hand)),
        None if (fight := fight_of(state.work)) is None else (fight.sides, fight.plays),
        None
        if d is None or d.seat != me
        else tuple(
            (i, type(a), card) for i, a in enumerate(d.options) if (card := getattr(a, "card", None)) is not None
        ),
        facts.dreams_met,
    )


def render_hand(
    view: View, facts: Facts, cursor: str | None = None, width: int = 80, slots: tuple[int, ...] = ()
) -> Text:
    state, me = view.state, view.seat
    width = max(width, 30)
    lines: list[Text] = []
    if 0 <= me < len(state.players):
        pl = state.players[me]
        head = Text(f"{seat_letter(state, me)} {seat_name(state, me)}'s hand", seat_style(state, me), end="")
        dreams_n = f"{len(pl.dreams)} Dream{'s' if len(pl.dreams) != 1 else ''}"
        head.append(f" · {len(pl.hand)} of {HAND_LIMIT} cards · {dreams_n}", LABEL)
        lines.append(head)
        name_w = min(24, width - 22)
        lines += [_development_line(state, me, c, c == cursor, name_w, slots) for c in pl.hand]
        for card_id in pl.dreams:
            lines += _dream_lines(state, facts, me, card_id, card_id == cursor, width, slots)
    for other in state.players:
        if other.seat == me or (state.king is not None and other.seat == state.king.seat):
            continue
        line = Text(
            f"{seat_letter(state, other.seat)} {seat_name(state, other.seat)}", seat_style(state, other.seat), end=""
        )
        hidden = f"{plural(len(other.hand), 'card')} in hand, {plural(len(other.dreams), 'Dream')} (hidden)"
        line.append(f": {hidden}", LABEL)
        lines.append(line)
    if state.king is not None:
        line = Text(f"{seat_letter(state, state.king.seat)} the King", seat_style(state, state.king.seat), end="")
        line.append(f": {plural(len(state.king.hand), 'combat card')} in hand, face down", LABEL)
        lines.append(line)
        fight = fight_of(state.work)
        if fight is not None and state.king.seat in fight.sides:
            played = fight.plays[fight.sides.index(state.king.seat)]
            shown = [c for c in played if c != HIDDEN]
            if played:
                line = Text("  in this conflict: ", LABEL, end="")
                w = words_for(state.pack)
                line.append(", ".join(f"{w.card(c)} {combat_icons(state, c)}" for c in shown))
                if len(played) > len(shown):
                    line.append(f"{', ' if shown else ''}{plural(len(played) - len(shown), 'card')} face down", LABEL)
                lines.append(line)
    for line in lines:
        line.truncate(width, overflow="ellipsis")
    return Text("\n", end="").join(lines)


def _marker(t: Text, state: GameState, seat: int, card_id: str, at_cursor: bool, slots: tuple[int, ...]) -> None:
    """'▸' under the cursor, then the number of the first option about the card (its line in the
    decision list)."""
    numbers = [slots.index(n - 1) + 1 if n - 1 in slots else n for n in option_numbers(state, seat, card_id)]
    t.append("▸" if at_cursor else " ", Style(bold=True))
    t.append(f"{numbers[0]:>2}" if numbers else "  ", OPTION)
    t.append(" ")


def _development_line(
    state: GameState, seat: int, card_id: str, at_cursor: bool, name_w: int, slots: tuple[int, ...]
) -> Text:
    card = card_def(state.pack, card_id)
    t = Text(end="")
    _marker(t, state, seat, card_id, at_cursor, slots)
    name = getattr(card, "name", card_id)
    t.append(clip(name, name_w).ljust(name_w), NAME + (CURSOR if at_cursor else Style()))
    if isinstance(card, (cs.DevelopmentCard, cs.BasicCombat)):
        t.append(f" {combat_text(card.combat)} ")
    if isinstance(card, cs.DevelopmentCard):
        kind = f"Upgrade {card.action.capitalize()}" if card.kind == "upgrade" and card.action else "Ploy"
        t.append(kind + (f" {card.vp} VP" if card.vp else ""), LABEL)
    elif isinstance(card, cs.BasicCombat):
        t.append("Basic Combat", LABEL)
    return t


def _dream_lines(
    state: GameState, facts: Facts, seat: int, card_id: str, at_cursor: bool, width: int, slots: tuple[int, ...]
) -> list[Text]:
    """The Dream's name, suit, VP and status, then its conditions (wrapped)."""
    card = card_def(state.pack, card_id)
    if not isinstance(card, cs.DreamCard):
        return []
    t = Text(end="")
    _marker(t, state, seat, card_id, at_cursor, slots)
    t.append(card.name, NAME + (CURSOR if at_cursor else Style()))
    t.append(f" {suit_tag(state.pack, card.suit)} {card.vp} VP", LABEL)
    status, style = dream_status(state, facts, seat, card_id)
    wrapped = textwrap.wrap(card.text, max(width - 5, 20))
    return [t, Text(f"     {status}", style, end=""), *(Text(f"     {line}", LABEL, end="") for line in wrapped)]
