"""Each CSS source parsed once per process and shared by every app the process runs, and kept
between runs of `nctui play` in the user's cache folder.

Textual caches parsed CSS per ``Stylesheet``, that is per app (and ``Stylesheet.reparse`` starts a
fresh one). A client process forked from the fork server (``net.forkserver``) runs one app and
would parse its stylesheet and every widget's default CSS again, a third of the time to its first
frame. ``share_parsed_css`` keeps the rule sets of each (variables, source) process-wide, so the
fork server's warm-up run parses them once and every forked client starts with them.

A terminal app started on its own (`nctui play`) parses them once per run: ~20 ms of the ~250 ms
from running the app to its first frame. ``load_parsed_css`` reads the rule sets the last run
kept (a pickle, read back in ~5 ms) and ``save_parsed_css`` keeps those this run used, when it
had to parse any (the app saves them once it has settled, and again as it ends if it parsed
more). The file holds the stamp it was made for (nctui's and Python's versions, Textual's
files), and each rule set is kept by its source: a changed stylesheet is parsed afresh. The
file is written and read only by the user's own nctui in the user's own cache folder (as
Python's ``.pyc`` files are), and read only if the user owns it and no one else may write it;
anything wrong with it (missing, unreadable, another format or stamp, another owner) means
parsing, never an error.
"""

from __future__ import annotations

import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

import textual
import textual.css.model as textual_model
import textual.css.styles as textual_styles
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet

from nctui import __version__
from nctui.platform.safeio import read_own, stamp, stamp_name

LIMIT = 1024  # sources kept (a theme change adds a set); past it the cache starts again
MAX_BYTES = 4 * 1024 * 1024  # a cache file larger than this is not read
FORMAT = 3  # of the cache file: (its stamp, its rule sets by key)
_parsed: dict[tuple[Any, ...], list[RuleSet]] = {}
_used: set[tuple[Any, ...]] = set()  # the sources this process asked for
_fresh = 0  # sources this process had to parse


def _variables_key(variables: dict[str, str]) -> str:
    """The CSS variables as one string, made once per dict (Textual replaces the dict, never
    changes it): a key of their sorted pairs made at every source, hashed at every lookup, cost
    ~14 ms of a start-up, nearly what parsing does."""
    known = _variable_keys.get(id(variables))
    if known is not None and known[0] is variables:
        return known[1]
    if len(_variable_keys) >= 64:
        _variable_keys.clear()
    key = "\n".join(f"{name}\t{value}" for name, value in sorted(variables.items()))
    _variable_keys[id(variables)] = (variables, key)
    return key


_variable_keys: dict[int, tuple[dict[str, str], str]] = {}


def share_parsed_css() -> None:
    """Make every ``Stylesheet`` of this process share parsed rule sets (once; idempotent)."""
    original = Stylesheet._parse_rules
    if getattr(original, "shared", False):
        return

    def parse_rules(
        self: Stylesheet,
        css: str,
        read_from: Any,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        # the variables are substituted while parsing: they are part of what was parsed
        key = (_variables_key(self._variables), css, read_from, is_default_rules, tie_breaker, scope)
        global _fresh
        rules = _parsed.get(key)
        if rules is None:
            rules = original(self, css, read_from, is_default_rules, tie_breaker, scope)
            if len(_parsed) >= LIMIT:
                _parsed.clear()
                _used.clear()
            _parsed[key] = rules
            _fresh += 1
        _used.add(key)
        return rules

    parse_rules.shared = True  # type: ignore[attr-defined]
    Stylesheet._parse_rules = parse_rules  # type: ignore[method-assign]


def parsed_sources() -> int:
    """How many parsed sources this process shares."""
    return len(_parsed)


def _stamp() -> str | None:
    """What the kept rule sets are valid for (``safeio.stamp``): the cache's format, nctui's and
    Python's versions, and the files of the parsed rule sets' classes, their times and sizes
    (``textual.__version__`` reads the package's metadata: ~20 ms). None when Textual's files
    cannot be looked at."""
    try:
        return stamp(
            [m.__file__ or "" for m in (textual, textual_model, textual_styles)],
            f"{FORMAT} {__version__} {sys.version}",
        )
    except OSError:
        return None


def cache_file() -> Path | None:
    """Where `nctui play` keeps parsed CSS: the user's cache folder (``content.cache``), a name
    for this stamp (``_stamp``); None when Textual's files cannot be looked at (then nothing is
    kept)."""
    from nctui.platform.safeio import cache_dir

    key = _stamp()
    return None if key is None else cache_dir() / stamp_name("css-", key)


def load_parsed_css(path: Path | None) -> int:
    """Share the rule sets kept in ``path`` (``save_parsed_css``); how many sources it held
    (0 for a missing or bad file, or one kept for another stamp: those sources are parsed as
    they are needed)."""
    if path is None:
        return 0
    try:
        key, kept = pickle.loads(read_own(path, MAX_BYTES))
    except Exception:  # noqa: BLE001 - a cache: anything wrong with it means parsing again
        return 0
    if (
        key != _stamp()
        or not isinstance(kept, dict)
        or not all(isinstance(k, tuple) and isinstance(v, list) for k, v in kept.items())
    ):
        return 0
    _parsed.update(kept)
    return len(kept)


def save_parsed_css(path: Path | None) -> bool:
    """Keep the rule sets this process used in ``path`` (atomically), if it had to parse any
    since it last kept them; whether it wrote. Errors are ignored: the next run parses again."""
    global _fresh
    if not _fresh or path is None:
        return False
    used = {key: _parsed[key] for key in _used if key in _parsed}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".css-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump((_stamp(), used), f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except (OSError, pickle.PicklingError):
        return False
    _fresh = 0
    return True
