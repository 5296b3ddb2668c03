"""The Textual app: one game screen over a Store, plus a help screen.

Flow: a key press or click in the decision list posts ``DecisionPanel.Chosen`` (messages up);
the GameScreen turns it into the action of the deciding seat's view and dispatches it to the
Store; the Store tells its subscribers, and the screen hands each widget the new view
(attributes down). Widgets hold no game state. Everything drawn comes from
``player_view(store.state, seat)``, where seat is the deciding seat when a person decides (hot
seat), else the person who decided last; other seats' hands are never shown.
"""

from __future__ import annotations

from pathlib import Path

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from .. import saves
from ..bots import RandomBot
from ..engine.config import GameConfig
from ..engine.errors import ActionError
from ..engine.events import redact
from ..engine.state import GameState
from ..engine.views import View, player_view
from ..simulate import bot_seed
from ..store import Store, StoreError
from ..describe import END_REASONS, describe_action, describe_events, seat_letter, seat_name
from .widgets.board import BoardView
from .widgets.common import seat_style
from .widgets.decision import DecisionPanel, Prompt
from .widgets.log import GameLog
from .widgets.players import PlayersView
from .widgets.status import StatusLine
from .widgets.tracks import TracksView

BOT_DELAY = 0.6  # seconds a computer player "thinks" before it decides

