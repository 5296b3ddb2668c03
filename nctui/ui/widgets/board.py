"""The board, drawn as text from the pack's grid.

Each grid cell becomes a block of ``cell_width`` x ``CELL_LINES`` characters. Neighbouring
cells of one area merge into one region; a ``│`` separates areas side by side and an underline
separates areas one above the other (so the map costs no line for borders: 12 lines for 6 rows). Each
area shows, in its own cells: its symbol (glyph and letter) and name, then its units:

    R2 B1    Followers per seat: the seat's letter and count (in the seat's colour too)
    s2       Shadows
    ⌂R2★     a Fort of Red with 2 levels; ★ marks a Fortress
    ♦R       Red's Shaper
    N3       Nightmare 3
    ♚R       Red controls the area (shown when other units or a Fort are there)

The Cathedral space shows its pieces, the Nightmares in it and the devoured units per side.
Marked Areas (the symbol under the Turn marker) are drawn in reverse video on a tinted
background, so the mark does not rely on colour either; the areas the due decision offers
have their name underlined (and a tint). With the focus, arrows/hjkl move a cursor over the
areas (the line under the map tells what is there) and Enter picks the area.
"""

from __future__ import annotations

from functools import lru_cache

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive

from ...content.loader import SideMap, get_pack
from ...describe import describe_action, seat_letter, seat_name, words_for
from ...engine.actions import Action
from ...engine.facts import IN_CATHEDRAL, NO_SIDE, SHADOWS_SIDE, Facts
from ...engine.state import AreaState, GameState
from ...engine.views import View
from .common import FitsContent, OptionsPicked, append_cells, clip, cursor_bindings, nearest, pack_parts, seat_style

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
NIGHTMARE = Style(color="#ff87af", bold=True)
LEGAL = Style(bgcolor="#20384a", bold=True)  # an option of the due decision
CURSOR = Style(bgcolor="#2f5f8f", bold=True)


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
    for cell_region, r, c in sm.cells:
        grid[r][c] = cell_region
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
    cursor: reactive[str] = reactive("", layout=True)

    class CursorMoved(Message):
        """The area under the cursor changed (``note``: it in words; None: no cursor)."""

        def __init__(self, note: Text | None) -> None:
            self.note = note
            super().__init__()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.view is None or self.facts is None:
            return 1
        sm = _side(self.view.state.pack, self.view.state.board_side)
        return sm.rows * CELL_LINES + len(_captions(self.view, self.facts, self._cursor(), width))

    def _cursor(self) -> str:
        return self.cursor if self.has_focus else ""

    def _centres(self) -> dict[str, tuple[float, float]]:
        return centres(self.view.state.pack, self.view.state.board_side) if self.view else {}

    def _note(self) -> Text | None:
        return _cursor_note(self.view, self.facts, self.cursor)

    def watch_view(self) -> None:
        if self.has_focus:
            self.post_message(self.CursorMoved(self._note()))

    def watch_cursor(self) -> None:
        if self.has_focus and self.view is not None:
            self.post_message(self.CursorMoved(self._note()))

    def on_focus(self) -> None:
        """The cursor starts on an area the decision offers, else on the viewer's Shaper."""
        if self.view is not None and self.cursor not in self._centres():
            state, seat = self.view.state, self.view.seat
            shaper = state.players[seat].shaper if 0 <= seat < len(state.players) else ""
            self.cursor = next(iter(legal_areas(self.view)), "") or shaper or CATHEDRAL
        self.post_message(self.CursorMoved(self._note()))
        self.refresh(layout=True)

    def on_blur(self) -> None:
        self.post_message(self.CursorMoved(None))
        self.refresh(layout=True)

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
        grid, cw, _ = _layout(self.view.state.pack, self.view.state.board_side, self.size.width or 80)
        row, col = event.y // CELL_LINES, (event.x - 1) // (cw + 1)
        if 0 <= row < len(grid) and 0 <= col < len(grid[row]) and grid[row][col] is not None:
            self.cursor = grid[row][col]

    def render(self) -> Text:
        if self.view is None or self.facts is None:
            return Text("")
        return render_board(self.view, self.facts, self.size.width or 80, self._cursor())


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


