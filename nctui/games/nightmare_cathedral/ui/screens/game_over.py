"""The game over screen: each player's score breakdown, the winner and the tie-break, and what
to do next (save the replay, start again, undo back into the game, look at the board, quit).

It draws only the outcome (public: every seat sees the same scores) and dismisses with the
choice; the game screen acts on it. Saving the replay happens here, in a SaveScreen on top.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from nctui.ui.client import GameClient
from nctui.ui.screens.save import SaveScreen, default_name
from nctui.ui.textual_ext.placed import ComesUpOnce

from ...describe import seat_letter, seat_name
from ...describe.score import end_reason, score_breakdown
from ...engine.state import GameState
from ..widgets.seats import seat_style

GameOverChoice = Literal["undo", "new", "board", "quit"]

COLUMNS = ("Ritual", "Forts", "Devoured", "Upgrades", "Dreams")


def breakdown(state: GameState) -> Table:
    """The score table: one row per player, best first; ★ marks the winners."""
    out = state.outcome
    assert out is not None
    table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
    table.add_column("", width=1)
    table.add_column("Player", no_wrap=True)
    for name in COLUMNS:
        table.add_column(name, justify="right")
    table.add_column("Total", justify="right", style="bold")
    king = state.king.seat if state.king is not None else -1
    for s in sorted(out.scores, key=lambda s: (-s.total, s.seat)):
        who = Text(f"{seat_letter(state, s.seat)} {seat_name(state, s.seat)}", style=seat_style(state, s.seat))
        if s.seat == king:
            who.append(" ‡")
        star = "★" if s.seat in out.winners else ""
        table.add_row(star, who, *(str(v) for v in (s.ritual, s.forts, s.devoured, s.upgrades, s.dreams)), str(s.total))
    return table


def sources(state: GameState) -> Table:
    """Where each side's VP came from, one line per source with its reason, best side first."""
    out = state.outcome
    assert out is not None
    totals = {s.seat: s.total for s in out.scores}
    table = Table(box=None, padding=(0, 1), show_edge=False, show_header=False, expand=False)
    table.add_column("", width=1)
    table.add_column("Source", overflow="fold")
    table.add_column("VP", justify="right", no_wrap=True)
    rows = sorted(score_breakdown(state), key=lambda r: (-totals[r[0]], r[0]))
    for i, (seat, name, lines) in enumerate(rows):
        if i:
            table.add_row("", "", "")
        head = Text(f"{seat_letter(state, seat)} {name}", style=f"bold {seat_style(state, seat)}")
        table.add_row("", head, Text(f"{totals[seat]} VP", style="bold"))
        for why, vp in lines:
            table.add_row("·", why, str(vp))
    return table


def verdict(state: GameState) -> Text:
    """'★ B Blue wins with 34 VP (tie broken by most VP from Dreams)'."""
    out = state.outcome
    assert out is not None, "a verdict needs a finished game"
    totals = {s.seat: s.total for s in out.scores}
    t = Text("★ ")
    for i, seat in enumerate(out.winners):
        if i:
            t.append(" and ")
        t.append(f"{seat_letter(state, seat)} {seat_name(state, seat)}", style=seat_style(state, seat))
    if len(out.winners) == 1:
        t.append(f" wins with {totals[out.winners[0]]} VP")
    else:
        t.append(f" share the victory with {totals[out.winners[0]]} VP each")
    if out.tie_break and out.tie_break != "shared victory":
        t.append(f" ({out.tie_break})" if out.tie_break.startswith("a tie") else f" (tie broken by {out.tie_break})")
    elif out.tie_break:
        t.append(" (still tied after Dreams and the Ritual track)")
    return t


def notes(state: GameState) -> list[str]:
    """What the columns hold where it is not obvious (the King's score in solo)."""
    if state.king is None:
        return []
    return [
        "‡ The King of Horrors: Dreams = its completed Dreams and their suit sets; "
        "Upgrades = its Reward tiles and every 3rd card left in its hand."
    ]


class GameOverScreen(ComesUpOnce, ModalScreen[GameOverChoice]):
    """The final scores and what next: s save the replay, n new game, u undo, v the board, q quit."""

    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    #over-box { width: 100; max-width: 100%; height: auto; max-height: 100%; background: $panel;
                border: double $accent; padding: 0 1; }
    """
    BINDINGS = [
        Binding("s", "save_replay", "Save the replay", id="over.save"),
        Binding("n", "choose('new')", "New game", id="over.new"),
        Binding("u", "choose('undo')", "Undo", id="over.undo"),
        Binding("v", "choose('board')", "View the board", id="over.board"),
        Binding("escape", "choose('board')", "Close", show=False, id="over.close"),
        Binding("q", "choose('quit')", "Quit", id="over.quit"),
    ]

    def __init__(self, game: GameClient, viewer: int, save_folder: Path) -> None:
        super().__init__()
        self.game, self.viewer, self.save_folder = game, viewer, save_folder

    def compose(self) -> ComposeResult:
        state = self.game.view(self.viewer).state
        out = state.outcome
        assert out is not None, "the game over screen needs a finished game"
        title = Text(f"Game over after {state.turn_number} turns: {end_reason(state)}.", style="bold")
        keys = Text.from_markup(
            "[b]s[/b] save the replay · [b]n[/b] new game · [b]u[/b] undo back into the game · "
            "[b]v[/b] view the board · [b]q[/b] quit"
        )
        parts: list[RenderableType] = [title, Text(""), breakdown(state), Text(""), verdict(state)]
        parts += [Text(n, style="italic") for n in notes(state)]
        parts += [Text(""), keys, Text(""), Text("Where the VP came from", style="bold underline"), sources(state)]
        with VerticalScroll(id="over-box"):
            yield Static(Group(*parts), id="over-text")

    def action_choose(self, choice: GameOverChoice) -> None:
        self.dismiss(choice)

    def action_save_replay(self) -> None:
        name = default_name(self.game.view(self.viewer).state.turn_number, prefix="replay-")
        self.app.push_screen(SaveScreen(self.game, self.save_folder, name, title="Save the replay"), self._saved)

    def _saved(self, path: Path | None) -> None:
        if path is not None:
            self.notify(f"Replay saved to {path}", title="Saved")
