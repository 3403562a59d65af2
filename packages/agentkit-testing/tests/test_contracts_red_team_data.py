"""FetchPort, SearchPort and MemorySource, the red team: mistakes seen in real code, and correct ones built otherwise.

The rows and what they must come to: ``tests.support.contract_runs``.
"""

from __future__ import annotations

import asyncio
import email.message
import http.client
import itertools
import sqlite3
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from agentkit.core.types import (
    FetchResponse,
    MemoryItem,
    SearchHit,
)
from tests.support.contract_bases import ListMemory
from tests.support.contract_runs import (
    RedTeamTable,
    Right,
    Wrong,
)

# ----------------------------------------------------------------- fetchers


def _charset(headers: email.message.Message) -> str:
    return headers.get_content_charset() or "utf-8"


class UrllibFetch:
    """Correct: urllib in a thread, an HTTPError read as the response it is."""

    async def fetch(self, url: str) -> FetchResponse:
        return await asyncio.to_thread(self._get, url)

    def _get(self, url: str) -> FetchResponse:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                status, headers, raw = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            with error:  # it holds the connection: unclosed, it warns when collected
                status, headers, raw = error.code, error.headers, error.read()
        return FetchResponse(url, status, raw.decode(_charset(headers)), dict(headers.items()))


class StreamsFetch:
    """Correct: HTTP/1.1 by hand over asyncio streams; a redirect returned as itself."""

    async def fetch(self, url: str) -> FetchResponse:
        parts = urllib.parse.urlsplit(url)
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port or 80)
        try:
            target = parts.path or "/"
            writer.write(
                f"GET {target} HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: close\r\n\r\n".encode()
            )
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
            await writer.wait_closed()
        head, _, body = raw.partition(b"\r\n\r\n")
        status_line, *lines = head.decode("iso-8859-1").split("\r\n")
        message = email.message.Message()
        for line in lines:
            name, _, value = line.partition(":")
            message[name.strip()] = value.strip()
        return FetchResponse(
            url, int(status_line.split()[1]), body.decode(_charset(message)), dict(message.items())
        )


class RequestsFetch:
    """Correct: requests in a thread, redirects followed, no raise_for_status()."""

    async def fetch(self, url: str) -> FetchResponse:
        requests = pytest.importorskip("requests")
        response = await asyncio.to_thread(requests.get, url, timeout=10)
        return FetchResponse(url, response.status_code, response.text, dict(response.headers))


class Httpx2Fetch:
    """Correct: an httpx-style async client (redirects returned as themselves by default)."""

    async def fetch(self, url: str) -> FetchResponse:
        httpx2 = pytest.importorskip("httpx2")
        async with httpx2.AsyncClient() as client:
            response = await client.get(url)
        return FetchResponse(url, response.status_code, response.text, dict(response.headers))


class Utf8Fetch(UrllibFetch):
    """Decodes every body as UTF-8, whatever charset the server declared."""

    def _get(self, url: str) -> FetchResponse:
        got = super()._get(url)
        try:
            response = urllib.request.urlopen(url, timeout=10)
        except urllib.error.HTTPError as error:
            response = error  # closed below: unclosed, it warns when collected
        with response:
            raw = response.read()
        return FetchResponse(url, got.status, raw.decode("utf-8", "replace"), got.headers)


class RaiseForStatusFetch(RequestsFetch):
    """The requests habit: raise_for_status() on every response."""

    async def fetch(self, url: str) -> FetchResponse:
        requests = pytest.importorskip("requests")
        response = await asyncio.to_thread(requests.get, url, timeout=10)
        response.raise_for_status()
        return FetchResponse(url, response.status_code, response.text, dict(response.headers))


class BytesReprFetch(UrllibFetch):
    """str(bytes) instead of bytes.decode(): the body reads "b'...'"."""

    def _get(self, url: str) -> FetchResponse:
        got = super()._get(url)
        return FetchResponse(url, got.status, str(got.body.encode()), got.headers)


