"""FakeLLM.exercise_tools: pydantic-ai TestModel's settings, and a crashing tool fails the test."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.types import Message, ToolSchema
from agentkit.fakes.llm import FakeLLM
from agentkit.fakes.llm.errors import UnmatchedRequest

Q = [Message.user("go")]
SEARCH = ToolSchema("search", parameters={"type": "object", "properties": {}})
CLOCK = ToolSchema("clock")


def kinds(llm: FakeLLM) -> list[str]:
    return [violation.kind for violation in llm.violations()]


CITY = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
Tool = Callable[[dict[str, Any]], str]


def forecast(args: dict[str, Any]) -> str:
    return f"sun in {args['city']}"


def broken(args: dict[str, Any]) -> str:
    raise ZeroDivisionError("division by zero in broken")


async def run(llm: FakeLLM, tools: dict[str, Tool]) -> list[Message]:
    """A tool loop as agentkit's ReactAgent runs one: a tool failure becomes an ``error:``
    message handed to the model (the real agent is exercised by docs/guides/llm.md)."""
    schemas = [ToolSchema(name, parameters=CITY) for name in tools]
    transcript = list(Q)
    for _ in range(4):
        reply = await llm.chat(messages=transcript, model="m", tools=schemas)
        transcript.append(Message.assistant(reply.content, tool_calls=reply.tool_calls))
        if not reply.tool_calls:
            return transcript
        for call in reply.tool_calls:
            try:
                content = tools[call.name](dict(call.arguments))
            except Exception as exc:
                content = f"error: tool {call.name!r} raised {type(exc).__name__}: {exc}"
            transcript.append(Message.tool(content, tool_call_id=call.id))
    raise AssertionError("the exerciser did not stop")


async def test_call_tools_names_the_tools_to_call() -> None:
    llm = FakeLLM.exercise_tools(call_tools=["clock"])
    first = await llm.chat(messages=Q, model="m", tools=[SEARCH, CLOCK])
    assert [call.name for call in first.tool_calls] == ["clock"]
    assert llm.violations() == []


@pytest.mark.agentkit(verify=False)
async def test_a_call_tools_name_the_request_does_not_offer_is_recorded() -> None:
    llm = FakeLLM.exercise_tools(call_tools=["clock", "clokc"])
    first = await llm.chat(messages=Q, model="m", tools=[SEARCH, CLOCK])
    assert [call.name for call in first.tool_calls] == ["clock"]
    assert kinds(llm) == ["unoffered_tool"]
    assert "['clokc']" in llm.violations()[0].detail


async def test_output_text_is_the_final_answer() -> None:
    llm = FakeLLM.exercise_tools(output_text="all done")
    transcript = await run(llm, {"forecast": forecast})
    assert transcript[-1].content == "all done"
    assert [m.role for m in transcript].count("tool") == 1  # the tool still ran


async def test_output_args_is_the_final_answer_as_json() -> None:
    llm = FakeLLM.exercise_tools(output_args={"city": "Oslo", "sunny": True})
    transcript = await run(llm, {"forecast": forecast})
    assert json.loads(transcript[-1].content) == {"city": "Oslo", "sunny": True}


async def test_with_nothing_to_call_a_given_output_answers_at_once() -> None:
    llm = FakeLLM.exercise_tools(call_tools=[], output_text="no tools needed")
    reply = await llm.chat(messages=Q, model="m", tools=[SEARCH])
    assert (reply.content, reply.tool_calls) == ("no tools needed", ())


@pytest.mark.agentkit(verify=False)
async def test_with_nothing_to_call_and_no_output_it_invents_nothing() -> None:
    llm = FakeLLM.exercise_tools(call_tools=[])
    with pytest.raises(UnmatchedRequest, match="of call_tools"):
        await llm.chat(messages=Q, model="m", tools=[SEARCH])
    assert kinds(llm) == ["unmatched_request"]


@pytest.mark.agentkit(verify=False)
async def test_a_tool_that_crashes_while_exercised_fails_the_test() -> None:
    llm = FakeLLM.exercise_tools()
    transcript = await run(llm, {"forecast": forecast, "broken": broken})
    assert "ZeroDivisionError" in transcript[-1].content  # the loop swallowed the crash ...
    (violation,) = llm.violations()  # ... and the double did not
    assert violation.kind == "tool_failed"
    assert "'broken'" in violation.detail
    assert "ZeroDivisionError" in violation.detail
    assert "call_tools" in violation.fix


async def test_leaving_the_crashing_tool_out_passes() -> None:
    llm = FakeLLM.exercise_tools(call_tools=["forecast"])
    transcript = await run(llm, {"forecast": forecast, "broken": broken})
    assert list(json.loads(transcript[-1].content)) == ["forecast"]
    assert llm.violations() == []


async def test_the_seed_keeps_its_meaning() -> None:
    schema = ToolSchema(
        "pick", parameters={"type": "object", "properties": {"n": {"type": "integer"}}}
    )
    one = await FakeLLM.exercise_tools(seed=7).chat(messages=Q, model="m", tools=[schema])
    two = await FakeLLM(seed=7).chat(messages=Q, model="m", tools=[schema])
    assert one.tool_calls == two.tool_calls


@pytest.mark.parametrize(
    ("kw", "error", "argument"),
    [
        ({"call_tools": "search"}, ArgumentValueError, "call_tools"),
        ({"call_tools": [""]}, ArgumentValueError, "call_tools[0]"),
        ({"call_tools": [3]}, ArgumentTypeError, "call_tools[0]"),
        ({"output_text": "a", "output_args": {"b": 1}}, ArgumentTypeError, "output_args"),
        ({"output_args": {"b": object()}}, ArgumentTypeError, "output_args"),
        ({"output_text": 3}, ArgumentTypeError, "output_text"),
        ({"seed": "1"}, ArgumentTypeError, "seed"),
    ],
)
def test_wrong_settings_are_refused_naming_the_argument(
    kw: dict[str, Any], error: type[Exception], argument: str
) -> None:
    with pytest.raises(error, match=argument.replace("[", r"\[").replace("]", r"\]")):
        FakeLLM.exercise_tools(**kw)


def test_the_docstrings_agree_with_the_guide_on_a_request_with_no_tools() -> None:
    assert '"{}"' not in (FakeLLM.__doc__ or "")
    assert "UnmatchedRequest" in (FakeLLM.exercise_tools.__doc__ or "")
