"""FakeLLM's single-answer forms, its script form, and what it records."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, cast

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError
from agentkit.core.request import ChatRequest
from agentkit.core.types import Delta, Message, ToolCall, ToolSchema, Usage
from agentkit.core.verification.script import ScriptExhausted
from agentkit.fakes.llm import FakeLLM, Turn
from agentkit.fakes.llm.errors import ResponseRuleError, UnmatchedRequest

# These tests exercise the raw doubles: exhaustion, misses and tool calls without tools
# are what they assert on. Strict verification is tested in test_fake_llm_verification.py.
pytestmark = pytest.mark.agentkit(verify=False)

MODEL = "fake-model"


async def drain(stream: AsyncIterator[Delta]) -> list[Delta]:
    return [delta async for delta in stream]


async def ask(llm: FakeLLM, *texts: str) -> str:
    """One chat call whose transcript is a user message per text."""
    response = await llm.chat(messages=[Message.user(t) for t in texts], model=MODEL)
    return response.content


# --- the str form -----------------------------------------------------------------------


async def test_str_form_answers_every_call_the_same() -> None:
    llm = FakeLLM("always this")
    answers = [await ask(llm, f"question {n}") for n in range(100)]
    assert answers == ["always this"] * 100
    assert llm.remaining is None


# --- the dict form ----------------------------------------------------------------------


async def test_dict_form_matches_a_substring_of_the_last_user_message() -> None:
    llm = FakeLLM({"weather": "sunny", "time": "noon"})
    assert await ask(llm, "what is the time now?") == "noon"
    assert await ask(llm, "and the weather?") == "sunny"


async def test_dict_form_looks_only_at_the_last_user_message() -> None:
    llm = FakeLLM({"weather": "sunny", "time": "noon"})
    # "weather" is in the transcript, but the question being asked now is about time.
    messages = [
        Message.system("you know the weather"),
        Message.user("what is the weather?"),
        Message.assistant("sunny"),
        Message.user("what time is it?"),
        Message.tool("tool output mentions weather", tool_call_id="c1"),
    ]
    response = await llm.chat(messages=messages, model=MODEL)
    assert response.content == "noon"


async def test_dict_form_first_key_in_insertion_order_wins() -> None:
    llm = FakeLLM({"b": "first key", "ab": "second key"})
    assert await ask(llm, "xaby") == "first key"
    reordered = FakeLLM({"ab": "second key", "b": "first key"})
    assert await ask(reordered, "xaby") == "second key"


async def test_dict_form_repeats_forever() -> None:
    llm = FakeLLM({"ping": "pong"})
    assert [await ask(llm, "ping") for _ in range(50)] == ["pong"] * 50


async def test_dict_miss_raises_unmatched_request_naming_the_text_and_keys() -> None:
    llm = FakeLLM({"weather": "sunny", "time": "noon"})
    with pytest.raises(UnmatchedRequest) as info:
        await ask(llm, "tell me a joke")
    assert info.value.text == "tell me a joke"
    assert info.value.keys == ("weather", "time")
    assert "tell me a joke" in str(info.value)
    assert "'weather'" in str(info.value)
    assert len(llm.calls) == 1


async def test_dict_miss_is_not_swallowed_by_except_exception() -> None:
    llm = FakeLLM({"weather": "sunny"})

    async def code_under_test() -> str:
        try:
            return await ask(llm, "unexpected prompt")
        except Exception:
            return "swallowed"

    with pytest.raises(UnmatchedRequest):
        await code_under_test()


async def test_dict_with_no_user_message_reports_that() -> None:
    llm = FakeLLM({"x": "y"})
    with pytest.raises(UnmatchedRequest, match="no user message") as info:
        await llm.chat(messages=[Message.system("x marks the spot")], model=MODEL)
    assert info.value.text is None


async def test_dict_miss_is_raised_before_any_delta() -> None:
    stream = FakeLLM({"x": "y"}).stream(messages=[Message.user("nope")], model=MODEL)
    with pytest.raises(UnmatchedRequest):
        await anext(stream)


def test_empty_dict_is_rejected_up_front() -> None:
    with pytest.raises(ValueError, match="empty"):
        FakeLLM({})


def test_dict_must_map_str_to_str() -> None:
    with pytest.raises(TypeError, match="str to str"):
        FakeLLM(cast(Any, {"x": 1}))


# --- the callable form ------------------------------------------------------------------


async def test_callable_form_receives_the_request_object() -> None:
    seen: list[ChatRequest] = []

    def rule(request: ChatRequest) -> str:
        seen.append(request)
        return f"{len(request.messages)} messages for {request.model}"

    tool = ToolSchema("search", "find things")
    llm = FakeLLM(rule)
    response = await llm.chat(
        messages=[Message.system("s"), Message.user("u")],
        model="m-1",
        tools=[tool],
        response_format={"type": "json_object"},
        temperature=0.7,
        max_tokens=64,
        cache_hint="prefix",
    )
    assert response.content == "2 messages for m-1"
    assert seen == [
        ChatRequest(
            messages=(Message.system("s"), Message.user("u")),
            model="m-1",
            tools=(tool,),
            response_format={"type": "json_object"},
            temperature=0.7,
            max_tokens=64,
            cache_hint="prefix",
        )
    ]
    assert seen == llm.calls  # the rule saw the very object the call log holds
    assert seen[0] is llm.calls[0]


async def test_a_rule_reads_what_it_needs_from_the_request() -> None:
    llm = FakeLLM(lambda request: (request.last_user_text or "").upper())
    assert [await ask(llm, w) for w in ("a", "b", "c")] == ["A", "B", "C"]


@pytest.mark.parametrize(
    "rule",
    [lambda **kw: "x", lambda: "x", lambda *, messages: "x", lambda request, other: "x"],
    ids=["keywords-only", "no-arguments", "messages-only", "two-required"],
)
def test_a_callable_that_cannot_take_the_request_is_refused_at_construction(
    rule: Any,
) -> None:
    with pytest.raises(TypeError, match=r"responses must be a callable taking the request") as info:
        FakeLLM(rule)
    assert isinstance(info.value, ArgumentTypeError)
    assert info.value.argument == "responses"
    assert "cannot take the request" in str(info.value)


async def test_callable_returning_a_non_str_is_a_rule_error() -> None:
    llm = FakeLLM(cast(Any, lambda request: 42))
    with pytest.raises(ResponseRuleError, match="must return a str or a Turn, got int"):
        await ask(llm, "x")


async def test_callable_exceptions_surface_as_a_rule_error_before_the_first_delta() -> None:
    def rule(request: ChatRequest) -> str:
        raise LookupError("no answer for that")

    stream = FakeLLM(rule).stream(messages=[Message.user("x")], model=MODEL)
    with pytest.raises(ResponseRuleError, match="raised LookupError: no answer") as info:
        await anext(stream)
    assert isinstance(info.value.__cause__, LookupError)
    assert info.value.error is info.value.__cause__


async def test_a_bug_in_the_rule_is_not_retried_as_a_provider_fault() -> None:
    from agentkit.core.invoker import Invoker
    from agentkit.core.middleware import RetryMiddleware
    from agentkit.core.runtime import RunContext, Services
    from agentkit.fakes.io import FakeClock

    calls: list[int] = []

    def rule(request: ChatRequest) -> str:
        calls.append(1)
        return cast(str, request.metadata["mesages"])  # the bug: a misspelled key

    clock = FakeClock()
    invoker = Invoker(FakeLLM(rule), chat_middleware=[RetryMiddleware(max_attempts=5)])
    ctx = RunContext(services=Services(invoker=invoker, clock=clock))
    with pytest.raises(ResponseRuleError, match="KeyError"):
        await invoker.chat(ctx, ChatRequest(messages=[Message.user("q")], model=MODEL))
    assert calls == [1]
    assert clock.sleeps == []


def test_other_response_types_are_rejected() -> None:
    with pytest.raises(TypeError, match="responses must be"):
        FakeLLM(cast(Any, 42))


# --- the script form --------------------------------------------------------------------


async def test_script_replays_turns_in_order_then_raises_script_exhausted() -> None:
    llm = FakeLLM.script([Turn("one"), Turn("two")])
    assert llm.remaining == 2
    assert await ask(llm, "q") == "one"
    assert await ask(llm, "q") == "two"
    assert llm.remaining == 0
    with pytest.raises(ScriptExhausted, match="script has 2 turns but call 3 asked for another"):
        await ask(llm, "q")


async def test_a_two_turn_script_asked_four_times_does_not_clamp() -> None:
    # The defect ScriptExhausted exists for: a clamp answered ['one', 'two', 'two', 'two'].
    llm = FakeLLM.script([Turn("one"), Turn("two")])
    answers: list[str] = []
    with pytest.raises(ScriptExhausted):
        for _ in range(4):
            answers.append(await ask(llm, "q"))
    assert answers == ["one", "two"]


async def test_script_exhaustion_is_raised_before_any_delta() -> None:
    llm = FakeLLM.script([])
    with pytest.raises(ScriptExhausted):
        await anext(llm.stream(messages=[Message.user("q")], model=MODEL))


async def test_script_exhausted_passes_through_except_exception() -> None:
    llm = FakeLLM.script([Turn("only")])

    async def loop_with_broad_except() -> list[str]:
        out: list[str] = []
        for _ in range(3):
            try:
                out.append(await ask(llm, "q"))
            except Exception as exc:  # what a tool loop does with a provider fault
                out.append(f"reflected: {exc}")
        return out

    with pytest.raises(ScriptExhausted):
        await loop_with_broad_except()


async def test_repeat_last_replays_the_final_turn_forever() -> None:
    llm = FakeLLM.script([Turn("first"), Turn("again")], repeat_last=True)
    answers = [await ask(llm, "q") for _ in range(6)]
    assert answers == ["first"] + ["again"] * 5
    assert llm.remaining == 0


async def test_repeat_last_tool_call_turn_drives_an_unbounded_loop() -> None:
    call = ToolCall("c1", "step", {})
    llm = FakeLLM.script([Turn(tool_calls=(call,))], repeat_last=True)
    for _ in range(25):
        response = await llm.chat(messages=[Message.user("go")], model=MODEL)
        assert response.tool_calls == (call,)
        assert response.finish_reason == "tool_calls"


def test_repeat_last_of_an_empty_script_is_rejected() -> None:
    with pytest.raises(ValueError, match="at least one turn"):
        FakeLLM.script([], repeat_last=True)


def test_repeat_last_without_a_script_is_rejected() -> None:
    with pytest.raises(ValueError, match="repeat_last=True applies to a script"):
        FakeLLM("x", repeat_last=True)


def test_responses_and_turns_together_are_rejected() -> None:
    with pytest.raises(ArgumentTypeError, match="not both"):
        FakeLLM("x", turns=[Turn("y")])


def test_script_holds_turn_objects_only() -> None:
    with pytest.raises(ArgumentTypeError, match=r"turns\[0\] must be a Turn") as info:
        FakeLLM.script(cast(Any, ["a string, not a Turn"]))
    assert (info.value.where, info.value.argument) == ("FakeLLM.script", "turns[0]")


async def test_turns_keyword_is_the_script_form() -> None:
    llm = FakeLLM(turns=[Turn("x")])
    assert await ask(llm, "q") == "x"
    with pytest.raises(ScriptExhausted):
        await ask(llm, "q")
    assert llm.turns == (Turn("x"),)


async def test_script_passes_other_options_through() -> None:
    usage = Usage(input_tokens=7, output_tokens=3)
    llm = FakeLLM.script([Turn("a")], usage=usage)
    response = await llm.chat(messages=[Message.user("q")], model=MODEL)
    assert response.usage == usage


async def test_two_doubles_over_one_list_of_turns_are_independent() -> None:
    turns = [Turn("one"), Turn("two")]
    a, b = FakeLLM.script(turns), FakeLLM.script(turns)
    assert await ask(a, "q") == "one"
    assert await ask(a, "q") == "two"
    assert await ask(b, "q") == "one"
    turns.append(Turn("three"))  # the caller's list is not the script
    with pytest.raises(ScriptExhausted):
        await ask(a, "q")


# --- usage ------------------------------------------------------------------------------


async def test_default_usage_is_estimated_at_four_characters_a_token() -> None:
    llm = FakeLLM("abcde")  # 5 chars -> 2 tokens
    messages = [Message.system("123456789"), Message.user("abc")]  # 12 chars -> 3 tokens
    response = await llm.chat(messages=messages, model=MODEL)
    assert response.usage == Usage(input_tokens=3, output_tokens=2)


async def test_estimated_output_counts_tool_call_names_and_arguments() -> None:
    call = ToolCall("c1", "find", {"q": "x"})  # "find" + '{"q": "x"}' = 4 + 10 chars
    llm = FakeLLM.script([Turn("ab", tool_calls=(call,))])
    response = await llm.chat(messages=[Message.user("")], model=MODEL)
    assert response.usage == Usage(input_tokens=0, output_tokens=4)  # ceil(16 / 4)


async def test_a_longer_transcript_is_estimated_to_cost_more_input() -> None:
    llm = FakeLLM("ok")
    short = await llm.chat(messages=[Message.user("x" * 40)], model=MODEL)
    long = await llm.chat(messages=[Message.user("x" * 40), Message.user("y" * 40)], model=MODEL)
    assert (short.usage.input_tokens, long.usage.input_tokens) == (10, 20)


async def test_usage_precedence_is_turn_then_double_then_estimate() -> None:
    double_usage = Usage(input_tokens=100, output_tokens=1)
    turn_usage = Usage(input_tokens=5, cached_input_tokens=2, output_tokens=9)
    llm = FakeLLM.script([Turn("a", usage=turn_usage), Turn("b")], usage=double_usage)
    first = await llm.chat(messages=[Message.user("q")], model=MODEL)
    second = await llm.chat(messages=[Message.user("q")], model=MODEL)
    assert first.usage == turn_usage
    assert second.usage == double_usage


def test_usage_must_be_a_usage() -> None:
    with pytest.raises(TypeError, match="usage must be a Usage"):
        FakeLLM(usage=cast(Any, {"input_tokens": 1}))


# --- what is recorded -------------------------------------------------------------------


async def test_calls_record_every_keyword_the_model_was_sent() -> None:
    tool = ToolSchema("search")
    llm = FakeLLM("ok")
    await llm.chat(
        messages=[Message.user("q")],
        model="m-2",
        tools=[tool],
        response_format={"type": "json_object"},
        temperature=0.3,
        max_tokens=10,
        cache_hint={"ttl": 60},
    )
    assert llm.calls == [
        ChatRequest(
            messages=(Message.user("q"),),
            model="m-2",
            tools=(tool,),
            response_format={"type": "json_object"},
            temperature=0.3,
            max_tokens=10,
            cache_hint={"ttl": 60},
        )
    ]


async def test_the_record_is_a_copy_of_the_transcript_as_sent() -> None:
    llm = FakeLLM("ok")
    transcript = [Message.user("first")]
    tools = [ToolSchema("a")]
    await llm.chat(messages=transcript, model=MODEL, tools=tools)
    transcript.append(Message.assistant("ok"))  # a tool loop appends in place
    transcript.append(Message.user("second"))
    tools.append(ToolSchema("b"))
    await llm.chat(messages=transcript, model=MODEL, tools=tools)
    assert llm.calls[0].messages == (Message.user("first"),)
    assert llm.calls[0].tools == (ToolSchema("a"),)
    assert len(llm.calls[1].messages) == 3


async def test_a_stream_that_is_never_iterated_is_not_a_call() -> None:
    llm = FakeLLM("ok")
    stream = llm.stream(messages=[Message.user("q")], model=MODEL)
    assert llm.calls == []
    await drain(stream)
    assert len(llm.calls) == 1


async def test_each_call_past_the_script_is_numbered_as_its_own_call() -> None:
    llm = FakeLLM.script([Turn("only")], fail_times=1)
    with pytest.raises(Exception, match="injected failure 1 of 1"):
        await ask(llm, "q")  # call 1 fails on purpose and consumes no turn
    assert await ask(llm, "q") == "only"  # call 2
    for call in (3, 4):
        with pytest.raises(ScriptExhausted, match=f"1 turn but call {call} asked for another"):
            await ask(llm, "q")
    details = [violation.detail for violation in llm.violations()]
    assert ["but call 3 asked" in details[0], "but call 4 asked" in details[1]] == [True, True]
