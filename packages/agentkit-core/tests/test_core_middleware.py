"""Retry and budget middleware against the real FakeLLM and FakeClock."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any, cast

import pytest

from agentkit.core.invoker import Invoker
from agentkit.core.middleware import BudgetExceeded, RetryMiddleware, budget_middleware
from agentkit.core.request import ChatModel, ChatRequest
from agentkit.core.runtime import RunContext, Services
from agentkit.core.types import Budget, ChatResponse, Delta, Message, Usage
from agentkit.core.verification.script import ScriptExhausted
from agentkit.fakes.io import FakeClock
from agentkit.fakes.llm import FakeLLM, Turn

REQUEST = ChatRequest(messages=[Message.user("hi")], model="m")


class ProviderDown(Exception):
    pass


class _FailsAfterFirstDelta(ChatModel):
    """Streams one delta, then the connection drops: a failure AFTER streaming began."""

    def __init__(self) -> None:
        self.calls = 0

    async def chat_request(self, request: ChatRequest) -> ChatResponse:
        raise AssertionError("the Invoker streams; chat is never called")

    async def stream_request(self, request: ChatRequest) -> AsyncGenerator[Delta, None]:
        self.calls += 1
        yield Delta(content="partial ")
        raise ProviderDown("connection reset mid-stream")


def _ctx(invoker: Invoker, clock: FakeClock, **kw: Any) -> RunContext:
    return RunContext(services=Services(invoker=invoker, clock=clock), **kw)


async def test_failures_before_the_first_delta_are_retried_with_backoff_on_the_clock() -> None:
    clock = FakeClock(start=1000.0)
    llm = FakeLLM("recovered", fail_times=2, fail_exc=ProviderDown("503"))
    retry = RetryMiddleware(max_attempts=3, initial_backoff=0.5, multiplier=2.0)
    invoker = Invoker(llm, chat_middleware=[retry])
    response = await invoker.chat(_ctx(invoker, clock), REQUEST)
    assert response.content == "recovered"
    assert clock.sleeps == [0.5, 1.0]
    assert clock.now() == pytest.approx(1001.5)


async def test_retry_gives_up_after_max_attempts_with_the_last_error() -> None:
    clock = FakeClock()
    llm = FakeLLM("never", fail_times=5, fail_exc=ProviderDown("503"))
    invoker = Invoker(llm, chat_middleware=[RetryMiddleware(max_attempts=3)])
    with pytest.raises(ProviderDown):
        await invoker.chat(_ctx(invoker, clock), REQUEST)
    assert len(clock.sleeps) == 2
    assert len(llm.calls) == 3


async def test_a_failure_after_streaming_began_is_never_retried() -> None:
    clock = FakeClock()
    llm = _FailsAfterFirstDelta()
    invoker = Invoker(llm, chat_middleware=[RetryMiddleware(max_attempts=5)])
    seen: list[str] = []
    with pytest.raises(ProviderDown, match="mid-stream"):
        async for delta in invoker.stream(_ctx(invoker, clock), REQUEST):
            seen.append(delta.content)
    assert seen == ["partial "]
    assert llm.calls == 1
    assert clock.sleeps == []


async def test_script_exhausted_is_not_retried() -> None:
    clock = FakeClock()
    llm = FakeLLM.script([Turn(content="only")], verify=False)  # exhausting it is the point
    invoker = Invoker(llm, chat_middleware=[RetryMiddleware(max_attempts=5)])
    ctx = _ctx(invoker, clock)
    assert (await invoker.chat(ctx, REQUEST)).content == "only"
    with pytest.raises(ScriptExhausted):
        await invoker.chat(ctx, REQUEST)
    assert clock.sleeps == []
    assert len(llm.calls) == 2


def test_backoff_grows_and_is_capped() -> None:
    retry = RetryMiddleware(initial_backoff=1.0, multiplier=3.0, max_backoff=5.0)
    assert [retry.backoff(n) for n in (1, 2, 3)] == [1.0, 3.0, 5.0]
    with pytest.raises(ValueError, match="max_attempts"):
        RetryMiddleware(max_attempts=0)


async def test_budget_middleware_refuses_the_call_that_would_start_over_budget() -> None:
    clock = FakeClock()
    llm = FakeLLM("ok", usage=Usage(input_tokens=1))
    invoker = Invoker(llm, chat_middleware=[budget_middleware, RetryMiddleware()])
    ctx = _ctx(invoker, clock, budget=Budget(max_llm_calls=2))
    await invoker.chat(ctx, REQUEST)
    await invoker.chat(ctx, REQUEST)
    with pytest.raises(BudgetExceeded) as info:
        await invoker.chat(ctx, REQUEST)
    assert info.value.axis == "max_llm_calls"
    assert len(llm.calls) == 2
    assert clock.sleeps == []


async def test_budget_exceeded_inside_the_retry_is_not_retried() -> None:
    clock = FakeClock()
    invoker = Invoker(FakeLLM("ok"), chat_middleware=[RetryMiddleware(), budget_middleware])
    ctx = _ctx(invoker, clock, budget=Budget(max_llm_calls=0))
    with pytest.raises(BudgetExceeded):
        await invoker.chat(ctx, REQUEST)
    assert clock.sleeps == []


@pytest.mark.parametrize("field", ["initial_backoff", "multiplier", "max_backoff"])
def test_a_nan_backoff_setting_is_rejected(field: str) -> None:
    # NaN passed every `< 0` check and surfaced only mid-retry, as a nan-second sleep.
    with pytest.raises(ValueError, match=field):
        RetryMiddleware(**cast(Any, {field: float("nan")}))
