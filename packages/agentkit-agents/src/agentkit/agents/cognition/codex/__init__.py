"""The codex CLI: ``codex exec --json``, as a cognition.

The same module shape as :mod:`agentkit.agents.cognition.claude`, with the
same names for the same things:

* :mod:`.argv` -- ``build_argv``: the argv of one spawn;
* :mod:`.events` -- ``map_event``: one stdout object -> a typed event;
* :mod:`.usage` -- ``parse_usage``, ``turn_usage``, ``settle``: what a turn
  used, from the thread's running total;
* :mod:`.turn` -- :class:`CodexTurn`: the fold of one turn's events, and
  the CLI's own failure verdict;
* :mod:`.result` -- :class:`CodexCliResult`;
* :mod:`.cognition` -- :class:`CodexCliCognition` and :class:`CodexCliSession`.

The CLI facts these rely on are in ``docs/cli/codex.md``.
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
