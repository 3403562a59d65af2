"""One claude turn, folded from its events, and how claude reports its own failure.

Knows nothing of processes: the turn driver (:mod:`.._driver`) feeds it the
objects it read; the shared ladder (:mod:`.._ladder`) decides what the turn
amounts to. What is claude's own is here:

* the terminal event is ``result`` (a one-shot run may print several when
  turns were queued; each is charged);
* a ``control_request`` (claude asking the host: a permission prompt, a
  hook, an MCP message) cannot be answered, so it aborts the turn at once
  with ``unanswered_request`` rather than leaving it to wait for its timeout;
* the CLI's failure verdict (:meth:`ClaudeTurn.reported_error`) is an
  ``is_error`` result: the subtype when it is not ``success``
  (``error_max_turns``...), else the kit's code for the API failure
  (:mod:`.api_errors`): from the ``api_error`` name the CLI gives
  (``no_credential`` is ``authentication_failed``), else its HTTP status,
  else the assistant message's ``error`` name, else a known auth / billing /
  usage-limit text or a rejected ``rate_limit_event`` (older CLIs send only
  the text; ``docs/cli/claude.md``), else ``api_error``. The CLI's own names
  stay in the error's ``details``;
* an MCP server ``system``/``init`` reports as not connected fails an
  otherwise successful turn with ``mcp_server_failed``: claude runs on
  without that server's tools and exits 0, so the turn would pass as a
  success that never reached the tools it was configured with.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentkit.agents.cognition._driver import TurnFold
from agentkit.agents.cognition._ladder import recognised_kind, status_kind
from agentkit.agents.cognition.claude.api_errors import (
    TERMINAL_REASON_CODES,
    api_error_code,
    assistant_error_code,
)
from agentkit.agents.cognition.claude.events import (
    ClaudeAssistant,
    ClaudeEvent,
    ClaudeInit,
    ClaudeOther,
    ClaudeResult,
    ClaudeSystem,
    McpServerStatus,
    PermissionDenial,
    map_event,
)
from agentkit.agents.cognition.errors import CliError, ErrorCode

__all__ = ["ClaudeTurn"]


def _unanswered(raw: Mapping[str, Any]) -> CliError:
    """The error of a turn in which claude asked the host something (a ``control_request``).

    The cognitions offer no permission callback, hook or SDK MCP server, so
    nothing here can answer a permission prompt, a hook callback or an MCP
    message (the caller opted in to them through ``extra_args``); claude
    would wait for the answer until the turn's timeout. So the turn fails
    at once, naming what was asked.
    """
    request = raw.get("request")
    subtype = request.get("subtype") if isinstance(request, Mapping) else None
    details: dict[str, object] = {"request_id": raw.get("request_id"), "request": subtype}
    if isinstance(request, Mapping) and isinstance(request.get("tool_name"), str):
        details["tool_name"] = request["tool_name"]
    return CliError(
        "unanswered_request",
        f"claude sent a control_request ({subtype or 'unknown'}) the cognition cannot answer "
        "(a permission prompt, hook or MCP message enabled through extra_args); "
        "the CLI was stopped instead of waiting for the turn's timeout",
        details=details,
    )


def _result_details(result: ClaudeResult) -> dict[str, object]:
    """What an error result says about itself, for :attr:`CliError.details`."""
    details: dict[str, object] = {
        "subtype": result.subtype,
        "terminal_reason": result.terminal_reason,
        "api_error_status": result.api_error_status,
        "api_error": result.api_error,
        "errors": result.errors,
        "num_turns": result.num_turns,
    }
    for key in ("api_error_type", "startup_failure_reason", "auto_mode_check_block"):
        value = result.raw.get(key)
        if isinstance(value, str):
            details[key] = value
    return details


class ClaudeTurn(TurnFold[ClaudeEvent]):
    """The events of one claude turn (a one-shot run, or one session turn), folded."""

    def __init__(self) -> None:
        super().__init__()
        self.init: ClaudeInit | None = None
        self.results: list[ClaudeResult] = []
        self._last_text: str | None = None
        self._api_error: ClaudeAssistant | None = None
        self._rate_limit_rejected = False

    def _apply(self, obj: Mapping[str, Any], line_no: int) -> ClaudeEvent:
        event = map_event(obj)
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
            self.results.append(event)
            self.terminal = True
        elif isinstance(event, ClaudeOther) and event.type == "rate_limit_event":
            info = event.raw.get("rate_limit_info")
            if isinstance(info, Mapping) and info.get("status") == "rejected":
                self._rate_limit_rejected = True
        elif isinstance(event, ClaudeOther) and event.type == "control_request":
            self.abort = self.abort or _unanswered(event.raw)
        return event

    # ------------------------------------------------------------- outcome

    @property
    def result(self) -> ClaudeResult | None:
        """The turn's (last) ``result`` event."""
        return self.results[-1] if self.results else None

    @property
    def text(self) -> str:
        """The result's text when it has one, else the last assistant text."""
        result = self.result
        if result is not None and result.result is not None:
            return result.result
        return self._last_text or ""

    @property
    def session_id(self) -> str | None:
        result = self.result
        if result is not None and result.session_id:
            return result.session_id
        if self.init is not None and self.init.session_id:
            return self.init.session_id
        for event in reversed(self.events):
            sid = getattr(event, "session_id", None)
            if isinstance(sid, str) and sid:
                return sid
        return None

    @property
    def stop_reason(self) -> str | None:
        result = self.result
        return result.stop_reason if result is not None else None

    @property
    def http_status(self) -> int | None:
        result = self.result
        return result.api_error_status if result is not None else None

    @property
    def permission_denials(self) -> tuple[PermissionDenial, ...]:
        return tuple(d for r in self.results for d in r.permission_denials)

    def model(self, default: str | None) -> str:
        """The model to charge: init's resolved id, else the only modelUsage key."""
        if self.init is not None and self.init.model:
            return self.init.model
        result = self.result
        if result is not None:
            models = result.raw.get("modelUsage")
            if isinstance(models, Mapping) and len(models) == 1:
                (only,) = models
                if isinstance(only, str):
                    return only
        return default or "claude"

    @property
    def structured_output(self) -> Any:
        """``result.structured_output`` of a ``--json-schema`` run (None when absent)."""
        result = self.result
        return result.raw.get("structured_output") if result is not None else None

    @property
    def fallback_model(self) -> str | None:
        """The model a ``model_refusal_fallback`` switched the session to, if one did.

        A ``local`` fallback (a subagent, a side question) leaves the session
        model as it was; a ``revert`` goes back to the original model.
        """
        chosen: str | None = None
        for event in self.events:
            if not isinstance(event, ClaudeSystem) or event.subtype != "model_refusal_fallback":
                continue
            raw = event.raw
            if raw.get("scope") == "local":
                continue
            original = raw.get("original_model")
            fallback = raw.get("fallback_model")
            if raw.get("direction") == "revert" and isinstance(original, str) and original:
                chosen = original
            elif isinstance(fallback, str) and fallback:
                chosen = fallback
        return chosen

    @property
    def mcp_servers(self) -> tuple[McpServerStatus, ...]:
        """The MCP servers the turn's ``system``/``init`` reported, with their status."""
        return self.init.mcp_servers if self.init is not None else ()

    def _mcp_failure(self) -> CliError | None:
        failed = [s for s in self.mcp_servers if s.failed]
        if not failed:
            return None
        names = ", ".join(f"{s.name} ({s.status})" for s in failed)
        return CliError(
            "mcp_server_failed",
            f"MCP server(s) not connected: {names}; claude ran on without their tools",
            details={"mcp_servers": {s.name: s.status for s in self.mcp_servers}},
        )

    def reported_error(self) -> CliError | None:
        result = self.result
        if result is None:
            return None
        if not result.is_error:
            return self._mcp_failure()
        details = _result_details(result)
        if result.subtype and result.subtype != "success":
            message = "; ".join(result.errors) or result.result or result.subtype
            return CliError.reported(result.subtype, message, details=details)
        synthetic = self._api_error
        if synthetic is not None:
            details["assistant_error"] = synthetic.error
            if result.api_error is None and synthetic.api_error is not None:
                details["api_error"] = synthetic.api_error
        text = result.result or (synthetic.text if synthetic is not None else "")
        code = self._error_code(result, synthetic, text)
        return CliError(code, text or code, details=details)

    def _error_code(
        self, result: ClaudeResult, synthetic: ClaudeAssistant | None, text: str
    ) -> ErrorCode:
        """The code of an ``is_error`` success result: the most specific signal wins."""
        raw_kind = result.api_error or (synthetic.api_error if synthetic is not None else None)
        terminal = result.terminal_reason
        return (
            api_error_code(raw_kind)
            or status_kind(result.api_error_status)
            or assistant_error_code(synthetic.error if synthetic is not None else None)
            or recognised_kind(None, text, self._rate_limit_rejected)
            or (TERMINAL_REASON_CODES.get(terminal) if terminal is not None else None)
            or "api_error"
        )
