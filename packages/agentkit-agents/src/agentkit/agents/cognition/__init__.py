"""Cognitions that think by driving a coding-agent CLI as a child process.

``ClaudeCliCognition`` runs ``claude -p --output-format stream-json``;
``CodexCliCognition`` runs ``codex exec --json``. Both run one shared turn
algorithm over one shared process runner (:mod:`.process`), take the same
checked constructor options in the same order (:mod:`.options`), return
results of the same shape (:class:`CliResult`, subclassed per CLI) and report
failures with one typed error and vocabulary (:class:`CliError`,
:data:`ErrorCode`; the table is ``docs/cli/errors.md``), so a caller reads a
claude run and a codex run the same way and tests can swap either CLI for its
double (``agentkit.fakes.cli``) through the ``spawn=`` seam.

Each CLI lives in its own subpackage, :mod:`.claude` and :mod:`.codex`, with
the same module shape and the same names for the same things:

* ``argv`` -- ``build_argv``: the argv of one spawn;
* ``events`` -- ``map_event``: one stdout object -> a typed event (raising
  the shared ``EventError`` for an object that breaks the schema);
* ``result`` -- ``ClaudeCliResult`` / ``CodexCliResult``;
* ``cognition`` -- the cognition and its session;
* ``_turn`` and ``_usage`` (internal) -- the fold of one turn's events with
  the CLI's own failure verdict, and the rule that settles what a turn is
  charged from figures that are partly running totals.

The names most callers need are re-exported here.
"""

from agentkit.agents.cognition.claude import (
    ClaudeAssistant,
    ClaudeCliCognition,
    ClaudeCliResult,
    ClaudeCliSession,
    ClaudeEvent,
    ClaudeInit,
    ClaudeOther,
    ClaudeResult,
    ClaudeSystem,
    ClaudeUser,
    ContentBlock,
    McpServerStatus,
    PermissionDenial,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    UnknownBlock,
)
from agentkit.agents.cognition.codex import (
    CodexCliCognition,
    CodexCliResult,
    CodexCliSession,
    CodexEvent,
    CodexItem,
)
from agentkit.agents.cognition.errors import CliError, ErrorCode, ErrorKind
from agentkit.agents.cognition.options import DEFAULT_TIMEOUT
from agentkit.agents.cognition.process import (
    DEFAULT_KILL_GRACE,
    DEFAULT_LINE_LIMIT,
    CliProcess,
    default_spawn,
)
from agentkit.agents.cognition.result import CliResult, EventProblem, SkippedLine, SkipReason
from agentkit.agents.cognition.session import CliSession, SessionStateError

__all__ = [
    # shared
    "DEFAULT_KILL_GRACE",
    "DEFAULT_LINE_LIMIT",
    "DEFAULT_TIMEOUT",
    "CliError",
    "CliProcess",
    "CliResult",
    "CliSession",
    "ErrorCode",
    "ErrorKind",
    "EventProblem",
    "SessionStateError",
    "SkipReason",
    "SkippedLine",
    "default_spawn",
    # claude
    "ClaudeAssistant",
    "ClaudeCliCognition",
    "ClaudeCliResult",
    "ClaudeCliSession",
    "ClaudeEvent",
    "ClaudeInit",
    "ClaudeOther",
    "ClaudeResult",
    "ClaudeSystem",
    "ClaudeUser",
    "ContentBlock",
    "McpServerStatus",
    "PermissionDenial",
    "TextBlock",
    "ThinkingBlock",
    "ToolResultBlock",
    "ToolUseBlock",
    "UnknownBlock",
    # codex
    "CodexCliCognition",
    "CodexCliResult",
    "CodexCliSession",
    "CodexEvent",
    "CodexItem",
]
