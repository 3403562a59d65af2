from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest

from agentkit.core import types
from agentkit.core.arguments import ArgumentTypeError
from agentkit.core.types import (
    Budget,
    ChatResponse,
    Delta,
    FetchResponse,
    MemoryItem,
    Message,
    Scope,
    SearchHit,
    ToolCall,
    ToolSchema,
    Usage,
)


def test_usage_adds_field_by_field() -> None:
    a = Usage(input_tokens=10, cached_input_tokens=5, cache_write_tokens=2, output_tokens=7)
    b = Usage(input_tokens=1, cached_input_tokens=1, output_tokens=1, reasoning_tokens=3)
    assert a + b == Usage(11, 6, 2, 8, 3)


def test_usage_prompt_and_total_count_disjoint_inputs_once() -> None:
    u = Usage(input_tokens=100, cached_input_tokens=900, cache_write_tokens=50, output_tokens=20)
    assert u.prompt_tokens == 1050
    assert u.total_tokens == 1070


def test_usage_adding_a_non_usage_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        _ = Usage() + 1  # type: ignore[operator]


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True])
def test_usage_rejects_non_int_or_negative(bad: object) -> None:
    with pytest.raises((TypeError, ValueError), match="input_tokens"):
        Usage(input_tokens=bad)  # type: ignore[arg-type]


def test_value_types_are_frozen() -> None:
    u = Usage()
    with pytest.raises(dataclasses.FrozenInstanceError):
        u.input_tokens = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Message.user("x").content = "y"  # type: ignore[misc]


def test_the_value_types_are_frozen_slotted_hashable_dataclasses() -> None:
    for name in types.__all__:
        cls = getattr(types, name)
        if not isinstance(cls, type):
            continue
        assert dataclasses.is_dataclass(cls), name
        assert cls.__dataclass_params__.frozen, name  # type: ignore[attr-defined]
        assert "__slots__" in vars(cls), name
        assert cls.__hash__ is not None, name


def test_mappings_are_copied_and_read_only() -> None:
    args = {"q": "cats"}
    call = ToolCall(id="c1", name="search", arguments=args)
    args["q"] = "dogs"
    assert call.arguments == {"q": "cats"}
    with pytest.raises(TypeError):
        call.arguments["q"] = "x"  # type: ignore[index]

    headers = {"content-type": "text/html"}
    resp = FetchResponse("https://a.example", headers=headers)
    headers.clear()
    assert resp.headers == {"content-type": "text/html"}


def test_defaults_match_the_seed() -> None:
    assert FetchResponse("u") == FetchResponse("u", status=200, body="", headers={})
    assert SearchHit("t", "u").snippet == ""
    item = MemoryItem("text", "src")
    assert item.score is None
    assert item.metadata == {}
    assert Scope() == Scope(org_id=None, domain_id=None)
    assert ToolSchema("t").parameters == {"type": "object"}
    assert Delta() == Delta(content="", tool_calls=(), usage=None, finish_reason=None)
    assert ChatResponse().usage == Usage()


def test_message_constructors_set_roles() -> None:
    call = ToolCall("c1", "t")
    assert Message.system("s").role == "system"
    assert Message.user("u").role == "user"
    assert Message.assistant("", (call,)).tool_calls == (call,)
    tool_msg = Message.tool("out", tool_call_id="c1", name="t")
    assert (tool_msg.role, tool_msg.tool_call_id, tool_msg.name) == ("tool", "c1", "t")


def test_budget_rejects_negative_limits() -> None:
    with pytest.raises(ValueError, match="max_cost_usd"):
        Budget(max_cost_usd=-0.01)
    assert Budget().max_llm_calls is None


@pytest.mark.parametrize("field", ["max_cost_usd", "max_total_tokens", "max_llm_calls"])
def test_a_nan_budget_limit_is_rejected(field: str) -> None:
    # NaN passed the `< 0` check, and `spent >= nan` is always False: a budget that never trips.
    # For the two int limits a float is the wrong kind of value altogether (a TypeError).
    with pytest.raises((TypeError, ValueError), match=field):
        Budget(**cast(Any, {field: float("nan")}))


def test_reasoning_is_a_checked_str_on_a_delta_and_a_response() -> None:
    assert Delta(reasoning="hmm").reasoning == "hmm"
    assert Delta().reasoning == ""
    assert ChatResponse().reasoning == ""
    with pytest.raises(ArgumentTypeError, match="reasoning"):
        Delta(reasoning=cast(Any, 3))
    with pytest.raises(ArgumentTypeError, match="reasoning"):
        ChatResponse(reasoning=cast(Any, None))
