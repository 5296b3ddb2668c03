"""The timeline: every decision of the game as a list, to jump back to any earlier point or
forward along the redo branch.

Each row is the point reached after one decision (its number, the seat that took it, a summary
as the viewer may read it); ▶ marks where the game stands, ↷ the decisions of the redo branch
(undone, but replayable while nothing else is decided). Enter jumps there through the
``GameClient``; when the undo policy refuses, the screen stays open and says why.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from nctui.platform import registry
from nctui.platform.game import SeatLabel
from nctui.platform.store import StoreError

from ..client import GameClient
from ..textual_ext.placed import Box, ComesUpOnce, MeasuredOptions, PlacedStatic
from ..widgets.common import label_style
from .kept import kept_screen, made_as_the_app_closed, prepare

# What each undo policy allows, said when it refuses (store.PracticePolicy / StrictPolicy).
POLICY_RULES = {
    "practice": "Practice mode: any decision can be undone.",
    "strict": (
        "This game uses strict undo: you may take back only your own decisions made since "
        "another seat last decided, and none that showed a hidden card or used a random draw."
    ),
}
REDO = Style(dim=True, italic=True)


def refusal_text(exc: StoreError, policy: str) -> str:
    """The store's refusal and, when a policy refused, the rule of that policy."""
    rule = POLICY_RULES.get(policy, "")
    text = str(exc)
    text = text[0].upper() + text[1:] if text else "Refused."
    return f"{text}. {rule}" if rule and policy != "practice" else text


def timeline_row(labels: tuple[SeatLabel, ...], state_id: int, seat: int, summary: str, now: int) -> Text:
    """One row: mark, number, the deciding seat's letter in its colour (``labels``: the game's
    ``seat_labels``), the summary."""
    mark = "▶" if state_id == now else ("↷" if state_id > now else " ")
    row = Text(no_wrap=True, overflow="ellipsis")
    row.append(f"{mark} {state_id:>3} ")
    if 0 <= seat < len(labels):
        row.append(f"{labels[seat].letter} ", label_style(labels[seat]))
    else:
        row.append("· ")
    row.append(summary)
    if state_id > now:
        row.append("  (redo)")
        row.stylize(REDO)
    elif state_id == now:
        row.stylize(Style(bold=True))
    return row


class TimelineList(MeasuredOptions, OptionList):
    """The decisions, measured by the layout that places them."""


