"""FakeSearch: canned hits, for every query or by substring of the query."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    check_int,
)
from agentkit.core.types import SearchHit
from agentkit.core.verification import VerifyingDouble, Violation

__all__ = ["FakeSearch"]

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


class FakeSearch(VerifyingDouble):
    """Deterministic offline SearchPort.

    Pass a list (returned for every query) or a dict
    ``{substring_of_query: [SearchHit, ...]}``: the first key, in insertion
    order, that the query contains wins, and a query no key matches gets
    ``[]`` -- "no results" is an ordinary search outcome, so unlike a fetch
    of an unknown URL it is not an error. Either way at most ``k`` hits are
    returned (the first ``k``), in a new list each call, so a caller that
    sorts or pops its results cannot change the fixture.

    Every search is recorded in :attr:`queries` as ``(query, k)``.

    Strict by default about the dict form: its entries are material the test
    claims the agent searches for, so an entry no query ever matched is
    reported at teardown (``unused_entries``), as FakeFetch reports a page
    never fetched -- a search whose wording drifted so that it now misses
    its canned hits fails its test instead of passing on ``[]``. A query no
    key matches is still an ordinary ``[]`` (no results is an outcome). The
    list form answers every query and has nothing to leave over.
    ``verify=False`` when the dict is a menu the agent may pick from.
    Assert on :attr:`queries` for what the agent searched.
    """

    def __init__(
        self,
        hits: Sequence[SearchHit] | Mapping[str, Sequence[SearchHit]],
        *,
        verify: bool = True,
    ) -> None:
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
        self._keyed = isinstance(given, Mapping)
        self._matched: set[str] = set()
        self.queries: list[tuple[str, int]] = []
        self._init_verification(verify=verify)

    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        check_int(k, "FakeSearch.search", "k")
        self.queries.append((query, k))
        for key, hits in self._table:
            if key in query:
                self._matched.add(key)
                return list(hits[:k])
        return []

    def _leftovers(self) -> list[Violation]:
        if not self._keyed:
            return []
        unused = [key for key, _ in self._table if key not in self._matched]
        if not unused:
            return []
        asked = [query for query, _ in self.queries]
        return [
            self._violation(
                "unused_entries",
                f"{len(unused)} of {len(self._table)} entries were never matched by a query: "
                f"{unused!r} (the queries were {asked!r})",
                "if the agent should have searched for them, fix the code under test; if the "
                "test does not claim those searches, remove the entries (or pass verify=False "
                "for a menu of answers the agent picks from)",
            )
        ]
