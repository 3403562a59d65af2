"""Cognitions that think by driving a coding-agent CLI as a child process.

``ClaudeCliCognition`` runs ``claude -p --output-format stream-json``;
``CodexCliCognition`` runs ``codex exec --json``. Both run one shared turn
algorithm over one shared process runner, take the same checked constructor
options in the same order (:mod:`.options`), return results of the same shape
(:class:`CliResult`, subclassed per CLI) and report failures with one typed
error and vocabulary (:class:`CliError`, :data:`ErrorCode`; the table is
``docs/cli/errors.md``), so a caller reads a claude run and a codex run the
same way and tests can swap either CLI for its double (``agentkit.fakes.cli``)
through the ``spawn=`` seam; :func:`default_spawn` is the real spawn they use
when given none.

Exported here is what a caller handles: the two cognitions, their sessions,
their results and the errors. Each CLI lives in its own subpackage,
:mod:`.claude` and :mod:`.codex`, which exports the events a result carries,
with the same module shape and the same names for the same things:

* ``argv`` -- ``build_argv``: the argv of one spawn;
* ``events`` -- ``map_event``: one stdout object -> a typed event (raising
  the shared ``EventError`` for an object that breaks the schema);
* ``result`` -- ``ClaudeCliResult`` / ``CodexCliResult``;
* ``cognition`` -- the cognition and its session;
* ``_turn`` and ``_usage`` (internal) -- the fold of one turn's events with
  the CLI's own failure verdict, and the rule that settles what a turn is
  charged from figures that are partly running totals.

How a child is run is internal: ``_runner`` (``CliProcess``, which reads one
child line by line and always ends it, and its figures) and ``_spawn`` (the
real spawn and the process class it returns).
"""

from agentkit.agents.cognition._spawn import default_spawn as default_spawn
from agentkit.agents.cognition.claude.cognition import ClaudeCliCognition as ClaudeCliCognition
from agentkit.agents.cognition.claude.cognition import ClaudeCliSession as ClaudeCliSession
from agentkit.agents.cognition.claude.result import ClaudeCliResult as ClaudeCliResult
from agentkit.agents.cognition.codex.cognition import CodexCliCognition as CodexCliCognition
from agentkit.agents.cognition.codex.cognition import CodexCliSession as CodexCliSession
from agentkit.agents.cognition.codex.result import CodexCliResult as CodexCliResult
from agentkit.agents.cognition.errors import CliError as CliError
from agentkit.agents.cognition.errors import ErrorCode as ErrorCode
from agentkit.agents.cognition.errors import ErrorKind as ErrorKind
from agentkit.agents.cognition.result import CliResult as CliResult
from agentkit.agents.cognition.result import EventProblem as EventProblem
from agentkit.agents.cognition.result import SkippedLine as SkippedLine
from agentkit.agents.cognition.result import SkipReason as SkipReason
from agentkit.agents.cognition.session import CliSession as CliSession
from agentkit.agents.cognition.session import SessionStateError as SessionStateError

__all__ = [
    "default_spawn",
    "ClaudeCliCognition",
    "ClaudeCliSession",
    "ClaudeCliResult",
    "CodexCliCognition",
    "CodexCliSession",
    "CodexCliResult",
    "CliError",
    "ErrorCode",
    "ErrorKind",
    "CliResult",
    "EventProblem",
    "SkippedLine",
    "SkipReason",
    "CliSession",
    "SessionStateError",
]
