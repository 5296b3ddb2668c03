"""The Nightmarium screen (seed 003): every player's Creatures as small stacks, your hand grouped
by part and legion, the decision due with every option in words, the chain of abilities being
resolved, the log. Hot-seat hands are hidden: when the turn passes to another person at this
keyboard, the shared hand-off screen asks them to take the keyboard first (Enter; a digit does
not lift it).

Keys: ↑/↓ and Enter, or a digit, choose an option; the shell's keys (``nctui.ui.screens.shell``):
u undo, r redo, t the timeline, s save, o load, ? help, R the rules, q save and quit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import OptionList, Static

from nctui.ui.screens.options_game import OPTIONS_HELP, OptionsScreen, fitted
from nctui.ui.widgets.footer import KeyFooter
from nctui.ui.widgets.log import GameLog

from .. import words
from ..cards import LEGIONS, PARTS, card
from ..state import HIDDEN, NightmariumState

LEGION_LETTER = {"necronauts": "N", "insektoids": "I", "chimeridae": "C", "homunculi": "H"}
LEGION_STYLE = {
    "necronauts": "bold #6fa8ff",
    "insektoids": "bold #c89a5a",
    "chimeridae": "bold #6fd36f",
    "homunculi": "bold #ff6f6f",
}


def stack(cards: tuple[str, ...]) -> Text:
    """A Creature as letters bottom up (its legions), '.' for a part still missing, '*' complete."""
    text = Text()
    for c in cards:
        legion = card(c).legion
        text.append(LEGION_LETTER[legion], style=LEGION_STYLE[legion])
    text.append("." * (3 - len(cards)))
    text.append("*" if len(cards) == 3 else " ")
    return text


NOTES_HELP = (
    "[b]Creatures[/b]: each player's, one line each: its number (as the options name it), one letter "
    "per card bottom up for its legion ([b]N[/b] Necronauts, [b]I[/b] Insektoids, [b]C[/b] Chimeridae, "
    "[b]H[/b] Homunculi), [b].[/b] a part still missing, [b]*[/b] complete, then its abilities in the "
    "order they are performed (head, torso, legs); at 120x40 its cards by name too. [b]Your hand[/b]: "
    "grouped by the part each card may be. [b]Since your last turn[/b]: what the others did, a line "
    "a turn (the log has every step). The abilities: "
    + "; ".join(f"[b]{words.ABILITY_NAMES[a]}[/b] {words.ABILITY_WORDS[a]}" for a in words.ABILITY_NAMES if a != "none")
    + "."
)


class TabbedLog(GameLog, can_focus=True):
    """The log, which Tab reaches and the arrows and PgUp/PgDn then scroll."""


KEYS_HELP = (
    OPTIONS_HELP
    + """  [b]Tab[/b] [b]⇧Tab[/b]   the next / previous panel (Creatures, your hand, since your last turn, the
             decision, the log): ↑↓ PgUp PgDn Home End scroll it
