"""A broken agent fails its test, through the real tool loop, and a correct one passes.

The doubles' own tests show each violation on the raw double. These run a
user's test of a real :class:`ReactAgent` under the agentkit pytest plugin,
where the loop does what makes such bugs slip through: it turns an unknown
tool and a tool's ``KeyError`` into messages for the model, and the next
scripted turn answers, so the test body passes. The plugin's teardown check
is what fails it, naming the double, the violation and the fix.
"""

from __future__ import annotations

import pytest

from tests.support.inner_session import (
    assert_passed_clean,
    assert_verification_failed,
    run_inner,
)

pytest_plugins = ["pytester"]

HEAD = '''
from agentkit.agents.react import ReactAgent
from agentkit.agents.tools import tool
from agentkit.core.types import FetchResponse, ToolCall
from agentkit.fakes.ctx import make_test_ctx
from agentkit.fakes.io import FakeFetch, FakeTool
from agentkit.fakes.llm import FakeLLM, Turn

PAGE = "https://example.com/a"


def reader(fetch):
    @tool
    async def read(url: str) -> str:
        """Read a page.

        Args:
            url: the page to read.
        """
        return (await fetch.fetch(url)).body

    return read


def call(name, **arguments):
    return Turn(tool_calls=[ToolCall("c1", name, arguments)])


async def run(tools, turns, **options):
    llm = FakeLLM.script(turns)
    return await ReactAgent(tools, model="m", **options).run(make_test_ctx(llm=llm), "q")
'''


BROKEN = {
    "a misspelled tool in the script": (
        """
async def test_agent_searches():
    search = FakeTool("search", responder="found")
    result = await run([search], [call("serach"), Turn("done")])
    assert result.text == "done"  # the loop reflected "unknown tool"; the script answered
""",
        "unoffered_tool",
        "FakeLLM.script",
        ["calls 'serach', but the request offered only ['search']"],
    ),
    "a url miss swallowed by the loop": (
        """
async def test_agent_reads_the_page():
    fetch = FakeFetch({PAGE: FetchResponse(PAGE, body="A")})
    result = await run([reader(fetch)], [call("read", url="https://example.com/b"), Turn("done")])
    assert result.text == "done"  # the KeyError became a tool message
""",
        "unknown_url",
        "FakeFetch",
        ["'https://example.com/b'", "did you mean 'https://example.com/a'?"],
    ),
    "an agent that stops early": (
        """
async def test_agent_uses_the_tool_then_answers():
    search = FakeTool("search", responder="found")
    result = await run([search], [Turn("done"), call("search")])
    assert result.text == "done"
""",
        "unused_turns",
        "FakeLLM.script",
        ["1 of 2 scripted turns were never asked for"],
    ),
}
"""A user's test of a broken agent that passes its body: what the teardown check reports."""


@pytest.mark.parametrize(("body", "kind", "double", "needles"), BROKEN.values(), ids=list(BROKEN))
def test_a_broken_agent_fails_its_test(
    pytester: pytest.Pytester, body: str, kind: str, double: str, needles: list[str]
) -> None:
    result = run_inner(pytester, HEAD + body)
    text = assert_verification_failed(result, kind=kind, double=double)
    for needle in needles:
        assert needle in text


def test_an_agent_that_loops_fails_the_test_at_once(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_agent_keeps_calling():
    search = FakeTool("search", responder="found")
    await run([search], [call("search"), call("search")], max_iterations=5)
""",
    )
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "ScriptExhausted" in text
    assert "test-double violation" not in text  # the test failed already: no second report


def test_a_correct_agent_test_passes_untouched(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_agent_reads_then_answers():
    fetch = FakeFetch({PAGE: FetchResponse(PAGE, body="A")})
    result = await run([reader(fetch)], [call("read", url=PAGE), Turn("done")])
    assert result.text == "done"
    assert fetch.calls == [PAGE]
""",
    )
    assert_passed_clean(result)
