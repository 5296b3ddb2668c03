"""Drawings of the base pack (board sides, Action Matrix) from the data."""

from __future__ import annotations

import textwrap

BOX = {
    (0, 0, 1, 1): "─",
    (1, 1, 0, 0): "│",
    (0, 1, 0, 1): "┌",
    (0, 1, 1, 0): "┐",
    (1, 0, 0, 1): "└",
    (1, 0, 1, 0): "┘",
    (1, 1, 0, 1): "├",
    (1, 1, 1, 0): "┤",
    (0, 1, 1, 1): "┬",
    (1, 0, 1, 1): "┴",
    (1, 1, 1, 1): "┼",
    (0, 0, 0, 0): " ",
    (1, 0, 0, 0): "╵",
    (0, 1, 0, 0): "╷",
    (0, 0, 1, 0): "╴",
    (0, 0, 0, 1): "╶",
}


def draw_side(pack, sm, W=13, H=3):
    side = sm.side
    sym = {x.id: x for x in pack.board.symbols}
    rows = [r.split() for r in side.grid.strip().splitlines() if r.strip()]
    R, C = len(rows), len(rows[0])
    by_cell = {a.cell: a for a in side.areas}

    def rid(r, c):
        if 0 <= r < R and 0 <= c < C:
            code = rows[r][c]
            return None if code == "." else code
        return None

    def hedge(r, c):  # edge above cell (r, c)
        a, b = rid(r - 1, c), rid(r, c)
        return int(a != b and not (a is None and b is None))

    def vedge(r, c):  # edge left of cell (r, c)
        a, b = rid(r, c - 1), rid(r, c)
        return int(a != b and not (a is None and b is None))

    Hc, Wc = R * (H + 1) + 1, C * (W + 1) + 1
    canvas = [[" "] * Wc for _ in range(Hc)]
    for r in range(R + 1):
        for c in range(C + 1):
            up = vedge(r - 1, c) if r > 0 else 0
            down = vedge(r, c) if r < R else 0
            left = hedge(r, c - 1) if c > 0 else 0
            right = hedge(r, c) if c < C else 0
            canvas[r * (H + 1)][c * (W + 1)] = BOX[(up, down, left, right)]
            if c < C and hedge(r, c):
                for x in range(W):
                    canvas[r * (H + 1)][c * (W + 1) + 1 + x] = "─"
            if r < R and vedge(r, c):
                for y in range(H):
                    canvas[r * (H + 1) + 1 + y][c * (W + 1)] = "│"

    # Labels: each area's cells in reading order get: name lines, then symbol, then flags.
    def put(r, c, lines):
        for i, ln in enumerate(lines[:H]):
            ln = ln[: W - 2]
            y = r * (H + 1) + 1 + i
            for j, ch in enumerate(ln.center(W - 2)):
                canvas[y][c * (W + 1) + 2 + j] = ch

    seen: dict[str, list[tuple[int, int]]] = {}
    for r in range(R):
        for c in range(C):
            seen.setdefault(rows[r][c], []).append((r, c))
    for code, cells in seen.items():
        if code == ".":
            continue
        if code == "#":
            r0, c0 = min(cells)
            r1, c1 = max(cells)
            y0, y1 = r0 * (H + 1) + 1, r1 * (H + 1) + H
            x0, x1 = c0 * (W + 1) + 1, c1 * (W + 1) + W
            for yy in range(y0, y1 + 1):
                for xx in range(x0, x1 + 1):
                    canvas[yy][xx] = "░"
            mid_y = (y0 + y1) // 2
            word = " CATHEDRAL "
            mid_x = (x0 + x1 + 1) // 2 - len(word) // 2
            for j, ch in enumerate(word):
                canvas[mid_y][mid_x + j] = ch
            # erase inner borders between cathedral cells already absent; fill junction gaps
            continue
        a = by_cell[code]
        name = textwrap.wrap(a.name, W - 2)
        s = sym[a.symbol]
        flags = []
        if a.corner:
            flags.append("CORNER")
        if a.four_players_only:
            flags.append("4P ONLY")
        if a.id in sm.adjacent_cathedral:
            flags.append("near Cath.")
        symbol_line = f"{s.glyph} {s.name}"
        if len(cells) >= 3:
            texts = [name[:3], [symbol_line], flags]
        elif len(cells) == 2:
            texts = [name[:3], [symbol_line] + flags]
        else:
            texts = [name[:1] + [symbol_line] + flags]
        for (r, c), t in zip(cells, texts):
            put(r, c, t)
    # Cathedral fill across internal borders (none drawn since same region) is fine.
    return "\n".join("".join(row).rstrip() for row in canvas)


