"""The ``codex exec --json`` event stream, mapped and folded -- no processes here.

Pure on purpose: everything the codex cognition believes about a turn is
decided from the objects the CLI printed, so each decision can be tested
object by object without spawning anything. Framing -- splitting stdout on
``\\n``, skipping blank and non-JSON lines, telling a truncated last line from
a corrupt one -- is NOT done here: the shared runner
(:meth:`~agentkit.agents.cognition.process.CliProcess.next_object`) does it
for both CLIs and records every line it skipped.

The format is Codex 0.163.0's ``ThreadEvent`` (``cli-formats.md`` §2): one
JSON object per line, discriminated by ``type``. Two rules shape this module:

* **Forward compatibility.** Codex adds event and item types constantly, so an
  unknown ``type`` is kept (as :class:`UnknownEvent` / :class:`UnknownItem`,
  raw payload and all), never an error. Only discriminators and ids are
  required; every other field is optional. An object that breaks one of the
  required parts is a :class:`CodexLineProblem`, never silently dropped.
* **A turn ends with exactly one terminal event.** ``turn.completed`` or
  ``turn.failed``; a stream without one is incomplete whatever the exit code
  says. A top-level ``error`` event is a retry notice (``Reconnecting... 2/5``)
  and never fails a turn by itself, and an ``error`` *item* is a warning.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from agentkit.core.pricing import RawUsage

__all__ = [
    "AgentMessage",
    "CodexEvent",
    "CodexEventError",
    "CodexItem",
    "CodexLineProblem",
    "CodexTurn",
    "CodexTurnFold",
    "CommandExecution",
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
    "parse_usage",
]

ItemPhase = Literal["started", "updated", "completed"]

_PHASES: Mapping[str, ItemPhase] = {
    "item.started": "started",
    "item.updated": "updated",
    "item.completed": "completed",
}


def _frozen(value: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(value))


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
    id: str
    query: str = ""


@dataclass(frozen=True, slots=True)
class TodoEntry:
    text: str
    completed: bool = False


@dataclass(frozen=True, slots=True)
class TodoList:
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
    raw: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


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
    pass


@dataclass(frozen=True, slots=True)
class ItemEvent:
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
    message: str


@dataclass(frozen=True, slots=True)
class UnknownEvent:
    """An event type this version does not know; kept whole, never an error."""

    type: str
    raw: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


CodexEvent = (
    ThreadStarted
    | TurnStarted
    | ItemEvent
    | StreamError
    | TurnCompleted
    | TurnFailed
    | UnknownEvent
)


class CodexEventError(ValueError):
    """A decoded JSON object breaks the schema where the schema is not optional.

    That is: a missing or mistyped discriminator or id, or a usage figure that
    is not a count. Everything else in the format is optional.
    """


# ------------------------------------------------------------------ mapping


def _opt_str(obj: Mapping[str, Any], key: str, default: str = "") -> str:
    value = obj.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise CodexEventError(f"{key!r} must be a string, got {value!r}")
    return value


def _opt_int(obj: Mapping[str, Any], key: str) -> int | None:
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise CodexEventError(f"{key!r} must be an integer or null, got {value!r}")
    return value


def _req_str(obj: Mapping[str, Any], key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not value:
        raise CodexEventError(f"{where} needs a non-empty string {key!r}, got {value!r}")
    return value


def parse_usage(obj: Any) -> RawUsage:
    """``turn.completed.usage`` -> :class:`RawUsage`, still in Codex's convention.

    Every field is optional (older builds send three of the five), but a field
    that is present must be a non-negative integer: a usage figure that is not
    a count is a broken stream, and defaulting it to 0 would bill it as free.
    """
    if obj is None:
        return RawUsage()
    if not isinstance(obj, Mapping):
        raise CodexEventError(f"'usage' must be an object, got {obj!r}")

    def count(key: str) -> int:
        value = _opt_int(obj, key)
        if value is None:
            return 0
        if value < 0:
            raise CodexEventError(f"usage {key!r} must be >= 0, got {value}")
        return value

    return RawUsage(
        input_tokens=count("input_tokens"),
        cached_input_tokens=count("cached_input_tokens"),
        cache_write_tokens=count("cache_write_input_tokens"),
        output_tokens=count("output_tokens"),
        reasoning_tokens=count("reasoning_output_tokens"),
    )


def _map_item(obj: Any) -> CodexItem:
    if not isinstance(obj, Mapping):
        raise CodexEventError(f"'item' must be an object, got {obj!r}")
    item_id = _req_str(obj, "id", "an item")
    kind = _req_str(obj, "type", "an item")
    if kind == "agent_message":
        return AgentMessage(item_id, _opt_str(obj, "text"))
    if kind == "reasoning":
        return Reasoning(item_id, _opt_str(obj, "text"))
    if kind == "command_execution":
        return CommandExecution(
            item_id,
            _opt_str(obj, "command"),
            _opt_str(obj, "aggregated_output"),
            _opt_int(obj, "exit_code"),
            _status(obj),
        )
    if kind == "file_change":
        raw_changes = obj.get("changes") or ()
        if not isinstance(raw_changes, list | tuple):
            raise CodexEventError(f"file_change 'changes' must be a list, got {raw_changes!r}")
        changes = []
        for change in raw_changes:
            if not isinstance(change, Mapping):
                raise CodexEventError(f"a file_change entry must be an object, got {change!r}")
            changes.append(FileChangeEntry(_opt_str(change, "path"), _opt_str(change, "kind")))
        return FileChange(item_id, tuple(changes), _status(obj))
    if kind == "mcp_tool_call":
        result = obj.get("result")
        error = obj.get("error")
        if isinstance(error, Mapping):
            error_text: str | None = _opt_str(error, "message")
        elif error is None:
            error_text = None
        else:
            error_text = str(error)
        return McpToolCall(
            item_id,
            _opt_str(obj, "server"),
            _opt_str(obj, "tool"),
            obj.get("arguments"),
            _frozen(result) if isinstance(result, Mapping) else None,
            error_text,
            _status(obj),
        )
    if kind == "web_search":
        return WebSearch(item_id, _opt_str(obj, "query"))
    if kind == "todo_list":
        raw_items = obj.get("items") or ()
        if not isinstance(raw_items, list | tuple):
            raise CodexEventError(f"todo_list 'items' must be a list, got {raw_items!r}")
        todos = []
        for entry in raw_items:
            if not isinstance(entry, Mapping):
                raise CodexEventError(f"a todo_list entry must be an object, got {entry!r}")
            todos.append(TodoEntry(_opt_str(entry, "text"), bool(entry.get("completed"))))
        return TodoList(item_id, tuple(todos))
    if kind == "error":
        return WarningItem(item_id, _opt_str(obj, "message"))
    return UnknownItem(item_id, kind, _frozen(obj))


def _status(obj: Mapping[str, Any]) -> str | None:
    status = obj.get("status")
    return status if isinstance(status, str) else None


def map_event(obj: Mapping[str, Any]) -> CodexEvent:
    """One decoded JSON object -> one :data:`CodexEvent`.

    Raises :class:`CodexEventError` when a discriminator or an id is
    missing or mistyped; those are the only fields the format makes mandatory.
    """
    kind = obj.get("type")
    if not isinstance(kind, str) or not kind:
        raise CodexEventError(f"an event needs a non-empty string 'type', got {kind!r}")
    if kind == "thread.started":
        return ThreadStarted(_req_str(obj, "thread_id", "thread.started"))
    if kind == "turn.started":
        return TurnStarted()
    phase = _PHASES.get(kind)
    if phase is not None:
        return ItemEvent(phase, _map_item(obj.get("item")))
    if kind == "error":
        return StreamError(_opt_str(obj, "message"))
    if kind == "turn.completed":
        return TurnCompleted(parse_usage(obj.get("usage")))
    if kind == "turn.failed":
        error = obj.get("error")
        if isinstance(error, Mapping):
            return TurnFailed(_opt_str(error, "message"))
        if error is None:
            return TurnFailed("")
        return TurnFailed(str(error))
    return UnknownEvent(kind, _frozen(obj))


# ---------------------------------------------------------------- the fold


@dataclass(frozen=True, slots=True)
class CodexLineProblem:
    """An object that broke the schema: its stdout line, why, and the object itself.

    ``text`` is the object re-serialised compactly (the runner hands over
    parsed objects), so the report keeps every field the CLI sent.
    """

    line_no: int
    reason: str
    text: str


@dataclass(frozen=True, slots=True)
class CodexTurn:
    """Everything one ``codex exec --json`` stream said, folded.

    ``terminal`` is the one ``turn.completed`` / ``turn.failed`` (None: the
    stream ended without one -- an incomplete run). ``usage`` is the raw,
    thread-CUMULATIVE figure from ``turn.completed``; turning it into this
    turn's charge is the cognition's job (it knows the previous total).
    """

    thread_id: str | None = None
    events: tuple[CodexEvent, ...] = ()
    terminal: TurnCompleted | TurnFailed | None = None
    stream_errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    problems: tuple[CodexLineProblem, ...] = ()

    @property
    def completed(self) -> bool:
        return isinstance(self.terminal, TurnCompleted)

    @property
    def failed(self) -> TurnFailed | None:
        return self.terminal if isinstance(self.terminal, TurnFailed) else None

    @property
    def usage(self) -> RawUsage | None:
        return self.terminal.usage if isinstance(self.terminal, TurnCompleted) else None

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


class CodexTurnFold:
    """Feeds one turn's decoded stdout objects in; :meth:`result` folds them.

    The fold never raises on stream content: an object that breaks the schema
    becomes a :class:`CodexLineProblem`, so the caller can keep reading to EOF
    (and read stderr once, there) and decide what the turn amounts to with
    every fact in hand.
    """

    def __init__(self) -> None:
        self._count = 0
        self._thread_id: str | None = None
        self._events: list[CodexEvent] = []
        self._terminal: TurnCompleted | TurnFailed | None = None
        self._stream_errors: list[str] = []
        self._warnings: list[str] = []
        self._problems: list[CodexLineProblem] = []

    def feed(self, obj: Mapping[str, Any], *, line_no: int | None = None) -> CodexEvent | None:
        """Consume one object; return the event it mapped to (None if it broke the schema).

        ``line_no`` is the object's stdout line number, for the problem report;
        without it, objects are numbered in the order fed.
        """
        self._count += 1
        where = self._count if line_no is None else line_no
        try:
            event = map_event(obj)
        except CodexEventError as exc:
            self._problem(where, str(exc), obj)
            return None
        return event if self._apply(event, where, obj) else None

    def feed_all(self, objects: Iterable[Mapping[str, Any]]) -> CodexTurnFold:
        for obj in objects:
            self.feed(obj)
        return self

    def _problem(self, line_no: int, reason: str, obj: Mapping[str, Any]) -> None:
        text = json.dumps(dict(obj), ensure_ascii=False, separators=(",", ":"), default=repr)
        self._problems.append(CodexLineProblem(line_no, reason, text))

    def _apply(self, event: CodexEvent, line_no: int, obj: Mapping[str, Any]) -> bool:
        if isinstance(event, ThreadStarted):
            if self._thread_id is not None and self._thread_id != event.thread_id:
                self._problem(
                    line_no,
                    f"a second thread.started names another thread "
                    f"({event.thread_id!r} after {self._thread_id!r})",
                    obj,
                )
                return False
            self._thread_id = event.thread_id
        elif isinstance(event, TurnCompleted | TurnFailed):
            if self._terminal is not None:
                self._problem(line_no, "a second terminal event after the turn had ended", obj)
                return False
            self._terminal = event
        elif isinstance(event, StreamError):
            self._stream_errors.append(event.message)
        elif (
            isinstance(event, ItemEvent)
            and isinstance(event.item, WarningItem)
            and event.phase == "completed"
        ):
            self._warnings.append(event.item.message)
        self._events.append(event)
        return True

    def result(self) -> CodexTurn:
        return CodexTurn(
            thread_id=self._thread_id,
            events=tuple(self._events),
            terminal=self._terminal,
            stream_errors=tuple(self._stream_errors),
            warnings=tuple(self._warnings),
            problems=tuple(self._problems),
        )
