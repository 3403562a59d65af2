"""FakeSearch: canned hits, for every query or by substring of the query."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agentkit.core.arguments import (
    ArgumentTypeError,
    check_int,
    hide_argument_errors,
)
from agentkit.core.types import SearchHit

__all__ = ["FakeSearch"]

__tracebackhide__ = hide_argument_errors  # a wrong argument shows the caller's line

_EXPECTED = "a list of SearchHit or a dict {substring_of_query: [SearchHit, ...]}"


def _hits(value: object, argument: str) -> tuple[SearchHit, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise ArgumentTypeError("FakeSearch", argument, "a list of SearchHit", value)
    for index, hit in enumerate(value):
        if not isinstance(hit, SearchHit):
            raise ArgumentTypeError(
                "FakeSearch",
                f"{argument}[{index}]",
                "a SearchHit",
                hit,
                "write SearchHit(title, url, snippet)",
            )
    return tuple(value)


class FakeSearch:
    """Deterministic offline SearchPort.

    Pass a list (returned for every query) or a dict
    ``{substring_of_query: [SearchHit, ...]}``: the first key, in insertion
    order, that the query contains wins, and a query no key matches gets
    ``[]`` -- "no results" is an ordinary search outcome, so unlike a fetch
    of an unknown URL it is not an error. Either way at most ``k`` hits are
    returned (the first ``k``), in a new list each call, so a caller that
    sorts or pops its results cannot change the fixture.

    Every search is recorded in :attr:`queries` as ``(query, k)``.

    It verifies nothing at teardown, and that is a decision: both forms are
    RULES for answering a query, not finite material. The list answers every
    query; the dict's miss has a documented answer (``[]``), and a key no
    query happened to contain is a rule that did not fire, not a claim the
    agent broke. (Compare FakeFetch, whose fixtures are pages the agent is
    claimed to fetch, and whose miss is an error.) Assert on :attr:`queries`
    for what the agent searched.
    """

    __slots__ = ("_table", "queries")

    def __init__(self, hits: Sequence[SearchHit] | Mapping[str, Sequence[SearchHit]]) -> None:
        self._table: tuple[tuple[str, tuple[SearchHit, ...]], ...]
        given: object = hits
        if isinstance(given, Mapping):
            table: list[tuple[str, tuple[SearchHit, ...]]] = []
            for key, value in given.items():
                if not isinstance(key, str):
                    raise ArgumentTypeError(
                        "FakeSearch", "hits keys", "substrings of a query (str)", key
                    )
                table.append((key, _hits(value, f"hits[{key!r}]")))
            self._table = tuple(table)
        elif isinstance(given, str | bytes) or not isinstance(given, Sequence):
            raise ArgumentTypeError("FakeSearch", "hits", _EXPECTED, given)
        else:
            # A list is the dict with one key every query contains.
            self._table = (("", _hits(given, "hits")),)
        self.queries: list[tuple[str, int]] = []

    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        check_int(k, "FakeSearch.search", "k")
        self.queries.append((query, k))
        for key, hits in self._table:
            if key in query:
                return list(hits[:k])
        return []
