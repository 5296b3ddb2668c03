"""The command palette (ctrl+p): every key of the screen it was opened from, as a command.

Commands are read from the screen's own bindings (their descriptions, with the key shown as
help), so a key added to a screen is in the palette without a list kept here; a screen may
add commands that have no key with a ``palette_commands()`` method yielding
(title, help, callback).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

Command = tuple[str, str, Callable[[], object]]


def screen_commands(screen) -> Iterator[Command]:
    """(title, help, callback) for each described binding of ``screen`` itself (not of its
    widgets: the decision's digits are not commands), then its ``palette_commands()``."""
    seen: set[str] = set()
    for active in screen.active_bindings.values():
        binding = active.binding
        if active.node is not screen or not active.enabled or not binding.description or binding.action in seen:
            continue
        seen.add(binding.action)
        key = binding.key_display or screen.app.get_key_display(binding)
        yield binding.description, f"key: {key}", partial(screen.run_action, binding.action)
    extra = getattr(screen, "palette_commands", None)
    if callable(extra):
        yield from extra()


class ScreenCommands(Provider):
    """The keys of the screen the palette was opened from."""

    def _commands(self) -> list[Command]:
        return list(screen_commands(self.screen))

    async def discover(self) -> Hits:
        for title, help_text, callback in self._commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._commands():
            score = max(matcher.match(title), matcher.match(help_text))
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)
