"""One claude turn, folded from its events, and what it amounts to.

Knows nothing of processes: the cognition feeds it the objects it read and,
at the end, the facts about the child (exit code, skipped lines, whether it
was stopped), and :meth:`ClaudeTurn.error` decides -- in one place -- which
single :class:`~agentkit.agents.cognition.errors.CliError` describes the
turn. The order matters and is deliberate:

1. the cognition stopped the child (``timeout`` / ``cancelled``): nothing
   the stream says afterwards is the CLI's verdict;
2. the turn's ``result`` says ``is_error``: the CLI's own code (the subtype,
   e.g. ``error_max_turns``; for ``success``+``is_error`` the API error kind,
   e.g. ``authentication_failed`` / ``connection_failed``; when the CLI names
   none, the kind its HTTP status, a known auth / billing / usage-limit text
   or a rejected ``rate_limit_event`` implies), with its texts;
3. no ``result``: ``cli_exit_<n>`` if the child exited non-zero (stderr
   explains it), else ``incomplete_run``;
4. a successful ``result`` but a non-zero exit: ``cli_exit_<n>`` -- trust
   both;
5. the stream lost a line (``line_too_long`` / ``invalid_json``) or held an
   unreadable event (``invalid_event``): the answer may rest on a missing
   tool result, so the run is not clean, though its text is kept;
6. no cost could be established (``unpriced``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agentkit.agents.cognition.claude_events import (
    ClaudeAssistant,
    ClaudeEvent,
    ClaudeEventError,
    ClaudeInit,
    ClaudeOther,
    ClaudeResult,
    map_claude_event,
)
from agentkit.agents.cognition.errors import CliError, exit_code_error
from agentkit.agents.cognition.result import SkippedLine

__all__ = ["ClaudeTurn"]

# What an is_error result means when the CLI names no error kind itself (older
# CLIs send only the text; cli-formats.md section 3, item 7). Matched in lower
# case, with typographic apostrophes folded to ASCII.
_TEXT_KINDS: tuple[tuple[str, str], ...] = (
    ("not logged in", "authentication_failed"),
    ("invalid api key", "authentication_failed"),
    ("oauth token has expired", "authentication_failed"),
    ("credit balance is too low", "billing_error"),
    ("usage limit reached", "rate_limit"),
    ("you've hit your limit", "rate_limit"),
    ("you've hit your session limit", "rate_limit"),
)
_STATUS_KINDS: Mapping[int, str] = {401: "authentication_failed", 403: "authentication_failed"}


def _recognised_kind(status: int | None, text: str, rejected: bool) -> str | None:
    """The error kind an HTTP status, a known text or a rejected rate limit implies."""
    if status is not None and status in _STATUS_KINDS:
        return _STATUS_KINDS[status]
    if status == 429 or rejected:
        return "rate_limit"
    folded = text.lower().replace("\u2019", "'")
    for needle, kind in _TEXT_KINDS:
        if needle in folded:
            return kind
    return None


class ClaudeTurn:
    """The events of one turn (a one-shot run, or one session turn), folded."""

    def __init__(self) -> None:
        self.events: list[ClaudeEvent] = []
        self.init: ClaudeInit | None = None
        self.result: ClaudeResult | None = None
        self.results = 0
        self.problems: list[str] = []
        self._last_text: str | None = None
        self._api_error: ClaudeAssistant | None = None
        self._rate_limit_rejected = False

    def feed(self, obj: Mapping[str, Any]) -> ClaudeEvent | None:
        """Map one stdout object; an unreadable one is recorded as a problem."""
        try:
            event = map_claude_event(obj)
        except ClaudeEventError as exc:
            self.problems.append(str(exc))
            return None
        self.events.append(event)
        if isinstance(event, ClaudeInit):
            self.init = event
        elif isinstance(event, ClaudeAssistant):
            text = event.text
            if text:
                self._last_text = text
            if event.is_api_error or event.error is not None:
                self._api_error = event
        elif isinstance(event, ClaudeResult):
            self.result = event
            self.results += 1
        elif isinstance(event, ClaudeOther) and event.type == "rate_limit_event":
            info = event.raw.get("rate_limit_info")
            if isinstance(info, Mapping) and info.get("status") == "rejected":
                self._rate_limit_rejected = True
        return event

    # ------------------------------------------------------------- outcome

    @property
    def text(self) -> str:
        """The result's text when it has one, else the last assistant text."""
        if self.result is not None and self.result.result is not None:
            return self.result.result
        return self._last_text or ""

    @property
    def session_id(self) -> str | None:
        if self.result is not None and self.result.session_id:
            return self.result.session_id
        if self.init is not None:
            return self.init.session_id
        for event in reversed(self.events):
            sid = getattr(event, "session_id", None)
            if isinstance(sid, str) and sid:
                return sid
        return None

    def model(self, default: str | None) -> str:
        """The model to charge: init's resolved id, else the only modelUsage key."""
        if self.init is not None and self.init.model:
            return self.init.model
        if self.result is not None:
            models = self.result.raw.get("modelUsage")
            if isinstance(models, Mapping) and len(models) == 1:
                (only,) = models
                if isinstance(only, str):
                    return only
        return default or "claude"

    def _reported_error(self, result: ClaudeResult) -> CliError:
        details: dict[str, Any] = {
            "subtype": result.subtype,
            "terminal_reason": result.terminal_reason,
            "api_error_status": result.api_error_status,
            "api_error": result.api_error,
            "errors": result.errors,
            "num_turns": result.num_turns,
        }
        api_error_type = result.raw.get("api_error_type")
        if isinstance(api_error_type, str):
            details["api_error_type"] = api_error_type
        if result.subtype and result.subtype != "success":
            message = "; ".join(result.errors) or result.result or result.subtype
            return CliError(result.subtype, message, details=details)
        synthetic = self._api_error
        if synthetic is not None:
            details["assistant_error"] = synthetic.error
        text = result.result or (synthetic.text if synthetic is not None else "")
        code = (
            result.api_error
            or (synthetic.api_error if synthetic is not None else None)
            or (synthetic.error if synthetic is not None else None)
            or _recognised_kind(result.api_error_status, text, self._rate_limit_rejected)
            or result.terminal_reason
            or "api_error"
        )
        message = text or code
        return CliError(code, message, details=details)

    def error(
        self,
        *,
        returncode: int | None,
        interrupted: CliError | None = None,
        skipped: Sequence[SkippedLine] = (),
        lingered: bool = False,
        unpriced: CliError | None = None,
        stderr: str = "",
    ) -> CliError | None:
        """The one error that describes this turn, or None (order: module docstring)."""
        evidence: dict[str, Any] = {}
        lost = [s for s in skipped if s.lost_data]
        if lost or any(s.reason == "truncated" for s in skipped):
            evidence["skipped"] = tuple(skipped)
        if self.problems:
            evidence["problems"] = tuple(self.problems)
        error = self._decide(returncode, interrupted, lost, lingered, unpriced, skipped)
        if error is None:
            return None
        return error.with_evidence(stderr=stderr, returncode=returncode, details=evidence)

    def _decide(
        self,
        returncode: int | None,
        interrupted: CliError | None,
        lost: Sequence[SkippedLine],
        lingered: bool,
        unpriced: CliError | None,
        skipped: Sequence[SkippedLine],
    ) -> CliError | None:
        if interrupted is not None:
            return interrupted
        result = self.result
        if result is not None and result.is_error:
            return self._reported_error(result)
        if result is None:
            if returncode is not None and returncode != 0:
                return exit_code_error(returncode)
            truncated = any(s.reason == "truncated" for s in skipped)
            return CliError(
                "incomplete_run",
                "stdout ended without the turn's result event"
                + ("; its last line was truncated mid-write" if truncated else ""),
            )
        if returncode is not None and returncode != 0 and not lingered:
            return exit_code_error(
                returncode, message=f"the CLI reported success but exited with code {returncode}"
            )
        if lost:
            code = "line_too_long" if any(s.reason == "too_long" for s in lost) else "invalid_json"
            return CliError(code, f"{len(lost)} stdout line(s) could not be read")
        if self.problems:
            return CliError("invalid_event", "; ".join(self.problems))
        return unpriced
