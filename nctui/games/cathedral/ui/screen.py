"""The Cathedral screen (seed 004): the city with coordinates, the buildings left to place, a
cursor that moves and turns the chosen building with a preview of where it would land (allowed
or not, and why), property shaded by owner, the scores and the log.

Keys: ←↑↓→ or hjkl move the building, space turns it, Tab / shift+Tab (or a digit) choose
another building, Enter places it; the shell's keys (``nctui.ui.screens.shell``): u undo, r redo,
t the timeline, s save, o load, ? help, R the rules, q save and quit. Two people at one keyboard
pass it through the shared hand-off. A computer seat plays on the session's own thread; the
screen only draws what the session says.
"""

from __future__ import annotations

from typing import Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from nctui.ui.screens.options_game import CompanionScreen
from nctui.ui.screens.shell import SHELL_KEYS
from nctui.ui.widgets.footer import KeyFooter
from nctui.ui.widgets.log import GameLog

from .. import words
from ..facts import CathedralFacts
from ..pieces import CATHEDRAL, name_of, size_of
from ..state import CathedralState, Place
from .board import city_text

HELP_KEYS = """\
  [b]←[/b] [b]↑[/b] [b]↓[/b] [b]→[/b]    move the building (or [b]h[/b] [b]j[/b] [b]k[/b] [b]l[/b])
  [b]Space[/b]      turn it
  [b]Tab[/b] [b]⇧Tab[/b]   the next / previous building (or its number, [b]1[/b]–[b]9[/b])
  [b]Enter[/b]      place it (the preview says whether it may go there, and if not, why)
"""
HELP_NOTES = (
    "[b]The city[/b]: Light's buildings in upper case, Dark's in lower case, [b]++[/b] the Cathedral; "
    "property is shaded by its owner; [b]<>[/b] the building being placed where it may go, [b]XX[/b] "
    "where it may not."
)


