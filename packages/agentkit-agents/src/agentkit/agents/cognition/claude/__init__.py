"""The claude CLI as a cognition: ``claude -p --output-format stream-json``.

A run is one spawn per prompt, or one long-lived ``--input-format
stream-json`` process serving many turns. Module for module this subpackage
mirrors :mod:`agentkit.agents.cognition.codex`; the CLI facts it relies on
are written up in ``docs/cli/claude.md``.

Exported here are the events a result carries (the cognition, its session
and its result are exported by :mod:`agentkit.agents.cognition`). The
public modules hold the rest a caller may want to read: :mod:`.argv`
(``build_argv``, the argv of one spawn), :mod:`.events` (``map_event``: one
stdout object -> a typed event) and :mod:`.api_errors` (claude's own names
for its API failures, mapped to the shared
:data:`~agentkit.agents.cognition.ErrorCode`). How a turn's events are folded
and charged is internal (``_turn``, ``_usage``).
"""

from agentkit.agents.cognition.claude.events import ClaudeAssistant as ClaudeAssistant
from agentkit.agents.cognition.claude.events import ClaudeEvent as ClaudeEvent
from agentkit.agents.cognition.claude.events import ClaudeInit as ClaudeInit
from agentkit.agents.cognition.claude.events import ClaudeOther as ClaudeOther
from agentkit.agents.cognition.claude.events import ClaudeResult as ClaudeResult
from agentkit.agents.cognition.claude.events import ClaudeSystem as ClaudeSystem
from agentkit.agents.cognition.claude.events import ClaudeUser as ClaudeUser
from agentkit.agents.cognition.claude.events import ContentBlock as ContentBlock
from agentkit.agents.cognition.claude.events import McpServerStatus as McpServerStatus
from agentkit.agents.cognition.claude.events import PermissionDenial as PermissionDenial
from agentkit.agents.cognition.claude.events import TextBlock as TextBlock
from agentkit.agents.cognition.claude.events import ThinkingBlock as ThinkingBlock
from agentkit.agents.cognition.claude.events import ToolResultBlock as ToolResultBlock
from agentkit.agents.cognition.claude.events import ToolUseBlock as ToolUseBlock
from agentkit.agents.cognition.claude.events import UnknownBlock as UnknownBlock

__all__ = [
    "ClaudeEvent",
    "ClaudeInit",
    "ClaudeSystem",
    "ClaudeAssistant",
    "ClaudeUser",
    "ClaudeResult",
    "ClaudeOther",
    "ContentBlock",
    "TextBlock",
    "ThinkingBlock",
    "ToolUseBlock",
    "ToolResultBlock",
    "UnknownBlock",
    "McpServerStatus",
    "PermissionDenial",
]
