"""A new game of Cathedral: who the opponent is (a person at this keyboard or a computer player
of a level), which side you take first, and how many games the series has (rule 8)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from ...companions.cathedral.state import CathedralConfig

if TYPE_CHECKING:
    from ..app import NctuiApp

OPPONENTS = (("strong", "the computer, strong"), ("greedy", "the computer, greedy"),
             ("random", "the computer, random"), ("person", "another person at this keyboard"))
SIDES = (("light", "Light: you place the Cathedral, Dark moves first"), ("dark", "Dark: you move first"))
SERIES = (1, 2, 4, 6)
ROWS = ("opponent", "side", "series", "start")


def config_for(opponent: str, side: str, games: int, seed: int) -> CathedralConfig:
    """Seat 0 has Light in the first game; with a computer opponent, the person takes ``side``."""
    if opponent == "person":
        return CathedralConfig(seats=("human", "human"), games=games, seed=seed)
    level = cast("Any", opponent)
    if side == "light":
        return CathedralConfig(seats=("human", "bot"), levels=("strong", level), games=games, seed=seed)
    return CathedralConfig(seats=("bot", "human"), levels=(level, "strong"), games=games, seed=seed)


class CathedralNewScreen(Screen[None]):
    DEFAULT_CSS = """
    CathedralNewScreen { align: center middle; }
    CathedralNewScreen #cat-new { width: 70; max-width: 100%; height: auto; border: round $accent; padding: 0 1; }
    """
    BINDINGS = [
        Binding("up,k", "row(-1)", "Up", show=False),
        Binding("down,j", "row(1)", "Down", show=False),
        Binding("left,h", "change(-1)", "Change", show=False),
        Binding("right,l,space", "change(1)", "Change", show=False),
        Binding("enter", "enter", "Start"),
        Binding("s", "start", "Start", show=False),
        Binding("escape,b", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.choice = {"opponent": 0, "side": 0, "series": 0}
        self.row = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="cat-new"):
            yield Static(id="cat-new-text")

    def on_mount(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        text = Text("Cathedral — a new game\n\n", style="bold")
        values = {
            "opponent": ("Opponent", OPPONENTS[self.choice["opponent"]][1]),
            "side": ("You play", SIDES[self.choice["side"]][1] if self._against_computer() else "—"),
            "series": ("Games", f"{SERIES[self.choice['series']]} (the sides swap each game; "
                                "fewest squares left wins)"),
            "start": ("", "Start the game"),
        }
        for i, row in enumerate(ROWS):
            label, value = values[row]
            marker = "> " if i == self.row else "  "
            text.append(marker + (f"{label:<9} < {value} >" if label else value) + "\n",
                        style="reverse" if i == self.row else "")
        text.append("\n↑↓ move · ←→ change · Enter starts · Esc back", style="dim")
        self.query_one("#cat-new-text", Static).update(text)

    def _against_computer(self) -> bool:
        return OPPONENTS[self.choice["opponent"]][0] != "person"

    def action_row(self, delta: int) -> None:
        self.row = (self.row + delta) % len(ROWS)
        self._redraw()

    def action_change(self, delta: int) -> None:
        row = ROWS[self.row]
        sizes = {"opponent": len(OPPONENTS), "side": len(SIDES), "series": len(SERIES)}
        if row in sizes:
            self.choice[row] = (self.choice[row] + delta) % sizes[row]
        self._redraw()

    def action_enter(self) -> None:
        if ROWS[self.row] == "start":
            self.action_start()
        else:
            self.action_change(1)

    def action_start(self) -> None:
        config = config_for(OPPONENTS[self.choice["opponent"]][0], SIDES[self.choice["side"]][0],
                            SERIES[self.choice["series"]], random.randrange(2**32))
        cast("NctuiApp", self.app).start_companion(config)

    def action_back(self) -> None:
        self.app.pop_screen()
