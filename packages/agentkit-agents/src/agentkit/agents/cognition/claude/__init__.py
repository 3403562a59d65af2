"""The claude CLI as a cognition: ``claude -p --output-format stream-json``.

A run is one spawn per prompt, or one long-lived ``--input-format
stream-json`` process serving many turns. Module for module this subpackage
mirrors :mod:`agentkit.agents.cognition.codex`; the CLI facts it relies on
are written up in ``docs/cli/claude.md``.

Exported here is what a caller handles: the cognition, its session, its
result and the events a result carries. The public modules hold the rest a
caller may want to read: :mod:`.argv` (``build_argv``, the argv of one
spawn), :mod:`.events` (``map_event``: one stdout object -> a typed event)
and :mod:`.api_errors` (claude's own names for its API failures, mapped to
the shared :data:`~agentkit.agents.cognition.ErrorCode`). How a turn's
events are folded and charged is internal (``_turn``, ``_usage``).
"""

from agentkit.agents.cognition.claude.cognition import ClaudeCliCognition, ClaudeCliSession
from agentkit.agents.cognition.claude.events import (
    ClaudeAssistant,
    ClaudeEvent,
    ClaudeInit,
    ClaudeOther,
    ClaudeResult,
    ClaudeSystem,
    ClaudeUser,
    ContentBlock,
    McpServerStatus,
    PermissionDenial,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    UnknownBlock,
)
from agentkit.agents.cognition.claude.result import ClaudeCliResult

__all__ = [
    "ClaudeAssistant",
    "ClaudeCliCognition",
    "ClaudeCliResult",
    "ClaudeCliSession",
    "ClaudeEvent",
    "ClaudeInit",
    "ClaudeOther",
    "ClaudeResult",
    "ClaudeSystem",
    "ClaudeUser",
    "ContentBlock",
    "McpServerStatus",
    "PermissionDenial",
    "TextBlock",
    "ThinkingBlock",
    "ToolResultBlock",
    "ToolUseBlock",
    "UnknownBlock",
]
