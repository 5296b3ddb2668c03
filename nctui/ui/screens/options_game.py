"""The companion games' screens on the shared shell (``shell.GameShell``: the hand-off, the log,
the timeline, undo and redo, save, load, help, rules, quit): ``CompanionScreen`` draws a game's
own panels for the person looking and sends their decisions; ``OptionsScreen`` adds the decision
as a list of options in words (a digit, or ↑/↓ and Enter, chooses; the choice is echoed).

A game's screen says how to draw itself (``draw``), and where its rules explain the decision due
(``decision_topic``); a refusal of its rules names the rulebook section before its first ':'
("Rule 4: ...", "Action C: ..."), and R opens the section of the game's summary that names it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from nctui.platform.store import StoreError

from .shell import SHELL_KEYS, GameShell

OPTION_KEYS: list[BindingType] = [
    *(Binding(str(d), f"pick({d})", f"Option {d}", show=False) for d in range(1, 10)),
    *SHELL_KEYS,
]
OPTIONS_HELP = """\
  [b]1[/b]–[b]9[/b]        choose that option
  [b]↑[/b] [b]↓[/b]        move the highlight
  [b]Enter[/b]      choose the highlighted option (a click works too)
"""


def fitted(parts: Sequence[str], width: int) -> Text:
    """A status line: ``parts`` joined by ' · ', those that would not fit ``width`` left out (the
    first always in; the most important first)."""
    line = parts[0]
    for part in parts[1:]:
        if part and len(line) + 3 + len(part) <= width:
            line += f" · {part}"
    return Text(line)


class CompanionScreen(GameShell, Screen[None]):
    """A companion game being played through its session (a ``GameClient``)."""

    WIDE = 110  # columns from which a screen has the class -wide (more words fit)
    TALL = 34  # rows from which it has the class -tall

    def size_classes(self) -> bool:
        """The classes -wide and -tall for the app's size; whether they changed (then redraw)."""
        width, height = self.app.size
        before = (self.has_class("-wide"), self.has_class("-tall"))
        self.set_class(width >= self.WIDE, "-wide")
        self.set_class(height >= self.TALL, "-tall")
        return before != (self.has_class("-wide"), self.has_class("-tall"))

    # -- for each game ----------------------------------------------------------------------------

    def draw(self) -> None:
        """Draw the game's panels for ``viewer``."""
        raise NotImplementedError

    def view(self) -> Any:
        """What the person looking may see."""
        return self.game.view(self.viewer)

    # -- the shell's hooks ------------------------------------------------------------------------

    def on_mount(self) -> None:
        self._shell_start()
        self._redraw()

    def _redraw(self) -> None:
        seat = self.game.deciding_seat()
        if self._handoff_due(seat):  # hot seat: nothing of the next person's view before their key
            self._flows()
            return
        self._refresh_bots()
        self._look_as(seat)
        self._note_seen()
        self.draw()
        self._prepare_later()
        self._flows()

    # -- deciding ---------------------------------------------------------------------------------

    def mine(self) -> bool:
        """Whether the decision due is the person looking's (hot seat: after their hand-off)."""
        seat = self.game.deciding_seat()
        return seat is not None and seat == self.viewer and seat not in self.bots and self._decides(seat)

    def send(self, action: Any, state_id: int) -> bool:
        """Decide ``action`` (chosen at ``state_id``) for the person looking; a refusal is said
        (R then opens its rule). Whether it was taken."""
        if not self.mine() or self._too_soon():
            return False
        seat = self.viewer
        before = self.view()
        try:
            self.game.send(action, seen_state_id=state_id, seat=seat)
        except StoreError as exc:
            self.notify(str(exc), title="Not now", severity="warning", timeout=6)
            return False
        except ValueError as exc:  # the game's refusal, naming its rule
            self.refused(str(exc), state_id)
            return False
        words = self.rules_game.describe_action(action, before, secret=True)
        self._echo_choice(f"{self.seat_label(seat).name} chose: {words}")
        return True

    def refused(self, words: str, state_id: int) -> None:
        """The rules refuse an action (``words``: the rule, "Rule 2: ..."): said, and R opens its section."""
        self._note_refusal(state_id, self.refusal_topic(words), words)
        self.notify(f"{words[:1].upper()}{words[1:]}.\nPress R for the rule.", title="Not allowed", severity="warning")

    def refusal_topic(self, words: str) -> str | None:
        """The section of the game's summary that names the rulebook section a refusal names."""
        if not self.entry.rules:
            return None
        from ..rules import get_summary, section_naming

        return section_naming(get_summary(self.entry.rules), words.partition(":")[0])


class OptionsScreen(CompanionScreen):
    """A game whose decisions are lists of options: a digit or ↑/↓ and Enter chooses; the choice
    is echoed. The screen composes an ``OptionList`` with the id ``OPTIONS_ID``."""

    OPTIONS_ID = "options"
    BINDINGS = OPTION_KEYS
    HELP_KEYS = OPTIONS_HELP

    def __init__(self, game: Any, *, seat: int | None = None) -> None:
        super().__init__(game, seat=seat)
        self._shown: tuple[int, tuple[object, ...]] = (-1, ())  # (state id, options) on screen

    def draw_panels(self) -> None:
        """Everything but the options."""
        raise NotImplementedError

    def draw(self) -> None:
        self.draw_panels()
        self._draw_options()

    def options(self) -> tuple[Any, ...]:
        """The options of the decision due, when the person looking makes it."""
        facts: Any = self.game.facts(self.viewer)  # the game's own (the client's type is the main game's)
        return tuple(facts.options) if self.mine() else ()

    def describe_option(self, action: Any) -> str:
        return self.rules_game.describe_action(action, self.view())

    def _draw_options(self) -> None:
        options = self.options()
        key = (self.game.state_id, options)
        menu = self.query_one(f"#{self.OPTIONS_ID}", OptionList)
        if key != self._shown:
            self._shown = key
            menu.clear_options()
            menu.add_options(
                [Option(f"{i if i <= 9 else ' '}  {self.describe_option(a)}") for i, a in enumerate(options, 1)]
            )
            if options:
                menu.highlighted = 0
        if options and self.is_current:
            menu.focus()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.choose(message.option_index)

    def action_pick(self, number: int) -> None:
        self.choose(number - 1)

    def choose(self, index: int) -> None:
        state_id, options = self._shown
        if state_id != self.game.state_id or not 0 <= index < len(options):
            return
        action = options[index]
        words = self.describe_option(action)
        if self.send(action, state_id):
            self.notify(f"Chosen: {words}", timeout=2)  # echoed: no surprise
