"""Strict verification of FakeLLM and ScriptedAdapter: each violation kind, and assert_complete."""

from __future__ import annotations

import linecache
import pickle

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.request import ChatRequest
from agentkit.core.types import Message, ToolCall, ToolSchema
from agentkit.core.verification import VerificationError, collect_doubles
from agentkit.core.verification.script import ScriptExhausted
from agentkit.fakes.llm import FakeLLM, ScriptedAdapter, Turn
from agentkit.fakes.llm.errors import UnmatchedRequest

Q = [Message.user("q")]
# These doubles are left broken on purpose; the plugin's verification of them is
# shown by agentkit-testing's pytester tests.
LEFT_BROKEN = pytest.mark.agentkit(verify=False)
SEARCH = ToolSchema("search")


def kinds(double: FakeLLM | ScriptedAdapter) -> list[str]:
    return [violation.kind for violation in double.violations()]


async def test_a_consumed_script_is_complete() -> None:
    llm = FakeLLM.script([Turn(tool_calls=[ToolCall("c", "search", {})]), Turn("done")])
    await llm.chat(messages=Q, model="m", tools=[SEARCH])
    await llm.chat(messages=Q, model="m", tools=[SEARCH])
    assert llm.violations() == []
    llm.assert_complete()


@LEFT_BROKEN
async def test_unused_turns_are_one_violation_naming_the_creation_site() -> None:
    llm = FakeLLM.script([Turn("one"), Turn("two"), Turn("three")])
    await llm.chat(messages=Q, model="m")
    with pytest.raises(VerificationError) as info:
        llm.assert_complete()
    (violation,) = info.value.violations
    assert violation.kind == "unused_turns"
    assert violation.double == "FakeLLM.script"
    path, _, line = violation.created_at.rpartition(":")
    assert path == __file__
    assert "FakeLLM.script([" in linecache.getline(path, int(line))
    assert "2 of 3 scripted turns were never asked for" in violation.detail
    assert "2: content 'two'" in violation.detail
    assert "repeat_last=True" in violation.fix


@LEFT_BROKEN
async def test_exhaustion_is_raised_and_recorded() -> None:
    llm = FakeLLM.script([])
    with pytest.raises(ScriptExhausted):
        await llm.chat(messages=Q, model="m")
    assert kinds(llm) == ["script_exhausted"]


@LEFT_BROKEN
async def test_a_dict_miss_is_raised_and_recorded() -> None:
    llm = FakeLLM({"weather": "sunny"})
    with pytest.raises(UnmatchedRequest):
        await llm.chat(messages=Q, model="m")
    assert kinds(llm) == ["unmatched_request"]


@LEFT_BROKEN
async def test_an_unoffered_tool_is_delivered_and_recorded() -> None:
    llm = FakeLLM.script([Turn(tool_calls=[ToolCall("c", "serach", {})])])
    reply = await llm.chat(messages=Q, model="m", tools=[SEARCH])
    assert reply.tool_calls[0].name == "serach"
    assert kinds(llm) == ["unoffered_tool"]
    assert "offered only ['search']" in llm.violations()[0].detail


@LEFT_BROKEN
async def test_all_violations_come_in_one_error() -> None:
    llm = FakeLLM.script([Turn(tool_calls=[ToolCall("c", "x", {})]), Turn("left")])
    await llm.chat(messages=Q, model="m")
    with pytest.raises(VerificationError, match="2 test-double violations") as info:
        llm.assert_complete()
    assert [v.kind for v in info.value.violations] == ["unoffered_tool", "unused_turns"]
    clone = pickle.loads(pickle.dumps(info.value))
    assert clone.violations == info.value.violations


async def test_repeat_last_and_single_answer_forms_leave_nothing_over() -> None:
    assert FakeLLM.script([Turn("a")], repeat_last=True).violations() == []
    assert FakeLLM("x").violations() == []
    assert ScriptedAdapter([Turn("a")], repeat_last=True).violations() == []


@LEFT_BROKEN
async def test_adapter_violations() -> None:
    adapter = ScriptedAdapter([Turn(tool_calls=[ToolCall("c", "serach", {})]), Turn("left")])
    await adapter.send(ChatRequest(Q, "m", tools=[SEARCH]))
    assert kinds(adapter) == ["unoffered_tool", "unused_turns"]
    empty = ScriptedAdapter([])
    with pytest.raises(ScriptExhausted, match="repeat_last=True"):
        await empty.send(ChatRequest(Q, "m"))
    assert kinds(empty) == ["script_exhausted"]


async def test_adapter_repeat_last_sends_the_final_turn_forever() -> None:
    adapter = ScriptedAdapter([Turn("a"), Turn("b")], repeat_last=True)
    contents = [(await adapter.send(ChatRequest(Q, "m"))).content for _ in range(4)]
    assert contents == ["a", "b", "b", "b"]


def test_verify_false_doubles_are_not_collected() -> None:
    with collect_doubles(isolate=True) as bucket:
        kept = FakeLLM.script([Turn("a")])
        FakeLLM.script([Turn("a")], verify=False)
        ScriptedAdapter([Turn("a")], verify=False)
    assert bucket == [kept]


def test_nested_collectors_and_isolation() -> None:
    with collect_doubles() as outer:
        with collect_doubles() as inner:
            pass
        with collect_doubles(isolate=True) as isolated:
            seen = FakeLLM("x")
        after = FakeLLM("y")
    assert inner == []
    assert isolated == [seen]
    assert outer == [after]  # the empty inner block did not unregister the outer one


@pytest.mark.parametrize(
    ("make", "argument"),
    [
        (lambda: FakeLLM.script(None), "turns"),  # type: ignore[arg-type]
        (lambda: FakeLLM.script("abc"), "turns"),  # type: ignore[arg-type]
        (lambda: FakeLLM.script([Turn("a"), "b"]), "turns"),  # type: ignore[list-item]
        (lambda: FakeLLM(delay=True), "delay"),
        (lambda: FakeLLM(verify=1), "verify"),  # type: ignore[arg-type]
        (lambda: FakeLLM.script([Turn("a")], repeat_last=1), "repeat_last"),  # type: ignore[arg-type]
        (lambda: ScriptedAdapter(None), "turns"),  # type: ignore[arg-type]
        (lambda: ScriptedAdapter([], repeat_last=True), "repeat_last"),
    ],
)
def test_wrong_input_is_refused_naming_the_argument(make: object, argument: str) -> None:
    assert callable(make)
    with pytest.raises((ArgumentTypeError, ArgumentValueError), match=argument) as info:
        make()
    assert info.value.argument.startswith(argument)


async def test_the_dict_form_takes_any_mapping() -> None:
    call = ToolCall("c", "t", {"weather": "sunny"})
    llm = FakeLLM(call.arguments)  # a read-only mapping agentkit itself holds
    assert (await llm.chat(messages=[Message.user("weather?")], model="m")).content == "sunny"
