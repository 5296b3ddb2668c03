"""The screen of the dice game of Dreamers and Nightmares (seed 002): the Dreamer card whose
dreams are being resolved, its rows filling, the dreams rolled and their faces, the bag by
colour, every player's Power and role, the Nightmare cards, the decision, the log; the shell's
keys (``nctui.ui.screens.shell``). Nothing is hidden from one player to another: people at one
keyboard need no hand-off (whoever decides is the one looking)."""

from __future__ import annotations

from typing import cast

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList, Static

from nctui.ui.screens.options_game import OptionsScreen
from nctui.ui.widgets.footer import KeyFooter
from nctui.ui.widgets.log import GameLog

from .. import words
from ..content import content
from ..facts import DreamersFacts
from ..state import Die, DreamersState

LETTER = ("D", "E", "I", "F")  # the Depths, Envy, Imprisonment, Primeval Fear
STYLE = ("bold #6fa8ff", "bold #6fd36f", "bold #c0a0ff", "bold #ff6f6f")
FACE = {"power": "1", "double": "2", "hunt": "H", "exhaust": "X", "shadow": "S"}


def die_text(d: Die) -> Text:
    """A dream as its colour's letter and its face: 1 or 2 Power, H Hunt, X Exhaust (X2 on its
    side: it counts twice), S Shadow."""
    return Text(f"{LETTER[d.colour]}{FACE[d.face]}{'2' if d.sideways else ''} ", style=STYLE[d.colour])


NOTES_HELP = (
    "[b]Dreams[/b]: a colour's letter ([b]D[/b] the Depths, [b]E[/b] Envy, [b]I[/b] Imprisonment, "
    "[b]F[/b] Primeval Fear) and its face: [b]1[/b] or [b]2[/b] Power, [b]H[/b] Hunt, [b]X[/b] Exhaust "
    "([b]X2[/b] on its side: it counts twice), [b]S[/b] Shadow."
)


class DreamersScreen(OptionsScreen):
    DEFAULT_CSS = """
    DreamersScreen { layout: vertical; }
    DreamersScreen #dr-status { height: 1; background: $boost; padding: 0 1; }
    DreamersScreen #dr-body { height: 1fr; }
    DreamersScreen #dr-left { width: 40; }
    DreamersScreen #dr-card { height: auto; border: round $accent; padding: 0 1; }
    DreamersScreen #dr-table { height: 1fr; border: round $accent; padding: 0 1; }
    DreamersScreen #dr-options { height: 1fr; border: round $accent; }
    DreamersScreen #dr-log { height: 8; border: round $panel; padding: 0 1; }
    """
    OPTIONS_ID = "dr-options"
    SAVE_PREFIX = "dreamers-"
    HANDS_HIDDEN = False  # the bag's future is nobody's: every seat sees the same
    HELP_NOTES = NOTES_HELP

    def compose(self) -> ComposeResult:
        yield Static(id="dr-status")
        with Horizontal(id="dr-body"):
            with Vertical(id="dr-left"):
                yield Static(id="dr-card")
                yield Static(id="dr-table")
            with Vertical():
                yield OptionList(id="dr-options")
                yield GameLog(id="dr-log")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#dr-table").border_title = "Players, bag and Nightmares"
        self.query_one("#dr-options").border_title = "Decision"
        self.query_one("#dr-log").border_title = "Log"
        super().on_mount()

    def save_turn(self) -> int:
        return self._view().turns + 1

    def decision_topic(self) -> tuple[str | None, str | None]:
        from .topics import decision_topic

        return decision_topic(self._view())

    def _view(self) -> DreamersState:
        return cast(DreamersState, self.view())

    def draw_panels(self) -> None:
        view = self._view()
        facts = cast(DreamersFacts, self.game.facts(self.viewer))
        self.query_one("#dr-status", Static).update(self._status(view))
        card = self.query_one("#dr-card", Static)
        card.border_title = f"{self.seat_label(view.actor).name}'s Dreamer card"
        card.update(self._card(view, facts))
        self.query_one("#dr-table", Static).update(self._table(view, facts))

    def _status(self, view: DreamersState) -> Text:
        if view.phase == "over":
            who = " and ".join(self.seat_label(w).name for w in view.winners)
            return Text(f"Dreamers and Nightmares · {who} {'wins' if len(view.winners) == 1 else 'share the win'}")
        seat = self.game.deciding_seat()
        who = (
            ""
            if seat is None
            else self.seat_label(seat).name + (" (computer) is thinking…" if self.game.is_computer(seat) else "")
        )
        track = ""
        if view.track >= 0:
            t = content().track[view.track]
            track = f" · {t.name}, step {view.step + 1} of {len(t.draws)}"
        final = " · final turns" if view.final is not None else ""
        return Text(f"Dreamers · {who}{track}{final} · undo: {self.game.undo_policy}")

    def _card(self, view: DreamersState, facts: DreamersFacts) -> Text:
        seat = view.seats[view.actor]
        c = content()
        text = Text()
        text.append(f"Power {facts.power(view.actor):>2}/{c.power_to_end}  ")
        for d in seat.card.power:
            text.append_text(die_text(d))
        text.append(f"\nHunt    {len(seat.card.hunt)}/{c.hunt_limit}  ")
        for d in seat.card.hunt:
            text.append_text(die_text(d))
        text.append(f"\nExhaust {facts.exhaustion(view.actor)}/{c.exhaust_limit}  ")
        for d in seat.card.exhaust:
            text.append_text(die_text(d))
        limit = facts.shadow_limit()
        for colour, row in enumerate(seat.card.shadows):
            text.append(f"\nShadow {LETTER[colour]} {len(row)}/{limit} ", style=STYLE[colour])
            for d in row:
                text.append_text(die_text(d))
        text.append("\nRolled: ")
        for d in view.unresolved:
            text.append_text(die_text(d))
        if view.drawn:
            text.append("\nDrawn:  " + " ".join(LETTER[x] for x in view.drawn))
        return text

    def _table(self, view: DreamersState, facts: DreamersFacts) -> Text:
        text = Text()
        for i, s in enumerate(view.seats):
            role = {
                "dreamer": "Dreamer",
                "out": "eliminated",
                "nightmare": f"Nightmare ({words.colour_name(s.nightmare)})",
            }[s.role]
            marker = ">" if i == view.turn else " "
            text.append(f"{marker}P{i + 1} {role:<22} Power {facts.power(i):>2}\n")
            if who := self.presence_words(i):  # online: who holds the seat and whether they are there
                text.append(f"    {who}\n", style="dim")
        text.append("Bag: ")
        for colour, n in enumerate(view.bag):
            text.append(f"{LETTER[colour]} {n}  ", style=STYLE[colour])
        text.append("\n")
        for colour in range(4):
            takes, ability = facts.nightmare_card(colour)
            owner = facts.nightmare_of(colour)
            who = f"P{owner + 1}" if owner >= 0 else f"free ({len(view.on_cards[colour])} Power on it)"
            text.append(f"{LETTER[colour]} ", style=STYLE[colour])
            text.append(f"{words.FACES[takes]}→{ability}: {who}\n")
        return text
