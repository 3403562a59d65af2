"""The result of one claude turn: the shared :class:`CliResult`, plus what claude adds.

A caller that reads claude and codex alike reads the shared fields (``text``,
``usage``, ``cost_usd``, ``session_id``, ``error``, ``http_status``,
``unpriced``). What only claude has is typed here rather than left in the raw
``result`` event: the tool calls the CLI denied on its own, and a ``--json-schema`` run's
structured output.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agentkit.agents.cognition.claude.events import ClaudeEvent, McpServerStatus, PermissionDenial
from agentkit.agents.cognition.result import CliResult

__all__ = ["ClaudeCliResult"]


@dataclass(frozen=True, slots=True)
class ClaudeCliResult(CliResult[ClaudeEvent]):
    """One claude run (``drive``) or session turn.

    * ``permission_denials`` -- tool calls the CLI refused without asking
      (``result.permission_denials[]``). Not an error: the model was told and
      the run went on.
    * ``structured_output`` -- the value a ``--json-schema`` run produced
      (``result.structured_output``, already parsed JSON), None otherwise.
    * ``mcp_servers`` -- the MCP servers ``system``/``init`` reported and their
      status; one not connected makes the turn's error ``mcp_server_failed``.
    """

    permission_denials: tuple[PermissionDenial, ...] = ()
    structured_output: Any = None
    mcp_servers: tuple[McpServerStatus, ...] = ()
