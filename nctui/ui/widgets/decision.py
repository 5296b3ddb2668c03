"""The decision that is due: a title line and the options as a numbered list.

The options are shown a page at a time (at most 9, fewer when the panel is short: an option
takes one row, two where its text is longer than the panel is wide); the digits
pick on the current page, up/down move the highlight across pages, left/right turn pages,
Enter (or a click) picks the highlighted option. Choosing posts ``DecisionPanel.Chosen``; the
screen decides what that means. The panel holds only what it is given and its highlight.
"""

from bisect import bisect_right
from collections.abc import Sequence
from typing import NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ..textual_ext.placed import DrawnByLine, PlacedOnce

MAX_PAGE = 9
MIN_OPTIONS = 4  # the options a context line may not push off the first page
CONTEXT = Style(color="#9a9aaa", italic=True)
HINT = Style(color="#9a9aaa")
HIGHLIGHT = Style(reverse=True, bold=True)
DIGIT = Style(bold=True, color="#ffd75f")


class Prompt(NamedTuple):
    """What the panel shows. ``key`` identifies the decision (the state id): a new key resets
    the highlight. ``options``: the choosable lines; ``notes``: lines shown below them;
    ``context``: lines under the title (what is being resolved, its cost, what the player has),
    shown as far as they leave room for the options."""

    key: int
    title: Text
    options: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    context: tuple[str, ...] = ()
    # The option each line stands for (``stable_slots``), -1 for one no longer offered that keeps
    # its place so that the others keep their numbers; () when line k is option k.
    slots: tuple[int, ...] = ()

    def option_at(self, line: int) -> int:
        """The option a line of the list stands for (-1: none, no longer offered)."""
        if not self.slots:
            return line if 0 <= line < len(self.options) else -1
        return self.slots[line] if 0 <= line < len(self.slots) else -1

    def line_of(self, option: int) -> int:
        """The line of the list an option is on (-1 when it is not offered)."""
        if not self.slots:
            return option if 0 <= option < len(self.options) else -1
        return self.slots.index(option) if option in self.slots else -1


GONE = "— no longer offered"


def stable_slots(before: Sequence[str], labels: Sequence[str]) -> tuple[int, ...]:
    """The lines of a list of options that follows ``before`` (the lines shown for the same
    decision a moment ago, ``GONE`` for a place kept): an option still offered keeps its line, one
    no longer offered leaves its line as a place kept (at the end: dropped), a new one comes after
    the rest. Each line holds an option's index, -1 for a place kept; () when nothing is kept
    (every line is then its option's)."""
    free: dict[str, list[int]] = {}
    for i, label in enumerate(labels):
        free.setdefault(label, []).append(i)
    slots = [free[label].pop(0) if free.get(label) else -1 for label in before]
    if not any(i >= 0 for i in slots):
        return ()
    placed = {i for i in slots if i >= 0}
    slots += [i for i in range(len(labels)) if i not in placed]
    while slots and slots[-1] < 0:
        slots.pop()
    return () if slots == list(range(len(labels))) else tuple(slots)


