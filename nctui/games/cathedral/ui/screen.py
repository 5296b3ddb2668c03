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

from collections.abc import Sequence
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
from ..pieces import CATHEDRAL, name_of
from ..state import CathedralState, Place
from .board import city_text

HELP_KEYS = """\
  [b]←[/b] [b]↑[/b] [b]↓[/b] [b]→[/b]    move the building (or [b]h[/b] [b]j[/b] [b]k[/b] [b]l[/b])
  [b]Space[/b]      turn it
  [b]Tab[/b] [b]⇧Tab[/b]   the next / previous building (or its number, [b]1[/b]–[b]9[/b])
  [b]Enter[/b]      place it (the preview says whether it may go there, and if not, why)
"""
HELP_NOTES = (
    "[b]The city[/b]: each building as two letters, Light's in upper case ([b]Ab[/b]), Dark's in lower "
    "case ([b]ab[/b]), [b]++[/b] the Cathedral; the last building placed is underlined. [b]--[/b] is "
    "Light's property, [b]~~[/b] Dark's (squares a side enclosed: closed to the other). The building "
    "being placed shows as [b]<>[/b] where it may go, [b]XX[/b] (red) where it may not; over a "
    "building, that building's letters in red. [b]Buildings[/b]: 'Inn 3sq, 2 left' is the Inn, which "
    f"covers 3 squares, two of them still to place. The letters: {words.codes_help()}."
)


