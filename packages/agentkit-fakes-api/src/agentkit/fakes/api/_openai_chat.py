"""The OpenAI Chat Completions API: ``POST /v1/chat/completions``.

Request: ``system`` and ``developer`` messages become system messages,
``user`` messages user messages (text parts joined), ``assistant`` messages
assistant messages with their ``tool_calls`` (the JSON ``arguments`` string
parsed), ``tool`` messages tool messages named after the call they answer.
``tools`` of type ``function`` become ToolSchemas; ``max_completion_tokens``
(or the older ``max_tokens``), ``temperature`` (default 1.0) and
``response_format`` are passed on.

Streamed answer: ``chat.completion.chunk`` objects as bare ``data:`` lines --
the role, one chunk per reasoning delta as ``reasoning_content`` (the field
OpenAI-compatible servers stream a model's reasoning in; OpenAI's own API
sends none, and clients that do not know it ignore it), one chunk per
content delta, each tool call as its id and name and
then its arguments in pieces, the finish reason, a usage chunk with no
choices when ``stream_options.include_usage`` asked for one -- and
``data: [DONE]``. Usage: ``prompt_tokens`` is the whole prompt (the kit's
fresh, cached and cache-written input; OpenAI counts cached input inside
it), ``prompt_tokens_details.cached_tokens`` the cached part,
``completion_tokens_details.reasoning_tokens`` the reasoning.

Errors: ``{"error": {"message", "type", "param", "code"}}``.

The usage and the error statuses are read back here too (:func:`read_usage`,
:func:`status_of`), beside what writes them, for
:mod:`~agentkit.fakes.api._read_openai_chat`, which reads a real provider's answer.
"""

from __future__ import annotations

from typing import Any

from agentkit.core.pricing import OPENAI_API, RawUsage
from agentkit.core.types import Message, ToolCall, Usage
from agentkit.fakes.api._body import Body, arguments_of, missing, text_of, tool_names
from agentkit.fakes.api._call import Collected, PortCall, WireError, json_text, pieces
from agentkit.fakes.api._reading import count, field, usage_in
from agentkit.fakes.api._sse import DONE, frame

__all__ = [
    "MAX_BODY",
    "NAME",
    "REQUEST_ID",
    "error_body",
    "error_code",
    "failed",
    "opening",
    "parse",
    "read_tool_calls",
    "read_usage",
    "reply_body",
    "status_of",
    "stream",
    "usage_of",
]

NAME = "OpenAI Chat Completions"
REQUEST_ID = "x-request-id"
"""The response header carrying the request's id, as both OpenAI APIs name it."""

MAX_BODY = 50 * 1024 * 1024
"""The largest request body the fake takes on the OpenAI routes (a 413 above it)."""

CREATED = 1_800_000_000
"""A fixed ``created`` time: the answers are scripted, so are their timestamps."""

_KINDS = {
    400: ("invalid_request_error", None),
    401: ("invalid_request_error", "invalid_api_key"),
    403: ("invalid_request_error", "unsupported_country_region_territory"),
    404: ("invalid_request_error", "model_not_found"),
    429: ("requests", "rate_limit_exceeded"),
}

_FINISH = frozenset(("stop", "length", "tool_calls", "content_filter", "function_call"))


def error_body(status: int, kind: str | None, message: str) -> dict[str, Any]:
    default, code = _KINDS.get(
        status, ("server_error", None) if status >= 500 else ("invalid_request_error", None)
    )
    return {"error": {"message": message, "type": kind or default, "param": None, "code": code}}


def error_code(status: int, kind: str | None) -> str:
    """The error ``code`` of an in-stream failure: the kind given, else the status's usual one."""
    if kind is not None:
        return kind
    _, code = _KINDS.get(status, (None, None))
    return code or ("server_error" if status >= 500 else "invalid_request_error")


def status_of(kind: str | None, code: str | None = None) -> int:
    """The HTTP status an error stands for, from its ``code`` or ``type`` (what
    :func:`error_body` and :func:`error_code` write for a status, read back); 500 when
    neither names one."""
    statuses: dict[str, int] = {}
    for status, (_, known) in _KINDS.items():
        if known is not None:
            statuses.setdefault(known, status)
    for status, (default, _) in _KINDS.items():
        statuses.setdefault(default, status)
    for name in (code, kind):
        if name is not None and name in statuses:
            return statuses[name]
    return 500


