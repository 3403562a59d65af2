"""What a ReactAgent run traces and reports: span names, nesting, attributes, events.

And the RequestBuilder inside the loop: its grounding and compaction reach the
model, and its span, stamped with the prompt version, sits inside each step.
"""

from __future__ import annotations

import pytest

from agentkit.agents.capabilities import PROMPT_VERSION_ATTR, RequestBuilder
from agentkit.agents.react import ReactAgent
from agentkit.core.types import Message, ToolCall, Usage
from agentkit.fakes.ctx import FakeCompactor, FakeGrounder, RecordingTracer, make_test_ctx
from agentkit.fakes.ctx.observer import RecordingObserver
from agentkit.fakes.io import FakeTool
from agentkit.fakes.llm import FakeLLM, ScriptExhausted, Turn

USAGE = Usage(input_tokens=40, output_tokens=8)


def two_step_llm() -> FakeLLM:
    return FakeLLM.script(
        [
            Turn(
                tool_calls=(ToolCall("c1", "echo", {"x": 1}), ToolCall("c2", "nope", {})),
                usage=USAGE,
            ),
            Turn(content="done", usage=USAGE),
        ]
    )


@pytest.mark.agentkit(verify=False)  # the script calls an unoffered tool on purpose
async def test_spans_nest_run_step_and_inside_each_step_build_model_tool() -> None:
    tracer = RecordingTracer()
    ctx = make_test_ctx(llm=two_step_llm(), trace=tracer)
    builder = RequestBuilder("sys", model="m", prompt_version="p7")

    await ReactAgent(
        [FakeTool(name="echo", responder="e")], model="m", request_builder=builder
    ).run(ctx, "t")

    (run,) = tracer.named("react.run")
    assert run.parent_id is None
    steps = tracer.children(run)
    assert [s.name for s in steps] == ["react.step", "react.step"]
    assert [s.attrs["iteration"] for s in steps] == [1, 2]
    assert [s.attrs["react.outcome"] for s in steps] == ["tool_calls", "final"]
    assert [c.name for c in tracer.children(steps[0])] == [
        "request_builder.build",
        "react.model",
        "react.tool",
        "react.tool",
    ]
    assert [c.name for c in tracer.children(steps[1])] == ["request_builder.build", "react.model"]
    # every span of the run is in one trace, and none is left open or errored
    assert {s.trace_id for s in tracer.spans} == {run.trace_id}
    assert all(s.ended and s.error is None for s in tracer.spans)

    builds = tracer.named("request_builder.build")
    assert [b.attrs[PROMPT_VERSION_ATTR] for b in builds] == ["p7", "p7"]

    model = tracer.named("react.model")[0]
    assert model.kind == "client"
    assert model.attrs["model"] == "m"
    assert model.attrs["llm.input_tokens"] == 40
    assert model.attrs["llm.output_tokens"] == 8
    assert model.attrs["llm.finish_reason"] == "tool_calls"
    assert model.attrs["llm.tool_calls"] == 2
    assert model.attrs["llm.tools"] == 1

    tools = tracer.named("react.tool")
    assert [(t.attrs["tool.name"], t.attrs["tool.outcome"]) for t in tools] == [
        ("echo", "ok"),
        ("nope", "unknown_tool"),
    ]
    assert run.attrs["react.stop_reason"] == "final"
    assert run.attrs["react.iterations"] == 2
    assert run.attrs["llm.total_tokens"] == 96


@pytest.mark.agentkit(verify=False)  # the script is cut off on purpose
async def test_a_script_exhausted_marks_the_spans_it_unwound_through() -> None:
    tracer = RecordingTracer()
    llm = FakeLLM.script([Turn(tool_calls=(ToolCall("c1", "echo", {}),))])
    ctx = make_test_ctx(llm=llm, trace=tracer)
    try:
        await ReactAgent([FakeTool(name="echo")], model="m").run(ctx, "t")
    except ScriptExhausted:
        pass
    else:
        raise AssertionError("the second model call should have exhausted the script")
    (run,) = tracer.named("react.run")
    assert run.error_type is ScriptExhausted
    assert tracer.named("react.model")[-1].error_type is ScriptExhausted


@pytest.mark.agentkit(verify=False)  # the script calls an unoffered tool on purpose
async def test_the_observer_hears_the_run_from_start_to_stop() -> None:
    observer = RecordingObserver()
    ctx = make_test_ctx(llm=two_step_llm(), observer=observer)
    await ReactAgent([FakeTool(name="echo", responder="e")], model="m").run(ctx, "t")
    assert observer.names == [
        "react.started",
        "react.model_replied",
        "react.tool_answered",
        "react.tool_answered",
        "react.model_replied",
        "react.stopped",
    ]
    stopped = observer.observations[-1][1]
    assert stopped["stop_reason"] == "final"
    assert stopped["iterations"] == 2
    assert stopped["total_tokens"] == 96


@pytest.mark.agentkit(verify=False)  # the script calls an unoffered tool on purpose
async def test_the_loop_builds_every_request_with_its_request_builder() -> None:
    grounder = FakeGrounder(block="FACT: echo returns e.")
    compactor = FakeCompactor()
    builder = RequestBuilder(
        "sys", model="m", grounder=grounder, compactor=compactor, max_messages=2
    )
    llm = two_step_llm()
    ctx = make_test_ctx(llm=llm)
    agent = ReactAgent([FakeTool(name="echo", responder="e")], model="m", request_builder=builder)

    result = await agent.run(ctx, "the task")

    assert result.stop_reason == "final"
    # step 1: one message, under the limit -> system, grounding, the task
    assert llm.calls[0].messages == (
        Message.system("sys"),
        Message.system("FACT: echo returns e."),
        Message.user("the task"),
    )
    # step 2: four messages, over the limit -> the compactor's output replaces them
    assert llm.calls[1].messages == (
        Message.system("sys"),
        Message.system("FACT: echo returns e."),
        Message.user("[COMPACTED]"),
    )
    assert compactor.inputs == [result.messages[:4]]
    assert grounder.calls == [(ctx, "the task"), (ctx, "the task")]
    # the run's own transcript is the record, never the compacted view
    assert len(result.messages) == 5
