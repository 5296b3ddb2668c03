"""The flows around the game screen, as a mixin of ``GameScreen``: the hot-seat hand-off, the
King's turn paced step by step, the game over screen, the timeline, saving and loading, and the
command palette's extra commands.

The game screen calls its hooks: ``_flows_start()`` when mounted, ``_note_king_turn()`` when
the game changed (before drawing), ``_handoff_due(seat)`` before drawing a view (True: draw
nothing now), ``_flows()`` after drawing, ``_refused(exc, title)`` when undo or redo is
refused. Screens are pushed by ``_flows()`` only while the game screen is the current one (at
the end of a redraw, and when a screen over it closes), so a dialog open over the game never
has another pushed under or over it by surprise.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from time import monotonic
from typing import TYPE_CHECKING, Protocol, cast

from nctui.platform import saves
from nctui.platform.store import StoreError
from nctui.ui.widgets.log import GameLog

from ...describe import describe_choice, describe_decision, seat_name
from ...describe.conflicts import ConflictReport, conflict_reports
from ...engine.actions import Action
from ...engine.events import Event
from ...engine.state import GameState
from ..widgets.board import BoardView
from ..widgets.seats import seat_tag

# The screens below the hand-off are imported when first shown (the King's turn in a solo game,
# the conflict panel, game over, the timeline, save and load): the game's first frame comes
# without them.

SCENARIO_SUFFIX = ".toml"
REHEARSE_AFTER = 0.1  # seconds after a hand-off appears: drawn first, and well before its keys are taken (0.4 s)

if TYPE_CHECKING:
    from textual.screen import Screen

    from nctui.ui.app import NctuiApp
    from nctui.ui.client import GameClient
    from nctui.ui.screens.handoff import HandoffResult, HandoffScreen

    from .game_over import GameOverChoice
    from .king_turn import KingStep


class GameScreenHooks(Protocol):
    """What the flows call back on the screen they are mixed into (``GameScreen`` defines them)."""

    def _redraw(self) -> None: ...
    def rehearse(self, seat: int) -> None: ...
    def _write_log(self) -> None: ...
    def action_undo(self) -> None: ...
    def action_quit_game(self) -> None: ...


if TYPE_CHECKING:

    class _Host(Screen[None], GameScreenHooks):
        """For the type checker only: the mixin is part of a Screen (``app``, ``notify``, ``query_one``,
        ``is_current``) that has the hooks; a screen that mixes it in without them cannot be built."""
else:
    _Host = object


class FlowsMixin(_Host):
    """Hand-off, King's turn, game over, timeline, save and load for ``GameScreen``."""

    game: GameClient
    viewer: int
    _logged: int  # the state id the log is written up to (GameScreen)
    seat: int | None  # the one seat the screen shows (a game on a server), None: hot-seat
    bots: frozenset[int]
    # Defaults until _flows_start() runs (a redraw before the mount draws, as before).
    _hotseat = _handoff_first = _over_shown = False
    _handoff_to: int | None = None
    _handoff_screen: HandoffScreen | None = None
    # the King's turn to show: its steps, the position before it, after it, and how many steps were read
    _king_pending: tuple[list[KingStep], GameState | None, GameState, int] | None = None
    _king_turn: tuple[list[KingStep], GameState | None] | None = None  # the steps shown so far this turn
    _king_events: list[Event] = []  # this King's turn's events so far: why a later step happened
    _pace_king = True
    _choose_from = 0.0  # options are taken from then on (not by the press that passed the keyboard)
    _echo = ""  # the option just picked, in public words, for the next hand-off screen
    # conflicts: per seat, the state id after which its conflicts may not all have been shown yet,
    # and the conflicts shown (seat, the state id its start led to, area)
    _conflict_from: dict[int, int] = {}
    _conflicts_shown: set[tuple[int, int, str]] = set()
    _conflict_base = 0
    _log_viewer = -1  # whose eyes the log is written through

    # -- state ----------------------------------------------------------------------------------

    def _flows_start(self) -> None:
        """On mount: a hot-seat game continued past its start hands the keyboard over first
        (whoever opened it may not be the seat deciding)."""
        self._hotseat = self.game.hotseat
        self._handoff_first = self._hotseat and self.game.state_id > 0
        self._handoff_to = self._handoff_screen = self._king_pending = self._king_turn = None
        self._pace_king = True
        self._king_seen = self.game.state_id
        self._king_during = self._in_king_turn(self.game.view(self.viewer).state)
        self._over_shown = False
        self._conflict_from, self._conflicts_shown, self._conflict_base = {}, set(), self.game.state_id
        if not self._handoff_first and self.seat is None:  # nothing private is on screen yet: start with the decider
            seat = self.game.deciding_seat()
            if seat is not None and seat not in self.bots:
                self.viewer = seat

    @staticmethod
    def _in_king_turn(state: GameState) -> bool:
        return state.king is not None and state.phase != "setup" and state.active == state.king.seat

    # -- hot-seat hand-off ----------------------------------------------------------------------

    def _handoff_due(self, seat: int | None) -> bool:
        """Whether the keyboard must pass to another person before ``seat``'s view is drawn
        (then nothing is drawn: the next person's hand stays hidden until their key press)."""
        if self._handoff_screen is not None:
            return True
        self._handoff_to = self.game.handoff_to(self.viewer, first=self._handoff_first)
        return self._handoff_to is not None

    def _push_handoff(self, seat: int) -> None:
        state = self.game.view(self.viewer).state  # public parts only: names and the prompt
        d = state.decision
        decision = describe_decision(state) if d is not None and d.seat == seat else ""
        context = f"Turn {state.turn_number}" if state.phase != "setup" else "Setup"
        echo, self._echo = self._echo, ""
        from nctui.ui.screens.handoff import HandoffScreen  # at the first hand-off, not before the first frame

        screen = HandoffScreen(
            seat,
            seat_tag(state, seat),
            seat_name(state, seat),
            decision=decision,
            context=context,
            news=tuple(self.game.news_for(seat)),
            echo=echo,
            on_go=self._take_over,
        )
        self._handoff_screen = screen
        self.app.push_screen(screen, self._handed_off)
        self.set_timer(REHEARSE_AFTER, partial(self._rehearse_handoff, screen))

    def _rehearse_handoff(self, screen: HandoffScreen) -> None:
        """The hand-off screen is up (drawn): the next person's view is drawn ahead under it,
        out of sight (``GameScreen.rehearse``), while they read it and reach for the keyboard."""
        if self._handoff_screen is screen and screen.is_current:
            self.rehearse(screen.seat)

    def _too_soon(self) -> bool:
        """Whether a choice comes right after a hand-off (a double press): it is not taken."""
        if monotonic() >= self._choose_from:
            return False
        self.notify("The keyboard just passed: press again to choose.", title="Not taken", timeout=3)
        return True

    def _note_choice(self, action: Action, state: GameState, seat: int, index: int) -> None:
        """Called as a person picks an option: echoed on the hand-off that may follow, in words
        the next person may read too (a face-down card stays unnamed)."""
        self._echo = describe_choice(action, state, seat, index + 1, public=True) if self._hotseat else ""

    def _note_seen(self) -> None:
        """Called on every redraw: the viewer has seen the game up to now."""
        self.game.mark_seen(self.viewer)

    def _take_over(self) -> None:
        """The next person is looking: their view is drawn, still under the hand-off screen
        (called as it closes; drawn after it closed, the game showed the view of the person
        before, their hand too, for a frame or two)."""
        screen, self._handoff_screen = self._handoff_screen, None
        # The seat named on the hand-off (a computer may have moved meanwhile, and the next
        # person gets a hand-off of their own).
        self.viewer = screen.seat if screen is not None else self.viewer
        self._choose_from = monotonic() + (screen.guard if screen is not None else 0.0)
        self._handoff_first = False
        self._handoff_to = None
        self._rewrite_log()
        self._redraw()  # under the hand-off: the views only (no focus, no screen pushed)

    def _handed_off(self, result: HandoffResult | None) -> None:
        if result == "go":
            if self._handoff_screen is not None:  # closed without taking over first
                self._take_over()
            self._redraw()  # now the current screen: the focus, and whatever comes next
        elif result == "undo":
            self._handoff_screen = None
            self.action_undo()  # refused: the hand-off comes back when this screen resumes
        elif result == "quit":
            self._handoff_screen = None
            self.action_quit_game()

    def _rewrite_log(self) -> None:
        """The log through the new viewer's eyes: as they left it, and what happened since (the
        lines written for the person before may name cards only they could see)."""
        if self.viewer == self._log_viewer:
            self._write_log()
            return
        self._logged = self.query_one(GameLog).switch(self._log_viewer, self.viewer, self._logged)
        self._log_viewer = self.viewer
        self._write_log()

    # -- the King's turn ------------------------------------------------------------------------

    def _note_king_turn(self) -> None:
        """Collect the King's turn steps among the events since last time (solo). A turn is one
        panel: the steps of the King's later decisions join those not shown yet, and when the
        player had to decide in the middle of the turn, the panel comes back with the whole turn
        so far (at the first new step), its summary counted from the turn's start."""
        update = self.game.events(self._king_seen, self.viewer)
        state = self.game.view(self.viewer).state
        if not self._king_during:
            self._king_turn = None  # these events start outside a King's turn: a new one
            self._king_events = []
        if update.undone:
            self._king_pending = self._king_turn = None
            self._king_events = []
        elif state.king is not None and self._pace_king and "human" in self.game.config.seats:
            from .king_turn import KingTurnScreen, board_positions, king_steps, king_turn_indices

            mine = king_turn_indices(update.events, state.king.seat, during=self._king_during)
            if mine:
                at = board_positions(self.game.event_states(self._king_seen))
                events = [update.events[i] for i in mine]
                steps = king_steps(
                    events, state, [at[i] for i in mine] if len(at) == len(update.events) else (), self._king_events
                )
                self._king_events = self._king_events + events
                open_panel = self.app.screen if self.is_attached else None
                if isinstance(open_panel, KingTurnScreen) and self._king_pending is None:
                    open_panel.add(steps, state)  # the panel being read grows: still one per turn
                    self._king_turn = (open_panel.steps, open_panel.before)
                elif self._king_pending is not None:
                    old, before, _, read = self._king_pending
                    self._king_pending = (old + steps, before, state, read)
                else:
                    earlier, before = self._king_turn if self._king_turn is not None else ([], None)
                    if before is None:
                        before = self.game.view_at(self._king_seen, self.viewer).state
                    self._king_pending = (earlier + steps, before, state, len(earlier))
        self._king_seen = update.state_id
        self._king_during = self._in_king_turn(state)

    def _board_at(self, state_id: int | None, area: str) -> None:
        """The board as of a King's step being read, its area outlined (None: the present again).
        Attributes down: the board draws the earlier view and facts the session gives."""
        board = self.query_one(BoardView)
        board.past = (
            None
            if state_id is None
            else (self.game.view_at(state_id, self.viewer), self.game.facts_at(state_id, self.viewer), area)
        )

    def _king_done(self, pacing: bool | None) -> None:
        self.query_one(BoardView).past = None  # however the panel closed, the board shows the present
        if pacing is False:
            self._pace_king = False

    def action_toggle_king_pacing(self) -> None:
        self._pace_king = not self._pace_king
        self.notify(
            "The King's turns are shown step by step."
            if self._pace_king
            else "The King's turns are no longer paced (they are in the log).",
            title="King's turn",
        )

    # -- pushing the flows' screens -------------------------------------------------------------

    def on_screen_resume(self) -> None:
        self._flows()

    def _flows(self) -> None:
        """Show what is due, one screen at a time: the hand-off, the King's turn, game over."""
        if not self.is_current:
            return
        if self._push_conflicts():  # the person at the keyboard sees how their conflict ended first
            return
        # The game may have moved since the last redraw (a screen over this one was dismissed
        # before the news of an undo arrived): ask again who must have the keyboard.
        due = self._handoff_screen is None and self._handoff_due(self.game.deciding_seat())
        if due and self._handoff_to is not None:
            self._push_handoff(self._handoff_to)
            return
        if self._king_pending is not None:
            steps, before, after, read = self._king_pending
            self._king_pending = None
            self._king_turn = (steps, before)
            if self._pace_king:
                from .king_turn import KingTurnScreen

                self.app.push_screen(
                    KingTurnScreen(steps, before, after, read=read, show_at=self._board_at), self._king_done
                )
                return
        outcome = self.game.view(self.viewer).state.outcome
        if outcome is None:
            self._over_shown = False
        elif not self._over_shown:
            self._over_shown = True
            self.action_game_over()

    # -- conflicts ------------------------------------------------------------------------------

    def _conflicts_due(self, seat: int) -> list[ConflictReport]:
        """The conflicts ``seat`` took part in that ended since it last saw one end (a person's
        seat: both sides see the result, the other one after the hand-off)."""
        if seat in self.bots or self.game.is_computer(seat):
            return []
        since = self._conflict_from.get(seat, self._conflict_base)
        update = self.game.events(since, seat)
        if update.undone:  # what was undone is gone; what comes again will be new
            self._conflict_from[seat] = update.state_id
            self._conflicts_shown = {k for k in self._conflicts_shown if k[1] <= update.state_id}
            return []
        if not update.events:
            return []
        at = list(self.game.event_states(since))
        if len(at) != len(update.events):
            at = [update.state_id] * len(update.events)
        due, after = [], update.state_id
        for report in conflict_reports(update.events, self.game.view(seat).state):
            key = (seat, at[report.begins], report.area)
            if seat not in report.sides or key in self._conflicts_shown:
                continue
            if not report.done:  # read again from its start next time
                after = min(after, at[report.begins] - 1)
                continue
            self._conflicts_shown.add(key)
            due.append(report)
        self._conflict_from[seat] = after
        return due

    def _push_conflicts(self) -> bool:
        due = self._conflicts_due(self.viewer)
        if due:
            from .conflict import ConflictScreen

            self.app.push_screen(ConflictScreen(due, self.game.view(self.viewer).state))
        return bool(due)

    def action_conflicts(self) -> None:
        """f: the latest conflicts of the game, as the viewer saw them, everything at once."""
        if self._handoff_screen is not None:
            return
        update = self.game.events(max(0, self.game.state_id - 400), self.viewer)
        state = self.game.view(self.viewer).state
        reports = conflict_reports(update.events, state)[-3:]
        if not reports:
            self.notify("No conflict has been resolved lately.", title="Conflicts")
            return
        from .conflict import ConflictScreen

        self.app.push_screen(ConflictScreen(reports, state, paced=False))

    # -- game over ------------------------------------------------------------------------------

    def action_game_over(self) -> None:
        if self.game.view(self.viewer).state.outcome is None:
            self.notify("The game is not over.", severity="warning")
            return
        from .game_over import GameOverScreen

        self.app.push_screen(GameOverScreen(self.game, self.viewer, self._save_folder()), self._game_over_choice)

    def _game_over_choice(self, choice: GameOverChoice | None) -> None:
        if choice == "undo":
            self.action_undo()
        elif choice == "new":
            cast("NctuiApp", self.app).new_game()  # the New game screen, with this game's settings and a new seed
        elif choice == "quit":
            self.action_quit_game()

    # -- timeline, undo refusals ----------------------------------------------------------------

    def action_timeline(self) -> None:
        from nctui.ui.screens.timeline import timeline_screen

        self.app.push_screen(timeline_screen(self.app, self.game, self.viewer))

    def _refused(self, exc: StoreError, title: str) -> None:
        """An undo or redo the policy refuses: the store's reason and the policy's rule."""
        from nctui.ui.screens.timeline import refusal_text

        self.notify(refusal_text(exc, self.game.undo_policy), title=title, severity="warning", timeout=10)

    # -- saving and loading ---------------------------------------------------------------------

    def _save_folder(self) -> Path:
        return saves.save_dir(getattr(self.app, "save_dir", None))

    def action_save(self) -> None:
        from nctui.ui.screens.save import SaveScreen, default_name

        name = default_name(self.game.view(self.viewer).state.turn_number)
        self.app.push_screen(SaveScreen(self.game, self._save_folder(), name), self._saved)

    def _saved(self, path: Path | None) -> None:
        if path is not None:
            self.notify(f"Saved to {path}", title="Saved")

    def action_save_position(self) -> None:
        """x: this position as a scenario file, among the user's own (Practice on the title
        screen lists them; ``nctui play --scenario FILE`` plays one)."""
        folder = saves.scenario_dir(getattr(self.app, "save_dir", None))
        from nctui.ui.screens.save import SaveScreen, default_name

        name = default_name(self.game.view(self.viewer).state.turn_number, prefix="position-")

        def write(path: Path) -> Path:
            return self.game.save_position(path, name=path.name.removesuffix(SCENARIO_SUFFIX))

        self.app.push_screen(
            SaveScreen(
                self.game, folder, name, title="Save this position as a scenario", suffix=SCENARIO_SUFFIX, write=write
            ),
            self._saved,
        )

    # -- the practice hint ----------------------------------------------------------------------

    def action_hint(self) -> None:
        """h: what the planner would choose here and its next best options, and why (practice
        games only: a hint is a kind of help people playing each other did not agree to). The
        planner thinks on a worker thread: keys stay live, and a hint for a position the game
        has left is dropped."""
        if self.game.undo_policy != "practice":
            self.notify(
                "Hints are for practice games (one person, or a game started with practice undo).",
                title="Hint",
                severity="warning",
            )
            return
        seat = self.game.deciding_seat()
        if seat is None or seat != self.viewer or self.game.is_computer(seat):
            self.notify("There is no decision of yours to hint at now.", title="Hint", severity="warning")
            return
        self.notify("The planner is thinking…", title="Hint", timeout=3)
        self.run_worker(
            partial(self._think, seat, self.game.state_id),
            thread=True,
            exclusive=True,
            group="hint",
            exit_on_error=False,
        )

    def _think(self, seat: int, state_id: int) -> None:
        """On the worker thread: ask the game for the hint, then show it on the UI thread."""
        try:
            lines = self.game.advise(seat)
        except Exception as exc:  # noqa: BLE001 - a hint that fails must not take the game down
            lines = [f"No hint here: {exc}"]
        try:
            self.app.call_from_thread(self._show_hint, state_id, lines)
        except RuntimeError:
            pass  # the app ended while the planner thought: nothing to show

    def _show_hint(self, state_id: int, lines: list[str]) -> None:
        if self.game.state_id == state_id:  # else the game moved on while the planner thought
            self.notify("\n".join(lines), title="Hint", timeout=30)

    def action_load(self) -> None:
        """The Load screen. This game stays among the unfinished ones (Continue), autosaved."""
        from nctui.ui.screens.load import LoadScreen

        self.app.push_screen(LoadScreen(getattr(self.app, "save_dir", None)))

    # -- the command palette --------------------------------------------------------------------

    def palette_commands(self) -> Iterator[tuple[str, str, object]]:
        """Commands without a key of their own (the keys' commands come from the bindings)."""
        pacing = "Stop pacing the King's turns" if self._pace_king else "Pace the King's turns step by step"
        if self.game.config.players == 1:
            yield pacing, "solo: the King's turn shown step by step, or only in the log", self.action_toggle_king_pacing
        if self.game.view(self.viewer).state.outcome is not None:
            yield "Game over: the scores", "the score breakdown and what next", self.action_game_over
