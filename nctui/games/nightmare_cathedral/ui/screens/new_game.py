"""The New game screen: every setting of a game before it starts, from the keyboard.

Hot-seat for 2-4 (each seat a person or the computer) or solo against the King of Horrors;
the Standard or the Variable Length Game; Divergent Paths; the Nightmares (at random, a
suggested pair by name, or two numbers); the solo difficulty (a preset or each modifier); the
seed, shown and editable so a game can be replayed. The screen only gathers settings: a
GameConfig is checked with ``engine.config.check_config`` as the player changes it, and
``app.start_game`` builds the game (the engine's refusal comes back as a message, and nothing
typed is lost). In the "room" mode (``ui.client.NewGameMode``: a server's lobby) the screen is
dismissed with the configuration instead; there the server draws the seed and its undo policy is
strict, so neither is asked.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Static

from nctui.platform import registry
from nctui.platform.session import UndoMode
from nctui.ui.client import NewGameMode
from nctui.ui.textual_ext.placed import ComesUpOnce
from nctui.ui.widgets.common import SEAT_COLOURS
from nctui.ui.widgets.decision import HINT
from nctui.ui.widgets.footer import KeyFooter

from ...describe import SEAT_LETTERS
from ...describe.settings import setting_help
from ...engine.config import (
    COLOURS,
    DEFAULT_LEVEL,
    DIFFICULTY_OPTIONS,
    DIFFICULTY_PRESETS,
    SUGGESTED_PAIRS,
    GameConfig,
    SeatKind,
    check_config,
    difficulty_level,
    nightmare_pair,
)

if TYPE_CHECKING:
    from nctui.ui.app import NctuiApp

SEED_LIMIT = 10**9  # random seeds stay short enough to note down; any 64-bit seed can be typed
LABEL_WIDTH = 18
MAX_SEATS = 4
# What the New game screen says of each computer level it offers (the registry entry's levels,
# weakest first; the screen offers the planner and what is stronger).
LEVEL_WORDS = {
    "random": "Random",
    "greedy": "Greedy",
    "planner": "Planner (quick)",
    "expert": "Expert (thinks up to 2 s a move)",
}


def offered_levels() -> tuple[str, ...]:
    """The computer levels a person may put on a seat: the registry entry's, from the planner up."""
    levels = registry.entry("nightmare-cathedral").levels
    return levels[levels.index(DEFAULT_LEVEL) :]


# DIFFICULTY MODIFIERS of the solo rulebook, in plain words.
MODIFIER_WORDS: dict[str, str] = {
    "harder_climb": "When a Cathedral piece is built, the King climbs 2 Ritual steps instead of 1.",
    "harder_powered_1": "The King starts with 1 Action card powered up (a Development card tucked under it).",
    "harder_powered_2": "The King starts with 2 Action cards powered up.",
    "harder_devoured": "When the Devoured board comes into play, the King adds 3 of its Followers to it at once.",
    "harder_dream_discount": "The King adds a Cultist to each new Dream worth 3+ VP it takes (1 cheaper to complete).",
    "harder_hand_scoring": "Final scoring: the King scores 1 VP per combat card left in its hand "
    "(not its 2 starting ones).",
    "easier_conform": "When the King Conforms, it adds no Cultist to the matching action.",
    "easier_desirable": "The King finds a conflict desirable only if it draws at least 1 more card than you.",
    "easier_ritual": "Perform Ritual: the King advances at most 2 or 4 steps, not 3 or 5.",
    "easier_nightmare": "When the King commands a Nightmare, its text is resolved once fewer (at least once).",
}
EXCLUSIVE = {"harder_powered_1": "harder_powered_2", "harder_powered_2": "harder_powered_1"}
OFF_ON = (("off", "Off"), ("on", "On"))


def random_seed() -> int:
    return random.randrange(1, SEED_LIMIT)


