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

from collections.abc import Sequence
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget

from nctui.platform.store import StoreError
from nctui.ui.client import GameClient, RefusedLater
from nctui.ui.screens.shell import HELP, LOAD, QUIT, REDO, RULES, SAVE, TIMELINE, UNDO
from nctui.ui.textual_ext.placed import Box, ComesUpOnce, Pane, PlacedOnce, Row
from nctui.ui.widgets.common import OptionsPicked
from nctui.ui.widgets.decision import GONE, DecisionPanel, Prompt, stable_slots
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
from .flows import FlowsMixin  # flows: the King's turn, conflicts, game over, hints; the shell's hand-off, keys

# Help, the inspector, the rules and saving are imported when first used (as flows' screens):
# the game's first frame comes without them.

COLUMN_B = ("hand", "players", "log")  # the panels of column B (the others are in column A)

KEYS_HELP = """\
  [b]1[/b]–[b]9[/b]        choose that option of the current page (from the cursors too)
  [b]↑[/b] [b]↓[/b]        move the highlight (across pages)
  [b]←[/b] [b]→[/b]        previous / next page of options
  [b]Enter[/b]      choose the highlighted option (a click works too)
  [b]g[/b]          the scores, once the game is over
  [b]Tab[/b] [b]⇧Tab[/b]   next / previous panel (small terminals show one above the options)
  [b]b[/b] [b]m[/b] [b]c[/b]      a cursor on the board, matrix or hand (arrows/hjkl; Enter chooses the
             option for the area, space or card under it; Tab or Esc back)
  [b]i[/b]          the card inspector (←/→ other cards; i or q closes); on the board's
             cursor, the area inspector: the area in full, ←/→ the other areas
  [b]l[/b]          show the log (small terminals)
  [b]PgUp[/b] [b]PgDn[/b]  scroll the selected panel
"""
LOCAL_KEYS_HELP = """\
  [b]x[/b]          save this position as a scenario (Practice on the title screen lists them)
  [b]h[/b]          a hint in practice games: the planner's choice, its next best options, and why
"""
NOTES_HELP = """\
[b]The board[/b]
  [b]◉E Name[/b]    an area: its symbol (glyph and letter) and name
  [b]R2 B1[/b]      Followers: the seat's letter (R, B, G, Y) and how many
  [b]s2[/b]         Shadows
  [b]⌂R2[/b]        a Fort of Red with 2 levels; [b]★[/b] marks a Fortress
  [b]♦R[/b]         Red's Shaper; [b]K[/b] the King's units in solo
  [b]N3[/b]         Nightmare 3;  [b]♚R[/b] Red controls this contested area
  [u]Name[/u]       an option of the decision due
  [reverse]Name[/reverse]       a Marked Area (its symbol is under the Turn marker)
  ░░░        an area covered in this player count

[b]The Turn track[/b]: letters say whose turn each position is; ▲ the Turn marker, ⚑ the Starting marker.
[b]Players[/b]: Sup supply, Lim Limbo, Hnd hand, Drm Dreams; ▶ deciding, * computer player.
[b]Solo[/b]: the King's turn is shown a step at a time (Space: next, a: all, p: stop pacing);
  on the Matrix [b]c2[/b] the King's Cultists, [b]k+[/b] a Day space that makes the King conform."""


