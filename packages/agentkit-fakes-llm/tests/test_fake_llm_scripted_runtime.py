"""ScriptedAdapter and scripted_runtime: the real CallRuntime normalises and prices scripted facts."""

from __future__ import annotations

from typing import Any, cast

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError
from agentkit.core.call_runtime import TransportFacts
from agentkit.core.invoker import Invoker
from agentkit.core.meters import UsageMeter
from agentkit.core.middleware import RetryMiddleware
from agentkit.core.pricing import (
    ANTHROPIC_API,
    OPENAI_API,
    ModelPrice,
    PriceTable,
    RawUsage,
    UnknownModelError,
)
from agentkit.core.request import ChatRequest
from agentkit.core.runtime import RunContext, Services
from agentkit.core.types import Message, ToolCall, ToolSchema, Usage
from agentkit.core.verification.script import ScriptExhausted
from agentkit.fakes.io import FakeClock
from agentkit.fakes.llm import ScriptedAdapter, ScriptedAdapterExhausted, Turn, scripted_runtime

# These tests exercise the raw doubles: exhaustion, misses and tool calls without tools
# are what they assert on. Strict verification is tested in test_fake_llm_verification.py.
pytestmark = pytest.mark.agentkit(verify=False)

MODEL = "gpt-test"
PRICES = PriceTable({MODEL: ModelPrice(input=2.0, output=10.0, cached_input=0.5, cache_write=4.0)})
MESSAGES = [Message.user("hello")]
# The provider's raw report: 1000 input tokens of which 400 were read from cache.
RAW = Usage(input_tokens=1000, cached_input_tokens=400, output_tokens=100)


async def test_send_returns_the_next_turn_as_raw_transport_facts() -> None:
    call = ToolCall("c1", "search", {"q": "x"})
    adapter = ScriptedAdapter([Turn("first", usage=RAW), Turn(tool_calls=(call,))])
    facts = await adapter.send(ChatRequest(MESSAGES, MODEL))
    assert facts == TransportFacts(
        content="first",
        usage=RawUsage(input_tokens=1000, cached_input_tokens=400, output_tokens=100),
    )
    facts = await adapter.send(ChatRequest(MESSAGES, MODEL))
    assert facts == TransportFacts(tool_calls=(call,), usage=RawUsage())
    assert adapter.remaining == 0


async def test_every_usage_field_is_carried_raw() -> None:
    usage = Usage(
        input_tokens=9, cached_input_tokens=2, cache_write_tokens=3, output_tokens=4,
        reasoning_tokens=1,
    )  # fmt: skip
    facts = await ScriptedAdapter([Turn(usage=usage)]).send(ChatRequest(MESSAGES, MODEL))
    assert facts.usage == RawUsage(9, 2, 3, 4, 1)


async def test_exhaustion_raises_scripted_adapter_exhausted() -> None:
    adapter = ScriptedAdapter([Turn("only")])
    await adapter.send(ChatRequest(MESSAGES, MODEL))
    with pytest.raises(ScriptedAdapterExhausted, match="1 transport turn but call 2"):
        await adapter.send(ChatRequest(MESSAGES, MODEL))
    assert len(adapter.calls) == 2  # the call that found the script empty is recorded too


async def test_exhaustion_passes_through_except_exception() -> None:
    adapter = ScriptedAdapter([])

    async def broad() -> str:
        try:
            await adapter.send(ChatRequest(MESSAGES, MODEL))
        except Exception:
            return "swallowed"
        return "answered"

    with pytest.raises(ScriptExhausted):
        await broad()


async def test_the_adapter_records_the_request_it_was_sent() -> None:
    adapter = ScriptedAdapter([Turn("a"), Turn("b")])
    transcript = [Message.user("q1")]
    first = ChatRequest(transcript, MODEL, tools=[ToolSchema("search")], temperature=0.2)
    await adapter.send(first)
    transcript.append(Message.assistant("a"))
    second = ChatRequest(transcript, "other", temperature=0.9)
    await adapter.send(second)
    assert adapter.calls == [first, second]
    assert first.messages == (Message.user("q1"),)  # the later append did not reach it


def test_the_adapter_takes_turns_only() -> None:
    with pytest.raises(ArgumentTypeError, match=r"ScriptedAdapter: turns\[0\] must be a Turn"):
        ScriptedAdapter(cast(Any, [{"content": "x"}]))


def test_the_adapter_takes_any_iterable_once() -> None:
    adapter = ScriptedAdapter(Turn(str(n)) for n in range(3))
    assert [t.content for t in adapter.turns] == ["0", "1", "2"]


# --- normalisation and cost through scripted_runtime ------------------------------------


async def test_openai_mode_subtracts_the_cached_prefix_and_prices_each_part() -> None:
    runtime = scripted_runtime([Turn("answer", usage=RAW)], PRICES, mode=OPENAI_API)
    response = await runtime.chat(messages=MESSAGES, model=MODEL)
    assert response.usage == Usage(input_tokens=600, cached_input_tokens=400, output_tokens=100)
    assert response.cost_usd == pytest.approx((600 * 2.0 + 400 * 0.5 + 100 * 10.0) / 1e6)
    assert response.content == "answer"
    assert response.finish_reason == "stop"
    assert response.model == MODEL