"""
)


class NightmariumScreen(OptionsScreen):
    DEFAULT_CSS = """
    NightmariumScreen { layout: vertical; }
    NightmariumScreen #nm-status { height: 1; background: $boost; padding: 0 1; }
    NightmariumScreen #nm-body { height: 1fr; }
    NightmariumScreen #nm-left { width: 42; max-width: 55%; }
    NightmariumScreen.-wide #nm-left { width: 60; }
    NightmariumScreen #nm-players-box { height: auto; max-height: 70%; border: round $accent; padding: 0 1; }
    NightmariumScreen #nm-players { height: auto; }
    NightmariumScreen #nm-hand-box { height: 1fr; min-height: 5; border: round $accent; padding: 0 1; }
    NightmariumScreen #nm-hand { height: auto; }
    NightmariumScreen #nm-right { width: 1fr; }
    NightmariumScreen #nm-news-box { height: auto; max-height: 7; border: round $panel; padding: 0 1; }
    NightmariumScreen.-tall #nm-news-box { max-height: 12; }
    NightmariumScreen #nm-news { height: auto; }
    /* Tab reaches each panel (many players at 80x24 do not fit): the one with the keys is marked */
    NightmariumScreen .nm-panel:focus { border: heavy $accent; }
    NightmariumScreen #nm-chain { height: auto; max-height: 4; padding: 0 1; color: $warning; }
    NightmariumScreen #nm-options { height: 1fr; min-height: 4; border: round $accent; }
    NightmariumScreen.-tall #nm-options { height: auto; max-height: 50%; }
    NightmariumScreen #nm-abilities { display: none; height: auto; border: round $panel; padding: 0 1; }
    NightmariumScreen.-wide.-tall #nm-abilities { display: block; }
    NightmariumScreen #nm-log { height: 7; border: round $panel; padding: 0 1; }
    NightmariumScreen #nm-log:focus { border: heavy $accent; }
    NightmariumScreen.-tall #nm-log { height: 1fr; min-height: 7; }
    """
    OPTIONS_ID = "nm-options"
    SAVE_PREFIX = "nightmarium-"
    HELP_KEYS, HELP_NOTES = KEYS_HELP, NOTES_HELP

    def __init__(self, game: Any, *, seat: int | None = None) -> None:
        super().__init__(game, seat=seat)
        self._reader: int | None = None  # the hand-off's news: whose words they are
        self._news_made: tuple[object, ...] = ()
        self._news_lines: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(id="nm-status")
        with Horizontal(id="nm-body"):
            with Vertical(id="nm-left"):
                # each panel scrolls: Tab reaches it, ↑↓ PgUp PgDn scroll it (5 players at 80x24)
                with VerticalScroll(id="nm-players-box", classes="nm-panel"):
                    yield Static(id="nm-players")
                with VerticalScroll(id="nm-hand-box", classes="nm-panel"):
                    yield Static(id="nm-hand")
            with Vertical(id="nm-right"):
                with VerticalScroll(id="nm-news-box", classes="nm-panel"):
                    yield Static(id="nm-news")
                yield Static(id="nm-chain")
                yield OptionList(id="nm-options")
                yield Static(id="nm-abilities")
                yield TabbedLog(id="nm-log")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#nm-players-box").border_title = "Creatures"
        self.query_one("#nm-hand-box").border_title = "Your hand"
        self.query_one("#nm-news-box").border_title = "Since your last turn"
        self.query_one("#nm-options").border_title = "Decision"
        self.query_one("#nm-abilities").border_title = "Abilities"
        self.query_one("#nm-log").border_title = "Log"
        self.query_one("#nm-abilities", Static).update(self._abilities())
        self.size_classes()
        super().on_mount()

    def on_resize(self) -> None:
        if self.size_classes():
            self.call_after_refresh(self._redraw)

    def save_turn(self) -> int:
        return self._view().turns

    def handoff_words(self, seat: int, view: NightmariumState) -> tuple[str, str]:
        return "", f"Turn {view.turns + 1}"

    def decision_topic(self) -> tuple[str | None, str | None]:
        from .topics import decision_topic

        return decision_topic(self._view())

    def _view(self) -> NightmariumState:
        return cast(NightmariumState, self.view())

    # -- "you": the person at this screen ---------------------------------------------------------

    def _you(self) -> int | None:
        """The seat the screen's words call "you": the person looking (None: a spectator)."""
        return self.viewer if self.viewer >= 0 and self.viewer not in self.bots else None

    def _seat_words(self, seat: int) -> str:
        """'you', 'Player 2 (computer)', or who holds the seat online."""
        if seat == self._you():
            return "you"
        who = self.presence_words(seat) or ("computer" if self.game.is_computer(seat) else "")
        return f"{self.seat_label(seat).name}{f' ({who})' if who else ''}"

    def describe_events(self, events: Sequence[Any], view: Any) -> Sequence[Text | str]:
        you = self._reader if self._reader is not None else self._you()
        return [words.describe_event(e, you) for e in events]

    def _news_for(self, seat: int) -> list[str]:
        """The hand-off's news, in the words of the person it is for ("you" is them)."""
        self._reader = seat
        try:
            return super()._news_for(seat)
        finally:
            self._reader = None

    # -- the panels -------------------------------------------------------------------------------

    def draw_panels(self) -> None:
        view = self._view()
        self.query_one("#nm-status", Static).update(self._status(view))
        self.query_one("#nm-players", Static).update(self._players(view))
        self.query_one("#nm-hand", Static).update(self._hand(view))
        self.query_one("#nm-chain", Static).update(self._chain(view))
        news = self._news()
        self.query_one("#nm-news-box").display = bool(news)
        self.query_one("#nm-news", Static).update(Text("\n".join(news)))
        menu = self.query_one("#nm-options", OptionList)
        mine = self.mine()
        menu.border_title = (
            f"Herald: place {' or '.join(card(c).name for c in view.revealed)}"
            if view.revealed and mine
            else "Decision"
        )

    def _status(self, view: NightmariumState) -> Text:
        goal = f"first to {view.config.creatures} Creatures"
        if view.winner is not None:
            won = "You win" if view.winner == self._you() else f"{self._seat_words(view.winner)} wins"
            return Text(f"Nightmarium · {won} · u: undo · q: quit")
        seat = self.game.deciding_seat()
        if seat is None:
            doing = ""
        elif self.game.is_computer(seat):
            doing = f"{self._seat_words(seat)} is thinking…"
        elif view.pure is not None:
            doing = (
                f"{'you discard' if seat == self._you() else self._seat_words(seat) + ' discards'} for a pure Creature"
            )
        else:
            whose = "Your turn" if view.turn == self._you() else f"{self._seat_words(view.turn)}'s turn"
            doing = f"{whose}: {words.plural(view.actions_left, 'action')} left"
        return fitted(["Nightmarium", doing, goal, f"undo: {self.game.undo_policy}"], self.app.size.width - 2)

    def _players(self, view: NightmariumState) -> Text:
        wide = self.has_class("-wide")
        text = Text()
        for seat, p in enumerate(view.players):
            marker = ">" if seat == view.turn else " "
            done = sum(len(c.cards) == 3 for c in p.creatures)
            name = self._seat_words(seat)
            text.append(f"{marker}{name[:1].upper()}{name[1:]}", style="bold")
            text.append(f" {done}/{view.config.creatures} done · {words.plural(len(p.hand), 'card')}")
            text.append("\n" if p.creatures else " · no Creature\n")
            for c in p.creatures:  # numbered by id, as the options name them
                text.append(f"  {c.id + 1} ", style="dim")
                text.append_text(stack(c.cards))
                text.append(f" {words.abilities_words(c.cards)}\n")
                if wide:
                    text.append(f"      {', '.join(card(x).name for x in c.cards)}\n", style="dim")
        for legion in LEGIONS:
            text.append(f"{LEGION_LETTER[legion]} {words.LEGION_NAMES[legion]}  ", style=LEGION_STYLE[legion])
        text.append(". missing  * complete", style="dim")
        return text

    def _hand(self, view: NightmariumState) -> Text:
        """The hand grouped by the part each card may be, then by legion."""
        wide = self.has_class("-wide")
        hand = [c for c in view.players[self.viewer].hand if c != HIDDEN] if self.viewer >= 0 else []
        text = Text()
        for part in PARTS:
            group = sorted((c for c in hand if part in card(c).parts), key=lambda c: (card(c).legion, card(c).name))
            text.append(f"{part.capitalize()} ({len(group)})\n", style="bold")
            for c in group:
                info = card(c)
                text.append(f" {LEGION_LETTER[info.legion]} ", style=LEGION_STYLE[info.legion])
                extra = ""
                if info.ability != "none":
                    extra = f" · {words.ABILITY_NAMES[info.ability]}"
                    extra += f": {words.ABILITY_SHORT[info.ability]}" if wide else ""
                text.append(f"{info.name}{extra}\n")
        return text

    def _chain(self, view: NightmariumState) -> Text:
        if view.activation is None or not view.activation.abilities:
            return Text("")
        names = " → ".join(words.ABILITY_NAMES[a] for a in view.activation.abilities)
        now = view.activation.abilities[0]
        return Text(f"Abilities to perform: {names}\nNow: {words.ABILITY_NAMES[now]}, {words.ABILITY_WORDS[now]}")

    def _abilities(self) -> Text:
        """The six abilities in words (at 120x40 and up)."""
        text = Text()
        for ability, name in words.ABILITY_NAMES.items():
            if ability != "none":
                text.append(f"{name}: ", style="bold")
                text.append(f"{words.ABILITY_WORDS[ability]}\n")
        text.right_crop(1)
        return text

    def _news(self) -> list[str]:
        """What the others did between the viewer's last turn and this one, a line a turn (kept
        through the viewer's own turn); nothing before their first decision's turn came round."""
        you = self._you()
        if you is None:
            return []
        key = (self.game.state_id, self.game.revision, you)
        if key == self._news_made:
            return self._news_lines
        self._news_made = key

        def in_own_turn(state_id: int) -> bool:  # the viewer decided it in their own turn
            return self.game.seat_of(state_id) == you and self.game.view_at(state_id - 1, you).turn == you

        now = end = self.game.state_id
        while end > 0 and in_own_turn(end) and now - end < 40:  # the viewer's turn so far
            end -= 1
        start = end
        while start > 0 and not in_own_turn(start) and end - start < 200:  # the others' turns before it
            start -= 1
        update = self.game.events(start, you)
        states = self.game.event_states(start)
        theirs = tuple(e for e, at in zip(update.events, states, strict=False) if at <= end)
        turn = self.game.view_at(start, you).turn
        self._news_lines = words.turn_summary(theirs, you, turn) if not update.undone else []
        return self._news_lines
