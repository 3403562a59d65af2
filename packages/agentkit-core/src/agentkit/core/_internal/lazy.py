"""Lazy re-exports (PEP 562), so importing a package costs only what is used.

A re-exporting package (``agentkit.core.testing`` re-exports every double)
would otherwise import everything it names the moment it is imported: a test
that wants one FakeClock would pay for the CLI doubles, their process model
and asyncio's subprocess machinery. With this, ``from agentkit.core.testing
import FakeClock`` imports ``agentkit.fakes.io`` and nothing else, while
``__all__`` and ``dir()`` still list every name.

The convention of an export module (a package ``__init__``):

- an eager export is a top-level redundant-alias import, ``from owner import
  Name as Name`` -- the form mypy (and PEP 484) reads as "re-exported";
- a lazy export is the same import under ``if TYPE_CHECKING:``, so mypy sees
  it and the run time does not run it, and, in the ``else:`` branch, one entry
  of the explicit table handed to :func:`lazy_exports` (name -> owner);
- ``__all__`` is a literal list of the public names (dunders such as
  ``__version__`` are exported but left out, so a star import does not take
  them).

The module ``__getattr__`` stays in the ``else:`` branch, hidden from mypy: a
visible one would type every misspelled name as ``Any``
(``tests/test_typing_surface.py``). Each package's tests check that the
three lists agree (agentkit-core's ``tests/test_core_lazy.py`` walks every
package of the workspace).
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

    ``sources`` maps each lazily exported name to the module that defines it.
    A name is imported on first access and cached in ``namespace`` (the
    module's ``globals()``), so later accesses are plain attribute lookups.
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