class CathedralScreen(CompanionScreen):
    DEFAULT_CSS = """
    CathedralScreen { layout: vertical; }
    CathedralScreen #cat-status { height: 1; background: $boost; padding: 0 1; }
    CathedralScreen #cat-body { height: 13; }
    CathedralScreen #cat-city { width: 27; height: 13; border: round $accent; padding: 0 1; }
    CathedralScreen #cat-side { width: 1fr; height: 13; border: round $accent; padding: 0 1; }
    CathedralScreen #cat-log { height: 1fr; border: round $panel; padding: 0 1; }
    """
    BINDINGS = [
        Binding("left,h", "move(0,-1)", "Move", show=False, id="cathedral.left"),
        Binding("right,l", "move(0,1)", "Move", show=False, id="cathedral.right"),
        Binding("up,k", "move(-1,0)", "Move", show=False, id="cathedral.up"),
        Binding("down,j", "move(1,0)", "Move", show=False, id="cathedral.down"),
        Binding("space", "turn", "Turn", key_display="spc", id="cathedral.turn"),
        Binding("tab", "pick(1)", "Building", priority=True, id="cathedral.next"),
        Binding("shift+tab", "pick(-1)", "Previous building", show=False, priority=True, id="cathedral.previous"),
        Binding("enter", "place", "Place", id="cathedral.place"),
        *(
            Binding(str(d), f"pick_number({d})", f"Building {d}", show=False, id=f"cathedral.pick{d}")
            for d in range(1, 10)
        ),
        *SHELL_KEYS,
    ]
    SAVE_PREFIX = "cathedral-"
    HANDS_HIDDEN = False  # every building is in sight: people at one keyboard need no hand-off
    HELP_KEYS, HELP_NOTES = HELP_KEYS, HELP_NOTES

    def __init__(self, game: Any, *, seat: int | None = None) -> None:
        super().__init__(game, seat=seat)
        self.building = ""  # the building being placed (an id), "" before the first draw
        self.turn = 0
        self.row = 0
        self.col = 0

    def compose(self) -> ComposeResult:
        yield Static(id="cat-status")
        with Horizontal(id="cat-body"):
            yield Static(id="cat-city")
            with Vertical(id="cat-side"):
                yield Static(id="cat-side-text")
        yield GameLog(id="cat-log")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#cat-city").border_title = "City"
        self.query_one("#cat-side").border_title = "Buildings"
        self.query_one("#cat-log").border_title = "Log"
        self.row, self.col = 3, 3
        super().on_mount()

    def save_turn(self) -> int:
        return self._view().moves

    def handoff_words(self, seat: int, view: CathedralState) -> tuple[str, str]:
        series = f"Game {view.game + 1} of {view.config.games} · " if view.config.games > 1 else ""
        doing = "place the Cathedral" if view.phase == "cathedral" else "place a building"
        return doing, f"{series}move {view.moves + 1}"

    def decision_topic(self) -> tuple[str | None, str | None]:
        from .topics import decision_topic

        return decision_topic(self._view())

    # -- what is shown ---------------------------------------------------------------------------

    def _view(self) -> CathedralState:
        return cast(CathedralState, self.view())

    def _facts(self) -> CathedralFacts:
        return cast(CathedralFacts, self.game.facts(self.viewer))

    def _my_turn(self) -> bool:
        return self.mine()

    def _action(self) -> Place:
        return Place(self.building, self.turn, self.row, self.col)

    def _fit_choice(self, facts: CathedralFacts) -> None:
        """Keep the chosen building one that may be placed now, its turn and place inside the city."""
        choices = facts.buildings_to_place()
        if not choices:
            self.building = ""
            return
        if self.building not in choices:
            fitting = [b for b in choices if facts.fits(b)]
            self.building = (fitting or list(choices))[0]
            self.turn = 0
        shapes = facts.turns(self.building)
        self.turn %= len(shapes)
        cells = shapes[self.turn]
        self.row = max(0, min(self.row, 9 - max(r for r, _ in cells)))
        self.col = max(0, min(self.col, 9 - max(c for _, c in cells)))

    def draw(self) -> None:
        view, facts = self._view(), self._facts()
        mine = self._my_turn()
        if mine:
            self._fit_choice(facts)
        preview, problem = 0, None
        if mine and self.building:
            preview = facts.mask(self._action())
            problem = facts.problem(self._action())
        self.query_one("#cat-city", Static).update(city_text(view, preview, problem is None))
        self.query_one("#cat-status", Static).update(self._status(view))
        self.query_one("#cat-side-text", Static).update(self._side(view, facts, mine, problem))

    def _seat_words(self, view: CathedralState, colour: int) -> str:
        seat = self._facts().seat_of(colour)
        humans = [s for s, kind in enumerate(self.game.seat_kinds) if kind == "human"]
        mine = seat == self.seat if self.seat is not None else humans == [seat]
        # online: who holds the seat and whether they are there ("Bob, away 3 min")
        who = "you" if mine else self.presence_words(seat)
        who = who or ("computer" if self.game.is_computer(seat) else self.seat_label(seat).name)
        return f"{words.COLOURS[colour]} ({who})"

    def _status(self, view: CathedralState) -> Text:
        games = view.config.games
        series = f"game {view.game + 1} of {games} · " if games > 1 else ""
        if view.outcome is not None:
            return Text(f"Cathedral · {series}the series is over · u: undo · q: quit")
        seat = self.game.deciding_seat()
        mover = self._seat_words(view, view.to_move)
        if seat is None or seat in self.bots:
            doing = f"{mover} is thinking…"
        elif view.phase == "cathedral":
            doing = f"{mover}: place the Cathedral"
        else:
            doing = f"{mover}: place a building"
        return Text(f"Cathedral · {series}{doing} · undo: {self.game.undo_policy}")

    def _side(self, view: CathedralState, facts: CathedralFacts, mine: bool, problem: str | None) -> Text:
        text = Text()
        for colour in (0, 1):
            text.append(f"{self._seat_words(view, colour)}: {facts.unplaced(colour)} squares to place\n")
        if view.results:
            points = [sum(r.unplaced[s] for r in view.results) for s in (0, 1)]
            text.append(f"Series points: Player 1 {points[0]}, Player 2 {points[1]} (fewest wins)\n")
        if view.outcome is not None:
            w = view.outcome.winners
            text.append("The series is over: " + ("a draw." if len(w) != 1 else f"Player {w[0] + 1} wins.") + "\n")
            return text
        if not mine:
            return text
        choices = facts.buildings_to_place()
        line = Text()
        for i, b in enumerate(choices, 1):
            counted = view.supply[view.to_move].count(b) if b != CATHEDRAL else 1
            # no-break spaces: an entry never splits across lines
            label = f"{i}\u00a0{name_of(b)}\u00a0{size_of(b)}" + (f"x{counted}" if counted > 1 else "")
            style = "reverse" if b == self.building else ("" if facts.fits(b) else "dim strike")
            line.append(label, style=style)
            line.append("  ")
        text.append(line)
        text.append("\n")
        mask = facts.mask(self._action())
        where = words.where(mask) if mask else words.square(self.row, self.col)
        if problem is None:
            text.append(f"{name_of(self.building)} at {where}: allowed. Enter places it.", style="green")
        else:
            text.append(f"{name_of(self.building)} at {where}: not allowed. {problem}.", style="red")
        return text

    # -- keys -------------------------------------------------------------------------------------

    def action_move(self, drow: int, dcol: int) -> None:
        self.row += drow
        self.col += dcol
        self.draw()

    def action_turn(self) -> None:
        self.turn += 1
        self.draw()

    def action_pick(self, delta: int) -> None:
        choices = self._facts().buildings_to_place()
        if self.building in choices:
            self.building = choices[(choices.index(self.building) + delta) % len(choices)]
            self.turn = 0
        self.draw()

    def action_pick_number(self, number: int) -> None:
        choices = self._facts().buildings_to_place()
        if 1 <= number <= len(choices):
            self.building = choices[number - 1]
            self.turn = 0
        self.draw()

    def action_place(self) -> None:
        if not self.mine() or not self.building:
            self.notify("It is not your turn to place a building.", severity="warning")
            return
        problem = self._facts().problem(self._action())
        if problem is not None:
            self.refused(problem, self.game.state_id)
            return
        self.send(self._action(), self.game.state_id)
