"""FakeTool: static or sync/async callable responder, deep-copied call records, its own schema."""

from __future__ import annotations

from typing import Any

import pytest

from agentkit.core.types import ToolSchema
from agentkit.fakes.io import FakeTool


def test_defaults() -> None:
    tool = FakeTool()
    assert (tool.name, tool.description) == ("fake_tool", "fake tool for unit tests")
    assert (tool.side_effecting, tool.requires_approval, tool.output_schema) == (False, False, None)
    assert tool.schema == ToolSchema("fake_tool", "fake tool for unit tests", {"type": "object"})
    assert tool.calls == []


def test_the_default_schema_takes_the_tools_own_name_and_description() -> None:
    tool = FakeTool(name="search", description="find things")
    assert tool.schema == ToolSchema("search", "find things", {"type": "object"})
    assert dict(tool.schema.parameters) == {"type": "object"}


def test_an_explicit_schema_is_kept() -> None:
    schema = ToolSchema("search", "find", {"type": "object", "required": ["q"]})
    tool = FakeTool(name="search", schema=schema)
    assert tool.schema is schema


async def test_a_static_responder_is_returned_verbatim() -> None:
    value = {"rows": [1, 2]}
    tool = FakeTool(responder=value)
    assert await tool.run({}) is value
    assert await tool.run({"x": 1}) is value
    assert await FakeTool().run({}) is None


async def test_a_sync_callable_responder_gets_the_args() -> None:
    tool = FakeTool(responder=lambda args: args["a"] + args["b"])
    assert await tool.run({"a": 2, "b": 3}) == 5


async def test_an_async_callable_responder_is_awaited() -> None:
    async def responder(args: dict[str, Any]) -> str:
        return f"hello {args['name']}"

    tool = FakeTool(responder=responder)
    assert await tool.run({"name": "ada"}) == "hello ada"


async def test_a_callable_returning_a_function_needs_a_lambda() -> None:
    def fn() -> str:
        return "x"

    tool = FakeTool(responder=lambda args: fn)
    assert await tool.run({}) is fn


async def test_exceptions_propagate_and_the_call_is_still_recorded() -> None:
    def broken(args: dict[str, Any]) -> Any:
        raise ConnectionError("backend down")

    async def broken_async(args: dict[str, Any]) -> Any:
        raise PermissionError("denied")

    tool = FakeTool(responder=broken)
    with pytest.raises(ConnectionError, match="backend down"):
        await tool.run({"x": 1})
    assert tool.calls == [{"x": 1}]
    with pytest.raises(PermissionError, match="denied"):
        await FakeTool(responder=broken_async).run({})


async def test_calls_record_each_args_dict_in_order() -> None:
    tool = FakeTool(responder="ok")
    await tool.run({"x": 1})
    await tool.run({"x": 2})
    assert tool.calls == [{"x": 1}, {"x": 2}]


async def test_the_record_is_a_deep_copy_unchanged_by_later_mutation() -> None:
    tool = FakeTool(responder="ok")
    args: dict[str, Any] = {"filters": {"tags": ["a"]}, "n": 1}
    await tool.run(args)
    args["n"] = 2
    args["filters"]["tags"].append("b")
    args["new"] = True
    assert tool.calls == [{"filters": {"tags": ["a"]}, "n": 1}]
    assert tool.calls[0] is not args


async def test_a_responder_that_mutates_its_args_does_not_rewrite_the_record() -> None:
    def consuming(args: dict[str, Any]) -> int:
        return len(args.pop("items"))

    tool = FakeTool(responder=consuming)
    assert await tool.run({"items": [1, 2, 3]}) == 3
    assert tool.calls == [{"items": [1, 2, 3]}]


def test_flags_are_settable() -> None:
    tool = FakeTool(
        name="delete",
        side_effecting=True,
        requires_approval=True,
        output_schema={"type": "string"},
    )
    assert (tool.side_effecting, tool.requires_approval) == (True, True)
    assert tool.output_schema == {"type": "string"}


def test_bad_construction_is_rejected() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        FakeTool(name="")
    with pytest.raises(TypeError, match="ToolSchema"):
        FakeTool(schema={"type": "object"})  # type: ignore[arg-type]


def test_tools_are_hashable_and_compared_by_identity() -> None:
    one, two = FakeTool(name="t"), FakeTool(name="t")
    assert one != two
    assert {one: 1, two: 2}[one] == 1
