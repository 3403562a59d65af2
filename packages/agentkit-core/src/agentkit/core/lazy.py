"""Lazy re-exports (PEP 562), so importing a package costs only what is used.

A re-exporting package (``agentkit.core.testing`` re-exports every double)
would otherwise import everything it names the moment it is imported: a test
that wants one FakeClock would pay for the CLI doubles, their process model
and asyncio's subprocess machinery. With this, ``from agentkit.core.testing
import FakeClock`` imports ``agentkit.fakes.io`` and nothing else, while
``__all__`` and ``dir()`` still list every name.

One list per facade. A re-exporting module names each export exactly once,
as a redundant-alias import, ``from owner import Name as Name`` -- the form
mypy (and PEP 484) reads as "re-exported". Under ``if TYPE_CHECKING:`` the
import is lazy (mypy sees it, the run time does not run it); at the top level
it is eager. :func:`reexports` reads those same statements from the module's
source at run time and derives the lazy table and ``__all__`` from them, so
adding a name is one line, and mypy and the run time cannot disagree. Such a
module writes no ``__all__`` of its own: mypy takes its exports from the
aliases, the run time from :func:`reexports`; dunder names (``__version__``)
are exported but left out of ``__all__``, so a star import does not take them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

__all__ = ["lazy_exports", "reexports"]


def lazy_exports(
    module_name: str, sources: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Build ``(__getattr__, __dir__)`` for a module whose names live elsewhere.

    ``sources`` maps each exported name to the module that defines it. A name
    is imported on first access and cached in ``namespace`` (the module's
    ``globals()``), so later accesses are plain attribute lookups. ``sources``
    is consulted on each miss rather than copied, so a mapping that computes
    itself on first use (as :func:`reexports` passes) stays unread until then.
    """

    def __getattr__(name: str) -> Any:
        try:
            source = sources[name]
        except KeyError:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(source), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *sources})

    return __getattr__, __dir__


def reexports(
    namespace: dict[str, Any],
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for a facade whose exports are its ``X as X`` imports.

    Call it as ``__getattr__, __dir__ = reexports(globals())`` in the ``else``
    of the facade's ``if TYPE_CHECKING:`` block. The source is read on the
    first attribute the module does not hold (a lazy name, ``__all__``,
    ``dir()``), never by a plain ``import``: a module whose names are all
    eager pays nothing for it. Names resolve through :func:`lazy_exports`;
    the one thing added here is ``__all__``, derived from the same table.
    """
    sources = _Reexports(namespace)
    lookup, listing = lazy_exports(namespace["__name__"], sources, namespace)

    def __getattr__(name: str) -> Any:
        if name != "__all__":
            return lookup(name)
        value = [n for n in sources if not n.startswith("__")]
        namespace[name] = value
        return value

    return __getattr__, listing


class _Reexports(Mapping[str, str]):
    """A facade's ``Name as Name`` imports (name -> owner), read from its source on first use."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self._namespace = namespace
        self._table: dict[str, str] | None = None

    def _read(self) -> dict[str, str]:
        if self._table is None:
            self._table = _read_reexports(_source(self._namespace))
        return self._table

    def __getitem__(self, name: str) -> str:
        return self._read()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())


def _source(namespace: dict[str, Any]) -> str:
    """The module's source text: from its loader, else from its file.

    A loader may have no source to give (pytest's assertion rewriter loads a
    plugin's package and answers None), so the ``.py`` file is the fallback.
    """
    name = namespace["__name__"]
    get_source = getattr(namespace.get("__loader__"), "get_source", None)
    source = get_source(name) if get_source is not None else None
    path = namespace.get("__file__")
    if source is None and isinstance(path, str) and path.endswith(".py"):
        with open(path, encoding="utf-8") as file:
            source = file.read()
    if not isinstance(source, str):
        raise ImportError(
            f"{name} lists its exports in its source, which is not installed", name=name
        )
    return source


def _read_reexports(source: str) -> dict[str, str]:
    """Each ``from owner import Name as Name`` of a module's source, in order: name -> owner.

    Read at the top level and inside ``if TYPE_CHECKING:``; any other import
    (no alias, a different alias, a relative one) is not an export.
    """
    import ast  # already loaded by dataclasses (through inspect); local to keep this module lean

    found: dict[str, str] = {}
    for statement in ast.parse(source).body:
        block = [statement]
        if isinstance(statement, ast.If) and _is_type_checking(statement.test):
            block = statement.body
        for node in block:
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    if alias.asname == alias.name:
                        found[alias.name] = node.module
    return found


def _is_type_checking(test: Any) -> bool:
    name = getattr(test, "attr", None) or getattr(test, "id", None)
    return name == "TYPE_CHECKING"
