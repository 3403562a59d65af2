"""FakeSearch: canned hits, for every query or by substring of the query."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agentkit.core.types import SearchHit

__all__ = ["FakeSearch"]


def _hits(value: object, where: str) -> tuple[SearchHit, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise TypeError(f"{where} must be a list of SearchHit, got {type(value).__name__}")
    for hit in value:
        if not isinstance(hit, SearchHit):
            raise TypeError(f"{where} must hold SearchHit objects, got {type(hit).__name__}")
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
    """

    __slots__ = ("_table", "queries")

    def __init__(self, hits: list[SearchHit] | dict[str, list[SearchHit]]) -> None:
        self._table: tuple[tuple[str, tuple[SearchHit, ...]], ...]
        if isinstance(hits, Mapping):
            table: list[tuple[str, tuple[SearchHit, ...]]] = []
            for key, value in hits.items():
                if not isinstance(key, str):
                    raise TypeError(f"FakeSearch keys must be str, got {key!r}")
                table.append((key, _hits(value, f"FakeSearch hits for {key!r}")))
            self._table = tuple(table)
        else:
            # A list is the dict with one key every query contains.
            self._table = (("", _hits(hits, "FakeSearch hits")),)
        self.queries: list[tuple[str, int]] = []

    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ValueError(f"k must be an int >= 0, got {k!r}")
        self.queries.append((query, k))
        for key, hits in self._table:
            if key in query:
                return list(hits[:k])
        return []
