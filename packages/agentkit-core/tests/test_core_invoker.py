"""The Invoker, driven by the real doubles (agentkit-fakes-llm is a dev dependency)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from agentkit.core.cancellation import RunCancelled
from agentkit.core.invoker import ChatHandler, Invoker, ToolHandler
from agentkit.core.meters import UsageMeter
from agentkit.core.ports import Tool
from agentkit.core.pricing import ModelPrice, PriceTable
from agentkit.core.request import ChatRequest
from agentkit.core.runtime import RunContext, Services
from agentkit.core.types import Delta, Message, ToolCall, Usage
from agentkit.fakes.io import FakeTool
from agentkit.fakes.llm import FakeLLM, Turn

USAGE = Usage(input_tokens=10, cached_input_tokens=0, output_tokens=5)
REQUEST = ChatRequest(messages=[Message.user("hello")], model="m")


def _ctx(invoker: Invoker, **kw: Any) -> RunContext:
    return RunContext(services=Services(invoker=invoker), **kw)


async def test_chat_collects_the_stream_into_one_response() -> None:
    call = ToolCall("c1", "lookup", {"q": "x"})
    llm = FakeLLM.script(
        [Turn(content="a fairly long answer", tool_calls=(call,), usage=USAGE)], verify=False
    )  # the request offers no tools: only the collection of the reply is under test
    invoker = Invoker(llm)
    response = await invoker.chat(_ctx(invoker), REQUEST)
    assert response.content == "a fairly long answer"
    assert response.tool_calls == (call,)
    assert response.usage == USAGE
    assert response.finish_reason == "tool_calls"
    assert response.model == "m"


async def test_the_context_is_charged_once_per_call_with_priced_usage() -> None:
    pricing = PriceTable({"m": ModelPrice(input=1.0, output=2.0)})
    llm = FakeLLM("ok", usage=USAGE)
    invoker = Invoker(llm, pricing=pricing)
    watcher = UsageMeter()
    ctx = _ctx(invoker, meters=[watcher])
    response = await invoker.chat(ctx, REQUEST)
    await invoker.chat(ctx, REQUEST)
    expected = (10 * 1.0 + 5 * 2.0) / 1_000_000
    assert response.cost_usd == pytest.approx(expected)
    assert watcher.calls == ctx.ledger.calls == 2
    assert watcher.usage == USAGE + USAGE
    assert watcher.cost_usd == pytest.approx(2 * expected)


class CountingPrices:
    """A price table that counts how often a call is priced."""

    def __init__(self) -> None:
        self.table = PriceTable({"m": ModelPrice(input=1.0, output=2.0)})
        self.priced = 0

    def cost(self, model: str, usage: Usage) -> float:
        self.priced += 1
        return self.table.cost(model, usage)


async def test_a_call_is_priced_once_and_chat_reports_what_was_charged() -> None:
    pricing = CountingPrices()
    invoker = Invoker(FakeLLM("a reply of several chunks", usage=USAGE), pricing=pricing)  # type: ignore[arg-type]
    ctx = _ctx(invoker)
    response = await invoker.chat(ctx, REQUEST)
    assert pricing.priced == 1  # not once per delta, nor again on the total
    assert response.cost_usd == ctx.ledger.cost_usd
    [_ async for _ in invoker.stream(ctx, REQUEST)]
    assert pricing.priced == 2


async def test_without_pricing_cost_is_zero_but_usage_is_still_charged() -> None:
    invoker = Invoker(FakeLLM("ok", usage=USAGE))
    ctx = _ctx(invoker)
    await invoker.chat(ctx, REQUEST)
    assert ctx.ledger.usage == USAGE
    assert ctx.ledger.cost_usd == 0.0


async def test_chat_middleware_runs_first_outermost() -> None:
    order: list[str] = []

    def tagging(name: str) -> Any:
        async def middleware(
            ctx: RunContext, request: ChatRequest, call_next: ChatHandler
        ) -> AsyncIterator[Delta]:
            order.append(f"{name}>")
            async for delta in call_next(ctx, request):
                yield delta
            order.append(f"<{name}")

        return middleware

    invoker = Invoker(FakeLLM("ok"), chat_middleware=[tagging("outer"), tagging("inner")])
    await invoker.chat(_ctx(invoker), REQUEST)
    assert order == ["outer>", "inner>", "<inner", "<outer"]


async def test_middleware_can_rewrite_the_request() -> None:
    def force_model(
        ctx: RunContext, request: ChatRequest, call_next: ChatHandler
    ) -> AsyncIterator[Delta]:
        return call_next(ctx, ChatRequest(messages=request.messages, model="forced"))

    llm = FakeLLM("ok")
    invoker = Invoker(llm, chat_middleware=[force_model])
    await invoker.chat(_ctx(invoker), REQUEST)
    assert llm.calls[-1].model == "forced"


async def test_a_cancelled_run_makes_no_call() -> None:
    llm = FakeLLM("ok")
    invoker = Invoker(llm)
    ctx = _ctx(invoker)
    ctx.cancel.cancel("stop")
    with pytest.raises(RunCancelled):
        await invoker.chat(ctx, REQUEST)
    tool = FakeTool(responder="r")
    with pytest.raises(RunCancelled):
        await invoker.run_tool(ctx, tool, {})
    assert llm.calls == []
    assert tool.calls == []


async def test_tool_calls_run_through_tool_middleware() -> None:
    seen: list[tuple[str, dict[str, Any]]] = []

    async def audit(
        ctx: RunContext, tool: Tool, args: dict[str, Any], call_next: ToolHandler
    ) -> Any:
        seen.append((tool.name, args))
        return {"wrapped": await call_next(ctx, tool, args)}

    tool = FakeTool(name="echo", responder=lambda args: args["x"])
    invoker = Invoker(FakeLLM("ok"), tool_middleware=[audit])
    result = await invoker.run_tool(_ctx(invoker), tool, {"x": 41})
    assert result == {"wrapped": 41}
    assert seen == [("echo", {"x": 41})]
    assert tool.calls == [{"x": 41}]
