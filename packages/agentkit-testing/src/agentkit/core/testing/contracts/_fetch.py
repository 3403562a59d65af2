"""The FetchPort contract, checked against pages with known bodies, statuses and headers.

A fetcher is only worth its suite if the suite looks at what comes back. So
the checks fetch the pages of a :class:`ContractSite`: a page in UTF-8, one
in Latin-1, a 404, a 500 and three redirects, each with known headers. A
redirect may be followed (as urllib and aiohttp do) or returned as itself
(as httpx does by default); either is a whole answer. By
default the suite serves them itself from an HTTP server on 127.0.0.1 for
the length of the run, so a real fetcher is checked over a real socket. A
double cannot reach that server: build it from :meth:`ContractSite.responses`
(what a correct fetcher returns for each URL) and pass the same site.
"""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agentkit.core._internal.arguments import check_str
from agentkit.core.ports import FetchPort
from agentkit.core.testing.contracts._base import ContractTests
from agentkit.core.testing.contracts._suite import (
    Broken,
    Factory,
    Maker,
    Suite,
    describe_got,
    must_raise,
)
from agentkit.core.types import FetchResponse

__all__ = [
    "DEFAULT_UNKNOWN_URL",
    "FETCH_SUITE",
    "ContractSite",
    "FetchPortContract",
    "check_fetch_port",
    "serve_contract_site",
]

DEFAULT_UNKNOWN_URL = "http://agentkit-contract.invalid/unknown"
"""``.invalid`` never resolves (RFC 2606), so a real fetcher fails on it at once."""


@dataclass(frozen=True, slots=True)
class _Page:
    status: int
    body: bytes
    charset: str
    headers: tuple[tuple[str, str], ...]

    @property
    def text(self) -> str:
        return self.body.decode(self.charset)

    def sent_headers(self) -> dict[str, str]:
        return {"Content-Type": f"text/plain; charset={self.charset}", **dict(self.headers)}


def _page(status: int, text: str, charset: str = "utf-8", tag: str = "") -> _Page:
    return _Page(status, text.encode(charset), charset, (("X-Agentkit-Contract", tag),))


_PAGES: dict[str, _Page] = {
    "/page": _page(200, "h\u00e9llo from the contract site \u2713\nsecond line\n", tag="page"),
    "/latin1": _page(200, "caf\u00e9 cr\u00e8me\n", "iso-8859-1", tag="latin1"),
    "/missing": _page(404, "no such page here\n", tag="missing"),
    "/broken": _page(500, "the server broke\n", tag="broken"),
}
_REDIRECTS: dict[str, tuple[int, str]] = {
    "/moved": (301, "/page"),
    "/found": (302, "/page"),
    "/temporary": (307, "/latin1"),
}


class ContractSite:
    """The pages the FetchPort suite fetches, under ``base_url``.

    ``ContractSite()`` names pages under a base no server answers, for a
    double built from :meth:`responses`; :func:`serve_contract_site` yields
    one whose base is a live loopback server.
    """

    def __init__(self, base_url: str = "http://agentkit-contract.test") -> None:
        self.base_url = check_str(base_url, "ContractSite", "base_url", empty=False).rstrip("/")

    def url(self, path: str) -> str:
        """The full URL of one of the site's paths (``"/page"``)."""
        return f"{self.base_url}{path}"

    @property
    def paths(self) -> tuple[str, ...]:
        """Every path the site serves, redirects included."""
        return (*_PAGES, *_REDIRECTS)

    def expected(self, path: str) -> FetchResponse:
        """What a correct fetcher returns for ``path``: a redirect is the page it leads to."""
        target = _REDIRECTS[path][1] if path in _REDIRECTS else path
        page = _PAGES[target]
        return FetchResponse(self.url(target), page.status, page.text, page.sent_headers())

    def responses(self) -> dict[str, FetchResponse]:
        """``{url: FetchResponse}`` for every path: the fixtures of a double that passes."""
        return {self.url(path): self.expected(path) for path in self.paths}

    def __repr__(self) -> str:
        return f"ContractSite({self.base_url!r})"


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path in _REDIRECTS:
            status, target = _REDIRECTS[path]
            self.send_response(status)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        page = _PAGES.get(path) or _page(404, f"nothing at {path}\n")
        self.send_response(page.status)
        for name, value in page.sent_headers().items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(page.body)))
        self.end_headers()
        self.wfile.write(page.body)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # a request log in the test output says nothing the checks do not


