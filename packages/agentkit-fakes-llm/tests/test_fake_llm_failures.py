"""Injected failures, delay, and how both meet the real RetryMiddleware, Invoker and RunContext."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, cast

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.invoker import Invoker
from agentkit.core.middleware import RetryMiddleware, budget_middleware
from agentkit.core.request import ChatRequest
from agentkit.core.runtime import RunContext, Services
from agentkit.core.types import Budget, Delta, Message
from agentkit.core.verification.script import ScriptExhausted
from agentkit.fakes.io import FakeClock
from agentkit.fakes.llm import FakeLLM, Turn
from agentkit.fakes.llm.errors import FakeLLMError, UnmatchedRequest

# These tests exercise the raw doubles: exhaustion, misses and tool calls without tools
# are what they assert on. Strict verification is tested in test_fake_llm_verification.py.
pytestmark = pytest.mark.agentkit(verify=False)

MODEL = "fake-model"
MESSAGES = [Message.user("hi")]
REQUEST = ChatRequest(messages=MESSAGES, model=MODEL)


class ProviderDown(Exception):
    pass


class RecordingObserver:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    def emit(self, event: str, **fields: Any) -> None:
        self.events.append((event, fields))


def run_ctx(invoker: Invoker, clock: FakeClock, **kw: Any) -> RunContext:
    return RunContext(services=Services(invoker=invoker, clock=clock), **kw)


async def drain(stream: AsyncIterator[Delta]) -> list[Delta]:
    return [delta async for delta in stream]


# --- fail_times on the double alone -----------------------------------------------------


async def test_the_first_fail_times_calls_fail_then_it_answers() -> None:
    llm = FakeLLM("fine", fail_times=2)
    for attempt in (1, 2):
        with pytest.raises(FakeLLMError, match=f"injected failure {attempt} of 2") as info:
            await llm.chat(messages=MESSAGES, model=MODEL)
        assert (info.value.attempt, info.value.fail_times) == (attempt, 2)
    assert (await llm.chat(messages=MESSAGES, model=MODEL)).content == "fine"
    assert (await llm.chat(messages=MESSAGES, model=MODEL)).content == "fine"
    assert llm.failures == 2
    assert len(llm.calls) == 4  # failed attempts were sent too


async def test_the_failure_is_raised_at_the_first_anext_before_any_delta() -> None:
    llm = FakeLLM("fine", fail_times=1)
    stream = llm.stream(messages=MESSAGES, model=MODEL)  # nothing raised yet
    assert llm.calls == []
    with pytest.raises(FakeLLMError):
        await anext(stream)
    with pytest.raises(StopAsyncIteration):  # the failed stream is over, it yielded nothing
        await anext(stream)


async def test_fail_exc_is_raised_instead_of_the_default() -> None:
    llm = FakeLLM("fine", fail_times=2, fail_exc=ProviderDown("503"))
    for _ in range(2):
        with pytest.raises(ProviderDown, match="503"):
            await llm.chat(messages=MESSAGES, model=MODEL)
    assert (await llm.chat(messages=MESSAGES, model=MODEL)).content == "fine"


async def test_a_failed_call_consumes_no_script_turn() -> None:
    llm = FakeLLM.script([Turn("one"), Turn("two")], fail_times=1)
    with pytest.raises(FakeLLMError):
        await llm.chat(messages=MESSAGES, model=MODEL)
    assert llm.remaining == 2
    assert (await llm.chat(messages=MESSAGES, model=MODEL)).content == "one"
    assert (await llm.chat(messages=MESSAGES, model=MODEL)).content == "two"


@pytest.mark.parametrize("bad", [-1, True, 1.5])
def test_fail_times_must_be_a_non_negative_int(bad: Any) -> None:
    with pytest.raises((ArgumentTypeError, ArgumentValueError), match="fail_times") as info:
        FakeLLM(fail_times=bad)
    assert info.value.argument == "fail_times"


def test_fail_exc_must_be_an_instance() -> None:
    with pytest.raises(TypeError, match="instantiate it"):
        FakeLLM(fail_exc=cast(Any, ProviderDown))


# --- with the real RetryMiddleware ------------------------------------------------------


async def test_fail_times_two_retries_to_success_sleeping_the_backoffs_on_the_clock() -> None:
    clock = FakeClock(start=1000.0)
    observer = RecordingObserver()
    llm = FakeLLM("recovered", fail_times=2)
    retry = RetryMiddleware(max_attempts=3, initial_backoff=0.5, multiplier=2.0)
    invoker = Invoker(llm, chat_middleware=[retry])
    ctx = RunContext(services=Services(invoker=invoker, clock=clock, observer=observer))
    response = await invoker.chat(ctx, REQUEST)
    assert response.content == "recovered"
    assert clock.sleeps == [0.5, 1.0]
    assert clock.now() == pytest.approx(1001.5)
    assert len(llm.calls) == 3
    assert [event for event, _ in observer.events] == ["llm.retry", "llm.retry"]
    assert "FakeLLMError" in observer.events[0][1]["error"]
    assert ctx.ledger.calls == 1  # only the successful attempt is charged


async def test_an_unmatched_request_passes_through_retry_middleware_unretried() -> None:
    clock = FakeClock()
    llm = FakeLLM({"weather": "sunny"})
    invoker = Invoker(llm, chat_middleware=[RetryMiddleware(max_attempts=5)])
    with pytest.raises(UnmatchedRequest):
        await invoker.chat(run_ctx(invoker, clock), REQUEST)
    assert clock.sleeps == []
    assert len(llm.calls) == 1


async def test_a_retried_script_still_hands_out_each_turn_once() -> None:
    clock = FakeClock()
    llm = FakeLLM.script([Turn("one"), Turn("two")], fail_times=1)
    invoker = Invoker(llm, chat_middleware=[budget_middleware, RetryMiddleware()])
    ctx = run_ctx(invoker, clock, budget=Budget(max_llm_calls=5))
    answers = [(await invoker.chat(ctx, REQUEST)).content for _ in range(2)]
    assert answers == ["one", "two"]
    assert clock.sleeps == [0.5]
    with pytest.raises(ScriptExhausted):
        await invoker.chat(ctx, REQUEST)


# --- delay ------------------------------------------------------------------------------


async def test_delay_holds_the_first_delta_back_on_real_loop_time() -> None:
    llm = FakeLLM("late", delay=30.0)
    task = asyncio.create_task(llm.chat(messages=MESSAGES, model=MODEL))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not task.done()
    assert len(llm.calls) == 1  # the call is in flight
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_timeout_around_a_delayed_call_fires() -> None:
    llm = FakeLLM("late", delay=30.0)
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.01):
            await llm.chat(messages=MESSAGES, model=MODEL)


async def test_a_short_delay_still_answers() -> None:
    llm = FakeLLM("soon", delay=0.001)
    assert (await llm.chat(messages=MESSAGES, model=MODEL)).content == "soon"


async def test_a_failure_is_settled_at_the_ask_and_raised_after_the_delay() -> None:
    llm = FakeLLM("x", delay=30.0, fail_times=1)
    task = asyncio.create_task(llm.chat(messages=MESSAGES, model=MODEL))
    await asyncio.sleep(0)
    # the call was asked for, so it has had its failure; cancelled in its delay, it raises none
    assert (len(llm.calls), llm.failures) == (1, 1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


@pytest.mark.parametrize("bad", [-0.1, float("nan"), float("inf")])
def test_delay_must_be_finite_and_non_negative(bad: float) -> None:
    with pytest.raises(ValueError, match="delay"):
        FakeLLM(delay=bad)


def test_fail_exc_without_fail_times_is_rejected() -> None:
    # fail_exc alone injects nothing: the double would answer every call, and a test of the
    # error path it was written for would pass without that path ever running.
    with pytest.raises(ValueError, match=r"fail_exc has no effect without fail_times >= 1"):
        FakeLLM("fine", fail_exc=ProviderDown("503"))
    with pytest.raises(ValueError, match=r"fail_exc has no effect"):
        FakeLLM.script([Turn("x")], fail_exc=ProviderDown("503"))


async def test_scripted_exceptions_count_in_failures_with_the_injected_ones() -> None:
    llm = FakeLLM.script([ConnectionError("503"), Turn("ok"), TimeoutError("slow")], fail_times=1)
    for _ in range(2):
        with pytest.raises((FakeLLMError, ConnectionError)):
            await llm.chat(messages=[Message.user("q")], model="m")
    assert (await llm.chat(messages=[Message.user("q")], model="m")).content == "ok"
    with pytest.raises(TimeoutError):
        await llm.chat(messages=[Message.user("q")], model="m")
    assert llm.failures == 3
    assert llm.remaining == 0
