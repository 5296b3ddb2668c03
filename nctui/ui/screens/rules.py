"""The Rules screen: a browsable, searchable summary of a game's rules (the file its registry
entry's ``rules`` names, read by ``nctui.ui.rules``): the same screen for every game.

A contents list (on top at 80 columns, on the left from 100) and the text of the section it
highlights. ``/`` searches: the list keeps the sections holding every word, the words are
highlighted, ``n``/``N`` walk through the matches of all those sections. Opened with a topic (a
section id, e.g. from ``topics.topic_for_decision``) it starts there; ``note`` is a line shown
above that section (the decision due, or why the engine refused an action).
"""

from __future__ import annotations

from typing import NamedTuple

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from ..rules import Section, Summary, blocks, get_summary, matches, search_words
from ..textual_ext.placed import Box, ComesUpOnce, DrawnByLine, MeasuredOptions, PlacedOnce, PlacedStatic, ReadingPane
from ..widgets.footer import KeyFooter
from .kept import kept_screen, made_as_the_app_closed, prepare, redraw

MATCH = Style(color="black", bgcolor="yellow")
CURRENT = Style(color="black", bgcolor="bright_cyan", bold=True, underline=True)  # underlined: not by colour alone
NCTUI = "In nctui:"
BULLET = {"- ": "• "}


class Piece(NamedTuple):
    """A run of text laid out as one block: ``first``/``rest`` prefix its first and other lines."""

    text: Text
    first: str = ""
    rest: str = ""
    wrap: bool = True


class Layout(NamedTuple):
    lines: list[Text]
    match_lines: list[int]  # the line of each match, in reading order


def pieces(section: Section, summary: Summary, note: str | None = None, *, keywords: bool = False) -> list[Piece]:
    """A section as pieces of text, before wrapping: note, title, sources, (while searching)
    keywords, blocks, see also."""
    out: list[Piece] = []
    if note:
        out += [Piece(Text(note, style="bold"), "▶ ", "  "), Piece(Text())]
    out.append(Piece(Text(section.title.upper(), style="bold underline")))
    out.append(Piece(Text(summary.source(section), style="dim")))
    if keywords and section.keywords:
        out.append(Piece(Text(f"Keywords: {', '.join(section.keywords)}", style="dim")))
    previous = None
    for block in blocks(section):
        grouped = previous is not None and previous == block.kind and block.kind in ("item", "pre")
        if not grouped and previous != "heading":
            out.append(Piece(Text()))
        out.append(_piece(block.kind, block.text, block.marker))
        previous = block.kind
    titles = [s.title for s in (summary.get(i) for i in section.see_also) if s is not None]
    if titles:
        out += [Piece(Text()), Piece(Text(f"See also: {', '.join(titles)}", style="dim"))]
    return out


def _piece(kind: str, text: str, marker: str) -> Piece:
    if kind == "heading":
        return Piece(Text(text, style="bold"))
    if kind == "pre":
        return Piece(Text(text), "  ", "  ", wrap=False)
    body = Text(text)
    if text.startswith(NCTUI):
        body.stylize("bold italic", 0, len(NCTUI))
    if kind == "item":
        shown = BULLET.get(marker, marker)
        return Piece(body, shown, " " * len(shown))
    return Piece(body)


def find_matches(parts: list[Piece], words: tuple[str, ...]) -> list[tuple[int, int, int]]:
    """(piece, start, end) of every occurrence of a word, in reading order."""
    found = []
    for i, piece in enumerate(parts):
        plain = piece.text.plain.lower()
        for word in words:
            start = plain.find(word)
            while start >= 0:
                found.append((i, start, start + len(word)))
                start = plain.find(word, start + 1)
    return sorted(set(found))


def lay_out(
    parts: list[Piece], width: int, console: Console, words: tuple[str, ...] = (), current: int | None = None
) -> Layout:
    """Wrap the pieces to ``width`` with the matches highlighted (``current`` stands out)."""
    found = find_matches(parts, words)
    texts = [p.text.copy() for p in parts]
    for k, (i, start, end) in enumerate(found):
        texts[i].stylize(CURRENT if k == current else MATCH, start, end)
    lines: list[Text] = []
    match_lines: list[int] = []
    for i, (piece, text) in enumerate(zip(parts, texts)):
        first, rest = (piece.first, piece.rest) if width - len(piece.first) >= 12 else ("", "")
        wrapped, starts = _wrap(text, max(1, width - len(first)), console, piece.wrap)
        top = len(lines)
        for j, line in enumerate(wrapped):
            lines.append(Text(first if j == 0 else rest, style=text.style) + line)
        for _, start, _ in (m for m in found if m[0] == i):
            match_lines.append(top + max(j for j, s in enumerate(starts) if s <= start))
    return Layout(lines, match_lines)


