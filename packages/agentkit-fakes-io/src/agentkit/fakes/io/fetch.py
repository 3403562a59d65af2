"""FakeFetch: fetch answered from fixtures; an unknown URL fails loudly."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from agentkit.core.types import FetchResponse

__all__ = ["FakeFetch", "UnknownURLError"]


class UnknownURLError(KeyError):
    """A URL the fixtures do not list was fetched.

    A KeyError whose only argument is the URL (``KeyError(url)``, as the kit
    documents), so ``except KeyError`` and ``exc.args[0] == url`` both work;
    the subclass only adds a message naming the URLs the fixtures DO list,
    which is usually the typo.
    """

    def __init__(self, url: str, known: Iterable[str]) -> None:
        self.url = url
        self.known = tuple(sorted(known))
        super().__init__(url)

    def __str__(self) -> str:
        return f"FakeFetch has no fixture for {self.url!r}; the fixtures list {list(self.known)}"


class FakeFetch:
    """Deterministic offline FetchPort.

    ``fixtures`` is ``{url: FetchResponse}``, matched exactly. An unknown URL
    raises :class:`UnknownURLError` (a ``KeyError(url)``) so a test fails loud
    instead of silently falling back to a stub response that the agent would
    then reason about. Every fetch, the failing ones included, is recorded in
    :attr:`calls` in order. The fixtures are copied, and ``fixtures`` is a
    plain dict a test may add to between steps.
    """

    __slots__ = ("calls", "fixtures")

    def __init__(self, fixtures: Mapping[str, FetchResponse]) -> None:
        self.fixtures: dict[str, FetchResponse] = {}
        for url, response in fixtures.items():
            if not isinstance(url, str) or not isinstance(response, FetchResponse):
                raise TypeError(
                    f"fixtures must map a URL str to a FetchResponse, got {url!r}: {response!r}"
                )
            self.fixtures[url] = response
        self.calls: list[str] = []

    async def fetch(self, url: str) -> FetchResponse:
        self.calls.append(url)
        try:
            return self.fixtures[url]
        except KeyError:
            raise UnknownURLError(url, self.fixtures) from None
