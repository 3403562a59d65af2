"""FakeSearch: a list for every query, or the first substring key that matches; k is honoured."""

from __future__ import annotations

from typing import Any, cast

import pytest

from agentkit.core.types import SearchHit
from agentkit.fakes.io import FakeSearch

HITS = [SearchHit(f"title {n}", f"https://example.com/{n}", f"snippet {n}") for n in range(5)]
PY = [SearchHit("Python", "https://python.org")]
RUST = [SearchHit("Rust", "https://rust-lang.org")]


async def test_a_list_is_returned_for_every_query() -> None:
    search = FakeSearch(HITS)
    assert await search.search("anything") == HITS
    assert await search.search("") == HITS


async def test_k_returns_the_first_k() -> None:
    search = FakeSearch(HITS)
    assert await search.search("q", k=2) == HITS[:2]
    assert await search.search("q", k=0) == []
    assert await search.search("q", k=50) == HITS


async def test_default_k_is_ten() -> None:
    many = [SearchHit(str(n), f"u{n}") for n in range(15)]
    assert len(await FakeSearch(many).search("q")) == 10


async def test_dict_first_substring_match_in_insertion_order_wins() -> None:
    search = FakeSearch({"python": PY, "py": RUST})
    assert await search.search("learn python fast") == PY
    assert await search.search("pytest docs") == RUST
    # Its "python" entry is shadowed on purpose, so it is never matched: no verification.
    reordered = FakeSearch({"py": RUST, "python": PY}, verify=False)
    assert await reordered.search("learn python fast") == RUST


async def test_dict_unknown_query_returns_no_hits() -> None:
    search = FakeSearch({"python": PY})
    assert await search.search("haskell") == []
    assert [v.kind for v in search.violations()] == ["unused_entries"]
    assert await search.search("python") == PY
    assert search.violations() == []


async def test_dict_honours_k() -> None:
    search = FakeSearch({"q": HITS})
    assert await search.search("q", k=3) == HITS[:3]


async def test_queries_are_recorded_with_k() -> None:
    search = FakeSearch({"python": PY})
    await search.search("python")
    await search.search("other", k=2)
    assert search.queries == [("python", 10), ("other", 2)]


async def test_results_are_a_fresh_list_that_cannot_change_the_fixture() -> None:
    hits = list(HITS)
    search = FakeSearch(hits)
    first = await search.search("q")
    first.clear()
    hits.clear()  # nor can the caller's original list
    assert await search.search("q") == HITS


async def test_negative_k_is_rejected() -> None:
    with pytest.raises(ValueError, match="k must be"):
        await FakeSearch(HITS).search("q", k=-1)


@pytest.mark.parametrize(
    "bad",
    [["not a hit"], {"q": ["not a hit"]}, {"q": "a string"}, "a string", {1: PY}],
)
def test_bad_fixtures_are_rejected(bad: Any) -> None:
    with pytest.raises(TypeError):
        FakeSearch(cast(Any, bad))
