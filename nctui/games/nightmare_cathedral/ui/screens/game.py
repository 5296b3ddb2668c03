"""The game screen: the board, the tracks, the players, the decision and the log of one game.

Flow: a key press or click in the decision list posts ``DecisionPanel.Chosen`` (messages up);
the screen turns it into the action of the deciding seat's view and sends it to the game
(a ``GameClient``); the game tells its subscribers (from whichever thread changed it: the
computer players decide on the session's thread), the screen posts itself ``GameChanged`` and,
on its own thread, hands each widget the new view and its facts (attributes down). Widgets hold
no game state and run no rule. Everything drawn comes from the view of one seat (and the facts of
that view): the deciding seat when a person decides (hot seat), else the person who decided
last; other seats' hands are never shown.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget

from nctui.platform.store import StoreError
from nctui.ui.client import GameClient, RefusedLater
from nctui.ui.textual_ext.placed import Box, ComesUpOnce, Pane, PlacedOnce, Row
from nctui.ui.widgets.common import OptionsPicked
from nctui.ui.widgets.decision import DecisionPanel, Prompt
from nctui.ui.widgets.footer import KeyFooter
from nctui.ui.widgets.log import GameLog
from nctui.ui.widgets.tabs import PANELS, PanelTabs, panel_title

from ...describe import (
    END_REASONS,
    describe_context,
    describe_decision,
    describe_events,
    describe_option,
    seat_letter,
    seat_name,
)
from ...engine.errors import ActionError, IllegalAction
from ...engine.facts import Facts
from ...engine.state import GameState
from ...engine.views import View
from ..widgets.board import BoardView, cell_lines_for, legal_areas, region_entries
from ..widgets.hand import HandView
from ..widgets.matrix import MatrixView, legal_spaces
from ..widgets.players import PlayersView
from ..widgets.seats import seat_style
from ..widgets.status import StatusLine
from ..widgets.tracks import TracksView
from .flows import FlowsMixin  # flows: hand-off, King's turn, game over, timeline, save/load

# Help, the inspector, the rules and saving are imported when first used (as flows' screens):
# the game's first frame comes without them.

COLUMN_B = ("hand", "players", "log")  # the panels of column B (the others are in column A)
# Seconds the game waits (no change) before the rules and the help are made or redrawn ahead:
# longer than most keys come apart, so that the work is not in the way of the next key
PREPARE_AFTER = 1.5


class GameScreen(PlacedOnce, ComesUpOnce, FlowsMixin, Screen[None]):
    """The board, the tracks, the players, the decision and the log of one game."""

    AUTO_FOCUS = "#decision"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]
    BINDINGS = [
        Binding("u", "undo", "Undo", id="game.undo"),
        Binding("r", "redo", "Redo", id="game.redo"),
        Binding("l", "toggle_log", "Log", id="game.log"),
        Binding("question_mark", "help", "Help", key_display="?", id="game.help"),
        Binding("R", "rules", "Rules", key_display="R", id="game.rules"),  # rules: shift+r (r is redo)
        Binding("q", "quit_game", "Save & quit", id="game.quit"),
        Binding("pageup", "scroll_info(-1)", "Scroll up", show=False, id="game.scroll-up"),
        Binding("pagedown", "scroll_info(1)", "Scroll down", show=False, id="game.scroll-down"),
        # Panels: Tab cycles them (priority: the decision keeps the focus and its keys).
        Binding("tab", "cycle_panel(1)", "Next panel", priority=True, id="game.panel-next"),
        Binding("shift+tab", "cycle_panel(-1)", "Previous panel", show=False, priority=True, id="game.panel-back"),
        Binding("b", "cursor('board')", "Board cursor", show=False, id="game.board-cursor"),
        Binding("m", "cursor('matrix')", "Matrix cursor", show=False, id="game.matrix-cursor"),
        Binding("c", "cursor('hand')", "Hand cursor", show=False, id="game.hand-cursor"),
        Binding("escape", "focus_decision", "Back to the options", show=False, id="game.focus-decision"),
        Binding("i", "inspect", "Inspect", id="game.inspect"),
        # Digits pick an option from anywhere on the screen (the board, matrix and hand cursors
        # too): the decision panel binds its own, these serve while another widget has the focus.
        *(Binding(str(d), f"pick_option({d})", f"Option {d}", show=False, id=f"game.pick-{d}") for d in range(1, 10)),
        # Flows (screens/flows.py): the timeline, save, load, the game over screen.
        Binding("t", "timeline", "Timeline", id="game.timeline"),
        Binding("f", "conflicts", "Conflicts", show=False, id="game.conflicts"),
        Binding("s", "save", "Save", id="game.save"),
        Binding("x", "save_position", "Save position", show=False, id="game.save-position"),
        Binding("h", "hint", "Hint", show=False, id="game.hint"),
        Binding("o", "load", "Load", show=False, id="game.load"),
        Binding("g", "game_over", "Scores", show=False, id="game.game-over"),
    ]

    QUIT_WORDS = "save and quit"  # what q does (a game on a server: back to the lobby)

    class GameChanged(Message):
        """The game changed (posted from the thread that changed it)."""

    def __init__(self, game: GameClient, *, seat: int | None = None) -> None:
        """``seat``: the one seat this screen shows and decides for (a game on a server: each
        person has a terminal of their own; -1 a spectator; by default the game's ``seat``); None:
        whoever decides (hot-seat)."""
        super().__init__()
        self.game = game
        self.seat = seat if seat is not None else game.seat
        self.bots = frozenset(i for i, kind in enumerate(game.seat_kinds) if kind == "bot")
        humans = [i for i, kind in enumerate(game.seat_kinds) if kind == "human"]
        self.viewer = self.seat if self.seat is not None else humans[0] if humans else 0
        self._logged = -1
        self._shown = (-1, -1)  # (game revision, state id) of the prompt on screen
        self._handled: tuple[object, ...] = ()  # what the last GameChanged found
        self._unsubscribe: Callable[[], None] | None = None
        self._save_warned = False
        self._bot_warned = ""
        self._quit_armed = False
        self._rule_refused: tuple[int, str | None, str] | None = None  # rules: (state id, topic, reason)
        self._shown_panel = "board"  # the panel above the decision on small terminals
        self._prepare_timer: Timer | None = None  # _prepare_screens, once the game waits
        self._panel_before_log = "board"
        # Each seat's view and facts, and the prompt, made once a change (_view_of, _prompt_of)
        self._views_made: dict[int, tuple[int, View, Facts]] = {}
        self._prompt_made: tuple[tuple[object, ...], Prompt] | None = None

    def compose(self) -> ComposeResult:
        # Layout (see app.tcss): on big terminals ("-all") every panel is on screen, column A
        # (board, matrix, tracks) beside column B (decision, hand, players, log); otherwise
        # ("-tabbed") the decision is always shown with one panel above it, cycled with Tab.
        # The classes the size and the panel shown call for are set first, so that every widget
        # is styled once as it mounts (ComesUpOnce; each change of a class of the screen
        # styles all of them again: three times over before the first frame).
        self.update_classes(self._classes_for(self.app.size))
        board = BoardView(id="board")
        board.set_reactive(BoardView.cell_lines, cell_lines_for(self.app.size.height))
        yield StatusLine(id="status")
        tabs = PanelTabs(id="panel-tabs")
        tabs.set_reactive(PanelTabs.shown, self._shown_panel)
        yield tabs
        with Row(id="body"):
            with Box(id="col-a"):
                with self._new_pane("board"):
                    yield board
                with self._new_pane("matrix"):
                    yield MatrixView(id="matrix")
                with self._new_pane("tracks"):
                    yield TracksView(id="tracks")
            with Box(id="col-b"):
                yield DecisionPanel(id="decision")
                with self._new_pane("hand"):
                    yield HandView(id="hand")
                with self._new_pane("players"):
                    yield PlayersView(id="players")
                yield self._new_pane("log")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self not in self.app.screen_stack:
            return  # popped before its mount ran (a newer game screen replaced it): nothing to draw
        self._flows_start()  # flows: who looks first (a continued hot-seat game hands off first)
        self._size_classes()  # before the first layout, so no panel is laid out at a passing size
        self._show_panel(self._shown_panel)
        self._unsubscribe = self.game.subscribe(self._post_changed)
        self._handled = self._news_key()
        self._log_viewer = self.viewer
        self._write_log()
        self._redraw()

    def _prepare_screens(self) -> None:
        """The rules (at the decision due), the help and the timeline made out of sight while the
        game waits, so that their keys show them at once (``screens/kept.py``); the rules again
        after each change of the decision (``_redraw``). Imported here (not as the game starts),
        with the screens a decision may bring up."""
        # imported now: the first key that shows one finds it so (the hand-off, the King's turn
        # and a conflict come with a decision; importing the hand-off's took ~2 ms of the first)
        from nctui.ui.screens import handoff  # noqa: F401
        from nctui.ui.screens.help import prepare_help_screen
        from nctui.ui.screens.rules import prepare_rules_screen
        from nctui.ui.screens.timeline import prepare_timeline_screen

        from . import conflict, inspector, king_turn  # noqa: F401

        if not self.is_attached or self.app.screen is not self:
            return  # the hand-off, a screen of the game: once back
        topic, note = self._rules_topic()
        prepare_rules_screen(self.app, topic, note=note)
        prepare_help_screen(self.app, server=self.seat is not None)
        prepare_timeline_screen(self.app, self.game, self.viewer)

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    # -- the game -------------------------------------------------------------------------------

    def _post_changed(self) -> None:
        self.post_message(self.GameChanged())

    def _news_key(self) -> tuple[object, ...]:
        game = self.game
        return (game.revision, game.thinking, game.bot_error, game.autosave_error)

    def on_game_screen_game_changed(self, message: GameChanged) -> None:
        """Redraw once for however many changes were posted meanwhile."""
        message.stop()
        key = self._news_key()
        if key == self._handled:
            return
        revision_changed = key[0] != self._handled[0]
        self._handled = key
        if revision_changed:
            self._note_king_turn()  # flows: the King's turn steps among the new events (solo)
            self._write_log()
        self._redraw()
        self._warn_once()

    def _warn_once(self) -> None:
        """A failing autosave or computer player is said once (until it works again)."""
        if self.game.autosave_error and not self._save_warned:
            self._save_warned = True
            self.notify(
                f"The game cannot be autosaved: {self.game.autosave_error}",
                title="Autosave",
                severity="warning",
                timeout=8,
            )
        elif not self.game.autosave_error:
            self._save_warned = False
        if self.game.bot_error and self.game.bot_error != self._bot_warned:
            self.notify(
                f"{self.game.bot_error[0].upper()}{self.game.bot_error[1:]}. Undo (u) to try again.",
                title="Computer player",
                severity="error",
                timeout=10,
            )
        self._bot_warned = self.game.bot_error

    def _redraw(self) -> None:
        seat = self.game.deciding_seat()
        if self._handoff_due(seat):  # flows: hot-seat, nothing of the next seat's view before its key
            self._flows()
            return
        # a cursor stays while the same person looks (a computer's move does not take it away)
        keep_cursor = self._cursor_focused() and (seat is None or seat in self.bots or seat == self.viewer)
        # on a server a seat can pass to a computer (its person stayed away) and back
        bots = frozenset(i for i, kind in enumerate(self.game.seat_kinds) if kind == "bot")
        if bots != self.bots:  # the same object otherwise: a panel's rehearsal is of the same inputs
            self.bots = bots
        if seat is not None and seat not in self.bots and self.seat is None:
            self.viewer = seat
        view, facts = self._view_of(self.viewer)
        self._note_seen()  # flows: what this person has seen, for their next hand-off
        status = self.query_one(StatusLine)
        players = self.query_one(PlayersView)
        status.bots = players.bots = self.bots
        status.undo = self.game.undo_policy
        drawn = (self.query_one(BoardView), self.query_one(TracksView), self.query_one(HandView), status, players)
        for widget in drawn:  # the facts first: a widget redrawn with the new view has its facts
            widget.facts = facts
        for widget in drawn:
            widget.view = view
        self.query_one(MatrixView).view = view  # the matrix draws the view alone
        self._shown = (self.game.revision, self.game.state_id)
        if self._prepare_timer is not None:  # the rules at this decision, drawn ahead once the game waits
            self._prepare_timer.stop()
        self._prepare_timer = self.set_timer(PREPARE_AFTER, self._prepare_screens)
        panel = self.query_one(DecisionPanel)
        panel.prompt = self._prompt_of(view, facts)
        if self.is_current and not keep_cursor:
            panel.focus()
        self._flows()  # flows: the King's turn, game over (when this screen is the current one)

    def _view_of(self, seat: int) -> tuple[View, Facts]:
        """``seat``'s view and its facts as the game is now, made once a change: the redraws of
        one change, and a hand-off's rehearsal and the Enter that ends it, hand the panels the
        same objects (a panel handed the same object draws nothing again)."""
        revision = self.game.revision
        made = self._views_made.get(seat)
        if made is None or made[0] != revision:
            made = self._views_made[seat] = (revision, self.game.view(seat), self.game.facts(seat))
        return made[1], made[2]

    def _prompt_of(self, view: View, facts: Facts) -> Prompt:
        """``_prompt``, made once for the same view, computer seats and thinking seat."""
        key = (view, self.game.revision, self.bots, self.game.thinking)
        made = self._prompt_made
        if made is None or made[0][0] is not view or made[0][1:] != key[1:]:
            made = self._prompt_made = (key, self._prompt(view, facts))
        return made[1]

    def rehearse(self, seat: int) -> None:
        """Hot seat, while the hand-off screen hides this one: draw ahead, out of sight, what
        ``seat``'s view will draw (each panel's text and lines, kept for it: nothing is shown,
        no panel's attribute is set), so that the Enter passing the keyboard finds them made."""
        view, facts = self._view_of(seat)
        prompt = self._prompt_of(view, facts)
        for widget in (self.query_one(BoardView), self.query_one(TracksView), self.query_one(HandView)):
            widget.rehearse({"facts": facts, "view": view})
        self.query_one(PlayersView).rehearse({"facts": facts, "view": view, "bots": self.bots})
        self.query_one(MatrixView).rehearse({"view": view})
        self.query_one(DecisionPanel).rehearse({"prompt": prompt, "highlight": 0})

    def _prompt(self, view: View, facts: Facts) -> Prompt:
        state = view.state
        key = self.game.revision
        if state.outcome is not None:
            return Prompt(
                key=key, title=Text("Game over", style="bold reverse"), notes=_outcome_lines(state, self.QUIT_WORDS)
            )
        d = state.decision
        if d is None:
            return Prompt(key=key, title=Text("Nothing to decide"))
        tag_style = seat_style(state, d.seat) + Style(reverse=True)
        title = Text(f" {seat_letter(state, d.seat)} {seat_name(state, d.seat)} ", style=tag_style)
        if d.seat in self.bots:
            doing = "thinking" if self.game.thinking == d.seat else "to decide"
            title.append(f" computer player, {doing}: {describe_decision(state)}…")
            return Prompt(key=key, title=title, notes=(f"u: undo back to your last decision · q: {self.QUIT_WORDS}",))
        if not self._decides(d.seat):  # a game on a server: another person's decision
            title.append(f" deciding: {describe_decision(state)}…")
            return Prompt(key=key, title=title, notes=(f"Waiting for their decision · q: {self.QUIT_WORDS}",))
        title.append(f" {describe_decision(state)}")
        nothing = facts.options_nothing
        return Prompt(
            key=key,
            title=title,
            context=describe_context(state),
            options=tuple(
                describe_option(a, state, nothing[i] if i < len(nothing) else "") for i, a in enumerate(d.options)
            ),
        )

    def _write_log(self) -> None:
        log = self.query_one(GameLog)
        update = self.game.events(self._logged, self.viewer)
        if update.undone:
            log.write(Text(f"↶ undone: back to decision {update.state_id}", style="italic"))
        elif update.events:
            log.write_lines(describe_events(list(update.events), self.game.view(self.viewer).state))
        self._logged = update.state_id

    # -- deciding -------------------------------------------------------------------------------

    def on_decision_panel_chosen(self, message: DecisionPanel.Chosen) -> None:
        message.stop()
        revision, state_id = self._shown
        if message.key != revision or state_id != self.game.state_id:
            return  # chosen on a prompt that is no longer shown
        seat = self.game.deciding_seat()
        if seat is None or seat in self.bots or not self._decides(seat) or self._too_soon():
            return
        decision = self.game.view(seat).state.decision
        if decision is None or not 0 <= message.index < len(decision.options):
            return
        options = decision.options
        self._note_choice(options[message.index], self.game.view(seat).state, seat, message.index)  # flows
        self._dispatch(options[message.index], state_id, seat)

    def _decides(self, seat: int) -> bool:
        """Whether this screen decides for ``seat`` (hot-seat: every person's seat)."""
        return self.seat is None or seat == self.seat

    def _dispatch(self, action, state_id: int, seat: int) -> None:
        try:
            self.game.send(action, seen_state_id=state_id, seat=seat)
        except ActionError as exc:
            self._refused_by_rules(exc, state_id)  # rules: the rule, its section, and R to read it
        except StoreError as exc:
            self.notify(str(exc), title="Not now", severity="warning", timeout=6)

    # -- keys -----------------------------------------------------------------------------------

    def action_undo(self) -> None:
        """Back to before the last decision of a person, as the undo policy allows."""
        if self.game.state_id == 0:
            self.notify("Nothing to undo: this is the start of the game.", severity="warning")
            return
        try:
            self.game.undo(self.viewer)
        except StoreError as exc:
            self._refused(exc, "Undo")  # flows: the refusal and the undo policy's rule

    def action_redo(self) -> None:
        if not self.game.can_redo():
            self.notify("Nothing to redo.", severity="warning")
            return
        try:
            self.game.redo()
        except StoreError as exc:
            self._refused(exc, "Redo")

    def action_toggle_log(self) -> None:
        """Small terminals: show the log, or back to the panel shown before it."""
        if self._shown_panel == "log":
            self._show_panel(self._panel_before_log)
        else:
            self._panel_before_log = self._shown_panel
            self._show_panel("log")

    def action_help(self) -> None:
        from nctui.ui.screens.help import help_screen

        self.app.push_screen(help_screen(self.app, server=self.seat is not None))

    # -- rules (screens/rules.py): R opens the summary at the rule of the decision due, or of
    # the action the engine just refused ------------------------------------------------------

    def on_refused_later(self, message: RefusedLater) -> None:
        """A decision a server refused by the rules: said as ``send``'s refusal is here."""
        message.stop()
        reason = message.reason.removesuffix(f" [{message.section}]") if message.section else message.reason
        self._refused_by_rules(IllegalAction(reason, rule=message.rule, section=message.section), self.game.state_id)

    def _refused_by_rules(self, exc: ActionError, state_id: int) -> None:
        from nctui.ui.rules.topics import refusal_words, topic_for_error  # imported when first needed

        title, body = refusal_words(exc)
        self._rule_refused = (state_id, topic_for_error(exc), body.splitlines()[0])
        state = self.game.view(self.viewer).state
        if state.decision is not None:
            body += f"\nThe decision due: {describe_decision(state)}"
        self.notify(body, title=title, severity="error", timeout=10)

    def action_rules(self) -> None:
        from nctui.ui.screens.rules import rules_screen  # rules: the summary at the decision's topic

        topic, note = self._rules_topic()
        self.app.push_screen(rules_screen(self.app, topic, note=note))

    def _rules_topic(self) -> tuple[str, str | None]:
        """Where R opens the rules: the topic of the decision due (or of the action the engine
        just refused) and the line shown above it."""
        from nctui.ui.rules.topics import topic_for_decision

        state = self.game.view(self.viewer).state
        decision = state.decision
        topic, note = "game-end", None
        if decision is not None:
            topic = topic_for_decision(decision.kind, solo=self.game.config.players == 1) or "turn"
            note = f"The decision due: {describe_decision(state)}"
        refused = self._rule_refused
        if refused is not None and refused[0] == self.game.state_id:
            topic, note = refused[1] or topic, f"Not allowed: {refused[2]}"
        return topic, note

    def action_scroll_info(self, direction: int) -> None:
        pane = self._pane(self._shown_panel)
        if direction < 0:
            pane.scroll_page_up()
        else:
            pane.scroll_page_down()

    # -- panels (layout) ------------------------------------------------------------------------

    def on_resize(self) -> None:
        if self in self.app.screen_stack:  # not a screen popped before it was drawn
            self._size_classes()

    def _size_classes(self) -> None:
        """The classes of the terminal's size (``_classes_for``), and the board's height."""
        self.update_classes(self._classes_for(self.size))
        self.query_one(BoardView).cell_lines = cell_lines_for(self.size.height)  # the board grows with the terminal

    def _classes_for(self, size: Size) -> dict[str, bool]:
        """-tabbed (one panel at a time) under 120x34, -all from there; -shown-in-b when the
        panel shown is in column B; the breakpoints' classes (-narrow/-wide, -short/-tall), as
        Textual sets them on a resize."""
        tabbed = not (size.width >= 120 and size.height >= 34)
        return {
            "-tabbed": tabbed,
            "-all": not tabbed,
            "-shown-in-b": self._shown_panel in COLUMN_B,
            **self.breakpoint_classes(size),
        }

    def _new_pane(self, panel: str) -> Widget:
        """The (empty) pane of ``panel`` as ``_show_panel`` leaves it (the log is its own pane)."""
        pane: Widget = GameLog(id="log", classes="pane") if panel == "log" else Pane(id=f"{panel}-pane", classes="pane")
        self._dress_pane(pane, panel, dict(PANELS)[panel])
        return pane

    def _dress_pane(self, pane: Widget, panel: str, title: str) -> None:
        shown = panel == self._shown_panel
        pane.set_class(shown, "-shown", update=pane.is_attached)  # not yet mounted: styled as it mounts
        pane.border_title = panel_title(panel, title, shown)

    def _pane(self, panel: str) -> Widget:
        return self.query_one(f"#{panel}-pane" if panel != "log" else "#log")

    def _show_panel(self, panel: str) -> None:
        """Select ``panel``: small terminals show it above the decision (the CSS hides the
        others); big ones mark its title. PgUp/PgDn scroll it."""
        self._shown_panel = panel
        for name, title in PANELS:
            self._dress_pane(self._pane(name), name, title)
        self.set_class(panel in COLUMN_B, "-shown-in-b")
        self.query_one(PanelTabs).shown = panel

    def _cursor_focused(self) -> bool:
        """Whether a panel with a cursor (board, matrix, hand) has the focus."""
        return isinstance(self.app.focused, (BoardView, MatrixView, HandView))

    def action_cycle_panel(self, delta: int) -> None:
        """Tab: select the next panel (small terminals show it) and give the decision the focus."""
        names = [name for name, _ in PANELS]
        self._show_panel(names[(names.index(self._shown_panel) + delta) % len(names)])
        self.query_one(DecisionPanel).focus()

    def action_cursor(self, panel: str) -> None:
        """b / m / c: show the board, the matrix or the hand and give it the focus."""
        if self.has_class("-tabbed"):
            self._show_panel(panel)
        widget = self.query_one(f"#{panel}")
        if isinstance(widget, BoardView):  # the line about the area under it, in the frame of the cursor
            self.query_one(PanelTabs).note = widget.place_cursor()
            # the board keeps its cursor's area in sight itself, at once: Textual's scrolling of
            # a focused widget into sight glided its pane back to the board's top (~100 ms of frames)
            widget.focus(scroll_visible=False)
            return
        widget.focus()

    def on_board_view_cursor_moved(self, message: BoardView.CursorMoved) -> None:
        """The indicator line tells what is under the board's cursor (80x24: the board fills
        its pane, the line under the map is out of sight)."""
        self.query_one(PanelTabs).note = message.note

    def action_focus_decision(self) -> None:
        """Escape (or Tab) from a panel's cursor: back to the options."""
        self.query_one(PanelTabs).note = None  # as the board's cursor goes (its message comes later)
        self.query_one(DecisionPanel).focus()

    def on_options_picked(self, message: OptionsPicked) -> None:
        """Enter on an area or a space: one option chooses it: as if picked in the list;
        several: the list highlights the first of them; none: say so."""
        message.stop()
        panel = self.query_one(DecisionPanel)
        if len(message.indices) == 1 and panel.prompt is not None:
            self.on_decision_panel_chosen(DecisionPanel.Chosen(panel.prompt.key, message.indices[0]))
            board, matrix = self.query_one(BoardView), self.query_one(MatrixView)
            if (board.has_focus and board.view and not legal_areas(board.view)) or (
                matrix.has_focus and matrix.view and not legal_spaces(matrix.view)
            ):
                panel.focus()  # nothing more to pick there: back to the options
        elif message.indices:
            panel.highlight = message.indices[0]
            panel.focus()
            self.notify(f"{len(message.indices)} options for {message.what}: choose one in the list.", timeout=4)
        else:
            self.notify(f"{message.what} is not an option of this decision.", severity="warning", timeout=4)

    # -- the card inspector ---------------------------------------------------------------------

    def action_pick_option(self, digit: int) -> None:
        """A digit while a cursor has the focus: the option of that number, as in the list."""
        self.query_one(DecisionPanel).action_pick(digit)

    def action_inspect(self, card_id: str = "") -> None:
        """i: every card the viewer may see, starting at the hand's cursor (or ``card_id``, or the
        Action card of the matrix's Day space under its cursor); on the board's cursor, the
        areas, starting at the one under it."""
        from .inspector import InspectorScreen

        board = self.query_one(BoardView)
        if board.has_focus and board.view is not None and board.facts is not None:
            areas = region_entries(board.view, board.facts)
            start = next((k for k, e in enumerate(areas) if e.key == f"area:{board.cursor}"), 0)
            self.app.push_screen(InspectorScreen(areas, start, noun="Area"))
            return
        hand, matrix = self.query_one(HandView), self.query_one(MatrixView)
        card_id = card_id or (hand.current() or "" if hand.has_focus else "")
        from ..widgets.cards import entries as card_entries  # the inspector's: imported when first opened

        items = card_entries(self.game.view(self.viewer))
        # on the matrix's cursor: the viewer's Action card of the Day space under it
        key = f"stack:{self.viewer}:{matrix.cursor}" if matrix.has_focus else f"card:{card_id}"
        start = next((k for k, e in enumerate(items) if e.key == key), 0)
        self.app.push_screen(InspectorScreen(items, start))

    def action_quit_game(self) -> None:
        """Save, then quit. If saving fails, say so and quit only on a second request."""
        from nctui.ui.screens.save import quit_after_saving

        hint = "Continue with: nctui (then c), or nctui play --continue"
        quit_after_saving(self, self.game, armed=self._quit_armed, hint=hint)
        self._quit_armed = True


def _outcome_lines(state: GameState, quit_words: str = GameScreen.QUIT_WORDS) -> tuple[str, ...]:
    out = state.outcome
    if out is None:
        return ()
    reason = END_REASONS.get(out.reason, out.reason)
    lines = [f"The game ended: {reason}.", f"{'':10}{'VP':>3}{'Rit':>4}{'For':>4}{'Dev':>4}{'Upg':>4}{'Drm':>4}"]
    for s in sorted(out.scores, key=lambda s: -s.total):
        star = "★" if s.seat in out.winners else " "
        name = f"{seat_letter(state, s.seat)} {seat_name(state, s.seat)}"[:8]
        lines.append(f"{star}{name:<9}{s.total:>3}{s.ritual:>4}{s.forts:>4}{s.devoured:>4}{s.upgrades:>4}{s.dreams:>4}")
    if out.tie_break:
        lines.append(f"★ winner; tie broken by {out.tie_break}")
    else:
        lines.append("★ winner")
    lines.append(f"g: scores · u: undo · q: {quit_words}")
    return tuple(lines)
