"""The claude CLI (``claude -p --output-format stream-json``) as a cognition: its argv, events, usage rule, turn fold, result.

Its module shape and names mirror :mod:`agentkit.agents.cognition.codex` (the package
docstring of :mod:`agentkit.agents.cognition` lists them); the CLI facts these modules
rely on are in ``docs/cli/claude.md``.
"""

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
