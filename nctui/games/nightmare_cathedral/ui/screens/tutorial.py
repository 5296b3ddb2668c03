"""The tutorial (``nctui tutorial``, the Title screen's Tutorial): seven lessons, each the game
screen of a position against computer seats, with a panel saying what is happening and what to
try (words from ``describe.tutorial``). The suggested option is highlighted; n goes on to the next
lesson; R opens the rules at the lesson's topic; Escape leaves for the Title screen at any time.
Nothing is autosaved."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from nctui.platform.session import Session, new_session, scenario_session
from nctui.ui.widgets.decision import DecisionPanel

from ...describe.tutorial import LESSONS, TUTORIAL_SEED, suggested, tutorial_lines
from ...engine.config import GameConfig
from ...practice import BUNDLED
from .game import GameScreen

if TYPE_CHECKING:
    from nctui.ui.app import NctuiApp

    from ...engine.state import GameState


TUTORIAL = GameConfig(players=2, seats=("human", "bot"), seed=TUTORIAL_SEED)
PRACTICE = BUNDLED.parent  # the lessons' positions: ``practice/lessons`` and ``practice/positions``


def lesson_session(index: int, bot_delay: float) -> Session:
    """The game of lesson ``index``: its position (the first lesson: a new game on the fixed
    seed), every seat but the player's a computer; practice undo, no autosave."""
    lesson = LESSONS[index]
    if not lesson.position:
        return new_session(TUTORIAL, undo="practice", autosave=False, bot_delay=bot_delay)
    session = scenario_session("nightmare-cathedral", PRACTICE / lesson.position, autosave=False, bot_delay=bot_delay)
    for seat in range(len(session.seat_kinds)):
        session.set_seat_kind(seat, "human" if seat == lesson.you else "bot")
    return session


def tutorial(bot_delay: float) -> tuple[Session, type[TutorialScreen]]:
    """The tutorial as the app starts it (the registry entry's ``tutorial``): the first lesson's
    session and the screen that plays it."""
    return lesson_session(0, bot_delay), TutorialScreen


class TutorialScreen(GameScreen):
    """The game screen, and the lesson panel beside it (above it on small terminals)."""

    DEFAULT_CSS = """
    TutorialScreen #tutorial { dock: right; width: 34; height: 100%; padding: 0 1; background: $panel;
                               color: $text; }
    TutorialScreen.-narrow #tutorial { dock: top; width: 100%; height: auto; max-height: 6; }
    """
    BINDINGS = [
        Binding("escape", "leave_tutorial", "Leave the tutorial", id="tutorial.leave"),
        Binding("n", "next_lesson", "Next lesson", id="tutorial.next"),
    ]

    def __init__(self, game: Session, *, lesson: int = 0, seat: int | None = None) -> None:
        super().__init__(game, seat=seat)
        self.lesson = lesson
        you = LESSONS[lesson].you
        self._start_turns = game.view(you).state.players[you].turns  # the lesson ends when it grows
        self._suggested_at = -1  # the decision (state id) whose suggestion was highlighted

    def compose(self) -> ComposeResult:
        yield Static(LESSONS[self.lesson].intro, id="tutorial")
        yield from super().compose()

    def _redraw(self) -> None:
        super()._redraw()
        self._explain()

    def _explain(self) -> None:
        state = self.game.view(LESSONS[self.lesson].you).state
        lines = tutorial_lines(self.lesson, state, self._start_turns)
        self.query_one("#tutorial", Static).update("\n".join(lines))
        self._suggest(state)

    def _suggest(self, state: GameState) -> None:
        """Highlight the lesson's suggested option once per decision (a move of the highlight by
        the player stays)."""
        state_id = self.game.state_id
        if state_id == self._suggested_at:
            return
        option = suggested(LESSONS[self.lesson], state)
        if option >= 0:
            self.query_one(DecisionPanel).highlight_option(option)
            self._suggested_at = state_id

    def _rules_topic(self) -> tuple[str | None, str | None]:
        """R: the rules at the lesson's topic (a refused action's rule first, as in a game)."""
        topic, note = super()._rules_topic()
        if note is not None and note.startswith("Not allowed"):
            return topic, note
        return LESSONS[self.lesson].topic, None

    def action_next_lesson(self) -> None:
        """n: the next lesson's position (the last lesson: stay)."""
        nxt = self.lesson + 1
        if nxt >= len(LESSONS):
            self.notify("This is the last lesson: Escape returns to the title.", title="Tutorial")
            return
        app = cast("NctuiApp", self.app)
        app.open_game(lesson_session(nxt, app.bot_delay), guide=partial(TutorialScreen, lesson=nxt))

    def action_leave_tutorial(self) -> None:
        """Escape: back to the Title screen (the tutorial game is not kept); from a board, matrix
        or hand cursor, Escape first goes back to the options, as in a game."""
        if not isinstance(self.focused, DecisionPanel):
            self.action_focus_decision()
            return
        cast("NctuiApp", self.app).leave_game()
