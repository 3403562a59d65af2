"""The MCP wire facts the double answers by: revisions, JSON-RPC codes, result shapes.

The double speaks the initialize-handshake era of MCP (revisions 2024-11-05
to 2025-11-25), which is what the claude and codex CLIs and the official SDK
clients fall back to. A client of the later, session-less era first probes
``server/discover``; the double answers that probe with the era's own
"unsupported protocol version" error listing the handshake revisions, which
is how such a client learns to fall back to ``initialize``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = [
    "HANDSHAKE_REVISIONS",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "LATEST_REVISION",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "UNSUPPORTED_PROTOCOL_VERSION",
    "error",
    "negotiate",
    "result",
    "tool_result",
]

HANDSHAKE_REVISIONS: tuple[str, ...] = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
"""Every revision reached through ``initialize``, oldest first."""
LATEST_REVISION = HANDSHAKE_REVISIONS[-1]

# JSON-RPC 2.0's own codes, and the one MCP code the double sends.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
UNSUPPORTED_PROTOCOL_VERSION = -32022


def negotiate(requested: object) -> str:
    """The revision to answer ``initialize`` with: the client's when the double speaks it,
    else the latest (the client then decides whether it can go on)."""
    return (
        requested
        if isinstance(requested, str) and requested in HANDSHAKE_REVISIONS
        else LATEST_REVISION
    )


def error(ident: object, code: int, message: str, data: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": ident, "error": body}


def result(ident: object, value: Mapping[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "result": dict(value)}


def tool_result(value: Any, *, is_error: bool = False) -> dict[str, Any]:
    """A ``tools/call`` result for an answer value (see :mod:`agentkit.fakes.mcp.tool`).

    Raises TypeError or ValueError for a value JSON cannot carry.
    """
    if isinstance(value, str):
        text = value
    else:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    out: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": is_error}
    if isinstance(value, Mapping) and not is_error:
        out["structuredContent"] = json.loads(text)
    return out
