from __future__ import annotations

import pytest

from agentkit.core.call_runtime import CallRuntime, TransportFacts
from agentkit.core.pricing import (
    ANTHROPIC_API,
    OPENAI_API,
    Mode,
    ModelPrice,
    PriceTable,
    RawUsage,
    UnknownModelError,
)
from agentkit.core.request import ChatRequest
from agentkit.core.types import Delta, Message, ToolCall, Usage

PRICES = PriceTable(
    {
        "m": ModelPrice(input=3.0, cached_input=0.3, cache_write=3.75, output=15.0),
        "plain": ModelPrice(input=1.0, output=2.0),
    }
)


def test_model_price_charges_each_kind_of_token_at_its_rate() -> None:
    usage = Usage(
        input_tokens=1_000_000,
        cached_input_tokens=2_000_000,
        cache_write_tokens=1_000_000,
        output_tokens=100_000,
    )
    # 3.0 + 2 * 0.3 + 3.75 + 0.1 * 15.0
    assert PRICES.cost("m", usage) == pytest.approx(8.85)


def test_missing_cache_rates_fall_back_to_the_input_rate() -> None:
    usage = Usage(input_tokens=500_000, cached_input_tokens=500_000, output_tokens=1_000_000)
    assert PRICES.cost("plain", usage) == pytest.approx(1.0 + 2.0)


def test_unknown_model_is_a_typed_error_never_zero() -> None:
    with pytest.raises(UnknownModelError) as info:
        PRICES.cost("gpt-unknown", Usage(input_tokens=1))
    assert info.value.model == "gpt-unknown"
    assert "m" in str(info.value)
    assert isinstance(info.value, KeyError)
    assert "m" in PRICES
    assert "nope" not in PRICES


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_prices_must_be_finite_and_non_negative(bad: float) -> None:
    with pytest.raises(ValueError, match="input"):
        ModelPrice(input=bad, output=1.0)


def test_openai_mode_subtracts_cached_from_inclusive_input() -> None:
    raw = RawUsage(input_tokens=1200, cached_input_tokens=1000, output_tokens=30)
    assert OPENAI_API.normalise(raw) == Usage(
        input_tokens=200, cached_input_tokens=1000, output_tokens=30
    )


def test_anthropic_mode_keeps_exclusive_input_as_is() -> None:
    raw = RawUsage(
        input_tokens=200, cached_input_tokens=1000, cache_write_tokens=5, output_tokens=30
    )
    assert ANTHROPIC_API.normalise(raw) == Usage(200, 1000, 5, 30)


def test_inclusive_report_smaller_than_its_cached_part_is_refused() -> None:
    with pytest.raises(ValueError, match="inclusive"):
        OPENAI_API.normalise(RawUsage(input_tokens=10, cached_input_tokens=11))


def test_modes_are_values() -> None:
    assert Mode("openai_api", True) == OPENAI_API
    assert OPENAI_API != ANTHROPIC_API


class _OneShotAdapter:
    """A transport adapter that returns fixed facts and records what it was sent."""

    def __init__(self, facts: TransportFacts) -> None:
        self.facts = facts
        self.sent: list[ChatRequest] = []

    async def send(self, request: ChatRequest) -> TransportFacts:
        self.sent.append(request)
        return self.facts


async def test_call_runtime_normalises_and_prices_each_call() -> None:
    facts = TransportFacts(
        content="hi",
        usage=RawUsage(input_tokens=1_000_000, cached_input_tokens=600_000, output_tokens=10),
    )
    runtime = CallRuntime(_OneShotAdapter(facts), PRICES, mode=OPENAI_API)
    response = await runtime.chat(messages=[Message.user("q")], model="m", temperature=0.5)
    assert response.usage == Usage(
        input_tokens=400_000, cached_input_tokens=600_000, output_tokens=10
    )
    expected = (400_000 * 3.0 + 600_000 * 0.3 + 10 * 15.0) / 1_000_000
    assert response.cost_usd == pytest.approx(expected)
    assert response.finish_reason == "stop"
    assert response.model == "m"
    assert not hasattr(runtime, "meters")  # charging is the Invoker's, on the run's context


async def test_call_runtime_passes_options_through_and_bills_the_reported_model() -> None:
    call = ToolCall("c1", "lookup", {"q": "x"})
    adapter = _OneShotAdapter(TransportFacts(tool_calls=(call,), model="plain"))
    runtime = CallRuntime(adapter, PRICES, mode=ANTHROPIC_API)
    response = await runtime.chat(messages=[], model="m", max_tokens=7)
    assert adapter.sent[0].max_tokens == 7
    assert response.model == "plain"
    assert response.finish_reason == "tool_calls"
    assert response.tool_calls == (call,)


async def test_call_runtime_unknown_model_fails_loudly() -> None:
    runtime = CallRuntime(_OneShotAdapter(TransportFacts()), PRICES)
    with pytest.raises(UnknownModelError):
        await runtime.chat(messages=[], model="other")
    with pytest.raises(UnknownModelError):  # the stream refuses it too, before any delta
        await anext(runtime.stream(messages=[], model="other"))


async def test_call_runtime_streams_content_then_a_terminal_delta() -> None:
    runtime = CallRuntime(
        _OneShotAdapter(TransportFacts(content="hello", usage=RawUsage(input_tokens=3))), PRICES
    )
    deltas = [d async for d in runtime.stream(messages=[], model="plain")]
    assert deltas == [
        Delta(content="hello"),
        Delta(usage=Usage(input_tokens=3), finish_reason="stop"),
    ]
