"""FakeMemory: a MemorySource answering from fixtures and recording every query and write."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentkit.core.types import MemoryItem

__all__ = ["FakeMemory"]


def _check_items(value: object, what: str) -> None:
    # Checked up front: unchecked, items="abc" would answer every query with three strings
    # where the agent expects MemoryItems, and a bare MemoryItem for a list would fail only
    # at query time, deep inside the double.
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise TypeError(
            f"FakeMemory: {what} must be a list of MemoryItem, got {type(value).__name__}"
        )
    for index, item in enumerate(value):
        if not isinstance(item, MemoryItem):
            raise TypeError(
                f"FakeMemory: {what}[{index}] is {type(item).__name__}, not a MemoryItem: {item!r}"
            )


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

    The fixtures are type-checked at construction (a TypeError naming the
    bad entry), so a wrong fixture fails where it is written, not as a
    puzzling result three calls later.

    Compared and hashed by identity (``eq=False``): two sources with equal
    fixtures are still two sources, and their records differ.
    """

    name: str = "fake_memory"
    responses: dict[str, list[MemoryItem]] = field(default_factory=dict)
    default: list[MemoryItem] = field(default_factory=list)
    items: list[MemoryItem] | None = None
    queries: list[tuple[str, int, dict[str, Any] | None]] = field(default_factory=list, init=False)
    writes: list[list[MemoryItem]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise TypeError(f"FakeMemory: name must be a str, got {type(self.name).__name__}")
        if not isinstance(self.responses, Mapping):
            raise TypeError(
                "FakeMemory: responses must be a dict {query: [MemoryItem, ...]}, "
                f"got {type(self.responses).__name__}"
            )
        for query, found in self.responses.items():
            if not isinstance(query, str):
                raise TypeError(f"FakeMemory: responses keys must be query strings, got {query!r}")
            _check_items(found, f"responses[{query!r}]")
        _check_items(self.default, "default")
        if self.items is not None:
            _check_items(self.items, "items")

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
