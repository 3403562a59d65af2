"""FakeFetch routes: patterns, exceptions, answers in turn and functions of the URL.

What a respx or pytest-httpx user reaches for: a network error, a 503 then a
200, a URL pattern. Each answer kind, the order routes are tried in, the
loud end of answers in turn, the miss naming the nearest route, what is
verified at teardown, and wrong routes refused naming the argument.
"""

from __future__ import annotations

import re
from typing import Any, cast

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.types import FetchResponse
from agentkit.core.verification.script import ScriptExhausted
from agentkit.fakes.io import (
    FakeFetch,
    FetchRouteError,
    FetchRouteExhausted,
    InTurn,
    UnknownURLError,
    URLHost,
    URLPrefix,
)

STATUS = "https://api.test/status"
DOWN = FetchResponse(STATUS, status=503, body="try later")
UP = FetchResponse(STATUS, body="ok")


async def test_an_exception_answer_is_raised_at_that_fetch() -> None:
    reset = ConnectionResetError("connection reset by peer")
    fetch = FakeFetch({STATUS: reset})
    with pytest.raises(ConnectionResetError) as caught:
        await fetch.fetch(STATUS)
    assert caught.value is reset
    assert fetch.calls == [STATUS]
    assert fetch.violations() == []  # the route matched: a failure was what it claimed


async def test_answers_in_turn_give_one_per_fetch_then_run_out_loudly() -> None:
    fetch = FakeFetch({STATUS: [DOWN, UP]}, verify=False)
    assert (await fetch.fetch(STATUS)).status == 503
    assert (await fetch.fetch(STATUS)).status == 200
    with pytest.raises(FetchRouteExhausted) as caught:
        await fetch.fetch(STATUS)
    assert isinstance(caught.value, ScriptExhausted)  # BaseException: no except Exception eats it
    assert "https://api.test/status" in str(caught.value)
    assert "has 2 answers in turn but fetch 3" in str(caught.value)
    assert "InTurn(..., repeat_last=True)" in str(caught.value)  # an option it has
    assert [v.kind for v in fetch.violations()] == ["script_exhausted"]  # as FakeLLM names it


async def test_answers_in_turn_may_mix_exceptions_and_repeat_the_last() -> None:
    fetch = FakeFetch({STATUS: InTurn(TimeoutError("slow"), DOWN, UP, repeat_last=True)})
    with pytest.raises(TimeoutError):
        await fetch.fetch(STATUS)
    got = [(await fetch.fetch(STATUS)).status for _ in range(4)]
    assert got == [503, 200, 200, 200]
    assert fetch.violations() == []


async def test_answers_never_reached_are_reported_at_teardown() -> None:
    fetch = FakeFetch({STATUS: [DOWN, UP, UP]}, verify=False)
    await fetch.fetch(STATUS)
    (violation,) = fetch.violations()
    assert violation.kind == "unused_answers"
    assert "fetched 1 time(s) but has 3 answers: 2 never given" in violation.detail


async def test_a_function_answer_is_built_from_the_url() -> None:
    def echo(url: str) -> FetchResponse:
        return FetchResponse(url, body=url.rsplit("/", 1)[-1])

    fetch = FakeFetch({re.compile(r"https://api\.test/items/\d+"): echo})
    assert (await fetch.fetch("https://api.test/items/42")).body == "42"
    assert (await fetch.fetch("https://api.test/items/7")).body == "7"
    assert fetch.violations() == []


async def test_a_function_returning_nonsense_is_refused_naming_the_route() -> None:
    def html(url: str) -> Any:  # returns a str where a FetchResponse goes
        return "<html>"

    fetch = FakeFetch({URLHost("api.test"): html}, verify=False)
    with pytest.raises(FetchRouteError, match=r"route URLHost\(host='api.test'\) .* returned str"):
        await fetch.fetch(STATUS)
    assert [v.kind for v in fetch.violations()] == ["route_error"]


async def test_patterns_prefixes_and_hosts_match_and_the_first_match_wins() -> None:
    special = FetchResponse("https://api.test/v1/items/1", body="the special one")
    fetch = FakeFetch(
        {
            "https://api.test/v1/items/1": special,
            re.compile(r"https://api\.test/v1/items/\d+"): FetchResponse("x", body="an item"),
            URLPrefix("https://api.test/v1/"): FetchResponse("x", body="the v1 api"),
            URLHost("api.test"): FetchResponse("x", body="the host"),
        }
    )
    assert (await fetch.fetch("https://api.test/v1/items/1")).body == "the special one"
    assert (await fetch.fetch("https://api.test/v1/items/2")).body == "an item"
    assert (await fetch.fetch("https://api.test/v1/users")).body == "the v1 api"
    assert (await fetch.fetch("http://api.test:8080/v2")).body == "the host"
    assert fetch.violations() == []