def usage_of(usage: Usage) -> dict[str, Any]:
    return {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens,
        "prompt_tokens_details": {"cached_tokens": usage.cached_input_tokens},
        "completion_tokens_details": {"reasoning_tokens": usage.reasoning_tokens},
    }


def read_usage(wire: dict[str, Any], where: str) -> Usage:
    """The kit's Usage of an answer's ``usage`` (what :func:`usage_of` writes, read back: the
    prompt count holds the cached input, which the kit counts apart)."""
    return inclusive_usage(wire, ("prompt_tokens", "completion_tokens"), NAME, where)


def inclusive_usage(wire: dict[str, Any], names: tuple[str, str], api: str, where: str) -> Usage:
    """An OpenAI usage object, whose input count (``names[0]``) includes the cached input
    (``<input>_details.cached_tokens``) and whose output count (``names[1]``) includes the
    reasoning (``<output>_details.reasoning_tokens``), in the kit's split. Chat Completions
    and Responses differ only in the names."""
    inputs, outputs = names
    input_details = field(wire, f"{inputs}_details", api, where)
    output_details = field(wire, f"{outputs}_details", api, where)
    raw = RawUsage(
        input_tokens=count(wire, inputs, api, where),
        cached_input_tokens=count(input_details, "cached_tokens", api, where),
        output_tokens=count(wire, outputs, api, where),
        reasoning_tokens=count(output_details, "reasoning_tokens", api, where),
    )
    return usage_in(OPENAI_API, raw, api, where)


# ------------------------------------------------------------------ request


