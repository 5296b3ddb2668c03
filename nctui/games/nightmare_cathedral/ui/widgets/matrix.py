"""The Action Matrix, drawn from the pack's matrix (``matrix.toml``: each space's row and column).

Day spaces read ``[Summon]``, Night spaces ``(Dusk)``; after a space's name come the Dreamers on
it (seat letters, in the seat's colour too) and, in solo, the King's Cultists (``c2``) and ``k+``
on the 2 Day spaces ahead of the King's Dreamer (your Dreamer there: the King conforms). A line
joins each Night space to the Day spaces next to it; an arrowhead (``↘``) marks a Day space's
arrow: the Night space its Dreamer moves to at the end of the turn. The spaces the due decision
lets the viewer choose are in reverse video; with the focus, arrows/hjkl move a cursor
(underlined) and Enter picks the space when it is an option.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive

from nctui.ui.textual_ext.placed import FitsContent, append_cells
from nctui.ui.widgets.common import OptionsPicked, cursor_bindings, nearest, pack_parts

from ...content.schema import Matrix
from ...describe import describe_action, seat_letter, words_for
from ...describe.actions import king_conforms_to
from ...engine.actions import Action
from ...engine.state import GameState
from ...engine.views import View
from .seats import seat_style

LINE = Style(color="#8a8a9a")
HEAD = Style(color="#e8d9a8", bold=True)
DAY = Style(bold=True)
NIGHT = Style(color="#b4a7d6")
CULTISTS = Style(color="#d787ff")
CONFORMS = Style(color="#d787ff", bold=True)
LEGAL = Style(reverse=True, bold=True)
CURSOR = Style(underline=True, bold=True)
HINT = Style(color="#9a9aaa")
CURRENT_DAY = Style(bgcolor="#3a3320")

HEADS = {(1, 1): "↘", (1, -1): "↙", (-1, 1): "↗", (-1, -1): "↖", (1, 0): "↓", (-1, 0): "↑", (0, 1): "→", (0, -1): "←"}
MIN_COLUMN = 12


def option_space(action: Action) -> str:
    """The Matrix space an option chooses ('' for none): a Night space (placing a Dreamer) or a
    Day space (choosing or conforming with an Action)."""
    return getattr(action, "night", "") or getattr(action, "action", "")


def legal_spaces(view: View) -> dict[str, tuple[int, ...]]:
    """Space -> indices of the options of the viewer's due decision that choose it."""
    d = view.state.decision
    out: dict[str, tuple[int, ...]] = {}
    if d is None or d.seat != view.seat:
        return out
    for i, a in enumerate(d.options):
        space = option_space(a)
        if space:
            out[space] = out.get(space, ()) + (i,)
    return out


def positions(matrix: Matrix) -> dict[str, tuple[int, int]]:
    """Space id (a Day space's action, a Night space's id) -> (row, col)."""
    out: dict[str, tuple[int, int]] = {d.action: (d.row, d.col) for d in matrix.days}
    out.update((n.id, (n.row, n.col)) for n in matrix.nights)
    return out


class MatrixView(FitsContent, can_focus=True):
    """Draws the Action Matrix of ``view``; ``cursor`` is the space under the cursor."""

    BINDINGS = cursor_bindings("matrix")

    DEFAULT_CSS = """
    MatrixView { height: auto; width: 100%; }
    """

    view: reactive[View | None] = reactive(None, repaint=False)
    cursor: reactive[str] = reactive("", layout=True)

    def _spaces(self) -> dict[str, tuple[int, int]]:
        return positions(words_for(self.view.state.pack).pack.matrix) if self.view else {}

    def on_focus(self) -> None:
        """The cursor starts on a space the decision offers, else on the viewer's Dreamer."""
        spaces = self._spaces()
        if self.view is not None and self.cursor not in spaces:
            state, seat = self.view.state, self.view.seat
            mine = state.players[seat].dreamer if 0 <= seat < len(state.players) else ""
            self.cursor = next(iter(legal_spaces(self.view)), "") or (mine if mine in spaces else next(iter(spaces)))
        self.refresh(layout=True)

    def on_blur(self) -> None:
        self.refresh(layout=True)

    def action_move(self, dy: int, dx: int) -> None:
        spaces = self._spaces()
        if not spaces:
            return
        if self.cursor not in spaces:
            self.cursor = next(iter(spaces))
            return
        self.cursor = nearest({k: (float(r), float(c)) for k, (r, c) in spaces.items()}, self.cursor, dy, dx)

    def action_pick(self) -> None:
        if self.view is None or not self.cursor:
            return
        name = words_for(self.view.state.pack).space(self.cursor)
        self.post_message(OptionsPicked(name, legal_spaces(self.view).get(self.cursor, ())))

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        return render_matrix(self.view, self.content_width or 80, self.cursor if self.has_focus else "")

    def render_key(self) -> tuple[object, ...] | None:
        if self.view is None or self.has_focus:  # the caption says what the cursor's space chooses
            return None
        return matrix_key(self.view)


