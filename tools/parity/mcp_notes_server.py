"""A user's MCP server, as a user would write it: the official MCP SDK, run over stdio.

The parity scenarios ``claude/mcp-sdk-server`` and ``codex/mcp-sdk-server``
give it to the real CLIs as a command (``StdioServer``) and have the scripted
model call its tool -- what a user testing their own MCP server with a real
agent does. It needs the ``mcp`` package (the workspace's dev group).
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

server = MCPServer("notes")


@server.tool()
def add_note(title: str, text: str) -> str:
    """Store a note under a title."""
    return f"stored {title!r} ({len(text)} characters)"


if __name__ == "__main__":
    server.run("stdio")