class GameScreen(PlacedOnce, ComesUpOnce, FlowsMixin, Screen[None]):
    """The board, the tracks, the players, the decision and the log of one game."""

    AUTO_FOCUS = "#decision"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]
    BINDINGS = [
        UNDO,
        REDO,
        Binding("l", "toggle_log", "Log", id="game.log"),
        HELP,
        RULES,
        QUIT,
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
        # The shell's (screens/shell.py) and the flows' (screens/flows.py): the timeline, save,
        # load, the game over screen.
        TIMELINE,
        Binding("f", "conflicts", "Conflicts", show=False, id="game.conflicts"),
        SAVE,
        Binding("x", "save_position", "Save position", show=False, id="game.save-position"),
        Binding("h", "hint", "Hint", show=False, id="game.hint"),
        LOAD,
        Binding("g", "game_over", "Scores", show=False, id="game.game-over"),
    ]

    QUIT_HINT = "Continue with: nctui (then c), or nctui play --continue"
    HELP_KEYS, HELP_LOCAL_KEYS, HELP_NOTES = KEYS_HELP, LOCAL_KEYS_HELP, NOTES_HELP

    def __init__(self, game: GameClient, *, seat: int | None = None) -> None:
        """``seat``: the one seat this screen shows and decides for (a game on a server: each
        person has a terminal of their own; -1 a spectator; by default the game's ``seat``); None:
        whoever decides (hot-seat)."""
        super().__init__(game, seat=seat)
        self._shown = (-1, -1)  # (game revision, state id) of the prompt on screen
        self._shown_panel = "board"  # the panel above the decision on small terminals
        self._panel_before_log = "board"
        # Each seat's view and facts, and the prompt, made once a change (_view_of, _prompt_of)
        self._views_made: dict[int, tuple[int, View, Facts]] = {}
        self._prompt_made: tuple[tuple[object, ...], Prompt] | None = None
        self._lines_shown: tuple[object, tuple[str, ...]] = (None, ())  # the last options listed, and for what
        self._chosen: tuple[int, int] = (-1, -1)  # (state id, viewer) of the last option chosen here
        self._chosen_label = ""  # its words

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
        self._size_classes()  # before the first layout, so no panel is laid out at a passing size
        self._show_panel(self._shown_panel)
        self._shell_start()  # the shell (and flows): who looks first, the session, the log
        self._redraw()

    def _prepare_screens(self) -> None:
        """The shell's screens made ahead (``GameShell._prepare_screens``), with the screens a
        decision of this game may bring up imported (not as the game starts)."""
        from . import conflict, inspector, king_turn  # noqa: F401

        super()._prepare_screens()

    # -- the game -------------------------------------------------------------------------------

    def _redraw(self) -> None:
        seat = self.game.deciding_seat()
        if self._handoff_due(seat):  # flows: hot-seat, nothing of the next seat's view before its key
            self._flows()
            return
        # a cursor stays while the same person looks (a computer's move does not take it away)
        keep_cursor = self._cursor_focused() and (seat is None or seat in self.bots or seat == self.viewer)
        self._refresh_bots()  # the same object while they do not change: a panel's rehearsal is of the same inputs
        self._look_as(seat)
        view, facts = self._view_of(self.viewer)
        self._note_seen()  # flows: what this person has seen, for their next hand-off
        status = self.query_one(StatusLine)
        players = self.query_one(PlayersView)
        status.bots = players.bots = self.bots
        players.presence = self.presence_all()  # online: who holds each seat, whether they are there
        status.undo = self.game.undo_policy
        drawn = (self.query_one(BoardView), self.query_one(TracksView), self.query_one(HandView), status, players)
        prompt = self._prompt_of(view, facts)
        self.query_one(HandView).slots = prompt.slots  # a card's number: its option's line in the list
        for widget in drawn:  # the facts first: a widget redrawn with the new view has its facts
            widget.facts = facts
        for widget in drawn:
            widget.view = view
        self.query_one(MatrixView).view = view  # the matrix draws the view alone
        self._shown = (self.game.revision, self.game.state_id)
        self._prepare_later()  # the rules at this decision, drawn ahead once the game waits
        panel = self.query_one(DecisionPanel)
        panel.prompt = prompt
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
        self.query_one(PlayersView).rehearse(
            {"facts": facts, "view": view, "bots": self.bots, "presence": self.presence_all()}
        )
        self.query_one(MatrixView).rehearse({"view": view})
        self.query_one(DecisionPanel).rehearse({"prompt": prompt, "highlight": 0})

    def _prompt(self, view: View, facts: Facts) -> Prompt:
        state = view.state
        key = self.game.revision
        shown_before, self._lines_shown = self._lines_shown, (None, ())
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
        labels = tuple(
            describe_option(a, state, nothing[i] if i < len(nothing) else "") for i, a in enumerate(d.options)
        )
        # The same decision asked again (a move after a move, an Upgrade after an Upgrade): the
        # options still offered keep their numbers, so a digit pressed again means the same.
        family = (view.seat, d.seat, d.kind, self.game.state_id)
        asked_again = shown_before[0] == (*family[:3], self.game.state_id - 1)  # the decision just before
        # ... and the option chosen there is offered again (a Follower moved, another may follow)
        repeated = asked_again and self._chosen == (self.game.state_id - 1, view.seat) and self._chosen_label in labels
        before = shown_before[1] if repeated else ()
        slots = stable_slots(before, labels)
        lines = tuple(labels[i] if i >= 0 else GONE for i in slots) if slots else labels
        self._lines_shown = (family, lines)
        return Prompt(key=key, title=title, context=describe_context(state), options=lines, slots=slots)

    def describe_events(self, events: Sequence[Any], view: View) -> list[str]:
        return describe_events(list(events), view.state)

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
        panel = self.query_one(DecisionPanel)
        if panel.prompt is not None and 0 <= (line := panel.prompt.line_of(message.index)) < len(panel.prompt.options):
            self._chosen, self._chosen_label = (state_id, self.viewer), panel.prompt.options[line]
        self._note_choice(options[message.index], self.game.view(seat).state, seat, message.index)  # flows
        self._dispatch(options[message.index], state_id, seat)

    def _dispatch(self, action, state_id: int, seat: int) -> None:
        try:
            self.game.send(action, seen_state_id=state_id, seat=seat)
        except ActionError as exc:
            self._refused_by_rules(exc, state_id)  # rules: the rule, its section, and R to read it
        except StoreError as exc:
            self.notify(str(exc), title="Not now", severity="warning", timeout=6)

    # -- keys -----------------------------------------------------------------------------------

    def action_toggle_log(self) -> None:
        """Small terminals: show the log, or back to the panel shown before it."""
        if self._shown_panel == "log":
            self._show_panel(self._panel_before_log)
        else:
            self._panel_before_log = self._shown_panel
            self._show_panel("log")

    # -- rules (the shell's R): the summary at the rule of the decision due, or of the action
    # the engine just refused ------------------------------------------------------------------

    def on_refused_later(self, message: RefusedLater) -> None:
        """A decision a server refused by the rules: said as ``send``'s refusal is here."""
        message.stop()
        reason = message.reason.removesuffix(f" [{message.section}]") if message.section else message.reason
        self._refused_by_rules(IllegalAction(reason, rule=message.rule, section=message.section), self.game.state_id)

    def _refused_by_rules(self, exc: ActionError, state_id: int) -> None:
        from ..topics import refusal_words, topic_for_error  # imported when first needed

        title, body = refusal_words(exc)
        self._note_refusal(state_id, topic_for_error(exc), body.splitlines()[0])
        state = self.game.view(self.viewer).state
        if state.decision is not None:
            body += f"\nThe decision due: {describe_decision(state)}"
        self.notify(body, title=title, severity="error", timeout=10)

    def decision_topic(self) -> tuple[str | None, str | None]:
        """The topic of the decision due and the line shown above it (the game over: its end)."""
        from ..topics import topic_for_decision

        state = self.game.view(self.viewer).state
        decision = state.decision
        if decision is None:
            return "game-end", None
        topic = topic_for_decision(decision.kind, solo=self.game.config.players == 1) or "turn"
        return topic, f"The decision due: {describe_decision(state)}"

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

    def _dress_pane(self, pane: Widget, panel: str, title: str) -> bool:
        """Mark ``pane`` shown or not (its "-shown" class and its title): whether its class changed.
        The class is not styled here (see ``_show_panel``; a pane not yet mounted is styled as
        it mounts)."""
        shown = panel == self._shown_panel
        changed = pane.has_class("-shown") != shown
        pane.set_class(shown, "-shown", update=False)
        pane.border_title = panel_title(panel, title, shown)
        return changed

    def _pane(self, panel: str) -> Widget:
        return self.query_one(f"#{panel}-pane" if panel != "log" else "#log")

    def _show_panel(self, panel: str) -> None:
        """Select ``panel``: small terminals show it above the decision (the CSS hides the
        others); big ones mark its title. PgUp/PgDn scroll it.

        Only the nodes whose styles the change of panel changes are styled again: the two panes
        (their "-shown" class) and, when the panel moves to the other column, the two columns
        (the screen's "-shown-in-b"). The rules that read these classes (app.tcss) style those
        nodes alone, nothing inside them; a class changed as usual styles the node's whole
        subtree again, the screen's every widget (36 % of a Tab's time)."""
        self._shown_panel = panel
        changed = [pane for name, title in PANELS if self._dress_pane(pane := self._pane(name), name, title)]
        in_b = panel in COLUMN_B
        if self.has_class("-shown-in-b") != in_b:
            self.set_class(in_b, "-shown-in-b", update=False)
            changed += [self.query_one("#col-a"), self.query_one("#col-b")]
        if changed and self.is_attached:
            self.app.stylesheet.update_nodes(changed)
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
            panel.highlight_option(message.indices[0])
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
        card_id = card_id or (hand.current() or "" if hand.has_focus else "") or self._highlighted_card()
        from ..widgets.cards import entries as card_entries  # the inspector's: imported when first opened

        items = card_entries(self.game.view(self.viewer))
        # on the matrix's cursor: the viewer's Action card of the Day space under it
        key = f"stack:{self.viewer}:{matrix.cursor}" if matrix.has_focus else f"card:{card_id}"
        start = next((k for k, e in enumerate(items) if e.key == key), 0)
        self.app.push_screen(InspectorScreen(items, start))

    def _highlighted_card(self) -> str:
        """The card the decision's highlighted option is about ('' for none): ``i`` opens there."""
        panel = self.query_one(DecisionPanel)
        view = self.game.view(self.viewer)
        d = view.state.decision
        option = panel.highlighted_option()
        if not panel.has_focus or d is None or d.seat != view.seat or not 0 <= option < len(d.options):
            return ""
        card = getattr(d.options[option], "card", "")
        return card if isinstance(card, str) else ""


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
