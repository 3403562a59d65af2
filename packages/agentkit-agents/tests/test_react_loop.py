"""ReactAgent's loop, end to end through the real Invoker, driven by the doubles.

Every test here runs the real agent on a real RunContext (``make_test_ctx``)
whose only doubles are the ports: FakeLLM behind the Invoker, FakeTool as the
tools, FakeClock as the clock.
"""

from __future__ import annotations

from typing import Any

import pytest

from agentkit.agents.react import ReactAgent
from agentkit.core.meters import UsageMeter
from agentkit.core.types import Message, ToolCall, ToolSchema, Usage
from agentkit.fakes.ctx import make_test_ctx
from agentkit.fakes.ctx.observer import RecordingObserver
from agentkit.fakes.io import FakeTool
from agentkit.fakes.llm import FakeLLM, Turn

U1 = Usage(input_tokens=100, output_tokens=20)
U2 = Usage(input_tokens=150, cached_input_tokens=50, output_tokens=30)
LOOKUP_SCHEMA = ToolSchema(
    "lookup",
    "Look a word up.",
    {
        "type": "object",
        "properties": {"word": {"type": "string"}, "limit": {"type": "integer"}},
        "required": ["word"],
        "additionalProperties": False,
    },
)


def named(observer: RecordingObserver, event: str) -> list[dict[str, Any]]:
    return [fields for name, fields in observer.observations if name == event]


def lookup_tool(responder: Any = None) -> FakeTool:
    return FakeTool(
        name="lookup",
        description="Look a word up.",
        responder=responder if responder is not None else (lambda args: {"word": args["word"]}),
        schema=LOOKUP_SCHEMA,
    )


def call(call_id: str = "c1", name: str = "lookup", **arguments: Any) -> ToolCall:
    return ToolCall(call_id, name, arguments or {"word": "agent"})


async def test_one_tool_call_then_a_final_answer() -> None:
    tool = lookup_tool()
    llm = FakeLLM.script(
        [Turn(tool_calls=(call(word="agent"),), usage=U1), Turn(content="done", usage=U2)]
    )
    watcher = UsageMeter()
    ctx = make_test_ctx(llm=llm, meters=[watcher])
    agent = ReactAgent([tool], model="m", system_prompt="Be brief.")

    result = await agent.run(ctx, "define agent")

    assert result.stop_reason == "final"
    assert result.text == result.output == "done"
    assert result.iterations == 2
    assert tool.calls == [{"word": "agent"}]
    assert result.messages == (
        Message.user("define agent"),
        Message.assistant("", (call(word="agent"),)),
        Message.tool('{"word": "agent"}', tool_call_id="c1", name="lookup"),
        Message.assistant("done"),
    )
    # usage flows from the terminal deltas through the Invoker into the ledger and every meter
    assert result.usage == ctx.ledger.usage == watcher.usage == U1 + U2
    assert result.llm_calls == watcher.calls == 2
    assert result.checkpoint_key is None
    assert result.pending_tool_call is None
    # the model saw the system prompt, the task and the tool result, and was offered the tool
    second = llm.calls[1]
    assert second.messages[0] == Message.system("Be brief.")
    assert second.messages[1:] == result.messages[:3]
    assert second.tools == (LOOKUP_SCHEMA,)
    assert second.model == "m"


@pytest.mark.agentkit(verify=False)  # the script is cut off on purpose
async def test_a_two_turn_script_asked_for_a_third_fails_loudly_through_the_tool_except() -> None:
    """The tool raises both times, so the loop's ``except Exception`` turns each failure
    into a tool message and asks the model again; the third ask is a ScriptExhausted
    (a BaseException), which that same except does NOT swallow."""

    def broken(args: dict[str, Any]) -> Any:
        raise RuntimeError("backend down")

    tool = lookup_tool(broken)
    llm = FakeLLM.script([Turn(tool_calls=(call("c1"),)), Turn(tool_calls=(call("c2"),))])
    ctx = make_test_ctx(llm=llm)
    agent = ReactAgent([tool], model="m", max_iterations=10)

    # imported from the fakes package: the same class object as agentkit.core.verification.script's
    from agentkit.fakes.llm import ScriptExhausted

    with pytest.raises(ScriptExhausted, match="script has 2 turns"):
        await agent.run(ctx, "define agent")
    assert len(tool.calls) == 2  # the except site ran twice: each failure was reflected
    assert len(llm.calls) == 3  # and the model was asked a third time, which raised


async def test_script_exhausted_raised_inside_a_tool_passes_the_tool_except() -> None:
    """A tool backed by another scripted double that runs out: the loop's tool
    ``except Exception`` must let it through rather than report it to the model."""
    from agentkit.core.verification.script import ScriptCursor, ScriptExhausted

    answers = ScriptCursor(["first answer"], what="answer")
    tool = lookup_tool(lambda args: answers.next())
    llm = FakeLLM.script([Turn(tool_calls=(call("c1"),)), Turn(tool_calls=(call("c2"),))])
    ctx = make_test_ctx(llm=llm)

    with pytest.raises(ScriptExhausted, match="script has 1 answer"):
        await ReactAgent([tool], model="m").run(ctx, "define agent")
    assert len(tool.calls) == 2


