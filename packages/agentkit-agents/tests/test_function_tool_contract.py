"""FunctionTool, the project's real Tool, passes the public Tool contract suite.

FakeTool passes the same suite (agentkit-testing's tests), so a test written
against a FakeTool says something about a FunctionTool too: its properties
have their declared types, its schema carries its name, and ``run`` leaves
the caller's arguments as they were -- even when it converts them to enums
and dataclasses on the way in.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from agentkit.agents.tools import FunctionTool, tool
from agentkit.core.testing.contracts import ToolContract, check_tool


class Unit(enum.Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


@dataclass
class Place:
    city: str
    country: str = "NL"


def forecast(place: Place, unit: Unit = Unit.CELSIUS, days: int = 1) -> str:
    """Tell the weather.

    Args:
        place: where.
        unit: the temperature unit.
        days: how many days ahead.
    """
    return f"{place.city}, {place.country}: 20 degrees {unit.value} for {days} day(s)"


async def lookup(term: str) -> dict[str, str]:
    """Look a term up.

    Args:
        term: what to look up.
    """
    return {"term": term}


ARGS = {"place": {"city": "Delft"}, "unit": "fahrenheit", "days": 2}


async def test_a_sync_function_tool_with_converted_arguments_passes() -> None:
    assert await check_tool(lambda: FunctionTool(forecast), args=ARGS) == []


async def test_an_async_gated_function_tool_passes() -> None:
    def make() -> FunctionTool[Any, Any]:
        return FunctionTool(
            lookup,
            name="lookup-term",
            side_effecting=True,
            requires_approval=True,
            output_schema={"type": "object"},
        )

    assert await check_tool(make, args={"term": "agent"}) == []


class TestDecoratedToolContract(ToolContract):
    contract_options: ClassVar[Mapping[str, Any]] = {"args": {"term": "agent"}}

    @pytest.fixture
    def make_port(self) -> Any:
        return lambda: tool(lookup)
