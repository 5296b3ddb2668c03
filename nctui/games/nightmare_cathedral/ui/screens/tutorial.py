"""The guided first game (``nctui tutorial``, the Title screen's Tutorial): the game screen of a
2-player game against a computer seat on a fixed seed, with a panel explaining each decision
(words from ``describe.tutorial``). Escape leaves it for the Title screen at any time; nothing is
autosaved."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from nctui.platform.session import Session, new_session
from nctui.ui.widgets.decision import DecisionPanel

from ...describe.tutorial import INTRO, TUTORIAL_SEED, tutorial_lines
from ...engine.config import GameConfig
from .game import GameScreen

if TYPE_CHECKING:
    from nctui.ui.app import NctuiApp


TUTORIAL = GameConfig(players=2, seats=("human", "bot"), seed=TUTORIAL_SEED)


def tutorial_session(bot_delay: float) -> Session:
    """The tutorial's game: Red (you) against a computer Blue, the fixed seed; practice undo, no
    autosave (the tutorial is not a game to continue)."""
    return new_session(TUTORIAL, undo="practice", autosave=False, bot_delay=bot_delay)


def tutorial(bot_delay: float) -> tuple[Session, type[TutorialScreen]]:
    """The guided first game as the app starts it (the registry entry's ``tutorial``): its
    session and the screen that plays it."""
    return tutorial_session(bot_delay), TutorialScreen


class TutorialScreen(GameScreen):
    """The game screen, and the tutorial panel beside it (above it on small terminals)."""

    DEFAULT_CSS = """
    TutorialScreen #tutorial { dock: right; width: 34; height: 100%; padding: 0 1; background: $panel;
                               color: $text; }
    TutorialScreen.-narrow #tutorial { dock: top; width: 100%; height: 5; }
    """
    BINDINGS = [
        Binding("escape", "leave_tutorial", "Leave the tutorial", id="tutorial.leave"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(INTRO, id="tutorial")
        yield from super().compose()

    def _redraw(self) -> None:
        super()._redraw()
        self._explain()

    def _explain(self) -> None:
        lines = tutorial_lines(self.game.view(self.viewer).state, self.viewer)
        self.query_one("#tutorial", Static).update("\n".join(lines))

    def action_leave_tutorial(self) -> None:
        """Escape: back to the Title screen (the tutorial game is not kept); from a board, matrix
        or hand cursor, Escape first goes back to the options, as in a game."""
        if not isinstance(self.focused, DecisionPanel):
            self.action_focus_decision()
            return
        cast("NctuiApp", self.app).leave_game()
