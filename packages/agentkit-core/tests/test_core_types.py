from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest

from agentkit.core import types
from agentkit.core._internal.arguments import ArgumentTypeError
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
        if not isinstance(cls, type) or cls is types.FrozenDict:
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


@pytest.mark.parametrize("role", [["user"], {"role": "user"}])
def test_an_unhashable_role_is_refused_naming_it(role: object) -> None:
    # The constructor has one path: a fast path that looked the role up in a set first
    # let an unhashable one escape as a bare "unhashable type" TypeError.
    with pytest.raises(ArgumentTypeError, match="Message: role must be one of"):
        Message(role)  # type: ignore[arg-type]


def test_each_value_type_validates_on_one_path() -> None:
    # No __post_init__ returns early: what a constructor checks, it checks on every call.
    import ast
    import inspect

    from agentkit.core import request

    for module in (types, request):
        for node in ast.walk(ast.parse(inspect.getsource(module))):
            if isinstance(node, ast.FunctionDef) and node.name == "__post_init__":
                assert not any(isinstance(n, ast.Return) for n in ast.walk(node)), (
                    f"{module.__name__}: a __post_init__ returns early (line {node.lineno})"
                )


# --- FrozenDict: the read-only mapping every value type holds -----------------------------


def test_a_frozen_dict_refuses_every_change() -> None:
    frozen = types.FrozenDict({"a": 1})
    changes: list[Any] = [
        lambda: frozen.__setitem__("b", 2),
        lambda: frozen.__delitem__("a"),
        frozen.clear,
        lambda: frozen.pop("a"),
        frozen.popitem,
        lambda: frozen.setdefault("b", 2),
        lambda: frozen.update(b=2),
        lambda: frozen.__ior__({"b": 2}),
    ]
    for change in changes:
        with pytest.raises(TypeError, match="FrozenDict is read-only"):
            change()
    assert frozen == {"a": 1}


def test_a_frozen_dict_is_a_dict_to_json_equality_and_repr() -> None:
    import json

    frozen = types.FrozenDict({"a": 1, "b": [2]})
    assert frozen == {"a": 1, "b": [2]}
    assert repr(frozen) == "{'a': 1, 'b': [2]}"
    assert json.dumps(frozen) == '{"a": 1, "b": [2]}'
    assert hash(types.FrozenDict(a=1)) == hash(types.FrozenDict(a=1))
    with pytest.raises(TypeError, match="unhashable type: 'list'"):
        hash(frozen)  # hashable only when its values are


def test_values_holding_mappings_copy_pickle_and_print_as_code() -> None:
    import copy
    import pickle

    from agentkit.core.request import ChatRequest

    call = ToolCall("c1", "t", {"a": 1})
    assert repr(call) == "ToolCall(id='c1', name='t', arguments={'a': 1})"
    values = [
        call,
        Message.assistant("", tool_calls=(call,)),
        ChatRequest([Message.user("hi")], "m", response_format={"type": "json_object"}),
        FetchResponse("https://x.test/", headers={"a": "b"}),
    ]
    for value in values:
        assert copy.deepcopy(value) == value
        assert pickle.loads(pickle.dumps(value)) == value
    assert isinstance(pickle.loads(pickle.dumps(call)).arguments, types.FrozenDict)
    assert hash(call) == hash(ToolCall("c1", "t", {"a": 1}))
    namespace = {"ToolCall": ToolCall, "Message": Message}
    assert eval(repr(values[1]), namespace) == values[1]