def draw_matrix(pack, SW=15, RH=4):
    m = pack.matrix
    pos = {}
    label = {}
    for d in m.days:
        pos[d.action] = (d.row, d.col)
        label[d.action] = f"[ {d.name.upper()} ]"
    for n in m.nights:
        pos[n.id] = (n.row, n.col)
        label[n.id] = f"( {n.name} )"
    rows = max(r for r, _ in pos.values()) + 1
    cols = max(c for _, c in pos.values()) + 1
    Hc, Wc = (rows - 1) * RH + 1, cols * SW + 4
    canvas = [[" "] * Wc for _ in range(Hc)]

    def center(k):
        r, c = pos[k]
        return r * RH, c * SW + SW // 2 + 2

    arrows = {d.action: d.arrow for d in m.days}
    heads = {
        (0, 1): "→",
        (0, -1): "←",
        (1, 0): "↓",
        (-1, 0): "↑",
        (1, 1): "↘",
        (1, -1): "↙",
        (-1, 1): "↗",
        (-1, -1): "↖",
    }

    def sgn(x):
        return (x > 0) - (x < 0)

    def line(a, b, arrow):
        (y0, x0), (y1, x1) = center(a), center(b)
        pts = []
        if y1 == y0:
            for x in range(min(x0, x1), max(x0, x1) + 1):
                pts.append((y0, x))
        else:
            n = abs(y1 - y0)
            for i in range(n + 1):
                pts.append((y0 + (y1 - y0) * i // n, round(x0 + (x1 - x0) * i / n)))
        dy, dx = y1 - y0, x1 - x0
        if dy == 0:
            ch = "─"
        elif dx == 0:
            ch = "│"
        elif abs(dx) > 4 * abs(dy):
            ch = "─"
        else:
            ch = "╲" if sgn(dx) == sgn(dy) else "╱"
        for y, x in pts:
            if canvas[y][x] == " ":
                canvas[y][x] = ch
        return pts

    for n in m.nights:
        for d in n.adjacent:
            line(d, n.id, arrows[d] == n.id)
    # labels
    for k in pos:
        y, x = center(k)
        text = label[k]
        x0 = x - len(text) // 2
        for j in range(-1, len(text) + 1):
            if 0 <= x0 + j < Wc:
                canvas[y][x0 + j] = " "
        for j, ch in enumerate(text):
            canvas[y][x0 + j] = ch
    # arrow heads: on each Day -> arrow Night line, the point just outside the night label
    for d in m.days:
        n = d.arrow
        (y0, x0), (y1, x1) = center(d.action), center(n)
        dy, dx = sgn(y1 - y0), sgn(x1 - x0)
        head = heads[(dy, dx)]
        # walk from the night label back towards the day until a line char is found
        horizontal = y1 == y0
        steps = abs(x1 - x0) if horizontal else abs(y1 - y0)
        for i in range(steps, -1, -1):
            if horizontal:
                y, x = y0, x0 + dx * i
            else:
                y, x = y0 + (y1 - y0) * i // steps, round(x0 + (x1 - x0) * i / steps)
            if canvas[y][x] in "─│╲╱":
                canvas[y][x] = head
                break
    return "\n".join("".join(row).rstrip() for row in canvas)
