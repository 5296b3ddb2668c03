"""`make play` installs only what playing needs (requirements.lock); `make test` and `make lint`
add the tools (requirements-test.lock, which includes the runtime's): issue 39.22."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent


def _pins(name: str) -> dict[str, str]:
    out = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-r"):
            req = Requirement(line)
            out[req.name.lower().replace("_", "-")] = str(req.specifier)
    return out


def _names(requirements: list[str]) -> set[str]:
    return {Requirement(r).name.lower().replace("_", "-") for r in requirements}


def test_the_runtime_lock_pins_every_dependency_and_no_test_tool():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime, tools = _pins("requirements.lock"), _pins("requirements-test.lock")
    assert _names(project["dependencies"]) <= set(runtime)
    assert _names(project["optional-dependencies"]["test"]) <= set(tools)
    assert _names(project["optional-dependencies"]["postgresql"]) <= set(tools)  # its tests need it
    assert not set(runtime) & set(tools)  # each pin in one lock
    assert not {"pytest", "mypy", "ruff", "hypothesis", "setuptools"} & set(runtime)


def test_make_test_installs_the_runtime_lock_and_the_tools():
    assert "-r requirements.lock" in (ROOT / "requirements-test.lock").read_text(encoding="utf-8").splitlines()
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "-r requirements.lock" in makefile and "-r requirements-test.lock" in makefile
    for target in ("test", "lint"):
        assert f"\n{target}: $(TESTED)" in makefile
    assert "\nplay: $(STAMP)" in makefile
