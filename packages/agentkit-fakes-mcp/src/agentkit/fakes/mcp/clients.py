"""Connect the claude and codex CLIs to MCP servers, with every failure made loud.

Both CLIs fail quietly around MCP unless told otherwise, and each helper
here sets what turns each quiet failure into a failing test:

* **claude** (``claude_mcp_settings``): the servers go in ``--mcp-config``,
  with ``--strict-mcp-config`` so no server of the user's own configuration
  joins the run; ``--allowedTools=mcp__<server>`` permits their tools (in
  ``-p`` mode a tool not permitted is refused and the run goes on, exit 0);
  ``ENABLE_TOOL_SEARCH=false`` offers the tools to the model directly (by
  default claude defers MCP tools behind its tool search, and a scripted
  direct call then names a tool the request did not offer);
  ``MCP_TIMEOUT`` / ``MCP_TOOL_TIMEOUT`` bound the connection and each call
  (a server that never connects is reported ``failed`` on ``system``/
  ``init`` and the run goes on: the claude cognition makes that turn's error
  ``mcp_server_failed``).
* **codex** (``codex_mcp_settings``): one ``-c mcp_servers.<name>...`` per
  setting; ``required = true`` (otherwise a server that fails to start is
  dropped with its tools, and the run goes on), ``startup_timeout_sec`` /
  ``tool_timeout_sec``, and ``default_tools_approval_mode = "approve"``
  (``codex exec`` never asks, so without it every MCP call is refused).

A server is a running :class:`~agentkit.fakes.mcp.FakeMcpServer`, the URL of
a streamable-HTTP server, or a :class:`StdioServer` (a command the CLI
starts itself -- how most MCP servers a user writes are run).

:func:`mcp_tool_name` / :func:`mcp_tool_call` name an MCP tool the way each
CLI's model calls it, so one script line serves both CLIs: claude's
``mcp__<server>__<tool>`` (characters outside ``[A-Za-z0-9_-]`` become
``_``), codex's ``mcp__<server>`` namespace holding ``<tool>`` (``-`` becomes
``_`` as well), which FakeApi sends as the namespace and the inner name when
the script calls ``mcp__<server>__<tool>``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_bool,
    check_mapping,
    check_number,
    check_str,
)
from agentkit.core.types import ToolCall
from agentkit.fakes.mcp.server import FakeMcpServer
from agentkit.fakes.mcp.stdio import StdioServer

__all__ = [
    "Cli",
    "CliMcpSettings",
    "StdioServer",
    "claude_mcp_settings",
    "codex_mcp_settings",
    "mcp_tool_call",
    "mcp_tool_name",
]

Cli = Literal["claude", "codex"]

_SERVER_NAME = re.compile(r"[A-Za-z0-9_-]+")
_NOT_CLAUDE = re.compile(r"[^A-Za-z0-9_-]")
_NOT_CODEX = re.compile(r"[^A-Za-z0-9_]")


Server = FakeMcpServer | str | StdioServer


@dataclass(frozen=True, slots=True)
class CliMcpSettings:
    """What a CLI needs to use the servers: ``args`` for the cognition's ``extra_args`` and
    ``env`` to merge into its ``env``."""

    args: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)


def _servers(servers: object, where: str) -> dict[str, Server]:
    mapping = check_mapping(
        servers,
        where,
        "servers",
        "a mapping of server name to a FakeMcpServer, a URL or a StdioServer",
    )
    if not mapping:
        raise ArgumentValueError(where, "servers", "at least one server", servers)
    out: dict[str, Server] = {}
    for name, server in mapping.items():
        check_str(name, where, "servers (a name)", empty=False)
        if not _SERVER_NAME.fullmatch(name):
            raise ArgumentValueError(
                where,
                f"servers[{name!r}]",
                "a server name of letters, digits, '_' and '-' only",
                name,
                "both CLIs build tool names and config keys from it",
            )
        if isinstance(server, str):
            if not server.startswith(("http://", "https://")):
                raise ArgumentValueError(where, f"servers[{name!r}]", "an http(s) URL", server)
        elif not isinstance(server, FakeMcpServer | StdioServer):
            raise ArgumentTypeError(
                where, f"servers[{name!r}]", "a FakeMcpServer, a URL or a StdioServer", server
            )
        out[name] = server
    return out


def _seconds(value: object, where: str, argument: str) -> float:
    seconds = check_number(value, where, argument)
    if seconds <= 0 or math.isinf(seconds):
        raise ArgumentValueError(where, argument, "a number of seconds > 0", value)
    return seconds


def _checked(
    where: str, servers: object, connect: object, tools: object, flag: tuple[str, object]
) -> tuple[dict[str, Server], float, float]:
    """Both helpers' arguments, checked: the servers, the two timeouts, the tools switch."""
    check_bool(flag[1], where, flag[0])
    return (
        _servers(servers, where),
        _seconds(connect, where, "connect_timeout"),
        _seconds(tools, where, "tool_timeout"),
    )