class EmptyResponseOnErrorFetch(UrllibFetch):
    """Turns a connection error into a made-up empty 503."""

    def _get(self, url: str) -> FetchResponse:
        try:
            return super()._get(url)
        except OSError:
            return FetchResponse(url, 503, "", {})


class HostCacheFetch(UrllibFetch):
    """Caches by host: every page of a site gets the first page's answer."""

    def __init__(self) -> None:
        self.cache: dict[str, FetchResponse] = {}

    def _get(self, url: str) -> FetchResponse:
        host = urllib.parse.urlsplit(url).netloc
        if host not in self.cache:
            self.cache[host] = super()._get(url)
        cached = self.cache[host]
        return FetchResponse(url, cached.status, cached.body, cached.headers)


class OneConnectionFetch:
    """One http.client connection, closed after the first answer and never reopened."""

    def __init__(self) -> None:
        self.connection: http.client.HTTPConnection | None = None
        self.used = False

    async def fetch(self, url: str) -> FetchResponse:
        return await asyncio.to_thread(self._get, url)

    def _get(self, url: str) -> FetchResponse:
        parts = urllib.parse.urlsplit(url)
        if self.connection is None:
            self.connection = http.client.HTTPConnection(parts.netloc, timeout=10)
        if self.used:
            raise ConnectionError("connection already closed")
        self.connection.request("GET", parts.path or "/")
        response = self.connection.getresponse()
        raw = response.read()
        self.connection.close()
        self.used = True
        return FetchResponse(
            url, response.status, raw.decode(_charset(response.msg)), dict(response.getheaders())
        )


class StatusOfTheRedirectFetch(UrllibFetch):
    """Follows a redirect, but reports the redirect's own 3xx status with the page's body."""

    def _get(self, url: str) -> FetchResponse:
        got = super()._get(url)
        path = urllib.parse.urlsplit(url).path
        codes = {"/moved": 301, "/found": 302, "/temporary": 307}
        return FetchResponse(url, codes.get(path, got.status), got.body, got.headers)


class FinalUrlFetch(UrllibFetch):
    """Reports the URL the page was finally served from (geturl()), not the one asked for."""

    def _get(self, url: str) -> FetchResponse:
        got = super()._get(url)
        return FetchResponse(url + "?served", got.status, got.body, got.headers)


# ---------------------------------------------------------------- search

DOCS = [
    SearchHit(f"agentkit page {n}", f"https://agentkit.test/{n}", f"snippet {n}") for n in range(4)
]


class ListSearch:
    """Correct: a filter over a list, the limit sliced."""

    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return [h for h in DOCS if query in h.title][:k]


class ZeroMeansAllSearch(ListSearch):
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return [h for h in DOCS if query in h.title][: k or None]


class TupleSearch(ListSearch):
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return tuple(await super().search(query, k))  # type: ignore[return-value]


class LastHitsSearch(ListSearch):
    """hits[-k:]: the k least relevant."""

    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        hits = [h for h in DOCS if query in h.title]
        return hits[-k:] if k else []


class PaddingSearch(ListSearch):
    """Always k hits: cycles the hits it has to fill the page."""

    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        hits = [h for h in DOCS if query in h.title]
        return list(itertools.islice(itertools.cycle(hits), k))


class DictSearch(ListSearch):
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return [{"title": h.title, "url": h.url} for h in await super().search(query, k)]  # type: ignore[misc]


# ---------------------------------------------------------------- memory


class SqliteMemory:
    """Correct: an in-memory sqlite table, LIKE for the query, rows copied out."""

    name = "sqlite"

    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("create table items (text text, source text)")

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        rows = self.db.execute(
            "select text, source from items where text like ? order by rowid limit ?",
            (f"%{query}%", k),
        )
        return [MemoryItem(text, source) for text, source in rows]

    async def write(self, items: Sequence[MemoryItem]) -> None:
        self.db.executemany("insert into items values (?, ?)", [(i.text, i.source) for i in items])


class RowTupleMemory(SqliteMemory):
    """Hands back sqlite's rows as they come: tuples."""

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        rows = self.db.execute(
            "select text, source from items where text like ? limit ?", (f"%{query}%", k)
        )
        return list(rows)


