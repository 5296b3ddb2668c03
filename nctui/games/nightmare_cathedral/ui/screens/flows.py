"""The flows of Nightmare Cathedral around its game screen, on top of the shell every game shares
(``nctui.ui.screens.shell``: the hot-seat hand-off, the log, the timeline, undo, save, load, help
and rules), as a mixin of ``GameScreen``: the King's turn paced step by step, the conflicts'
results, the game over screen, the save of a position, the practice hint, and the command
palette's extra commands.

They come in through the shell's hooks: ``_shell_start()`` when mounted, ``_game_moved()`` when
the game changed (before drawing: the King's turn), ``_flows_first()`` before a hand-off (the
conflicts) and ``_flows_then()`` after (the King's turn, game over).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, cast

from nctui.platform import saves
from nctui.ui.screens.shell import GameShell

from ...describe import describe_choice, describe_decision
from ...describe.conflicts import ConflictReport, conflict_reports
from ...engine.actions import Action
from ...engine.events import Event
from ...engine.state import GameState
from ...engine.views import View
from ..widgets.board import BoardView

# The screens below the shell's are imported when first shown (the King's turn in a solo game,
# the conflict panel, game over): the game's first frame comes without them.

SCENARIO_SUFFIX = ".toml"
# The decisions taken inside a conflict, once its cards are revealed: it is read up to them first.
CONFLICTS_BACK = 400  # decisions f looks back for the latest conflicts, at most
IN_CONFLICT = frozenset({"break_tie", "retreat", "take_victory"})

if TYPE_CHECKING:
    from nctui.ui.app import NctuiApp

    from .game_over import GameOverChoice
    from .king_turn import KingStep


class FlowsMixin(GameShell):
    """The King's turn, conflicts, game over, positions and hints for ``GameScreen``."""

    # Defaults until _shell_start() runs (a redraw before the mount draws, as before).
    _over_shown = False
    # the King's turn to show: its steps, the position before it, after it, and how many steps were read
    _king_pending: tuple[list[KingStep], GameState | None, GameState, int] | None = None
    _king_turn: tuple[list[KingStep], GameState | None] | None = None  # the steps shown so far this turn
    _king_events: list[Event] = []  # this King's turn's events so far: why a later step happened
    _pace_king = True
    # conflicts: per seat, the state id after which its conflicts may not all have been shown yet,
    # and the conflicts shown (seat, the state id its start led to, area)
    _conflict_from: dict[int, int] = {}
    _conflicts_shown: set[tuple[int, int, str]] = set()
    _conflicts_part: dict[tuple[int, int, str], int] = {}  # read while being resolved: the lines read
    _conflict_base = 0

    # -- state ----------------------------------------------------------------------------------

    def _shell_start(self) -> None:
        """On mount: the shell's start (who looks first, the session, the log), and the King's
        turn, the conflicts and the game over screen from here on."""
        self._king_pending = self._king_turn = None
        self._pace_king = True
        self._king_seen = self.game.state_id
        self._over_shown = False
        self._conflict_from, self._conflicts_shown, self._conflict_base = {}, set(), self.game.state_id
        self._conflicts_part = {}
        super()._shell_start()
        self._king_during = self._in_king_turn(self.game.view(self.viewer).state)

    @staticmethod
    def _in_king_turn(state: GameState) -> bool:
        return state.king is not None and state.phase != "setup" and state.active == state.king.seat

    # -- the hand-off (the shell's): its words ---------------------------------------------------

    def handoff_words(self, seat: int, view: View) -> tuple[str, str]:
        state = view.state  # public parts only: the prompt
        d = state.decision
        decision = describe_decision(state) if d is not None and d.seat == seat else ""
        return decision, f"Turn {state.turn_number}" if state.phase != "setup" else "Setup"

    def _note_choice(self, action: Action, state: GameState, seat: int, index: int) -> None:
        """Called as a person picks an option: echoed on the hand-off that may follow, in words
        the next person may read too (a face-down card stays unnamed)."""
        if self._hotseat:
            self._echo_choice(describe_choice(action, state, seat, index + 1, public=True))

    # -- the King's turn ------------------------------------------------------------------------

    def _game_moved(self) -> None:
        self._note_king_turn()  # the King's turn steps among the new events (solo)

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

    def _skip_news(self) -> None:
        """A jump (a replay's): no King's turn and no conflict of the way is shown, for any seat."""
        now = self.game.state_id
        self._king_pending = self._king_turn = None
        self._king_events = []
        self._king_seen = now
        self._king_during = self._in_king_turn(self.game.view(self.viewer).state)
        self._conflict_from = dict.fromkeys(range(len(self.game.seat_kinds)), now)
        self._conflict_base = now
        self._conflicts_part = {}

    # -- the screens due (the shell's _flows) ----------------------------------------------------

    def _flows_first(self) -> bool:
        return self._push_conflicts()  # the person at the keyboard sees how their conflict ended first

    def _king_later(self) -> bool:
        """The King's turn panel was read once this turn and the person is deciding in it (a
        reaction's steps, a Cathedral icon): the King's steps since wait for the end of its turn,
        so the panel does not come back over the person's own choices after each one."""
        assert self._king_pending is not None
        read = self._king_pending[3]
        state = self.game.view(self.viewer).state
        return (
            bool(read)
            and state.outcome is None
            and self._in_king_turn(state)
            and self.game.deciding_seat() == self.viewer
        )

    def _flows_then(self) -> None:
        """The King's turn, game over."""
        if self._king_pending is not None and not self._king_later():
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

    def _conflicts_due(self, seat: int) -> list[tuple[ConflictReport, bool]]:
        """The conflicts ``seat`` took part in that ended since it last saw one end (a person's
        seat: both sides see the result, the other one after the hand-off), each with whether it
        is shown whole at once. A conflict still being resolved comes as far as it went when ``seat``
        decides in it (the tie, a retreat, the Victory: issue 39.13, the cards and damage are
        read before); once over, it comes again only for what the others decided since."""
        if seat in self.bots or self.game.is_computer(seat):
            return []
        since = self._conflict_from.get(seat, self._conflict_base)
        update = self.game.events(since, seat)
        if update.undone:  # what was undone is gone; what comes again will be new
            self._conflict_from[seat] = update.state_id
            self._conflicts_shown = {k for k in self._conflicts_shown if k[1] <= update.state_id}
            self._conflicts_part = {k: n for k, n in self._conflicts_part.items() if k[1] <= update.state_id}
            return []
        if not update.events:
            return []
        at = list(self.game.event_states(since))
        if len(at) != len(update.events):
            at = [update.state_id] * len(update.events)
        view = self.game.view(seat).state
        decision = view.decision
        deciding = decision is not None and decision.seat == seat and decision.kind in IN_CONFLICT
        due: list[tuple[ConflictReport, bool]] = []
        after = update.state_id
        reports = conflict_reports(update.events, view)
        for n, report in enumerate(reports):
            key = (seat, at[report.begins], report.area)
            if key in self._conflicts_shown:
                continue
            if not report.done:  # read again from its start next time
                after = min(after, at[report.begins] - 1)
                innermost = all(r.done for r in reports[n + 1 :])
                if deciding and innermost and key not in self._conflicts_part:
                    self._conflicts_part[key] = len(report.lines)
                    due.append((report, False))
                continue
            if seat not in report.sides and key not in self._conflicts_part:
                continue
            self._conflicts_shown.add(key)
            read = self._conflicts_part.pop(key, None)
            if read is None:
                due.append((report, False))
            elif any(line.side != seat and line.kind in ("retreat", "effect") for line in report.lines[read:]):
                due.append((report, True))  # read up to a decision: the rest at once
        self._conflict_from[seat] = after
        return due

    def _push_conflicts(self) -> bool:
        due = self._conflicts_due(self.viewer)
        if due:
            from .conflict import ConflictScreen

            reports, whole = [r for r, _ in due], [w for _, w in due]
            self.app.push_screen(ConflictScreen(reports, self.game.view(self.viewer).state, whole=whole))
        return bool(due)

    def action_conflicts(self) -> None:
        """f: the latest conflicts of the game, as the viewer saw them, everything at once."""
        if self._handoff_screen is not None:
            return
        state = self.game.view(self.viewer).state
        reports = self._latest_conflicts(state)
        if not reports:
            self.notify("No conflict has been resolved lately.", title="Conflicts")
            return
        from .conflict import ConflictScreen

        self.app.push_screen(ConflictScreen(reports, state, paced=False))

    def _latest_conflicts(self, state: GameState, count: int = 3) -> list[ConflictReport]:
        """The last ``count`` conflicts within the last ``CONFLICTS_BACK`` decisions, as the viewer
        saw them: looked for in the last 25 decisions, then twice as many until one more is found
        (the first may have begun before), so a long game's key reads what a new game's does."""
        now = self.game.state_id
        back = 25
        while True:
            since = max(0, now - back)
            reports = conflict_reports(self.game.events(since, self.viewer).events, state)
            if len(reports) > count or since == 0 or back >= CONFLICTS_BACK:
                return reports[-count:]
            back *= 2

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

    # -- saving ---------------------------------------------------------------------------------

    def save_turn(self) -> int:
        return self.game.view(self.viewer).state.turn_number

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
        self.notify("The expert is thinking…", title="Hint", timeout=3)
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

    # -- the command palette --------------------------------------------------------------------

    def palette_commands(self) -> Iterator[tuple[str, str, object]]:
        """Commands without a key of their own (the keys' commands come from the bindings)."""
        pacing = "Stop pacing the King's turns" if self._pace_king else "Pace the King's turns step by step"
        if self.game.config.players == 1:
            yield pacing, "solo: the King's turn shown step by step, or only in the log", self.action_toggle_king_pacing
        if self.game.view(self.viewer).state.outcome is not None:
            yield "Game over: the scores", "the score breakdown and what next", self.action_game_over
