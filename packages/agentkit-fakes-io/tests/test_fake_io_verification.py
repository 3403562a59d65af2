"""The pytest plugin fails a user's test on FakeFetch's violations, as a user would meet it.

Each case writes a user's test file and runs it in a fresh in-process pytest
session: a test whose body passes while its FakeFetch was misused (a miss the
code under test swallowed, fixtures never fetched) must fail at teardown with
a message naming the double, where it was made, the violation and the fix;
the same test written correctly, or opted out, passes untouched.
"""

from __future__ import annotations

from tests.support.inner_session import Misuse, clean_test, misuse_test, quiet_failure_test

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


MISUSES = {
    "a_swallowed_miss": Misuse(
        """
async def test_typo_in_the_url():
    fetch = FakeFetch({PAGE.url: PAGE})
    text = await read_page(fetch, "https://example.com/A")
    assert text.startswith("error:")  # the agent carried on, the body passed
""",
        kind="unknown_url",
        double="FakeFetch",
        says=("'https://example.com/A'", "did you mean 'https://example.com/a'"),
    ),
    "fixtures_never_fetched": Misuse(
        """
async def test_agent_reads_one_page_of_two():
    fetch = FakeFetch({PAGE.url: PAGE, OTHER.url: OTHER})
    assert await read_page(fetch, PAGE.url) == "A"
""",
        kind="unfetched_fixtures",
        double="FakeFetch",
        says=("https://example.com/b", "require_all_fetched=False"),
    ),
}


test_a_misuse_fails_the_test = misuse_test(HEAD, MISUSES)


test_correct_and_opted_out_fetch_tests_pass = clean_test(
    HEAD,
    """
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
    passed=4,
)


test_a_test_that_fails_on_its_own_gets_no_extra_report = quiet_failure_test(
    HEAD,
    """
async def test_wrong_answer():
    fetch = FakeFetch({PAGE.url: PAGE, OTHER.url: OTHER})
    assert await read_page(fetch, "https://example.com/A") == "A"
""",
    failed=1,
)
