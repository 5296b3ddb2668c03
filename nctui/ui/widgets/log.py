"""The game log: one line per event, in plain words. Not focusable, so the arrow keys stay
with the decision list; scroll it with the mouse wheel."""

from __future__ import annotations

from textual.widgets import RichLog


class GameLog(RichLog, can_focus=False):
    DEFAULT_CSS = """
    GameLog { height: 1fr; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, max_lines=2000, **kwargs)
