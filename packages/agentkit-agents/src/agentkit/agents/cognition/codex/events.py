"""The ``codex exec --json`` event stream, mapped to typed events -- no processes here.

Pure on purpose: everything the codex cognition believes about a turn is
decided from the objects the CLI printed, so each decision can be tested
object by object without spawning anything. Framing -- splitting stdout on
``\\n``, skipping blank and non-JSON lines, telling a truncated last line from
a corrupt one -- is NOT done here: the shared runner
(:meth:`~agentkit.agents.cognition._runner.CliProcess.next_object`) does it
for both CLIs and records every line it skipped.

The format is Codex 0.171.0's ``ThreadEvent`` (unchanged since 0.163.0) (``docs/cli/codex.md``): one
JSON object per line, discriminated by ``type``.

* **Forward compatibility.** Codex adds event and item types constantly, so an
  unknown ``type`` is kept (as :class:`UnknownEvent` / :class:`UnknownItem`,
  raw payload and all), never an error. Only discriminators and ids are
  required; every other field is optional -- but one that is present with the
  wrong type makes the object an event problem, under the strict field rules
  both CLIs share.
* **A turn ends with exactly one terminal event**, ``turn.completed`` or
  ``turn.failed`` (:mod:`._turn`). A top-level ``error`` event is a retry
  notice and never fails a turn by itself; an ``error`` *item* is a warning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from agentkit.agents.cognition._fields import (
    EMPTY,
    EventError,
    opt_bool,
    opt_int,
    opt_mapping,
    opt_str,
    req_str,
    view,
)
from agentkit.agents.cognition.codex._usage import parse_usage
from agentkit.core.pricing import RawUsage

__all__ = [
    "AgentMessage",
    "CodexEvent",
    "CodexItem",
    "CommandExecution",
    "EventError",
    "FileChange",
    "FileChangeEntry",
    "ItemEvent",
    "ItemPhase",
    "McpToolCall",
    "Reasoning",
    "StreamError",
    "TodoEntry",
    "TodoList",
    "TurnCompleted",
    "TurnFailed",
    "TurnStarted",
    "ThreadStarted",
    "UnknownEvent",
    "UnknownItem",
    "WarningItem",
    "WebSearch",
    "map_event",
]

ItemPhase = Literal["started", "updated", "completed"]

_PHASES: Mapping[str, ItemPhase] = {
    "item.started": "started",
    "item.updated": "updated",
    "item.completed": "completed",
}


# --------------------------------------------------------------------- items


@dataclass(frozen=True, slots=True)
class AgentMessage:
    """What the agent said. The turn's answer is the last completed one."""

    id: str
    text: str


@dataclass(frozen=True, slots=True)
class Reasoning:
    """A reasoning summary (``**Running the command**``)."""

    id: str
    text: str


@dataclass(frozen=True, slots=True)
class CommandExecution:
    """A shell command codex ran; ``exit_code`` is None while it runs."""

    id: str
    command: str
    aggregated_output: str = ""
    exit_code: int | None = None
    status: str | None = None


@dataclass(frozen=True, slots=True)
class FileChangeEntry:
    """One file of a patch and what happened to it (``add``, ``delete``, ``update``)."""

    path: str
    kind: str


@dataclass(frozen=True, slots=True)
class FileChange:
    """A patch codex applied (or failed to: declined patches come back ``failed``)."""

    id: str
    changes: tuple[FileChangeEntry, ...] = ()
    status: str | None = None


@dataclass(frozen=True, slots=True)
class McpToolCall:
    """A call to an MCP server's tool; ``error`` is the failure message, if any."""

    id: str
    server: str
    tool: str
    arguments: Any = None
    result: Mapping[str, Any] | None = None
    error: str | None = None
    status: str | None = None


@dataclass(frozen=True, slots=True)
class WebSearch:
    """A web search codex ran.

    ``action`` is what the search did, as codex describes it (``{"type":
    "search", "query": ...}``, ``open_page`` with a ``url``, ``find_in_page``
    ...; newer builds only), kept as sent; None when absent.
    """

    id: str
    query: str = ""
    action: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class TodoEntry:
    """One step of codex's plan."""

    text: str
    completed: bool = False


