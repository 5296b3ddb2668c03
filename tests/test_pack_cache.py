"""The cache of validated content packs (nctui.games.nightmare_cathedral.content.cache): a hit gives the same pack as
loading the files; a broken, foreign or stale cache entry falls back to loading the files."""

from __future__ import annotations

import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from nctui.games.nightmare_cathedral.content import cache, loader
from nctui.games.nightmare_cathedral.content.loader import FILES, PACKS_DIR, ContentError, load_pack
from nctui.platform.safeio import CACHE_ENV, stamp_name


@pytest.fixture
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder


def recording(seen: list, real: Callable[..., Any]) -> Callable[..., Any]:
    """``real``, each argument it is called with noted in ``seen`` first."""

    def recorded(arg: Any) -> Any:
        seen.append(arg)
        return real(arg)

    return recorded


def counting(calls: list[str], name: str, real: Callable[..., Any]) -> Callable[..., Any]:
    """``real``, ``name`` noted in ``calls`` at each call."""

    def counted(*a: Any, **k: Any) -> Any:
        calls.append(name)
        return real(*a, **k)

    return counted


def test_a_cached_pack_equals_the_loaded_one(cache_folder: Path) -> None:
    fresh = load_pack(PACKS_DIR / "base")
    first = load_pack(PACKS_DIR / "base", cached=True)  # fills the cache
    key = cache.pack_stamp(PACKS_DIR / "base", FILES)
    assert key is not None and str((PACKS_DIR / "base" / "cards.toml").resolve()) in key
    assert [p.name for p in cache_folder.iterdir()] == [stamp_name("pack-", key)]
    again = load_pack(PACKS_DIR / "base", cached=True)  # from the cache
    assert first == fresh and again == fresh


def test_the_cache_is_used(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load_pack(PACKS_DIR / "base", cached=True)
    import nctui.games.nightmare_cathedral.content.validate as validate

    def refuse(pack: object) -> None:
        raise AssertionError("validated again despite the cache")

    monkeypatch.setattr(validate, "validate", refuse)
    load_pack(PACKS_DIR / "base", cached=True)


def test_a_hit_reads_and_hashes_no_pack_file(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Start-up looks at the files' sizes and times only: the digest saves record comes from the
    entry, taken when the files were validated."""
    fresh = load_pack(PACKS_DIR / "base")
    load_pack(PACKS_DIR / "base", cached=True)
    import hashlib

    def refuse(*args: object) -> None:
        raise AssertionError("a pack file read or hashed on a hit")

    monkeypatch.setattr(loader, "_read", refuse)
    monkeypatch.setattr(hashlib, "sha256", refuse)
    again = load_pack(PACKS_DIR / "base", cached=True)
    assert again == fresh and again.digest == fresh.digest


def test_an_entry_made_for_another_stamp_is_not_used(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = load_pack(PACKS_DIR / "base", cached=True)
    (entry,) = cache_folder.iterdir()
    key = cache.pack_stamp(PACKS_DIR / "base", FILES)
    assert key is not None
    entry.write_bytes(pickle.dumps((key.replace("\t", " ", 1), fresh)))
    checked: list[object] = []
    import nctui.games.nightmare_cathedral.content.validate as validate

    real = validate.validate
    monkeypatch.setattr(validate, "validate", recording(checked, real))
    assert load_pack(PACKS_DIR / "base", cached=True) == fresh
    assert checked, "an entry of another stamp was used"


@pytest.mark.parametrize(
    "garbage",
    [
        b"",
        b"\x93\x01\x02",
        b"\xc1not a pickle",
        b"\x80\x05\x95",
        pickle.dumps({"info": None}),
        pickle.dumps(("a", "tuple")),
    ],
)
def test_a_broken_cache_entry_falls_back_to_the_files(cache_folder: Path, garbage: bytes) -> None:
    fresh = load_pack(PACKS_DIR / "base", cached=True)
    (entry,) = cache_folder.iterdir()
    entry.write_bytes(garbage)
    assert load_pack(PACKS_DIR / "base", cached=True) == fresh


def test_changed_files_never_meet_an_old_entry(cache_folder: Path, tmp_path: Path) -> None:
    folder = tmp_path / "pack"
    shutil.copytree(PACKS_DIR / "base", folder)
    load_pack(folder, cached=True)
    cards = folder / "cards.toml"
    cards.write_text(cards.read_text().replace("[[", "[[[", 1))  # now broken
    with pytest.raises(ContentError):
        load_pack(folder, cached=True)


def test_a_file_rewritten_with_the_same_size_never_meets_an_old_entry(cache_folder: Path, tmp_path: Path) -> None:
    folder = tmp_path / "pack"
    shutil.copytree(PACKS_DIR / "base", folder)
    load_pack(folder, cached=True)
    cards = folder / "cards.toml"
    before = cards.stat()
    text = cards.read_text()
    cards.write_text(text.replace("[[", "[x", 1))  # the same size, now broken
    os.utime(cards, ns=(before.st_atime_ns, before.st_mtime_ns + 1))  # a nanosecond later
    assert cards.stat().st_size == before.st_size
    with pytest.raises(ContentError):
        load_pack(folder, cached=True)


def test_an_unwritable_cache_folder_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))
    assert load_pack(PACKS_DIR / "base", cached=True) == load_pack(PACKS_DIR / "base")


def test_a_cache_entry_others_may_write_is_never_read(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pickle runs what it names: an entry anyone but its owner may write (planted in a shared
    folder, say) is left alone, and the files are loaded and checked instead."""
    fresh = load_pack(PACKS_DIR / "base", cached=True)
    (entry,) = cache_folder.iterdir()
    os.chmod(entry, 0o666)
    import nctui.games.nightmare_cathedral.content.validate as validate

    checked: list[object] = []
    real = validate.validate
    monkeypatch.setattr(validate, "validate", recording(checked, real))
    assert load_pack(PACKS_DIR / "base", cached=True) == fresh
    assert checked, "the entry others may write was read"


def test_the_cached_pack_is_not_decoded_by_type(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache is read back without a typed decode (which builds msgspec's decoders for every
    Struct of the schema first: ~5 ms of each start)."""
    fresh = load_pack(PACKS_DIR / "base", cached=True)
    import msgspec

    import nctui.games.nightmare_cathedral.content.validate as validate

    calls: list[str] = []
    for module, name in ((msgspec.msgpack, "decode"), (msgspec.json, "decode"), (validate, "validate")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, counting(calls, name, real))
    assert load_pack(PACKS_DIR / "base", cached=True) == fresh
    assert calls == []
