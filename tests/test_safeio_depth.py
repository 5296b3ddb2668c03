"""``safeio.check_depth`` reads strings, brackets and braces with regular expressions; it decides
exactly as reading every character does (the reference below, the function as first written)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from nctui.games.nightmare_cathedral.content.loader import PACKS_DIR
from nctui.platform.safeio import BadInput, check_depth


def reference_depth(text: str, limit: int) -> str | None:
    """The nesting check character by character: None, or the refusal's words."""
    depth = 0
    quote = ""
    escaped = False
    line_start = True
    for ch in text:
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\" and quote == '"':
                escaped = True
            elif ch == quote or ch == "\n":
                quote = ""
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "[{" and not (ch == "[" and line_start and depth == 0):
            depth += 1
            if depth > limit:
                return f"is nested more than {limit} levels deep"
        elif ch in "]}" and depth > 0:
            depth -= 1
        if ch == "\n":
            line_start = True
        elif not ch.isspace():
            line_start = False
    return None


def fast_depth(text: str, limit: int) -> str | None:
    try:
        check_depth(text, limit)
    except BadInput as exc:
        return str(exc)
    return None


TEXT = st.text(alphabet="\"'[]{}\n\\ \t\r\x0b\x1c\xa0=ab.\u2028", max_size=120)


@settings(max_examples=3000, deadline=None)
@given(TEXT, st.integers(min_value=0, max_value=4))
def test_the_nesting_check_decides_as_reading_every_character(text, limit):
    assert fast_depth(text, limit) == reference_depth(text, limit)


@pytest.mark.parametrize(
    "text, limit, refused",
    [
        ("[[a.b]]\nx = [[1]]\n", 2, False),  # a table header opens no level
        ("x = [[[1]]]", 2, True),
        ('x = "[[[[" ', 1, False),  # inside a string
        ('x = "\\"[[[["', 1, False),  # an escaped quote does not end it
        ("x = '\\' [[", 1, True),  # a literal string has no escapes
        ('x = "open\n[[[', 2, True),  # an unterminated string ends with its line, which starts no header
        ("  [t]\n", 0, False),
    ],
)
def test_the_nesting_check_by_example(text, limit, refused):
    assert (fast_depth(text, limit) is not None) == refused == (reference_depth(text, limit) is not None)


def test_the_content_packs_cards_pass():
    for path in (PACKS_DIR / "base").glob("*.toml"):
        text = path.read_text()
        assert fast_depth(text, 48) is None and reference_depth(text, 48) is None
