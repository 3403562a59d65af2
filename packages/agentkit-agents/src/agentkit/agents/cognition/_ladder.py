"""The error ladder: which single :class:`CliError` describes a turn, for both CLIs.

A turn that went wrong usually went wrong in several ways at once -- the
child was killed, so stdout was cut off, so there is no terminal event, so
the exit code is -15. The caller gets ONE code, the most specific cause,
decided here from facts each CLI's fold and the process runner supply, so
the same fault gives the same code from claude and codex. Top rung first:

1. ``timeout`` / ``cancelled`` / ``session_closed``: the cognition stopped
   the child, or could not talk to it; nothing the stream says afterwards is
   the CLI's verdict.
2. ``session_mismatch``: a resumed turn announced another session / thread.
3. ``invalid_usage``: the terminal event's usage cannot be charged.
4. The CLI's own failure verdict (claude's ``is_error`` result, codex's
   ``turn.failed``), as the CLI module names it.
5. No terminal event: ``mcp_server_failed`` if the child exited non-zero
   saying a required MCP server did not start (codex), else ``cli_exit_<n>`` /
   ``cli_signal_<n>`` if it exited non-zero (stderr explains it), else
   ``incomplete_run`` -- also when
   the child closed its output and then lingered until the runner stopped it
   (the signal it died of is the runner's, and the message says so).
6. A terminal success but a non-zero exit: ``cli_exit_<n>`` -- trust both
   (unless the child only lingered after its output was complete and was
   stopped: that is cleanup).
7. A line of the turn could not be read, before or after the terminal event,
   with or without a final newline: ``line_too_long`` for an over-limit
   line, else ``invalid_json`` -- the first such line decides.
8. An object broke the event schema: ``invalid_event``.
9. No cost could be established: ``unpriced``.

The table of codes is ``docs/cli/errors.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agentkit.agents.cognition.errors import CliError, ErrorCode, exit_code_error
from agentkit.agents.cognition.result import EventProblem, SkippedLine

__all__ = ["TurnFacts", "decide", "recognised_kind", "status_kind", "stderr_headline"]

_UNREADABLE = frozenset({"invalid_json", "too_long", "truncated"})
_HEADLINE_LIMIT = 300


# The error kind a CLI's failure text implies when the CLI names none itself
# (docs/cli/pitfalls.md). Matched in lower case, with typographic apostrophes folded to ASCII.
_TEXT_KINDS: tuple[tuple[str, ErrorCode], ...] = (
    ("not logged in", "authentication_failed"),
    ("invalid api key", "authentication_failed"),
    ("oauth token has expired", "authentication_failed"),
    ("credit balance is too low", "billing_error"),
    ("usage limit reached", "rate_limit"),
    ("you've hit your limit", "rate_limit"),
    ("you've hit your session limit", "rate_limit"),
    ("prompt is too long", "prompt_too_long"),
)
_STATUS_KINDS: Mapping[int, ErrorCode] = {
    400: "invalid_request",
    401: "authentication_failed",
    403: "authentication_failed",
    404: "invalid_request",
    413: "request_too_large",
    429: "rate_limit",
    529: "overloaded",
}


def status_kind(status: int | None) -> ErrorCode | None:
    """The code an HTTP status of a failed API call implies (None: no status, or not an error one).

    One table for both CLIs (``docs/cli/errors.md``): 401/403 credentials,
    429 rate, 529 overload, 413 request too large, other 4xx the request,
    5xx the server.
    """
    if status is None:
        return None
    if status in _STATUS_KINDS:
        return _STATUS_KINDS[status]
    if 500 <= status <= 599:
        return "server_error"
    if 400 <= status <= 499:
        return "invalid_request"
    return None


def recognised_kind(status: int | None, text: str, rejected: bool = False) -> ErrorCode | None:
    """The error kind an HTTP status, a known text or a rejected rate limit implies."""
    by_status = status_kind(status)
    if by_status is not None:
        return by_status
    if rejected:
        return "rate_limit"
    folded = text.lower().replace("\u2019", "'")
    for needle, kind in _TEXT_KINDS:
        if needle in folded:
            return kind
    return None


@dataclass(frozen=True, slots=True)
class TurnFacts:
    """Everything the ladder needs to know about one turn."""

    stopped: CliError | None
    mismatch: CliError | None
    charge_fault: CliError | None
    reported: CliError | None
    terminal: bool
    returncode: int | None
    lingered: bool
    skipped: tuple[SkippedLine, ...]
    problems: tuple[EventProblem, ...]
    unpriced: CliError | None
    stderr: str
    notes: tuple[str, ...] = ()
    """The CLI's last words before the stream ended (codex's retry notices)."""


def stderr_headline(stderr: str) -> str:
    """The line of stderr that says what went wrong, cut to one screen line.

    ``Error: ...`` / ``error: ...`` when there is one (an unknown resume id, a
    usage error), else the last non-blank line that is not a routine notice.
    """
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    chosen = ""
    for line in lines:
        if line.lower().startswith("error:"):
            chosen = line
            break
    else:
        for line in reversed(lines):
            if not line.startswith("Reading additional input from stdin"):
                chosen = line
                break
    if len(chosen) > _HEADLINE_LIMIT:
        chosen = chosen[: _HEADLINE_LIMIT - 3] + "..."
    return chosen


_MCP_STARTUP = "required mcp servers failed to initialize"
"""codex's words, on stderr, for a ``required`` MCP server that did not start (it exits 1
before the turn): the fault claude reports as a ``failed`` server status."""


def _exit_error(returncode: int, stderr: str, fallback: str) -> CliError:
    headline = stderr_headline(stderr) or fallback
    if _MCP_STARTUP in stderr.lower():
        return CliError("mcp_server_failed", headline)
    return exit_code_error(returncode, message=headline)


def _unreadable(skipped: Sequence[SkippedLine]) -> list[SkippedLine]:
    return [s for s in skipped if s.reason in _UNREADABLE]


def _decide(facts: TurnFacts) -> CliError | None:
    for fixed in (facts.stopped, facts.mismatch, facts.charge_fault, facts.reported):
        if fixed is not None:
            return fixed
    rc = facts.returncode
    if not facts.terminal:
        if rc is not None and rc != 0 and not facts.lingered:
            return _exit_error(rc, facts.stderr, "")
        message = "stdout ended without the turn's terminal event"
        if facts.lingered:
            # The exit code is the runner's own stop, not a kill from outside.
            message += (
                "; the CLI then did not exit within kill_grace and the runner stopped it"
                f" (exit code {rc})"
            )
        if any(s.reason == "truncated" for s in facts.skipped):
            message += "; its last line was truncated (cut off mid-write)"
        if facts.notes:
            message += f"; last stream error: {facts.notes[-1][:_HEADLINE_LIMIT]}"
        return CliError("incomplete_run", message)
    if rc is not None and rc != 0 and not facts.lingered:
        return _exit_error(rc, facts.stderr, f"the CLI reported success but exited with code {rc}")
    lost = _unreadable(facts.skipped)
    if lost:
        first = lost[0]
        return CliError(
            "line_too_long" if first.reason == "too_long" else "invalid_json",
            f"stdout line {first.line_no} could not be read ({first.reason}); "
            f"the turn may be missing events ({len(lost)} line(s) lost)",
        )
    if facts.problems:
        first_problem = facts.problems[0]
        return CliError(
            "invalid_event",
            f"stdout line {first_problem.line_no} broke the event schema: {first_problem.reason}",
        )
    return facts.unpriced


def decide(facts: TurnFacts, **evidence: Any) -> CliError | None:
    """The one error that describes the turn (order: module docstring), with its evidence.

    ``evidence`` goes into the error's ``details`` (argv, session id, ...),
    beside the turn's unreadable lines (``lines``, all skipped lines under
    ``skipped``) and schema problems (``problems``).
    """
    error = _decide(facts)
    if error is None:
        return None
    # A stopped turn's error already says what the runner did; the rest is the turn's.
    details: dict[str, Any] = {} if facts.stopped is not None else dict(evidence)
    lost = _unreadable(facts.skipped)
    if lost:
        details["lines"] = tuple(lost)
        details["skipped"] = facts.skipped
    if facts.problems:
        details["problems"] = facts.problems
    return error.with_evidence(stderr=facts.stderr, returncode=facts.returncode, details=details)
