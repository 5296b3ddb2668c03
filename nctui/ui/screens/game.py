"""The game screen: the board, the tracks, the players, the decision and the log of one game.

Flow: a key press or click in the decision list posts ``DecisionPanel.Chosen`` (messages up);
the screen turns it into the action of the deciding seat's view and sends it to the game
(a ``GameClient``); the game tells its subscribers, and the screen hands each widget the new
view (attributes down). Widgets hold no game state. Everything drawn comes from the view of
one seat: the deciding seat when a person decides (hot seat), else the person who decided
last; other seats' hands are never shown.
"""

from __future__ import annotations

from pathlib import Path

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer

from ... import saves
from ...bots import RandomBot
from ...describe import END_REASONS, describe_action, describe_events, seat_letter, seat_name
from ...engine.errors import ActionError
from ...engine.state import GameState
from ...engine.views import View
from ...simulate import bot_seed
from ...store import StoreError
from ..client import GameClient
from ..widgets.board import BoardView
from ..widgets.common import seat_style
from ..widgets.decision import DecisionPanel, Prompt
from ..widgets.log import GameLog
from ..widgets.players import PlayersView
from ..widgets.status import StatusLine
from ..widgets.tracks import TracksView
from .help import HelpScreen

BOT_DELAY = 0.6  # seconds a computer player "thinks" before it decides