class CathedralScreen(CompanionScreen):
    DEFAULT_CSS = """
    CathedralScreen { layout: vertical; }
    CathedralScreen #cat-status { height: 1; background: $boost; padding: 0 1; }
    CathedralScreen #cat-body { height: auto; }
    CathedralScreen #cat-city { width: 27; height: 13; border: round $accent; padding: 0 1; }
    CathedralScreen #cat-side { width: 1fr; height: auto; min-height: 13; border: round $accent; padding: 0 1; }
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
        self._decision = -1  # the state id of the decision the preview was last placed for

    def compose(self) -> ComposeResult:
        yield Static(id="cat-status")
        with Horizontal(id="cat-body"):
            yield Static(id="cat-city")
            with Vertical(id="cat-side"):
                yield Static(id="cat-side-text")
        yield GameLog(id="cat-log")
        yield KeyFooter()

    def on_resize(self) -> None:
        self.call_after_refresh(self._redraw)  # the buildings' lines are laid out for the width

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

    def _to_allowed(self, facts: CathedralFacts) -> None:
        """Where the preview is not allowed (on the building just placed), to the nearest place
        it is, so the city shows what was placed and where the chosen building may go."""
        if not self.building or facts.problem(self._action()) is None:
            return
        nearest = facts.nearest(self._action())
        if nearest is not None:
            self.turn, self.row, self.col = nearest.turn, nearest.row, nearest.col

    def draw(self) -> None:
        view, facts = self._view(), self._facts()
        mine = self._my_turn()
        if mine:
            self._fit_choice(facts)
            if self._decision != self.game.state_id:  # a new decision: the preview starts where it may go
                self._decision = self.game.state_id
                self._to_allowed(facts)
        preview, problem = 0, None
        if mine and self.building:
            preview = facts.mask(self._action())
            problem = facts.problem(self._action())
        self.query_one("#cat-city", Static).update(city_text(view, preview, problem is None))
        self.query_one("#cat-status", Static).update(self._status(view))
        self.query_one("#cat-side-text", Static).update(self._side(view, facts, mine, problem))

    def _seat_words(self, view: CathedralState, colour: int) -> str:
        """'Light (you)', 'Dark (computer)', 'Dark (Player 2)'."""
        who = self._who(self._facts().seat_of(colour))
        return f"{words.COLOURS[colour]} ({who.removeprefix('the ')})"

    def _status(self, view: CathedralState) -> Text:
        games = view.config.games
        series = f"game {view.game + 1} of {games} · " if games > 1 else ""
        if view.outcome is not None:
            w = view.outcome.winners
            result = "a draw" if len(w) != 1 else f"{self._who(w[0])} won"
            over = "the series is over" if games > 1 else "the game is over"
            return Text(f"Cathedral · {over}: {result} · u: undo · q: quit")
        seat = self.game.deciding_seat()
        mover = self._seat_words(view, view.to_move)
        if seat is None or seat in self.bots:
            doing = f"{mover} is thinking…"
        elif view.phase == "cathedral":
            doing = f"{mover}: place the Cathedral"
        else:
            doing = f"{mover}: place a building"
        return Text(f"Cathedral · {series}{doing} · undo: {self.game.undo_policy}")

    def describe_events(self, events: Sequence[Any], view: Any) -> Sequence[Text | str]:
        """The log names the sides Light and Dark, and who plays each as the rest of the screen
        does ('you', 'the computer', 'Player 2')."""
        return [words.describe_event(e, view.config.games, self._who) for e in events]

    def _who(self, seat: int) -> str:
        """A seat in words: 'you', 'the computer', or its name (two people at the keyboard)."""
        humans = [s for s, kind in enumerate(self.game.seat_kinds) if kind == "human"]
        if seat == self.seat if self.seat is not None else humans == [seat]:
            return "you"
        return self.presence_words(seat) or (
            "the computer" if self.game.is_computer(seat) else self.seat_label(seat).name
        )

    def _side(self, view: CathedralState, facts: CathedralFacts, mine: bool, problem: str | None) -> Text:
        text = Text()
        if view.outcome is not None:
            return self._result(view, text)
        for colour in (0, 1):
            text.append(f"{self._seat_words(view, colour)}: {facts.unplaced(colour)} squares to place\n")
        if view.results:
            points = [sum(r.unplaced[s] for r in view.results) for s in (0, 1)]
            text.append(f"Series points: {self._who(0)} {points[0]}, {self._who(1)} {points[1]} (fewest wins)\n")
        if mine:
            text.append_text(self._choices(view, facts, problem))
        for line in words.LEGEND:
            text.append("\n" + line, style="dim")
        return text

    def _choices(self, view: CathedralState, facts: CathedralFacts, problem: str | None) -> Text:
        """The buildings to place (a digit or Tab chooses one) and where the chosen one would go."""
        text = Text()
        width = self.query_one("#cat-side-text").content_size.width or 49
        used = 0
        for i, b in enumerate(facts.buildings_to_place(), 1):
            counted = view.supply[view.to_move].count(b) if b != CATHEDRAL else 1
            label = f"{i} {words.building_label(b, counted)}"
            if used and used + 2 + len(label) > width:  # an entry never splits across lines
                text.append("\n")
                used = 0
            elif used:
                text.append("  ")
                used += 2
            style = "reverse" if b == self.building else ("" if facts.fits(b) else "dim strike")
            text.append(label, style=style)
            used += len(label)
        text.append("\n")
        mask = facts.mask(self._action())
        where = words.where(mask) if mask else words.square(self.row, self.col)
        turned = f", {words.TURNS[self.turn]}" if self.turn else ""
        if problem is None:
            text.append(f"{name_of(self.building)} at {where}{turned}: allowed (Enter places it).", style="green")
        else:
            text.append(f"{name_of(self.building)} at {where}{turned}: not allowed. {problem}.", style="red")
        return text

    def _result(self, view: CathedralState, text: Text) -> Text:
        """The end: each game's result (who had which side, the squares left) and the series'."""
        assert view.outcome is not None
        for number, result in enumerate(view.results):
            text.append(words.game_result(number, result, self._who) + "\n")
        text.append(words.series_result(view.outcome, view.config.games, self._who), style="bold")
        return text

    # -- keys -------------------------------------------------------------------------------------

    def action_move(self, drow: int, dcol: int) -> None:
        self.row += drow
        self.col += dcol
        self.draw()

    def action_turn(self) -> None:
        """A quarter turn about the building's middle square: it turns in place."""
        if self.building:
            facts = self._facts()
            count = len(facts.turns(self.building))
            before = facts.pivot(self.building, self.turn % count)
            after = facts.pivot(self.building, (self.turn + 1) % count)
            self.row += before[0] - after[0]
            self.col += before[1] - after[1]
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
