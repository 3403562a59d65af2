"""A strict MCP server double, and the settings that connect the agent CLIs to MCP servers.

:class:`FakeMcpServer` serves declared :class:`McpTool` tools over MCP's
streamable HTTP on loopback, answers them as FakeTool answers (a value, a
callable, a script, an :class:`McpToolError`), keeps every message
(:class:`McpRequest`) and call, and fails the test for what a misbehaving
client did (an undeclared tool, arguments the schema refuses, a server no
client connected to ...). :func:`claude_mcp_settings` and :func:`codex_mcp_settings` give the
claude and codex CLIs the options that connect them to it -- or to a user's
own MCP server -- with failures made loud; :func:`mcp_tool_call` names an
MCP tool the way each CLI's model calls it.
"""

from typing import TYPE_CHECKING

from agentkit.fakes.mcp.clients import CliMcpSettings as CliMcpSettings
from agentkit.fakes.mcp.clients import claude_mcp_settings as claude_mcp_settings
from agentkit.fakes.mcp.clients import codex_mcp_settings as codex_mcp_settings
from agentkit.fakes.mcp.clients import mcp_tool_call as mcp_tool_call
from agentkit.fakes.mcp.clients import mcp_tool_name as mcp_tool_name
from agentkit.fakes.mcp.records import McpRequest as McpRequest
from agentkit.fakes.mcp.server import FakeMcpServer as FakeMcpServer
from agentkit.fakes.mcp.stdio import StdioServer as StdioServer
from agentkit.fakes.mcp.tool import McpTool as McpTool
from agentkit.fakes.mcp.tool import McpToolError as McpToolError

if TYPE_CHECKING:
    from agentkit.fakes.mcp._version import __version__ as __version__
else:
    # __version__ reads the installed metadata: paid only by code that asks for it.
    from agentkit.core._internal.lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "__version__": "agentkit.fakes.mcp._version",
        },
        globals(),
    )

__all__ = [
    "CliMcpSettings",
    "StdioServer",
    "claude_mcp_settings",
    "codex_mcp_settings",
    "mcp_tool_call",
    "mcp_tool_name",
    "McpRequest",
    "FakeMcpServer",
    "McpTool",
    "McpToolError",
]
