"""One codex turn, folded from its events, and how codex reports its own failure.

Knows nothing of processes: the turn driver (:mod:`.._driver`) feeds it the
objects it read; the shared ladder (:mod:`.._ladder`) decides what the turn
amounts to. What is codex's own is here:

* the terminal event is ``turn.completed`` or ``turn.failed``, exactly one; a
  second one, or a second ``thread.started`` naming another thread, is an
  event problem;
* ``turn.completed.usage`` is the THREAD's running total, raw; turning it
  into this turn's charge is :mod:`._usage`'s job;
* the CLI's failure verdict (:meth:`CodexTurn.reported_error`) is
  ``turn.failed``: its message, and the code an HTTP status in it implies
  (``unexpected status 401 Unauthorized`` is ``authentication_failed``, 429
  ``rate_limit``, 5xx ``server_error``; a raw JSON error body is how codex
  reports a 400, ``invalid_request``), else ``turn_failed``; the ``error``
  events printed before it stay in ``details["stream_errors"]``;
* top-level ``error`` events are retry notices (the last one explains an
  incomplete run), ``error`` items are warnings: neither fails the turn --
  but codex that cannot reach the API prints ``Reconnecting...`` notices
  forever and never ends the turn itself, so once it has been reconnecting
  for ``reconnect_window`` seconds with no progress the turn ends
  ``connection_failed`` (:attr:`CodexTurn.deadline`).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from typing import Any

from agentkit.agents.cognition._driver import TurnFold
from agentkit.agents.cognition._fields import EventError
from agentkit.agents.cognition._ladder import status_kind
from agentkit.agents.cognition.codex.events import (
    AgentMessage,
    CodexEvent,
    CodexItem,
    ItemEvent,
    StreamError,
    ThreadStarted,
    TurnCompleted,
    TurnFailed,
    WarningItem,
    map_event,
)
from agentkit.agents.cognition.errors import CliError, ErrorCode
from agentkit.core.pricing import RawUsage

__all__ = ["CodexTurn"]

_HTTP_STATUS = re.compile(r"\bunexpected status (\d{3})\b")


class CodexTurn(TurnFold[CodexEvent]):
    """The events of one ``codex exec --json`` stream, folded.

    ``resume`` is the thread the turn resumed, if any: the turn's session id
    until (and unless) the stream announces one.
    """

    def __init__(self, resume: str | None = None, reconnect_window: float | None = None) -> None:
        super().__init__()
        self.resume = resume
        self.reconnect_window = reconnect_window
        self._reconnecting_since: float | None = None
        self.thread_id: str | None = None
        """The thread id the stream announced (None: it announced none)."""
        self.terminal_event: TurnCompleted | TurnFailed | None = None
        self.stream_errors: list[str] = []
        self.warnings: list[str] = []

    def _apply(self, obj: Mapping[str, Any], line_no: int) -> CodexEvent:
        event = map_event(obj)
        if isinstance(event, ThreadStarted):
            if self.thread_id is not None and self.thread_id != event.thread_id:
                raise EventError(
                    f"a second thread.started names another thread "
                    f"({event.thread_id!r} after {self.thread_id!r})"
                )
            self.thread_id = event.thread_id
        elif isinstance(event, TurnCompleted | TurnFailed):
            if self.terminal_event is not None:
                raise EventError("a second terminal event after the turn had ended")
            self.terminal_event = event
            self.terminal = True
        if isinstance(event, StreamError):
            self.stream_errors.append(event.message)
            if self._reconnecting_since is None and event.message.startswith("Reconnecting"):
                self._reconnecting_since = time.monotonic()
        elif isinstance(event, ItemEvent) and isinstance(event.item, WarningItem):
            if event.phase == "completed":
                self.warnings.append(event.item.message)
        else:
            self._reconnecting_since = None  # progress: the connection came back
        self.events.append(event)
        return event

    @property
    def deadline(self) -> float | None:
        """While codex is reconnecting: when its ``reconnect_window`` runs out."""
        if self._reconnecting_since is None or self.reconnect_window is None or self.terminal:
            return None
        return self._reconnecting_since + self.reconnect_window

    def expired(self) -> CliError:
        last = self.stream_errors[-1] if self.stream_errors else ""
        return CliError(
            "connection_failed",
            f"codex could not reach the model API: still reconnecting after "
            f"{self.reconnect_window:g} s (reconnect_window), with no end of its own; "
            f"the CLI was stopped. Last notice: {last[:300]}",
            details={
                "reconnect_window": self.reconnect_window,
                "stream_errors": tuple(self.stream_errors),
            },
        )

    # ------------------------------------------------------------- outcome

    @property
    def completed(self) -> bool:
        return isinstance(self.terminal_event, TurnCompleted)

    @property
    def failed(self) -> TurnFailed | None:
        event = self.terminal_event
        return event if isinstance(event, TurnFailed) else None

    @property
    def usage(self) -> RawUsage | None:
        """The thread's running total from ``turn.completed`` (raw, inclusive)."""
        event = self.terminal_event
        return event.usage if isinstance(event, TurnCompleted) else None

    @property
    def items(self) -> tuple[CodexItem, ...]:
        """Completed items, in order (started/updated snapshots are in ``events``)."""
        return tuple(
            e.item for e in self.events if isinstance(e, ItemEvent) and e.phase == "completed"
        )

    @property
    def messages(self) -> tuple[str, ...]:
        return tuple(i.text for i in self.items if isinstance(i, AgentMessage))

    @property
    def text(self) -> str:
        """The turn's answer: the LAST completed agent message (the SDK's finalResponse)."""
        messages = self.messages
        return messages[-1] if messages else ""

    @property
    def session_id(self) -> str | None:
        return self.thread_id or self.resume

    @property
    def http_status(self) -> int | None:
        failed = self.failed
        if failed is None:
            return None
        match = _HTTP_STATUS.search(failed.message)
        if match:
            return int(match.group(1))
        if _error_body(failed.message) is not None:
            # codex prints the API's raw JSON error body, without the status,
            # only for a 400 Bad Request; every other status is "unexpected status N".
            return 400
        return None

    @property
    def notes(self) -> tuple[str, ...]:
        return tuple(self.stream_errors)

    def reported_error(self) -> CliError | None:
        failed = self.failed
        if failed is None:
            return None
        status = self.http_status
        details: dict[str, object] = {"turn_failed": failed.message}
        if status is not None:
            details["http_status"] = status
        body = _error_body(failed.message)
        if body is not None:
            for key in ("type", "code", "message"):
                value = body.get(key)
                if isinstance(value, str):
                    details[f"api_error_{key}"] = value
        if self.stream_errors:
            details["stream_errors"] = tuple(self.stream_errors)
        message = failed.message or "codex reported turn.failed"
        kind: ErrorCode | None = None
        if body is not None and body.get("code") == "context_length_exceeded":
            kind = "prompt_too_long"
        kind = kind or status_kind(status)
        return CliError(kind or "turn_failed", message, details=details)


def _error_body(message: str) -> Mapping[str, Any] | None:
    """The ``error`` object of an API error body codex passed on verbatim, if it is one."""
    text = message.strip()
    if not text.startswith("{"):
        return None
    try:
        parsed = json.loads(text)
    except ValueError:
        return None
    error = parsed.get("error") if isinstance(parsed, dict) else None
    return error if isinstance(error, dict) else None