class Choice(Widget, can_focus=True):
    """One setting: a label and one value among a few. ←/→ (h/l) step through the values,
    Enter or space (or a click) moves to the next. ``check=True`` draws an on/off setting as a
    check box followed by its label. Posts ``Choice.Changed`` only when the player changes it."""

    DEFAULT_CSS = """
    Choice { height: auto; padding: 0 1; }
    Choice:focus { background: $accent 30%; }
    """
    BINDINGS = [
        Binding("right,l,enter,space", "step(1)", "Change", key_display="←→", id="choice.next"),
        Binding("left,h", "step(-1)", "Change back", show=False, id="choice.back"),
    ]

    index: reactive[int] = reactive(0)

    class Changed(Message):
        def __init__(self, choice: Choice) -> None:
            self.choice = choice
            super().__init__()

        @property
        def control(self) -> Choice:
            return self.choice

    def __init__(
        self,
        label: str | Text,
        options: Sequence[tuple[str, str]],
        *,
        value: str | None = None,
        check: bool = False,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.label = label
        self.options = tuple(options)
        self.check = check
        self.set_reactive(Choice.index, self._index_of(value) if value is not None else 0)

    @property
    def value(self) -> str:
        return self.options[self.index][0]

    @value.setter
    def value(self, key: str) -> None:  # set by the screen: no Changed message
        self.index = self._index_of(key)

    def _index_of(self, key: str) -> int:
        return next(i for i, (k, _) in enumerate(self.options) if k == key)

    def action_step(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.options)
        self.post_message(self.Changed(self))

    def on_click(self, event: events.Click) -> None:
        self.focus()
        self.action_step(1)

    def render(self) -> Table:
        grid = Table.grid(padding=(0, 1))
        mark = Text("›" if self.has_focus else " ", style="bold")
        words = self.options[self.index][1]
        if self.check:
            grid.add_column(width=1)
            grid.add_column(width=3)
            grid.add_column(ratio=1)
            grid.add_row(mark, Text("[x]" if self.value == "on" else "[ ]", style="bold"), self.label)
        else:
            grid.add_column(width=1)
            grid.add_column(width=LABEL_WIDTH)
            grid.add_column(ratio=1)
            value = Text.assemble(("◀ ", HINT), (words, "bold"), (" ▶", HINT))
            grid.add_row(mark, self.label, value)
        return grid

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class NewGameScreen(ComesUpOnce, Screen[Any]):
    """Every setting of a new game; ``s`` (or the Start button) starts it (mode "room": hands
    back its configuration, as the screen's result; None when left with Escape)."""

    DEFAULT_CSS = """
    NewGameScreen #new-title { background: $panel; color: $text; padding: 0 1; text-style: bold; width: 100%; }
    NewGameScreen #new-form { height: 1fr; overflow-y: auto; scrollbar-size-vertical: 1; }
    NewGameScreen .section { color: $text-muted; padding: 0 1; margin-top: 1; }
    NewGameScreen .field { height: auto; padding: 0 1; }
    NewGameScreen .field Label { width: 21; padding: 0 0 0 2; }
    NewGameScreen .field Input { width: 22; margin-right: 2; }
    NewGameScreen .field .note { width: 1fr; color: $text-muted; }
    NewGameScreen #start { margin: 1 0 0 3; }
    NewGameScreen #setting-help { padding: 0 1; height: auto; max-height: 2; color: $text-muted; }
    NewGameScreen #problems { padding: 0 1; height: auto; max-height: 3; background: $boost; }
    NewGameScreen #problems.-bad { color: $error; text-style: bold; }
    """
    BINDINGS = [
        Binding("s,ctrl+s", "start", "Start", key_display="s", id="new.start"),
        Binding("down", "app.focus_next", "Next setting", show=False, id="new.next-field"),
        Binding("up", "app.focus_previous", "Previous setting", show=False, id="new.previous-field"),
        Binding("escape,b", "back", "Back", key_display="b", id="new.back"),
    ]
    AUTO_FOCUS = "#mode"
    # (heading, the Game setting's choices, the Start button) of each mode
    WORDS: dict[NewGameMode, tuple[str, tuple[tuple[str, str], ...], str]] = {
        "play": (
            "New game",
            (("hotseat", "Hot-seat at one keyboard"), ("solo", "Solo against the King")),
            "Start the game",
        ),
        "room": (
            "New room on this server: Nightmare Cathedral",
            (("hotseat", "2-4 players, each at their own terminal"), ("solo", "Solo against the King")),
            "Create the room",
        ),
    }

    def __init__(
        self,
        config: GameConfig | None = None,
        *,
        seed: int | None = None,
        practice: bool = False,
        mode: NewGameMode = "play",
    ) -> None:
        """Settings start as ``config``'s (e.g. the game that just ended), with a new seed unless
        ``seed`` is given; ``practice``: unlimited undo even when people share the game."""
        super().__init__()
        self.initial = config or GameConfig()
        self.seed = seed if seed is not None else random_seed()
        self.practice = practice
        self.mode = mode
        self.heading, self.modes, self.start_words = self.WORDS[mode]

    # -- the form -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(self.heading, id="new-title")
        with Vertical(id="new-form"):  # scrolls, but without VerticalScroll's bindings on the arrows
            yield from self._who_plays(self.initial)
            yield from self._game_options(self.initial)
            yield from self._difficulty(self.initial)
            with Horizontal(classes="field", id="seed-field"):
                yield Label("Seed")
                yield Input(str(self.seed), restrict=r"[0-9]*", max_length=20, compact=True, id="seed")
                yield Static("same seed & settings, same game", classes="note")
            yield Button(self.start_words, id="start", variant="primary", compact=True)
        yield Static(id="setting-help")
        yield Static(id="problems")
        yield KeyFooter()

    def _who_plays(self, c: GameConfig) -> ComposeResult:
        solo = c.players == 1
        yield Choice("Game", self.modes, value="solo" if solo else "hotseat", id="mode")
        yield Choice(
            "Players",
            [(str(n), str(n)) for n in range(2, MAX_SEATS + 1)],
            value=str(2 if solo else c.players),
            id="players",
        )
        for seat in range(MAX_SEATS):
            kind = c.seats[seat] if not solo and seat < len(c.seats) else "human"
            yield Choice(
                _seat_label(seat),
                (("human", "Human"), ("bot", "Computer")),
                value="bot" if kind == "bot" else "human",
                id=f"seat-{seat}",
            )
        chosen = next((c.level(s) for s, kind in enumerate(c.seats) if kind == "bot"), DEFAULT_LEVEL)
        yield Choice(
            "Computer level",
            tuple((level, LEVEL_WORDS.get(level, level)) for level in offered_levels()),
            value=chosen if chosen in offered_levels() else DEFAULT_LEVEL,
            id="level",
        )

    def _game_options(self, c: GameConfig) -> ComposeResult:
        yield Choice(
            "Length", (("standard", "Standard Game"), ("variable", "Variable Length Game")), value=c.length, id="length"
        )
        yield Choice("Divergent Paths", OFF_ON, value="on" if c.divergent_paths else "off", id="divergent")
        pair_name = next((name for name, pair in SUGGESTED_PAIRS.items() if pair == tuple(c.nightmares)), None)
        nightmares = "random" if not c.nightmares else pair_name or "choose"
        yield Choice(
            "Nightmares",
            (
                ("random", "2 at random"),
                *((name, f"{name} ({a} & {b})") for name, (a, b) in SUGGESTED_PAIRS.items()),
                ("choose", "Choose two numbers"),
            ),
            value=nightmares,
            id="nightmares",
        )
        with Horizontal(classes="field", id="numbers-field"):
            yield Label("Nightmare numbers")
            yield Input(
                ",".join(map(str, c.nightmares)) if nightmares == "choose" else "",
                placeholder="e.g. 3,7",
                restrict=r"[0-9, ]*",
                max_length=9,
                compact=True,
                id="numbers",
            )
            yield Static("two numbers, 1 to 8", classes="note")
        yield Choice(
            "Undo",
            (("rules", "Strict with 2+ people"), ("practice", "Practice: undo anything")),
            value="practice" if self.practice else "rules",
            id="undo",
        )

    def _difficulty(self, c: GameConfig) -> ComposeResult:
        yield Choice(
            "Difficulty",
            (("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard"), ("custom", "Custom")),
            value=difficulty_level(c.difficulty),
            id="difficulty",
        )
        yield Static(
            "Solo difficulty modifiers (Enter or space switches one on or off):",
            classes="section",
            id="modifiers-title",
        )
        for option in DIFFICULTY_OPTIONS:
            side = "Harder" if option.startswith("harder") else "Easier"
            yield Choice(
                Text.assemble((f"{side}: ", "bold"), MODIFIER_WORDS[option]),
                OFF_ON,
                check=True,
                value="on" if option in c.difficulty else "off",
                id=f"mod-{option}",
            )

    def on_mount(self) -> None:
        self._show_fields()
        self._check()

    def _choice(self, name: str) -> Choice:
        return self.query_one(f"#{name}", Choice)

    def _show_fields(self) -> None:
        """Only the settings that apply: seats in hot-seat, the difficulty in solo, the numbers
        when choosing Nightmares. Hidden settings keep their values."""
        solo = self._choice("mode").value == "solo"
        players = int(self._choice("players").value)
        self._choice("players").display = not solo
        for seat in range(MAX_SEATS):
            self._choice(f"seat-{seat}").display = not solo and seat < players
        self._choice("level").display = not solo and any(
            self._choice(f"seat-{s}").value == "bot" for s in range(players)
        )
        self.query_one("#numbers-field").display = self._choice("nightmares").value == "choose"
        self._choice("difficulty").display = solo
        room = self.mode == "room"  # a room's seed is the server's, and its undo is strict
        self._choice("undo").display = not solo and not room  # solo: undo anything, always
        self.query_one("#seed-field").display = not room
        self.query_one("#modifiers-title").display = solo
        for option in DIFFICULTY_OPTIONS:
            self._choice(f"mod-{option}").display = solo

    # -- changes --------------------------------------------------------------------------------

    def on_choice_changed(self, message: Choice.Changed) -> None:
        message.stop()
        name = message.choice.id or ""
        if name == "difficulty" and message.choice.value != "custom":
            chosen = DIFFICULTY_PRESETS[message.choice.value]
            for option in DIFFICULTY_OPTIONS:
                self._choice(f"mod-{option}").value = "on" if option in chosen else "off"
        elif name.startswith("mod-"):
            option = name.removeprefix("mod-")
            if message.choice.value == "on" and option in EXCLUSIVE:  # 1 or 2 powered-up actions, not both
                self._choice(f"mod-{EXCLUSIVE[option]}").value = "off"
            self._choice("difficulty").value = difficulty_level(self._modifiers())
        self._show_fields()
        self._check()
        self._show_help()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._show_help()

    def _show_help(self) -> None:
        """The line of help of the setting with the focus (``describe.settings``)."""
        focused = self.focused
        name = (focused.id or "") if focused is not None else ""
        value = focused.value if isinstance(focused, Choice) else ""
        self.query_one("#setting-help", Static).update(setting_help(name, value))

    def on_input_changed(self, message: Input.Changed) -> None:
        message.stop()
        self._check()

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        self.focus_next()

    def on_button_pressed(self, message: Button.Pressed) -> None:
        message.stop()
        self.action_start()

    def _modifiers(self) -> tuple[str, ...]:
        return tuple(o for o in DIFFICULTY_OPTIONS if self._choice(f"mod-{o}").value == "on")

    # -- the configuration ----------------------------------------------------------------------

    def settings(self) -> tuple[GameConfig, list[str]]:
        """The configuration on screen and its problems in words (none: it can start)."""
        problems: list[str] = []
        solo = self._choice("mode").value == "solo"
        players = 1 if solo else int(self._choice("players").value)
        seats: tuple[SeatKind, ...] = (
            ("human", "king")
            if solo
            else tuple("bot" if self._choice(f"seat-{s}").value == "bot" else "human" for s in range(players))
        )
        level = self._choice("level").value
        levels = tuple(level if kind == "bot" else "" for kind in seats) if "bot" in seats else ()
        nightmares: tuple[int, ...] = ()
        pick = self._choice("nightmares").value
        if pick == "choose":
            try:
                nightmares = nightmare_pair(self.query_one("#numbers", Input).value)
            except ValueError:
                nightmares = ()
            if len(nightmares) != 2:
                problems.append("Nightmares: type two different numbers from 1 to 8, e.g. 3,7")
        elif pick != "random":
            nightmares = SUGGESTED_PAIRS[pick]
        seed_text = self.query_one("#seed", Input).value
        if not seed_text:
            problems.append("Seed: type a whole number (any number; the same seed replays the same game)")
        config = GameConfig(
            players=players,
            seats=seats,
            length="variable" if self._choice("length").value == "variable" else "standard",
            divergent_paths=self._choice("divergent").value == "on",
            nightmares=nightmares,
            difficulty=self._modifiers() if solo else (),
            pack=self.initial.pack,
            seed=int(seed_text or 0),
            levels=levels if level != DEFAULT_LEVEL else (),
        )
        return config, problems + check_config(config)

    def _check(self) -> bool:
        config, problems = self.settings()
        line = self.query_one("#problems", Static)
        line.set_class(bool(problems), "-bad")
        if problems:
            line.update(Text("✗ " + "\n✗ ".join(problems)))
        else:
            line.update(
                Text(
                    f"Ready: {_summary(config, seed=self.mode != 'room')}. s starts (ctrl+s while typing).", style=HINT
                )
            )
        return not problems

    def action_start(self) -> None:
        if not self._check():
            self.notify(
                "Some settings need fixing first: see the line above the keys.", title="Cannot start", severity="error"
            )
            return
        config, _ = self.settings()
        undo: UndoMode | None = "practice" if self._choice("undo").value == "practice" else None
        try:
            self.start(config, undo)
        except ValueError as exc:  # refused by the engine's setup (e.g. a mode still to come)
            line = self.query_one("#problems", Static)
            line.add_class("-bad")
            line.update(Text(f"✗ {exc}"))
            self.notify(str(exc), title="Cannot start", severity="error", timeout=8)

    def start(self, config: GameConfig, undo: UndoMode | None) -> None:
        """Start the game the settings describe (``ValueError``: refused, in words); mode "room":
        hand the configuration back."""
        if self.mode == "room":
            self.dismiss(config)
        else:
            cast("NctuiApp", self.app).start_game(config, undo=undo)

    def action_back(self) -> None:
        self.dismiss(None)


def new_game_screen(
    config: GameConfig | None = None, *, seed: int | None = None, practice: bool = False, mode: NewGameMode = "play"
) -> NewGameScreen:
    """The New game screen (the registry entry's ``new_game``): ``mode`` "room" hands the
    configuration back to a server's lobby."""
    return NewGameScreen(config, seed=seed, practice=practice, mode=mode)


def _seat_label(seat: int) -> Text:
    colour = COLOURS[seat]
    return Text.assemble(
        f"Seat {seat + 1} ",
        (
            f"{SEAT_LETTERS.get(colour, colour[0].upper())} {colour.capitalize()}",
            Style(color=SEAT_COLOURS.get(colour), bold=True),
        ),
    )


def describe_config(config: GameConfig) -> str:
    """Who plays and how, in a few words: '3 players (1 computer), Variable Length'; solo: the
    difficulty preset, or 'custom'."""
    if config.players == 1:
        who = f"solo against the King ({difficulty_level(config.difficulty)} difficulty)"
    else:
        bots = config.seats.count("bot")
        who = f"{config.players} players" + (f" ({bots} computer)" if bots else "")
    extras = [
        w
        for w, on in (("Variable Length", config.length == "variable"), ("Divergent Paths", config.divergent_paths))
        if on
    ]
    return ", ".join([who, *extras])


def _summary(config: GameConfig, *, seed: bool = True) -> str:
    """The settings in a few words (the status line of the form)."""
    pair = " & ".join(map(str, config.nightmares)) if config.nightmares else "at random"
    return f"{describe_config(config)}, Nightmares {pair}" + (f", seed {config.seed}" if seed else "")