async def test_max_iterations_stops_a_never_ending_tool_loop() -> None:
    tool = lookup_tool()
    llm = FakeLLM.script([Turn(tool_calls=(call(),), usage=U1)], repeat_last=True)
    ctx = make_test_ctx(llm=llm)

    result = await ReactAgent([tool], model="m", max_iterations=3).run(ctx, "define agent")

    assert result.stop_reason == "max_iterations"
    assert result.iterations == 3
    assert result.text is None
    assert result.output is None
    assert len(llm.calls) == 3
    assert len(tool.calls) == 3
    assert result.usage == U1 + U1 + U1
    assert [m.role for m in result.messages] == ["user"] + ["assistant", "tool"] * 3
    assert result.detail == "no final answer after 3 iterations"


@pytest.mark.agentkit(verify=False)  # the script calls an unoffered tool on purpose
async def test_an_unknown_tool_becomes_a_tool_message_and_the_loop_goes_on() -> None:
    tool = lookup_tool()
    llm = FakeLLM.script([Turn(tool_calls=(call("c1", name="search"),)), Turn(content="ok")])
    ctx = make_test_ctx(llm=llm)

    result = await ReactAgent([tool], model="m").run(ctx, "t")

    assert result.stop_reason == "final"
    error = result.messages[2]
    assert error.role == "tool"
    assert error.tool_call_id == "c1"
    assert error.name == "search"
    assert error.content == "error: there is no tool named 'search'; available tools: lookup"
    assert tool.calls == []


async def test_arguments_that_break_the_schema_never_reach_the_tool() -> None:
    tool = lookup_tool()
    bad = ToolCall("c1", "lookup", {"limit": "ten", "colour": 1})
    # The first call breaks the schema on purpose, so the double's argument check is off.
    turns = [Turn(tool_calls=(bad,)), Turn(tool_calls=(call("c2"),)), Turn("ok")]
    llm = FakeLLM.script(turns, verify=False)
    ctx = make_test_ctx(llm=llm)

    result = await ReactAgent([tool], model="m").run(ctx, "t")

    assert result.stop_reason == "final"
    assert llm.remaining == 0
    message = result.messages[2].content
    assert message.startswith("error: invalid arguments for tool 'lookup': ")
    assert "missing required argument 'word'" in message
    assert "limit: expected integer, got string" in message
    assert "unexpected argument 'colour'" in message
    assert tool.calls == [{"word": "agent"}]  # only the corrected call ran


async def test_a_raising_tool_becomes_an_error_message_and_the_model_recovers() -> None:
    def flaky(args: dict[str, Any]) -> Any:
        if len(tool.calls) == 1:
            raise TimeoutError("upstream timed out")
        return "found it"

    tool = lookup_tool(flaky)
    events = RecordingObserver()
    llm = FakeLLM.script(
        [Turn(tool_calls=(call("c1"),)), Turn(tool_calls=(call("c2"),)), Turn(content="answer")]
    )
    ctx = make_test_ctx(llm=llm, observer=events)

    result = await ReactAgent([tool], model="m").run(ctx, "t")

    assert result.stop_reason == "final"
    assert result.text == "answer"
    assert (
        result.messages[2].content == "error: tool 'lookup' raised TimeoutError: upstream timed out"
    )
    assert result.messages[4].content == "found it"
    (failure,) = named(events, "react.tool_failed")
    assert failure == {
        "tool": "lookup",
        "call_id": "c1",
        "error": "TimeoutError: upstream timed out",
    }
    assert [e["outcome"] for e in named(events, "react.tool_answered")] == ["error", "ok"]


@pytest.mark.agentkit(verify=False)  # the script calls an unoffered tool on purpose
async def test_every_call_of_one_reply_is_answered_in_order() -> None:
    tool = lookup_tool(lambda args: args["word"].upper())
    calls = (call("a", word="x"), call("b", name="nope"), call("c", word="y"))
    llm = FakeLLM.script([Turn(tool_calls=calls), Turn(content="ok")])

    result = await ReactAgent([tool], model="m").run(make_test_ctx(llm=llm), "t")

    answers = [(m.tool_call_id, m.content) for m in result.messages if m.role == "tool"]
    assert [a[0] for a in answers] == ["a", "b", "c"]
    assert answers[0][1] == "X"
    assert answers[2][1] == "Y"
    assert answers[1][1].startswith("error: there is no tool named 'nope'")


async def test_an_empty_reply_is_reflected_back_and_the_loop_continues() -> None:
    events = RecordingObserver()
    llm = FakeLLM.script([Turn(content="  "), Turn(content="real answer")])
    ctx = make_test_ctx(llm=llm, observer=events)

    result = await ReactAgent([], model="m").run(ctx, "t")

    assert result.stop_reason == "final"
    assert result.text == "real answer"
    assert result.iterations == 2
    reflection = result.messages[2]
    assert reflection.role == "user"
    assert "the reply was empty and called no tool" in reflection.content
    assert llm.calls[1].messages[-1] == reflection
    assert named(events, "react.reflected") == [
        {"iteration": 1, "problem": "the reply was empty and called no tool"}
    ]