def _url(server: FakeMcpServer | str) -> str:
    return server.url if isinstance(server, FakeMcpServer) else server


def claude_mcp_settings(
    servers: Mapping[str, Server],
    *,
    connect_timeout: float = 10.0,
    tool_timeout: float = 60.0,
    allow_tools: bool = True,
) -> CliMcpSettings:
    """The options and environment that give claude exactly ``servers`` (see the module).

    ``allow_tools=False`` leaves the servers' tools unpermitted: a test that
    proves a refused call fails loudly.
    """
    named, connect, tools = _checked(
        "claude_mcp_settings", servers, connect_timeout, tool_timeout, ("allow_tools", allow_tools)
    )
    config: dict[str, Any] = {}
    for name, server in named.items():
        if isinstance(server, StdioServer):
            config[name] = {
                "type": "stdio",
                "command": server.command,
                "args": list(server.args),
                "env": dict(server.env),
            }
        else:
            config[name] = {"type": "http", "url": _url(server)}
    args = [f"--mcp-config={json.dumps({'mcpServers': config})}", "--strict-mcp-config"]
    if allow_tools:
        allowed = ",".join(f"mcp__{_NOT_CLAUDE.sub('_', name)}" for name in named)
        args.append(f"--allowedTools={allowed}")
    env = {
        "ENABLE_TOOL_SEARCH": "false",
        "MCP_TIMEOUT": str(math.ceil(connect * 1000)),
        "MCP_TOOL_TIMEOUT": str(math.ceil(tools * 1000)),
    }
    return CliMcpSettings(tuple(args), env)


def codex_mcp_settings(
    servers: Mapping[str, Server],
    *,
    connect_timeout: float = 10.0,
    tool_timeout: float = 60.0,
    approve_tools: bool = True,
) -> CliMcpSettings:
    """The ``-c`` options that give codex ``servers``, each required (see the module).

    ``approve_tools=False`` leaves the tools needing an approval ``codex
    exec`` never gives: a test that proves a refused call fails loudly.
    """
    named, connect, tools = _checked(
        "codex_mcp_settings",
        servers,
        connect_timeout,
        tool_timeout,
        ("approve_tools", approve_tools),
    )
    settings: list[str] = []
    for name, server in named.items():
        key = f"mcp_servers.{name}"
        if isinstance(server, StdioServer):
            settings.append(f"{key}.command={json.dumps(server.command)}")
            settings.append(f"{key}.args={json.dumps(list(server.args))}")
            if server.env:
                pairs = ", ".join(
                    f"{json.dumps(k)} = {json.dumps(v)}" for k, v in server.env.items()
                )
                settings.append(f"{key}.env={{{pairs}}}")
        else:
            settings.append(f"{key}.url={json.dumps(_url(server))}")
        settings.append(f"{key}.required=true")
        settings.append(f"{key}.startup_timeout_sec={float(connect)!r}")
        settings.append(f"{key}.tool_timeout_sec={float(tools)!r}")
        if approve_tools:
            settings.append(f'{key}.default_tools_approval_mode="approve"')
    args: list[str] = []
    for setting in settings:
        args += ["-c", setting]
    return CliMcpSettings(tuple(args))


def mcp_tool_name(server: str, tool: str, *, cli: Cli) -> str:
    """The name ``cli``'s model calls ``tool`` of ``server`` by, in a script.

    claude: ``mcp__<server>__<tool>``, characters outside ``[A-Za-z0-9_-]``
    as ``_``. codex: the same with ``-`` as ``_`` too -- the flat name under
    which FakeApi offers a namespaced tool and sends its call back as the
    namespace ``mcp__<server>`` and the tool.
    """
    check_str(server, "mcp_tool_name", "server", empty=False)
    check_str(tool, "mcp_tool_name", "tool", empty=False)
    if cli == "claude":
        pattern = _NOT_CLAUDE
    elif cli == "codex":
        pattern = _NOT_CODEX
    else:
        raise ArgumentValueError("mcp_tool_name", "cli", "'claude' or 'codex'", cli)
    return f"mcp__{pattern.sub('_', server)}__{pattern.sub('_', tool)}"


def mcp_tool_call(
    server: str,
    tool: str,
    arguments: Mapping[str, Any] | None = None,
    *,
    cli: Cli,
    id: str = "call_mcp_1",
) -> ToolCall:
    """A scripted model's call of ``tool`` on ``server``, named as ``cli`` expects."""
    check_str(id, "mcp_tool_call", "id", empty=False)
    return ToolCall(id, mcp_tool_name(server, tool, cli=cli), dict(arguments or {}))
