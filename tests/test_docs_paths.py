"""Every path and module the docs and the README name exists.

A name in backticks that starts with one of the repository's folders (``nctui/``, ``tests/``,
``docs/``, ``tools/``, ``benchmarks/``) is a path of the repository (a ``*`` in it is a pattern
that must match something); a shorter path of a source file (``engine/flow.py``, ``game.py``) is
the end of one file's path in the repository; a dotted name starting ``nctui.`` is a module, or an
attribute of one (``nctui.platform.registry.GameEntry``). A markdown link to a relative file must
point at one. docs/rules-coverage.md has its own, finer test (tests/test_rules_coverage_doc.py).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md")) + [
    ROOT / "README.md",
    ROOT / "nctui" / "ui" / "textual_ext" / "README.md",
]  # not CHANGELOG.md: its entries name what was
FOLDERS = ("nctui/", "tests/", "docs/", "tools/", "benchmarks/", ".ci/")
PATH = re.compile(r"(?:\.ci|nctui|tests|docs|tools|benchmarks)/[\w./*<>-]*")
MODULE = re.compile(r"nctui(?:\.\w+)+")
TAIL = re.compile(r"[\w.-]+(?:/[\w.-]+)*\.(?:py|toml|tcss)")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def named(text: str) -> tuple[set[str], set[str]]:
    """The paths and the dotted names in backticks (and the relative links) of a document."""
    paths: set[str] = set()
    modules: set[str] = set()
    for quoted in re.findall(r"`([^`\n]+)`", text):
        for word in quoted.split():
            word = word.strip("(),;:'\"")
            if word.startswith("../"):
                paths.add(word)  # outside the repository: never there for a reader of it
            elif word.startswith(FOLDERS) and PATH.fullmatch(word) and "<" not in word:
                paths.add(word.split("::")[0])
            elif MODULE.fullmatch(word):
                modules.add(word)
            elif TAIL.fullmatch(word):
                paths.add(word)
    for link in LINK.findall(text):
        if "://" not in link and not link.startswith("mailto:"):
            paths.add(link)
    return paths, modules


SOURCES = [
    p.relative_to(ROOT).as_posix()
    for p in ROOT.rglob("*")
    if p.suffix in (".py", ".toml", ".tcss") and ".venv" not in p.parts and ".git" not in p.parts
]


def path_exists(name: str, doc: Path) -> bool:
    if name.startswith("../") and doc.parent == ROOT:
        return False
    if TAIL.fullmatch(name) and not name.startswith(FOLDERS):
        return any(s == name or s.endswith("/" + name) for s in SOURCES)
    base = ROOT if name.startswith(FOLDERS) else doc.parent
    if "*" in name:
        return any(base.glob(name))
    return (base / name).exists()


def module_exists(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            if not hasattr(found, attr):
                return False
            found = getattr(found, attr)
        return True
    return False


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: str(d.relative_to(ROOT)))
def test_every_path_and_module_a_doc_names_exists(doc: Path) -> None:
    paths, modules = named(doc.read_text(encoding="utf-8"))
    missing = sorted(p for p in paths if not path_exists(p, doc)) + sorted(m for m in modules if not module_exists(m))
    assert missing == []


def test_the_reader_finds_paths_modules_and_links() -> None:
    paths, modules = named("see `nctui/platform/store.py` and `nctui.platform.registry.GameEntry`, [x](serving.md)")
    assert paths == {"nctui/platform/store.py", "serving.md"} and modules == {"nctui.platform.registry.GameEntry"}
    assert not path_exists("nctui/nothing.py", ROOT / "README.md") and not module_exists("nctui.platform.nothing")
    assert path_exists("nctui/games/*/game.py", ROOT / "README.md") and module_exists("nctui.platform.registry.entry")
    assert path_exists("engine/flow.py", ROOT / "README.md") and not path_exists("engine/rng.py", ROOT / "README.md")
