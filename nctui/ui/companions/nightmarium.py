"""The Nightmarium screen (seed 003): every player's Creatures as small stacks, your hand grouped
by part and legion, the decision due with every option in words, the chain of abilities being
resolved, the log. Hot-seat hands are hidden: when the turn passes to another person at this
keyboard, a cover asks them to take the keyboard first (Enter; a digit does not lift it).

Keys: ↑/↓ and Enter, or a digit, choose an option; u undo, r redo, s save, o load, q save and quit.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from ... import saves
from ...companions.nightmarium import words
from ...companions.nightmarium.cards import LEGIONS, PARTS, card
from ...companions.nightmarium.facts import NightmariumFacts
from ...companions.nightmarium.state import HIDDEN, NightmariumState
from ...session.session import SessionError
from ...store import StoreError
from ..screens.load import LoadScreen
from ..screens.save import SaveScreen, default_name

if TYPE_CHECKING:
    from ..app import NctuiApp

LEGION_LETTER = {"necronauts": "N", "insektoids": "I", "chimeridae": "C", "homunculi": "H"}
LEGION_STYLE = {"necronauts": "bold #6fa8ff", "insektoids": "bold #c89a5a", "chimeridae": "bold #6fd36f",
                "homunculi": "bold #ff6f6f"}


def stack(cards: tuple[str, ...]) -> Text:
    """A Creature as letters bottom up (its legions), '.' for a part still missing, '*' complete."""
    text = Text()
    for c in cards:
        legion = card(c).legion
        text.append(LEGION_LETTER[legion], style=LEGION_STYLE[legion])
    text.append("." * (3 - len(cards)))
    text.append("*" if len(cards) == 3 else " ")
    return text


class NightmariumScreen(Screen[None]):
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
    NightmariumScreen #nm-log { height: 7; border: round $panel; }
    NightmariumScreen #nm-cover { height: 1fr; content-align: center middle; text-style: bold; display: none; }
    NightmariumScreen.-covered #nm-body { display: none; }
    NightmariumScreen.-covered #nm-cover { display: block; }
    """
    BINDINGS = [
        *(Binding(str(d), f"pick({d})", f"Option {d}", show=False, id=f"nightmarium.pick{d}") for d in range(1, 10)),
        Binding("u", "undo", "Undo", id="nightmarium.undo"),
        Binding("r", "redo", "Redo", id="nightmarium.redo"),
        Binding("s", "save", "Save", id="nightmarium.save"),
        Binding("o", "load", "Load", show=False, id="nightmarium.load"),
        Binding("q", "quit_game", "Save & quit", id="nightmarium.quit"),
    ]

    class Changed(Message):
        """The game changed (posted from whichever thread changed it)."""

    def __init__(self, game: Any) -> None:
        super().__init__()
        self.game = game
        self.humans = tuple(i for i, k in enumerate(game.seat_kinds) if k == "human")
        self.looking = self.humans[0] if self.humans else 0  # the person at the keyboard
        self._shown: tuple[int, tuple[object, ...]] = (-1, ())  # (state id, options) on screen
        self._logged = 0
        self._unsubscribe: Any = None
        self._quit_armed = False

    def compose(self) -> ComposeResult:
        yield Static(id="nm-status")
        yield Static(id="nm-cover")
        with Horizontal(id="nm-body"):
            with Vertical(id="nm-left"):
                yield Static(id="nm-players")
                yield Static(id="nm-hand")
            with Vertical(id="nm-right"):
                yield Static(id="nm-chain")
                yield OptionList(id="nm-options")
                log = RichLog(id="nm-log", wrap=True, markup=False)
                log.can_focus = False
                yield log
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#nm-players").border_title = "Creatures"
        self.query_one("#nm-hand").border_title = "Your hand"
        self.query_one("#nm-options").border_title = "Decision"
        self.query_one("#nm-log").border_title = "Log"
        self._unsubscribe = self.game.subscribe(lambda: self.post_message(self.Changed()))
        self._write_log()
        self._redraw()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def on_nightmarium_screen_changed(self, message: Changed) -> None:
        message.stop()
        self._write_log()
        self._redraw()

    # -- what is shown ---------------------------------------------------------------------------

    def _decider(self) -> int | None:
        return cast("int | None", self.game.deciding_seat())

    def _covered(self) -> bool:
        """Hot-seat: another person must take the keyboard before their hand shows."""
        seat = self._decider()
        return len(self.humans) > 1 and seat in self.humans and seat != self.looking

    def _view(self) -> NightmariumState:
        return cast(NightmariumState, self.game.view(self.looking))

    def _redraw(self) -> None:
        covered = self._covered()
        self.set_class(covered, "-covered")
        view = self._view()
        self.query_one("#nm-status", Static).update(self._status(view))
        if covered:
            seat = cast(int, self._decider())
            self.query_one("#nm-cover", Static).update(
                f"Player {seat + 1}, take the keyboard: your hand is hidden from the others.\n\n"
                "Press Enter when only you are looking.")
            return
        facts = cast(NightmariumFacts, self.game.facts(self.looking))
        self.query_one("#nm-players", Static).update(self._players(view))
        self.query_one("#nm-hand", Static).update(self._hand(view))
        self.query_one("#nm-chain", Static).update(self._chain(view))
        self._options(view, facts)

    def _status(self, view: NightmariumState) -> Text:
        if view.winner is not None:
            return Text(f"Nightmarium · Player {view.winner + 1} wins · u: undo · q: quit")
        seat = self._decider()
        who = "" if seat is None else f"Player {seat + 1}"
        if seat is not None and seat not in self.humans:
            doing = f"{who} (computer) is thinking…"
        elif view.pure is not None:
            doing = f"{who} discards for a pure-legion Creature"
        else:
            doing = f"Player {view.turn + 1}'s turn, {words.plural(view.actions_left, 'action')} left"
        return Text(f"Nightmarium · {doing} · to {view.config.creatures} · undo: {self.game.undo_policy}")

    def _players(self, view: NightmariumState) -> Text:
        text = Text()
        for seat, p in enumerate(view.players):
            marker = ">" if seat == view.turn else " "
            done = sum(len(c.cards) == 3 for c in p.creatures)
            text.append(f"{marker}P{seat + 1} {done}/{view.config.creatures} h:{len(p.hand):<2} ")
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
        hand = [c for c in view.players[self.looking].hand if c != HIDDEN]
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
        return Text(f"Abilities to perform: {names}\nNow: {words.ABILITY_NAMES[now]}, "
                    f"{words.ABILITY_WORDS[now]}")

    def _options(self, view: NightmariumState, facts: NightmariumFacts) -> None:
        seat = self._decider()
        mine = seat is not None and seat in self.humans and seat == self.looking
        options = facts.options if mine else ()
        key = (self.game.state_id, options)
        if key == self._shown:
            return
        self._shown = key
        menu = self.query_one("#nm-options", OptionList)
        menu.clear_options()
        if view.revealed and mine:
            menu.border_title = f"Herald: place {card(view.revealed[0]).name}"
        else:
            menu.border_title = "Decision"
        menu.add_options([Option(f"{i if i <= 9 else ' '}  {words.describe_action(cast(Any, a))}")
                          for i, a in enumerate(options, 1)])
        if options:
            menu.highlighted = 0
            menu.focus()

    def _write_log(self) -> None:
        update = self.game.events(self._logged, self.looking)
        log = self.query_one("#nm-log", RichLog)
        if update.state_id < self._logged:
            log.clear()
            update = self.game.events(0, self.looking)
        lines = [words.describe_event(e) for e in update.events]
        if lines:
            log.write("\n".join(lines))
        self._logged = update.state_id

    # -- keys ------------------------------------------------------------------------------------

    def on_key(self, event: Any) -> None:
        if self._covered() and event.key in ("enter", "space"):
            event.stop()
            self.looking = cast(int, self._decider())
            self._shown = (-1, ())
            self._logged = 0
            self.query_one("#nm-log", RichLog).clear()
            self._write_log()
            self._redraw()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self._choose(message.option_index)

    def action_pick(self, number: int) -> None:
        self._choose(number - 1)

    def _choose(self, index: int) -> None:
        if self._covered():
            return  # a digit never lifts the cover and chooses at once
        state_id, options = self._shown
        seat = self._decider()
        if seat is None or seat not in self.humans or state_id != self.game.state_id or not 0 <= index < len(options):
            return
        action = options[index]
        try:
            self.game.send(action, seen_state_id=state_id, seat=seat)
        except (ValueError, StoreError) as exc:
            self.notify(str(exc), title="Not now", severity="warning", timeout=6)
            return
        self.notify(f"Chosen: {words.describe_action(cast(Any, action))}", timeout=2)  # echoed: no surprise

    def action_undo(self) -> None:
        if self.game.state_id == 0:
            self.notify("Nothing to undo: this is the start of the game.", severity="warning")
            return
        try:
            self.game.undo(self.looking)
        except StoreError as exc:
            self.notify(str(exc), title="Undo", severity="warning", timeout=8)

    def action_redo(self) -> None:
        if not self.game.can_redo():
            self.notify("Nothing to redo.", severity="warning")
            return
        try:
            self.game.redo()
        except StoreError as exc:
            self.notify(str(exc), title="Redo", severity="warning", timeout=8)

    def action_save(self) -> None:
        folder = saves.save_dir(getattr(self.app, "save_dir", None))
        self.app.push_screen(SaveScreen(self.game, folder, default_name(self._view().turns, prefix="nightmarium-")),
                             self._saved)

    def _saved(self, path: Path | None) -> None:
        if path is not None:
            self.notify(f"Saved to {path}", title="Saved")

    def action_load(self) -> None:
        self.app.push_screen(LoadScreen(getattr(self.app, "save_dir", None)))

    def action_quit_game(self) -> None:
        try:
            path = self.game.flush()
        except (saves.SaveError, SessionError):
            path = None
        if path is None and not self._quit_armed:
            self._quit_armed = True
            self.notify("The game could not be saved. Press q again to quit without saving.",
                        title="Not saved", severity="error", timeout=10)
            return
        message = f"Game saved to {path}. Continue with: nctui (then c)" if path else None
        cast("NctuiApp", self.app).exit(message=message)
