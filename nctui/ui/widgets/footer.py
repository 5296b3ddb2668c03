"""The key-hint footer, composed again only when the keys it shows change.

Textual's ``Footer`` composes all its keys again whenever the bindings may have changed: every
change of focus and every return to a screen (closing the hand-off, a dialog). Each time it
removes and mounts a dozen widgets, which lays the whole screen out twice more and draws two
more frames after the one that mattered (~100 ms after a hand-off at 120x40).
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer


class StableFooter(Footer):
    """A ``Footer`` that keeps its keys while the keys it would show are the same."""

    _shown: tuple[object, ...] | None = None  # what the last compose showed

    def _keys(self) -> tuple[object, ...]:
        """What the footer shows: each shown binding (with whether it is enabled and its
        tooltip), and the command palette's key."""
        active = self.screen.active_bindings
        shown: Iterable[object] = (
            (b.key, b.description, b.action, b.group, b.key_display, enabled, tooltip)
            for _node, b, enabled, tooltip in active.values() if b.show)
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        return (*shown, (palette[1].key, palette[2]) if palette is not None else None,
                self.show_command_palette, self.app.ENABLE_COMMAND_PALETTE)

    def bindings_changed(self, screen: Screen) -> None:
        if not self.app.screen_stack:
            return  # between the screens of a switch (leaving a game): no keys to ask about
        if self._shown is not None and self.is_attached and screen is self.screen and screen.app.app_focus:
            keys = self._keys()
            if keys == self._shown:
                return
            self._shown = keys  # what the compose asked for will show: a second signal before it asks nothing
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        self._shown = self._keys() if self._bindings_ready else None
        yield from super().compose()
