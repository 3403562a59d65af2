"""The kit's model types as JSON values a person reads and edits, and back.

A model recording holds requests and answers as what they mean, not as any
provider's wire: a :class:`~agentkit.core.request.ChatRequest` (messages,
tools, model, the settings sent to the model) and a
:class:`~agentkit.fakes.llm.Turn` (content, tool calls, reasoning, usage,
finish reason), or the provider's error. A field at its default is left out,
so a line says only what matters; reading it back checks every field and
names the one that is wrong, since a hand-edited file is input like any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentkit.core.request import ChatRequest
from agentkit.core.types import ChatResponse, Delta, Message, ToolCall, ToolSchema, Usage
from agentkit.fakes.api.errors import ApiError, BrokenStream
from agentkit.fakes.llm import Turn

__all__ = [
    "Answer",
    "FormatError",
    "answer_from_json",
    "answer_json",
    "request_from_json",
    "request_json",
    "turn_of",
]

Answer = Turn | ApiError | BrokenStream
"""What one recorded call answered: a reply, or the provider's failure, replayed as it was."""

_USAGE_FIELDS = (
    "input_tokens",
    "cached_input_tokens",
    "cache_write_tokens",
    "output_tokens",
    "reasoning_tokens",
)


class FormatError(ValueError):
    """A value in a model recording is not what its field holds (the message names the field)."""


def _call_json(call: ToolCall) -> dict[str, Any]:
    return {"id": call.id, "name": call.name, "arguments": call.arguments}


