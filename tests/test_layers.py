"""The layers, read from the registry: the platform imports no game, the shared UI imports no
game's module, and no game imports another. Every import of every module is read with ``ast``
(inside functions and under ``TYPE_CHECKING`` too); a game is named by the registry only, so a
fifth game is checked with no change here. A game reaches the others' code only through the
registry's "module:name" references, which are strings."""

from __future__ import annotations

import ast
from pathlib import Path

import nctui
from nctui.platform import registry

ROOT = Path(nctui.__file__).parent
PACKAGES = {e.package: e.id for e in registry.ENTRIES}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    path = ROOT.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or path.is_dir()


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, absolute; ``from package import name`` counts as the
    submodule when ``name`` is one, else as the package."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if is_module(sub) else base)
    return {m for m in out if m == "nctui" or m.startswith("nctui.")}


def game_of(module: str) -> str | None:
    """The id of the game whose package holds ``module``, or None."""
    return next((gid for pkg, gid in PACKAGES.items() if module == pkg or module.startswith(pkg + ".")), None)


def layer(module: str) -> str:
    game = game_of(module)
    if game is not None:
        return f"game {game}"
    for prefix, name in (("nctui.platform", "platform"), ("nctui.ui", "shared UI")):
        if module == prefix or module.startswith(prefix + "."):
            return name
    return "app"


def crossings() -> dict[str, list[str]]:
    """Each module's imports that break a layer rule."""
    bad: dict[str, list[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        here = module_name(path)
        mine = layer(here)
        for target in sorted(imports(path)):
            theirs = layer(target)
            wrong = (
                (mine == "platform" and theirs.startswith("game"))
                or (mine == "shared UI" and theirs.startswith("game"))
                or (mine.startswith("game") and theirs.startswith("game") and theirs != mine)
            )
            if wrong:
                bad.setdefault(here, []).append(target)
    return bad


def test_every_game_of_the_registry_has_its_package():
    assert len(PACKAGES) == len(registry.ENTRIES) >= 4
    for package in PACKAGES:
        assert (ROOT.parent.joinpath(*package.split(".")) / "__init__.py").is_file(), package


def test_the_import_reader_sees_relative_imports_submodules_and_imports_inside_functions():
    game_screen = ROOT / "games" / "nightmare_cathedral" / "ui" / "screens" / "game.py"
    found = imports(game_screen)
    nc = registry.entry("nightmare-cathedral").package
    assert f"{nc}.ui.screens.inspector" in found  # imported inside a method, relatively
    assert "nctui.platform.store" in found
    assert layer(f"{nc}.engine.flow") == "game nightmare-cathedral"
    assert layer("nctui.platform.net.host") == "platform" and layer("nctui.ui.app") == "shared UI"
    assert layer("nctui.cli") == "app"


def test_the_layers_hold():
    assert crossings() == {}