def _wrap(text: Text, width: int, console: Console, wrap: bool) -> tuple[list[Text], list[int]]:
    """The lines of ``text`` and the offset where each starts in it (folded when not wrapped)."""
    if not text.plain:
        return [Text()], [0]
    if not wrap:
        starts = list(range(0, len(text.plain), width))
        return [text[s : s + width] for s in starts], starts
    lines = list(text.wrap(console, width))
    starts, at = [], 0
    for line in lines:  # wrapping may drop spaces at line ends: find each line from the last
        found = text.plain.find(line.plain, at) if line.plain else at
        starts.append(max(found, at))
        at = starts[-1] + len(line.plain)
    return lines, starts


class RulesText(DrawnByLine, PlacedOnce, Widget):
    """The text of one section, wrapped to the width, with the search's matches highlighted;
    Textual draws the lines in sight (``DrawnByLine``), not the whole section."""

    DEFAULT_CSS = """
    RulesText { height: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.parts: list[Piece] = []
        self.words: tuple[str, ...] = ()
        self.current: int | None = None
        self._cache: tuple[tuple, Layout] | None = None

    def show(self, parts: list[Piece], words: tuple[str, ...], current: int | None) -> None:
        self.parts, self.words, self.current = parts, words, current
        self._cache = None
        self.refresh(layout=True)

    def layout_for(self, width: int) -> Layout:
        key = (width, id(self.parts), self.words, self.current)
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, lay_out(self.parts, width, self.app.console, self.words, self.current))
        return self._cache[1]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.layout_for(width).lines)

    def render(self) -> Text:
        return Text("\n", no_wrap=True).join(self.layout_for(self.size.width).lines)


class ContentsList(MeasuredOptions, OptionList):
    """The sections' titles; j/k move like the arrows. Measured by the layout that places it."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="rules.contents-down"),
        Binding("k", "cursor_up", "Up", show=False, id="rules.contents-up"),
    ]


