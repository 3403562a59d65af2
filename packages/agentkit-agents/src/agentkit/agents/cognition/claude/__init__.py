"""The claude CLI: ``claude -p --output-format stream-json``, as a cognition.

The same module shape as :mod:`agentkit.agents.cognition.codex`, with the
same names for the same things:

* :mod:`.argv` -- ``build_argv``: the argv of one spawn;
* :mod:`.events` -- ``map_event``: one stdout object -> a typed event;
* :mod:`.usage` -- ``parse_usage``, ``turn_cost``, ``settle``: what a turn
  used and cost, from figures that are partly running totals;
* :mod:`.turn` -- :class:`ClaudeTurn`: the fold of one turn's events, and
  the CLI's own failure verdict;
* :mod:`.result` -- :class:`ClaudeCliResult`;
* :mod:`.cognition` -- :class:`ClaudeCliCognition` and :class:`ClaudeCliSession`.

The CLI facts these rely on are in ``docs/cli/claude.md``.
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
