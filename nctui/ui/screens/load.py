"""The games screen, as Continue (the unfinished games, newest first), as Load (every save of
the save folder: the games' autosaves, finished ones included, and the saves made under a name),
and as Finished games (the finished ones, newest first: Enter watches one again, ``replay``).

Each row says what the save's header says without replaying it: who plays each seat, the mode,
the turn and the game's progress (Time, stage), and when it was last played; a save that cannot
be read says why. Then every save is replayed on a worker thread, and one that no longer
replays is marked with the reason (its row stays; it cannot be loaded). ``d`` deletes the
highlighted save after asking; Enter continues the game.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, cast

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from nctui.platform import saves
from nctui.platform.game import Summary
from nctui.platform.session import SessionError, open_session

from ..textual_ext.placed import ComesUpOnce
from ..widgets.decision import HINT
from ..widgets.footer import KeyFooter

if TYPE_CHECKING:
    from ..app import NctuiApp

BROKEN = Style(color="#ff8787")
FINISHED = Style(color="#87afaf")


def when_words(updated: str) -> str:
    """'2026-11-23 20:14' in local time, from the save's UTC time stamp."""
    try:
        return dt.datetime.fromisoformat(updated).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return updated


def where_words(s: Summary, sep: str) -> str:
    """'turn 13 · Time 3 of 6, Stage 1', or the progress alone before the first turn."""
    return f"turn {s.turn}{sep}{s.progress}" if s.turn else s.progress


def listing_text(g: saves.Listing, *, checking: bool = False) -> Text:
    """A save's row: who plays and the mode, then the turn, progress and when it was played."""
    name = "autosave" if g.path.parent.name == saves.AUTOSAVES else g.path.name.removesuffix(saves.SUFFIX)
    s = g.summary
    if s is None:
        return Text.assemble((g.path.name, "bold"), ("\n  cannot be loaded: " + g.problem, BROKEN))
    head = Text.assemble((", ".join(s.players), "bold"), ("  " + when_words(g.updated), HINT))
    body = Text(f"\n  {s.mode} · {where_words(s, ' · ')} · {name}", style=HINT)
    if s.finished:
        body.append(f" · finished: {s.result}", style=FINISHED)
    if g.problem:
        body.append(f"\n  cannot be loaded: {g.problem}", style=BROKEN)
    elif checking:
        body.append(" · checking…", style=HINT)
    return head + body


def continue_words(folder: Path | str | None) -> tuple[str, bool]:
    """The Title screen's words for Continue ('Red, Blue: 2 players, Standard, turn 3, Time 2 of
    6, Stage 1, 2026-11-23 22:10'), and whether there is a game to continue. Reads the
    saves' headers only; a damaged autosave is counted, never raised."""
    games = [g for g in saves.list_games(folder) if g.path.parent.name == saves.AUTOSAVES]
    damaged = sum(1 for g in games if g.summary is None)
    open_ = [g for g in games if g.summary is not None and not g.summary.finished]
    note = f" ({damaged} damaged save{'s' * (damaged != 1)}: see Load)" if damaged else ""
    if not open_:
        return "no unfinished game" + note, False
    s = open_[0].summary
    assert s is not None
    players = ", ".join(p.partition(" (")[0] for p in s.players)  # the names: the list says who plays them
    latest = f"{players}: {s.mode}, {where_words(s, ', ')}, {when_words(open_[0].updated)}"
    more = f" and {len(open_) - 1} more" if len(open_) > 1 else ""
    return latest + more + note, True


def play_save(screen: Screen, path: Path) -> bool:
    """Continue the game of the save; a save that cannot be loaded says why (and the screen
    stays). The game being played is simply shown again."""
    app = cast("NctuiApp", screen.app)
    current = app.game
    if current is not None and current.autosave_path is not None and _same(current.autosave_path, path):
        app.open_game(current)
        return True
    try:
        session = open_session(path, folder=app.save_dir, bot_delay=app.bot_delay)
    except (saves.SaveError, SessionError) as exc:
        screen.notify(str(exc), title="Cannot load this save", severity="error", timeout=10)
        return False
    app.open_game(session)
    return True


def replay_save(screen: Screen, path: Path) -> bool:
    """Watch the game of the save again (``screens/replay.py``); one that cannot be read says why."""
    from nctui.platform.replay import open_replay

    try:
        replay = open_replay(path)
    except saves.SaveError as exc:
        screen.notify(str(exc), title="Cannot open this game", severity="error", timeout=10)
        return False
    cast("NctuiApp", screen.app).open_replay(replay)
    return True


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


