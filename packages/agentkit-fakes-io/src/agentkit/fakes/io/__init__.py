"""IO test doubles for agentkit: FakeClock, FakeFetch, FakeSearch, FakeMemory, FakeTool.

Each is a deterministic, offline stand-in for one port of
:mod:`agentkit.core.ports` that records what it was asked, so a test can
assert on it. ``UnknownURLError`` is what FakeFetch raises for a URL its
fixtures do not list (a ``KeyError(url)``).
"""

from typing import TYPE_CHECKING

from agentkit.core.clock import FakeClock as FakeClock
from agentkit.fakes.io.fetch import FakeFetch as FakeFetch
from agentkit.fakes.io.fetch import FetchRoute as FetchRoute
from agentkit.fakes.io.fetch import FetchRouteError as FetchRouteError
from agentkit.fakes.io.fetch import FetchRouteExhausted as FetchRouteExhausted
from agentkit.fakes.io.fetch import InTurn as InTurn
from agentkit.fakes.io.fetch import UnknownURLError as UnknownURLError
from agentkit.fakes.io.fetch import URLHost as URLHost
from agentkit.fakes.io.fetch import URLPrefix as URLPrefix
from agentkit.fakes.io.memory import FakeMemory as FakeMemory
from agentkit.fakes.io.search import FakeSearch as FakeSearch
from agentkit.fakes.io.tool import FakeTool as FakeTool

if TYPE_CHECKING:
    from agentkit.fakes.io._version import __version__ as __version__
else:
    # __version__ reads the installed metadata: paid only by code that asks for it.
    from agentkit.core._internal.lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "__version__": "agentkit.fakes.io._version",
        },
        globals(),
    )

__all__ = [
    "FakeClock",
    "FakeFetch",
    "FetchRoute",
    "FetchRouteError",
    "FetchRouteExhausted",
    "InTurn",
    "UnknownURLError",
    "URLHost",
    "URLPrefix",
    "FakeMemory",
    "FakeSearch",
    "FakeTool",
]