async def test_a_regex_matches_the_whole_url_not_a_part_of_it() -> None:
    fetch = FakeFetch({re.compile(r"https://api\.test/items/\d+"): UP}, verify=False)
    with pytest.raises(UnknownURLError):
        await fetch.fetch("https://api.test/items/42/reviews")


async def test_a_miss_names_the_nearest_route() -> None:
    fetch = FakeFetch(
        {URLPrefix("https://api.test/v1/users/"): UP, "https://docs.test/": UP}, verify=False
    )
    with pytest.raises(UnknownURLError) as caught:
        await fetch.fetch("https://api.test/v1/usrs/3")
    error = caught.value
    assert error.nearest == "https://api.test/v1/users/"
    assert "did you mean 'https://api.test/v1/users/'?" in str(error)
    miss = fetch.violations()[0]
    assert miss.kind == "unknown_url"
    assert "typo of that route" in miss.fix
    assert "add a fixture" not in miss.fix


async def test_a_miss_far_from_every_route_still_names_the_nearest_and_asks_for_a_route() -> None:
    fetch = FakeFetch({URLHost("api.test"): UP}, verify=False)
    with pytest.raises(UnknownURLError) as caught:
        await fetch.fetch("https://elsewhere.example/page")
    assert caught.value.nearest == "api.test"
    assert "the nearest route is 'api.test'" in str(caught.value)
    assert "give it a route" in fetch.violations()[0].fix


async def test_a_pattern_route_never_matched_is_reported_at_teardown() -> None:
    fetch = FakeFetch({STATUS: UP, re.compile(r"https://api\.test/items/\d+"): UP}, verify=False)
    await fetch.fetch(STATUS)
    (violation,) = fetch.violations()
    assert violation.kind == "unfetched_fixtures"
    assert "https://api\\.test/items/\\d+" in violation.detail
    menu = FakeFetch({URLHost("api.test"): UP}, require_all_fetched=False)
    assert menu.violations() == []


async def test_a_route_added_to_fixtures_on_the_double_is_tried_after_the_given_ones() -> None:
    fetch = FakeFetch({URLPrefix("https://api.test/"): UP}, verify=False)
    fetch.fixtures["https://api.test/status"] = DOWN  # after the prefix: the prefix wins
    fetch.fixtures["https://other.test/"] = [DOWN]
    assert (await fetch.fetch(STATUS)).body == "ok"
    assert (await fetch.fetch("https://other.test/")).status == 503
    (violation,) = fetch.violations()
    assert violation.kind == "unfetched_fixtures"
    assert "https://api.test/status" in violation.detail


@pytest.mark.parametrize(
    ("routes", "argument", "error"),
    [
        ({STATUS: []}, f"fixtures[{STATUS!r}]", ArgumentValueError),
        ({STATUS: [UP, "ok"]}, f"fixtures[{STATUS!r}][1]", ArgumentTypeError),
        ({STATUS: ConnectionError}, f"fixtures[{STATUS!r}]", ArgumentTypeError),
        ({STATUS: {"body": "x"}}, f"fixtures[{STATUS!r}]", ArgumentTypeError),
        ({re.compile(rb"x"): UP}, "fixtures keys", ArgumentTypeError),
        ({("https://a.test", "https://b.test"): UP}, "fixtures keys", ArgumentTypeError),
        ({"": UP}, "fixtures keys", ArgumentValueError),
    ],
    ids=["empty-list", "bad-item", "exception-class", "dict", "bytes-regex", "tuple-key", "empty"],
)
def test_wrong_routes_are_refused_naming_the_argument(
    routes: dict[Any, Any], argument: str, error: type[Exception]
) -> None:
    with pytest.raises(error) as caught:
        FakeFetch(cast(Any, routes))
    assert getattr(caught.value, "where", None) == "FakeFetch"
    assert getattr(caught.value, "argument", None) == argument


def test_the_route_helpers_refuse_wrong_input_naming_the_argument() -> None:
    with pytest.raises(ArgumentValueError, match="URLHost: host"):
        URLHost("https://api.test")
    with pytest.raises(ArgumentTypeError, match="URLPrefix: prefix"):
        URLPrefix(cast(Any, 3))
    with pytest.raises(ArgumentValueError, match="InTurn: answers"):
        InTurn()
    with pytest.raises(ArgumentTypeError, match=r"InTurn: answers\[0\]"):
        InTurn(cast(Any, "ok"))
    with pytest.raises(ArgumentTypeError, match="InTurn: repeat_last"):
        InTurn(UP, repeat_last=cast(Any, "yes"))