def read_tool_calls(value: object, where: str) -> tuple[ToolCall, ...]:
    """An assistant message's ``tool_calls`` (their JSON ``arguments`` parsed) -- in a
    request, and in an answer (:mod:`~agentkit.fakes.api._read_openai_chat`)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise WireError(f"{where}.tool_calls: must be a list")
    calls: list[ToolCall] = []
    for index, raw in enumerate(value):
        at = f"{where}.tool_calls.{index}"
        function = raw.get("function") if isinstance(raw, dict) else None
        if not isinstance(raw, dict) or not isinstance(function, dict):
            raise WireError(f"{at}: needs a function")
        call_id, name = raw.get("id"), function.get("name")
        if not isinstance(call_id, str) or not isinstance(name, str):
            raise WireError(f"{at}: needs an id and a function name")
        calls.append(ToolCall(call_id, name, arguments_of(function.get("arguments", "{}"), at)))
    return tuple(calls)


def _message(raw: object, index: int, sent: list[Message]) -> Message:
    where = f"messages.{index}"
    if not isinstance(raw, dict):
        raise WireError(f"{where}: must be an object")
    if "role" not in raw:
        raise missing(f"messages[{index}].role")
    role = raw.get("role")
    if raw.get("content") is None and not (role == "assistant" and raw.get("tool_calls")):
        raise missing(f"messages[{index}].content")  # only a tool-calling assistant may omit it
    content = text_of(raw.get("content"), f"{where}.content")
    if role in ("system", "developer"):
        return Message.system(content)
    if role == "user":
        return Message.user(content)
    if role == "assistant":
        return Message.assistant(content, tool_calls=read_tool_calls(raw.get("tool_calls"), where))
    if role == "tool":
        call_id = raw.get("tool_call_id")
        if not isinstance(call_id, str):
            raise WireError(f"{where}: a tool message needs its tool_call_id")
        return Message.tool(content, tool_call_id=call_id, name=tool_names(sent).get(call_id))
    raise WireError(f"{where}.role: {role!r} is not a role this API takes")


def _tool(tool: dict[str, Any], where: str) -> tuple[object, object, object]:
    function = tool.get("function")
    if not isinstance(function, dict):
        raise WireError(f"{where}: needs a function")
    return function.get("name"), function.get("description"), function.get("parameters")


def parse(body: Any) -> PortCall:
    request = Body(body)
    raw_messages = request.require("messages", list, "a list of messages")
    if not raw_messages:
        raise WireError("[] is too short - 'messages'", param="messages")
    messages: list[Message] = []
    for index, raw in enumerate(raw_messages):
        messages.append(_message(raw, index, messages))
    response_format = request.fields.get("response_format")
    if response_format is not None and not isinstance(response_format, dict):
        raise WireError("response_format: must be an object")
    options = request.fields.get("stream_options")
    return request.call(
        messages,
        request.tools(_tool),
        request.optional_int("max_completion_tokens", "max_tokens"),
        response_format=response_format,
        include_usage=isinstance(options, dict) and options.get("include_usage") is True,
    )


# ------------------------------------------------------------------- answer


def _finish(reply: Collected) -> str:
    if reply.finish_reason in _FINISH:
        return str(reply.finish_reason)
    return "tool_calls" if reply.tool_calls else "stop"


def _wire_calls(calls: tuple[ToolCall, ...]) -> list[dict[str, Any]]:
    return [
        {
            "id": c.id,
            "type": "function",
            "function": {"name": c.name, "arguments": json_text(c.arguments)},
        }
        for c in calls
    ]


def reply_body(call: PortCall, reply: Collected, ident: str) -> dict[str, Any]:
    message: dict[str, Any] = {
        "role": "assistant",
        "content": reply.content if reply.pieces or not reply.tool_calls else None,
        "refusal": None,
    }
    if reply.thoughts:
        message["reasoning_content"] = reply.reasoning
    if reply.tool_calls:
        message["tool_calls"] = _wire_calls(reply.tool_calls)
    return {
        "id": f"chatcmpl-{ident}",
        "object": "chat.completion",
        "created": CREATED,
        "model": call.model,
        "choices": [
            {"index": 0, "message": message, "logprobs": None, "finish_reason": _finish(reply)}
        ],
        "usage": usage_of(reply.usage),
    }


def _chunk(call: PortCall, ident: str, delta: dict[str, Any], finish: str | None) -> bytes:
    data: dict[str, Any] = {
        "id": f"chatcmpl-{ident}",
        "object": "chat.completion.chunk",
        "created": CREATED,
        "model": call.model,
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }
    if call.include_usage:
        data["usage"] = None
    return frame(data)


def opening(call: PortCall, ident: str) -> list[bytes]:
    return [_chunk(call, ident, {"role": "assistant", "content": "", "refusal": None}, None)]


def stream(call: PortCall, reply: Collected, ident: str) -> list[bytes]:
    """The whole chunk stream; for a broken reply, only as far as the port got."""
    frames = opening(call, ident)
    frames.extend(
        _chunk(call, ident, {"reasoning_content": thought}, None) for thought in reply.thoughts
    )
    frames.extend(_chunk(call, ident, {"content": piece}, None) for piece in reply.pieces)
    if reply.broken is not None:
        return frames
    for index, c in enumerate(reply.tool_calls):
        head = {
            "index": index,
            "id": c.id,
            "type": "function",
            "function": {"name": c.name, "arguments": ""},
        }
        frames.append(_chunk(call, ident, {"tool_calls": [head]}, None))
        frames.extend(
            _chunk(
                call,
                ident,
                {"tool_calls": [{"index": index, "function": {"arguments": part}}]},
                None,
            )
            for part in pieces(json_text(c.arguments))
        )
    frames.append(_chunk(call, ident, {}, _finish(reply)))
    if call.include_usage:
        frames.append(
            frame(
                {
                    "id": f"chatcmpl-{ident}",
                    "object": "chat.completion.chunk",
                    "created": CREATED,
                    "model": call.model,
                    "choices": [],
                    "usage": usage_of(reply.usage),
                }
            )
        )
    frames.append(DONE)
    return frames


def failed(
    call: PortCall,
    ident: str,
    status: int,
    kind: str | None,
    message: str,
    shown: Collected | None = None,
) -> list[bytes]:
    """A stream that starts, shows what the port produced before failing (``shown``, a
    broken reply: its reasoning and content chunks), then carries an ``error`` object
    instead of the next chunk, and ends there without ``data: [DONE]``, as the API does."""
    frames = opening(call, ident) if shown is None else stream(call, shown, ident)
    return [*frames, frame(error_body(status, kind, message))]
