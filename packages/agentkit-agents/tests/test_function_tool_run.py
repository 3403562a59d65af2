"""FunctionTool at run time: converted arguments, sync and async, and the real loop around it.

The loop tests run the real ReactAgent on a real RunContext whose only double
is the model (FakeLLM.script): the tool under test is the real FunctionTool.
"""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass
from typing import Any, Literal

import pytest

from agentkit.agents.react import ReactAgent
from agentkit.agents.tools import FunctionTool, ToolArgumentsError, tool
from agentkit.core.types import ToolCall
from agentkit.fakes.ctx import make_test_ctx
from agentkit.fakes.llm import FakeLLM, Turn


class Unit(enum.Enum):
    C = "celsius"
    F = "fahrenheit"


@dataclass(frozen=True)
class Reading:
    city: str
    degrees: float
    unit: Unit


@dataclass
class Box:
    width: int
    label: str = ""


@tool
async def weather(city: str, unit: Unit = Unit.C, days: int = 1) -> Reading:
    """Current weather for a city.

    Args:
        city: The city's name.
        unit: Celsius or Fahrenheit.
        days: How many days ahead.
    """
    await asyncio.sleep(0)
    return Reading(city, 21.5 if unit is Unit.C else 70.7, unit)


async def test_async_function_gets_converted_arguments_and_returns_plain_data() -> None:
    result = await weather.run({"city": "Paris", "unit": "fahrenheit", "days": 2.0})
    assert result == {"city": "Paris", "degrees": 70.7, "unit": "fahrenheit"}


async def test_sync_function_runs_and_receives_typed_values() -> None:
    seen: list[Any] = []

    def pack(box: Box, sizes: tuple[int, ...], mode: Literal["a", "b"] | None = None) -> str:
        seen.append((box, sizes, mode))
        return f"{box.width}:{len(sizes)}"

    packer = FunctionTool(pack)
    assert await packer.run({"box": {"width": 3.0}, "sizes": [1, 2]}) == "3:2"
    assert seen == [(Box(3), (1, 2), None)]
    assert type(seen[0][0].width) is int


async def test_run_refuses_arguments_that_break_the_schema() -> None:
    with pytest.raises(ToolArgumentsError) as info:
        await weather.run({"unit": "kelvin", "town": "x"})
    assert info.value.tool == "weather"
    assert "missing required argument 'city'" in info.value.errors
    assert any("'kelvin' is not one of" in e for e in info.value.errors)
    assert any("unexpected argument 'town'" in e for e in info.value.errors)


async def test_the_real_loop_runs_a_function_tool() -> None:
    llm = FakeLLM.script(
        [
            Turn(tool_calls=(ToolCall("c1", "weather", {"city": "Paris", "unit": "celsius"}),)),
            Turn(content="21.5 degrees in Paris."),
        ]
    )
    ctx = make_test_ctx(llm=llm)

    result = await ReactAgent([weather], model="m").run(ctx, "Weather in Paris?")

    assert result.stop_reason == "final"
    assert result.text == "21.5 degrees in Paris."
    tool_message = result.messages[2]
    assert tool_message.role == "tool"
    assert tool_message.tool_call_id == "c1"
    assert tool_message.content == '{"city": "Paris", "degrees": 21.5, "unit": "celsius"}'
    sent = llm.calls[0].tools
    assert sent is not None
    assert [s.name for s in sent] == ["weather"]
    assert sent[0].parameters["properties"]["unit"]["enum"] == ["celsius", "fahrenheit"]
    assert sent[0].description.startswith("Current weather for a city.")


async def test_the_loop_sends_a_bad_call_back_to_the_model_without_running_the_function() -> None:
    ran: list[str] = []

    @tool
    def lookup(word: str) -> str:
        """Look a word up."""
        ran.append(word)
        return word.upper()

    llm = FakeLLM.script(
        [
            Turn(tool_calls=(ToolCall("c1", "lookup", {"wrod": "agent"}),)),
            Turn(tool_calls=(ToolCall("c2", "lookup", {"word": "agent"}),)),
            Turn(content="AGENT"),
        ],
        verify=False,  # the first call breaks the schema on purpose: that is what is tested
    )
    result = await ReactAgent([lookup], model="m").run(make_test_ctx(llm=llm), "Look up agent")

    assert result.text == "AGENT"
    assert ran == ["agent"]
    first, second = (m for m in result.messages if m.role == "tool")
    assert first.content.startswith("error: invalid arguments for tool 'lookup'")
    assert "missing required argument 'word'" in first.content
    assert "unexpected argument 'wrod'" in first.content
    assert second.content == "AGENT"


async def test_a_raising_function_becomes_a_message() -> None:
    @tool
    def divide(a: float, b: float) -> float:
        """Divide a by b."""
        return a / b

    llm = FakeLLM.script(
        [
            Turn(tool_calls=(ToolCall("c1", "divide", {"a": 1, "b": 0}),)),
            Turn(content="cannot divide by zero"),
        ]
    )
    result = await ReactAgent([divide], model="m").run(make_test_ctx(llm=llm), "1/0?")

    assert (
        result.messages[2].content
        == "error: tool 'divide' raised ZeroDivisionError: float division by zero"
    )