class RulesScreen(ComesUpOnce, Screen[None]):
    """A browsable, searchable summary of a game's rules (``ref``: its registry entry's
    ``rules``), opened at ``topic`` (a section id) if given."""

    AUTO_FOCUS = "#rules-contents"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]
    BINDINGS = [
        Binding("q", "close", "Close", id="rules.close"),
        Binding("escape", "escape", "Close", show=False, id="rules.close-escape"),
        Binding("slash", "search", "Search", key_display="/", id="rules.search"),
        Binding("n", "next_match", "Next match", id="rules.next-match"),
        Binding("N", "next_match(-1)", "Previous match", key_display="N", id="rules.previous-match"),
        Binding("right,l", "focus_text", "Read", show=False, id="rules.read"),
        Binding("left,h", "focus_contents", "Contents", show=False, id="rules.contents"),
        # the text scrolls by pages whatever has the focus (the list would eat PgUp/PgDn)
        Binding("pageup", "page(-1)", "Page up", show=False, priority=True, id="rules.page-up"),
        Binding("pagedown", "page(1)", "Page down", show=False, priority=True, id="rules.page-down"),
    ]
    DEFAULT_CSS = """
    RulesScreen { layout: vertical; }
    #rules-header { background: $panel; padding: 0 1; height: 1; }
    #rules-main { height: 1fr; }
    #rules-side { height: auto; }
    #rules-search { margin: 0; background: $boost; }
    #rules-contents { height: 6; border: none; padding: 0; scrollbar-size-vertical: 1; scrollbar-gutter: stable; }
    #rules-body { height: 1fr; padding: 0 1; scrollbar-size-vertical: 1; scrollbar-gutter: stable; }
    #rules-body:focus { background-tint: $foreground 3%; }
    RulesScreen.-narrow #rules-contents { border-bottom: solid $panel-lighten-2; height: 7; }
    RulesScreen.-narrow.-tall #rules-contents { height: 11; }
    RulesScreen.-wide #rules-main { layout: horizontal; }
    RulesScreen.-wide #rules-side { width: 32; height: 100%; border-right: solid $panel-lighten-2; }
    RulesScreen.-wide #rules-contents { height: 1fr; }
    """

    def __init__(self, ref: str, topic: str | None = None, *, note: str | None = None) -> None:
        super().__init__()
        self.ref = ref
        self.summary = get_summary(ref)
        self.topic = topic if topic is not None and self.summary.get(topic) is not None else None
        self.note = note if self.topic is not None else None
        self.words: tuple[str, ...] = ()
        self.shown = self.topic or self.summary.sections[0].id
        self.current: int | None = None  # index of the current match in the shown section
        self._filling = False
        self._showing: tuple[object, ...] | None = None  # what the text shows (_show)

    def open_at(self, topic: str | None = None, *, note: str | None = None) -> None:
        """Open again (a kept screen, ``screens/kept.py``) as a new screen would: at ``topic``
        with ``note``, no search, the contents focused, the text at its top."""
        self.topic = topic if topic is not None and self.summary.get(topic) is not None else None
        self.note = note if self.topic is not None else None
        self.shown = self.topic or self.summary.sections[0].id
        if not self.is_mounted:
            return  # shown as it mounts
        search = self.query_one(Input)
        if self.words or search.value:
            self.words = ()
            with search.prevent(Input.Changed):
                search.value = ""
            self._fill_contents()
        self._show(self.shown)
        self.set_focus(self.query_one(ContentsList))

    def compose(self) -> ComposeResult:
        self.update_classes(self.breakpoint_classes(self.app.size))  # styled once, as it mounts
        yield PlacedStatic(self.summary.title, id="rules-header")
        with Box(id="rules-main"):
            with Box(id="rules-side"):
                yield Input(placeholder="/ search the rules", id="rules-search", compact=True)
                yield ContentsList(id="rules-contents", markup=False)
            with ReadingPane(id="rules-body"):
                yield RulesText(id="rules-text")
        yield KeyFooter()

    def on_mount(self) -> None:
        if made_as_the_app_closed(self):
            return
        self._fill_contents()
        self._show(self.shown)

    # -- what is shown --------------------------------------------------------------------------

    @property
    def filtered(self) -> list[Section]:
        """The sections holding every search word (all of them without a search)."""
        return [s for s in self.summary.sections if matches(s, self.words, self.summary.source(s))]

    def _parts(self, section: Section) -> list[Piece]:
        note = self.note if section.id == self.topic else None
        return pieces(section, self.summary, note, keywords=bool(self.words))

    def _match_count(self, section: Section) -> int:
        return len(find_matches(self._parts(section), self.words)) if self.words else 0

    def _fill_contents(self) -> None:
        contents = self.query_one(ContentsList)
        sections = self.filtered
        self._filling = True  # refilling highlights options: not the reader moving
        contents.clear_options()
        if not sections:
            contents.add_option(Option(f"No section has {' '.join(self.words)!r}", disabled=True))
        for s in sections:
            count = f" ({self._match_count(s)})" if self.words else ""
            contents.add_option(Option(f"{s.title}{count}", id=s.id))
        ids = [s.id for s in sections]
        if ids:
            contents.highlighted = ids.index(self.shown) if self.shown in ids else 0
        self._filling = False

    def _show(self, section_id: str, current: int | None = None) -> None:
        """Show a section; ``current``: the match to bring into view (else the top)."""
        section = self.summary.get(section_id)
        if section is None:
            return
        self.shown, self.current = section_id, current
        showing = (section_id, self.note if section_id == self.topic else None, self.words, current)
        laid_out = showing == self._showing  # the same again (a kept screen opened again)
        if not laid_out:
            self._showing = showing
            self.query_one(RulesText).show(self._parts(section), self.words, current)
        contents = self.query_one(ContentsList)
        ids = [s.id for s in self.filtered]
        if section_id in ids and contents.highlighted != ids.index(section_id):
            self._filling = True
            contents.highlighted = ids.index(section_id)
            self._filling = False
        if laid_out:
            self._scroll_to_current()
        else:
            self.call_after_refresh(self._scroll_to_current)

    def _scroll_to_current(self) -> None:
        body = self.query_one("#rules-body", ReadingPane)
        text = self.query_one(RulesText)
        if self.current is None:
            body.scroll_home(animate=False)
            return
        lines = text.layout_for(text.size.width).match_lines
        if 0 <= self.current < len(lines):
            body.scroll_to(y=max(0, lines[self.current] - 2), animate=False)

    # -- the reader's moves ---------------------------------------------------------------------

    def on_option_list_option_highlighted(self, message: OptionList.OptionHighlighted) -> None:
        message.stop()
        if self._filling or message.option.id is None or message.option.id == self.shown:
            return
        if message.option_index != message.option_list.highlighted:
            return  # a stale one of a burst (a held arrow key): showing it would move the list back, forever
        section = self.summary.get(message.option.id)
        self._show(message.option.id, 0 if section is not None and self._match_count(section) else None)

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        if message.option.id is not None and message.option.id != self.shown:
            self._show(message.option.id)
        self.action_focus_text()

    def on_input_changed(self, message: Input.Changed) -> None:
        message.stop()
        self.words = search_words(message.value)
        ids = [s.id for s in self.filtered]
        if ids and self.shown not in ids:
            self.shown = ids[0]
        self._fill_contents()
        section = self.summary.get(self.shown)
        self._show(self.shown, 0 if section is not None and self._match_count(section) else None)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        self.action_focus_contents()
        if self.words and not self.filtered:
            self.notify(f"No section has {' '.join(self.words)!r}.", title="Search", severity="warning")

    def action_search(self) -> None:
        self.query_one(Input).focus()

    def action_next_match(self, step: int = 1) -> None:
        """Go to the next (``step`` 1) or previous (-1) match, across the listed sections."""
        if not self.words:
            self.notify("Press / and type words to search first.", title="Search")
            return
        everywhere = [(s.id, k) for s in self.filtered for k in range(self._match_count(s))]
        if not everywhere:
            self.notify(f"No match for {' '.join(self.words)!r}.", title="Search", severity="warning")
            return
        here = (self.shown, self.current if self.current is not None else -1)
        if here in everywhere:
            target = everywhere[(everywhere.index(here) + step) % len(everywhere)]
        else:
            after = [m for m in everywhere if m[0] == self.shown]
            target = after[0] if after and step > 0 else everywhere[0 if step > 0 else -1]
        self._show(*target)

    def action_focus_text(self) -> None:
        self.query_one("#rules-body", ReadingPane).focus()

    def action_focus_contents(self) -> None:
        self.query_one(ContentsList).focus()

    def action_page(self, direction: int) -> None:
        body = self.query_one("#rules-body", ReadingPane)
        if direction < 0:
            body.scroll_page_up()
        else:
            body.scroll_page_down()

    def action_escape(self) -> None:
        """Escape leaves the search box first; elsewhere it closes, like q."""
        if isinstance(self.focused, Input):
            self.action_focus_contents()
        else:
            self.action_close()

    def action_close(self) -> None:
        self.dismiss()


