"""The board, drawn as text from the pack's grid.

Each grid cell becomes a block of ``cell_width`` x ``CELL_LINES`` characters. Neighbouring
cells of one area merge into one region; a ``│`` separates areas side by side and an underline
separates areas one above the other (so the map costs no line for borders: 12 lines for 6 rows). Each
area shows, in its own cells: its symbol (glyph and letter) and name, then its units:

    R2 B1    Followers per seat: the seat's letter and count (in the seat's colour too)
    s2       Shadows
    ⌂R2★     a Fort of Red with 2 levels; ★ marks a Fortress
    ♦R       Red's Shaper

Marked Areas (the symbol under the Turn marker) are drawn in reverse video on a tinted
background, so the mark does not rely on colour either.
"""

from __future__ import annotations

from functools import lru_cache

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from ...content.loader import SideMap, get_pack
from ...engine import board as rules
from ...engine.views import View
from ...describe import seat_letter, words_for
from .common import clip, seat_style

CELL_LINES = 2
CATHEDRAL = "#"

BORDER = Style(color="#8a8a9a")
NAME = Style(bold=True)
MARKED = Style(bgcolor="#3a3320")
MARKED_NAME = Style(bold=True, reverse=True)
SHADOWS = Style(color="#b4a7d6", italic=True)
COVERED = Style(color="#5a5a66", dim=True)
CATHEDRAL_STYLE = Style(color="#e8d9a8", bgcolor="#2a2430")
LEGEND = Style(color="#9a9aaa")


@lru_cache(maxsize=16)
def _side(pack_id: str, side_id: str) -> SideMap:
    for sm in get_pack(pack_id).sides:
        if sm.side.id == side_id:
            return sm
    raise LookupError(side_id)


