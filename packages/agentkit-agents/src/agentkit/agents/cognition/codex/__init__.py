"""The codex CLI as a cognition: ``codex exec --json``, one spawn per turn,
threads continued with ``resume <id>``.

Same modules, same kinds of names as the claude subpackage
(:mod:`agentkit.agents.cognition.claude`). What codex itself does is in
``docs/cli/codex.md``.

Exported here is what a caller handles: the cognition, its session, its
result and the events a result carries. The public modules hold the rest a
caller may want to read: :mod:`.argv` (``build_argv``, the argv of one
spawn, and the flags ``codex exec resume`` refuses) and :mod:`.events`
(``map_event``: one stdout object -> a typed event). How a turn's events are
folded and charged is internal (``_turn``, ``_usage``).
"""

from agentkit.agents.cognition.codex.cognition import CodexCliCognition, CodexCliSession
from agentkit.agents.cognition.codex.events import (
    AgentMessage,
    CodexEvent,
    CodexItem,
    CommandExecution,
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
)
from agentkit.agents.cognition.codex.result import CodexCliResult

__all__ = [
    "AgentMessage",
    "CodexCliCognition",
    "CodexCliResult",
    "CodexCliSession",
    "CodexEvent",
    "CodexItem",
    "CommandExecution",
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
    "UnknownEvent",
    "UnknownItem",
    "WarningItem",
    "WebSearch",
]
