"""Static conformance: each double of this package, assigned to the port it stands in for.

Never executed (everything is under ``TYPE_CHECKING``); ``mypy --strict``
checking this module is the test. A double whose signature drifts from its
Protocol -- a renamed parameter, a lost default, a sync method where the
port is async -- fails type-checking here rather than in some consumer's test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentkit.core.ports import ClockPort, FetchPort, MemorySource, SearchPort, Tool
    from agentkit.fakes.io import FakeClock, FakeFetch, FakeMemory, FakeSearch, FakeTool

    _clock: ClockPort = FakeClock()
    _fetch: FetchPort = FakeFetch({})
    _search: SearchPort = FakeSearch([])
    _search_by_query: SearchPort = FakeSearch({"q": []})
    _memory: MemorySource = FakeMemory()
    # Tuples are accepted at run time, so the signatures take any Sequence / Mapping.
    _search_from_tuple: SearchPort = FakeSearch(())
    _search_by_query_tuple: SearchPort = FakeSearch({"q": ()})
    _memory_from_tuples: MemorySource = FakeMemory(responses={"q": ()}, default=())
    _memory_items_tuple: MemorySource = FakeMemory(items=())
    _tool: Tool = FakeTool()
