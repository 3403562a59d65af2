"""Lazy re-exports (PEP 562), so importing a package costs only what is used.

A re-exporting package (``agentkit.core.testing`` re-exports every double)
would otherwise import everything it names the moment it is imported: a test
that wants one FakeClock would pay for the CLI doubles, their process model
and asyncio's subprocess machinery. With this, ``from agentkit.core.testing
import FakeClock`` imports ``agentkit.fakes.io`` and nothing else, while
``__all__`` and ``dir()`` still list every name and type checkers still see
the eager imports the module writes under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    module_name: str, sources: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Build ``(__getattr__, __dir__)`` for a module whose names live elsewhere.

    ``sources`` maps each exported name to the module that defines it. A name
    is imported on first access and cached in ``namespace`` (the module's
    ``globals()``), so later accesses are plain attribute lookups.
    """
    table = dict(sources)

    def __getattr__(name: str) -> Any:
        try:
            source = table[name]
        except KeyError:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(source), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *table})

    return __getattr__, __dir__