async def test_anthropic_mode_takes_input_as_already_exclusive() -> None:
    runtime = scripted_runtime([Turn("answer", usage=RAW)], PRICES, mode=ANTHROPIC_API)
    response = await runtime.chat(messages=MESSAGES, model=MODEL)
    assert response.usage == Usage(input_tokens=1000, cached_input_tokens=400, output_tokens=100)
    assert response.cost_usd == pytest.approx((1000 * 2.0 + 400 * 0.5 + 100 * 10.0) / 1e6)


async def test_the_same_raw_report_costs_differently_per_mode() -> None:
    costs = []
    for mode in (OPENAI_API, ANTHROPIC_API):
        runtime = scripted_runtime([Turn(usage=RAW)], PRICES, mode=mode)
        costs.append((await runtime.chat(messages=MESSAGES, model=MODEL)).cost_usd)
    assert costs[1] - costs[0] == pytest.approx(400 * 2.0 / 1e6)


async def test_openai_mode_is_the_default() -> None:
    runtime = scripted_runtime([Turn(usage=RAW)], PRICES)
    assert runtime.mode is OPENAI_API
    assert (await runtime.chat(messages=MESSAGES, model=MODEL)).usage.input_tokens == 600


async def test_cache_writes_are_subtracted_and_priced_in_openai_mode() -> None:
    raw = Usage(input_tokens=1000, cached_input_tokens=100, cache_write_tokens=200)
    runtime = scripted_runtime([Turn(usage=raw)], PRICES)
    response = await runtime.chat(messages=MESSAGES, model=MODEL)
    assert response.usage == Usage(
        input_tokens=700, cached_input_tokens=100, cache_write_tokens=200
    )
    assert response.cost_usd == pytest.approx((700 * 2.0 + 100 * 0.5 + 200 * 4.0) / 1e6)


async def test_an_inclusive_report_smaller_than_its_cache_is_a_transport_bug() -> None:
    bad = Usage(input_tokens=10, cached_input_tokens=40)
    runtime = scripted_runtime([Turn(usage=bad)], PRICES, mode=OPENAI_API)
    with pytest.raises(ValueError, match="inclusive of cached input"):
        await runtime.chat(messages=MESSAGES, model=MODEL)
    # The same report is fine where input is exclusive.
    ok = scripted_runtime([Turn(usage=bad)], PRICES, mode=ANTHROPIC_API)
    assert (await ok.chat(messages=MESSAGES, model=MODEL)).usage == bad


async def test_a_turn_without_usage_costs_nothing() -> None:
    runtime = scripted_runtime([Turn("free")], PRICES)
    response = await runtime.chat(messages=MESSAGES, model=MODEL)
    assert response.usage == Usage()
    assert response.cost_usd == 0.0


async def test_behind_an_invoker_the_context_is_charged_once_per_call() -> None:
    meter = UsageMeter()
    turns = [Turn("a", usage=RAW), Turn("b", usage=RAW)]
    runtime = scripted_runtime(turns, PRICES)
    invoker = Invoker(runtime, pricing=PRICES)
    ctx = RunContext(services=Services(invoker=invoker), meters=[meter])
    costs = [(await invoker.chat(ctx, ChatRequest(MESSAGES, MODEL))).cost_usd for _ in turns]
    one = Usage(input_tokens=600, cached_input_tokens=400, output_tokens=100)
    each = (600 * 2.0 + 400 * 0.5 + 100 * 10.0) / 1e6
    assert costs == [pytest.approx(each)] * 2
    assert ctx.ledger.usage == meter.usage == one + one
    assert ctx.ledger.calls == meter.calls == 2  # one road: no second meter in the runtime
    assert meter.by_model == {MODEL: one + one}
    assert meter.cost_usd == pytest.approx(2 * each)


async def test_an_unpriced_model_raises_rather_than_costing_zero() -> None:
    runtime = scripted_runtime([Turn(usage=RAW)], PRICES)
    with pytest.raises(UnknownModelError, match="no price for model 'unlisted'"):
        await runtime.chat(messages=MESSAGES, model="unlisted")


async def test_tool_call_turns_finish_with_tool_calls() -> None:
    call = ToolCall("c1", "search", {"q": "x"})
    runtime = scripted_runtime([Turn(tool_calls=(call,))], PRICES)
    response = await runtime.chat(messages=MESSAGES, model=MODEL)
    assert response.tool_calls == (call,)
    assert response.finish_reason == "tool_calls"


async def test_the_runtime_adapter_is_the_scripted_adapter_and_records_the_request() -> None:
    runtime = scripted_runtime([Turn("x")], PRICES)
    await runtime.chat(messages=MESSAGES, model=MODEL, temperature=0.5, max_tokens=9)
    adapter = runtime.adapter
    assert isinstance(adapter, ScriptedAdapter)
    assert adapter.calls == [ChatRequest(MESSAGES, MODEL, temperature=0.5, max_tokens=9)]


async def test_behind_an_invoker_exhaustion_is_not_retried() -> None:
    clock = FakeClock()
    runtime = scripted_runtime([Turn("only", usage=RAW)], PRICES)
    invoker = Invoker(runtime, chat_middleware=[RetryMiddleware(max_attempts=4)])
    ctx = RunContext(services=Services(invoker=invoker, clock=clock))
    request = ChatRequest(messages=MESSAGES, model=MODEL)
    response = await invoker.chat(ctx, request)
    assert response.usage.input_tokens == 600
    assert ctx.ledger.usage == response.usage
    with pytest.raises(ScriptedAdapterExhausted):
        await invoker.chat(ctx, request)
    assert clock.sleeps == []
    assert ctx.ledger.calls == 1