async def test_invalid_json_under_a_response_format_is_reflected_until_valid() -> None:
    response_format = {
        "type": "json_schema",
        "json_schema": {"name": "a", "schema": {"type": "object", "required": ["answer"]}},
    }
    llm = FakeLLM.script(
        [
            Turn(content="The answer is 4"),
            Turn(content='{"value": 4}'),
            Turn(content='{"answer": 4}'),
        ]
    )
    agent = ReactAgent([], model="m", response_format=response_format)

    result = await agent.run(make_test_ctx(llm=llm), "2+2?")

    assert result.stop_reason == "final"
    assert result.output == {"answer": 4}
    assert result.text == '{"answer": 4}'
    reflections = [m.content for m in result.messages if m.role == "user"][1:]
    assert len(reflections) == 2
    assert "not valid JSON" in reflections[0]
    assert "missing required argument 'answer'" in reflections[1]
    assert all(c.response_format == response_format for c in llm.calls)


@pytest.mark.agentkit(verify=False)  # the script is cut off on purpose
async def test_an_output_validator_that_keeps_rejecting_ends_at_the_script_not_in_a_loop() -> None:
    """Reflection is behind ``except Exception``: a script that runs out while the
    validator is still unhappy must still fail the test, not be reflected."""
    from agentkit.fakes.llm import ScriptExhausted

    def never(text: str) -> Any:
        raise ValueError("never good enough")

    llm = FakeLLM.script([Turn(content="a"), Turn(content="b")])
    agent = ReactAgent([], model="m", output_validator=never)
    with pytest.raises(ScriptExhausted):
        await agent.run(make_test_ctx(llm=llm), "t")
    assert len(llm.calls) == 3


async def test_results_that_are_not_json_are_rendered_with_str() -> None:
    class Opaque:
        def __str__(self) -> str:
            return "<opaque>"

    tool = lookup_tool(lambda args: Opaque())
    llm = FakeLLM.script([Turn(tool_calls=(call(),)), Turn(content="ok")])
    result = await ReactAgent([tool], model="m").run(make_test_ctx(llm=llm), "t")
    assert result.messages[2].content == "<opaque>"


async def test_a_result_that_breaks_the_tools_output_schema_is_reported() -> None:
    tool = FakeTool(
        name="lookup",
        responder={"count": "three"},
        output_schema={"type": "object", "properties": {"count": {"type": "integer"}}},
    )
    llm = FakeLLM.script([Turn(tool_calls=(call(),)), Turn(content="ok")])
    result = await ReactAgent([tool], model="m").run(make_test_ctx(llm=llm), "t")
    assert result.messages[2].content == (
        "error: tool 'lookup' returned output that breaks its output schema: "
        "count: expected integer, got string"
    )


async def test_a_context_without_an_invoker_is_a_clear_error() -> None:
    with pytest.raises(RuntimeError, match="no invoker"):
        await ReactAgent([], model="m").run(make_test_ctx(), "t")


def test_bad_construction_is_refused() -> None:
    from agentkit.agents.capabilities import RequestBuilder

    with pytest.raises(ValueError, match="max_iterations"):
        ReactAgent([], model="m", max_iterations=0)
    with pytest.raises(ValueError, match="unique"):
        ReactAgent([FakeTool(name="a"), FakeTool(name="a")], model="m")
    builder = RequestBuilder("sys", model="m")
    with pytest.raises(TypeError, match="not both"):
        ReactAgent([], model="m", system_prompt="x", request_builder=builder)
    with pytest.raises(ValueError, match="'other'"):
        ReactAgent([], model="other", request_builder=builder)


async def test_a_non_str_task_is_refused() -> None:
    with pytest.raises(TypeError, match="task must be a str"):
        await ReactAgent([], model="m").run(make_test_ctx(llm=FakeLLM("x")), 42)  # type: ignore[arg-type]


@pytest.mark.agentkit(verify=False)  # the script is cut off on purpose
async def test_script_exhausted_raised_inside_an_output_validator_is_not_reflected() -> None:
    """The validator site is an ``except Exception`` too: a validator backed by a
    scripted double that runs out must fail the run, not send the model back."""
    from agentkit.core.verification.script import ScriptCursor, ScriptExhausted

    verdicts = ScriptCursor([ValueError("try again")], what="verdict")

    def grader(text: str) -> Any:
        raise verdicts.next()

    llm = FakeLLM.script([Turn(content="a"), Turn(content="b"), Turn(content="c")])
    agent = ReactAgent([], model="m", output_validator=grader)
    with pytest.raises(ScriptExhausted, match="script has 1 verdict"):
        await agent.run(make_test_ctx(llm=llm), "t")
    assert len(llm.calls) == 2  # the first verdict was reflected; the second ask ran out
