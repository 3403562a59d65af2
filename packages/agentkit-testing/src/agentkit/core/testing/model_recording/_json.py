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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agentkit.core.request import ChatRequest
from agentkit.core.types import ChatResponse, Delta, Message, ToolCall, ToolSchema, Usage
from agentkit.fakes.api.errors import ApiError, BrokenStream
from agentkit.fakes.llm import Turn

__all__ = [
    "Answer",
    "Base",
    "base_of",
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


@dataclass(frozen=True, slots=True)
class Base:
    """An earlier call a request carries on from: its messages and its answer come first."""

    turn: int
    """1-based number of that call."""
    request: ChatRequest
    length: int
    """How many of the request's messages it accounts for (its messages, then its answer)."""


def reply_message(answer: Turn) -> Message:
    """The assistant message a client sends back for ``answer`` in its next request."""
    return Message.assistant(answer.content, answer.tool_calls)


def base_of(request: ChatRequest, earlier: Sequence[tuple[ChatRequest, Answer]]) -> Base | None:
    """The latest earlier call whose messages and answer begin ``request``'s messages, if any.

    Most calls of a session carry the conversation on: naming the call they
    continue, a line holds only what is new, so each message is in the file
    once -- and an answer edited on its line is what the next calls are
    checked against, since the client sends the edited answer back.
    """
    messages = request.messages
    for index in range(len(earlier) - 1, max(len(earlier) - _LOOK_BACK, 0) - 1, -1):
        previous, answer = earlier[index]
        length = len(previous.messages) + 1
        if (
            isinstance(answer, Turn)
            and len(messages) >= length
            and messages[length - 1] == reply_message(answer)
            and tuple(messages[: length - 1]) == tuple(previous.messages)
        ):
            return Base(index + 1, previous, length)
    return None


_LOOK_BACK = 8
"""How many earlier calls a request is matched against (a side call may come between)."""


def request_json(request: ChatRequest, base: Base | None = None) -> dict[str, Any]:
    """What the model was sent: ``metadata`` and ``cache_hint`` are the caller's, never sent.

    With a ``base``, the messages it accounts for are left out (``continues``),
    and tools the same as its are named by it.
    """
    out: dict[str, Any] = {"model": request.model}
    if request.tools is not None:
        if base is not None and base.request.tools == request.tools:
            out["tools"] = f"{_AS_IN} {base.turn}"
        else:
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
    messages = request.messages
    if base is not None:
        out["continues"] = base.turn
        messages = messages[base.length :]
    out["messages"] = [_message_json(m) for m in messages]
    return out


_AS_IN = "as in turn"


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
        return "error", _with_partial(error, answer.partial)
    if isinstance(answer, BrokenStream):
        return "broken", _with_partial({"message": str(answer)}, answer.partial)
    out = _reply_json(answer.content, answer.tool_calls, answer.reasoning)
    if answer.usage is not None and _usage_json(answer.usage):
        out["usage"] = _usage_json(answer.usage)
    if answer.finish_reason is not None:
        out["finish_reason"] = answer.finish_reason
    return "answer", out


def _with_partial(out: dict[str, Any], partial: Sequence[Delta]) -> dict[str, Any]:
    """``out`` with what the client was shown before the failure, if anything."""
    shown = _reply_json(
        "".join(d.content for d in partial),
        tuple(c for d in partial for c in d.tool_calls),
        "".join(d.reasoning for d in partial),
    )
    if partial and shown:
        out["partial"] = shown
    return out


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


def request_from_json(
    raw: object, where: str, earlier: Sequence[tuple[ChatRequest, Answer]] = ()
) -> ChatRequest:
    """The request a recorded line holds (``earlier``: the calls before it, which
    ``continues`` and ``"tools": "as in turn N"`` name); :class:`FormatError` naming the
    field otherwise."""
    data = _object(raw, where)
    messages = [
        _message(m, f"{where}.messages[{i}]")
        for i, m in enumerate(_field(data, "messages", list, where))
    ]
    continues = _optional(data, "continues", int, where)
    if continues is not None:
        previous, answer = _earlier(continues, earlier, f"{where}.continues")
        if not isinstance(answer, Turn):
            raise FormatError(
                f"{where}.continues: turn {continues} answered with an error, not a message "
                "to carry on from: write this request's messages whole"
            )
        messages = [*previous.messages, reply_message(answer), *messages]
    return ChatRequest(
        messages,
        _field(data, "model", str, where),
        _tools(data, where, earlier),
        _optional(data, "response_format", dict, where),
        _temperature(data, where),
        _max_tokens(data, where),
    )


def _earlier(
    turn: int, earlier: Sequence[tuple[ChatRequest, Answer]], where: str
) -> tuple[ChatRequest, Answer]:
    if not 1 <= turn <= len(earlier):
        raise FormatError(f"{where}: {turn} is not an earlier turn (1 to {len(earlier)})")
    return earlier[turn - 1]


def _tools(
    data: Mapping[str, Any], where: str, earlier: Sequence[tuple[ChatRequest, Answer]]
) -> list[ToolSchema] | None:
    value = data.get("tools")
    if value is None:
        return None
    if isinstance(value, str):
        number = value.removeprefix(_AS_IN).strip()
        if not value.startswith(_AS_IN) or not number.isdigit():
            raise FormatError(f'{where}.tools: a list, or "{_AS_IN} N"; got {value!r:.60}')
        tools = _earlier(int(number), earlier, f"{where}.tools")[0].tools
        return None if tools is None else list(tools)
    out = []
    for index, raw_tool in enumerate(_field(data, "tools", list, where)):
        at = f"{where}.tools[{index}]"
        tool = _object(raw_tool, at)
        out.append(
            ToolSchema(
                _field(tool, "name", str, at),
                _optional(tool, "description", str, at) or "",
                _optional(tool, "parameters", dict, at) or {"type": "object"},
            )
        )
    return out


def _temperature(data: Mapping[str, Any], where: str) -> float:
    temperature = _optional(data, "temperature", (int, float), where)
    return 0.0 if temperature is None else float(temperature)


def _max_tokens(data: Mapping[str, Any], where: str) -> int | None:
    max_tokens = _optional(data, "max_tokens", int, where)
    if max_tokens is not None and max_tokens < 1:
        raise FormatError(f"{where}.max_tokens: at least 1, got {max_tokens}")
    return max_tokens  # type: ignore[no-any-return]


def _partial(data: Mapping[str, Any], at: str) -> list[Delta]:
    """The deltas a failure's ``partial`` holds: its reasoning, then its content."""
    if data.get("partial") is None:
        return []
    where = f"{at}.partial"
    part = _object(data["partial"], where)
    reasoning = _optional(part, "reasoning", str, where) or ""
    content = _optional(part, "content", str, where) or ""
    calls = _calls(part, where)
    partial = [Delta(reasoning=reasoning)] if reasoning else []
    if content or calls:
        partial.append(Delta(content=content, tool_calls=calls))
    return partial


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
            partial=_partial(data, at),
        )
    if key == "broken":
        message = _optional(data, "message", str, at) or "recorded broken stream"
        return BrokenStream(message, partial=_partial(data, at))
    usage = None if data.get("usage") is None else _usage(data["usage"], f"{at}.usage")
    return Turn(
        _optional(data, "content", str, at) or "",
        _calls(data, at),
        usage,
        _optional(data, "finish_reason", str, at),
        _optional(data, "reasoning", str, at) or "",
    )
