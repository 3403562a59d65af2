"""The suites check schemas and describe values with core's one checker and one ``describe``.

The Tool suite once had a JSON-Schema checker of its own, which disagreed
with core's (the one the tool loop uses) on ``1.0``: JSON Schema, and the
loop, take it as an integer; the suite refused it, so a tool the loop runs
happily failed its contract. And the suites had their own ``describe``,
without core's guard against a ``__repr__`` that raises: a value with a
broken repr turned the report into that repr's error.
"""

from __future__ import annotations

from typing import Any

import pytest

from agentkit.core.testing import contracts
from agentkit.core.testing.contracts import ContractFactoryError, ContractViolation
from agentkit.core.types import SearchHit, ToolSchema
from agentkit.fakes.io import FakeTool

COUNT = {"type": "object", "properties": {"days": {"type": "integer"}}, "required": ["days"]}


def counting_tool(result: Any) -> FakeTool:
    return FakeTool(
        name="count",
        schema=ToolSchema("count", "counts days", COUNT),
        output_schema=COUNT,
        responder=lambda args: result,
    )


async def test_a_whole_number_float_is_an_integer_in_args_and_in_the_result() -> None:
    # The loop's checker (core.schema) accepts {"days": 2.0}; so must the suite.
    assert (
        await contracts.check_tool(lambda: counting_tool({"days": 2.0}), args={"days": 1.0}) == []
    )


async def test_a_fractional_number_is_still_no_integer() -> None:
    with pytest.raises(ContractViolation) as caught:
        await contracts.check_tool(lambda: counting_tool({"days": 2.5}), args={"days": 1})
    assert caught.value.check == "run_result_matches_the_output_schema"
    assert "days: expected integer, got number" in caught.value.got


async def test_a_missing_required_key_of_the_result_is_named() -> None:
    with pytest.raises(ContractViolation) as caught:
        await contracts.check_tool(lambda: counting_tool({}), args={"days": 1})
    assert "missing required argument 'days'" in caught.value.got


def test_the_suites_have_no_schema_checker_or_describe_of_their_own() -> None:
    import importlib
    import pkgutil

    from agentkit.core._internal import arguments

    package = importlib.import_module("agentkit.core.testing.contracts")
    for module in pkgutil.iter_modules(package.__path__, "agentkit.core.testing.contracts."):
        loaded = importlib.import_module(module.name)
        assert getattr(loaded, "describe", arguments.describe) is arguments.describe, module.name
        assert not hasattr(loaded, "instance_problems"), module.name
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("agentkit.core.testing.contracts._schema")
    from agentkit.core.testing.contracts._suite import describe_got

    assert describe_got.func is arguments.describe  # the same function, at the got's length


class BrokenRepr:
    def __repr__(self) -> str:
        raise RuntimeError("repr is broken")


async def test_a_factory_returning_a_value_whose_repr_raises_is_still_refused_by_name() -> None:
    with pytest.raises(ContractFactoryError) as caught:
        await contracts.check_clock_port(BrokenRepr)
    assert "BrokenRepr <unrepresentable>" in str(caught.value)


class BrokenHitSearch:
    async def search(self, query: str, k: int = 5) -> list[Any]:
        return [BrokenRepr()][:k]


async def test_a_returned_value_whose_repr_raises_is_described_not_crashed_on() -> None:
    with pytest.raises(ContractViolation) as caught:
        await contracts.check_search_port(BrokenHitSearch)
    gots = [f.got for f in caught.value.failures]
    assert any(
        f"item 0 is BrokenRepr <unrepresentable>, not a {SearchHit.__name__}" in got for got in gots
    ), gots
    assert not any("repr is broken" in got for got in gots), gots
