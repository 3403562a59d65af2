"""Pins agentkit.fakes.mcp's public API."""

from __future__ import annotations

import importlib


def test_all_is_exactly_the_documented_surface() -> None:
    module = importlib.import_module("agentkit.fakes.mcp")
    assert set(module.__all__) == {
        "FakeMcpServer",
        "McpTool",
        "McpToolError",
        "McpRequest",
        "StdioServer",
        "CliMcpSettings",
        "claude_mcp_settings",
        "codex_mcp_settings",
        "mcp_tool_name",
        "mcp_tool_call",
    }
    for name in module.__all__:
        assert isinstance(getattr(module, name), type) or callable(getattr(module, name))


def test_the_version_is_the_installed_distributions() -> None:
    from importlib.metadata import version

    import agentkit.fakes.mcp

    assert agentkit.fakes.mcp.__version__ == version("agentkit-fakes-mcp")
