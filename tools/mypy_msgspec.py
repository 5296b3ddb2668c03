"""A mypy plugin: a subclass of a frozen ``msgspec.Struct`` is frozen, as it is at runtime.

msgspec's Struct options are inherited: after ::

    class Base(msgspec.Struct, frozen=True): ...
    class Sub(Base): ...

``Sub`` is frozen (``Sub.__struct_config__.frozen`` is True, setting a field raises). mypy only sees
``Struct`` through PEP 681 ``dataclass_transform``, which reads ``frozen`` from each class's own keywords,
so it treats ``Sub`` as non-frozen and reports "Non-frozen dataclass cannot inherit from a frozen
dataclass [misc]" on every such subclass (and lets its own fields be assigned).

This plugin gives such a subclass an implicit ``frozen=True`` keyword before mypy's dataclass machinery
reads it. The subclass then gets read-only fields like its base, so assigning a field is still reported.
It only touches classes that have ``msgspec.Struct`` in their MRO, do not say ``frozen=`` themselves,
and have a frozen ancestor. An explicit ``frozen=False`` is left alone (mypy reports it, as it should).

Whether an ancestor is frozen is read from the metadata mypy's dataclass support stores on the class
(``metadata["dataclass"]["frozen"]``, saved in mypy's incremental cache), or, for a class analysed in
this run whose metadata is not written yet, from its ``frozen=`` keyword, including one this plugin gave
it. Reading only the keyword breaks on a warm cache, where a base class from an unchanged module has no
keywords.

Registered in pyproject.toml as ``[tool.mypy] plugins = ["tools/mypy_msgspec.py"]``: a path, resolved
against the directory of the config file, so it works from any working directory and a fresh clone.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import GDEF, ClassDef, NameExpr, TypeInfo
from mypy.plugin import ClassDefContext, Plugin
from mypy.semanal_shared import parse_bool

STRUCT = "msgspec.Struct"


def _is_struct(info: TypeInfo) -> bool:
    return any(base.fullname == STRUCT for base in info.mro)


def _frozen(info: TypeInfo) -> bool:
    """True when ``info`` is known to be a frozen dataclass-like class (from mypy's cache or this run)."""
    dataclass = info.metadata.get("dataclass")
    if dataclass is not None and "frozen" in dataclass:
        return bool(dataclass["frozen"])
    keyword = info.defn.keywords.get("frozen")
    return keyword is not None and parse_bool(keyword) is True


def _true(ctx: ClassDefContext, at: ClassDef) -> NameExpr:
    """A resolved ``True`` expression, as the semantic analyser would have produced for ``frozen=True``."""
    expr = NameExpr("True")
    expr.fullname = "builtins.True"
    expr.kind = GDEF
    symbol = ctx.api.lookup_fully_qualified_or_none("builtins.True")
    if symbol is not None:
        expr.node = symbol.node
    expr.set_line(at)
    return expr


def inherit_frozen(ctx: ClassDefContext) -> None:
    """Base-class hook: mark a non-explicit Struct subclass of a frozen Struct as ``frozen=True``."""
    cls = ctx.cls
    if "frozen" in cls.keywords or not _is_struct(cls.info):
        return
    # mro[0] is the class itself; Struct and object are never frozen.
    if any(_frozen(base) for base in cls.info.mro[1:] if base.fullname not in (STRUCT, "builtins.object")):
        cls.keywords["frozen"] = _true(ctx, cls)


class MsgspecPlugin(Plugin):
    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        # Called with each base class of each class. Offer the hook only for bases that are Structs, so
        # that other plugins' base-class hooks still run for everything else; the hook checks the rest.
        symbol = self.lookup_fully_qualified(fullname)
        if symbol is not None and isinstance(symbol.node, TypeInfo) and not _is_struct(symbol.node):
            return None
        return inherit_frozen


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point."""
    return MsgspecPlugin