def _label(state: GameState, space: str, is_day: bool) -> list[tuple[str, Style]]:
    """The space's name, then its Dreamers and (solo) the King's Cultists, as styled runs."""
    w = words_for(state.pack)
    runs: list[tuple[str, Style]] = [
        (f"[{w.day_short(space)}]" if is_day else f"({w.space(space)})", DAY if is_day else NIGHT)
    ]
    dreamers = [pl.seat for pl in state.players if pl.dreamer == space]
    king = state.king
    if king is not None and is_day and king.dreamer == space and king.seat not in dreamers:
        dreamers.append(king.seat)
    for seat in dreamers:
        runs.append((seat_letter(state, seat), seat_style(state, seat)))
    if king is not None and is_day:
        rondel = w.pack.matrix.rondel
        n = king.day_cultists[rondel.index(space)] if len(king.day_cultists) == len(rondel) else 0
        if n:
            runs.append((f"c{n}", CULTISTS))
        if king_conforms_to(state, space):
            runs.append(("k+", CONFORMS))
    return runs


def _edges(matrix: Matrix) -> list[tuple[str, str, bool]]:
    """(Day space, Night space, whether it is the Day space's arrow)."""
    arrows = {d.action: d.arrow for d in matrix.days}
    return [(d, n.id, arrows.get(d) == n.id) for n in matrix.nights for d in n.adjacent]


def matrix_key(view: View) -> tuple[object, ...]:
    """All that ``render_matrix`` reads of ``view`` with no cursor."""
    state, king = view.state, view.state.king
    return (
        state.pack,
        state.config.seats,
        state.day,
        tuple((pl.seat, pl.colour, pl.dreamer) for pl in state.players),
        None if king is None else (king.seat, king.dreamer, king.day_cultists, state.active, state.phase),
        tuple(legal_spaces(view).items()),
    )