HELP = """\
[b]Nightmare Cathedral — keys[/b]

  [b]1[/b]–[b]9[/b]        choose that option of the current page
  [b]↑[/b] [b]↓[/b]        move the highlight (across pages)
  [b]←[/b] [b]→[/b]        previous / next page of options
  [b]Enter[/b]      choose the highlighted option (a click works too)
  [b]u[/b]          undo your last decision (and the computer's since)
  [b]r[/b]          redo
  [b]l[/b]          show the log instead of the board (small terminals)
  [b]PgUp[/b] [b]PgDn[/b]  scroll the board and tracks
  [b]q[/b]          save and quit (continue later with [b]nctui play --continue[/b])
  [b]?[/b]          this help

[b]The board[/b]
  [b]◉E Name[/b]    an area: its symbol (glyph and letter) and name
  [b]R2 B1[/b]      Followers: the seat's letter (R, B, G, Y) and how many
  [b]s2[/b]         Shadows
  [b]⌂R2[/b]        a Fort of Red with 2 levels; [b]★[/b] marks a Fortress
  [b]♦R[/b]         Red's Shaper
  [reverse]Name[/reverse]       a Marked Area (its symbol is under the Turn marker)
  ░░░        an area covered in this player count

[b]The Turn track[/b]: letters say whose turn each position is; ▲ the Turn marker, ⚑ the Starting marker.
[b]Players[/b]: Sup supply, Lim Limbo, Hnd hand, Drm Dreams; ▶ deciding, * computer player.

Press Escape to close."""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="help.close"),
        Binding("question_mark", "dismiss", "Close", show=False, id="help.close-question"),
        Binding("q", "dismiss", "Close", show=False, id="help.close-q"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(HELP, id="help-text")


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

    def __init__(self, store: Store, *, save_dir: Path | str | None = None, bot_delay: float = BOT_DELAY) -> None:
        super().__init__()
        self.store = store
        self.save_dir = save_dir
        self.bot_delay = bot_delay
        config = store.state.config
        self.bots = frozenset(i for i, kind in enumerate(config.seats) if kind == "bot")
        humans = [i for i in range(len(store.state.players)) if i not in self.bots]
        self.viewer = humans[0] if humans else 0
        self._robots: dict[int, RandomBot] = {}
        self._bot_timer: Timer | None = None
        self._logged = -1
        self._shown = (-1, -1)  # (store revision, state id) of the prompt on screen
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
        self._unsubscribe = self.store.subscribe(self._store_changed)
        self._write_log()
        self._redraw()
        self._schedule_bot()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._bot_timer is not None:
            self._bot_timer.stop()

    # -- the store ------------------------------------------------------------------------------

    def _store_changed(self, store: Store) -> None:
        self._write_log()
        self._redraw()
        self._autosave()
        self._schedule_bot()

    def _redraw(self) -> None:
        state = self.store.state
        d = state.decision
        if d is not None and d.seat not in self.bots:
            self.viewer = d.seat
        view = player_view(state, self.viewer)
        for widget in (self.query_one(BoardView), self.query_one(TracksView)):
            widget.view = view
        status = self.query_one(StatusLine)
        players = self.query_one(PlayersView)
        status.bots = players.bots = self.bots
        status.view = players.view = view
        self._shown = (self.store.revision, self.store.state_id)
        panel = self.query_one(DecisionPanel)
        panel.prompt = self._prompt(view)
        if self.is_current and self.app.focused is not panel:
            panel.focus()

    def _prompt(self, view: View) -> Prompt:
        state = view.state
        key = self.store.revision
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
        now = self.store.state_id
        if now > self._logged:
            for i in range(self._logged + 1, now + 1):
                entry = self.store.entry(i)
                events = [redact(e, None) for e in entry.events]
                for line in describe_events(events, entry.state):
                    log.write(line)
        elif now < self._logged:
            log.write(Text(f"↶ undone: back to decision {now}", style="italic"))
        self._logged = now

    def _autosave(self) -> Path | None:
        try:
            return saves.autosave(self.store, self.save_dir)
        except saves.SaveError as exc:
            if not self._save_warned:
                self._save_warned = True
                self.notify(f"The game cannot be autosaved: {exc}", title="Autosave", severity="warning", timeout=8)
            return None

    # -- deciding -------------------------------------------------------------------------------

    def on_decision_panel_chosen(self, message: DecisionPanel.Chosen) -> None:
        message.stop()
        revision, state_id = self._shown
        if message.key != revision or state_id != self.store.state_id:
            return  # chosen on a prompt that is no longer shown
        state = self.store.state
        d = state.decision
        if d is None or d.seat in self.bots:
            return
        options = player_view(state, d.seat).state.decision.options  # type: ignore[union-attr]
        if not 0 <= message.index < len(options):
            return
        self._dispatch(options[message.index], state_id, d.seat)

    def _dispatch(self, action, state_id: int, seat: int) -> None:
        try:
            self.store.dispatch(action, seen_state_id=state_id, seat=seat)
        except ActionError as exc:
            self.notify(str(exc), title="Not allowed", severity="error", timeout=8)
        except StoreError as exc:
            self.notify(str(exc), title="Not now", severity="warning", timeout=6)

    def _schedule_bot(self) -> None:
        if self._bot_timer is not None:
            self._bot_timer.stop()
            self._bot_timer = None
        d = self.store.state.decision
        if d is not None and d.seat in self.bots:
            state_id = self.store.state_id
            self._bot_timer = self.set_timer(self.bot_delay, lambda: self._bot_decides(state_id))

    def _bot_decides(self, state_id: int) -> None:
        self._bot_timer = None
        state = self.store.state
        d = state.decision
        if self.store.state_id != state_id or d is None or d.seat not in self.bots:
            return
        bot = self._robots.get(d.seat)
        if bot is None:
            bot = self._robots[d.seat] = RandomBot(bot_seed(state.config.seed, d.seat))
        try:
            action = bot.choose(player_view(state, d.seat))
        except Exception as exc:  # noqa: BLE001 - a broken bot must not take the game down
            self.notify(f"The computer player of seat {d.seat} failed: {exc}", title="Computer player",
                        severity="error", timeout=10)
            return
        self._dispatch(action, state_id, d.seat)

    # -- keys -----------------------------------------------------------------------------------

    def _decided_by_bot(self, state: GameState) -> bool:
        return state.decision is not None and state.decision.seat in self.bots

    def action_undo(self) -> None:
        store = self.store
        if store.state_id == 0:
            self.notify("Nothing to undo: this is the start of the game.", severity="warning")
            return
        target = store.state_id - 1
        if len(self.bots) < len(store.state.players):  # back to a person's decision
            while target > 0 and self._decided_by_bot(store.entry(target).state):
                target -= 1
        try:
            store.jump(target, seat=self.viewer)
        except StoreError as exc:
            self.notify(str(exc), title="Undo", severity="warning")

    def action_redo(self) -> None:
        store = self.store
        if not store.can_redo():
            self.notify("Nothing to redo.", severity="warning")
            return
        try:
            store.redo()
            if len(self.bots) < len(store.state.players):  # on to a person's decision
                while store.can_redo() and self._decided_by_bot(store.state):
                    store.redo()
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


class NctuiApp(App[None]):
    """Nightmare Cathedral in the terminal."""

    CSS_PATH = "app.tcss"
    TITLE = "Nightmare Cathedral"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, store: Store, *, save_dir: Path | str | None = None, bot_delay: float = BOT_DELAY) -> None:
        super().__init__()
        self.store = store
        self.save_dir = save_dir
        self.bot_delay = bot_delay

    def get_default_screen(self) -> Screen:
        return GameScreen(self.store, save_dir=self.save_dir, bot_delay=self.bot_delay)

    def game_screen(self) -> GameScreen:
        screen = self.screen_stack[0]
        assert isinstance(screen, GameScreen)
        return screen

    async def action_quit(self) -> None:  # ctrl+q: save first, like q
        self.game_screen().action_quit_game()


def create_app(store_or_config: Store | GameConfig, save_dir: Path | str | None = None, *,
               bot_delay: float = BOT_DELAY) -> NctuiApp:
    """The app for a game: a Store to continue, or a GameConfig to start a new game
    (a bad configuration raises ValueError). ``save_dir``: where autosaves go (default:
    $NCTUI_SAVE_DIR or the user's data folder)."""
    if isinstance(store_or_config, GameConfig):
        store = Store(store_or_config)
    elif isinstance(store_or_config, Store):
        store = store_or_config
    else:
        raise TypeError(f"create_app needs a Store or a GameConfig, not {type(store_or_config).__name__}")
    return NctuiApp(store, save_dir=save_dir, bot_delay=bot_delay)
