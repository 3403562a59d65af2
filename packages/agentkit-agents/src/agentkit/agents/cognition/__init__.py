"""Cognitions that think by driving a coding-agent CLI as a child process.

``ClaudeCliCognition`` runs ``claude -p --output-format stream-json``;
``CodexCliCognition`` runs ``codex exec --json``. Both share the process
runner (:mod:`.process`), the checked constructor options
(:mod:`.options`), the result type (:class:`CliResult`) and the typed
error (:class:`CliError`), so a caller reads a claude run and a codex run the
same way and tests can swap either CLI for its double
(``agentkit.fakes.cli``) through the ``spawn=`` seam.
"""

from agentkit.agents.cognition.claude import ClaudeCliCognition, ClaudeCliSession
from agentkit.agents.cognition.claude_events import (
    ClaudeAssistant,
    ClaudeEvent,
    ClaudeInit,
    ClaudeOther,
    ClaudeResult,
    ClaudeSystem,
    ClaudeUser,
    ContentBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    UnknownBlock,
)

# codex (helper D)
from agentkit.agents.cognition.codex import CodexCliCognition, CodexCliSession
from agentkit.agents.cognition.codex_events import CodexEvent, CodexItem
from agentkit.agents.cognition.codex_result import CodexCliResult
from agentkit.agents.cognition.errors import CliError
from agentkit.agents.cognition.process import (
    DEFAULT_KILL_GRACE,
    DEFAULT_LINE_LIMIT,
    CliProcess,
    default_spawn,
)
from agentkit.agents.cognition.result import CliResult, SkippedLine, SkipReason

__all__ = [
    # shared base
    "DEFAULT_KILL_GRACE",
    "DEFAULT_LINE_LIMIT",
    "CliError",
    "CliProcess",
    "CliResult",
    "SkipReason",
    "SkippedLine",
    "default_spawn",
    # claude
    "ClaudeAssistant",
    "ClaudeCliCognition",
    "ClaudeCliSession",
    "ClaudeEvent",
    "ClaudeInit",
    "ClaudeOther",
    "ClaudeResult",
    "ClaudeSystem",
    "ClaudeUser",
    "ContentBlock",
    "TextBlock",
    "ThinkingBlock",
    "ToolResultBlock",
    "ToolUseBlock",
    "UnknownBlock",
    # codex (helper D)
    "CodexCliCognition",
    "CodexCliResult",
    "CodexCliSession",
    "CodexEvent",
    "CodexItem",
]