class TimelineScreen(ComesUpOnce, ModalScreen[None]):
    """The game's decisions; arrows + Enter jump to one (back as the undo policy allows)."""

    DEFAULT_CSS = """
    TimelineScreen { align: center middle; }
    #timeline-box { width: 90; max-width: 100%; height: auto; max-height: 100%; background: $panel;
                    border: round $accent; padding: 0 1; }
    #timeline-title { height: 1; }
    #timeline-list { height: auto; max-height: 70vh; border: none; background: $panel;
                     scrollbar-gutter: stable; scrollbar-size-horizontal: 0; }
    #timeline-message { height: auto; color: $warning; }
    #timeline-hint { height: 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("escape", "close", "Close", id="timeline.close"),
        Binding("t", "close", "Close", show=False, id="timeline.close-t"),
        Binding("q", "close", "Close", show=False, id="timeline.close-q"),
    ]

    def __init__(self, game: GameClient, viewer: int) -> None:
        super().__init__()
        self.game, self.viewer = game, viewer
        self._filled: tuple[object, ...] | None = None  # what the list shows (_contents_key)
        self._rows: dict[tuple[int, int, str, int], Text] = {}  # the rows made last (``_options``)
        self._rows_for: tuple[object, ...] = ()  # the game, the viewer and the seat labels they were made for

    def _contents_key(self) -> tuple[object, ...]:
        game = self.game
        return (game, game.revision, self.viewer, game.undo_policy)

    def _title(self) -> Text:
        game = self.game
        now = game.state_id
        redo = game.last_id - now
        title = f"Timeline: decision {now} of {game.last_id}" + (f" · {redo} to redo (↷)" if redo else "")
        policy = f" · {game.undo_policy} undo" if game.undo_policy in POLICY_RULES else ""
        return Text.assemble((title, "bold"), policy)

    def _options(self) -> list[Option]:
        game = self.game
        labels = registry.game_of(game.config).seat_labels(game.view(self.viewer))
        now = game.state_id
        rows = self._rows if self._rows_for == (game, self.viewer, labels) else {}
        made: dict[tuple[int, int, str, int], Text] = {}
        options = []
        for i in game.timeline(self.viewer):
            # a row reads the same while its decision, its summary and its place before, at or
            # after the present do: kept, a long game's list is not made again (~0.06 ms a row)
            key = (i.state_id, i.seat, i.summary, (i.state_id > now) - (i.state_id < now))
            row = rows.get(key)
            if row is None:
                row = timeline_row(labels, i.state_id, i.seat, i.summary, now)
            made[key] = row
            options.append(Option(row, id=str(i.state_id)))
        self._rows, self._rows_for = made, (game, self.viewer, labels)
        return options

    def compose(self) -> ComposeResult:
        self._filled = self._contents_key()
        with Box(id="timeline-box"):
            yield PlacedStatic(self._title(), id="timeline-title")
            yield TimelineList(*self._options(), id="timeline-list")
            yield PlacedStatic("", id="timeline-message")
            yield PlacedStatic("↑↓ PgUp PgDn move · Enter: go there · Esc or t: close", id="timeline-hint")

    def on_mount(self) -> None:
        if not made_as_the_app_closed(self):
            self._place()

    def open_at(self, game: GameClient, viewer: int) -> None:
        """Open again (a kept screen, ``screens/kept.py``) as a new screen would: the decisions of
        ``game`` as ``viewer`` may read them (made again only if the game changed since), the one
        the game stands at highlighted, no message."""
        self.game, self.viewer = game, viewer
        if not self.is_mounted:
            return  # composed with them
        if self._filled != self._contents_key():
            self._filled = self._contents_key()
            self.query_one("#timeline-title", PlacedStatic).update(self._title())
            options = self.query_one(TimelineList)
            options.clear_options()
            options.add_options(self._options())
        self.query_one("#timeline-message", PlacedStatic).update("")
        self._place()

    def _place(self) -> None:
        options = self.query_one(TimelineList)
        options.highlighted = min(self.game.state_id, options.option_count - 1)
        self.set_focus(options)
        options.scroll_when_placed = True  # the decision now in view in the first frame

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        self.jump(int(message.option.id or 0))

    def jump(self, target: int) -> None:
        """Go to ``target``; close on success, else explain the refusal and stay."""
        game = self.game
        if target != game.state_id:
            try:
                game.undo_to(target, seat=self.viewer)
            except StoreError as exc:
                self.query_one("#timeline-message", PlacedStatic).update(Text(refusal_text(exc, game.undo_policy)))
                return
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()


def timeline_screen(app: App, game: GameClient, viewer: int) -> TimelineScreen:
    """The app's timeline (made once and kept: ``screens/kept.py``), showing ``game`` as
    ``viewer`` may read it. Made again at each opening, it took ~50 ms from the key to the
    frame at 120x40 on a pty, most of it making, styling and mounting its widgets."""
    screen = kept_screen(app, "timeline", lambda: TimelineScreen(game, viewer), TimelineScreen)
    screen.open_at(game, viewer)
    return screen


def prepare_timeline_screen(app: App, game: GameClient, viewer: int) -> None:
    """Make the timeline out of sight once, ahead of its first key (``kept.prepare``). Its list
    is not made again at each change while it is out of sight (a long game's list costs tens of
    ms, at every decision): the opening makes it again if the game changed since."""
    prepare(app, "timeline", lambda: TimelineScreen(game, viewer), TimelineScreen)
