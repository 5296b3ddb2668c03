"""The key-hint footer: the keys of the focused widget, the screen and the app, drawn as one line.

Textual's ``Footer`` is a row of one widget per key, composed again whenever the bindings may
have changed and, in a new screen, only after the screen's first bindings signal. So every
screen came up with an empty footer, then removed and mounted a dozen widgets, laid the whole
screen out twice more and drew two more frames (~100 ms more to open the rules at 120x40).
This footer looks the same (Textual's footer colours, each key bold on its own background, the
command palette's key on the right), is right in the screen's first frame, and when the keys
change it draws its one line again: no widget mounted, no layout. The line is drawn as the
panels' are (``DrawnByLine``): through Textual's ``Content`` it cost 4.5 ms of the game's
first frame at 120x40.
"""

from typing import NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widget import Widget

from ..textual_ext.placed import DrawnByLine, PlacedOnce

DIM = Style(dim=True)
BORDER = "▏"  # the command palette key's left border (Textual's ``vkey``): one cell everywhere


class Shown(NamedTuple):
    """One key as the footer shows it."""

    key: str  # the key to simulate when clicked
    display: str
    description: str
    enabled: bool
    tooltip: str


class KeyFooter(DrawnByLine, PlacedOnce, Widget, can_focus=False):
    """The screen's active keys in one line; the command palette's key on the right. Clicking a
    key presses it (a bell if it is disabled)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {
        "key-footer--item",
        "key-footer--key",
        "key-footer--description",
        "key-footer--border",
        "key-footer--hover",
    }
    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        & > .key-footer--item { background: $footer-item-background; }
        & > .key-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .key-footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .key-footer--border { color: $foreground 20%; }
        & > .key-footer--hover { color: $footer-key-foreground; background: $block-hover-background; }
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self._shown: tuple[tuple[Shown, ...], Shown | None] | None = None  # as last drawn
        self._spans: list[tuple[int, int, Shown]] = []  # the cells of each key drawn
        self._hover: Shown | None = None

    def keys(self) -> tuple[tuple[Shown, ...], Shown | None]:
        """The keys shown (one per action, as Textual's footer), and the command palette's."""
        app, active = self.app, self.screen.active_bindings
        actions: dict[str, Shown] = {}
        for _node, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in actions:
                actions[binding.action] = Shown(
                    binding.key, app.get_key_display(binding), binding.description, enabled, tooltip
                )
        palette = active.get(app.COMMAND_PALETTE_BINDING) if app.ENABLE_COMMAND_PALETTE else None
        right = None
        if palette is not None:
            binding, enabled = palette.binding, palette.enabled
            right = Shown(
                binding.key,
                app.get_key_display(binding),
                binding.description,
                enabled,
                binding.tooltip or binding.description,
            )
        return tuple(actions.values()), right

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen) -> None:
        if self.is_attached and screen is self.screen and self.app.screen_stack and self.keys() != self._shown:
            self.refresh()

    def _styles(self) -> dict[str, Style]:
        """The footer's component styles, fetched once a drawing (a dozen keys use them)."""
        return {
            name: self.get_component_rich_style(f"key-footer--{name}")
            for name in ("key", "description", "item", "border", "hover")
        }

    def _label(self, line: Text, shown: Shown, styles: dict[str, Style], *, palette: bool = False) -> None:
        """Append a key as Textual's footer draws it: `` k Description ``; the palette's key as
        ``k Description`` and a space."""
        key_style, description_style = styles["key"], styles["description"]
        if shown == self._hover:
            key_style = description_style = styles["hover"]
        start = len(line)
        line.append(shown.display if palette else f" {shown.display} ", key_style)
        if shown.description:
            line.append(f" {shown.description}" if palette else f"{shown.description} ", description_style)
        if palette:
            line.append(" ", styles["item"])
        if not shown.enabled:
            line.stylize(DIM, start)

    def render(self) -> Text:
        self._shown = left, right = self.keys()
        styles = self._styles()
        width = self.size.width
        line, spans = Text(no_wrap=True, overflow="crop", end=""), []
        for shown in left:
            start = len(line)
            self._label(line, shown, styles)
            spans.append((start, len(line), shown))
        if right is not None:
            label = Text(end="")
            self._label(label, right, styles, palette=True)
            at = max(0, width - len(label) - 1)
            line.truncate(at, pad=True)
            spans = [(a, min(b, at), s) for a, b, s in spans if a < at]
            line.append(BORDER, style=styles["border"])
            spans.append((at + 1, at + 1 + len(label), right))
            line.append_text(label)
        self._spans = spans
        return line

    def _at(self, x: int) -> Shown | None:
        return next((shown for start, end, shown in self._spans if start <= x < end), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        hover = self._at(event.x)
        if hover != self._hover:
            self._hover = hover
            self.tooltip = hover.tooltip or None if hover is not None else None
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        shown = self._at(event.x)
        if shown is None:
            return
        if shown.enabled:
            self.app.simulate_key(shown.key)
        else:
            self.app.bell()
