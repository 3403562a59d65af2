"""A CLI's stream as lines a person reads, read through the cognitions' own event types.

``python -m agentkit.fakes.cli show FILE`` prints a recording as a
transcript. The file (header, stdin and stderr marks, exit code) is
agentkit-fakes-cli's to read; what each stdout object *means* is the
cognitions' -- :func:`agentkit.agents.cognition.claude.events.map_event` and
:func:`agentkit.agents.cognition.codex.events.map_event` -- so the transcript
reads each object through them, and a CLI's schema is read in one place
only. A reader here is found by ``show`` through the
``agentkit.fakes.cli.transcript`` entry point (one per CLI), since the
doubles may not import the framework.

An object a cognition would refuse (a field of the wrong type) is shown as
refused, with the reason; an event or item a cognition keeps without
modelling it is named, with its JSON -- so a transcript never hides that
something was there. The lines are whole: ``show`` caps a long one and
indents the lines of a multi-line text, for every line it prints alike.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from agentkit.agents.cognition._fields import EventError
from agentkit.agents.cognition.claude import events as claude
from agentkit.agents.cognition.codex import events as codex

__all__ = ["ClaudeLines", "CodexLines"]


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _num(value: float | None) -> str:
    if value is None:
        return "?"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _unknown(kind: str, raw: Mapping[str, Any]) -> str:
    return f"[event {kind!r} not known to this transcript] {_compact(dict(raw))}"


def _refused(error: EventError, obj: Mapping[str, Any]) -> str:
    return f"[event the cognition refuses: {error}] {_compact(dict(obj))}"


class ClaudeLines:
    """claude ``-p --output-format stream-json``: one reader per transcript (it counts turns)."""

    def __init__(self) -> None:
        self.turn = 0
        self.in_turn = False
        self.partials = 0

    def _open_turn(self) -> Iterator[str]:
        if not self.in_turn:
            self.in_turn = True
            self.turn += 1
            yield f"--- turn {self.turn} ---"

    def flush(self) -> Iterator[str]:
        """What is held back (a count of partial-message events) before another line."""
        if self.partials:
            yield f"  ({self.partials} partial-message stream events)"
            self.partials = 0

    def stdin(self, data: bytes) -> str:
        """One write to the CLI's stdin: a stream-json user message, or what it was."""
        text = data.decode("utf-8", "replace").rstrip("\n")
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError):
            return f"stdin: {text}"
        message = obj.get("message") if isinstance(obj, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            return f"user (stdin): {content}"
        return f"stdin: {_compact(obj)}"

    def event(self, obj: Mapping[str, Any]) -> Iterator[str]:
        """One stdout object, as the claude cognition reads it."""
        try:
            event = claude.map_event(obj)
        except EventError as error:
            yield from self.flush()
            yield _refused(error, obj)
            return
        if isinstance(event, claude.ClaudeOther) and event.type == "stream_event":
            yield from self._open_turn()
            self.partials += 1
            return
        yield from self.flush()
        if isinstance(event, claude.ClaudeInit | claude.ClaudeSystem | claude.ClaudeOther):
            yield from self._outside_a_turn(event)
            return
        yield from self._open_turn()
        if isinstance(event, claude.ClaudeAssistant):
            yield from self._assistant(event)
        elif isinstance(event, claude.ClaudeUser):
            yield from self._user(event)
        else:
            yield from self._result(event)
            self.in_turn = False

    def _outside_a_turn(
        self, event: claude.ClaudeInit | claude.ClaudeSystem | claude.ClaudeOther
    ) -> Iterator[str]:
        if isinstance(event, claude.ClaudeInit):
            version = f", claude {event.version}" if event.version else ""
            yield (
                f"[system init] session {event.session_id}, model {event.model}, "
                f"{len(event.tools)} tools{version}"
            )
            for server in event.mcp_servers:
                if server.failed:
                    yield f"  MCP server {server.name}: {server.status}"
        elif isinstance(event, claude.ClaudeSystem):
            if "retry" in event.subtype:
                skip = ("type", "subtype", "uuid", "session_id")
                told = {k: v for k, v in event.raw.items() if k not in skip}
                yield f"[system {event.subtype}] {_compact(told)}"
            else:
                yield f"[system {event.subtype}]"
        elif event.type in ("control_request", "control_response"):
            inner = event.raw.get("request") or event.raw.get("response")
            subtype = inner.get("subtype", "") if isinstance(inner, Mapping) else ""
            yield f"[{event.type}] {subtype}".rstrip()
        else:
            yield _unknown(event.type, event.raw)

    def _assistant(self, event: claude.ClaudeAssistant) -> Iterator[str]:
        for block in event.blocks:
            if isinstance(block, claude.TextBlock):
                yield f"assistant: {block.text}"
            elif isinstance(block, claude.ThinkingBlock):
                yield f"thinking: {block.thinking}"
            elif isinstance(block, claude.ToolUseBlock):
                yield f"tool call {block.name} ({block.id}): {_compact(dict(block.input))}"
            else:
                kind = block.type if isinstance(block, claude.UnknownBlock) else "tool_result"
                yield f"assistant [{kind}]"
        if event.error:
            api = f" ({event.api_error})" if event.api_error else ""
            yield f"assistant error: {event.error}{api}"

    def _user(self, event: claude.ClaudeUser) -> Iterator[str]:
        replay = " (replayed)" if event.is_replay else ""
        for block in event.blocks:
            if isinstance(block, claude.ToolResultBlock):
                body = block.content
                if isinstance(body, list):
                    parts = (p.get("text", "") for p in body if isinstance(p, Mapping))
                    body = " ".join(str(p) for p in parts).strip()
                flag = " [error]" if block.is_error else ""
                yield (f"tool result ({block.tool_use_id}){flag}: {body}")
            elif isinstance(block, claude.TextBlock):
                yield f"user{replay}: {block.text}"

    def _result(self, event: claude.ClaudeResult) -> Iterator[str]:
        flag = " (is_error)" if event.is_error else ""
        yield (
            f"result {event.subtype}{flag}: {_num(event.num_turns)} turn(s), "
            f"cost ${_num(event.total_cost_usd)}"
        )
        usage = event.usage
        yield (
            f"  usage: input {usage.input_tokens}, output {usage.output_tokens}, "
            f"cache read {usage.cached_input_tokens}, cache write {usage.cache_write_tokens}"
        )
        if event.result:
            yield f"  text: {event.result}"
        if event.api_error_status is not None or event.api_error:
            yield f"  api error: {event.api_error_status or ''} {event.api_error or ''}".rstrip()
        for denial in event.permission_denials:
            yield f"  permission denied: {denial.tool_name} {_compact(dict(denial.tool_input))}"
        for error in event.errors:
            yield f"  error: {error}"


class CodexLines:
    """``codex exec --json``: one reader per transcript (it counts turns)."""

    def __init__(self) -> None:
        self.turn = 0

    def flush(self) -> Iterator[str]:
        """Nothing is held back: every codex event is shown as it comes."""
        return iter(())

    def stdin(self, data: bytes) -> str:
        """One write to the CLI's stdin (``codex exec`` reads a prompt appended there)."""
        return "stdin: " + data.decode("utf-8", "replace").rstrip("\n")

    def event(self, obj: Mapping[str, Any]) -> Iterator[str]:
        """One stdout object, as the codex cognition reads it."""
        try:
            event = codex.map_event(obj)
        except EventError as error:
            yield _refused(error, obj)
            return
        if isinstance(event, codex.ThreadStarted):
            yield f"[thread {event.thread_id}]"
        elif isinstance(event, codex.TurnStarted):
            self.turn += 1
            yield f"--- turn {self.turn} ---"
        elif isinstance(event, codex.ItemEvent):
            if event.phase == "completed":
                yield from _item(event.item)
        elif isinstance(event, codex.TurnCompleted):
            usage = event.usage
            yield (
                f"turn completed: usage input {usage.input_tokens} "
                f"(cached {usage.cached_input_tokens}), output {usage.output_tokens}, "
                f"reasoning {usage.reasoning_tokens}"
            )
        elif isinstance(event, codex.TurnFailed):
            yield f"turn failed: {event.message}"
        elif isinstance(event, codex.StreamError):
            yield f"stream error: {event.message}"
        else:
            yield _unknown(event.type, event.raw)


def _item(item: codex.CodexItem) -> Iterator[str]:
    """One completed codex item."""
    if isinstance(item, codex.AgentMessage):
        yield f"assistant: {item.text}"
    elif isinstance(item, codex.Reasoning):
        yield f"reasoning: {item.text}"
    elif isinstance(item, codex.CommandExecution):
        yield f"command ({item.status}, exit {item.exit_code}): {item.command}"
        if item.aggregated_output:
            yield f"  output: {item.aggregated_output}"
    elif isinstance(item, codex.FileChange):
        yield from (f"file change: {c.kind} {c.path}" for c in item.changes)
    elif isinstance(item, codex.McpToolCall):
        yield f"tool call {item.server}.{item.tool} ({item.status}): {_compact(item.arguments)}"
        if item.error:
            yield f"  error: {_compact(item.error)}"
        elif item.result is not None:
            yield f"  result: {_compact(dict(item.result))}"
    elif isinstance(item, codex.WebSearch):
        yield f"web search: {item.query}"
    elif isinstance(item, codex.TodoList):
        yield from (f"plan: [{'x' if e.completed else ' '}] {e.text}" for e in item.items)
    elif isinstance(item, codex.WarningItem):
        yield f"error item: {item.message}"
    else:
        yield f"item [{item.type}] {_compact(dict(item.raw))}"
