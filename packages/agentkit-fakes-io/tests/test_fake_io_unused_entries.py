"""FakeSearch and FakeMemory entries no query matched are unused material; FakeTool takes any Mapping.

Run as a user meets them: a test whose agent's query drifted away from the
canned entries must fail at teardown naming the entry; the same test with
the entries all matched, a list-form FakeSearch, an ``items=`` FakeMemory or
``verify=False`` passes untouched.
"""

from __future__ import annotations

import pytest

from agentkit.core.types import FrozenDict, MemoryItem, SearchHit, ToolCall
from agentkit.fakes.io import FakeMemory, FakeSearch, FakeTool
from tests.support.inner_session import Misuse, clean_test, misuse_test

pytest_plugins = ["pytester"]

HEAD = """
from agentkit.core.types import MemoryItem, SearchHit
from agentkit.fakes.io import FakeMemory, FakeSearch

HIT = SearchHit("Python", "https://python.org")
NOTE = MemoryItem("likes tea", "profile")
"""


MISUSES = {
    "a_search_entry_no_query_matched": Misuse(
        """
async def test_agent_searches_the_wrong_words():
    search = FakeSearch({"python": [HIT], "rust": [HIT]})
    assert await search.search("python tutorial") == [HIT]
    assert await search.search("learn haskell") == []  # "no results": the body passes
""",
        kind="unused_entries",
        double="FakeSearch",
        says=("['rust']", "'learn haskell'"),
    ),
    "a_memory_response_no_query_matched": Misuse(
        """
async def test_agent_asks_memory_with_other_words():
    memory = FakeMemory(responses={"user preferences": [NOTE]})
    assert await memory.query("what does the user like") == []
""",
        kind="unused_entries",
        double="FakeMemory",
        says=("['user preferences']",),
    ),
}


test_a_misuse_fails_the_test = misuse_test(HEAD, MISUSES)


test_matched_entries_rules_and_opt_outs_pass = clean_test(
    HEAD,
    """
async def test_every_entry_matched():
    search = FakeSearch({"python": [HIT], "rust": []})
    await search.search("python"), await search.search("rust book")
    memory = FakeMemory(responses={"q": [NOTE]}, default=[NOTE])
    await memory.query("q"), await memory.query("other")

async def test_rules_have_nothing_to_leave_over():
    FakeSearch([HIT])
    FakeMemory(items=[NOTE])
    FakeMemory()

async def test_a_menu_opts_out():
    search = FakeSearch({"python": [HIT], "rust": [HIT]}, verify=False)
    await search.search("python")
    FakeMemory(responses={"q": [NOTE]}, verify=False)
""",
    passed=3,
)


async def test_the_records_say_what_is_unused() -> None:
    # verify=False: the violation is read here, not left for the plugin to fail this test.
    memory = FakeMemory(responses={"a": [MemoryItem("x", "s")], "b": []}, verify=False)
    await memory.query("a")
    (violation,) = memory.violations()
    assert violation.kind == "unused_entries"
    assert "['b']" in violation.detail
    search = FakeSearch({"a": [SearchHit("t", "u")]})
    await search.search("xa")
    assert search.violations() == []


def test_a_refused_fixture_registers_no_double() -> None:
    from agentkit.core.verification import collect_doubles

    with collect_doubles(isolate=True) as made, pytest.raises(TypeError):
        FakeMemory(responses={"q": "not a list"})  # type: ignore[dict-item]
    assert made == []


async def test_fake_tool_takes_a_tool_calls_read_only_arguments() -> None:
    tool = FakeTool(name="search", responder=lambda args: args["q"])
    call = ToolCall("c1", "search", {"q": "python", "opts": {"k": 2}})
    assert isinstance(call.arguments, FrozenDict)
    assert await tool.run(call.arguments) == "python"
    assert tool.calls == [{"q": "python", "opts": {"k": 2}}]
    assert type(tool.calls[0]) is dict
