"""FakeFetch as respx and pytest-httpx users expect it: the URL fetched comes back, route
functions may be async and get a regex's named groups, a broken function is loud, each route
keeps its own calls, a route may be optional, query parameters match in any order."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.types import FetchResponse
from agentkit.fakes.io import FakeFetch, FetchRouteError, InTurn, URLHost, URLPrefix

ITEMS = re.compile(r"https://api\.test/items/(?P<item_id>\d+)(?:\?v=(?P<version>\d+))?")


def kinds(fetch: FakeFetch) -> list[str]:
    return [violation.kind for violation in fetch.violations()]


# ----------------------------------------------------------- the URL fetched comes back


@pytest.mark.parametrize(
    "route",
    [
        URLPrefix("https://api.test/docs/"),
        URLHost("api.test"),
        re.compile(r"https://api\.test/docs/.+"),
    ],
    ids=["prefix", "host", "regex"],
)
async def test_a_fixed_answer_on_a_pattern_route_reports_the_url_fetched(route: Any) -> None:
    placeholder = FetchResponse("https://api.test/docs/", body="docs", headers={"X-A": "1"})
    fetch = FakeFetch({route: placeholder})
    got = await fetch.fetch("https://api.test/docs/intro")
    assert got == FetchResponse("https://api.test/docs/intro", body="docs", headers={"X-A": "1"})


async def test_answers_in_turn_on_a_pattern_route_report_the_url_fetched() -> None:
    fetch = FakeFetch({URLPrefix("https://api.test/"): InTurn(FetchResponse("x", 503))})
    assert (await fetch.fetch("https://api.test/a")).url == "https://api.test/a"


async def test_an_exact_route_answering_another_url_keeps_it_as_a_redirect() -> None:
    moved = FetchResponse("https://api.test/new", body="here now")
    fetch = FakeFetch({"https://api.test/old": moved})
    assert (await fetch.fetch("https://api.test/old")).url == "https://api.test/new"


# ----------------------------------------------------------- query parameters in any order


async def test_query_parameters_match_in_any_order() -> None:
    route = "https://api.test/search?q=cats&page=2"
    fetch = FakeFetch({route: FetchResponse(route, body="cats, page 2")})
    got = await fetch.fetch("https://api.test/search?page=2&q=cats")
    assert got.body == "cats, page 2"
    assert got.url == "https://api.test/search?page=2&q=cats"  # the URL fetched


@pytest.mark.parametrize(
    "url",
    [
        "https://api.test/search?q=cats",  # a parameter missing
        "https://api.test/search?q=dogs&page=2",  # another value
        "https://api.test/search?q=cats&page=2&page=3",  # one more value
        "https://api.test/find?page=2&q=cats",  # another path
    ],
)
async def test_only_the_order_is_free(url: str) -> None:
    route = "https://api.test/search?q=cats&page=2"
    fetch = FakeFetch({route: FetchResponse(route)}, verify=False)
    with pytest.raises(KeyError):
        await fetch.fetch(url)


# ----------------------------------------------------------- route functions


async def test_an_async_route_function_is_awaited() -> None:
    async def page(url: str) -> FetchResponse:
        await asyncio.sleep(0)
        return FetchResponse(url, body="async page")

    fetch = FakeFetch({URLHost("api.test"): page})
    assert (await fetch.fetch("https://api.test/x")).body == "async page"


async def test_a_regex_routes_named_groups_are_passed_to_its_function() -> None:
    def item(url: str, item_id: str, version: str | None) -> FetchResponse:
        return FetchResponse(url, body=f"item {item_id} v{version or 1}")

    fetch = FakeFetch({ITEMS: item})
    assert (await fetch.fetch("https://api.test/items/42")).body == "item 42 v1"
    assert (await fetch.fetch("https://api.test/items/7?v=3")).body == "item 7 v3"


async def test_a_function_takes_only_the_groups_it_names_or_all_with_kwargs() -> None:
    seen: list[dict[str, Any]] = []

    def by_id(url: str, item_id: str) -> FetchResponse:
        seen.append({"item_id": item_id})
        return FetchResponse(url)

    def every(url: str, **groups: str | None) -> FetchResponse:
        seen.append(groups)
        return FetchResponse(url)

    await FakeFetch({ITEMS: by_id}).fetch("https://api.test/items/1")
    await FakeFetch({ITEMS: every}).fetch("https://api.test/items/2?v=5")
    assert seen == [{"item_id": "1"}, {"item_id": "2", "version": "5"}]


def test_a_function_that_cannot_take_its_route_is_refused_at_construction() -> None:
    def wrong(url: str, slug: str) -> FetchResponse:  # the pattern has no group "slug"
        return FetchResponse(url)

    with pytest.raises(ArgumentTypeError, match="fixtures") as caught:
        FakeFetch({ITEMS: wrong})
    assert "item_id" in str(caught.value)


async def test_a_route_function_returning_the_wrong_type_is_recorded_and_loud() -> None:
    async def page(url: str) -> Any:
        return "<html>"  # a str where a FetchResponse goes

    fetch = FakeFetch({URLHost("api.test"): page}, verify=False)
    results = await asyncio.gather(fetch.fetch("https://api.test/x"), return_exceptions=True)
    assert isinstance(results[0], FetchRouteError)
    assert not isinstance(results[0], Exception)  # no except Exception in the agent eats it
    assert kinds(fetch) == ["route_error"]
    assert "returned str" in fetch.violations()[0].detail


async def test_a_route_function_that_raises_is_a_recorded_route_error() -> None:
    def page(url: str) -> FetchResponse:
        raise KeyError("bug in the test")

    fetch = FakeFetch({URLHost("api.test"): page}, verify=False)
    with pytest.raises(FetchRouteError, match="raised KeyError") as caught:
        await fetch.fetch("https://api.test/x")
    assert isinstance(caught.value.__cause__, KeyError)
    assert kinds(fetch) == ["route_error"]
    assert "RETURN an exception instance" in fetch.violations()[0].fix


async def test_a_route_function_returning_an_exception_is_the_network_failing() -> None:
    fetch = FakeFetch({URLHost("api.test"): lambda url: ConnectionResetError(url)})
    with pytest.raises(ConnectionResetError):
        await fetch.fetch("https://api.test/x")
    assert fetch.violations() == []


# ----------------------------------------------------------- each route's calls


async def test_each_route_keeps_its_own_calls() -> None:
    prefix = URLPrefix("https://api.test/")
    fetch = FakeFetch(
        {
            "https://api.test/status": FetchResponse("https://api.test/status"),
            prefix: FetchResponse("x"),
        }
    )
    await fetch.fetch("https://api.test/a")
    await fetch.fetch("https://api.test/status")
    await fetch.fetch("https://api.test/b")
    docs = fetch.route(prefix)
    assert (docs.call_count, docs.called, docs.last_call) == (2, True, "https://api.test/b")
    assert docs.calls == ["https://api.test/a", "https://api.test/b"]
    assert fetch.route("https://api.test/status").call_count == 1
    assert [route.call_count for route in fetch.routes] == [1, 2]


def test_a_route_never_fetched_has_no_last_call() -> None:
    fetch = FakeFetch({"https://a.test/": FetchResponse("https://a.test/")}, verify=False)
    route = fetch.route("https://a.test/")
    assert (route.call_count, route.called, route.last_call) == (0, False, None)


def test_asking_for_a_route_the_double_does_not_have_names_the_routes() -> None:
    fetch = FakeFetch({"https://a.test/": FetchResponse("https://a.test/")}, verify=False)
    with pytest.raises(ArgumentValueError, match=r"https://a\.test/"):
        fetch.route("https://b.test/")


# ----------------------------------------------------------- optional routes


async def test_an_optional_route_may_go_unfetched_and_the_others_may_not() -> None:
    robots = "https://api.test/robots.txt"
    fetch = FakeFetch(
        {
            robots: FetchResponse(robots),
            URLPrefix("https://api.test/a"): FetchResponse("x"),
            URLPrefix("https://api.test/b"): FetchResponse("x"),
        },
        optional=[robots, URLPrefix("https://api.test/a")],
        verify=False,
    )
    assert kinds(fetch) == ["unfetched_fixtures"]
    assert "https://api.test/b" in fetch.violations()[0].detail
    assert "https://api.test/a" not in fetch.violations()[0].detail
    assert [route.optional for route in fetch.routes] == [True, True, False]


async def test_an_optional_route_with_answers_in_turn_still_gives_them_all_once_fetched() -> None:
    url = "https://api.test/x"
    fetch = FakeFetch({url: [FetchResponse(url), FetchResponse(url)]}, optional=[url], verify=False)
    assert fetch.violations() == []
    await fetch.fetch(url)
    assert kinds(fetch) == ["unused_answers"]


def test_an_optional_route_must_be_a_route() -> None:
    with pytest.raises(ArgumentValueError, match=r"optional\[0\]"):
        FakeFetch(
            {"https://a.test/": FetchResponse("https://a.test/")}, optional=["https://b.test/"]
        )
