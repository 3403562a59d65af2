"""FakeMemory: a MemorySource answering from fixtures and recording every query and write."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    check_int,
    check_mapping,
    check_str,
)
from agentkit.core.types import MemoryItem
from agentkit.core.verification import VerifyingDouble, Violation

__all__ = ["FakeMemory"]


def _check_items(value: object, what: str, where: str = "FakeMemory") -> None:
    # Checked up front: unchecked, items="abc" would answer every query with three strings
    # where the agent expects MemoryItems, and a bare MemoryItem for a list would fail only
    # at query time, deep inside the double.
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise ArgumentTypeError(where, what, "a list of MemoryItem", value)
    for index, item in enumerate(value):
        if not isinstance(item, MemoryItem):
            raise ArgumentTypeError(
                where, f"{what}[{index}]", "a MemoryItem", item, "write MemoryItem(text, source)"
            )


@dataclass(eq=False)
class FakeMemory(VerifyingDouble):
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
    puzzling result three calls later. ``responses`` and ``items`` together
    are refused: ``items`` ignores the query, so ``responses`` would never
    be read.

    Strict by default about ``responses``: each is material the test claims
    the agent asks for, so a response no query ever matched is reported at
    teardown (``unused_entries``) -- a query whose wording drifted fails its
    test instead of passing on ``default``. A miss itself is still an
    ordinary answer (a memory with nothing relevant), and ``items`` answers
    every query, with nothing to leave over. ``verify=False`` opts out.
    Assert on :attr:`queries` and :attr:`writes` for what the agent did.

    Compared and hashed by identity (``eq=False``): two sources with equal
    fixtures are still two sources, and their records differ.
    """

    name: str = "fake_memory"
    responses: Mapping[str, Sequence[MemoryItem]] = field(default_factory=dict)
    default: Sequence[MemoryItem] = field(default_factory=list)
    items: Sequence[MemoryItem] | None = None
    verify: bool = True
    queries: list[tuple[str, int, dict[str, Any] | None]] = field(default_factory=list, init=False)
    writes: list[list[MemoryItem]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        check_str(self.name, "FakeMemory", "name", empty=False)
        check_mapping(
            self.responses, "FakeMemory", "responses", "a dict {query: [MemoryItem, ...]}"
        )
        for query, found in self.responses.items():
            if not isinstance(query, str):
                raise ArgumentTypeError("FakeMemory", "responses keys", "query strs", query)
            _check_items(found, f"responses[{query!r}]")
        _check_items(self.default, "default")
        if self.items is not None:
            _check_items(self.items, "items")
            if self.responses:
                raise ArgumentTypeError(
                    "FakeMemory",
                    "items",
                    "None when responses= is given",
                    self.items,
                    "items= ignores the query, so responses= would never be read: pass one",
                )
        self._matched: set[str] = set()
        # Last: a double refused by a check above is never registered for verification.
        self._init_verification(verify=self.verify)

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        check_int(k, "FakeMemory.query", "k")
        if where is not None:
            check_mapping(where, "FakeMemory.query", "where", "a mapping or None")
        self.queries.append((query, k, None if where is None else dict(where)))
        if self.items is not None:
            found: Sequence[MemoryItem] = self.items
        elif query in self.responses:
            self._matched.add(query)
            found = self.responses[query]
        else:
            found = self.default
        return list(found[:k])

    def _leftovers(self) -> list[Violation]:
        unused = [query for query in self.responses if query not in self._matched]
        if not unused:
            return []
        asked = [query for query, _, _ in self.queries]
        return [
            self._violation(
                "unused_entries",
                f"{len(unused)} of {len(self.responses)} responses were never matched by a "
                f"query: {unused!r} (the queries were {asked!r})",
                "if the agent should have asked for them, fix the code under test (a query "
                "matches a response by its exact string); if the test does not claim those "
                "queries, remove them (or pass verify=False)",
            )
        ]

    async def write(self, items: Sequence[MemoryItem]) -> None:
        _check_items(items, "items", "FakeMemory.write")
        batch = list(items)
        self.writes.append(batch)
