"""Textual's set-up of each widget and screen class (``DOMNode.__init_subclass__``), the same
made cheaper.

As each class is made, Textual 8.2.8 gathers its reactives by reading the whole ``__dict__`` of
every class of its MRO (``Widget``'s has about 400 names) and its ``compute_`` methods from
``dir()`` of the class: ~0.4 ms a class, ~9 ms of nctui's start-up for the twenty-odd widget
and screen classes imported before the first frame. ``install()`` reads what each class defines
itself once, keeps it, and makes each new class's attributes from those: the same values
(``test_ui_widgets`` compares them with Textual's own for every class nctui defines). Installed
by the commands that start an app (``cli``, ``net.client_app``), before the UI is imported.
"""

from __future__ import annotations

from textual.dom import DOMNode
from textual.reactive import Reactive

_COMPUTE_PREFIXES = ("_compute_", "compute_")
_own_reactives: dict[type, dict[str, Reactive]] = {}
_own_computes: dict[type, frozenset[str]] = {}


def own_reactives(cls: type) -> dict[str, Reactive]:
    """The reactives ``cls`` itself defines (not those it inherits), by name."""
    found = _own_reactives.get(cls)
    if found is None:
        found = _own_reactives[cls] = {
            name: value for name, value in cls.__dict__.items() if isinstance(value, Reactive)
        }
    return found


def own_computes(cls: type) -> frozenset[str]:
    """The names of the reactives ``cls`` itself computes (its ``compute_`` methods)."""
    found = _own_computes.get(cls)
    if found is None:
        found = _own_computes[cls] = frozenset(
            name.lstrip("_")[8:] for name in cls.__dict__ if name.startswith(_COMPUTE_PREFIXES)
        )
    return found


def _set_up(
    cls: type[DOMNode], inherit_css: bool = True, inherit_bindings: bool = True, inherit_component_classes: bool = True
) -> None:
    """``DOMNode.__init_subclass__`` of Textual 8.2.8, each base's own names read once."""
    super(DOMNode, cls).__init_subclass__()
    reactives: dict[str, Reactive] = {}
    for base in reversed(cls.__mro__):
        reactives.update(own_reactives(base))
    cls._reactives = reactives
    cls._inherit_css = inherit_css
    cls._inherit_bindings = inherit_bindings
    cls._inherit_component_classes = inherit_component_classes
    bases = cls._css_bases(cls)
    cls._css_type_name = bases[0].__name__
    cls._merged_bindings = cls._merge_bindings()
    cls._css_type_names = frozenset(base.__name__ for base in bases)
    cls._computes = frozenset().union(*(own_computes(base) for base in cls.__mro__))


TEXTUALS = DOMNode.__dict__["__init_subclass__"]


def install() -> None:
    """Set up every widget and screen class made from now on this way (idempotent)."""
    DOMNode.__init_subclass__ = classmethod(_set_up)  # type: ignore[assignment]
