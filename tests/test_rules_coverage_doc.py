"""docs/rules-coverage.md names only code and tests that exist.

Every name in backticks in the document is one of:

- a test: ``test_file.py::test_name`` (the test function, found by parsing ``tests/test_file.py``;
  a parametrized test by its function name), or a test file ``test_file.py`` / ``tests/test_file.py``;
- code: ``module.name`` or ``engine/module.name`` (``engine.module`` of the game, else the game's
  ``module`` or the platform's, has the attribute ``name``), or a module ``module.py`` /
  ``engine/module.py``;
- a file of the repository: ``folder/file.ext`` (e.g. a saved scenario).

Anything else in backticks is a problem, so a typo in the document fails this test.
"""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules-coverage.md"
TESTS = ROOT / "tests"

TEST_REF = re.compile(r"(?:tests/)?(test_\w+\.py)(?:::(\w+))?")
GAME = "nctui.games.nightmare_cathedral"
ENGINE = f"{GAME}.engine"
PACKAGES = (ENGINE, GAME, "nctui.platform", "nctui")
MODULE_FILE = re.compile(r"(engine/)?([a-z_][a-z0-9_]*)\.py")
CODE_REF = re.compile(r"(engine/)?([a-z_][a-z0-9_]*)\.([A-Za-z_]\w*)")
REPO_FILE = re.compile(r"[\w-]+(?:/[\w.-]+)+\.\w+")


@cache
def functions_of(file_name: str) -> frozenset[str] | None:
    """The test functions of ``tests/<file_name>`` (module level, or in a ``Test*`` class), or None
    when there is no such file."""
    path = TESTS / file_name
    if not path.is_file():
        return None
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = set()
    for node in tree.body:
        bodies = (
            [node]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            else (node.body if isinstance(node, ast.ClassDef) and node.name.startswith("Test") else [])
        )
        names |= {
            f.name
            for f in bodies
            if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and f.name.startswith("test")
        }
    return frozenset(names)


def _module(name: str, engine_only: bool) -> ModuleType | None:
    for package in (ENGINE,) if engine_only else PACKAGES:
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as err:
            if err.name != f"{package}.{name}":
                raise
    return None


def _module_file(name: str, engine_only: bool) -> bool:
    folders = [ROOT.joinpath(*package.split(".")) for package in ((ENGINE,) if engine_only else PACKAGES)]
    return any((folder / f"{name}.py").is_file() for folder in folders)


def reference_problem(ref: str) -> str | None:
    """Why the name ``ref`` (the text between backticks) names nothing, or None when it does."""
    if m := TEST_REF.fullmatch(ref):
        file_name, test = m.groups()
        found = functions_of(file_name)
        if found is None:
            return f"{ref}: no file tests/{file_name}"
        if test is not None and test not in found:
            return f"{ref}: no test function {test} in tests/{file_name}"
        return None
    if m := MODULE_FILE.fullmatch(ref):
        engine_only, name = bool(m.group(1)), m.group(2)
        return None if _module_file(name, engine_only) else f"{ref}: no module file {name}.py"
    if m := CODE_REF.fullmatch(ref):
        engine_only, name, attr = bool(m.group(1)), m.group(2), m.group(3)
        module = _module(name, engine_only)
        if module is None:
            return f"{ref}: no module {name} in " + ", ".join((ENGINE,) if engine_only else PACKAGES)
        return None if hasattr(module, attr) else f"{ref}: {module.__name__} has no {attr}"
    if REPO_FILE.fullmatch(ref):
        return None if (ROOT / ref).is_file() else f"{ref}: no such file in the repository"
    return f"{ref}: not a test, code or file reference this test knows how to check"


def references(text: str) -> list[str]:
    """The names in backticks, line by line (a line with an unmatched backtick is a problem)."""
    refs = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.count("`") % 2:
            raise ValueError(f"line {number}: unmatched backtick")
        refs += re.findall(r"`([^`]*)`", line)
    return refs


def table_problems(text: str) -> list[str]:
    """Every row of every table has a rule, its code and its test: three cells, none empty, and
    the test cell names a test or says there is none yet."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.startswith("|") or line.startswith(("| rule |", "|---")):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not all(cells):
            out.append(f"line {number}: a row has a rule, code and test cell, none empty: {line[:60]}")
        elif "test_" not in cells[2] and "no test yet" not in cells[2].lower():
            out.append(f"line {number}: the test cell names no test and does not say 'no test yet'")
    return out


def problems(text: str) -> list[str]:
    try:
        refs = references(text)
    except ValueError as err:
        return [str(err)]
    return table_problems(text) + [p for p in map(reference_problem, refs) if p is not None]


# ---------------------------------------------------------------------------------------------


def test_every_reference_in_the_rules_coverage_doc_exists():
    text = DOC.read_text(encoding="utf-8")
    assert problems(text) == []


def test_the_doc_names_tests_and_code():
    refs = references(DOC.read_text(encoding="utf-8"))
    assert sum("::" in r for r in refs) > 100
    assert sum(bool(CODE_REF.fullmatch(r)) and not MODULE_FILE.fullmatch(r) for r in refs) > 100


GOOD_ROW = "| a rule | `turn.CHOOSE_DAY` | `test_turn.py::test_ignoring_the_action_draws_two_development_cards` |"


@pytest.mark.parametrize(
    "broken",
    [
        "`test_turn.py::test_ignoring_the_action`",  # a truncated test name
        "`test_turn.py::test_ignoring_the_action_draws_two_development_cards…`",
        "`test_nowhere.py::test_ignoring_the_action_draws_two_development_cards`",
        "`test_nowhere.py`",
        "`turn.choose_day`",  # a function that no longer exists
        "`king_conflict.desirable`",  # a module that no longer exists
        "`engine/scenarios.load_scenario`",  # nctui.games.nightmare_cathedral.scenarios, not an engine module
        "`king_conflict.py`",
        "`saves/nowhere.toml`",
        "`decide_move`",  # a bare name
        "`test_turn.py::test_*`",
        "`turn.legal_days",  # an unmatched backtick
        "| a rule | `turn.CHOOSE_DAY` |",  # a row without its test cell
        "| a rule | `turn.CHOOSE_DAY` | same test |",
    ],
)
def test_a_broken_reference_is_a_problem(broken):
    assert problems(GOOD_ROW) == []
    assert problems(GOOD_ROW + "\n" + broken)
