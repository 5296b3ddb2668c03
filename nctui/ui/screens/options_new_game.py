"""A companion game's New game screen: rows of settings, each changed with ←/→, and Start. Each
game gives its rows and how its configuration is made from them (its ``ui/new_game.py``); the
app starts the game (``NctuiApp.start_game``). In the "room" mode (``ui.client.NewGameMode``: a
server's lobby) Start hands the configuration back instead of starting the game here."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import msgspec
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from ..client import NewGameMode

if TYPE_CHECKING:
    from ..app import NctuiApp

Setting = tuple[str, str, Sequence[tuple[Any, str]]]  # (id, label, choices as (value, words))
Build = Callable[[dict[str, Any], int], Any]  # the values chosen and a seed -> a configuration


class CompanionNewScreen(Screen[Any]):
    DEFAULT_CSS = """
    CompanionNewScreen { align: center middle; }
    CompanionNewScreen #new-box { width: 72; max-width: 100%; height: auto; border: round $accent; padding: 0 1; }
    """
    BINDINGS = [
        Binding("up,k", "row(-1)", "Up", show=False),
        Binding("down,j", "row(1)", "Down", show=False),
        Binding("left,h", "change(-1)", "Change", show=False),
        Binding("right,l,space", "change(1)", "Change", show=False),
        Binding("enter", "start", "Start"),  # from any row, as the screen says (←/→ change a setting)
        Binding("s", "start", "Start", show=False),
        Binding("escape,b", "back", "Back"),
    ]

    def __init__(
        self,
        title: str,
        settings: Sequence[Setting],
        build: Build,
        config: Any = None,
        *,
        seed: int | None = None,
        practice: bool = False,
        mode: NewGameMode = "play",
    ) -> None:
        """Settings start as ``config``'s (the game just played) when some settings make it, with
        a new seed unless ``seed`` is given; ``practice``: undo anything. ``mode`` "room": Start
        dismisses the screen with the configuration (None: Escape)."""
        super().__init__()
        self.title_words = title
        self.settings = tuple(settings)
        self.build = build
        self.mode = mode
        self.seed = seed
        self.practice = practice
        self.choice = self._choices_for(config)
        self.row = 0

    def _choices_for(self, config: Any) -> dict[str, int]:
        """The settings that make ``config`` (its seed aside); the first of each when none do."""
        ids = [sid for sid, _, _ in self.settings]
        if config is not None:
            wanted = msgspec.structs.replace(config, seed=0)
            for picked in itertools.product(*(range(len(choices)) for _, _, choices in self.settings)):
                values = {sid: choices[i][0] for (sid, _, choices), i in zip(self.settings, picked)}
                try:
                    if self.build(values, 0) == wanted:
                        return dict(zip(ids, picked))
                except ValueError:
                    continue
        return dict.fromkeys(ids, 0)

    def compose(self) -> ComposeResult:
        with Vertical(id="new-box"):
            yield Static(id="new-text")

    def on_mount(self) -> None:
        self._redraw()

    def values(self) -> dict[str, Any]:
        return {sid: choices[self.choice[sid]][0] for sid, _, choices in self.settings}

    def _redraw(self) -> None:
        room = self.mode == "room"
        text = Text(f"{self.title_words} — {'a new room' if room else 'a new game'}\n\n", style="bold")
        for i, (sid, label, choices) in enumerate(self.settings):
            line = f"{label:<12} < {choices[self.choice[sid]][1]} >"
            text.append(("> " if i == self.row else "  ") + line + "\n", style="reverse" if i == self.row else "")
        start = self.row == len(self.settings)
        start_words = "Create the room" if room else "Start the game"
        text.append(("> " if start else "  ") + start_words + "\n", style="reverse" if start else "")
        text.append("\n↑↓ move · ←→ change · Enter starts · Esc back", style="dim")
        self.query_one("#new-text", Static).update(text)

    def action_row(self, delta: int) -> None:
        self.row = (self.row + delta) % (len(self.settings) + 1)
        self._redraw()

    def action_change(self, delta: int) -> None:
        if self.row < len(self.settings):
            sid, _, choices = self.settings[self.row]
            self.choice[sid] = (self.choice[sid] + delta) % len(choices)
        self._redraw()

    def action_start(self) -> None:
        seed = self.seed if self.seed is not None else random.randrange(2**32)
        try:
            config = self.build(self.values(), seed)
            if self.mode != "room":
                cast("NctuiApp", self.app).start_game(config, undo="practice" if self.practice else None)
        except ValueError as exc:
            self.notify(str(exc), title="Cannot start", severity="warning")
            return
        if self.mode == "room":
            self.dismiss(config)

    def action_back(self) -> None:
        if self.mode == "room":
            self.dismiss(None)
        else:
            self.app.pop_screen()


def new_game_screens(title: str, settings: Sequence[Setting], build: Build) -> Callable[..., CompanionNewScreen]:
    """A game's ``new_game_screen`` (its registry entry's ``new_game``): its New game screen, with
    the settings of ``config`` (the game just played), a given ``seed``, ``practice`` undo, or in
    ``mode`` "room", which hands the configuration back to a server's lobby."""

    def new_game_screen(
        config: Any = None, *, seed: int | None = None, practice: bool = False, mode: NewGameMode = "play"
    ) -> CompanionNewScreen:
        return CompanionNewScreen(title, settings, build, config, seed=seed, practice=practice, mode=mode)

    return new_game_screen
