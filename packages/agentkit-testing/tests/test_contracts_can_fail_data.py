"""FetchPort, SearchPort and MemorySource: each check fails, in both forms, on a realistic wrong implementation.

The rows and what they must come to: ``tests.support.contract_runs``.
"""

from __future__ import annotations

import asyncio
import http.client
import urllib.parse
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from agentkit.core.testing import contracts
from agentkit.core.types import (
    FetchResponse,
    MemoryItem,
    SearchHit,
)
from tests.support.contract_bases import ListMemory
from tests.support.contract_runs import (
    WrongTable,
    cases,
    run_class_form,
)

# ------------------------------------------------------------------- fetch


class HttpClientFetch:
    """A correct fetcher over http.client: follows redirects, any status is a response."""

    follow = True
    decode_by_charset = True
    keep_headers = True
    raise_for_status = False

    async def fetch(self, url: str) -> FetchResponse:
        return await asyncio.to_thread(self._fetch, url, 5)

    def _fetch(self, url: str, hops: int) -> FetchResponse:
        parts = urllib.parse.urlsplit(url)
        connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
        try:
            connection.request("GET", parts.path or "/")
            reply = connection.getresponse()
            data = reply.read()
        finally:
            connection.close()
        location = reply.getheader("Location")
        if self.follow and reply.status in (301, 302, 303, 307, 308) and location and hops:
            return self._fetch(urllib.parse.urljoin(url, location), hops - 1)
        if self.raise_for_status and reply.status >= 400:
            raise OSError(f"HTTP {reply.status}")
        charset = reply.msg.get_content_charset() if self.decode_by_charset else None
        body = data.decode(charset or "utf-8", errors="replace")
        headers = dict(reply.getheaders()) if self.keep_headers else {}
        return FetchResponse(url, status=reply.status, body=body, headers=headers)


class RaisesOnErrorStatusFetch(HttpClientFetch):
    raise_for_status = True  # as urlopen does: an HTTPError for a 404


class DropsHeadersFetch(HttpClientFetch):
    keep_headers = False


class Utf8OnlyFetch(HttpClientFetch):
    decode_by_charset = False  # the Latin-1 page comes back mangled


class NoRedirectFetch(HttpClientFetch):
    """Returns a redirect as itself, as httpx does by default: correct too."""

    follow = False


class RedirectAsOkFetch(NoRedirectFetch):
    """Treats every answer below 400 as a success: a 302 comes back as an empty 200."""

    async def fetch(self, url: str) -> FetchResponse:
        got = await super().fetch(url)
        status = 200 if got.status < 400 else got.status
        return FetchResponse(url, status, got.body, got.headers)


class FirstStatusFetch(HttpClientFetch):
    """Follows redirects by hand but reports the first response's status."""

    async def fetch(self, url: str) -> FetchResponse:
        first = await asyncio.to_thread(NoRedirectFetch()._fetch, url, 0)
        final = await super().fetch(url)
        return FetchResponse(url, first.status, final.body, final.headers)


class InventsFetch(HttpClientFetch):
    async def fetch(self, url: str) -> FetchResponse:
        try:
            return await super().fetch(url)
        except OSError:
            return FetchResponse(url, status=200, body="")


class DictFetch:
    async def fetch(self, url: str) -> Any:
        return {"url": url, "body": "hello"}


