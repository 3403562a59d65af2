"""The pytest plugin fails a user's test on FakeFetch's violations, as a user would meet it.

Each case writes a user's test file and runs it in a fresh in-process pytest
session: a test whose body passes while its FakeFetch was misused (a miss the
code under test swallowed, fixtures never fetched) must fail at teardown with
a message naming the double, where it was made, the violation and the fix;
the same test written correctly, or opted out, passes untouched.
"""

from __future__ import annotations

import pytest

from tests.support.inner_session import (
    assert_passed_clean,
    assert_verification_failed,
    run_inner,
)

pytest_plugins = ["pytester"]

HEAD = """
import pytest
from agentkit.core.types import FetchResponse
from agentkit.fakes.io import FakeFetch

PAGE = FetchResponse(url="https://example.com/a", status=200, body="A")
OTHER = FetchResponse(url="https://example.com/b", status=200, body="B")


async def read_page(fetch, url):
    # What a tool inside an agent loop does: a failure becomes text for the model.
    try:
        return (await fetch.fetch(url)).body
    except KeyError as exc:
        return f"error: {exc}"
"""


def test_a_swallowed_miss_fails_the_test(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_typo_in_the_url():
    fetch = FakeFetch({PAGE.url: PAGE})
    text = await read_page(fetch, "https://example.com/A")
    assert text.startswith("error:")  # the agent carried on, the body passed
""",
    )
    text = assert_verification_failed(result, kind="unknown_url", double="FakeFetch")
    assert "'https://example.com/A'" in text
    assert "did you mean 'https://example.com/a'" in text


def test_fixtures_never_fetched_fail_the_test(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_agent_reads_one_page_of_two():
    fetch = FakeFetch({PAGE.url: PAGE, OTHER.url: OTHER})
    assert await read_page(fetch, PAGE.url) == "A"
""",
    )
    text = assert_verification_failed(result, kind="unfetched_fixtures", double="FakeFetch")
    assert "https://example.com/b" in text
    assert "require_all_fetched=False" in text


def test_correct_and_opted_out_fetch_tests_pass(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_every_fixture_fetched():
    fetch = FakeFetch({PAGE.url: PAGE, OTHER.url: OTHER})
    assert [await read_page(fetch, u) for u in (PAGE.url, OTHER.url)] == ["A", "B"]


async def test_a_menu_of_pages():
    fetch = FakeFetch({PAGE.url: PAGE, OTHER.url: OTHER}, require_all_fetched=False)
    assert await read_page(fetch, OTHER.url) == "B"


async def test_a_miss_on_purpose_opted_out_on_the_double():
    fetch = FakeFetch({PAGE.url: PAGE}, verify=False)
    assert (await read_page(fetch, "https://nowhere")).startswith("error:")


@pytest.mark.agentkit(verify=False)
async def test_a_miss_on_purpose_opted_out_on_the_test():
    fetch = FakeFetch({})
    assert (await read_page(fetch, "https://nowhere")).startswith("error:")
""",
    )
    assert_passed_clean(result, passed=4)


def test_a_test_that_fails_on_its_own_gets_no_extra_report(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_wrong_answer():
    fetch = FakeFetch({PAGE.url: PAGE, OTHER.url: OTHER})
    assert await read_page(fetch, "https://example.com/A") == "A"
""",
    )
    result.assert_outcomes(failed=1)
    assert "test-double violation" not in result.stdout.str()
