"""The codex CLI (``codex exec --json``) as a cognition: its argv, events, usage rule, turn fold, result.

Its module shape and names mirror :mod:`agentkit.agents.cognition.claude` (the package
docstring of :mod:`agentkit.agents.cognition` lists them); the CLI facts these modules
rely on are in ``docs/cli/codex.md``.
"""

from agentkit.agents.cognition.codex.argv import RESUME_REJECTED_FLAGS, build_argv
from agentkit.agents.cognition.codex.cognition import CodexCliCognition, CodexCliSession
from agentkit.agents.cognition.codex.events import (
    AgentMessage,
    CodexEvent,
    CodexItem,
    CommandExecution,
    EventError,
    FileChange,
    FileChangeEntry,
    ItemEvent,
    ItemPhase,
    McpToolCall,
    Reasoning,
    StreamError,
    ThreadStarted,
    TodoEntry,
    TodoList,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
    UnknownEvent,
    UnknownItem,
    WarningItem,
    WebSearch,
    map_event,
)
from agentkit.agents.cognition.codex.result import CodexCliResult
from agentkit.agents.cognition.codex.turn import CodexTurn
from agentkit.agents.cognition.codex.usage import (
    BILLING_MODEL,
    CODEX_MODE,
    TurnUsage,
    parse_usage,
    settle,
    turn_usage,
)

__all__ = [
    "BILLING_MODEL",
    "CODEX_MODE",
    "RESUME_REJECTED_FLAGS",
    "AgentMessage",
    "CodexCliCognition",
    "CodexCliResult",
    "CodexCliSession",
    "CodexEvent",
    "CodexItem",
    "CodexTurn",
    "CommandExecution",
    "EventError",
    "FileChange",
    "FileChangeEntry",
    "ItemEvent",
    "ItemPhase",
    "McpToolCall",
    "Reasoning",
    "StreamError",
    "ThreadStarted",
    "TodoEntry",
    "TodoList",
    "TurnCompleted",
    "TurnFailed",
    "TurnStarted",
    "TurnUsage",
    "UnknownEvent",
    "UnknownItem",
    "WarningItem",
    "WebSearch",
    "build_argv",
    "map_event",
    "parse_usage",
    "settle",
    "turn_usage",
]
