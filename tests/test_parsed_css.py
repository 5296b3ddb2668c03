"""The CSS parsed by one run of `nctui play`, kept for the next (ui/parsed_css.py)."""

from __future__ import annotations

import asyncio
import sys

import pytest
from textual.css.stylesheet import Stylesheet

from nctui.games.nightmare_cathedral.engine import GameConfig
from nctui.ui.app import create_app
from nctui.ui.textual_ext import parsed_css
from tests.helpers import present, wait_for

SIZE = (80, 24)


@pytest.fixture
def shared(monkeypatch):
    """Parsed CSS shared in this test only: its own tables, and Textual's parser given back."""
    monkeypatch.setattr(Stylesheet, "_parse_rules", Stylesheet._parse_rules)
    monkeypatch.setattr(parsed_css, "_parsed", {})
    monkeypatch.setattr(parsed_css, "_used", set())
    monkeypatch.setattr(parsed_css, "_fresh", 0)
    parsed_css.share_parsed_css()


def _screen_text(tmp_path) -> str:
    """The game screen as drawn, in text."""

    async def go():
        app = create_app(GameConfig(players=2, seed=1), save_dir=tmp_path, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            return app.export_screenshot()

    return asyncio.run(go())


def test_the_css_a_run_parsed_is_read_back_by_the_next_and_draws_the_same(shared, tmp_path):
    path = tmp_path / "cache" / "css.pickle"
    first = _screen_text(tmp_path)
    assert parsed_css._fresh > 0
    assert parsed_css.save_parsed_css(path) and path.exists()
    assert not parsed_css.save_parsed_css(path)  # nothing parsed since: not written again
    used = set(parsed_css._used)

    # the next run: nothing parsed yet, the file read back
    parsed_css._parsed.clear()
    parsed_css._used.clear()
    assert parsed_css.load_parsed_css(path) == len(used)
    again = _screen_text(tmp_path)
    assert parsed_css._fresh == 0  # every source came from the file
    assert again == first


@pytest.mark.parametrize("content", [b"", b"not a pickle", b"\x80\x05K\x01.", b"\x80\x05]\x94."])
def test_a_bad_css_cache_is_ignored_and_the_css_parsed(shared, tmp_path, content):
    path = tmp_path / "css.pickle"
    path.write_bytes(content)
    assert parsed_css.load_parsed_css(path) == 0
    assert parsed_css.load_parsed_css(tmp_path / "missing.pickle") == 0
    _screen_text(tmp_path)
    assert parsed_css._fresh > 0


def test_a_css_cache_kept_for_another_stamp_is_not_read(shared, monkeypatch, tmp_path):
    """Kept by another version (of nctui, of Python, of Textual's files): the name may be the
    same, the stamp inside is not."""
    path = tmp_path / "css.pickle"
    _screen_text(tmp_path)
    assert parsed_css.save_parsed_css(path)
    parsed_css._parsed.clear()
    with monkeypatch.context() as other:
        other.setattr(parsed_css, "__version__", parsed_css.__version__ + "-other")
        assert parsed_css.load_parsed_css(path) == 0
    assert parsed_css.load_parsed_css(path) > 0


def test_the_css_cache_is_named_by_the_versions(monkeypatch, tmp_path):
    monkeypatch.setenv("NCTUI_CACHE_DIR", str(tmp_path))
    name = present(parsed_css.cache_file())
    assert name.parent == tmp_path and name.name.startswith("css-")
    monkeypatch.setattr(parsed_css, "FORMAT", parsed_css.FORMAT + 1)
    assert parsed_css.cache_file() != name
    # Textual's files out of sight (a zipped install): nothing is kept, nothing fails
    monkeypatch.setattr(parsed_css.textual_model, "__file__", None)
    assert parsed_css.cache_file() is None
    assert parsed_css.load_parsed_css(None) == 0 and not parsed_css.save_parsed_css(None)


def test_the_app_keeps_its_css_once_it_has_settled(shared, monkeypatch, tmp_path):
    """`nctui play` keeps what it parsed soon after it starts (a run killed later keeps it too),
    and the latency benchmark's first run stays up that long, as a first run does."""
    import importlib.util
    from pathlib import Path

    import nctui.ui.app as ui_app

    kept_after = ui_app.CSS_KEPT_AFTER
    monkeypatch.setattr(ui_app, "CSS_KEPT_AFTER", 0.05)
    path = tmp_path / "css.pickle"

    async def go():
        app = create_app(GameConfig(players=2, seed=1), save_dir=tmp_path, bot_delay=0)
        app.css_cache = path
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, path.exists, "the parsed CSS kept (CSS_KEPT_AFTER)")
            assert path.exists()

    asyncio.run(go())
    spec = importlib.util.spec_from_file_location(
        "ui_latency", Path(__file__).resolve().parent.parent / "benchmarks" / "ui_latency.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "ui_latency", bench)
    spec.loader.exec_module(bench)
    assert bench.FIRST_RUN_UP > kept_after


def test_a_css_cache_others_may_write_is_not_read(shared, tmp_path):
    """A pickle runs what it names: a cache file that other users may write (a shared cache
    folder) is never read, nor a link to one."""
    path = tmp_path / "cache" / "css.pickle"
    _screen_text(tmp_path)
    assert parsed_css.save_parsed_css(path)
    assert path.stat().st_mode & 0o077 == 0  # written for this user only
    parsed_css._parsed.clear()
    path.chmod(0o666)
    assert parsed_css.load_parsed_css(path) == 0
    path.chmod(0o600)
    link = tmp_path / "link.pickle"
    link.symlink_to(path)
    assert parsed_css.load_parsed_css(link) == 0
    assert parsed_css.load_parsed_css(path) > 0
