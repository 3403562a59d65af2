"""Protocol conformance: the official MCP Python SDK's client talks to FakeMcpServer.

The SDK's client is the reference a user's own code (and an agent framework)
is most likely built on: it must connect in both of its modes -- ``auto``
probes the session-less era first and falls back to ``initialize``,
``legacy`` starts with ``initialize`` -- list the declared tools with their
schemas, call them and read the answers as the SDK's own types, and see a
refused call as the SDK's own error.
"""

from __future__ import annotations

from typing import Any

import pytest
from mcp.client.client import Client
from mcp.shared.exceptions import MCPError

from agentkit.core.types import ToolCall
from agentkit.fakes.mcp import FakeMcpServer, McpTool, McpToolError

WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
}


def weather_server(**options: Any) -> FakeMcpServer:
    async def forecast(arguments: dict[str, Any]) -> dict[str, Any]:
        return {"city": arguments["city"], "temp": 21}

    return FakeMcpServer(
        [
            McpTool("forecast", answer=forecast, description="Weather by city.", schema=WEATHER),
            McpTool("alerts", script=["none", McpToolError("alert service down")]),
        ],
        name="weather",
        **options,
    )


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_sdk_client_lists_and_calls_the_declared_tools(mode: str) -> None:
    with weather_server() as server:
        async with Client(server.url, mode=mode) as client:
            listed = await client.list_tools()
            forecast = await client.call_tool("forecast", {"city": "Oslo"})
            first = await client.call_tool("alerts", {})
            second = await client.call_tool("alerts", {})
    assert [(t.name, t.description, t.input_schema) for t in listed.tools] == [
        ("forecast", "Weather by city.", WEATHER),
        ("alerts", None, {"type": "object"}),
    ]
    assert forecast.is_error is False
    assert forecast.structured_content == {"city": "Oslo", "temp": 21}
    assert forecast.content[0].text == '{"city": "Oslo", "temp": 21}'  # type: ignore[union-attr]
    assert (first.is_error, first.content[0].text) == (False, "none")  # type: ignore[union-attr]
    assert (second.is_error, second.content[0].text) == (True, "alert service down")  # type: ignore[union-attr]
    assert [call.name for call in server.calls] == ["forecast", "alerts", "alerts"]
    assert server.calls[0] == ToolCall(server.calls[0].id, "forecast", {"city": "Oslo"})
    initialize = next(r for r in server.requests if r.method == "initialize")
    assert initialize.params["protocolVersion"] == "2025-11-25"
    assert server.violations() == []


async def test_the_sdk_client_sees_an_undeclared_tool_as_its_own_error() -> None:
    with weather_server(verify=False) as server:
        async with Client(server.url, mode="legacy") as client:
            with pytest.raises(MCPError) as raised:
                await client.call_tool("delete_city", {"city": "Oslo"})
            assert (await client.call_tool("forecast", {"city": "Rome"})).is_error is False
    assert raised.value.error.code == -32602
    assert [v.kind for v in server.violations()] == ["undeclared_tool", "unused_answers"]


async def test_the_sdk_client_reads_bad_arguments_as_a_tool_error() -> None:
    with weather_server(verify=False) as server:
        async with Client(server.url, mode="legacy") as client:
            result = await client.call_tool("forecast", {"town": "Oslo"})
    assert result.is_error is True
    assert "city" in result.content[0].text  # type: ignore[union-attr]
    assert "bad_arguments" in [v.kind for v in server.violations()]


async def test_the_sdk_client_ends_its_session_on_leaving() -> None:
    with weather_server(verify=False) as server:
        async with Client(server.url, mode="legacy") as client:
            await client.list_tools()
        session = server.requests[-1].session
        assert session is not None
        assert not server._session_known(session)  # the SDK sent DELETE on leaving
    assert [r.method for r in server.requests][-1] == "tools/list"


async def test_the_sdk_client_reaches_the_double_over_stdio_through_the_launcher() -> None:
    from mcp.client.stdio import StdioServerParameters

    with weather_server() as server:
        command = server.stdio()
        params = StdioServerParameters(command=command.command, args=list(command.args))
        async with Client(params, mode="legacy") as client:
            listed = await client.list_tools()
            forecast = await client.call_tool("forecast", {"city": "Oslo"})
            assert (await client.call_tool("alerts", {})).is_error is False
            assert (await client.call_tool("alerts", {})).is_error is True
    assert [t.name for t in listed.tools] == ["forecast", "alerts"]
    assert forecast.structured_content == {"city": "Oslo", "temp": 21}
    assert server.calls_to("forecast") == [{"city": "Oslo"}]
    assert server.violations() == []
