"""Drawing the city of Cathedral: the 10x10 squares with coordinates, each building in its side's
colour with its two-letter code (Light upper case, Dark lower case), property shaded by owner,
and the building being placed previewed where it would land: green ``<>`` where it may go, red
``XX`` where it may not (over a building, its letters stay, in red: the building just placed
stays in sight under the next preview; the last building placed is underlined). ASCII only, so
every terminal draws the same widths; the glyphs, not only the colours, tell everything apart
(``--mono``)."""

from __future__ import annotations

from rich.text import Text

from ..state import CathedralState
from ..words import CODES, COLUMNS

SIZE = 10

STYLES = {
    "light": "bold #1a1a1a on #e8d7a8",
    "dark": "bold #f5ead0 on #7a4a24",
    "cathedral": "bold #ffffff on #5b4f86",
    "light_land": "#b8a878 on #3b3526",
    "dark_land": "#b08a68 on #33231a",
    "empty": "#6a6a6a",
    "ok": "bold #0b0b0b on #5fd35f",
    "bad": "bold #ffffff on #d03030",
    "label": "#9a9a9a",
}


def city_text(view: CathedralState, preview: int = 0, preview_ok: bool = True) -> Text:
    """The city as text: a header of column letters, then one line per row."""
    owner: dict[int, tuple[str, str]] = {}
    last = view.buildings[-1].mask if view.buildings else 0
    for b in view.buildings:
        code = CODES[b.id]
        kind = "cathedral" if b.colour is None else ("light" if b.colour == 0 else "dark")
        code = code.upper() if b.colour == 0 else code.lower() if b.colour == 1 else code
        mask, i = b.mask, 0
        while mask:
            if mask & 1:
                owner[i] = (code, kind)
            mask >>= 1
            i += 1
    text = Text("   " + " ".join(COLUMNS) + "\n", style=STYLES["label"])
    for row in range(SIZE):
        text.append(f"{row + 1:>2} ", style=STYLES["label"])
        for col in range(SIZE):
            i = row * SIZE + col
            bit = 1 << i
            if preview & bit and i in owner:  # the building under the preview stays in sight
                text.append(owner[i][0], style=STYLES["bad"])
            elif preview & bit:
                text.append("<>" if preview_ok else "XX", style=STYLES["ok" if preview_ok else "bad"])
            elif i in owner:
                code, kind = owner[i]
                text.append(code, style=STYLES[kind] + (" underline" if bit & last else ""))
            elif view.territory[0] & bit:
                text.append("--", style=STYLES["light_land"])
            elif view.territory[1] & bit:
                text.append("~~", style=STYLES["dark_land"])
            else:
                text.append(". ", style=STYLES["empty"])
        if row < SIZE - 1:
            text.append("\n")
    return text
