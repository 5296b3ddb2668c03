"""Every glyph the UI draws takes the same number of cells for Textual (Rich) as for the terminal.

Textual lays a line out with ``rich.cells.cell_len``; the terminal (tmux, glibc's ``wcwidth``)
advances the cursor by its own count. A glyph they disagree on shifts the rest of the line: stray
borders, doubled scrollbars. Symbols that Unicode 16 made wide (the trigram ☰ among them) are 2
cells for Rich and the newest ``wcwidth`` but still 1 for older terminals, so no drawn glyph may be
wide at all: each must be 1 cell for both (or 0 for both: a combining mark).

The glyphs are collected from every file the words on screen come from: the UI modules (widgets,
screens, the theme, the stylesheet, the rules summary), ``describe/``, the content pack (area,
symbol, suit and card names) and the companion games (their words and pieces).
"""

from __future__ import annotations

from pathlib import Path

import wcwidth
from rich.cells import cell_len

ROOT = Path(__file__).resolve().parent.parent / "nctui"
SOURCES = ("ui/**/*.py", "ui/**/*.tcss", "ui/**/*.toml", "games/**/*.py", "games/**/*.toml")


def drawn_glyphs() -> dict[str, Path]:
    """Every non-ASCII character of the sources, with a file it is in."""
    found: dict[str, Path] = {}
    for pattern in SOURCES:
        for path in sorted(ROOT.glob(pattern)):
            for ch in path.read_text(encoding="utf-8"):
                if ord(ch) > 127:
                    found.setdefault(ch, path)
    return found


def test_the_scan_finds_the_glyphs_of_the_board_the_cards_and_the_content():
    glyphs = drawn_glyphs()
    assert {"⚔", "⛨", "⌂", "♚", "◇", "✦", "♛", "†"} <= glyphs.keys()  # UI modules and the pack's suits
    assert len(glyphs) > 40


def test_every_glyph_is_as_wide_for_rich_as_for_the_terminal():
    wrong = [
        f"{ch!r} U+{ord(ch):04X} in {path.relative_to(ROOT.parent)}: Rich {cell_len(ch)}, wcwidth {wcwidth.wcwidth(ch)}"
        for ch, path in drawn_glyphs().items()
        if not (cell_len(ch) == wcwidth.wcwidth(ch) and cell_len(ch) in (0, 1))
    ]
    assert not wrong, "glyphs that terminals draw at another width:\n" + "\n".join(wrong)


def test_a_wide_glyph_fails_the_check():
    """The check itself: the trigram once used for the Ladder suit is wide for Rich."""
    assert cell_len("☰") == 2 and not (cell_len("☰") == wcwidth.wcwidth("☰") and cell_len("☰") in (0, 1))