def render_board(view: View, facts: Facts, width: int, cursor: str = "") -> Text:
    state = view.state
    words = words_for(state.pack)
    grid, cw, slots = _layout(state.pack, state.board_side, width)
    rows, cols = len(grid), len(grid[0])
    total_w = cols * (cw + 1) + 1
    total_h = rows * CELL_LINES
    chars = [[" "] * total_w for _ in range(total_h)]
    styles: list[list[Style]] = [[Style()] * total_w for _ in range(total_h)]

    in_play = {a.id: a for a in state.areas}
    marked = facts.marked_areas
    legal = legal_areas(view)

    def base(region: str | None) -> Style:
        if region is None:
            return Style()
        st = CATHEDRAL_STYLE if region == CATHEDRAL else COVERED if region not in in_play else \
            MARKED if region in marked else Style()
        if region in legal:
            st += LEGAL
        if region == cursor:
            st += CURSOR
        return st

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
            lines = _area_lines(view, facts, region, region in marked, region in legal)
        _fill(chars, styles, region_slots, lines)

    text = Text(no_wrap=True, overflow="crop", end="")
    for y in range(total_h):
        append_cells(text, chars[y], styles[y])
        text.append("\n")
    text.append_text(Text("\n", end="").join(_captions(view, facts, cursor, total_w)))
    return text


def _captions(view: View, facts: Facts, cursor: str, width: int) -> list[Text]:
    """The lines under the map: the area under the cursor (or the legend), then the Reward
    tiles of Divergent Paths when there are any."""
    state = view.state
    lines: list[Text] = []
    if cursor:
        lines.append(_cursor_text(view, facts, cursor))
    else:
        king = f"{seat_letter(state, state.king.seat)}: the King" if state.king is not None else ""
        parts = ["R2 Followers", "s2 Shadows", "⌂R2 Fort (★ Fortress)", "♦R Shaper", "N3 Nightmare", "♚R controls",
                 king, "reverse: Marked Area", "underlined: an option", "b: cursor"]
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
    state = view.state
    t = Text("▶ ", Style(bold=True), end="")
    if region == CATHEDRAL:
        t.append("the Cathedral: " + " ".join(tok for tok, _ in _flat(_cathedral_lines(state))[1:]))
    else:
        t.append_text(area_words(state, facts, region))
    picks = legal_areas(view).get(region, ())
    options = state.decision.options if state.decision is not None else ()
    if len(picks) == 1:
        t.append(f" · Enter: {describe_action(options[picks[0]], state)}", Style(bold=True))
    elif picks:
        t.append(f" · Enter: one of {len(picks)} options", Style(bold=True))
    return t


def _flat(groups: list[list[Token]]) -> list[Token]:
    return [tok for g in groups for tok in g]


def area_words(state: GameState, facts: Facts, area_id: str) -> Text:
    """'Bell Hollow (☾M Moon): R2 s1, controlled by Red; next to …' for the cursor."""
    w = words_for(state.pack)
    if area_id not in {a.id for a in state.areas}:
        return Text(f"{w.area(area_id)}: covered in this player count")
    known = facts.area(area_id)
    t = Text(f"{w.area(area_id)} ({w.symbol(w.areas[area_id].symbol)})", Style(bold=True), end="")
    units = [tok for tok, _ in _unit_tokens(state, facts, area_id)]
    t.append(": " + (" ".join(units) if units else "empty"))
    owner = known.controller
    t.append("; " + ("no one controls it (a tie)" if owner == NO_SIDE else
                     "the Shadows control it" if owner == SHADOWS_SIDE else
                     f"{seat_name(state, owner)} controls it"))
    near = ", ".join(w.area(x) for x in known.neighbours)
    cath = " and the Cathedral" if known.by_cathedral else ""
    t.append(f"; next to {near}{cath}")
    return t


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
    header: list[Token] = [(w, head_style) for w in f"{sym} {area_def.name}".split()]
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
    lines: list[list[Token]] = [[("Cathedral", Style(bold=True)),
                                 (f"{built}/{built + len(state.cathedral_track)}", Style())]]
    here = [f"N{n}" for n, where in zip(state.nightmares, state.nightmare_at) if where == IN_CATHEDRAL]
    if here:
        lines.append([(tok, NIGHTMARE) for tok in here])
    devoured = [(f"{seat_letter(state, pl.seat)}{pl.devoured}", seat_style(state, pl.seat))
                for pl in state.players if pl.devoured]
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


def _flow(slots: list[tuple[int, int, int]], groups: list[list[Token]], *, separate: bool,
          cut: bool = False) -> list[tuple[tuple[int, int], str, Style]] | None:
    """[((y, x), word, style)] or None when the words do not fit (``cut``: cut instead)."""
    out: list[tuple[tuple[int, int], str, Style]] = []
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
