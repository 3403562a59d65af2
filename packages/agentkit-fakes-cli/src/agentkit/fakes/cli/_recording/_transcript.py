"""A recording as a transcript a person reads: turns, tool calls, usage, errors, exit code.

A recording is diff-friendly but not reader-friendly: a claude init line is
several kilobytes of tool names, and a failed codex turn's reason sits three
keys deep. ``python -m agentkit.fakes.cli show FILE`` prints what happened,
one line per thing that happened, in stream order -- stdin messages and
stderr chunks at the point where they were written. Events this module does
not know (a newer CLI's) are named, not dropped, so the transcript never
hides that something was there.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator, Mapping
from typing import Any

from agentkit.fakes.cli._recording._format import Recording, stream_parts

__all__ = ["transcript"]

_TEXT_CAP = 2000
_ARGS_CAP = 400


def _cap(text: str, cap: int = _TEXT_CAP) -> str:
    if len(text) <= cap:
        return text
    return f"{text[:cap]}... ({len(text) - cap} more chars)"


def _indent(text: str) -> str:
    return text.replace("\n", "\n    ")


def _compact(value: object) -> str:
    return _cap(json.dumps(value, ensure_ascii=False, separators=(",", ":")), _ARGS_CAP)


def _num(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "?"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _loads(data: str | bytes) -> object:
    """A JSON value, or None for anything that is not one -- nesting too deep included.

    ``show`` prints damaged and hostile files too, and a ``#stdout`` marker
    can hold a thousand nested brackets: json's RecursionError must end as
    "not JSON", never as a traceback.
    """
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


class _Claude:
    """claude ``-p --output-format stream-json`` events."""

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
        if self.partials:
            yield f"  ({self.partials} partial-message stream events)"
            self.partials = 0

    def event(self, obj: Mapping[str, Any]) -> Iterator[str]:
        kind = obj.get("type")
        if kind == "stream_event":
            yield from self._open_turn()
            self.partials += 1
            return
        yield from self.flush()
        if kind == "system":
            yield from self._system(obj)
        elif kind == "assistant":
            yield from self._open_turn()
            yield from self._assistant(obj)
        elif kind == "user":
            yield from self._open_turn()
            yield from self._user(obj)
        elif kind == "result":
            yield from self._open_turn()
            yield from self._result(obj)
            self.in_turn = False
        elif kind in ("control_request", "control_response"):
            inner = _mapping(obj.get("request") or obj.get("response"))
            yield f"[{kind}] {inner.get('subtype', '')}".rstrip()
        else:
            yield f"[event {kind!r} not known to this transcript] {_compact(obj)}"

    def _system(self, obj: Mapping[str, Any]) -> Iterator[str]:
        subtype = obj.get("subtype")
        if subtype == "init":
            tools = _list(obj.get("tools"))
            yield (
                f"[system init] session {obj.get('session_id')}, model {obj.get('model')}, "
                f"{len(tools)} tools, permission mode {obj.get('permissionMode')}"
            )
        elif subtype == "api_retry" or "retry" in str(subtype):
            yield f"[system {subtype}] {_compact({k: v for k, v in obj.items() if k not in ('type', 'subtype', 'uuid', 'session_id')})}"
        else:
            yield f"[system {subtype}]"

    def _assistant(self, obj: Mapping[str, Any]) -> Iterator[str]:
        message = _mapping(obj.get("message"))
        for block in _list(message.get("content")):
            block = _mapping(block)
            kind = block.get("type")
            if kind == "text":
                yield f"assistant: {_indent(_cap(str(block.get('text', ''))))}"
            elif kind in ("thinking", "redacted_thinking"):
                yield f"thinking: {_indent(_cap(str(block.get('thinking', '(redacted)'))))}"
            elif kind in ("tool_use", "server_tool_use"):
                yield (
                    f"tool call {block.get('name')} ({block.get('id')}): "
                    f"{_compact(block.get('input'))}"
                )
            else:
                yield f"assistant [{kind}]"
        if obj.get("error"):
            yield f"assistant error: {obj.get('error')}"

    def _user(self, obj: Mapping[str, Any]) -> Iterator[str]:
        content = _mapping(obj.get("message")).get("content")
        if isinstance(content, str):
            yield f"user: {_indent(_cap(content))}"
            return
        for block in _list(content):
            block = _mapping(block)
            if block.get("type") == "tool_result":
                body = block.get("content")
                if isinstance(body, list):
                    body = " ".join(str(_mapping(part).get("text", "")) for part in body).strip()
                flag = " [error]" if block.get("is_error") else ""
                yield (
                    f"tool result ({block.get('tool_use_id')}){flag}: "
                    f"{_indent(_cap(str(body), _ARGS_CAP))}"
                )
            elif block.get("type") == "text":
                yield f"user: {_indent(_cap(str(block.get('text', ''))))}"

    def _result(self, obj: Mapping[str, Any]) -> Iterator[str]:
        flag = " (is_error)" if obj.get("is_error") else ""
        yield (
            f"result {obj.get('subtype')}{flag}: {_num(obj.get('num_turns'))} turn(s), "
            f"{_num(obj.get('duration_ms'))} ms, cost ${_num(obj.get('total_cost_usd'))}"
        )
        usage = _mapping(obj.get("usage"))
        if usage:
            yield (
                f"  usage: input {_num(usage.get('input_tokens'))}, "
                f"output {_num(usage.get('output_tokens'))}, "
                f"cache read {_num(usage.get('cache_read_input_tokens'))}, "
                f"cache write {_num(usage.get('cache_creation_input_tokens'))}"
            )
        text = obj.get("result")
        if isinstance(text, str) and text:
            yield f"  text: {_indent(_cap(text))}"
        for denial in _list(obj.get("permission_denials")):
            denial = _mapping(denial)
            yield f"  permission denied: {denial.get('tool_name')} {_compact(denial.get('tool_input'))}"
        for error in _list(obj.get("errors")):
            yield f"  error: {error}"


class _Codex:
    """``codex exec --json`` events."""

    def __init__(self) -> None:
        self.turn = 0

    def flush(self) -> Iterator[str]:
        return iter(())

    def event(self, obj: Mapping[str, Any]) -> Iterator[str]:
        kind = obj.get("type")
        if kind == "thread.started":
            yield f"[thread {obj.get('thread_id')}]"
        elif kind == "turn.started":
            self.turn += 1
            yield f"--- turn {self.turn} ---"
        elif kind in ("item.started", "item.updated"):
            return
        elif kind == "item.completed":
            yield from self._item(_mapping(obj.get("item")))
        elif kind == "turn.completed":
            usage = _mapping(obj.get("usage"))
            yield (
                f"turn completed: usage input {_num(usage.get('input_tokens'))} "
                f"(cached {_num(usage.get('cached_input_tokens'))}), "
                f"output {_num(usage.get('output_tokens'))}, "
                f"reasoning {_num(usage.get('reasoning_output_tokens'))}"
            )
        elif kind == "turn.failed":
            message = _mapping(obj.get("error")).get("message")
            yield f"turn failed: {_indent(_cap(str(message)))}"
        elif kind == "error":
            yield f"stream error: {_indent(_cap(str(obj.get('message'))))}"
        else:
            yield f"[event {kind!r} not known to this transcript] {_compact(obj)}"

    def _item(self, item: Mapping[str, Any]) -> Iterator[str]:
        kind = item.get("type")
        if kind == "agent_message":
            yield f"assistant: {_indent(_cap(str(item.get('text', ''))))}"
        elif kind == "reasoning":
            yield f"reasoning: {_indent(_cap(str(item.get('text', ''))))}"
        elif kind == "command_execution":
            yield (
                f"command ({item.get('status')}, exit {item.get('exit_code')}): "
                f"{item.get('command')}"
            )
            output = item.get("aggregated_output")
            if isinstance(output, str) and output:
                yield f"  output: {_indent(_cap(output, _ARGS_CAP))}"
        elif kind == "file_change":
            for change in _list(item.get("changes")):
                change = _mapping(change)
                yield f"file change: {change.get('kind')} {change.get('path')}"
        elif kind == "mcp_tool_call":
            yield (
                f"tool call {item.get('server')}.{item.get('tool')} ({item.get('status')}): "
                f"{_compact(item.get('arguments'))}"
            )
            if item.get("error"):
                yield f"  error: {_compact(item.get('error'))}"
            elif item.get("result") is not None:
                yield f"  result: {_compact(item.get('result'))}"
        elif kind == "web_search":
            yield f"web search: {item.get('query')}"
        elif kind == "error":
            yield f"error item: {_indent(_cap(str(item.get('message'))))}"
        else:
            yield f"item [{kind}] {_compact(item)}"


def _stdin_line(data: bytes) -> str:
    text = _decode(data).rstrip("\n")
    obj = _loads(text)
    if obj is None:
        return f"stdin: {_indent(_cap(text))}"
    message = _mapping(_mapping(obj).get("message"))
    content = message.get("content")
    if isinstance(content, str):
        return f"user (stdin): {_indent(_cap(content))}"
    return f"stdin: {_compact(obj)}"


def _body(recording: Recording) -> Iterator[tuple[str, bytes]]:
    """The stream in order: ("stdout", line), ("stderr", chunk), ("stdin", write)."""
    for kind, data in stream_parts(recording):
        if kind == "stdout":
            yield from (("stdout", line) for line in data.splitlines(True))
        else:
            yield kind, data


def transcript(recording: Recording) -> str:
    """The recording as text, one line per thing that happened."""
    out: list[str] = []
    version = f" {recording.cli_version}" if recording.cli_version else ""
    made = f", recorded {recording.created_at}" if recording.created_at else ""
    out.append(f"{recording.cli}{version}{made}")
    if recording.source:
        out.append(f"source: {recording.source}")
    if recording.argv:
        # Shell-quoted, so the line can be pasted into a shell as the run it was.
        out.append("$ " + shlex.join(_cap(arg, 200) for arg in recording.argv))
    else:
        out.append("(stdout only: no command line, stdin, stderr or exit code was recorded)")
    if recording.cwd:
        out.append(f"cwd: {recording.cwd}")
    if recording.env_names:
        out.append(f"env: {', '.join(recording.env_names)}")
    out.extend(f"note: {note}" for note in recording.notes)
    out.append("")
    events: _Claude | _Codex = _Claude() if recording.cli == "claude" else _Codex()
    for kind, data in _body(recording):
        if kind == "stdin":
            out.extend(events.flush())
            out.append(_stdin_line(data))
        elif kind == "stderr":
            out.extend(events.flush())
            out.append(f"stderr: {_indent(_cap(_decode(data).rstrip()))}")
        else:
            obj = _loads(data)
            if isinstance(obj, dict):
                try:
                    out.extend(events.event(obj))
                except RecursionError:  # parsed, but too deep to print (str() recurses too)
                    out.append("[event nested too deeply to show]")
            elif data.strip():
                out.extend(events.flush())
                out.append(f"stdout (not a JSON object): {_cap(_decode(data).rstrip())}")
    out.extend(events.flush())
    out.append("")
    if recording.run.stderr:
        out.append(f"stderr at exit: {_indent(_cap(_decode(recording.run.stderr).rstrip()))}")
    if recording.argv:
        out.append(f"exit code {recording.run.returncode}")
    return "\n".join(out) + "\n"