@contextlib.contextmanager
def serve_contract_site() -> Iterator[ContractSite]:
    """Serve the site's pages from 127.0.0.1 on a free port, for the ``with`` block."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="agentkit-contract-site")
    thread.daemon = True
    thread.start()
    try:
        yield ContractSite(f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _serve(options: dict[str, Any]) -> contextlib.AbstractContextManager[dict[str, Any]]:
    if options.get("site") is not None:
        return contextlib.nullcontext(options)

    @contextlib.contextmanager
    def served() -> Iterator[dict[str, Any]]:
        with serve_contract_site() as site:
            yield {**options, "site": site}

    return served()


FETCH_SUITE = Suite(
    "FetchPort", ("fetch",), FetchPort, options=("site", "known_url", "unknown_url")
)
FETCH_SUITE.serve = _serve


async def _fetch(port: FetchPort, url: str) -> FetchResponse:
    got = await port.fetch(url)
    if not isinstance(got, FetchResponse):
        raise Broken(f"fetch({url!r}) returned {describe_got(got)}, not a FetchResponse")
    return got


def _status_and_body(got: FetchResponse, want: FetchResponse, url: str) -> None:
    if got.status != want.status:
        raise Broken(f"fetch({url!r}) gave status {got.status!r}; the server sent {want.status}")
    if got.body != want.body:
        raise Broken(f"fetch({url!r}) gave body {got.body[:80]!r}; the server sent {want.body!r}")


@FETCH_SUITE.check()
async def a_page_comes_back_as_served(make: Maker[FetchPort], options: Mapping[str, Any]) -> None:
    site: ContractSite = options["site"]
    port = await make()
    for path in ("/page", "/latin1"):
        url = site.url(path)
        got = await _fetch(port, url)
        _status_and_body(got, site.expected(path), url)
        if got.url != url:
            raise Broken(f"fetch({url!r}) gave url {got.url!r}")


@FETCH_SUITE.check()
async def the_headers_come_back(make: Maker[FetchPort], options: Mapping[str, Any]) -> None:
    site: ContractSite = options["site"]
    port = await make()
    url = site.url("/page")
    got = await _fetch(port, url)
    have = {str(name).lower(): value for name, value in dict(got.headers).items()}
    for name, value in site.expected("/page").headers.items():
        if have.get(name.lower()) != value:
            raise Broken(
                f"fetch({url!r}) gave headers {dict(got.headers)!r}: the server sent "
                f"{name}: {value!r}"
            )


@FETCH_SUITE.check()
async def an_error_status_is_a_response(make: Maker[FetchPort], options: Mapping[str, Any]) -> None:
    site: ContractSite = options["site"]
    port = await make()
    for path in ("/missing", "/broken"):
        url = site.url(path)
        want = site.expected(path)
        try:
            got = await _fetch(port, url)
        except Broken:
            raise
        except Exception as exc:
            raise Broken(
                f"fetch({url!r}) raised {describe_got(exc)}; the server answered {want.status}"
            ) from None
        _status_and_body(got, want, url)


@FETCH_SUITE.check()
async def a_redirect_is_answered_whole(make: Maker[FetchPort], options: Mapping[str, Any]) -> None:
    site: ContractSite = options["site"]
    port = await make()
    for path, (code, target) in _REDIRECTS.items():
        url = site.url(path)
        got = await _fetch(port, url)
        if got.status != code:  # followed: it must be the page it leads to, whole
            _status_and_body(got, site.expected(path), url)
            continue
        headers = {str(name).lower(): value for name, value in dict(got.headers).items()}
        location = headers.get("location", "")
        if not location.endswith(target):
            raise Broken(
                f"fetch({url!r}) gave the {code} itself without its Location header "
                f"(headers {dict(got.headers)!r}): the caller cannot tell where it leads"
            )


@FETCH_SUITE.check()
async def the_port_serves_more_than_one_fetch(
    make: Maker[FetchPort], options: Mapping[str, Any]
) -> None:
    site: ContractSite = options["site"]
    port = await make()
    url = site.url("/page")
    first = await _fetch(port, url)
    second = await _fetch(port, url)
    if (first.status, first.body) != (second.status, second.body):
        raise Broken(
            f"status/body changed between fetches: {first.status} {first.body[:60]!r} then "
            f"{second.status} {second.body[:60]!r}"
        )


@FETCH_SUITE.check()
async def an_unknown_url_raises(make: Maker[FetchPort], options: Mapping[str, Any]) -> None:
    port = await make()
    url = options.get("unknown_url") or DEFAULT_UNKNOWN_URL
    await must_raise(lambda: port.fetch(url), f"fetch({url!r})")


@FETCH_SUITE.check("known_url")
async def a_known_url_gives_a_fetch_response(
    make: Maker[FetchPort], options: Mapping[str, Any]
) -> None:
    port = await make()
    await _fetch(port, options["known_url"])


async def check_fetch_port(
    factory: Factory,
    *,
    site: ContractSite | None = None,
    known_url: str | None = None,
    unknown_url: str = DEFAULT_UNKNOWN_URL,
    skip: Sequence[str] = (),
) -> list[str]:
    """Run every FetchPort check on fetchers ``factory`` makes.

    Without ``site`` the suite serves the pages itself on 127.0.0.1; a double
    gets ``site=ContractSite()`` and fixtures from its ``responses()``.
    ``known_url`` optionally names one more page that must be fetchable (a
    page of the real service; without it that check is skipped), and
    ``unknown_url`` one that nothing answers.
    """
    options = {"site": site, "known_url": known_url, "unknown_url": unknown_url}
    return await FETCH_SUITE.run(factory, options, skip=skip)


class FetchPortContract(ContractTests):
    """Subclass with a ``make_port`` fixture; ``contract_options`` (or a ``port_options``
    fixture) may give ``site``, ``known_url`` and ``unknown_url``."""

    _suite = FETCH_SUITE