def render_matrix(view: View, width: int, cursor: str = "") -> Text:
    state = view.state
    w = words_for(state.pack)
    matrix = w.pack.matrix
    pos = positions(matrix)
    rows = max(r for r, _ in pos.values()) + 1
    cols = max(c for _, c in pos.values()) + 1
    cw = max(MIN_COLUMN, width // cols)
    total_w = max(width, cw * cols)
    height = rows * 2 - 1
    chars = [[" "] * total_w for _ in range(height)]
    styles = [[Style()] * total_w for _ in range(height)]

    def centre(space: str) -> tuple[int, int]:
        r, c = pos[space]
        return r * 2, c * cw + cw // 2

    # Labels first (their extents), then the lines between them.
    legal = legal_spaces(view)
    days = {d.action for d in matrix.days}
    extents: dict[str, tuple[int, int, int]] = {}
    for space in pos:
        base = (
            (LEGAL if space in legal else Style())
            + (CURRENT_DAY if space == state.day else Style())
            + (CURSOR if space == cursor else Style())
        )
        extents[space] = _draw_label(chars, styles, centre(space), _label(state, space, space in days), base)
    for day, night, arrow in _edges(matrix):
        _connect(extents[day], extents[night], centre(day), centre(night), arrow, chars, styles)

    text = Text(no_wrap=True, overflow="crop", end="")
    for y in range(height):
        append_cells(text, chars[y], styles[y])
        text.append("\n")
    text.append_text(_caption(view, cursor, legal, width))
    return text


def _draw_label(chars, styles, at: tuple[int, int], runs: list[tuple[str, Style]], base: Style):
    """Write the runs centred on ``at`` (kept within the row), a space between them; returns
    the label's extent (y, first x, x after the last)."""
    y, x = at
    width = len(chars[y])
    length = sum(len(t) for t, _ in runs) + len(runs) - 1
    x0 = min(max(x - length // 2, 0), width - length)
    x1 = x0
    for k, (t, st) in enumerate(runs):
        for ch in (" " if k else "") + t:
            if 0 <= x1 < width:
                chars[y][x1], styles[y][x1] = ch, base + st if ch != " " else base
            x1 += 1
    return y, x0, x0 + length


def _connect(a_ext, b_ext, a: tuple[int, int], b: tuple[int, int], arrow: bool, chars, styles) -> None:
    """A line from Day space ``a`` to Night space ``b``, with an arrowhead next to ``b`` when it
    is the Day space's arrow."""
    (y0, x0), (y1, x1) = a, b
    sy, sx = (y1 > y0) - (y1 < y0), (x1 > x0) - (x1 < x0)
    if y0 == y1:  # side by side: a dash run between the labels
        left, right = (a_ext, b_ext) if x0 < x1 else (b_ext, a_ext)
        cells = list(range(left[2], right[1]))
        cells = cells[1:-1] if len(cells) > 2 else cells  # a space each side when there is room
        for x in cells:
            _set(chars, styles, y0, x, "─", LINE)
        if arrow and cells:
            _set(chars, styles, y0, cells[-1] if sx > 0 else cells[0], HEADS[(0, sx)], HEAD)
        return
    steps = abs(y1 - y0)
    points = []
    for k in range(1, steps):
        y = y0 + sy * k
        if chars[y][min(max(round(x0 + (x1 - x0) * k / steps), 0), len(chars[y]) - 1)] != " " and y % 2 == 0:
            continue  # a label row: the line passes under the label
        points.append((y, round(x0 + (x1 - x0) * k / steps)))
    glyph = "│" if sx == 0 else ("╲" if sx == sy else "╱")
    for y, x in points:
        _set(chars, styles, y, x, glyph, LINE)
    if arrow and points:
        y, x = points[-1]
        _set(chars, styles, y, x, HEADS[(sy, sx)], HEAD)


def _set(chars, styles, y: int, x: int, ch: str, style: Style) -> None:
    if 0 <= y < len(chars) and 0 <= x < len(chars[y]) and chars[y][x] in " │╲╱─":
        chars[y][x], styles[y][x] = ch, style


def _caption(view: View, cursor: str, legal: dict[str, tuple[int, ...]], width: int) -> Text:
    """The space under the cursor in words, or a legend."""
    state = view.state
    t = Text(end="")
    if cursor:
        t.append(space_words(state, cursor))
        options = state.decision.options if state.decision is not None else ()
        picks = legal.get(cursor, ())
        if len(picks) == 1:
            t.append(f"  Enter: {describe_action(options[picks[0]], state)}", Style(bold=True))
        elif picks:
            t.append(f"  Enter: {len(picks)} options", Style(bold=True))
        return t
    parts = [
        "[Day] (Night)",
        "↘ Dreamer's next space",
        "c2 the King's Cultists" if state.king else "",
        "k+ the King conforms" if state.king else "",
        "reverse: choosable" if legal else "",
        "m: cursor",
    ]
    t.append(pack_parts(parts, width)[0], HINT)  # the first line: the parts most needed
    return t


def space_words(state: GameState, space: str) -> str:
    """'Dusk (Night space): next to Ritual, Summon; Dreamers: Red.'"""
    w = words_for(state.pack)
    m = w.pack.matrix
    dreamers = [pl.colour.capitalize() for pl in state.players if pl.dreamer == space]
    day = next((d for d in m.days if d.action == space), None)
    if day is not None:
        if state.king is not None and state.king.dreamer == space:
            dreamers.append("the King")
        near = [n.name for n in m.nights if space in n.adjacent]
        parts = [f"{day.name} (Day space): arrow to {w.space(day.arrow)}; next to {', '.join(near)}"]
        if state.king is not None:
            n = state.king.day_cultists[m.rondel.index(space)] if state.king.day_cultists else 0
            parts.append(f"{n} Cultist{'s' if n != 1 else ''}")
            if king_conforms_to(state, space):
                parts.append("the King conforms if your Dreamer takes it (ahead of its Dreamer)")
    else:
        night = next(n for n in m.nights if n.id == space)
        parts = [f"{night.name} (Night space): next to {', '.join(w.day_short(d) for d in night.adjacent)}"]
    parts.append("Dreamers: " + (", ".join(dreamers) if dreamers else "none"))
    return "; ".join(parts) + "."