class ZeroMeansAllMemory(SqliteMemory):
    """LIMIT -1 for k=0 (sqlite's "no limit"), so a caller asking for none gets all."""

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        return await super().query(query, k or -1, where)


class ReplacingMemory(SqliteMemory):
    """write() = "delete from items" then insert: the store is the last write."""

    async def write(self, items: Sequence[MemoryItem]) -> None:
        self.db.execute("delete from items")
        await super().write(items)


class RecentFallbackMemory(SqliteMemory):
    """Nothing matches? Then the most recent items, to be helpful."""

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        found = await super().query(query, k, where)
        if found:
            return found
        rows = self.db.execute("select text, source from items order by rowid desc limit ?", (k,))
        return [MemoryItem(text, source) for text, source in rows]


class SharedListMemory(ListMemory):
    """Hands its own list back when everything matches."""

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        if all(query in i.text for i in self.items) and len(self.items) <= k:
            return self.items
        return [i for i in self.items if query in i.text][:k]


class UnnamedMemory(SqliteMemory):
    name = ""


# ------------------------------------------------------------------ table


SEARCH = {"query": "agentkit"}
NO_KNOWN_URL = ("a_known_url_gives_a_fetch_response",)


WRONG = [
    Wrong("fetch", "a_page_comes_back_as_served", Utf8Fetch, "caf"),
    Wrong("fetch", "an_error_status_is_a_response", RaiseForStatusFetch, "HTTPError"),
    Wrong("fetch", "a_page_comes_back_as_served", BytesReprFetch, "b'h"),
    Wrong("fetch", "an_unknown_url_raises", EmptyResponseOnErrorFetch, "status=503"),
    Wrong("fetch", "a_page_comes_back_as_served", HostCacheFetch, "caf"),
    Wrong("fetch", "the_port_serves_more_than_one_fetch", OneConnectionFetch, "ConnectionError"),
    Wrong("fetch", "a_redirect_is_answered_whole", StatusOfTheRedirectFetch, "Location"),
    Wrong("fetch", "a_page_comes_back_as_served", FinalUrlFetch, "?served"),
    Wrong("search", "a_limit_of_zero_gives_no_hits", ZeroMeansAllSearch, "search('agentkit', 0)"),
    Wrong("search", "search_returns_a_list_of_search_hits", TupleSearch, "tuple ("),
    Wrong("search", "the_limit_takes_the_first_hits", LastHitsSearch, "not the first 1"),
    Wrong("search", "the_limit_takes_the_first_hits", PaddingSearch, "repeated"),
    Wrong("search", "search_returns_a_list_of_search_hits", DictSearch, "item 0 is dict"),
    Wrong("memory", "query_returns_at_most_k_memory_items", RowTupleMemory, "item 0 is tuple"),
    Wrong("memory", "a_limit_of_zero_gives_no_items", ZeroMeansAllMemory, "query('agentkit', 0)"),
    Wrong("memory", "a_second_write_keeps_the_first", ReplacingMemory, "lacks"),
    Wrong("memory", "a_query_nothing_matches_returns_nothing_new", RecentFallbackMemory, "no item"),
    Wrong(
        "memory", "the_store_cannot_be_changed_through_the_callers_copy", SharedListMemory, "query"
    ),
    Wrong("memory", "name_is_a_non_empty_str", UnnamedMemory, "str ''"),
]

RIGHT = [
    Right("fetch", UrllibFetch, skipped=NO_KNOWN_URL),
    Right("fetch", StreamsFetch, skipped=NO_KNOWN_URL),
    Right("fetch", RequestsFetch, skipped=NO_KNOWN_URL),
    Right("fetch", Httpx2Fetch, skipped=NO_KNOWN_URL),
    Right("search", ListSearch, SEARCH),
    Right("memory", SqliteMemory),
]


class TestRedTeam(RedTeamTable):
    group = "data"
    wrong = WRONG
    right = RIGHT
