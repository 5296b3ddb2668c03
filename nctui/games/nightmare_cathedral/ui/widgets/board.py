"""The board, drawn as text from the pack's grid.

Each grid cell becomes a block of ``cell_width`` x ``cell_lines`` characters (both grow with the
terminal). Neighbouring cells of one area merge into one region; a ``│`` separates areas side by
side and an underline separates areas one above the other (so the map costs no line for
borders); the terminal's edge is the outer border. Each area shows, starting on its widest row:
its symbol (glyph and letter) and name, then its units:

    R2 B1    Followers per seat: the seat's letter and count (in the seat's colour too)
    s2       Shadows
    ⌂R2★     a Fort of Red with 2 levels; ★ marks a Fortress
    ♦R       Red's Shaper
    N3       Nightmare 3
    ♚R       Red controls the area (shown when other units or a Fort are there)

The Cathedral space shows its pieces, the Nightmares in it and the devoured units per side.
Marked Areas (the symbol under the Turn marker) are drawn in reverse video on a tinted
background, so the mark does not rely on colour either; the areas the due decision offers are
marked ``▸`` and edged with heavy lines ``┃`` (and tinted). With the focus, arrows/hjkl move a
cursor over the areas (the indicator line above the panels tells all about the area under it,
``describe_region``), Enter picks the area and ``i`` opens it in the area inspector.
"""

from __future__ import annotations

from functools import lru_cache

from rich.style import Style
from rich.text import Text
from textual import events
from textual.containers import ScrollableContainer
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive

from nctui.ui.textual_ext.placed import Cells, FitsContent
from nctui.ui.widgets.common import OptionsPicked, clip, cursor_bindings, nearest, pack_parts

from ...content.loader import SideMap, get_pack
from ...describe import describe_action, seat_letter, seat_name, words_for
from ...engine.actions import Action
from ...engine.events import plural
from ...engine.facts import IN_CATHEDRAL, NO_SIDE, SHADOWS_SIDE, Facts
from ...engine.state import AreaState, GameState
from ...engine.views import View
from .cards import CardEntry
from .seats import seat_style

CELL_LINES = 2  # lines per grid row at the least (``BoardView.cell_lines``: more on tall terminals)
MAX_CELL_WIDTH = 24
CATHEDRAL = "#"

BORDER = Style(color="#8a8a9a")
NAME = Style(bold=True)
MARKED = Style(bgcolor="#3a3320")
MARKED_NAME = Style(bold=True, reverse=True)
SHADOWS = Style(color="#b4a7d6", italic=True)
COVERED = Style(color="#5a5a66", dim=True)
CATHEDRAL_STYLE = Style(color="#e8d9a8", bgcolor="#2a2430")
LEGEND = Style(color="#9a9aaa")
NIGHTMARE = Style(color="#ff87af", bold=True)
LEGAL = Style(bgcolor="#20384a", bold=True)  # an option of the due decision
CURSOR = Style(bgcolor="#2f5f8f", bold=True)
UNDERLINE = Style(underline=True)  # the bottom line of a region
OUTLINE = Style(color="#ffd75f", bold=True)  # the borders of the areas the due decision offers


@lru_cache(maxsize=16)
def _side(pack_id: str, side_id: str) -> SideMap:
    for sm in get_pack(pack_id).sides:
        if sm.side.id == side_id:
            return sm
    raise LookupError(side_id)


