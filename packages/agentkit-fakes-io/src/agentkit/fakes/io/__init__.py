"""IO test doubles for agentkit: FakeClock, FakeFetch, FakeSearch, FakeMemory, FakeTool.

Each is a deterministic, offline stand-in for one port of
:mod:`agentkit.core.ports` that records what it was asked, so a test can
assert on it. ``UnknownURLError`` is what FakeFetch raises for a URL its
fixtures do not list (a ``KeyError(url)``).
"""

from typing import TYPE_CHECKING

from agentkit.core.lazy import lazy_exports
from agentkit.fakes.io.clock import FakeClock
from agentkit.fakes.io.fetch import (
    FakeFetch,
    FetchRouteExhausted,
    InTurn,
    UnknownURLError,
    URLHost,
    URLPrefix,
)
from agentkit.fakes.io.memory import FakeMemory
from agentkit.fakes.io.search import FakeSearch
from agentkit.fakes.io.tool import FakeTool

if TYPE_CHECKING:
    from agentkit.fakes.io._version import __version__ as __version__
else:
    # __version__ reads the installed metadata: paid only by code that asks for it.
    __getattr__, __dir__ = lazy_exports(
        __name__, {"__version__": "agentkit.fakes.io._version"}, globals()
    )

__all__ = [
    "FakeClock",
    "FakeFetch",
    "FakeMemory",
    "FakeSearch",
    "FakeTool",
    "FetchRouteExhausted",
    "InTurn",
    "URLHost",
    "URLPrefix",
    "UnknownURLError",
]
