"""What FakeMcpServer keeps of every JSON-RPC message a client sent, for a test to assert on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["McpRequest"]


@dataclass(frozen=True, slots=True)
class McpRequest:
    """One JSON-RPC message as the server read it, and how it was answered.

    ``method`` is the JSON-RPC method (``""`` for a message that had none, a
    malformed one); ``params`` its parameters (empty when there were none);
    ``id`` the request id (``None`` for a notification); ``session`` the
    ``Mcp-Session-Id`` the client sent (``None`` before ``initialize`` gave
    one); ``error`` the JSON-RPC error code it was answered with (``None``
    for a result or a notification).
    """

    method: str
    params: Mapping[str, Any]
    id: str | int | None
    session: str | None
    error: int | None = None

    @property
    def notification(self) -> bool:
        return self.id is None
