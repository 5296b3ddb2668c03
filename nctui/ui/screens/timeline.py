"""The timeline: every decision of the game as a list, to jump back to any earlier point or
forward along the redo branch.

Each row is the point reached after one decision (its number, the seat that took it, a summary
as the viewer may read it); ▶ marks where the game stands, ↷ the decisions of the redo branch
(undone, but replayable while nothing else is decided). Enter jumps there through the
``GameClient``; when the undo policy refuses, the screen stays open and says why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.scroll_view import ScrollView
from textual.strip import Strip

from nctui.platform import registry
from nctui.platform.game import SeatLabel
from nctui.platform.store import StoreError, TimelineItem

from ..client import GameClient
from ..textual_ext.placed import Box, ComesUpOnce, MeasuredScroll, PlacedOnce, PlacedStatic
from ..widgets.common import label_style
from ..widgets.log import wrapped
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


Highlighted = Callable[["TimelineList", int], None]  # told of the row highlighted (the list, the row)
RowKey = tuple[int, int, str, int]  # a row's decision, seat, summary and place before (-1), at (0) or after (1) now


def row_key(item: TimelineItem, now: int) -> RowKey:
    """What a row reads (``timeline_row``): the same key, the same row."""
    return (item.state_id, item.seat, item.summary, (item.state_id > now) - (item.state_id < now))


class TimelineList(PlacedOnce, MeasuredScroll, ScrollView, can_focus=True):
    """The decisions, one line each, of which only the rows in sight are made and drawn: a long
    game's list (Textual's ``OptionList``) made, measured and laid out every row at each opening
    after a change (~25 ms for 800 decisions, at every decision's first opening). Up/Down,
    PgUp/PgDn, Home/End move the highlight, Enter or a click chooses (``Selected``). A row too
    long for the list ends in an ellipsis (the screen says the highlighted one in full)."""

    COMPONENT_CLASSES = {"timeline-list--highlight"}
    DEFAULT_CSS = """
    TimelineList { overflow-x: hidden; overflow-y: auto; }
    TimelineList > .timeline-list--highlight { background: $block-cursor-background;
        color: $block-cursor-foreground; text-style: $block-cursor-text-style; }
    TimelineList:blur > .timeline-list--highlight { background: $block-cursor-blurred-background;
        color: $block-cursor-blurred-foreground; text-style: $block-cursor-blurred-text-style; }
    """
    BINDINGS = [
        Binding("up", "move(-1)", "Previous", show=False, id="timeline.up"),
        Binding("down", "move(1)", "Next", show=False, id="timeline.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="timeline.pageup"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="timeline.pagedown"),
        Binding("home", "to(0)", "First", show=False, id="timeline.first"),
        Binding("end", "to(-1)", "Last", show=False, id="timeline.last"),
        Binding("enter", "select", "Go there", show=False, id="timeline.select"),
    ]

    highlighted: reactive[int] = reactive(0, always_update=True, init=False)

    class Selected(Message):
        """The row of decision ``state_id`` was chosen."""

        def __init__(self, state_id: int) -> None:
            self.state_id = state_id
            super().__init__()

    def __init__(
        self, *, id: str | None = None, on_highlight: Callable[[TimelineList, int], None] | None = None
    ) -> None:
        """``on_highlight``: called with the list and the row as the highlight moves."""
        super().__init__(id=id)
        self.on_highlight = on_highlight
        self.items: Sequence[TimelineItem] = ()
        self.now = 0
        self.labels: tuple[SeatLabel, ...] = ()
        self._rows: dict[RowKey, Text] = {}  # the rows made for the rows shown (kept while they read the same)
        self._strips: LRUCache[tuple[RowKey, bool, int, object], Strip] = LRUCache(256)

    @property
    def option_count(self) -> int:
        return len(self.items)

    def show(self, items: Sequence[TimelineItem], now: int, labels: tuple[SeatLabel, ...]) -> None:
        """The rows of ``items``, the game standing at ``now``; the seats as ``labels`` name them."""
        if labels != self.labels:
            self._rows.clear()
            self._strips.clear()
        self.items, self.now, self.labels = items, now, labels
        self.set_reactive(ScrollView.virtual_size, Size(self.virtual_size.width, len(items)))
        self._scroll_update(self.virtual_size)
        self.refresh(layout=True)

    def row(self, index: int) -> Text:
        """The row of ``items[index]`` (made once while it reads the same)."""
        item = self.items[index]
        key = row_key(item, self.now)
        made = self._rows.get(key)
        if made is None:
            if len(self._rows) > 1024:
                self._rows.clear()
            made = self._rows[key] = timeline_row(self.labels, item.state_id, item.seat, item.summary, self.now)
        return made

    def cut(self, index: int) -> bool:
        """Whether the row at ``index`` is too long for the list (drawn with an ellipsis)."""
        width = self.scrollable_content_region.width
        return 0 <= index < len(self.items) and width > 0 and cell_len(self.row(index).plain) > width

    # -- drawing ------------------------------------------------------------------------------

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.items)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return container.width

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if not 0 <= index < len(self.items) or width <= 0:
            return Strip.blank(width, base)
        lit = index == self.highlighted
        style = self.get_component_rich_style("timeline-list--highlight") if lit else base
        key = (row_key(self.items[index], self.now), lit, width, self.has_focus)
        strip = self._strips.get(key)
        if strip is None:
            line = wrapped(self.row(index), width, self.app.console)[0]
            strip = self._strips[key] = line.crop_extend(0, width, None).apply_style(style)
        return strip

    # -- the highlight ------------------------------------------------------------------------

    def validate_highlighted(self, index: int) -> int:
        return max(0, min(index, len(self.items) - 1))

    def watch_highlighted(self, index: int) -> None:
        self.refresh()
        self.scroll_to_highlight()
        if self.on_highlight is not None and self.items:
            self.on_highlight(self, index)

    def scroll_to_highlight(self) -> None:
        """The highlighted row in sight."""
        height = self.scrollable_content_region.height
        if height <= 0:
            return
        top = self.scroll_offset.y
        index = self.highlighted
        if index < top:
            self.scroll_to(y=index, animate=False, immediate=True)
        elif index >= top + height:
            self.scroll_to(y=index - height + 1, animate=False, immediate=True)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_move(self, delta: int) -> None:
        self.highlighted = self.highlighted + delta

    def action_page(self, direction: int) -> None:
        self.highlighted = self.highlighted + direction * max(1, self.scrollable_content_region.height - 1)

    def action_to(self, index: int) -> None:
        self.highlighted = index if index >= 0 else len(self.items) - 1

    def action_select(self) -> None:
        if self.items:
            self.post_message(self.Selected(self.items[self.highlighted].state_id))

    def on_click(self, event: events.Click) -> None:
        index = self.scroll_offset.y + event.y
        if 0 <= index < len(self.items):
            event.stop()
            self.highlighted = index
            self.action_select()

    def region_of(self, index: int) -> Region:
        """Where row ``index`` is in the list's content (for tests and tools)."""
        return Region(0, index, self.scrollable_content_region.width, 1)


class TimelineScreen(ComesUpOnce, ModalScreen[None]):
    """The game's decisions; arrows + Enter jump to one (back as the undo policy allows)."""

    DEFAULT_CSS = """
    TimelineScreen { align: center middle; }
    #timeline-box { width: 90; max-width: 100%; height: auto; max-height: 100%; background: $panel;
                    border: round $accent; padding: 0 1; }
    #timeline-title { height: 1; }
    #timeline-list { height: auto; max-height: 70vh; border: none; background: $panel;
                     scrollbar-gutter: stable; scrollbar-size-horizontal: 0; }
    #timeline-whole { height: auto; color: $text-muted; }
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

    def _fill(self, rows: TimelineList) -> None:
        """The list shows the game's decisions now (the rows made as they come in sight)."""
        game = self.game
        labels = registry.game_of(game.config).seat_labels(game.view(self.viewer))
        rows.show(game.timeline(self.viewer), game.state_id, labels)

    def compose(self) -> ComposeResult:
        self._filled = self._contents_key()
        rows = TimelineList(id="timeline-list", on_highlight=self._highlighted)
        self._fill(rows)
        with Box(id="timeline-box"):
            yield PlacedStatic(self._title(), id="timeline-title")
            yield rows
            whole = PlacedStatic("", id="timeline-whole")
            whole.display = False
            yield whole
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
            self._fill(self.query_one(TimelineList))
        self.query_one("#timeline-message", PlacedStatic).update("")
        self._place()

    def _place(self) -> None:
        rows = self.query_one(TimelineList)
        rows.highlighted = min(self.game.state_id, rows.option_count - 1)
        self.set_focus(rows)
        rows.scroll_when_placed = True  # the decision now in view in the first frame

    def on_timeline_list_selected(self, message: TimelineList.Selected) -> None:
        message.stop()
        self.jump(message.state_id)

    def _highlighted(self, rows: TimelineList, index: int) -> None:
        """The highlighted row in full under the list when the list cuts it."""
        whole = self.query_one("#timeline-whole", PlacedStatic)
        text = rows.row(index) if rows.cut(index) else ""
        if text or whole.display:
            whole.update(text)
            whole.display = bool(text)

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
