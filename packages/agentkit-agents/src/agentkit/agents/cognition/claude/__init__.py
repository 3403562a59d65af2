"""The claude CLI as a cognition: ``claude -p --output-format stream-json``.

A run is one spawn per prompt, or one long-lived ``--input-format
stream-json`` process serving many turns. Module for module and name for name
this subpackage mirrors :mod:`agentkit.agents.cognition.codex` (plus
:mod:`.api_errors`: claude names its API failures itself); the CLI facts
it relies on are written up in ``docs/cli/claude.md``.
"""

from agentkit.agents.cognition.claude.api_errors import API_ERROR_CODES, ASSISTANT_ERROR_CODES
from agentkit.agents.cognition.claude.argv import build_argv
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
    EventError,
    PermissionDenial,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    UnknownBlock,
    map_event,
)
from agentkit.agents.cognition.claude.result import ClaudeCliResult
from agentkit.agents.cognition.claude.turn import ClaudeTurn
from agentkit.agents.cognition.claude.usage import parse_usage, settle, turn_cost

ClaudeResultT = ClaudeCliResult
"""The earlier name of :class:`ClaudeCliResult` (kept for code that imported it)."""

__all__ = [
    "API_ERROR_CODES",
    "ASSISTANT_ERROR_CODES",
    "ClaudeAssistant",
    "ClaudeCliCognition",
    "ClaudeCliResult",
    "ClaudeCliSession",
    "ClaudeEvent",
    "ClaudeInit",
    "ClaudeOther",
    "ClaudeResult",
    "ClaudeResultT",
    "ClaudeSystem",
    "ClaudeTurn",
    "ClaudeUser",
    "ContentBlock",
    "EventError",
    "PermissionDenial",
    "TextBlock",
    "ThinkingBlock",
    "ToolResultBlock",
    "ToolUseBlock",
    "UnknownBlock",
    "build_argv",
    "map_event",
    "parse_usage",
    "settle",
    "turn_cost",
]
