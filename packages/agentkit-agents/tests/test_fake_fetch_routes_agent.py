"""FakeFetch routes through the real ReactAgent: a research agent's fetch tool meets the network.

The tool loop turns a tool's exception into a tool message, so what a route
raises reaches the model as an error and the run goes on; answers in turn
let the model retry a 503 into a 200; a pattern answers every item page.
"""

from __future__ import annotations

import re

import pytest

from agentkit.agents.react import ReactAgent
from agentkit.agents.tools import tool
from agentkit.core.ports import Tool
from agentkit.core.types import FetchResponse, ToolCall
from agentkit.fakes.ctx import make_test_ctx
from agentkit.fakes.io import FakeFetch, FetchRouteExhausted, InTurn, URLHost, URLPrefix
from agentkit.fakes.llm import FakeLLM, Turn

STATUS = "https://api.test/status"


def fetch_tool(fetcher: FakeFetch) -> Tool:
    @tool
    async def get_page(url: str) -> str:
        """Fetch a page: its status and body."""
        page = await fetcher.fetch(url)
        return f"{page.status} {page.body}"

    return get_page


def fetch_call(n: int, url: str) -> Turn:
    return Turn(tool_calls=[ToolCall(f"c{n}", "get_page", {"url": url})])


async def test_a_503_then_a_200_reaches_the_model_in_turn() -> None:
    fetcher = FakeFetch(
        {STATUS: [FetchResponse(STATUS, 503, "try later"), FetchResponse(STATUS, 200, "ok")]}
    )
    llm = FakeLLM.script([fetch_call(1, STATUS), fetch_call(2, STATUS), Turn("the api is up")])
    result = await ReactAgent([fetch_tool(fetcher)], model="m").run(
        make_test_ctx(llm=llm), "is the api up?"
    )
    tool_results = [m.content for m in result.messages if m.role == "tool"]
    assert tool_results == ["503 try later", "200 ok"]
    assert result.text == "the api is up"
    assert fetcher.calls == [STATUS, STATUS]


async def test_a_network_error_route_becomes_a_tool_error_the_model_reads() -> None:
    fetcher = FakeFetch({STATUS: ConnectionResetError("connection reset by peer")})
    llm = FakeLLM.script([fetch_call(1, STATUS), Turn("the api could not be reached")])
    result = await ReactAgent([fetch_tool(fetcher)], model="m").run(
        make_test_ctx(llm=llm), "is the api up?"
    )
    (error,) = [m.content for m in result.messages if m.role == "tool"]
    assert "connection reset by peer" in error
    assert result.text == "the api could not be reached"


async def test_a_pattern_and_a_prefix_answer_the_pages_the_model_picks() -> None:
    fetcher = FakeFetch(
        {
            re.compile(r"https://shop\.test/items/(\d+)"): lambda url: FetchResponse(
                url, body=f"item {url.rsplit('/', 1)[-1]}: in stock"
            ),
            URLPrefix("https://shop.test/"): FetchResponse("https://shop.test/", body="home"),
        }
    )
    llm = FakeLLM.script(
        [
            fetch_call(1, "https://shop.test/items/7"),
            fetch_call(2, "https://shop.test/about"),
            Turn("item 7 is in stock"),
        ]
    )
    result = await ReactAgent([fetch_tool(fetcher)], model="m").run(
        make_test_ctx(llm=llm), "is item 7 in stock?"
    )
    tool_results = [m.content for m in result.messages if m.role == "tool"]
    assert tool_results == ["200 item 7: in stock", "200 home"]


async def test_a_loop_fetching_past_its_answers_ends_the_run_loudly() -> None:
    fetcher = FakeFetch({STATUS: InTurn(FetchResponse(STATUS, 503, "try later"))}, verify=False)
    llm = FakeLLM.script([fetch_call(1, STATUS)], repeat_last=True)  # a model that never stops
    with pytest.raises(FetchRouteExhausted, match="1 answer in turn but fetch 2"):
        await ReactAgent([fetch_tool(fetcher)], model="m", max_iterations=5).run(
            make_test_ctx(llm=llm), "is the api up?"
        )


async def test_a_host_route_answers_any_page_and_a_miss_names_the_nearest_route() -> None:
    fetcher = FakeFetch(
        {
            URLHost("docs.test"): lambda url: FetchResponse(url, body=f"page {url}"),
            "https://api.test/status": FetchResponse("https://api.test/status", body="up"),
        },
        verify=False,
    )
    llm = FakeLLM.script(
        [
            fetch_call(1, "http://docs.test:8080/guide?x=1"),
            fetch_call(2, "https://api.test/statuz"),  # the model's typo
            Turn("the guide is there; the status page was not found"),
        ]
    )
    result = await ReactAgent([fetch_tool(fetcher)], model="m").run(
        make_test_ctx(llm=llm), "read the guide and the status"
    )
    page, miss = [m.content for m in result.messages if m.role == "tool"]
    assert page == "200 page http://docs.test:8080/guide?x=1"
    assert "https://api.test/status" in miss  # the nearest route, in the error the model reads
    # Swallowed by the tool loop, yet reported at teardown: the miss, and the route it missed.
    found = {v.kind: v.detail for v in fetcher.violations()}
    assert set(found) == {"unknown_url", "unfetched_fixtures"}
    assert "'https://api.test/statuz'" in found["unknown_url"]
    assert "https://api.test/status" in found["unfetched_fixtures"]
    assert fetcher.calls == ["http://docs.test:8080/guide?x=1", "https://api.test/statuz"]