class OneShotFetch(HttpClientFetch):
    """Keeps a connection-like cursor: the second fetch of a page reads nothing."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    async def fetch(self, url: str) -> FetchResponse:
        got = await super().fetch(url)
        if url in self.seen:
            return FetchResponse(url, got.status, "", got.headers)
        self.seen.add(url)
        return got


# ------------------------------------------------------------------ search


HITS = [SearchHit(f"t{n}", f"https://example.test/{n}") for n in range(5)]


class IgnoresKSearch:
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return list(HITS)


class TupleSearch:
    async def search(self, query: str, k: int = 10) -> Any:
        return tuple(HITS[:k])


class ZeroMeansDefaultSearch:
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return HITS[: k or 10]  # 0 read as "not given"


class OffByOneSearch:
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return HITS[: k - 1] if k else []  # one short: the k-th hit is dropped


class PaddingSearch:
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return [HITS[n % len(HITS)] for n in range(k)]  # always k hits


# ------------------------------------------------------------------ memory


class NoneMeansAllMemory(ListMemory):
    """items[:k or None]: a limit of 0 reads as "no limit"."""

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        return await super().query(query, k or len(self.items), where)


class IgnoresKMemory(ListMemory):
    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        return await super().query(query, 100, where)


class InventingMemory(ListMemory):
    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        self.asked = getattr(self, "asked", 0) + 1
        found = await super().query(query, k, where)
        return [*found, MemoryItem(f"a related note ({self.asked})", "suggestions")][:k]


class FallbackMemory(ListMemory):
    """With no match, answers the most recent items: 'something is better than nothing'."""

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        return await super().query(query, k, where) or self.items[-k:]


class NamelessMemory(ListMemory):
    name = ""


class ForgetfulMemory(ListMemory):
    async def write(self, items: Sequence[MemoryItem]) -> None:
        self.written = list(items)  # recorded, never answered


class ReplacingMemory(ListMemory):
    async def write(self, items: Sequence[MemoryItem]) -> None:
        self.items = list(items)


class AliasingMemory(ListMemory):
    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        return self.items  # the store itself, not a copy

    async def write(self, items: Sequence[MemoryItem]) -> None:
        if isinstance(items, list) and not self.items:
            self.items = items  # keeps the caller's list
        else:
            self.items.extend(items)


# ------------------------------------------------------------------- table


CASES = [
    *cases(
        "fetch",
        ("a_page_comes_back_as_served", DictFetch, "dict"),
        ("a_page_comes_back_as_served", Utf8OnlyFetch, "caf"),
        ("the_headers_come_back", DropsHeadersFetch, "gave headers {}"),
        ("an_error_status_is_a_response", RaisesOnErrorStatusFetch, "HTTP 404"),
        ("a_redirect_is_answered_whole", RedirectAsOkFetch, "gave body ''"),
        ("a_redirect_is_answered_whole", FirstStatusFetch, "without its Location"),
        ("the_port_serves_more_than_one_fetch", OneShotFetch, "changed"),
        ("an_unknown_url_raises", InventsFetch, "instead of raising"),
        (
            "a_known_url_gives_a_fetch_response",
            DictFetch,
            "dict",
            {"known_url": "https://example.test/page"},
        ),
    ),
    *cases(
        "search",
        ("search_returns_a_list_of_search_hits", TupleSearch, "tuple"),
        ("search_returns_at_most_k_hits", IgnoresKSearch, "5 hits"),
        ("a_limit_of_zero_gives_no_hits", ZeroMeansDefaultSearch, "returned 5 hit"),
        ("the_limit_takes_the_first_hits", OffByOneSearch, "not the first 1"),
        ("the_limit_takes_the_first_hits", PaddingSearch, "repeated"),
    ),
    *cases(
        "memory",
        ("name_is_a_non_empty_str", NamelessMemory, "str ''"),
        ("query_returns_at_most_k_memory_items", IgnoresKMemory, "3 items"),
        ("a_limit_of_zero_gives_no_items", NoneMeansAllMemory, "returned 3 item(s)"),
        ("query_returns_nothing_it_was_not_given", InventingMemory, "related note"),
        ("a_query_nothing_matches_returns_nothing_new", FallbackMemory, "contract item"),
        ("a_query_nothing_matches_returns_nothing_new", InventingMemory, "related"),
        ("what_is_written_is_read_back", ForgetfulMemory, "lacks"),
        ("a_second_write_keeps_the_first", ReplacingMemory, "lacks"),
        (
            "the_store_cannot_be_changed_through_the_callers_copy",
            AliasingMemory,
            "changed the store",
        ),
    ),
]


class TestTable(WrongTable):
    group = "data"
    wrong = CASES


# --------------------------------------- the correct bases of the wrong ones pass


async def test_a_fetcher_over_http_client_passes_on_a_real_loopback_server() -> None:
    assert await contracts.check_fetch_port(HttpClientFetch) == [
        "a_known_url_gives_a_fetch_response"
    ]


async def test_a_fetcher_returning_redirects_as_themselves_passes() -> None:
    assert await contracts.check_fetch_port(NoRedirectFetch) == [
        "a_known_url_gives_a_fetch_response"
    ]


async def test_a_store_that_keeps_writes_passes_every_check() -> None:
    assert await contracts.check_memory_source(ListMemory) == []


class TestAFetcherAgainstTheServedSite(contracts.FetchPortContract):
    @pytest.fixture
    def make_port(self) -> object:
        return HttpClientFetch


async def test_the_served_site_answers_what_it_describes() -> None:
    with contracts.serve_contract_site() as site:
        assert site.base_url.startswith("http://127.0.0.1:")
        fetcher = HttpClientFetch()
        for url, expected in site.responses().items():
            got = await fetcher.fetch(url)
            assert (got.status, got.body) == (expected.status, expected.body), url
            assert {k.lower(): v for k, v in got.headers.items()}.items() >= {
                k.lower(): v for k, v in expected.headers.items()
            }.items()


URL = "https://example.test/page"


async def test_an_unknown_option_key_fails_the_class_form_naming_it() -> None:
    from agentkit.core._internal.arguments import ArgumentValueError

    with pytest.raises(ArgumentValueError) as caught:
        await run_class_form(
            contracts.FetchPortContract,
            "a_page_comes_back_as_served",
            HttpClientFetch,
            {"knwon_url": URL},
        )
    text = str(caught.value)
    assert "contract_options['knwon_url']" in text
    assert "did you mean 'known_url'?" in text
    with pytest.raises(TypeError, match="knwon_url"):
        await contracts.check_fetch_port(HttpClientFetch, knwon_url=URL)  # type: ignore[call-arg]
