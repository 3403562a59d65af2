"""The shipped MCP recordings (the parity suite's, from the pinned CLIs), read by the cognitions.

Each is what the real claude 2.1.337 / codex 0.171.0 printed while calling a
tool of a FakeMcpServer, or failing to: replayed through the CLI doubles into
the real cognitions, the tool call, its answer and the failures must read as
the CLI printed them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentkit.agents.cognition import ClaudeCliCognition, CodexCliCognition
from agentkit.agents.cognition.claude import ClaudeAssistant, ClaudeUser, McpServerStatus
from agentkit.agents.cognition.codex.events import ItemEvent, McpToolCall
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import FakeClaudeCli, FakeCodexCli, load_recording

RECORDINGS = Path(__file__).resolve().parents[2] / (
    "agentkit-fakes-cli/src/agentkit/fakes/cli/recordings"
)


async def replay(cli: str, name: str) -> Any:
    recording = load_recording(RECORDINGS / cli / f"{name}.jsonl")
    if cli == "claude":
        claude = ClaudeCliCognition(FakeClaudeCli([recording.run]), timeout=5)
        return await claude.drive(RunContext(), "What is the weather in Oslo?")
    codex = CodexCliCognition(FakeCodexCli([recording.run]), timeout=5)
    return await codex.drive(RunContext(), "What is the weather in Oslo?")


async def test_claude_calls_the_mcp_tool_and_reads_its_answer() -> None:
    result = await replay("claude", "mcp-tool-call")
    assert result.error is None
    assert result.text == "It is 21 degrees in Oslo."
    assert result.mcp_servers == (McpServerStatus("weather", "connected"),)
    (use,) = [u for e in result.events if isinstance(e, ClaudeAssistant) for u in e.tool_uses]
    assert (use.name, dict(use.input)) == ("mcp__weather__forecast", {"city": "Oslo"})
    (answer,) = [r for e in result.events if isinstance(e, ClaudeUser) for r in e.tool_results]
    assert answer.tool_use_id == use.id
    assert "21" in str(answer.content)
    assert answer.is_error is False


async def test_claude_with_a_server_that_never_connected_is_no_success() -> None:
    result = await replay("claude", "mcp-server-down")
    assert result.error is not None
    assert result.error.code == "mcp_server_failed"
    assert result.mcp_servers == (McpServerStatus("weather", "failed"),)
    assert result.returncode == 0  # the CLI itself called it a success


async def test_claude_denying_the_mcp_tool_is_a_permission_denial() -> None:
    result = await replay("claude", "mcp-denied")
    assert result.error is None
    assert [d.tool_name for d in result.permission_denials] == ["mcp__weather__forecast"]


async def test_codex_calls_the_mcp_tool_and_reads_its_answer() -> None:
    result = await replay("codex", "mcp-tool-call")
    assert result.error is None
    assert result.text == "It is 21 degrees in Oslo."
    done = [
        e.item
        for e in result.events
        if isinstance(e, ItemEvent) and isinstance(e.item, McpToolCall) and e.phase == "completed"
    ]
    (call,) = done
    assert (call.server, call.tool, call.arguments) == ("weather", "forecast", {"city": "Oslo"})
    assert call.status == "completed"
    assert call.error is None
    assert call.result is not None
    assert call.result["structured_content"] == {"city": "Oslo", "temp": 21}


async def test_codex_refusing_an_unapproved_mcp_call_reads_as_a_failed_call() -> None:
    result = await replay("codex", "mcp-denied")
    (call,) = [
        e.item
        for e in result.events
        if isinstance(e, ItemEvent) and isinstance(e.item, McpToolCall) and e.phase == "completed"
    ]
    assert call.status == "failed"
    assert call.error is not None
    assert "approval" in call.error


async def test_codex_with_a_required_server_down_fails_the_run_as_claude_does() -> None:
    result = await replay("codex", "mcp-server-down")
    assert result.error is not None
    assert result.error.code == "mcp_server_failed"  # the code claude's failed server gets
    assert result.error.returncode == 1
    assert "required MCP servers failed to initialize" in result.error.stderr