class GameScreen(Screen[None]):
    """The board, the tracks, the players, the decision and the log of one game."""

    AUTO_FOCUS = "#decision"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]
    BINDINGS = [
        Binding("u", "undo", "Undo", id="game.undo"),
        Binding("r", "redo", "Redo", id="game.redo"),
        Binding("l", "toggle_log", "Log", id="game.log"),
        Binding("question_mark", "help", "Help", key_display="?", id="game.help"),
        Binding("q", "quit_game", "Save & quit", id="game.quit"),
        Binding("pageup", "scroll_info(-1)", "Scroll up", show=False, id="game.scroll-up"),
        Binding("pagedown", "scroll_info(1)", "Scroll down", show=False, id="game.scroll-down"),
    ]

    def __init__(self, game: GameClient, *, bot_delay: float = BOT_DELAY) -> None:
        super().__init__()
        self.game = game
        self.bot_delay = bot_delay
        config = game.config
        self.bots = frozenset(i for i, kind in enumerate(config.seats) if kind == "bot")
        humans = [i for i, kind in enumerate(config.seats) if kind == "human"]
        self.viewer = humans[0] if humans else 0
        self._robots: dict[int, RandomBot] = {}
        self._bot_timer: Timer | None = None
        self._logged = -1
        self._shown = (-1, -1)  # (game revision, state id) of the prompt on screen
        self._unsubscribe = None
        self._save_warned = False
        self._quit_armed = False

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                with VerticalScroll(id="info", can_focus=False):
                    yield BoardView(id="board")
                    yield TracksView(id="tracks")
                yield GameLog(id="log")
            with Vertical(id="right"):
                yield DecisionPanel(id="decision")
                with VerticalScroll(id="players-pane", can_focus=False):
                    yield PlayersView(id="players")
        yield Footer()

    def on_mount(self) -> None:
        self._unsubscribe = self.game.subscribe(self._game_changed)
        self._write_log()
        self._redraw()
        self._schedule_bot()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._bot_timer is not None:
            self._bot_timer.stop()

    # -- the game -------------------------------------------------------------------------------

    def _game_changed(self) -> None:
        self._write_log()
        self._redraw()
        self._autosave()
        self._schedule_bot()

    def _redraw(self) -> None:
        seat = self.game.deciding_seat()
        if seat is not None and seat not in self.bots:
            self.viewer = seat
        view = self.game.view(self.viewer)
        for widget in (self.query_one(BoardView), self.query_one(TracksView)):
            widget.view = view
        status = self.query_one(StatusLine)
        players = self.query_one(PlayersView)
        status.bots = players.bots = self.bots
        status.view = players.view = view
        self._shown = (self.game.revision, self.game.state_id)
        panel = self.query_one(DecisionPanel)
        panel.prompt = self._prompt(view)
        if self.is_current and self.app.focused is not panel:
            panel.focus()

    def _prompt(self, view: View) -> Prompt:
        state = view.state
        key = self.game.revision
        if state.outcome is not None:
            return Prompt(key=key, title=Text("Game over", style="bold reverse"), notes=_outcome_lines(state))
        d = state.decision
        if d is None:
            return Prompt(key=key, title=Text("Nothing to decide"))
        tag_style = seat_style(state, d.seat) + Style(reverse=True)
        title = Text(f" {seat_letter(state, d.seat)} {seat_name(state, d.seat)} ", style=tag_style)
        if d.seat in self.bots:
            title.append(f" computer player, deciding: {d.prompt}…")
            return Prompt(key=key, title=title, notes=("u: undo back to your last decision",))
        title.append(f" {d.prompt}")
        return Prompt(key=key, title=title, options=tuple(describe_action(a, state) for a in d.options))

    def _write_log(self) -> None:
        log = self.query_one(GameLog)
        update = self.game.events(self._logged, self.viewer)
        if update.undone:
            log.write(Text(f"↶ undone: back to decision {update.state_id}", style="italic"))
        elif update.events:
            for line in describe_events(list(update.events), self.game.view(self.viewer).state):
                log.write(line)
        self._logged = update.state_id

    def _autosave(self) -> Path | None:
        try:
            return self.game.autosave()
        except saves.SaveError as exc:
            if not self._save_warned:
                self._save_warned = True
                self.notify(f"The game cannot be autosaved: {exc}", title="Autosave", severity="warning", timeout=8)
            return None

    # -- deciding -------------------------------------------------------------------------------

    def on_decision_panel_chosen(self, message: DecisionPanel.Chosen) -> None:
        message.stop()
        revision, state_id = self._shown
        if message.key != revision or state_id != self.game.state_id:
            return  # chosen on a prompt that is no longer shown
        seat = self.game.deciding_seat()
        if seat is None or seat in self.bots:
            return
        options = self.game.view(seat).state.decision.options  # type: ignore[union-attr]
        if not 0 <= message.index < len(options):
            return
        self._dispatch(options[message.index], state_id, seat)

    def _dispatch(self, action, state_id: int, seat: int) -> None:
        try:
            self.game.send(action, seen_state_id=state_id, seat=seat)
        except ActionError as exc:
            self.notify(str(exc), title="Not allowed", severity="error", timeout=8)
        except StoreError as exc:
            self.notify(str(exc), title="Not now", severity="warning", timeout=6)

    def _schedule_bot(self) -> None:
        if self._bot_timer is not None:
            self._bot_timer.stop()
            self._bot_timer = None
        seat = self.game.deciding_seat()
        if seat is not None and seat in self.bots:
            state_id = self.game.state_id
            self._bot_timer = self.set_timer(self.bot_delay, lambda: self._bot_decides(state_id))

    def _bot_decides(self, state_id: int) -> None:
        self._bot_timer = None
        seat = self.game.deciding_seat()
        if self.game.state_id != state_id or seat is None or seat not in self.bots:
            return
        bot = self._robots.get(seat)
        if bot is None:
            bot = self._robots[seat] = RandomBot(bot_seed(self.game.config.seed, seat))
        try:
            action = bot.choose(self.game.view(seat))
        except Exception as exc:  # noqa: BLE001 - a broken bot must not take the game down
            self.notify(f"The computer player of seat {seat} failed: {exc}", title="Computer player",
                        severity="error", timeout=10)
            return
        self._dispatch(action, state_id, seat)

    # -- keys -----------------------------------------------------------------------------------

    def _computer_decided(self, state_id: int) -> bool:
        """Whether the decision taken at ``state_id`` was a computer player's, in a game
        where people play too (undo and redo skip those)."""
        humans = any(kind == "human" for kind in self.game.config.seats)
        return humans and state_id < self.game.last_id and self.game.seat_of(state_id + 1) in self.bots

    def action_undo(self) -> None:
        game = self.game
        if game.state_id == 0:
            self.notify("Nothing to undo: this is the start of the game.", severity="warning")
            return
        target = game.state_id - 1
        while target > 0 and self._computer_decided(target):  # back to a person's decision
            target -= 1
        try:
            game.undo_to(target, seat=self.viewer)
        except StoreError as exc:
            self.notify(str(exc), title="Undo", severity="warning")

    def action_redo(self) -> None:
        game = self.game
        if not game.can_redo():
            self.notify("Nothing to redo.", severity="warning")
            return
        try:
            game.redo()
            while game.can_redo() and self._computer_decided(game.state_id):  # on to a person's decision
                game.redo()
        except StoreError as exc:
            self.notify(str(exc), title="Redo", severity="warning")

    def action_toggle_log(self) -> None:
        self.toggle_class("-show-log")

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_scroll_info(self, direction: int) -> None:
        pane = self.query_one("#info", VerticalScroll)
        if direction < 0:
            pane.scroll_page_up()
        else:
            pane.scroll_page_down()

    def action_quit_game(self) -> None:
        """Save, then quit. If saving fails, say so and quit only on a second request."""
        path = self._autosave()
        if path is None and not self._quit_armed:
            self._quit_armed = True
            self.notify("The game could not be saved. Press q again to quit without saving.",
                        title="Not saved", severity="error", timeout=10)
            return
        message = f"Game saved to {path}. Continue with: nctui play --continue" if path else None
        self.app.exit(message=message)


def _outcome_lines(state: GameState) -> tuple[str, ...]:
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
    lines.append("u: undo · q: save and quit")
    return tuple(lines)


