"""A finished game watched again (issue 40): the game's own screen over a ``Replay``
(``platform.replay``), made a replay's screen by ``ReplayScreen`` (``replay_screen``): u one
decision back, r one forward, Home the start, End the end, t the timeline (any decision), v
through whose eyes (each seat, or a spectator's), s exports the whole game as a save file (``nctui
replay FILE`` opens it on another machine), q closes the replay. The board and the log are as of
the decision the replay stands at; once the game is over every hand and deck is shown.

The same screen shows a replay opened from the title screen's Finished games, from
``nctui replay FILE``, and a finished room of a server (``lobby_app``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from nctui.platform import registry
from nctui.platform.game import SPECTATOR
from nctui.platform.replay import Replay, ReplayOnly

from ..textual_ext.placed import ComesUpOnce
from ..widgets.common import label_style
from ..widgets.log import GameLog

if TYPE_CHECKING:
    _ScreenMixin = Screen[Any]
else:  # a plain class: the game's screen, mixed in after this, keeps its CSS (as ``RemoteScreen``)
    _ScreenMixin = object

LOG_DECISIONS = 300  # the log rewritten after a step back holds the events of this many decisions before it

# The keys of a game's screen in a replay, over its own (``replay_screen``).
REPLAY_BINDINGS = [
    Binding("u", "undo", "Back", id="game.undo"),
    Binding("r", "redo", "Forward", id="game.redo"),
    Binding("v", "eyes", "Eyes", id="replay.eyes"),
    Binding("s", "save", "Export", id="game.save"),
    Binding("q", "quit_game", "Close", id="game.quit"),
    Binding("home", "first", "Start", key_display="Home", priority=True, id="replay.first"),
    Binding("end", "last", "End", key_display="End", priority=True, id="replay.last"),
    Binding("o", "load", "Load", show=False, id="game.load"),
]


class ReplayScreen(_ScreenMixin):
    """A game's own screen watching a ``Replay`` (mixed in before it by ``replay_screen``)."""

    QUIT_WORDS = "close the replay"
    SAVE_PREFIX = "replay-"
    _replay_at = -1  # the decision the replay stood at when last drawn (-1: not yet)

    def _shell_start(self) -> None:
        super()._shell_start()  # type: ignore[misc]
        self._replay_at = self.replay.state_id

    def _game_moved(self) -> None:
        """A step forward (r) shows what the decision did, as in the game (a conflict's result, a
        computer's turn); any other move (End, Home, the timeline, u) goes there silently: the
        screens of what happened on the way do not open one over another (the game over screen
        still comes at the end, alone)."""
        now = self.replay.state_id
        if now != self._replay_at + 1:
            cast(Any, self)._skip_news()
        self._replay_at = now
        super()._game_moved()  # type: ignore[misc]

    @property
    def replay(self) -> Replay:
        return cast(Replay, cast(Any, self).game)

    def action_undo(self) -> None:
        self._move(lambda: self.replay.undo(self.replay.seat))

    def action_redo(self) -> None:
        self._move(self.replay.redo)

    def action_first(self) -> None:
        self._move(lambda: self.replay.undo_to(0, seat=self.replay.seat))

    def action_last(self) -> None:
        self._move(lambda: self.replay.undo_to(self.replay.last_id, seat=self.replay.seat))

    def _move(self, move: Callable[[], None]) -> None:
        try:
            move()
        except ReplayOnly as exc:
            self.notify(f"{str(exc)[:1].upper()}{str(exc)[1:]}.", title="Replay", timeout=3)

    def action_eyes(self) -> None:
        """v: watch through another seat's eyes (or a spectator's)."""
        replay = self.replay
        game = replay.game
        labels = game.seat_labels(replay.view(SPECTATOR))
        self.app.push_screen(EyesPicker(labels, replay.seat, replay.over), self._look)

    def _look(self, seat: int | None) -> None:
        if seat is None or seat == self.replay.seat:
            return
        self.replay.look_as(seat)
        if not self._result_callbacks:  # the app's first screen (``nctui replay``): as ``NctuiApp._replace_all``
            self._push_result_callback(self.app, None)
        self.app.switch_screen(replay_screen(self.replay))

    def action_quit_game(self) -> None:
        close_replay(self)

    def action_load(self) -> None:
        self.notify("Close the replay first (q).", title="Load")

    def _write_log(self) -> None:
        """As the shell writes it, but a step back writes the log again as of the decision the
        replay went back to (the last ``LOG_DECISIONS`` decisions of it)."""
        shell = cast(Any, self)
        update = self.replay.events(shell._logged, shell.viewer)
        if not update.undone:
            super()._write_log()  # type: ignore[misc]
            return
        log = self.query_one(GameLog)
        log.clear()
        shell._logged = max(-1, update.state_id - LOG_DECISIONS)
        super()._write_log()  # type: ignore[misc]


def close_replay(screen: Screen[Any]) -> None:
    """The replay closed: back to the screen under it, or the app ends (``nctui replay FILE``)."""
    cast(Any, screen).replay.close()
    if len(screen.app.screen_stack) > 1:
        screen.app.pop_screen()
    else:
        screen.app.exit()


_replay_classes: dict[type[Screen[Any]], type[Screen[Any]]] = {}


def replay_screen(replay: Replay) -> Screen[Any]:
    """The game's own screen (its registry entry's ``screen``) made a replay's (one class per
    game's screen, made the first time)."""
    base = registry.load(registry.entry(replay.game.id).screen)
    made = _replay_classes.get(base)
    if made is None:
        namespace = {"BINDINGS": REPLAY_BINDINGS, "__module__": __name__}
        made = _replay_classes[base] = type(f"Replay{base.__name__}", (ReplayScreen, base), namespace)
    return cast(Any, made)(replay)


class EyesPicker(ComesUpOnce, ModalScreen[int | None]):
    """Through whose eyes to watch: each seat (its view), or a spectator's."""

    DEFAULT_CSS = """
    EyesPicker { align: center middle; }
    EyesPicker #eyes-box { width: 60; max-width: 100%; height: auto; background: $panel;
                           border: round $accent; padding: 0 1; }
    EyesPicker #eyes-list { height: auto; border: none; background: $panel; }
    EyesPicker #eyes-hint { color: $text-muted; }
    """
    BINDINGS = [Binding("escape,v", "dismiss(None)", "Back", id="eyes.back")]
    AUTO_FOCUS = "#eyes-list"

    def __init__(self, labels: tuple[Any, ...], now: int, over: bool) -> None:
        super().__init__()
        self.labels, self.now, self.over = labels, now, over

    def compose(self) -> ComposeResult:
        seats = [
            Option(Text.assemble((f"{label.letter} ", label_style(label)), label.name), id=str(i))
            for i, label in enumerate(self.labels)
        ]
        note = "the game is over: every hand is shown" if self.over else "each seat sees only its own hand"
        with Vertical(id="eyes-box"):
            yield Static(Text.assemble(("Watch through whose eyes?", "bold"), f"  ({note})"), id="eyes-title")
            yield OptionList(*seats, Option("a spectator's", id=str(SPECTATOR)), id="eyes-list")
            yield Static("↑↓ move · Enter chooses · Esc back", id="eyes-hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = self.now if 0 <= self.now < len(self.labels) else len(self.labels)

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.dismiss(int(message.option.id or 0))
