"""Each CSS source parsed once per process and shared by every app the process runs.

Textual caches parsed CSS per ``Stylesheet``, that is per app (and ``Stylesheet.reparse`` starts a
fresh one). A client process forked from the fork server (``net.forkserver``) runs one app and
would parse its stylesheet and every widget's default CSS again, a third of the time to its first
frame. ``share_parsed_css`` keeps the rule sets of each (variables, source) process-wide, so the
fork server's warm-up run parses them once and every forked client starts with them.
"""

from __future__ import annotations

from typing import Any

from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet

LIMIT = 1024  # sources kept (a theme change adds a set); past it the cache starts again
_parsed: dict[tuple[Any, ...], list[RuleSet]] = {}


def share_parsed_css() -> None:
    """Make every ``Stylesheet`` of this process share parsed rule sets (once; idempotent)."""
    original = Stylesheet._parse_rules
    if getattr(original, "shared", False):
        return

    def parse_rules(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                    tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
        # the variables are substituted while parsing: they are part of what was parsed
        key = (tuple(sorted(self._variables.items())), css, read_from, is_default_rules, tie_breaker, scope)
        rules = _parsed.get(key)
        if rules is None:
            rules = original(self, css, read_from, is_default_rules, tie_breaker, scope)
            if len(_parsed) >= LIMIT:
                _parsed.clear()
            _parsed[key] = rules
        return rules

    parse_rules.shared = True  # type: ignore[attr-defined]
    Stylesheet._parse_rules = parse_rules  # type: ignore[method-assign]


def parsed_sources() -> int:
    """How many parsed sources this process shares."""
    return len(_parsed)
