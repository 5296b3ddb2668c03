"""The screen of the dice game of Dreamers and Nightmares (seed 002): the Dreamer card whose
dreams are being resolved, its rows filling, the dreams rolled and their faces, the bag by
colour, every player's Power and role, the Nightmare cards, the decision, the log; the shell's
keys (``nctui.ui.screens.shell``). Nothing is hidden from one player to another: people at one
keyboard need no hand-off (whoever decides is the one looking)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList, Static

from nctui.ui.screens.options_game import OptionsScreen, fitted
from nctui.ui.widgets.footer import KeyFooter
from nctui.ui.widgets.log import GameLog

from .. import words
from ..content import content
from ..facts import DreamersFacts
from ..state import Die, DreamersState

LETTER = words.LETTERS
STYLE = ("bold #6fa8ff", "bold #6fd36f", "bold #c0a0ff", "bold #ff6f6f")


def die_text(d: Die) -> Text:
    """A dream as its colour's letter and its face: 1 or 2 Power, H Hunt, X Exhaust (X2 on its
    side: it counts twice), S Shadow."""
    return Text(f"{words.die_code(d)} ", style=STYLE[d.colour])


NOTES_HELP = (
    "[b]Dreams[/b]: a colour's letter ([b]D[/b] the Depths, [b]E[/b] Envy, [b]I[/b] Imprisonment, "
    "[b]F[/b] Primeval Fear) and its face: [b]1[/b] or [b]2[/b] Power, [b]H[/b] Hunt, [b]X[/b] Exhaust "
    "([b]X2[/b] on its side: it counts twice), [b]S[/b] Shadow: [b]DS[/b] is a Shadow of the Depths. "
    "[b]Faces[/b] lists each colour's six. On the card, [b]Hunt 1/4[/b] is one dream in a row "
    f"that is full at 4. {words.ROWS_LEGEND}. The Nightmares: " + "; ".join(words.ABILITY_WORDS.values()) + "."
)


class DreamersScreen(OptionsScreen):
    DEFAULT_CSS = """
    DreamersScreen { layout: vertical; }
    DreamersScreen #dr-status { height: 1; background: $boost; padding: 0 1; }
    DreamersScreen #dr-body { height: 1fr; }
    DreamersScreen #dr-left { width: 40; max-width: 50%; }
    DreamersScreen.-wide #dr-left { width: 56; }
    DreamersScreen #dr-card { height: auto; border: round $accent; padding: 0 1; }
    DreamersScreen #dr-table { height: 1fr; border: round $accent; padding: 0 1; }
    DreamersScreen #dr-options { height: auto; max-height: 8; border: round $accent; }
    DreamersScreen.-tall #dr-options { max-height: 45%; }
    DreamersScreen #dr-faces { height: auto; border: round $panel; padding: 0 1; }
    DreamersScreen #dr-log { height: 1fr; min-height: 7; border: round $panel; padding: 0 1; }
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
                yield Static(id="dr-faces")
                yield GameLog(id="dr-log")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#dr-table").border_title = "Players, bag and Nightmares"
        self.query_one("#dr-options").border_title = "Decision"
        self.query_one("#dr-faces").border_title = "Faces: the six of each colour"
        self.query_one("#dr-log").border_title = "Log"
        self.size_classes()
        super().on_mount()

    def on_resize(self) -> None:
        if self.size_classes():
            self.call_after_refresh(self._redraw)

    def _you(self) -> int | None:
        """The seat called "you": this screen's one person (online: its seat; at one keyboard,
        the only person among computers). People sharing the screen are named: no hand-off
        tells them apart."""
        if self.seat is not None:
            return self.seat if self.seat >= 0 else None
        humans = [s for s, kind in enumerate(self.game.seat_kinds) if kind == "human"]
        return humans[0] if len(humans) == 1 else None

    def describe_events(self, events: Sequence[Any], view: Any) -> Sequence[Text | str]:
        return [words.describe_event(e, self._you()) for e in events]

    def _seat_words(self, seat: int) -> str:
        """'You', 'Player 2 (computer)', or who holds the seat online."""
        if seat == self._you():
            return "You"
        who = self.presence_words(seat) or ("computer" if self.game.is_computer(seat) else "")
        return f"{self.seat_label(seat).name}{f' ({who})' if who else ''}"

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
        whose = self._seat_words(view.actor)
        card.border_title = "Your Dreamer card" if whose == "You" else f"{whose}'s Dreamer card"
        card.update(self._card(view, facts))
        self.query_one("#dr-table", Static).update(self._table(view, facts))
        self.query_one("#dr-faces", Static).update(self._faces())

    def _status(self, view: DreamersState) -> Text:
        width = self.app.size.width - 2
        if view.phase == "over":
            names = [self._seat_words(w) for w in view.winners]
            verb = ("win" if names == ["You"] else "wins") if len(names) == 1 else "share the win"
            return fitted(["Dreamers and Nightmares", f"{' and '.join(names)} {verb}"], width)
        seat = self.game.deciding_seat()
        doing = ""
        if seat is not None:
            who = self._seat_words(seat)
            doing = f"{who} {'is thinking…' if self.game.is_computer(seat) else 'to decide'}"
            doing = "Your decision" if who == "You" else doing
        track = ""
        if view.track >= 0:
            t = content().track[view.track]
            track = f"{t.name}, step {view.step + 1} of {len(t.draws)} (draws {t.draws[view.step]})"
        final = "final turns" if view.final is not None else ""
        return fitted(["Dreamers and Nightmares", doing, track, final, f"undo: {self.game.undo_policy}"], width)

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
        # the dreams to decide on, in words (at 80x24 with four players the log's roll says them:
        # the players' panel needs the line)
        roomy = self.has_class("-tall") or len(view.seats) <= 3
        if view.unresolved and roomy:
            text.append("\n= " + ", ".join(words.die_words(d) for d in view.unresolved), style="dim")
        if view.drawn:
            text.append("\nDrawn:  " + " ".join(LETTER[x] for x in view.drawn))
            if roomy:
                text.append(f" = {words.colours_words(view.drawn)}", style="dim")
        if self.has_class("-tall"):
            text.append(f"\n{words.ROWS_LEGEND}.", style="dim")
        return text

    def _table(self, view: DreamersState, facts: DreamersFacts) -> Text:
        tall = self.has_class("-tall")
        text = Text()
        for i, s in enumerate(view.seats):
            role = {
                "dreamer": "",
                "out": " · eliminated",
                "nightmare": f" · Nightmare of {words.colour_name(s.nightmare)}",
            }[s.role]
            marker = ">" if i == view.turn else " "
            text.append(f"{marker}{self._seat_words(i)}: {facts.power(i)} Power{role}\n")
        text.append("Bag: ")
        for colour, n in enumerate(view.bag):
            text.append(f"{LETTER[colour]} {n}  ", style=STYLE[colour])
        text.append("\n")
        if tall:
            text.append("Nightmares: the face each takes → its ability:\n", style="dim")
        for colour in range(4):
            takes, ability = facts.nightmare_card(colour)
            owner = facts.nightmare_of(colour)
            who = self._seat_words(owner) if tall and owner >= 0 else self.seat_label(owner).name
            who = who if owner >= 0 else f"free ({len(view.on_cards[colour])} Power)"
            text.append(f"{LETTER[colour]} ", style=STYLE[colour])
            what = words.ABILITY_WORDS[ability] if tall else ability
            text.append(f"{words.FACES[takes]} → {what} · {who}\n")
        text.right_crop(1)
        return text

    def _faces(self) -> Text:
        """Each colour's six faces, and what the letters mean."""
        text = Text()
        for colour in range(4):
            text.append(f"{LETTER[colour]} {words.colour_name(colour):<15} ", style=STYLE[colour])
            text.append(words.faces_code(colour) + "\n")
        roomy = self.has_class("-tall") or self.has_class("-wide")
        text.append(words.FACE_LEGEND if roomy else words.FACE_LEGEND_SHORT, style="dim")
        return text