def _message_json(message: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        out["tool_calls"] = [_call_json(call) for call in message.tool_calls]
    if message.tool_call_id is not None:
        out["tool_call_id"] = message.tool_call_id
    if message.name is not None:
        out["name"] = message.name
    return out


def _usage_json(usage: Usage) -> dict[str, int]:
    return {name: getattr(usage, name) for name in _USAGE_FIELDS if getattr(usage, name)}


def request_json(request: ChatRequest) -> dict[str, Any]:
    """What the model was sent: ``metadata`` and ``cache_hint`` are the caller's, never sent."""
    out: dict[str, Any] = {"model": request.model}
    if request.tools is not None:
        out["tools"] = [
            {"name": t.name, "description": t.description, "parameters": t.parameters}
            for t in request.tools
        ]
    if request.response_format is not None:
        out["response_format"] = request.response_format
    if request.temperature != 0.0:
        out["temperature"] = request.temperature
    if request.max_tokens is not None:
        out["max_tokens"] = request.max_tokens
    out["messages"] = [_message_json(m) for m in request.messages]
    return out


def turn_of(response: ChatResponse) -> Turn:
    """The script turn replaying ``response``."""
    return Turn(
        response.content,
        response.tool_calls,
        response.usage,
        response.finish_reason,
        response.reasoning,
    )


def answer_json(answer: Answer) -> tuple[str, dict[str, Any]]:
    """``(key, value)`` of a recorded answer: ``"answer"``, ``"error"`` or ``"broken"``."""
    if isinstance(answer, ApiError):
        error: dict[str, Any] = {"status": answer.status, "message": answer.message}
        if answer.kind is not None:
            error["kind"] = answer.kind
        if answer.in_stream:
            error["in_stream"] = True
        if answer.retry_after is not None:
            error["retry_after"] = answer.retry_after
        return "error", error
    if isinstance(answer, BrokenStream):
        broken: dict[str, Any] = {"message": str(answer)}
        partial = _reply_json(
            "".join(d.content for d in answer.partial),
            tuple(c for d in answer.partial for c in d.tool_calls),
            "".join(d.reasoning for d in answer.partial),
        )
        if partial:
            broken["partial"] = partial
        return "broken", broken
    out = _reply_json(answer.content, answer.tool_calls, answer.reasoning)
    if answer.usage is not None and _usage_json(answer.usage):
        out["usage"] = _usage_json(answer.usage)
    if answer.finish_reason is not None:
        out["finish_reason"] = answer.finish_reason
    return "answer", out


def _reply_json(content: str, calls: tuple[ToolCall, ...], reasoning: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if reasoning:
        out["reasoning"] = reasoning
    if content or not calls:
        out["content"] = content
    if calls:
        out["tool_calls"] = [_call_json(call) for call in calls]
    return out


# ---------------------------------------------------------------- reading


def _field(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise FormatError(f"{where}.{name}: expected {_kinds(kind)}, got {value!r:.60}")
    return value


def _optional(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], where: str) -> Any:
    return None if data.get(name) is None else _field(data, name, kind, where)


def _kinds(kind: type | tuple[type, ...]) -> str:
    names = {
        str: "a string",
        int: "an integer",
        float: "a number",
        dict: "an object",
        list: "a list",
        bool: "true or false",
    }
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _object(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise FormatError(f"{where}: expected an object, got {value!r:.60}")
    return value


def _calls(data: Mapping[str, Any], where: str) -> tuple[ToolCall, ...]:
    out: list[ToolCall] = []
    for index, raw in enumerate(_optional(data, "tool_calls", list, where) or ()):
        at = f"{where}.tool_calls[{index}]"
        call = _object(raw, at)
        out.append(
            ToolCall(
                _field(call, "id", str, at),
                _field(call, "name", str, at),
                _optional(call, "arguments", dict, at) or {},
            )
        )
    return tuple(out)


def _message(raw: object, where: str) -> Message:
    data = _object(raw, where)
    role = _field(data, "role", str, where)
    if role not in ("system", "user", "assistant", "tool"):
        raise FormatError(f"{where}.role: one of system, user, assistant, tool; got {role!r}")
    return Message(
        role,
        _optional(data, "content", str, where) or "",
        _calls(data, where),
        _optional(data, "tool_call_id", str, where),
        _optional(data, "name", str, where),
    )


def request_from_json(raw: object, where: str) -> ChatRequest:
    """The request a recorded line holds; :class:`FormatError` naming the field otherwise."""
    data = _object(raw, where)
    messages = [
        _message(m, f"{where}.messages[{i}]")
        for i, m in enumerate(_field(data, "messages", list, where))
    ]
    tools = None
    if data.get("tools") is not None:
        tools = []
        for index, raw_tool in enumerate(_field(data, "tools", list, where)):
            at = f"{where}.tools[{index}]"
            tool = _object(raw_tool, at)
            tools.append(
                ToolSchema(
                    _field(tool, "name", str, at),
                    _optional(tool, "description", str, at) or "",
                    _optional(tool, "parameters", dict, at) or {"type": "object"},
                )
            )
    temperature = _optional(data, "temperature", (int, float), where)
    max_tokens = _optional(data, "max_tokens", int, where)
    if max_tokens is not None and max_tokens < 1:
        raise FormatError(f"{where}.max_tokens: at least 1, got {max_tokens}")
    return ChatRequest(
        messages,
        _field(data, "model", str, where),
        tools,
        _optional(data, "response_format", dict, where),
        0.0 if temperature is None else float(temperature),
        max_tokens,
    )


def _usage(raw: object, where: str) -> Usage:
    data = _object(raw, where)
    unknown = sorted(set(data) - set(_USAGE_FIELDS))
    if unknown:
        raise FormatError(f"{where}: unknown field(s) {unknown}; known: {list(_USAGE_FIELDS)}")
    counts = {name: _field(data, name, int, where) for name in data}
    return Usage(**counts)


def answer_from_json(key: str, raw: object, where: str) -> Answer:
    """The answer of a recorded line, from its ``answer`` / ``error`` / ``broken`` value."""
    at = f"{where}.{key}"
    data = _object(raw, at)
    if key == "error":
        status = _field(data, "status", int, at)
        if not 400 <= status <= 599:
            raise FormatError(f"{at}.status: an HTTP error status, 400 to 599; got {status}")
        retry = _optional(data, "retry_after", (int, float), at)
        return ApiError(
            status,
            _optional(data, "message", str, at) or "",
            kind=_optional(data, "kind", str, at),
            retry_after=retry,
            in_stream=bool(_optional(data, "in_stream", bool, at)),
        )
    if key == "broken":
        partial: list[Delta] = []
        if data.get("partial") is not None:
            part = _object(data["partial"], f"{at}.partial")
            reasoning = _optional(part, "reasoning", str, f"{at}.partial") or ""
            content = _optional(part, "content", str, f"{at}.partial") or ""
            calls = _calls(part, f"{at}.partial")
            if reasoning:
                partial.append(Delta(reasoning=reasoning))
            if content or calls:
                partial.append(Delta(content=content, tool_calls=calls))
        message = _optional(data, "message", str, at) or "recorded broken stream"
        return BrokenStream(message, partial=partial)
    usage = None if data.get("usage") is None else _usage(data["usage"], f"{at}.usage")
    return Turn(
        _optional(data, "content", str, at) or "",
        _calls(data, at),
        usage,
        _optional(data, "finish_reason", str, at),
        _optional(data, "reasoning", str, at) or "",
    )
