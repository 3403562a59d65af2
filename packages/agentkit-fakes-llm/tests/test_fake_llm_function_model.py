"""FakeLLM as a function model: a callable's Turn, scripted exceptions, the tool-exercising mode."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.schema import schema_errors
from agentkit.core.types import Delta, Message, ToolCall, ToolSchema, Usage
from agentkit.fakes.llm import FakeLLM, Turn
from agentkit.fakes.llm._exercise import arguments_for
from agentkit.fakes.llm.errors import ResponseRuleError, UnmatchedRequest

LEFT_BROKEN = pytest.mark.agentkit(verify=False)  # the plugin's view is in agentkit-testing
Q = [Message.user("go")]
SEARCH = ToolSchema(
    "search",
    parameters={
        "type": "object",
        "properties": {"q": {"type": "string"}, "k": {"type": "integer", "minimum": 1}},
        "required": ["q"],
    },
)


async def drain(llm: FakeLLM, **kw: Any) -> list[Delta]:
    return [d async for d in llm.stream(messages=Q, model="m", **kw)]


# ----------------------------------------------------------- a callable returns a Turn


async def test_a_callable_turn_streams_exactly_as_the_scripted_turn() -> None:
    turn = Turn(
        "partial answer that goes on",
        tool_calls=[ToolCall("c1", "search", {"q": "x"})],
        usage=Usage(input_tokens=3, output_tokens=4),
        finish_reason="length",
    )
    from_rule = await drain(FakeLLM(lambda request: turn), tools=[SEARCH])
    from_script = await drain(FakeLLM.script([turn]), tools=[SEARCH])
    assert from_rule == from_script
    assert from_rule[-1] == Delta(
        tool_calls=turn.tool_calls, usage=turn.usage, finish_reason="length"
    )


async def test_a_turn_without_a_finish_reason_derives_it() -> None:
    assert (await drain(FakeLLM(lambda request: Turn("x"))))[-1].finish_reason == "stop"
    assert Turn("x").finish_reason is None


def test_an_empty_finish_reason_is_refused() -> None:
    with pytest.raises(ArgumentValueError, match="finish_reason"):
        Turn("x", finish_reason="")


@LEFT_BROKEN
async def test_a_callable_returning_neither_str_nor_turn_is_a_rule_error() -> None:
    llm = FakeLLM(lambda request: [Turn("x")])  # type: ignore[arg-type,return-value]
    with pytest.raises(ResponseRuleError, match="a str or a Turn, got list"):
        await drain(llm)


# ----------------------------------------------------------- a script item may be an exception


async def test_a_scripted_exception_is_raised_at_its_call_before_the_first_delta() -> None:
    error = ConnectionError("503")
    llm = FakeLLM.script([Turn("one"), error, Turn("three")])
    assert (await llm.chat(messages=Q, model="m")).content == "one"
    stream = llm.stream(messages=Q, model="m")
    with pytest.raises(ConnectionError, match="503") as info:
        await anext(stream)
    assert info.value is error
    assert (await llm.chat(messages=Q, model="m")).content == "three"
    assert llm.remaining == 0
    assert llm.violations() == []


@LEFT_BROKEN
async def test_an_unreached_scripted_exception_is_an_unused_turn() -> None:
    llm = FakeLLM.script([Turn("one"), TimeoutError("slow")])
    await llm.chat(messages=Q, model="m")
    (violation,) = llm.violations()
    assert violation.kind == "unused_turns"
    assert "2: raises TimeoutError('slow')" in violation.detail


@pytest.mark.parametrize(
    ("item", "hint"), [(ConnectionError, "instantiate it"), ("503", "exception instance")]
)
def test_a_script_item_that_is_neither_turn_nor_exception_is_refused(item: Any, hint: str) -> None:
    with pytest.raises(ArgumentTypeError, match=r"turns\[1\]") as info:
        FakeLLM.script([Turn("x"), item])
    assert hint in str(info.value)


# ----------------------------------------------------------- FakeLLM(): the tool-exercising mode


async def test_no_arguments_calls_every_offered_tool_once_then_sums_up_the_results() -> None:
    other = ToolSchema("clock")
    llm = FakeLLM()
    first = await llm.chat(messages=Q, model="m", tools=[SEARCH, other])
    assert [c.name for c in first.tool_calls] == ["search", "clock"]
    assert schema_errors(SEARCH.parameters, first.tool_calls[0].arguments) == []
    transcript = [
        *Q,
        Message.assistant(tool_calls=first.tool_calls),
        Message.tool("hits", tool_call_id=first.tool_calls[0].id),
        Message.tool("noon", tool_call_id=first.tool_calls[1].id),
    ]
    second = await llm.chat(messages=transcript, model="m", tools=[SEARCH, other])
    assert json.loads(second.content) == {"search": "hits", "clock": "noon"}
    assert second.finish_reason == "stop"
    assert llm.violations() == []


@LEFT_BROKEN
async def test_no_arguments_and_no_tools_invents_no_answer() -> None:
    llm = FakeLLM()
    with pytest.raises(UnmatchedRequest, match="offered none"):
        await llm.chat(messages=Q, model="m")
    assert [v.kind for v in llm.violations()] == ["unmatched_request"]


async def test_the_arguments_depend_on_the_seed_and_the_tool_only() -> None:
    async def args(seed: int, tools: list[ToolSchema]) -> Any:
        reply = await FakeLLM(seed=seed).chat(messages=Q, model="m", tools=tools)
        return {c.name: dict(c.arguments) for c in reply.tool_calls}["search"]

    assert await args(1, [SEARCH]) == await args(1, [ToolSchema("clock"), SEARCH])
    assert [await args(s, [SEARCH]) for s in (1, 2, 3)] != [await args(1, [SEARCH])] * 3


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "minLength": 3, "maxLength": 3},
        {"type": "integer", "minimum": 5, "maximum": 5},
        {"type": "number", "minimum": 0.5, "maximum": 0.75},
        {"type": "boolean"},
        {"type": ["null", "string"]},
        {"enum": ["a", "b"]},
        {"const": 42},
        {"anyOf": [{"type": "integer"}, {"type": "string"}]},
        {"type": "array", "items": {"type": "integer"}, "minItems": 2},
        {"type": "object", "required": ["named_only_in_required"]},
        {
            "type": "object",
            "properties": {"inner": {"type": "object", "properties": {"x": {"type": "number"}}}},
            "required": ["inner"],
            "additionalProperties": False,
        },
    ],
)
def test_generated_values_fit_their_schema(schema: dict[str, Any]) -> None:
    for seed in range(5):
        value = arguments_for(schema, random.Random(seed))
        assert schema_errors(schema, value) == []


@pytest.mark.parametrize("bad", [1.5, "1", True])
def test_seed_must_be_an_int(bad: Any) -> None:
    with pytest.raises(ArgumentTypeError, match="seed"):
        FakeLLM(seed=bad)


@pytest.mark.parametrize(
    "kw", [{"responses": "x"}, {"turns": [Turn("x")]}, {"responses": {"a": "b"}}]
)
def test_seed_with_an_answer_is_refused(kw: dict[str, Any]) -> None:
    with pytest.raises(ArgumentTypeError, match="seed") as info:
        FakeLLM(seed=1, **kw)
    assert "already decides every reply" in str(info.value)


def test_the_default_is_none_and_means_exercise_the_tools() -> None:
    import inspect

    default = inspect.signature(FakeLLM).parameters["responses"].default
    assert default is None
    assert FakeLLM(None).seed == 0  # the exerciser, as FakeLLM() is
