"""How a ReactAgent run stops early: budget, cancellation; and retry under the loop."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from agentkit.agents.react import ReactAgent
from agentkit.core.cancellation import CancellationToken
from agentkit.core.invoker import ChatHandler
from agentkit.core.middleware import BudgetExceeded, RetryMiddleware, budget_middleware
from agentkit.core.request import ChatRequest
from agentkit.core.runtime import RunContext
from agentkit.core.types import Budget, Delta, ToolCall, Usage
from agentkit.fakes.ctx import make_test_ctx
from agentkit.fakes.ctx.observer import RecordingObserver
from agentkit.fakes.io import FakeClock, FakeTool
from agentkit.fakes.llm import FakeLLM, ScriptExhausted, Turn

USAGE = Usage(input_tokens=400, output_tokens=100)
TOOL_TURN = Turn(tool_calls=(ToolCall("c1", "echo", {"x": 1}),), usage=USAGE)


def named(observer: RecordingObserver, event: str) -> list[dict[str, Any]]:
    return [fields for name, fields in observer.observations if name == event]


def cancelling(name: str, token: CancellationToken, reason: str, answer: str) -> FakeTool:
    """A tool that cancels ``token`` (for ``reason``) when it runs, then answers."""

    def cancels(args: dict[str, Any]) -> str:
        token.cancel(reason)
        return answer

    return FakeTool(name=name, responder=cancels)


def echo() -> FakeTool:
    return FakeTool(name="echo", responder=lambda args: args)


async def test_the_budget_stops_the_loop_before_the_call_that_would_start_over_it() -> None:
    llm = FakeLLM.script([TOOL_TURN], repeat_last=True)
    ctx = make_test_ctx(llm=llm, budget=Budget(max_total_tokens=1000))

    result = await ReactAgent([echo()], model="m", max_iterations=50).run(ctx, "t")

    # 500 tokens a call: after two calls the ledger is at 1000, so the third never starts
    assert result.stop_reason == "budget"
    assert result.iterations == 2
    assert len(llm.calls) == 2
    assert result.usage == USAGE + USAGE
    assert result.detail is not None
    assert "max_total_tokens" in result.detail
    # the transcript is intact: both steps' tool results are in it
    assert [m.role for m in result.messages] == ["user", "assistant", "tool", "assistant", "tool"]


async def test_a_call_budget_of_one_allows_exactly_one_model_call() -> None:
    llm = FakeLLM.script([TOOL_TURN], repeat_last=True)
    ctx = make_test_ctx(llm=llm, budget=Budget(max_llm_calls=1))
    result = await ReactAgent([echo()], model="m").run(ctx, "t")
    assert result.stop_reason == "budget"
    assert result.llm_calls == 1 == len(llm.calls)
    assert result.detail == "budget exceeded: max_llm_calls limit 1, spent 1"


async def test_budget_exceeded_raised_inside_the_invoker_is_a_budget_stop_too() -> None:
    """A spend guard in chat middleware refuses the call; the loop reports it as a stop."""

    def guard(
        ctx: RunContext, request: ChatRequest, call_next: ChatHandler
    ) -> AsyncIterator[Delta]:
        if ctx.ledger.calls >= 1:
            raise BudgetExceeded("max_cost_usd", 0.01, 0.02)
        return call_next(ctx, request)

    llm = FakeLLM.script([TOOL_TURN], repeat_last=True)
    ctx = make_test_ctx(llm=llm, chat_middleware=[guard, budget_middleware])
    result = await ReactAgent([echo()], model="m").run(ctx, "t")
    assert result.stop_reason == "budget"
    assert result.iterations == 2  # step 2 started, and its model call was refused
    assert len(llm.calls) == 1
    assert "max_cost_usd" in (result.detail or "")


@pytest.mark.agentkit(verify=False)  # the script is cut off on purpose
async def test_a_run_cancelled_before_it_starts_makes_no_model_call() -> None:
    token = CancellationToken()
    token.cancel("user pressed stop")
    llm = FakeLLM.script([TOOL_TURN])
    ctx = make_test_ctx(llm=llm, cancel=token)

    result = await ReactAgent([echo()], model="m").run(ctx, "t")

    assert result.stop_reason == "cancelled"
    assert result.detail == "user pressed stop"
    assert result.iterations == 0
    assert llm.calls == []


async def test_cancelling_during_a_tool_stops_at_the_next_step_with_the_result_kept() -> None:
    token = CancellationToken()
    tool = cancelling("echo", token, "enough", "last result")
    llm = FakeLLM.script([TOOL_TURN], repeat_last=True)
    events = RecordingObserver()
    ctx = make_test_ctx(llm=llm, cancel=token, observer=events)

    result = await ReactAgent([tool], model="m").run(ctx, "t")

    assert result.stop_reason == "cancelled"
    assert result.iterations == 1
    assert len(llm.calls) == 1
    assert result.messages[-1].content == "last result"
    assert named(events, "react.stopped")[-1]["stop_reason"] == "cancelled"


async def test_cancelling_between_two_calls_of_one_reply_skips_the_rest() -> None:
    token = CancellationToken()
    first = cancelling("first", token, "stop", "ran")
    second = FakeTool(name="second", responder="never")
    calls = (ToolCall("a", "first", {}), ToolCall("b", "second", {}))
    llm = FakeLLM.script([Turn(tool_calls=calls)])
    ctx = make_test_ctx(llm=llm, cancel=token)

    result = await ReactAgent([first, second], model="m").run(ctx, "t")

    assert result.stop_reason == "cancelled"
    assert second.calls == []  # Invoker.run_tool refused it: the token was already cancelled
    assert [m.content for m in result.messages if m.role == "tool"] == ["ran"]


async def test_fail_times_two_is_retried_to_success_by_the_real_retry_middleware() -> None:
    clock = FakeClock(start=100.0)
    events = RecordingObserver()
    llm = FakeLLM.script(
        [TOOL_TURN, Turn(content="done", usage=USAGE)],
        fail_times=2,
        fail_exc=ConnectionError("503 from provider"),
    )
    ctx = make_test_ctx(llm=llm, chat_middleware=[RetryMiddleware()], clock=clock, observer=events)

    result = await ReactAgent([echo()], model="m").run(ctx, "t")

    assert result.stop_reason == "final"
    assert result.text == "done"
    assert result.iterations == 2
    assert clock.sleeps == [0.5, 1.0]  # backoff on virtual time: recorded, instant
    assert clock.now() == pytest.approx(101.5)
    assert llm.failures == 2
    assert len(llm.calls) == 4  # two failed attempts, then one call per step
    assert [e["attempt"] for e in named(events, "llm.retry")] == [1, 2]
    assert result.llm_calls == 2  # only successful calls are charged


@pytest.mark.agentkit(verify=False)  # the script is cut off on purpose
async def test_retry_does_not_hide_a_loop_that_asks_for_more_turns_than_scripted() -> None:
    clock = FakeClock()
    llm = FakeLLM.script([TOOL_TURN, TOOL_TURN])
    ctx = make_test_ctx(llm=llm, chat_middleware=[RetryMiddleware(max_attempts=5)], clock=clock)
    with pytest.raises(ScriptExhausted):
        await ReactAgent([echo()], model="m").run(ctx, "t")
    assert clock.sleeps == []  # ScriptExhausted was never retried
    assert len(llm.calls) == 3