class ConfirmScreen(ComesUpOnce, ModalScreen[bool]):
    """A yes/no question: y or Enter says yes; n or Escape says no."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen #confirm { width: 64; max-width: 100%; height: auto; background: $panel;
                             border: round $error; padding: 0 1; }
    """
    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble(self.question, ("\ny: yes · n or Escape: no", HINT)), id="confirm")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class LoadScreen(ComesUpOnce, Screen[None]):
    """The saves of the save folder (``unfinished``: the unfinished games only, for Continue);
    Enter continues the highlighted game, d deletes it."""

    DEFAULT_CSS = """
    LoadScreen #load-title { background: $panel; color: $text; padding: 0 1; text-style: bold; width: 100%; }
    LoadScreen #saves { height: 1fr; border: none; padding: 0 1; }
    LoadScreen #load-empty { padding: 1 2; }
    LoadScreen #load-hint { padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("j", "move(1)", "Down", show=False, id="load.down"),
        Binding("k", "move(-1)", "Up", show=False, id="load.up"),
        Binding("d,delete", "delete", "Delete", key_display="d", id="load.delete"),
        Binding("escape,b", "back", "Back", key_display="b", id="load.back"),
    ]
    AUTO_FOCUS = "#saves"

    def __init__(self, folder: Path | str | None = None, *, unfinished: bool = False, finished: bool = False) -> None:
        super().__init__()
        self.folder = saves.save_dir(folder)
        self.unfinished = unfinished
        self.finished = finished
        self.games = self._list()
        self.problems: dict[Path, str] = {}
        self.checked = False

    def _list(self) -> list[saves.Listing]:
        games = saves.list_games(self.folder)
        if self.unfinished:
            games = [
                g
                for g in games
                if g.path.parent.name == saves.AUTOSAVES and g.summary is not None and not g.summary.finished
            ]
        elif self.finished:
            games = [g for g in games if g.finished]
        return games

    def compose(self) -> ComposeResult:
        what = "Continue a game" if self.unfinished else "Finished games" if self.finished else "Load a saved game"
        yield Static(Text(f"{what} — {self.folder}"), id="load-title")  # a folder's name is text, never markup
        yield OptionList(*self._options(), id="saves")
        empty = (
            "No unfinished game."
            if self.unfinished
            else "No finished game."
            if self.finished
            else "No saved games yet."
        )
        yield Static(f"{empty} A game autosaves after every decision.", id="load-empty")
        enter = "watch again" if self.finished else "continue"
        yield Static(f"↑↓ or j/k choose · Enter {enter} · d delete · b or Escape back", id="load-hint")
        yield KeyFooter()

    def _options(self) -> list[Option]:
        return [
            Option(
                listing_text(
                    g._replace(problem=self.problems.get(g.path, g.problem)),
                    checking=not self.checked and g.summary is not None,
                ),
                id=str(i),
            )
            for i, g in enumerate(self.games)
        ]

    def on_mount(self) -> None:
        self._show()
        self._check_saves()

    def _show(self) -> None:
        menu = self.query_one("#saves", OptionList)
        highlighted = menu.highlighted
        menu.clear_options()
        menu.add_options(self._options())
        if self.games:
            menu.highlighted = min(highlighted or 0, len(self.games) - 1)
        menu.display = bool(self.games)
        self.query_one("#load-empty").display = not self.games

    @work(thread=True, exclusive=True, group="check-saves", exit_on_error=False)
    def _check_saves(self) -> None:
        """Replay every save off the screen's thread, then mark those that no longer load."""
        problems = {g.path: saves.problem(g.path) for g in self.games if g.summary is not None}
        try:
            self.app.call_from_thread(self._checked, problems)
        except RuntimeError:
            pass  # the app ended meanwhile: nothing to show

    def _checked(self, problems: dict[Path, str]) -> None:
        self.problems, self.checked = problems, True
        if self.is_attached:
            self._show()

    def action_move(self, delta: int) -> None:
        menu = self.query_one("#saves", OptionList)
        (menu.action_cursor_down if delta > 0 else menu.action_cursor_up)()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.load(self.games[int(message.option.id or 0)].path)

    def load(self, path: Path) -> bool:
        problem = self.problems.get(path)
        if problem:
            self.notify(f"{path.name}: {problem}", title="Cannot load this save", severity="error", timeout=10)
            return False
        return replay_save(self, path) if self.finished else play_save(self, path)

    def _highlighted(self) -> saves.Listing | None:
        index = self.query_one("#saves", OptionList).highlighted
        return self.games[index] if index is not None and 0 <= index < len(self.games) else None

    def action_delete(self) -> None:
        """Delete the highlighted save, after asking (never the game being played)."""
        g = self._highlighted()
        if g is None:
            return
        current = cast("NctuiApp", self.app).game
        if current is not None and current.autosave_path is not None and _same(current.autosave_path, g.path):
            self.notify("This is the game being played: finish or quit it first.", title="Delete", severity="warning")
            return
        what = ", ".join(g.summary.players) if g.summary else g.path.name
        self.app.push_screen(
            ConfirmScreen(f"Delete the save of {what} ({g.path.name})? This cannot be undone."),
            lambda yes: self._delete(g, yes),
        )

    def _delete(self, g: saves.Listing, yes: bool | None) -> None:
        if not yes:
            return
        try:
            saves.delete(g.path)
        except saves.SaveError as exc:
            self.notify(str(exc), title="Delete", severity="error")
            return
        self.games = [x for x in self.games if x.path != g.path]
        self._show()
        self.notify(f"Deleted {g.path.name}.", title="Delete")

    def action_back(self) -> None:
        self.dismiss()
