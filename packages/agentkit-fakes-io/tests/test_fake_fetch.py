"""FakeFetch: fixtures by exact URL; an unknown URL is a loud KeyError(url), and is remembered.

The tests that miss on purpose build the double with ``verify=False``, so the
plugin's teardown check leaves them alone; they inspect ``violations()``
themselves. (How the plugin fails a test on them is in test_fake_io_verification.)
"""

from __future__ import annotations

import contextlib
from typing import Any, cast

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.types import FetchResponse
from agentkit.core.verification import VerificationError, VerifyingDouble
from agentkit.fakes.io import FakeFetch, UnknownURLError

PAGE = FetchResponse(url="https://example.com/a", status=200, body="<h1>A</h1>")
MISSING = FetchResponse(url="https://example.com/gone", status=404, body="not found")


async def test_a_known_url_returns_its_fixture() -> None:
    fetch = FakeFetch({PAGE.url: PAGE, MISSING.url: MISSING})
    assert await fetch.fetch(PAGE.url) is PAGE
    assert await fetch.fetch(MISSING.url) is MISSING  # a 404 fixture is a response, not an error
    fetch.assert_complete()


async def test_an_unknown_url_raises_key_error_of_the_url() -> None:
    fetch = FakeFetch({PAGE.url: PAGE}, verify=False)
    with pytest.raises(KeyError) as info:
        await fetch.fetch("https://example.com/b")
    assert info.value.args == ("https://example.com/b",)
    assert isinstance(info.value, UnknownURLError)
    assert info.value.url == "https://example.com/b"
    assert info.value.known == (PAGE.url,)
    assert "https://example.com/a" in str(info.value)  # names what the fixtures DO list


async def test_the_error_names_the_close_matches_best_first() -> None:
    fetch = FakeFetch(
        {url: FetchResponse(url) for url in ("https://docs.python.org/3/", "https://pypi.org/")},
        verify=False,
    )
    with pytest.raises(UnknownURLError) as info:
        await fetch.fetch("https://docs.pyhton.org/3/")
    assert info.value.close_matches == ("https://docs.python.org/3/",)
    assert "did you mean 'https://docs.python.org/3/'" in str(info.value)
    with pytest.raises(UnknownURLError) as far:
        await fetch.fetch("ftp://elsewhere")
    assert far.value.close_matches == ()
    assert "did you mean" not in str(far.value)


async def test_matching_is_exact_not_by_prefix() -> None:
    fetch = FakeFetch({PAGE.url: PAGE}, verify=False)
    with pytest.raises(UnknownURLError):
        await fetch.fetch(PAGE.url + "/")


async def test_every_fetch_is_recorded_in_order_misses_included() -> None:
    fetch = FakeFetch({PAGE.url: PAGE}, verify=False)
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


# -- verification -----------------------------------------------------------------


def test_fake_fetch_is_a_verifying_double() -> None:
    fetch = FakeFetch({}, verify=False)
    assert isinstance(fetch, VerifyingDouble)
    assert fetch.verify_enabled is False
    assert FakeFetch({}).verify_enabled is True
    assert fetch.created_at.startswith(__file__)


async def test_a_caught_miss_is_still_a_violation() -> None:
    fetch = FakeFetch({PAGE.url: PAGE}, verify=False)
    await fetch.fetch(PAGE.url)
    with contextlib.suppress(KeyError):  # what a tool, or the loop around it, does
        await fetch.fetch("https://example.com/A")
    [violation] = fetch.violations()
    assert violation.double == "FakeFetch"
    assert violation.kind == "unknown_url"
    assert "'https://example.com/A'" in violation.detail
    assert "did you mean 'https://example.com/a'" in violation.fix
    assert "add a fixture" not in violation.fix  # a typo is fixed, not made a fixture
    with pytest.raises(VerificationError) as info:
        fetch.assert_complete()
    assert info.value.violations == (violation,)


async def test_every_miss_is_its_own_violation() -> None:
    fetch = FakeFetch({}, verify=False)
    for url in ("https://a", "https://b"):
        with pytest.raises(UnknownURLError):
            await fetch.fetch(url)
    assert [v.kind for v in fetch.violations()] == ["unknown_url", "unknown_url"]


async def test_fixtures_never_fetched_are_reported_at_verification() -> None:
    fetch = FakeFetch({PAGE.url: PAGE, MISSING.url: MISSING}, verify=False)
    await fetch.fetch(PAGE.url)
    [violation] = fetch.violations()
    assert violation.kind == "unfetched_fixtures"
    assert MISSING.url in violation.detail
    assert PAGE.url not in violation.detail
    assert "require_all_fetched=False" in violation.fix
    await fetch.fetch(MISSING.url)  # computed when asked, not when the double was made
    assert fetch.violations() == []
    fetch.assert_complete()


async def test_fixtures_added_on_the_double_count_too() -> None:
    fetch = FakeFetch({}, verify=False)
    fetch.fixtures[PAGE.url] = PAGE
    assert [v.kind for v in fetch.violations()] == ["unfetched_fixtures"]


async def test_require_all_fetched_false_leaves_misses_verified() -> None:
    fetch = FakeFetch({PAGE.url: PAGE, MISSING.url: MISSING}, require_all_fetched=False)
    fetch.assert_complete()  # a menu: nothing fetched is fine
    menu = FakeFetch({PAGE.url: PAGE}, require_all_fetched=False, verify=False)
    with pytest.raises(UnknownURLError):
        await menu.fetch("https://typo")
    assert [v.kind for v in menu.violations()] == ["unknown_url"]


def test_an_empty_fake_fetch_expects_no_fetch() -> None:
    FakeFetch({}).assert_complete()


# -- wrong input refused at the door ----------------------------------------------


@pytest.mark.parametrize(
    ("fixtures", "argument"),
    [
        ([], "fixtures"),
        ([PAGE], "fixtures"),
        ("https://example.com/a", "fixtures"),
        (None, "fixtures"),
        ({"https://x": "<html>"}, "fixtures['https://x']"),
        ({"https://x": {"body": "x"}}, "fixtures['https://x']"),
        ({1: PAGE}, "fixtures keys"),
    ],
)
def test_wrong_fixtures_are_refused_naming_the_argument(fixtures: object, argument: str) -> None:
    with pytest.raises(ArgumentTypeError) as info:
        FakeFetch(cast(Any, fixtures))
    assert info.value.where == "FakeFetch"
    assert info.value.argument == argument
    assert isinstance(info.value, TypeError)


def test_a_list_of_fixtures_says_what_it_expects() -> None:
    with pytest.raises(TypeError, match=r"fixtures must be a mapping \{url: FetchResponse\}"):
        FakeFetch(cast(Any, []))


def test_a_plain_string_fixture_says_how_to_write_one() -> None:
    with pytest.raises(TypeError, match=r"write FetchResponse\('https://x', body=\.\.\.\)"):
        FakeFetch(cast(Any, {"https://x": "<html>"}))


def test_an_empty_url_is_refused() -> None:
    with pytest.raises(ArgumentValueError, match="fixtures keys"):
        FakeFetch({"": PAGE})


@pytest.mark.parametrize("keyword", ["verify", "require_all_fetched"])
@pytest.mark.parametrize("bad", [1, "yes", None])
def test_switches_must_be_bools(keyword: str, bad: object) -> None:
    with pytest.raises(TypeError, match=keyword):
        FakeFetch({}, **cast(Any, {keyword: bad}))