@lru_cache(maxsize=32)
def _layout(pack_id: str, side_id: str, width: int, lines: int = CELL_LINES):
    """(grid of region ids, cell width, slots per region): slots are (line, x, width) where an
    area's text goes. The map has no outer border (the terminal's edge is one), so 8 columns
    of 9 fit in 79 cells. An area's text starts on its widest row (the name and the units
    together, where the area reads as one block), then fills its other rows in reading order."""
    sm = _side(pack_id, side_id)
    grid: list[list[str | None]] = [[None] * sm.cols for _ in range(sm.rows)]
    for cell_region, r, c in sm.cells:
        grid[r][c] = cell_region
    cw = max(5, min(MAX_CELL_WIDTH, (width + 1) // sm.cols - 1))
    slots: dict[str, list[tuple[int, int, int]]] = {}
    for r, row in enumerate(grid):
        c = 0
        while c < sm.cols:
            region = row[c]
            if region is None:
                c += 1
                continue
            start = c
            while c + 1 < sm.cols and row[c + 1] == region:
                c += 1
            n = c - start + 1
            for k in range(lines):
                slots.setdefault(region, []).append((r * lines + k, start * (cw + 1), n * (cw + 1) - 1))
            c += 1
    for region in slots:
        widest = max(w for _, _, w in slots[region])
        slots[region].sort(key=lambda slot: (slot[2] != widest, slot[0], slot[1]))
    return grid, cw, slots


def cell_lines_for(height: int) -> int:
    """Lines per grid row for a terminal ``height`` lines tall: the board grows with it (2 at
    24 lines, 3 from 40, 4 from 56)."""
    return CELL_LINES + (height >= 40) + (height >= 56)


class BoardView(FitsContent, can_focus=True):
    """Draws ``view`` (a player's view of the state) with its ``facts`` (set before the view;
    nothing is drawn until both are); ``cursor``: the area under the cursor (arrows/hjkl move
    it while the board has the focus; Enter picks the area when the due decision offers it)."""

    BINDINGS = cursor_bindings("board")

    DEFAULT_CSS = """
    BoardView { height: auto; width: 100%; }
    """

    view: reactive[View | None] = reactive(None, repaint=False)
    facts: reactive[Facts | None] = reactive(None, repaint=False)
    cursor: reactive[str] = reactive("")  # a repaint only: the map's height does not depend on it
    cell_lines: reactive[int] = reactive(CELL_LINES, layout=True)  # the screen sets it from its height
    # an earlier position drawn instead of the present, with an area outlined (the King's turn
    # step being read); the same board, so a repaint only
    past: reactive[tuple[View, Facts, str] | None] = reactive(None)

    class CursorMoved(Message):
        """The area under the cursor changed (``note``: it in words; None: no cursor)."""

        def __init__(self, note: Text | None) -> None:
            self.note = note
            super().__init__()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.view is None or self.facts is None:
            return 1
        sm = _side(self.view.state.pack, self.view.state.board_side)
        return sm.rows * self.cell_lines + len(_captions(self.view, width))

    def _cursor(self) -> str:
        return self.cursor if self.has_focus else ""

    def _centres(self) -> dict[str, tuple[float, float]]:
        return centres(self.view.state.pack, self.view.state.board_side) if self.view else {}

    def _note(self) -> Text | None:
        return _cursor_note(self.view, self.facts, self.cursor)

    def watch_view(self) -> None:
        if self.has_focus:
            self._tell_screen()

    def watch_cursor(self) -> None:
        if self.has_focus and self.view is not None:
            self._tell_screen()
            self.call_after_refresh(self._scroll_to_cursor)

    def _tell_screen(self) -> None:
        # to the screen, whose line tells what is under the cursor: bubbled up through the four
        # containers between them, it came after the board's frame, and each cursor key (or a
        # computer's move under the cursor) drew two frames, the second a period (~17 ms) later
        self.screen.post_message(self.CursorMoved(self._note()))

    def _scroll_to_cursor(self) -> None:
        """Keep the area under the cursor in sight when the board's pane is shorter than the map
        (80x24 while the line above tells about the area)."""
        if self.view is None or not isinstance(self.parent, ScrollableContainer):
            return
        rows = [
            r for region, r, _ in _side(self.view.state.pack, self.view.state.board_side).cells if region == self.cursor
        ]
        if rows:
            pane = self.parent
            top, bottom = min(rows) * self.cell_lines, (max(rows) + 1) * self.cell_lines
            y, height = pane.scroll_y, pane.scrollable_content_region.height
            if top < y or height < bottom - top:
                pane.scroll_to(y=top, animate=False)
            elif bottom > y + height:
                pane.scroll_to(y=bottom - height, animate=False)

    def place_cursor(self) -> Text | None:
        """The cursor where it starts: on an area the decision offers, else on the viewer's
        Shaper (unless it is on an area already); returns what is under it, in words."""
        if self.view is not None and self.cursor not in self._centres():
            state, seat = self.view.state, self.view.seat
            shaper = state.players[seat].shaper if 0 <= seat < len(state.players) else ""
            self.cursor = next(iter(legal_areas(self.view)), "") or shaper or CATHEDRAL
        return self._note()

    def on_focus(self) -> None:
        self.post_message(self.CursorMoved(self.place_cursor()))
        self.refresh()
        self.call_after_refresh(self._scroll_to_cursor)

    def on_blur(self) -> None:
        self.post_message(self.CursorMoved(None))
        self.refresh()

    def action_move(self, dy: int, dx: int) -> None:
        centres_ = self._centres()
        if centres_:
            self.cursor = nearest(centres_, self.cursor if self.cursor in centres_ else CATHEDRAL, dy, dx)

    def action_pick(self) -> None:
        if self.view is None or not self.cursor:
            return
        name = "the Cathedral" if self.cursor == CATHEDRAL else words_for(self.view.state.pack).area(self.cursor)
        self.post_message(OptionsPicked(name, legal_areas(self.view).get(self.cursor, ())))

    def on_click(self, event: events.Click) -> None:
        """A click puts the cursor on the area clicked (the click also gives the focus)."""
        if self.view is None:
            return
        grid, cw, _ = _layout(self.view.state.pack, self.view.state.board_side, self.size.width or 80, self.cell_lines)
        row, col = event.y // self.cell_lines, event.x // (cw + 1)
        if 0 <= row < len(grid) and 0 <= col < len(grid[row]) and grid[row][col] is not None:
            self.cursor = grid[row][col]

    def render(self) -> Cells | Text:
        if self.past is not None:
            view, facts, area = self.past
            return render_board(view, facts, self.content_width or 80, area, self.cell_lines)
        if self.view is None or self.facts is None:
            return Text("")
        return render_board(self.view, self.facts, self.content_width or 80, self._cursor(), self.cell_lines)


@lru_cache(maxsize=16)
def centres(pack_id: str, side_id: str) -> dict[str, tuple[float, float]]:
    """Each region's centre (row, col) on the grid: where the cursor moves from and to."""
    cells: dict[str, list[tuple[int, int]]] = {}
    for region, r, c in _side(pack_id, side_id).cells:
        cells.setdefault(region, []).append((r, c))
    return {k: (sum(r for r, _ in v) / len(v), sum(c for _, c in v) / len(v)) for k, v in cells.items()}


def option_area(action: Action) -> str:
    """The area an option chooses ('' for none): its ``area``, or where it moves to."""
    return getattr(action, "area", "") or getattr(action, "to", "")


def legal_areas(view: View) -> dict[str, tuple[int, ...]]:
    """Area -> indices of the options of the viewer's due decision that choose it."""
    d = view.state.decision
    out: dict[str, tuple[int, ...]] = {}
    if d is None or d.seat != view.seat:
        return out
    for i, a in enumerate(d.options):
        area = option_area(a)
        if area:
            out[area] = out.get(area, ()) + (i,)
    return out


def render_board(view: View, facts: Facts, width: int, cursor: str = "", lines: int = CELL_LINES) -> Cells:
    state = view.state
    words = words_for(state.pack)
    grid, cw, slots = _layout(state.pack, state.board_side, width, lines)
    rows, cols = len(grid), len(grid[0])
    total_w = cols * (cw + 1) - 1
    total_h = rows * lines
    chars = [[" "] * total_w for _ in range(total_h)]
    styles: list[list[Style]] = [[Style()] * total_w for _ in range(total_h)]

    in_play = {a.id: a for a in state.areas}
    marked = facts.marked_areas
    legal = legal_areas(view)

    bases: dict[tuple[str | None, bool], Style] = {}  # a map has ~1,000 cells and ~20 regions

    def base(region: str | None, edge: bool = False) -> Style:
        """The style of a cell of ``region`` (``edge``: its bottom line, underlined)."""
        st = bases.get((region, edge))
        if st is not None:
            return st
        if region is None:
            st = Style()
        else:
            st = (
                CATHEDRAL_STYLE
                if region == CATHEDRAL
                else COVERED
                if region not in in_play
                else MARKED
                if region in marked
                else Style()
            )
            if region in legal:
                st += LEGAL
            if region == cursor:
                st += CURSOR
            if edge:
                st += UNDERLINE
        bases[region, edge] = st
        return st

    # Regions, separators and the top edge.
    for r in range(rows):
        for c in range(cols):
            region = grid[r][c]
            x0, y0 = c * (cw + 1), r * lines
            below = grid[r + 1][c] if r + 1 < rows else None
            covered = region is not None and region not in in_play and region != CATHEDRAL
            for k in range(lines):
                st = base(region, region is not None and k == lines - 1 and below != region)
                row_styles = styles[y0 + k]
                row_styles[x0 : x0 + cw] = [st] * cw
                if covered:
                    chars[y0 + k][x0 : x0 + cw] = ["░"] * cw
        for c in range(1, cols):  # the borders between columns (none outside: the edge is one)
            left, right = grid[r][c - 1], grid[r][c]
            x = c * (cw + 1) - 1
            for k in range(lines):
                y = r * lines + k
                last = k == lines - 1
                if left is not None and left == right:
                    styles[y][x] = base(left, region_row_ends(grid, r, c - 1) and last)
                    if left not in in_play and left != CATHEDRAL:
                        chars[y][x] = "░"
                elif left is not None or right is not None:
                    outline = left in legal or right in legal  # an option's sides: a heavy line
                    chars[y][x] = "┃" if outline else "│"
                    styles[y][x] = OUTLINE if outline else BORDER

    # Texts.
    for region, region_slots in slots.items():
        if region == CATHEDRAL:
            groups = _cathedral_lines(state)
        elif region not in in_play:
            area = words.areas.get(region)
            groups = [[(w, COVERED) for w in (area.name if area else region).split()], [("(covered)", COVERED)]]
        else:
            groups = _area_lines(view, facts, region, region in marked, region in legal)
        _fill(chars, styles, region_slots, groups)

    return Cells([*Cells.from_grid(chars, styles), *(Cells.runs_of(line) for line in _captions(view, total_w))])


def _captions(view: View, width: int) -> list[Text]:
    """The lines under the map: the legend, then the Reward tiles of Divergent Paths when there
    are any. (The area under the cursor is told on the indicator line above the panels: there
    it is in sight at every size, and the map keeps its height as the cursor moves.)"""
    state = view.state
    lines: list[Text] = []
    king = f"{seat_letter(state, state.king.seat)}: the King" if state.king is not None else ""
    parts = [
        "R2 Followers",
        "s2 Shadows",
        "⌂R2 Fort (★ Fortress)",
        "♦R Shaper",
        "N3 Nightmare",
        "♚R controls",
        king,
        "▸┃: an option",
        "reverse: Marked Area",
        "b: cursor, i: the area",
    ]
    lines += [Text(line, LEGEND) for line in pack_parts(parts, width)[:2]]  # the most needed
    if state.path_tiles:
        w = words_for(state.pack)
        tiles = " · ".join(f"{piece} {w.card(tile)}" for piece, tile in state.path_tiles)
        lines.append(Text(clip(f"Reward tiles: {tiles}", width), LEGEND))
    for line in lines:
        line.no_wrap, line.overflow = True, "ellipsis"
        line.truncate(width, overflow="ellipsis")
    return lines


def _cursor_note(view: View | None, facts: Facts | None, region: str) -> Text | None:
    """The area (or the Cathedral) under the cursor in words, and what Enter does there."""
    if view is None or facts is None or not region:
        return None
    return _cursor_text(view, facts, region)


def _cursor_text(view: View, facts: Facts, region: str) -> Text:
    """'▶ ' and the whole description of the area, on one line (wrapped where it is shown)."""
    t = Text("▶ ", Style(bold=True), end="")
    title, parts = describe_region(view, facts, region, short=True)
    t.append(title, Style(bold=True))
    for label, value in parts:
        t.append(" · ")
        t.append(f"{label}: " if label else "", LEGEND)
        t.append(value, Style(bold=True) if label == "Enter" else Style())
    return t


def describe_region(view: View, facts: Facts, region: str, *, short: bool = False) -> tuple[str, list[tuple[str, str]]]:
    """The area (or the Cathedral space) in full: its title and (label, words) parts: symbol
    and whether it is Marked, the units of each side, the Fort, control, every neighbour, and
    what Enter does there. One description serves the cursor line (``short``: the units as the
    map's tokens, explained by its legend) and the area inspector."""
    state = view.state
    w = words_for(state.pack)
    if region == CATHEDRAL:
        built = len(state.cathedral_built)
        here = [
            f"N{n} {w.nightmares.get(n, '')}".rstrip()
            for n, where in zip(state.nightmares, state.nightmare_at)
            if where == IN_CATHEDRAL
        ]
        devoured = [
            tok
            for tok, _ in _flat(_cathedral_lines(state)[1:])
            if tok not in ("devoured", "none") and not tok.startswith("N")
        ]
        near = [w.area(a.id) for a in facts.areas if a.by_cathedral]
        parts = [
            ("Pieces", f"{built} of {built + len(state.cathedral_track)} built"),
            ("Nightmares", ", ".join(here) or "none"),
            ("Devoured", " ".join(devoured) or "none"),
            ("Next to", ", ".join(near[:-1]) + " and " + near[-1] if len(near) > 1 else "".join(near)),
        ]
        return "the Cathedral", parts + _enter_parts(view, region)
    if region not in {a.id for a in state.areas}:
        return w.area(region), [("", "covered in this player count")]
    a, known = _area_state(state, region), facts.area(region)
    symbol = w.symbol(w.areas[region].symbol)
    marked = "Marked this turn" if region in facts.marked_areas else "not Marked"
    if short:  # the symbol's name beside the title, the units as the map's tokens
        units = " ".join(tok for tok, _ in _unit_tokens(state, facts, region) if not tok.startswith("♚"))
        parts = [("", units or "no units")]
    else:
        parts = [("Symbol", f"{symbol}, {marked}"), ("Units", _unit_words(state, a) or "none")]
    if short:
        pass  # the Fort is among the tokens: ⌂B1★
    elif a.fort_levels:
        level = "level" if a.fort_levels == 1 else "levels"
        fortress = ", with its Fortress" if a.fortress == a.fort_owner else ""
        parts.append(("Fort", f"{seat_name(state, a.fort_owner)}'s, {a.fort_levels} {level}{fortress}"))
    else:
        parts.append(("Fort", "none"))
    if 0 <= a.fortress != a.fort_owner:
        parts.append(("Fortress", f"{seat_name(state, a.fortress)}'s"))
    owner = known.controller
    parts.append(
        (
            "Control",
            "no one (a tie)"
            if owner == NO_SIDE
            else "the Shadows"
            if owner == SHADOWS_SIDE
            else seat_name(state, owner),
        )
    )
    near = [w.area(x) for x in known.neighbours] + (["the Cathedral"] if known.by_cathedral else [])
    parts.append(("Next to", ", ".join(near[:-1]) + " and " + near[-1] if len(near) > 1 else "".join(near)))
    glyph, _, symbol_name = symbol.partition(" ")
    title = f"{glyph} {w.area(region)}" + (f" ({symbol_name}, {marked})" if short else "")
    return title, parts + _enter_parts(view, region)


def _unit_words(state: GameState, a: AreaState) -> str:
    """'Red 2 Followers (R2), the Shadows 1 (s1), Red's Shaper (♦R), Nightmare 3 The War Drum'."""
    w = words_for(state.pack)
    out = [
        f"{seat_name(state, seat)} {plural(n, 'Follower')} ({seat_letter(state, seat)}{n})"
        for seat, n in enumerate(a.followers)
        if n
    ]
    if a.shadows:
        out.append(f"{plural(a.shadows, 'Shadow')} (s{a.shadows})")
    out += [
        f"{seat_name(state, pl.seat)}'s Shaper (♦{seat_letter(state, pl.seat)})"
        for pl in state.players
        if pl.shaper == a.id
    ]
    out += [
        f"Nightmare {number} {w.nightmares.get(number, '')}".rstrip()
        for number, where in zip(state.nightmares, state.nightmare_at)
        if where == a.id
    ]
    return ", ".join(out)


def _enter_parts(view: View, region: str) -> list[tuple[str, str]]:
    """What Enter does on the region: the option that chooses it, or how many do."""
    picks = legal_areas(view).get(region, ())
    state = view.state
    options = state.decision.options if state.decision is not None else ()
    if len(picks) == 1:
        return [("Enter", describe_action(options[picks[0]], state))]
    if picks:
        return [("Enter", f"one of {len(picks)} options")]
    return []


def _flat(groups: list[list[Token]]) -> list[Token]:
    return [tok for g in groups for tok in g]


def region_entries(view: View, facts: Facts) -> list[CardEntry]:
    """Every area in play and the Cathedral space, in reading order, for the area inspector."""
    sm = _side(view.state.pack, view.state.board_side)
    in_play = {a.id for a in view.state.areas} | {CATHEDRAL}
    order = [
        region
        for region in dict.fromkeys(region for region, _, _ in sorted(sm.cells, key=lambda c: c[1:]))
        if region in in_play
    ]
    out = []
    for region in order:
        title, parts = describe_region(view, facts, region)
        lines = tuple(Text.assemble((f"{label:<9}" if label else "", LEGEND), value) for label, value in parts)
        out.append(CardEntry(f"area:{region}", "the board", Text(title, Style(bold=True)), lines))
    return out


def region_row_ends(grid: list[list[str | None]], r: int, c: int) -> bool:
    """Whether the area at (r, c) has a different region below it (an underlined edge)."""
    below = grid[r + 1][c] if r + 1 < len(grid) else None
    return below != grid[r][c]


Token = tuple[str, Style]


def _area_lines(view: View, facts: Facts, area_id: str, is_marked: bool, is_legal: bool = False) -> list[list[Token]]:
    """The header, then the unit tokens (packed into the remaining lines by ``_fill``)."""
    state = view.state
    words = words_for(state.pack)
    area_def = words.areas[area_id]
    sym = words.symbol(area_def.symbol, name=False)
    head_style = (MARKED_NAME if is_marked else NAME) + Style(underline=is_legal)
    marker = "▸" if is_legal else ""  # an option of the due decision: a marker, not only a tint
    header: list[Token] = [(w, head_style) for w in f"{marker}{sym} {area_def.name}".split()]
    tokens = _unit_tokens(state, facts, area_id)
    return [header, *([tokens] if tokens else [])]


def _area_state(state: GameState, area_id: str) -> AreaState:
    """The units and Fort in an area in play (the view holds them)."""
    return next(a for a in state.areas if a.id == area_id)


def _unit_tokens(state: GameState, facts: Facts, area_id: str) -> list[Token]:
    """Followers, Shadows, the Fort, Shapers, Nightmares, then who controls the area."""
    a = _area_state(state, area_id)
    tokens: list[Token] = []
    for seat, n in enumerate(a.followers):
        if n:
            tokens.append((f"{seat_letter(state, seat)}{n}", seat_style(state, seat)))
    if a.shadows:
        tokens.append((f"s{a.shadows}", SHADOWS))
    if a.fort_levels:
        star = "★" if a.fortress == a.fort_owner else ""
        tokens.append((f"⌂{seat_letter(state, a.fort_owner)}{a.fort_levels}{star}", seat_style(state, a.fort_owner)))
    for pl in state.players:
        if pl.shaper == area_id:
            tokens.append((f"♦{seat_letter(state, pl.seat)}", seat_style(state, pl.seat)))
    for number, where in zip(state.nightmares, state.nightmare_at):
        if where == area_id:
            tokens.append((f"N{number}", NIGHTMARE))
    owner = facts.area(area_id).controller
    sides = sum(1 for n in a.followers if n) + (1 if a.shadows else 0)
    if owner >= 0 and (sides > 1 or a.fort_levels):  # alone in the area, the control goes without saying
        tokens.append((f"♚{seat_letter(state, owner)}", seat_style(state, owner, bold=False)))
    return tokens


def _cathedral_lines(state: GameState) -> list[list[Token]]:
    """Its pieces, the Nightmares in it and (once any) the devoured units per side."""
    built = len(state.cathedral_built)
    lines: list[list[Token]] = [
        [("Cathedral", Style(bold=True)), (f"{built}/{built + len(state.cathedral_track)}", Style())]
    ]
    here = [f"N{n}" for n, where in zip(state.nightmares, state.nightmare_at) if where == IN_CATHEDRAL]
    if here:
        lines.append([(tok, NIGHTMARE) for tok in here])
    devoured = [
        (f"{seat_letter(state, pl.seat)}{pl.devoured}", seat_style(state, pl.seat))
        for pl in state.players
        if pl.devoured
    ]
    if state.devoured_shadows:
        devoured.append((f"s{state.devoured_shadows}", SHADOWS))
    if devoured or state.stage >= 2:
        lines.append([("devoured", Style()), *(devoured or [("none", Style())])])
    return lines


def _fill(chars, styles, slots: list[tuple[int, int, int]], groups: list[list[Token]]) -> None:
    """Write the groups into the slots: each group from a new slot, its tokens flowing on to
    later slots. When that does not fit, the groups flow on one after the other; then the
    first group (the area's name) is cut to one slot, so the units keep the rest; whatever
    still does not fit is cut with an ellipsis."""
    placed = _flow(slots, groups, separate=True)
    if placed is None:
        placed = _flow(slots, [[t for g in groups for t in g]], separate=False)
    if placed is None and len(groups) > 1 and slots:
        head = " ".join(word for word, _ in groups[0])
        short = [[(clip(head, slots[0][2]), groups[0][0][1])], *groups[1:]]
        placed = _flow(slots, short, separate=True)
    if placed is None:
        placed = _flow(slots, groups, separate=True, cut=True) or []
    for (y, x), word, style in placed:
        for k, ch in enumerate(word):
            chars[y][x + k] = ch
            styles[y][x + k] = styles[y][x + k] + style


def _flow(
    slots: list[tuple[int, int, int]], groups: list[list[Token]], *, separate: bool, cut: bool = False
) -> list[tuple[tuple[int, int], str, Style]] | None:
    """[((y, x), word, style)] or None when the words do not fit (``cut``: cut instead). A word
    longer than a whole slot is split with a hyphen ('Reser-' 'voir'), never cut short."""
    out: list[tuple[tuple[int, int], str, Style]] = []
    i, col = 0, 0
    for g, group in enumerate(groups):
        if separate and g and col:
            i, col = i + 1, 0
        for word, style in group:
            while word:
                if i >= len(slots):
                    if not cut:
                        return None
                    if out:
                        (y, x), last, st = out[-1]
                        out[-1] = ((y, x), last[:-1] + "…", st)
                    return out
                y, x, w = slots[i]
                need = len(word) + (1 if col else 0)
                if col + need > w and col:
                    i, col = i + 1, 0  # on to the next slot
                    continue
                piece, word = (word, "") if col + need <= w else (word[: w - 1] + "-", word[w - 1 :])
                if col and out and out[-1][2] == style and out[-1][0][0] == y:
                    out[-1] = (out[-1][0], out[-1][1] + " " + piece, style)  # one run: the space styled too
                else:
                    out.append(((y, x + col + (1 if col else 0)), piece, style))
                col += len(piece) + (1 if col else 0)
                if word:
                    i, col = i + 1, 0
    return out