class DecisionPanel(DrawnByLine, PlacedOnce, Widget, can_focus=True):
    """The numbered options of the due decision."""

    BINDINGS = [
        *(Binding(str(d), f"pick({d})", f"Option {d}", show=False, id=f"decision.pick-{d}") for d in range(1, 10)),
        Binding("enter", "choose", "Choose", id="decision.choose"),
        Binding("up", "move(-1)", "Previous option", show=False, id="decision.up"),
        Binding("down", "move(1)", "Next option", show=False, id="decision.down"),
        Binding("left", "page(-1)", "Previous page", show=False, id="decision.page-back"),
        Binding("right", "page(1)", "Next page", show=False, id="decision.page-on"),
        Binding("home", "jump(0)", "First option", show=False, id="decision.first"),
        Binding("end", "jump(-1)", "Last option", show=False, id="decision.last"),
    ]

    DEFAULT_CSS = """
    DecisionPanel { height: 1fr; width: 1fr; }
    """

    prompt: reactive[Prompt | None] = reactive(None)  # a fixed height: no layout
    highlight: reactive[int] = reactive(0)

    class Chosen(Message):
        """The player chose option ``index`` of the decision ``key``."""

        def __init__(self, key: int, index: int) -> None:
            self.key, self.index = key, index
            super().__init__()

    def watch_prompt(self, old: Prompt | None, new: Prompt | None) -> None:
        if new is None or old is None or old.key != new.key or self.highlight >= len(new.options):
            self.highlight = next((k for k in range(len(new.options)) if new.option_at(k) >= 0), 0) if new else 0

    def highlighted_option(self) -> int:
        """The option under the highlight (-1: none)."""
        return self.prompt.option_at(self.highlight) if self.prompt is not None else -1

    def highlight_option(self, option: int) -> None:
        """Put the highlight on an option (by its index among the decision's options)."""
        line = self.prompt.line_of(option) if self.prompt is not None else -1
        if line >= 0:
            self.highlight = line

    def _choose_line(self, line: int) -> None:
        """Choose the option on a line (a place kept for one no longer offered: nothing)."""
        if self.prompt is None or not 0 <= line < len(self.prompt.options):
            return
        self.highlight = line
        option = self.prompt.option_at(line)
        if option < 0:
            self.app.bell()
            return
        self.post_message(self.Chosen(self.prompt.key, option))

    # -- paging ---------------------------------------------------------------------------------

    _measured: tuple[object, object, list[Text], tuple[int, ...], tuple[int, ...]] | None = None

    def _measure(self) -> tuple[list[Text], tuple[int, ...], tuple[int, ...]]:
        """The title lines, the rows of each option and the first line of each page, for this
        prompt at this size: asked for many times per drawing (every page figure needs them),
        wrapped once. (prompt, size, title lines, rows, page starts) are kept."""
        known = self._measured
        if known is None or known[0] is not self.prompt or known[1] != self.size:
            rows = self._rows_of_options()
            title = self._wrap_title(rows)
            self._measured = known = (self.prompt, self.size, title, rows, self._paginate(rows, title))
        return known[2], known[3], known[4]

    def _title_lines(self) -> list[Text]:
        return self._measure()[0]

    def rows_of(self, line: int) -> int:
        """The rows line ``line`` of the list takes: 1, or 2 where its text is too long for one
        row (the rest of a longer one cut)."""
        rows = self._measure()[1]
        return rows[line] if 0 <= line < len(rows) else 1

    def _wrap_title(self, rows: tuple[int, ...]) -> list[Text]:
        """The title, then the context lines that leave room for the options (all of them, or
        at least ``MIN_OPTIONS``): options come first on a short panel."""
        if self.prompt is None:
            return []
        width = max(self.size.width, 10)
        lines = list(self.prompt.title.wrap(self.app.console, width, overflow="fold"))
        want = sum(rows[:MIN_OPTIONS]) if self.size.height else 0
        for line in self.prompt.context:
            wrapped = list(Text(line, style=CONTEXT).wrap(self.app.console, width, overflow="fold"))
            if self.size.height and self.size.height - len(lines) - len(wrapped) < max(want, 1):
                break
            lines.extend(wrapped)
        return lines

    def _rows_of_options(self) -> tuple[int, ...]:
        """Each line's rows: one where its text fits beside its digit, else two."""
        if self.prompt is None:
            return ()
        if not self.size.width:
            return (1,) * len(self.prompt.options)
        width = max(self.size.width, 10)
        return tuple(2 if Text(label).cell_len + 3 > width else 1 for label in self.prompt.options)

    def _paginate(self, rows: tuple[int, ...], title: list[Text]) -> tuple[int, ...]:
        """The first line of each page: at most 9 options a page, as many as fit under the title
        (one row kept for the page line when there are pages); one page when all fit."""
        n = len(rows)
        if not n:
            return (0,)
        room = max(self.size.height - len(title), 1) if self.size.height else 2 * MAX_PAGE
        if n <= MAX_PAGE and sum(rows) <= room:
            return (0,)
        room = max(room - 1, 1)
        starts: list[int] = []
        line = 0
        while line < n:
            starts.append(line)
            used = count = 0
            while line < n and count < MAX_PAGE and (count == 0 or used + rows[line] <= room):
                used, count, line = used + rows[line], count + 1, line + 1
        return tuple(starts)

    def _starts(self) -> tuple[int, ...]:
        return self._measure()[2]

    def page_of(self, line: int) -> int:
        """The page a line of the list is on (from 0)."""
        return max(bisect_right(self._starts(), line) - 1, 0)

    def page(self) -> int:
        """The page shown: the highlight's."""
        return self.page_of(self.highlight)

    def pages(self) -> int:
        return len(self._starts())

    def page_start(self, page: int | None = None) -> int:
        """The line of the list that digit 1 picks on ``page`` (by default the page shown)."""
        starts = self._starts()
        return starts[min(self.page() if page is None else page, len(starts) - 1)]

    def page_size(self, page: int | None = None) -> int:
        """The options on ``page`` (by default the page shown)."""
        page = self.page() if page is None else page
        starts = self._starts()
        n = len(self.prompt.options) if self.prompt else 0
        end = starts[page + 1] if page + 1 < len(starts) else n
        return max(end - starts[min(page, len(starts) - 1)], 1)

    # -- actions --------------------------------------------------------------------------------

    def action_pick(self, digit: int) -> None:
        if self.prompt is None:
            return
        if not 1 <= digit <= self.page_size():
            return
        self._choose_line(self.page_start() + digit - 1)

    def action_choose(self) -> None:
        self._choose_line(self.highlight)

    def action_move(self, delta: int) -> None:
        if self.prompt is not None and self.prompt.options:
            self.highlight = (self.highlight + delta) % len(self.prompt.options)

    def action_page(self, delta: int) -> None:
        if self.prompt is None or not self.prompt.options:
            return
        page = min(max(self.page() + delta, 0), self.pages() - 1)
        self.highlight = min(self.page_start(page), len(self.prompt.options) - 1)

    def action_jump(self, index: int) -> None:
        if self.prompt is not None and self.prompt.options:
            self.highlight = index % len(self.prompt.options)

    def on_click(self, event: events.Click) -> None:
        if self.prompt is None:
            return
        row = event.y - len(self._title_lines())
        first = self.page_start()
        for line in range(first, first + self.page_size()):
            if 0 <= row < self.rows_of(line):
                self._choose_line(line)
                return
            row -= self.rows_of(line)

    # -- drawing --------------------------------------------------------------------------------

    def render(self) -> Text:
        if self.prompt is None:
            return Text("")
        out = Text(end="")
        for line in self._title_lines():
            out.append_text(line)
            out.append("\n")
        options = self.prompt.options
        first = self.page_start()
        width = max(self.size.width, 10)
        for k, label in enumerate(options[first : first + self.page_size()]):
            index = first + k
            per = self.rows_of(index)
            head = Text(end="")
            gone = self.prompt.option_at(index) < 0
            digit = HINT if gone else DIGIT
            head.append(f" {k + 1} ", digit if index != self.highlight else HIGHLIGHT)  # a span: not the line's style
            wrapped = list(Text(label, end="").wrap(self.app.console, width - 3, overflow="fold")) if per > 1 else []
            if per == 1 or not wrapped:
                rows = [head + Text(label, HINT if gone else "", end="")]
            else:  # the option's lines under its digit, the last one cut if it is longer still
                if len(wrapped) > per:
                    wrapped[per - 1].truncate(width - 4)
                    wrapped[per - 1].append("…")
                rows = [(head if i == 0 else Text("   ", end="")) + line for i, line in enumerate(wrapped[:per])]
            rows += [Text("", end="") for _ in range(per - len(rows))]  # the rows counted for it (a click's)
            for line in rows:
                line.no_wrap, line.overflow = True, "ellipsis"
                line.truncate(width, overflow="ellipsis")
                if index == self.highlight:
                    line.stylize(HIGHLIGHT)
                    line.pad_right(width - line.cell_len)
                    line.stylize(HIGHLIGHT)
                out.append_text(line)
                out.append("\n")
        if self.pages() > 1:
            page = f" ←/→ page {self.page() + 1} of {self.pages()} · ↑/↓ all {len(options)} options\n"
            out.append(page, HINT)
        kept = sum(1 for k in range(len(options)) if self.prompt.option_at(k) < 0)
        if kept:
            out.append(f" {kept} no longer offered: the other options keep their numbers\n", HINT)
        for note in self.prompt.notes:
            out.append(note + "\n")
        out.rstrip()
        return out
