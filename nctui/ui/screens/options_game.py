"""What every companion game's screen shares: the session it reads (subscribed, redrawn once
for however many changes were posted), the log, and the keys u undo, r redo, s save, o load,
q save and quit. A game's screen says how to draw itself (``redraw``) and how its events read
(``describe``); ``OptionsScreen`` adds the decision as a list of options in words and the
hot-seat cover."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option

from nctui.platform import saves
from nctui.platform.store import StoreError

from .load import LoadScreen
from .save import SaveScreen, default_name, quit_after_saving

if TYPE_CHECKING:
    pass

GAME_KEYS = [
    Binding("u", "undo", "Undo"),
    Binding("r", "redo", "Redo"),
    Binding("s", "save", "Save"),
    Binding("o", "load", "Load", show=False),
    Binding("q", "quit_game", "Save & quit"),
]


class CompanionScreen(Screen[None]):
    """A companion game being played through its session (a ``GameClient``)."""

    LOG_ID = "log"  # the RichLog of the game's log
    SAVE_PREFIX = ""

    class Changed(Message):
        """The game changed (posted from whichever thread changed it)."""

    def __init__(self, game: Any) -> None:
        super().__init__()
        self.game = game
        # the people at this keyboard: every person's seat, or a game on a server's one seat (none watching)
        here = game.seat
        people = tuple(i for i, k in enumerate(game.seat_kinds) if k == "human")
        self.humans = people if here is None else (here,) if here >= 0 else ()
        self.looking = self.humans[0] if self.humans else 0  # the person at the keyboard
        self._logged = 0
        self._unsubscribe: Any = None
        self._quit_armed = False

    # -- for each game ------------------------------------------------------------------------------

    def redraw(self) -> None:
        raise NotImplementedError

    def describe(self, event: Any) -> str:
        raise NotImplementedError

    def save_turn(self) -> int:
        """The number in a save's default name."""
        return int(self.game.state_id)

    # -- the session --------------------------------------------------------------------------------

    def on_mount(self) -> None:
        self._unsubscribe = self.game.subscribe(lambda: self.post_message(self.Changed()))
        self.write_log()
        self.redraw()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def on_companion_screen_changed(self, message: Changed) -> None:
        message.stop()
        self.write_log()
        self.redraw()

    def write_log(self, *, again: bool = False) -> None:
        """The new events in the log, as the person looking may read them (again: from the start)."""
        log = self.query_one(f"#{self.LOG_ID}", RichLog)
        if again:
            self._logged = 0
            log.clear()
        update = self.game.events(self._logged, self.looking)
        if update.state_id < self._logged:  # undone: the log starts again
            log.clear()
            update = self.game.events(0, self.looking)
        lines = [self.describe(e) for e in update.events]
        if lines:
            log.write("\n".join(lines))
        self._logged = update.state_id

    # -- keys ---------------------------------------------------------------------------------------

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
        name = default_name(self.save_turn(), prefix=self.SAVE_PREFIX)
        self.app.push_screen(SaveScreen(self.game, folder, name), self._saved)

    def _saved(self, path: Path | None) -> None:
        if path is not None:
            self.notify(f"Saved to {path}", title="Saved")

    def action_load(self) -> None:
        self.app.push_screen(LoadScreen(getattr(self.app, "save_dir", None)))

    def action_quit_game(self) -> None:
        """Save, then quit; if saving fails, say so and quit only on a second q."""
        quit_after_saving(self, self.game, armed=self._quit_armed, hint="Continue with: nctui (then c)")
        self._quit_armed = True


class OptionsScreen(CompanionScreen):
    """A game whose decisions are lists of options: a digit or ↑/↓ and Enter chooses; the choice
    is echoed. In hot-seat, when the decision passes to another person at the keyboard, a cover
    hides the screen until they press Enter (a digit never lifts it and chooses at once)."""

    OPTIONS_ID = "options"
    COVER_ID = "cover"
    BINDINGS = [*(Binding(str(d), f"pick({d})", f"Option {d}", show=False) for d in range(1, 10)), *GAME_KEYS]

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._shown: tuple[int, tuple[object, ...]] = (-1, ())  # (state id, options) on screen

    def describe_action(self, action: Any) -> str:
        raise NotImplementedError

    def draw_panels(self) -> None:
        """Everything but the options and the cover."""
        raise NotImplementedError

    def decider(self) -> int | None:
        return cast("int | None", self.game.deciding_seat())

    def covered(self) -> bool:
        seat = self.decider()
        return len(self.humans) > 1 and seat in self.humans and seat != self.looking

    def redraw(self) -> None:
        covered = self.covered()
        self.set_class(covered, "-covered")
        if covered:
            seat = cast(int, self.decider())
            self.query_one(f"#{self.COVER_ID}", Static).update(
                f"Player {seat + 1}, take the keyboard: what is yours to see is hidden from the others.\n\n"
                "Press Enter when only you are looking."
            )
            return
        self.draw_panels()
        self._draw_options()

    def options(self) -> tuple[Any, ...]:
        """The options of the decision due, when the person looking makes it."""
        seat = self.decider()
        if seat is None or seat not in self.humans or seat != self.looking:
            return ()
        return tuple(self.game.facts(seat).options)

    def _draw_options(self) -> None:
        options = self.options()
        key = (self.game.state_id, options)
        if key == self._shown:
            return
        self._shown = key
        menu = self.query_one(f"#{self.OPTIONS_ID}", OptionList)
        menu.clear_options()
        menu.add_options(
            [Option(f"{i if i <= 9 else ' '}  {self.describe_action(a)}") for i, a in enumerate(options, 1)]
        )
        if options:
            menu.highlighted = 0
            menu.focus()

    def on_key(self, event: Any) -> None:
        if self.covered() and event.key in ("enter", "space"):
            event.stop()
            self.looking = cast(int, self.decider())
            self._shown = (-1, ())
            self.write_log(again=True)
            self.redraw()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.choose(message.option_index)

    def action_pick(self, number: int) -> None:
        self.choose(number - 1)

    def choose(self, index: int) -> None:
        if self.covered():
            return  # a digit never lifts the cover and chooses at once
        state_id, options = self._shown
        seat = self.decider()
        if seat is None or seat not in self.humans or state_id != self.game.state_id or not 0 <= index < len(options):
            return
        action = options[index]
        try:
            self.game.send(action, seen_state_id=state_id, seat=seat)
        except (ValueError, StoreError) as exc:
            self.notify(str(exc), title="Not now", severity="warning", timeout=6)
            return
        self.notify(f"Chosen: {self.describe_action(action)}", timeout=2)  # echoed: no surprise
