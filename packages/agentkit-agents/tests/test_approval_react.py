"""Gated tool calls under autonomy="ask": parked on an asker, or suspended and resumed."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from agentkit.agents.control import ElicitationAsker, InMemoryCheckpointer
from agentkit.agents.react import (
    ApprovalUnavailable,
    CheckpointAlreadyResumed,
    CheckpointerMissing,
    CheckpointNotFound,
    InvalidCheckpoint,
    ReactAgent,
    ReactResult,
)
from agentkit.core.cancellation import CancellationToken
from agentkit.core.types import Message, ToolCall, Usage
from agentkit.fakes.ctx import make_test_ctx
from agentkit.fakes.ctx.observer import RecordingObserver
from agentkit.fakes.io import FakeTool
from agentkit.fakes.llm import FakeLLM, Turn

TIMEOUT = 5.0
DEPLOY = ToolCall("c1", "deploy", {"env": "prod"})
USAGE = Usage(input_tokens=10, output_tokens=5)


def deploy_tool() -> FakeTool:
    return FakeTool(name="deploy", responder="deployed", requires_approval=True)


def script() -> FakeLLM:
    return FakeLLM.script(
        [Turn(tool_calls=(DEPLOY,), usage=USAGE), Turn(content="shipped", usage=USAGE)]
    )


async def answer_next(asker: ElicitationAsker, approved: bool) -> str:
    request = await asker.next_request()
    asker.answer(request.id, approved)
    return request.question


async def run_with_ui(
    agent: ReactAgent, ctx: Any, asker: ElicitationAsker, *answers: bool
) -> tuple[ReactResult, list[str]]:
    async def ui() -> list[str]:
        return [await answer_next(asker, approved) for approved in answers]

    async with asyncio.timeout(TIMEOUT):
        result, questions = await asyncio.gather(agent.run(ctx, "ship it"), ui())
    return result, questions


async def test_with_an_asker_the_gated_call_parks_until_approved_then_runs() -> None:
    tool = deploy_tool()
    asker = ElicitationAsker()
    events = RecordingObserver()
    ctx = make_test_ctx(llm=script(), asker=asker, autonomy="ask", observer=events)

    result, questions = await run_with_ui(ReactAgent([tool], model="m"), ctx, asker, True)

    assert result.stop_reason == "final"
    assert result.text == "shipped"
    assert questions == ['Allow tool \'deploy\' to run with arguments {"env": "prod"}?']
    assert tool.calls == [{"env": "prod"}]
    assert result.messages[2] == Message.tool("deployed", tool_call_id="c1", name="deploy")
    assert "react.approval_requested" in events.names
    assert ("react.approval_answered", {"tool": "deploy", "call_id": "c1", "approved": True}) in (
        events.observations
    )


async def test_a_denied_call_is_not_run_and_the_model_is_told() -> None:
    tool = deploy_tool()
    asker = ElicitationAsker()
    ctx = make_test_ctx(llm=script(), asker=asker, autonomy="ask")

    result, _ = await run_with_ui(ReactAgent([tool], model="m"), ctx, asker, False)

    assert result.stop_reason == "final"
    assert tool.calls == []
    denial = result.messages[2]
    assert denial.role == "tool"
    assert denial.tool_call_id == "c1"
    assert denial.content.startswith("denied: the human did not approve running tool 'deploy'")


async def test_under_autonomy_auto_a_gated_tool_runs_without_asking() -> None:
    tool = deploy_tool()
    asker = ElicitationAsker()
    ctx = make_test_ctx(llm=script(), asker=asker, autonomy="auto")
    result = await ReactAgent([tool], model="m").run(ctx, "ship it")
    assert result.stop_reason == "final"
    assert tool.calls == [{"env": "prod"}]
    assert asker.answered == []


async def test_an_ungated_tool_is_never_asked_about_under_ask() -> None:
    tool = FakeTool(name="deploy", responder="deployed")
    ctx = make_test_ctx(llm=script(), autonomy="ask")  # no asker, no checkpointer: not needed
    result = await ReactAgent([tool], model="m").run(ctx, "ship it")
    assert result.stop_reason == "final"


@pytest.mark.agentkit(verify=False)  # the script is cut off on purpose
async def test_without_an_asker_the_run_checkpoints_and_unwinds() -> None:
    tool = deploy_tool()
    store = InMemoryCheckpointer()
    events = RecordingObserver()
    llm = script()
    ctx = make_test_ctx(llm=llm, checkpointer=store, autonomy="ask", observer=events)

    result = await ReactAgent([tool], model="m").run(ctx, "ship it")

    assert result.stop_reason == "awaiting_approval"
    assert result.pending_tool_call == DEPLOY
    assert result.checkpoint_key is not None
    assert result.checkpoint_key in store
    assert result.text is None
    assert tool.calls == []
    assert len(llm.calls) == 1  # unwound: the model was not asked again
    assert result.messages == (Message.user("ship it"), Message.assistant("", (DEPLOY,)))
    state = await store.load(result.checkpoint_key)
    assert state is not None
    json.dumps(state)  # plain JSON
    assert state["status"] == "suspended"
    assert state["iteration"] == 1
    assert state["pending"] == {"id": "c1", "name": "deploy", "arguments": {"env": "prod"}}
    assert "react.suspended" in events.names


async def test_a_suspended_run_traces_where_it_stopped_and_the_resume_continues_the_step() -> None:
    from agentkit.fakes.ctx import RecordingTracer

    store = InMemoryCheckpointer()
    tracer = RecordingTracer()
    ctx = make_test_ctx(
        llm=FakeLLM.script([Turn(tool_calls=(DEPLOY,))]),
        checkpointer=store,
        autonomy="ask",
        trace=tracer,
    )
    agent = ReactAgent([deploy_tool()], model="m")
    suspended = await agent.run(ctx, "ship it")
    (step,) = tracer.named("react.step")
    assert step.attrs["react.outcome"] == "awaiting_approval"
    (tool_span,) = tracer.named("react.tool")
    assert tool_span.attrs["tool.outcome"] == "suspended"
    assert tool_span.attrs["react.checkpoint_key"] == suspended.checkpoint_key
    (run,) = tracer.named("react.run")
    assert run.attrs["react.stop_reason"] == "awaiting_approval"

    assert suspended.checkpoint_key is not None
    later = RecordingTracer()
    ctx2 = make_test_ctx(
        llm=FakeLLM.script([Turn(content="ok")]), checkpointer=store, autonomy="ask", trace=later
    )
    await agent.resume(ctx2, suspended.checkpoint_key, True)
    steps = later.named("react.step")
    assert [(s.attrs["iteration"], s.attrs.get("resumed")) for s in steps] == [(1, True), (2, None)]
    (resumed_tool,) = later.named("react.tool")
    assert resumed_tool.attrs["tool.approval"] == "resumed"
    assert resumed_tool.attrs["tool.outcome"] == "ok"


async def _suspend() -> tuple[ReactResult, InMemoryCheckpointer]:
    store = InMemoryCheckpointer()
    llm = FakeLLM.script([Turn(tool_calls=(DEPLOY,), usage=USAGE)])  # exactly the one turn
    ctx = make_test_ctx(llm=llm, checkpointer=store, autonomy="ask")
    result = await ReactAgent([deploy_tool()], model="m").run(ctx, "ship it")
    assert result.stop_reason == "awaiting_approval"
    return result, store


async def test_resume_approved_continues_exactly_where_the_run_stopped() -> None:
    suspended, store = await _suspend()
    assert suspended.checkpoint_key is not None
    # a new process: a new context and model, the same checkpointer
    tool = deploy_tool()
    llm = FakeLLM.script([Turn(content="shipped", usage=USAGE)])  # only what is left
    ctx = make_test_ctx(llm=llm, checkpointer=store, autonomy="ask")

    resumed = await ReactAgent([tool], model="m").resume(ctx, suspended.checkpoint_key, True)

    assert resumed.stop_reason == "final"
    assert resumed.text == "shipped"
    assert tool.calls == [{"env": "prod"}]
    assert resumed.iterations == 2
    # continuity: the resumed transcript extends the suspended one, unchanged
    assert resumed.messages[: len(suspended.messages)] == suspended.messages
    assert resumed.messages[len(suspended.messages) :] == (
        Message.tool("deployed", tool_call_id="c1", name="deploy"),
        Message.assistant("shipped"),
    )
    # the model saw the whole transcript, tool result included
    assert llm.calls[0].messages == resumed.messages[:3]

    # ...and it is the transcript an uninterrupted run, approved in place, produces
    asker = ElicitationAsker()
    parked_ctx = make_test_ctx(llm=script(), asker=asker, autonomy="ask")
    parked, _ = await run_with_ui(ReactAgent([deploy_tool()], model="m"), parked_ctx, asker, True)
    assert parked.messages == resumed.messages


async def test_resume_denied_tells_the_model_and_goes_on() -> None:
    suspended, store = await _suspend()
    assert suspended.checkpoint_key is not None
    tool = deploy_tool()
    llm = FakeLLM.script([Turn(content="not shipped")])
    ctx = make_test_ctx(llm=llm, checkpointer=store, autonomy="ask")

    resumed = await ReactAgent([tool], model="m").resume(ctx, suspended.checkpoint_key, False)

    assert resumed.stop_reason == "final"
    assert resumed.text == "not shipped"
    assert tool.calls == []
    assert resumed.messages[2].content.startswith("denied: ")
    assert llm.calls[0].messages[-1] == resumed.messages[2]


async def test_a_checkpoint_resumes_once() -> None:
    suspended, store = await _suspend()
    key = suspended.checkpoint_key
    assert key is not None
    agent = ReactAgent([deploy_tool()], model="m")
    ctx = make_test_ctx(llm=FakeLLM.script([Turn(content="ok")]), checkpointer=store)
    await agent.resume(ctx, key, True)
    with pytest.raises(CheckpointAlreadyResumed, match="already resumed"):
        await agent.resume(ctx, key, True)


async def test_several_calls_in_one_reply_resume_in_order_and_may_suspend_again() -> None:
    log = FakeTool(name="log", responder="logged")
    deploy = deploy_tool()
    calls = (
        ToolCall("a", "log", {}),
        ToolCall("b", "deploy", {"env": "prod"}),
        ToolCall("c", "deploy", {"env": "eu"}),
        ToolCall("d", "log", {}),
    )
    store = InMemoryCheckpointer()
    agent = ReactAgent([log, deploy], model="m")

    ctx1 = make_test_ctx(
        llm=FakeLLM.script([Turn(tool_calls=calls)]), checkpointer=store, autonomy="ask"
    )
    first = await agent.run(ctx1, "t")
    assert first.stop_reason == "awaiting_approval"
    assert first.pending_tool_call == calls[1]
    assert [m.tool_call_id for m in first.messages if m.role == "tool"] == ["a"]
    assert first.checkpoint_key is not None

    ctx2 = make_test_ctx(llm=FakeLLM.script([]), checkpointer=store, autonomy="ask")
    second = await agent.resume(ctx2, first.checkpoint_key, True)  # b runs, c must wait
    assert second.stop_reason == "awaiting_approval"
    assert second.pending_tool_call == calls[2]
    assert second.checkpoint_key not in (None, first.checkpoint_key)
    assert second.messages[: len(first.messages)] == first.messages
    assert second.iterations == 1

    ctx3 = make_test_ctx(
        llm=FakeLLM.script([Turn(content="ok")]), checkpointer=store, autonomy="ask"
    )
    assert second.checkpoint_key is not None
    third = await agent.resume(ctx3, second.checkpoint_key, False)  # c denied, d runs
    assert third.stop_reason == "final"
    answers = [
        (m.tool_call_id, m.content.split(":")[0]) for m in third.messages if m.role == "tool"
    ]
    assert answers == [("a", "logged"), ("b", "deployed"), ("c", "denied"), ("d", "logged")]
    assert deploy.calls == [{"env": "prod"}]
    assert log.calls == [{}, {}]
    assert third.messages[: len(second.messages)] == second.messages


@pytest.mark.agentkit(verify=False)  # the script is cut off on purpose
async def test_with_neither_asker_nor_checkpointer_it_is_a_typed_error_that_keeps_the_call() -> (
    None
):
    tool = deploy_tool()
    ctx = make_test_ctx(llm=script(), autonomy="ask")
    with pytest.raises(ApprovalUnavailable) as info:
        await ReactAgent([tool], model="m").run(ctx, "ship it")
    assert info.value.tool_call == DEPLOY
    assert info.value.messages == (Message.user("ship it"), Message.assistant("", (DEPLOY,)))
    assert "no asker" in str(info.value)
    assert "no checkpointer" in str(info.value)
    assert tool.calls == []


async def test_resume_errors_are_typed() -> None:
    agent = ReactAgent([deploy_tool()], model="m")
    llm = FakeLLM("unused")
    with pytest.raises(CheckpointerMissing):
        await agent.resume(make_test_ctx(llm=llm), "k", True)
    store = InMemoryCheckpointer()
    with pytest.raises(CheckpointNotFound) as missing:
        await agent.resume(make_test_ctx(llm=llm, checkpointer=store), "k", True)
    assert missing.value.key == "k"
    await store.save("k", {"format": "something else"})
    with pytest.raises(InvalidCheckpoint, match="format"):
        await agent.resume(make_test_ctx(llm=llm, checkpointer=store), "k", True)
    with pytest.raises(TypeError, match="bool"):
        await agent.resume(make_test_ctx(llm=llm, checkpointer=store), "k", "yes")  # type: ignore[arg-type]
    assert llm.calls == []


@pytest.mark.agentkit(verify=False)  # the script is cut off on purpose
async def test_cancelling_a_parked_run_withdraws_the_question_and_stops() -> None:
    tool = deploy_tool()
    asker = ElicitationAsker()
    token = CancellationToken()
    ctx = make_test_ctx(llm=script(), asker=asker, autonomy="ask", cancel=token)

    async with asyncio.timeout(TIMEOUT):
        running = asyncio.create_task(ReactAgent([tool], model="m").run(ctx, "ship it"))
        request = await asker.next_request()
        assert list(asker.pending) == [request]
        token.cancel("operator left")
        result = await running

    assert result.stop_reason == "cancelled"
    assert result.detail == "operator left"
    assert asker.pending == ()
    assert tool.calls == []


@pytest.mark.agentkit(verify=False)  # the script is cut off on purpose
async def test_an_asker_answering_something_other_than_a_bool_is_refused() -> None:
    class Sloppy:
        async def ask(self, question: str, *, tool_call: ToolCall) -> bool:
            return "no"  # type: ignore[return-value]

    ctx = make_test_ctx(llm=script(), asker=Sloppy(), autonomy="ask")
    with pytest.raises(TypeError, match="must be a bool"):
        await ReactAgent([deploy_tool()], model="m").run(ctx, "ship it")


async def test_a_denial_binds_even_when_resumed_on_a_context_that_would_not_ask() -> None:
    suspended, store = await _suspend()
    assert suspended.checkpoint_key is not None
    tool = deploy_tool()
    ctx = make_test_ctx(
        llm=FakeLLM.script([Turn(content="ok")]), checkpointer=store, autonomy="auto"
    )
    resumed = await ReactAgent([tool], model="m").resume(ctx, suspended.checkpoint_key, False)
    assert tool.calls == []
    assert resumed.messages[2].content.startswith("denied: ")


async def test_a_pending_tool_gone_from_the_resuming_agent_is_reported_to_the_model() -> None:
    suspended, store = await _suspend()
    assert suspended.checkpoint_key is not None
    llm = FakeLLM.script([Turn(content="ok")])
    ctx = make_test_ctx(llm=llm, checkpointer=store, autonomy="ask")
    resumed = await ReactAgent([], model="m").resume(ctx, suspended.checkpoint_key, True)
    assert resumed.stop_reason == "final"
    assert resumed.messages[2].content == (
        "error: there is no tool named 'deploy'; available tools: none"
    )