@dataclass(frozen=True, slots=True)
class TodoList:
    """codex's plan, re-sent whole as it changes."""

    id: str
    items: tuple[TodoEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class WarningItem:
    """An ``error`` ITEM: a non-fatal warning (model rerouted, transport fallback)."""

    id: str
    message: str


@dataclass(frozen=True, slots=True)
class UnknownItem:
    """An item type this version does not know; kept whole, never an error."""

    id: str
    type: str
    raw: Mapping[str, Any] = field(default_factory=lambda: EMPTY)


CodexItem = (
    AgentMessage
    | Reasoning
    | CommandExecution
    | FileChange
    | McpToolCall
    | WebSearch
    | TodoList
    | WarningItem
    | UnknownItem
)


# -------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class ThreadStarted:
    """The thread id -- what a later ``codex exec ... resume <id>`` continues."""

    thread_id: str


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A turn began (after any configuration warnings)."""


@dataclass(frozen=True, slots=True)
class ItemEvent:
    """An item's snapshot as it started, changed or completed (the same id each time)."""

    phase: ItemPhase
    item: CodexItem


@dataclass(frozen=True, slots=True)
class StreamError:
    """A top-level ``error`` event: a retry notice, NOT terminal by itself."""

    message: str


@dataclass(frozen=True, slots=True)
class TurnCompleted:
    """The turn succeeded. ``usage`` is the THREAD's cumulative total, raw."""

    usage: RawUsage


@dataclass(frozen=True, slots=True)
class TurnFailed:
    """The turn failed: the CLI's message (an HTTP status in it picks the error code)."""

    message: str


@dataclass(frozen=True, slots=True)
class UnknownEvent:
    """An event type this version does not know; kept whole, never an error."""

    type: str
    raw: Mapping[str, Any] = field(default_factory=lambda: EMPTY)


CodexEvent = (
    ThreadStarted
    | TurnStarted
    | ItemEvent
    | StreamError
    | TurnCompleted
    | TurnFailed
    | UnknownEvent
)


def _text(obj: Mapping[str, Any], key: str, where: str) -> str:
    return opt_str(obj, key, where) or ""


def _list(obj: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise EventError(f"{where}: {key!r} must be a list, got {type(value).__name__}")
    return value


def _entries(obj: Mapping[str, Any], key: str, where: str) -> list[Mapping[str, Any]]:
    entries = _list(obj, key, where)
    for entry in entries:
        if not isinstance(entry, Mapping):
            raise EventError(f"{where}: every {key!r} entry must be an object")
    return entries


def _message(value: object, where: str) -> str | None:
    """An error given as ``{"message": ...}``, as a bare string, or null."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return _text(value, "message", where)
    raise EventError(f"{where}: 'error' must be an object, a string or null")


def _map_item(obj: Any) -> CodexItem:
    if not isinstance(obj, Mapping):
        raise EventError(f"'item' must be an object, got {type(obj).__name__}")
    item_id = req_str(obj, "id", "an item")
    kind = req_str(obj, "type", "an item")
    where = f"item {kind}"
    if kind == "agent_message":
        return AgentMessage(item_id, _text(obj, "text", where))
    if kind == "reasoning":
        return Reasoning(item_id, _text(obj, "text", where))
    if kind == "command_execution":
        return CommandExecution(
            item_id,
            _text(obj, "command", where),
            _text(obj, "aggregated_output", where),
            opt_int(obj, "exit_code", where),
            opt_str(obj, "status", where),
        )
    if kind == "file_change":
        changes = tuple(
            FileChangeEntry(_text(c, "path", where), _text(c, "kind", where))
            for c in _entries(obj, "changes", where)
        )
        return FileChange(item_id, changes, opt_str(obj, "status", where))
    if kind == "mcp_tool_call":
        result = opt_mapping(obj, "result", where)
        return McpToolCall(
            item_id,
            _text(obj, "server", where),
            _text(obj, "tool", where),
            obj.get("arguments"),
            view(result) if result is not None else None,
            _message(obj.get("error"), where),
            opt_str(obj, "status", where),
        )
    if kind == "web_search":
        action = opt_mapping(obj, "action", where)
        return WebSearch(
            item_id, _text(obj, "query", where), view(action) if action is not None else None
        )
    if kind == "todo_list":
        todos = tuple(
            TodoEntry(_text(e, "text", where), opt_bool(e, "completed", where) is True)
            for e in _entries(obj, "items", where)
        )
        return TodoList(item_id, todos)
    if kind == "error":
        return WarningItem(item_id, _text(obj, "message", where))
    return UnknownItem(item_id, kind, view(obj))


def map_event(obj: Mapping[str, Any]) -> CodexEvent:
    """One decoded JSON object -> one :data:`CodexEvent`.

    Raises :class:`EventError` when a discriminator or an id is missing or
    mistyped, or a present field has the wrong type.
    """
    kind = req_str(obj, "type", "an event")
    if kind == "thread.started":
        return ThreadStarted(req_str(obj, "thread_id", "thread.started"))
    if kind == "turn.started":
        return TurnStarted()
    phase = _PHASES.get(kind)
    if phase is not None:
        return ItemEvent(phase, _map_item(obj.get("item")))
    if kind == "error":
        return StreamError(_text(obj, "message", "error"))
    if kind == "turn.completed":
        return TurnCompleted(parse_usage(obj.get("usage")))
    if kind == "turn.failed":
        return TurnFailed(_message(obj.get("error"), "turn.failed") or "")
    return UnknownEvent(kind, view(obj))
