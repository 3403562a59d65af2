"""FakeFetch: fixtures by exact URL; an unknown URL is a loud KeyError(url)."""

from __future__ import annotations

from typing import Any, cast

import pytest

from agentkit.core.types import FetchResponse
from agentkit.fakes.io import FakeFetch
from agentkit.fakes.io.fetch import UnknownURLError

PAGE = FetchResponse(url="https://example.com/a", status=200, body="<h1>A</h1>")
MISSING = FetchResponse(url="https://example.com/gone", status=404, body="not found")


async def test_a_known_url_returns_its_fixture() -> None:
    fetch = FakeFetch({PAGE.url: PAGE, MISSING.url: MISSING})
    assert await fetch.fetch(PAGE.url) is PAGE
    assert await fetch.fetch(MISSING.url) is MISSING  # a 404 fixture is a response, not an error


async def test_an_unknown_url_raises_key_error_of_the_url() -> None:
    fetch = FakeFetch({PAGE.url: PAGE})
    with pytest.raises(KeyError) as info:
        await fetch.fetch("https://example.com/b")
    assert info.value.args == ("https://example.com/b",)
    assert isinstance(info.value, UnknownURLError)
    assert info.value.url == "https://example.com/b"
    assert "https://example.com/a" in str(info.value)  # names what the fixtures DO list


async def test_matching_is_exact_not_by_prefix() -> None:
    fetch = FakeFetch({PAGE.url: PAGE})
    with pytest.raises(UnknownURLError):
        await fetch.fetch(PAGE.url + "/")


async def test_every_fetch_is_recorded_in_order_misses_included() -> None:
    fetch = FakeFetch({PAGE.url: PAGE})
    await fetch.fetch(PAGE.url)
    with pytest.raises(KeyError):
        await fetch.fetch("https://nowhere")
    await fetch.fetch(PAGE.url)
    assert fetch.calls == [PAGE.url, "https://nowhere", PAGE.url]


async def test_fixtures_are_copied_and_may_be_extended_on_the_double() -> None:
    fixtures = {PAGE.url: PAGE}
    fetch = FakeFetch(fixtures)
    fixtures.clear()
    assert await fetch.fetch(PAGE.url) is PAGE
    fetch.fixtures[MISSING.url] = MISSING
    assert await fetch.fetch(MISSING.url) is MISSING


def test_fixtures_must_be_fetch_responses() -> None:
    with pytest.raises(TypeError, match="FetchResponse"):
        FakeFetch(cast(Any, {"https://x": "<html>"}))