NAME = "rules"  # the kept Rules screen's name: one, made again for another game's summary


def _kept(app: App, ref: str) -> RulesScreen:
    return kept_screen(app, NAME, lambda: RulesScreen(ref), RulesScreen, fits=lambda kept: kept.ref == ref)


def rules_screen(app: App, ref: str, topic: str | None = None, *, note: str | None = None) -> RulesScreen:
    """The app's Rules screen of the summary ``ref`` names (made once and kept:
    ``screens/kept.py``), at ``topic``."""
    screen = _kept(app, ref)
    screen.open_at(topic, note=note)
    return screen


def prepare_rules_screen(
    app: App, ref: str, topic: str | None = None, *, note: str | None = None, make: bool = True
) -> None:
    """Make the Rules screen of ``ref`` at ``topic`` out of sight, ahead of its key
    (``kept.prepare``), or show ``topic`` in the one made and draw it there (``kept.redraw``);
    ``make`` False: only the one made before (none is made)."""
    if not make and not (app.is_screen_installed(NAME) and app.get_screen(NAME).is_running):
        return
    screen = _kept(app, ref)
    if screen in app.screen_stack:
        return
    screen.open_at(topic, note=note)
    if screen.is_running:
        redraw(app, NAME)
    else:
        prepare(app, NAME, lambda: RulesScreen(ref), RulesScreen, fits=lambda kept: kept.ref == ref)
