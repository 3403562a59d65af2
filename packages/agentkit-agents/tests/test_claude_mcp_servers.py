"""claude's MCP server statuses: read from ``system``/``init``, and a failed server is no success.

claude connects the MCP servers it is configured with before the turn and
reports each one's status on ``system``/``init``. A server that never
connected leaves the run without its tools, yet the CLI goes on and exits 0
with a ``success`` result: the cognition makes that turn's error
``mcp_server_failed`` so a test cannot pass on it.
"""

from __future__ import annotations

from typing import Any

import pytest

from agentkit.agents.cognition import ClaudeCliCognition
from agentkit.agents.cognition.claude import ClaudeInit, McpServerStatus
from agentkit.agents.cognition.claude.events import EventError, map_event
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import CliRun, FakeClaudeCli
from tests.support.cli import claude_result


def init(*servers: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "system",
        "subtype": "init",
        "session_id": "s",
        "model": "claude-test-1",
        "mcp_servers": list(servers),
    }


async def drive(*lines: dict[str, Any]) -> Any:
    cognition = ClaudeCliCognition(FakeClaudeCli([CliRun.of(list(lines))]), timeout=5)
    return await cognition.drive(RunContext(), "go")


def test_init_reads_each_servers_name_and_status() -> None:
    event = map_event(init({"name": "weather", "status": "connected", "source": "dynamic"}))
    assert isinstance(event, ClaudeInit)
    assert event.mcp_servers == (McpServerStatus("weather", "connected"),)
    assert map_event(init()).mcp_servers == ()  # type: ignore[union-attr]


@pytest.mark.parametrize("bad", [{"mcp_servers": "weather"}, {"mcp_servers": ["weather"]}])
def test_a_malformed_server_list_is_an_event_problem(bad: dict[str, Any]) -> None:
    with pytest.raises(EventError, match="mcp_servers"):
        map_event({**init(), **bad})


@pytest.mark.parametrize(
    ("status", "failed"),
    [
        ("connected", False),
        ("disabled", False),
        ("failed", True),
        ("needs-auth", True),
        ("pending", True),
    ],
)
def test_which_statuses_leave_a_server_s_tools_missing(status: str, failed: bool) -> None:
    assert McpServerStatus("s", status).failed is failed


async def test_connected_servers_are_on_the_result_of_a_successful_turn() -> None:
    result = await drive(init({"name": "weather", "status": "connected"}), claude_result())
    assert result.error is None
    assert result.mcp_servers == (McpServerStatus("weather", "connected"),)


async def test_a_server_that_did_not_connect_fails_a_turn_claude_called_a_success() -> None:
    result = await drive(
        init({"name": "weather", "status": "connected"}, {"name": "db", "status": "failed"}),
        claude_result(result="Answered without the db tools."),
    )
    assert result.error is not None
    assert result.error.code == "mcp_server_failed"
    assert "db (failed)" in result.error.message
    assert result.error.details["mcp_servers"] == {"weather": "connected", "db": "failed"}
    assert result.text == "Answered without the db tools."


async def test_an_api_failure_keeps_its_own_code_when_a_server_failed_too() -> None:
    result = await drive(
        init({"name": "db", "status": "failed"}),
        claude_result(is_error=True, api_error_status=529, result="API Error: 529"),
    )
    assert result.error is not None
    assert result.error.code == "overloaded"
