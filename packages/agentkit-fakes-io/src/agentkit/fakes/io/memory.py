"""FakeMemory: a MemorySource answering from fixtures and recording every query and write."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentkit.core.types import MemoryItem

__all__ = ["FakeMemory"]


@dataclass(eq=False)
class FakeMemory:
    """A MemorySource-Protocol-conforming fake.

    Two modes:

    - ``responses={"q": [MemoryItem(...), ...]}`` -- per-query lookup, by
      exact query string. Misses fall through to ``default`` (``[]`` unless
      given): a memory with nothing relevant is an ordinary outcome.
    - ``items=[MemoryItem(...), ...]`` -- static fixture mode: the query
      string is ignored entirely. For a test that does not care about
      retrieval semantics, only that the agent received some items.

    Either way at most ``k`` items are returned (the first ``k``), in a new
    list, as a real source returns at most what was asked for.

    Every query is recorded as ``(query, k, where)`` on :attr:`queries`
    (``where`` copied to a dict, or None), every write batch appended to
    :attr:`writes` as a list, so a test can assert
    ``mem.queries[0] == ("foo", 3, None)`` or
    ``mem.writes == [[MemoryItem("a", "src")]]``. Writes are recorded, not
    stored: they do not change what later queries return.

    Compared and hashed by identity (``eq=False``): two sources with equal
    fixtures are still two sources, and their records differ.
    """

    name: str = "fake_memory"
    responses: dict[str, list[MemoryItem]] = field(default_factory=dict)
    default: list[MemoryItem] = field(default_factory=list)
    items: list[MemoryItem] | None = None
    queries: list[tuple[str, int, dict[str, Any] | None]] = field(default_factory=list, init=False)
    writes: list[list[MemoryItem]] = field(default_factory=list, init=False)

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ValueError(f"k must be an int >= 0, got {k!r}")
        self.queries.append((query, k, None if where is None else dict(where)))
        if self.items is not None:
            found: Sequence[MemoryItem] = self.items
        else:
            found = self.responses.get(query, self.default)
        return list(found[:k])

    async def write(self, items: Sequence[MemoryItem]) -> None:
        batch = list(items)
        for item in batch:
            if not isinstance(item, MemoryItem):
                raise TypeError(f"FakeMemory.write takes MemoryItem objects, got {item!r}")
        self.writes.append(batch)
