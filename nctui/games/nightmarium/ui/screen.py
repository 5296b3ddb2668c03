"""The Nightmarium screen (seed 003): every player's Creatures as small stacks, your hand grouped
by part and legion, the decision due with every option in words, the chain of abilities being
resolved, the log. Hot-seat hands are hidden: when the turn passes to another person at this
keyboard, the shared hand-off screen asks them to take the keyboard first (Enter; a digit does
not lift it).

Keys: ↑/↓ and Enter, or a digit, choose an option; the shell's keys (``nctui.ui.screens.shell``):
u undo, r redo, t the timeline, s save, o load, ? help, R the rules, q save and quit.
"""

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
from ..cards import LEGIONS, PARTS, card
from ..state import HIDDEN, NightmariumState

LEGION_LETTER = {"necronauts": "N", "insektoids": "I", "chimeridae": "C", "homunculi": "H"}
LEGION_STYLE = {
    "necronauts": "bold #6fa8ff",
    "insektoids": "bold #c89a5a",
    "chimeridae": "bold #6fd36f",
    "homunculi": "bold #ff6f6f",
}


def stack(cards: tuple[str, ...]) -> Text:
    """A Creature as letters bottom up (its legions), '.' for a part still missing, '*' complete."""
    text = Text()
    for c in cards:
        legion = card(c).legion
        text.append(LEGION_LETTER[legion], style=LEGION_STYLE[legion])
    text.append("." * (3 - len(cards)))
    text.append("*" if len(cards) == 3 else " ")
    return text


NOTES_HELP = (
    "[b]Creatures[/b]: each player's, bottom up, one letter per card for its legion ([b]N[/b] Necronauts,"
    " [b]I[/b] Insektoids, [b]C[/b] Chimeridae, [b]H[/b] Homunculi); [b].[/b] a part still missing, "
    "[b]*[/b] complete; h: the cards in hand. [b]Your hand[/b]: grouped by the part each card may be."
)


class NightmariumScreen(OptionsScreen):
    DEFAULT_CSS = """
    NightmariumScreen { layout: vertical; }
    NightmariumScreen #nm-status { height: 1; background: $boost; padding: 0 1; }
    NightmariumScreen #nm-body { height: 1fr; }
    NightmariumScreen #nm-left { width: 34; }
    NightmariumScreen #nm-players { height: auto; max-height: 9; border: round $accent; padding: 0 1; }
    NightmariumScreen #nm-hand { height: 1fr; border: round $accent; padding: 0 1; }
    NightmariumScreen #nm-right { width: 1fr; }
    NightmariumScreen #nm-chain { height: auto; max-height: 3; padding: 0 1; color: $warning; }
    NightmariumScreen #nm-options { height: 1fr; border: round $accent; }
    NightmariumScreen #nm-log { height: 7; border: round $panel; padding: 0 1; }
    """
    OPTIONS_ID = "nm-options"
    SAVE_PREFIX = "nightmarium-"
    HELP_NOTES = NOTES_HELP

    def compose(self) -> ComposeResult:
        yield Static(id="nm-status")
        with Horizontal(id="nm-body"):
            with Vertical(id="nm-left"):
                yield Static(id="nm-players")
                yield Static(id="nm-hand")
            with Vertical(id="nm-right"):
                yield Static(id="nm-chain")
                yield OptionList(id="nm-options")
                yield GameLog(id="nm-log")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#nm-players").border_title = "Creatures"
        self.query_one("#nm-hand").border_title = "Your hand"
        self.query_one("#nm-options").border_title = "Decision"
        self.query_one("#nm-log").border_title = "Log"
        super().on_mount()

    def save_turn(self) -> int:
        return self._view().turns

    def handoff_words(self, seat: int, view: NightmariumState) -> tuple[str, str]:
        return "", f"Turn {view.turns + 1}"

    def decision_topic(self) -> tuple[str | None, str | None]:
        from .topics import decision_topic

        return decision_topic(self._view())

    def _view(self) -> NightmariumState:
        return cast(NightmariumState, self.view())

    def draw_panels(self) -> None:
        view = self._view()
        self.query_one("#nm-status", Static).update(self._status(view))
        self.query_one("#nm-players", Static).update(self._players(view))
        self.query_one("#nm-hand", Static).update(self._hand(view))
        self.query_one("#nm-chain", Static).update(self._chain(view))
        menu = self.query_one("#nm-options", OptionList)
        mine = self.mine()
        menu.border_title = (
            f"Herald: place {' or '.join(card(c).name for c in view.revealed)}"
            if view.revealed and mine
            else "Decision"
        )

    def _status(self, view: NightmariumState) -> Text:
        if view.winner is not None:
            return Text(f"Nightmarium · {self.seat_label(view.winner).name} wins · u: undo · q: quit")
        seat = self.game.deciding_seat()
        who = "" if seat is None else self.seat_label(seat).name
        if self.game.is_computer(seat):
            doing = f"{who} (computer) is thinking…"
        elif view.pure is not None:
            doing = f"{who} discards for a pure-legion Creature"
        else:
            doing = f"{self.seat_label(view.turn).name}'s turn, {words.plural(view.actions_left, 'action')} left"
        return Text(f"Nightmarium · {doing} · to {view.config.creatures} · undo: {self.game.undo_policy}")

    def _players(self, view: NightmariumState) -> Text:
        text = Text()
        for seat, p in enumerate(view.players):
            marker = ">" if seat == view.turn else " "
            done = sum(len(c.cards) == 3 for c in p.creatures)
            who = self.presence_words(seat)  # online: who holds the seat and whether they are there
            text.append(f"{marker}P{seat + 1}{f' ({who})' if who else ''} {done}/{view.config.creatures} ")
            text.append(f"h:{len(p.hand):<2} ")
            for c in p.creatures:  # numbered by id, as the options name them
                text.append(f"{c.id + 1}:", style="dim")
                text.append_text(stack(c.cards))
            text.append("\n")
        text.append("legions: ", style="dim")
        for legion in LEGIONS:
            text.append(f"{LEGION_LETTER[legion]} {words.LEGION_NAMES[legion]}  ", style=LEGION_STYLE[legion])
        return text

    def _hand(self, view: NightmariumState) -> Text:
        """The hand grouped by the part each card may be, then by legion."""
        hand = [c for c in view.players[self.viewer].hand if c != HIDDEN] if self.viewer >= 0 else []
        text = Text()
        for part in PARTS:
            group = sorted((c for c in hand if part in card(c).parts), key=lambda c: (card(c).legion, card(c).name))
            text.append(f"{part.capitalize()} ({len(group)})\n", style="bold")
            for c in group:
                info = card(c)
                text.append(f" {LEGION_LETTER[info.legion]} ", style=LEGION_STYLE[info.legion])
                extra = "" if info.ability == "none" else f" · {words.ABILITY_NAMES[info.ability]}"
                text.append(f"{info.name}{extra}\n")
        return text

    def _chain(self, view: NightmariumState) -> Text:
        if view.activation is None or not view.activation.abilities:
            return Text("")
        names = " → ".join(words.ABILITY_NAMES[a] for a in view.activation.abilities)
        now = view.activation.abilities[0]
        return Text(f"Abilities to perform: {names}\nNow: {words.ABILITY_NAMES[now]}, {words.ABILITY_WORDS[now]}")
