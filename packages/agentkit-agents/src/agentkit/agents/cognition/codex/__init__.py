"""The codex CLI as a cognition: ``codex exec --json``, one spawn per turn,
threads continued with ``resume <id>``.

Same modules, same kinds of names as the claude subpackage
(:mod:`agentkit.agents.cognition.claude`). What codex itself does is in
``docs/cli/codex.md``.

Exported here are the events a result carries (the cognition, its session
and its result are exported by :mod:`agentkit.agents.cognition`). The
public modules hold the rest a caller may want to read: :mod:`.argv`
(``build_argv``, the argv of one spawn, and the flags ``codex exec resume``
refuses) and :mod:`.events` (``map_event``: one stdout object -> a typed
event). How a turn's events are folded and charged is internal (``_turn``,
``_usage``).
"""

from agentkit.agents.cognition.codex.events import AgentMessage as AgentMessage
from agentkit.agents.cognition.codex.events import CodexEvent as CodexEvent
from agentkit.agents.cognition.codex.events import CodexItem as CodexItem
from agentkit.agents.cognition.codex.events import CommandExecution as CommandExecution
from agentkit.agents.cognition.codex.events import FileChange as FileChange
from agentkit.agents.cognition.codex.events import FileChangeEntry as FileChangeEntry
from agentkit.agents.cognition.codex.events import ItemEvent as ItemEvent
from agentkit.agents.cognition.codex.events import ItemPhase as ItemPhase
from agentkit.agents.cognition.codex.events import McpToolCall as McpToolCall
from agentkit.agents.cognition.codex.events import Reasoning as Reasoning
from agentkit.agents.cognition.codex.events import StreamError as StreamError
from agentkit.agents.cognition.codex.events import ThreadStarted as ThreadStarted
from agentkit.agents.cognition.codex.events import TodoEntry as TodoEntry
from agentkit.agents.cognition.codex.events import TodoList as TodoList
from agentkit.agents.cognition.codex.events import TurnCompleted as TurnCompleted
from agentkit.agents.cognition.codex.events import TurnFailed as TurnFailed
from agentkit.agents.cognition.codex.events import TurnStarted as TurnStarted
from agentkit.agents.cognition.codex.events import UnknownEvent as UnknownEvent
from agentkit.agents.cognition.codex.events import UnknownItem as UnknownItem
from agentkit.agents.cognition.codex.events import WarningItem as WarningItem
from agentkit.agents.cognition.codex.events import WebSearch as WebSearch

__all__ = [
    "CodexEvent",
    "ThreadStarted",
    "TurnStarted",
    "TurnCompleted",
    "TurnFailed",
    "StreamError",
    "ItemEvent",
    "ItemPhase",
    "UnknownEvent",
    "CodexItem",
    "AgentMessage",
    "Reasoning",
    "CommandExecution",
    "FileChange",
    "FileChangeEntry",
    "McpToolCall",
    "WebSearch",
    "TodoList",
    "TodoEntry",
    "WarningItem",
    "UnknownItem",
]
