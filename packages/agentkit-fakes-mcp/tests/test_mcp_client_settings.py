"""The settings that connect claude and codex to MCP servers, and the names of MCP tools.

What each setting does to the real CLIs is checked on the pinned binaries
(``test_real_clis.py``); here: that each helper writes exactly those
settings, for every kind of server, and refuses what cannot work.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.types import ToolCall
from agentkit.fakes.mcp import (
    FakeMcpServer,
    McpTool,
    StdioServer,
    claude_mcp_settings,
    codex_mcp_settings,
    mcp_tool_call,
    mcp_tool_name,
)

STDIO = StdioServer("/usr/bin/python3", ("-m", "my_server"), {"TOKEN": "t"})


def claude_config(args: tuple[str, ...]) -> Any:
    (config,) = [a.split("=", 1)[1] for a in args if a.startswith("--mcp-config=")]
    return json.loads(config)


def test_claude_gets_only_these_servers_their_tools_allowed_and_offered_directly() -> None:
    with FakeMcpServer([McpTool("t", answer=1)], expect_connection=False) as double:
        settings = claude_mcp_settings(
            {"weather": double, "docs": "https://docs.example/mcp", "my-files": STDIO},
            connect_timeout=2.5,
            tool_timeout=30,
        )
        assert claude_config(settings.args) == {
            "mcpServers": {
                "weather": {"type": "http", "url": double.url},
                "docs": {"type": "http", "url": "https://docs.example/mcp"},
                "my-files": {
                    "type": "stdio",
                    "command": "/usr/bin/python3",
                    "args": ["-m", "my_server"],
                    "env": {"TOKEN": "t"},
                },
            }
        }
    assert settings.args[1:] == (
        "--strict-mcp-config",
        "--allowedTools=mcp__weather,mcp__docs,mcp__my-files",
    )
    assert settings.env == {
        "ENABLE_TOOL_SEARCH": "false",
        "MCP_TIMEOUT": "2500",
        "MCP_TOOL_TIMEOUT": "30000",
    }


def test_claude_without_allowed_tools_leaves_them_unpermitted() -> None:
    settings = claude_mcp_settings({"weather": "http://127.0.0.1:1/mcp"}, allow_tools=False)
    assert not [a for a in settings.args if a.startswith("--allowedTools")]


def test_codex_gets_each_server_required_bounded_and_approved() -> None:
    settings = codex_mcp_settings(
        {"weather": "http://127.0.0.1:5/mcp", "my-files": STDIO}, connect_timeout=3, tool_timeout=20
    )
    options = settings.args[1::2]
    assert set(settings.args[::2]) == {"-c"}
    assert options == (
        'mcp_servers.weather.url="http://127.0.0.1:5/mcp"',
        "mcp_servers.weather.required=true",
        "mcp_servers.weather.startup_timeout_sec=3.0",
        "mcp_servers.weather.tool_timeout_sec=20.0",
        'mcp_servers.weather.default_tools_approval_mode="approve"',
        'mcp_servers.my-files.command="/usr/bin/python3"',
        'mcp_servers.my-files.args=["-m", "my_server"]',
        'mcp_servers.my-files.env={"TOKEN" = "t"}',
        "mcp_servers.my-files.required=true",
        "mcp_servers.my-files.startup_timeout_sec=3.0",
        "mcp_servers.my-files.tool_timeout_sec=20.0",
        'mcp_servers.my-files.default_tools_approval_mode="approve"',
    )
    assert settings.env == {}
    unapproved = codex_mcp_settings({"w": "http://127.0.0.1:5/mcp"}, approve_tools=False)
    assert not [a for a in unapproved.args if "approval" in a]


@pytest.mark.parametrize(
    ("server", "tool", "claude", "codex"),
    [
        ("weather", "forecast", "mcp__weather__forecast", "mcp__weather__forecast"),
        ("my-files", "read-file", "mcp__my-files__read-file", "mcp__my_files__read_file"),
        ("docs", "search.v2", "mcp__docs__search_v2", "mcp__docs__search_v2"),
    ],
)
def test_a_tool_is_named_as_each_cli_names_it(
    server: str, tool: str, claude: str, codex: str
) -> None:
    assert mcp_tool_name(server, tool, cli="claude") == claude
    assert mcp_tool_name(server, tool, cli="codex") == codex
    assert mcp_tool_call(server, tool, {"q": 1}, cli="codex", id="c1") == ToolCall(
        "c1", codex, {"q": 1}
    )


@pytest.mark.parametrize(
    ("call", "error", "argument"),
    [
        (lambda: claude_mcp_settings({}), ArgumentValueError, "servers"),
        (lambda: claude_mcp_settings([]), ArgumentTypeError, "servers"),  # type: ignore[arg-type]
        (
            lambda: claude_mcp_settings({"a b": "http://x/mcp"}),
            ArgumentValueError,
            "servers['a b']",
        ),
        (lambda: codex_mcp_settings({"a": "ftp://x"}), ArgumentValueError, "servers['a']"),
        (lambda: codex_mcp_settings({"a": 5}), ArgumentTypeError, "servers['a']"),  # type: ignore[dict-item]
        (
            lambda: codex_mcp_settings({"a": "http://x"}, tool_timeout=0),
            ArgumentValueError,
            "tool_timeout",
        ),
        (
            lambda: claude_mcp_settings({"a": "http://x"}, connect_timeout=-1),
            ArgumentValueError,
            "connect_timeout",
        ),
        (
            lambda: claude_mcp_settings({"a": "http://x"}, allow_tools=1),  # type: ignore[arg-type]
            ArgumentTypeError,
            "allow_tools",
        ),
        (lambda: StdioServer(""), ArgumentValueError, "command"),
        (lambda: StdioServer("x", "-v"), ArgumentTypeError, "args"),  # type: ignore[arg-type]
        (lambda: StdioServer("x", env={"A": 1}), ArgumentTypeError, "env['A']"),  # type: ignore[dict-item]
        (lambda: mcp_tool_name("s", "t", cli="gemini"), ArgumentValueError, "cli"),  # type: ignore[arg-type]
        (lambda: mcp_tool_name("", "t", cli="claude"), ArgumentValueError, "server"),
    ],
)
def test_settings_that_cannot_work_are_refused_naming_the_argument(
    call: Any, error: type[Exception], argument: str
) -> None:
    with pytest.raises(error) as raised:
        call()
    assert raised.value.argument == argument  # type: ignore[attr-defined]