@lru_cache(maxsize=32)
def _layout(pack_id: str, side_id: str, width: int):
    """(grid of region ids, cell width, slots per region): slots are (line, x, width) where an
    area's text goes, in reading order."""
    sm = _side(pack_id, side_id)
    grid: list[list[str | None]] = [[None] * sm.cols for _ in range(sm.rows)]
    for region, r, c in sm.cells:
        grid[r][c] = region
    cw = max(5, min(18, (width - 1) // sm.cols - 1))
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
            for k in range(CELL_LINES):
                slots.setdefault(region, []).append((r * CELL_LINES + k, start * (cw + 1) + 1, n * (cw + 1) - 1))
            c += 1
    for region in slots:
        slots[region].sort()
    return grid, cw, slots


class BoardView(Widget):
    """Draws ``view`` (a player's view of the state); holds nothing else."""

    DEFAULT_CSS = """
    BoardView { height: auto; width: 100%; }
    """

    view: reactive[View | None] = reactive(None, layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.view is None:
            return 1
        sm = _side(self.view.state.pack, self.view.state.board_side)
        return sm.rows * CELL_LINES + 1  # and the legend

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        return render_board(self.view, self.size.width or 80)


def render_board(view: View, width: int) -> Text:
    state = view.state
    words = words_for(state.pack)
    grid, cw, slots = _layout(state.pack, state.board_side, width)
    rows, cols = len(grid), len(grid[0])
    total_w = cols * (cw + 1) + 1
    total_h = rows * CELL_LINES
    chars = [[" "] * total_w for _ in range(total_h)]
    styles: list[list[Style]] = [[Style()] * total_w for _ in range(total_h)]

    in_play = {a.id: a for a in state.areas}
    marked = set(rules.marked_areas(state)) if state.turn_pos >= 0 else set()

    def base(region: str | None) -> Style:
        if region is None:
            return Style()
        if region == CATHEDRAL:
            return CATHEDRAL_STYLE
        if region not in in_play:
            return COVERED
        return MARKED if region in marked else Style()

    # Regions, separators and the top edge.
    for r in range(rows):
        for c in range(cols):
            region = grid[r][c]
            x0, y0 = c * (cw + 1) + 1, r * CELL_LINES
            below = grid[r + 1][c] if r + 1 < rows else None
            for k in range(CELL_LINES):
                for x in range(x0, x0 + cw):
                    st = base(region)
                    if region is not None and k == CELL_LINES - 1 and below != region:
                        st += Style(underline=True)
                    if region is not None and region not in in_play and region != CATHEDRAL:
                        chars[y0 + k][x] = "░"
                    styles[y0 + k][x] = st
        for c in range(cols + 1):
            left = grid[r][c - 1] if c > 0 else None
            right = grid[r][c] if c < cols else None
            x = c * (cw + 1)
            for k in range(CELL_LINES):
                y = r * CELL_LINES + k
                last = k == CELL_LINES - 1
                if left is not None and left == right:
                    st = base(left)
                    if region_row_ends(grid, r, c - 1) and last:
                        st += Style(underline=True)
                    styles[y][x] = st
                    if left not in in_play and left != CATHEDRAL:
                        chars[y][x] = "░"
                elif left is not None or right is not None:
                    chars[y][x] = "│"
                    styles[y][x] = BORDER

    # Texts.
    for region, region_slots in slots.items():
        if region == CATHEDRAL:
            lines = _cathedral_lines(state)
        elif region not in in_play:
            area = words.areas.get(region)
            lines = [[(w, COVERED) for w in (area.name if area else region).split()], [("(covered)", COVERED)]]
        else:
            lines = _area_lines(view, region, region in marked)
        _fill(chars, styles, region_slots, lines)

    text = Text(no_wrap=True, overflow="crop", end="")
    for y in range(total_h):
        _append_row(text, chars[y], styles[y])
        text.append("\n")
    text.append(clip("R2 Followers · s2 Shadows · ⌂R2 Fort (★ Fortress) · ♦R Shaper · reverse: Marked Area",
                     total_w), LEGEND)
    return text


def region_row_ends(grid: list[list[str | None]], r: int, c: int) -> bool:
    """Whether the area at (r, c) has a different region below it (an underlined edge)."""
    below = grid[r + 1][c] if r + 1 < len(grid) else None
    return below != grid[r][c]


Token = tuple[str, Style]


def _area_lines(view: View, area_id: str, is_marked: bool) -> list[list[Token]]:
    """The header, then the unit tokens (packed into the remaining lines by ``_fill``)."""
    state = view.state
    words = words_for(state.pack)
    area_def = words.areas[area_id]
    a = rules.area(state, area_id)
    sym = words.symbol(area_def.symbol, name=False)
    head_style = MARKED_NAME if is_marked else NAME
    header: list[Token] = [(w, head_style) for w in f"{sym} {area_def.name}".split()]
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
    return [header, *([tokens] if tokens else [])]


def _cathedral_lines(state) -> list[list[Token]]:
    built = " ".join(state.cathedral_built)
    return [[("Cathedral", Style(bold=True))], [(f"built {built}", Style())]]


def _fill(chars, styles, slots: list[tuple[int, int, int]], groups: list[list[Token]]) -> None:
    """Write the groups into the slots: each group from a new slot, its tokens flowing on to
    later slots. When that does not fit, the groups flow on one after the other; whatever
    still does not fit is cut with an ellipsis."""
    placed = _flow(slots, groups, separate=True)
    if placed is None:
        placed = _flow(slots, [[t for g in groups for t in g]], separate=False)
    if placed is None:
        placed = _flow(slots, groups, separate=True, cut=True) or []
    for (y, x), word, style in placed:
        for k, ch in enumerate(word):
            chars[y][x + k] = ch
            styles[y][x + k] = styles[y][x + k] + style


def _flow(slots, groups, *, separate: bool, cut: bool = False):
    """[((y, x), word, style)] or None when the words do not fit (``cut``: cut instead)."""
    out = []
    i, col = 0, 0
    for g, group in enumerate(groups):
        if separate and g and col:
            i, col = i + 1, 0
        for word, style in group:
            while True:
                if i >= len(slots):
                    if not cut:
                        return None
                    if out:
                        (y, x), last, st = out[-1]
                        out[-1] = ((y, x), last[:-1] + "…", st)
                    return out
                y, x, w = slots[i]
                need = len(word) + (1 if col else 0)
                if col + need <= w:
                    break
                if col == 0:  # longer than a whole slot
                    if not cut:
                        return None
                    word = clip(word, w)
                    break
                i, col = i + 1, 0
            y, x, w = slots[i]
            if col and out and out[-1][2] == style and out[-1][0][0] == y:
                out[-1] = (out[-1][0], out[-1][1] + " " + word, style)  # one run: the space styled too
                col += 1 + len(word)
                continue
            if col:
                col += 1
            out.append(((y, x + col), word, style))
            col += len(word)
    return out


def _append_row(text: Text, chars: list[str], styles: list[Style]) -> None:
    start = 0
    for x in range(1, len(chars) + 1):
        if x == len(chars) or styles[x] != styles[start]:
            text.append("".join(chars[start:x]), styles[start])
            start = x
