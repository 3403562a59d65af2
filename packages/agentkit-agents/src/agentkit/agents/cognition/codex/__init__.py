"""The codex CLI as a cognition: ``codex exec --json``, one spawn per turn,
threads continued with ``resume <id>``.

Same modules, same names as the claude subpackage (:mod:`agentkit.agents.cognition.claude`).
What codex itself does is in ``docs/cli/codex.md``.
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
