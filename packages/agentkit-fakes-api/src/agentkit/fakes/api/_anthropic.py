"""The Anthropic Messages API: ``POST /v1/messages`` and ``/v1/messages/count_tokens``.

Request: ``system`` (a string or text blocks) becomes one system message;
each ``user`` message's ``tool_result`` blocks become tool messages (named
after the ``tool_use`` they answer) and its text blocks one user message
after them; an ``assistant`` message's text and ``tool_use`` blocks become one
assistant message with tool calls (``thinking`` blocks carry nothing the
kit's Message holds and are left out). ``tools`` become ToolSchemas from
their ``input_schema``; ``temperature`` defaults to the API's 1.0.

Streamed answer (``"stream": true``): ``message_start`` (the message with
the input usage), ``ping``, then -- when the port reasoned
(:attr:`~agentkit.core.types.Delta.reasoning`) -- a ``thinking`` block
(``thinking_delta`` events, one per reasoning delta, and a
``signature_delta`` carrying a made-up signature, since a real client keeps
the signature to send the block back), then a ``text`` block whose ``text_delta`` events
are the port's content deltas one for one, then one ``tool_use`` block per
tool call (its input as ``input_json_delta`` pieces), ``message_delta``
(stop reason, output tokens) and ``message_stop``. Usage: ``input_tokens``
is the kit's fresh input, ``cache_read_input_tokens`` and
``cache_creation_input_tokens`` its cached and cache-written input -- the
API's split is the kit's own.

Errors: ``{"type": "error", "error": {"type", "message"}}`` with a
``request-id`` header.

Each mapping of the answer is read back here too (:func:`read_usage`,
:func:`kit_finish`, :func:`status_of`), beside the one that writes it, for
:mod:`~agentkit.fakes.api._read_anthropic`, which reads a real provider's answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentkit.core.estimate import estimate_input_tokens
from agentkit.core.pricing import ANTHROPIC_API, RawUsage
from agentkit.core.types import Message, ToolCall, Usage
from agentkit.fakes.api._body import Body, text_of, tool_names
from agentkit.fakes.api._call import Collected, PortCall, WireError, json_text, pieces
from agentkit.fakes.api._reading import count, usage_in
from agentkit.fakes.api._sse import frame

__all__ = [
    "MAX_BODY",
    "assistant_of",
    "NAME",
    "REQUEST_ID",
    "count_tokens",
    "error_body",
    "failed",
    "kit_finish",
    "opening",
    "parse",
    "read_usage",
    "reply_body",
    "status_of",
    "stream",
]

NAME = "Anthropic Messages"
REQUEST_ID = "request-id"
"""The response header carrying the request's id, as the API names it."""
MAX_BODY = 32 * 1024 * 1024
"""The Messages and token-counting APIs take a request of at most 32 MB (a 413
``request_too_large`` above it)."""

_KINDS = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}

_STOP_REASONS = {"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens"}
_NATIVE_STOPS = frozenset(
    ("end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal")
)
_KIT_STOPS = {native: kit for kit, native in _STOP_REASONS.items()}
_STATUSES = {kind: status for status, kind in _KINDS.items()}


def kit_finish(stop_reason: str) -> str:
    """The kit's finish reason for the API's ``stop_reason`` (what :func:`reply_body` writes,
    read back): ``end_turn`` is ``stop``, ``tool_use`` ``tool_calls``, ``max_tokens``
    ``length``; the API's other reasons keep their name, as the kit passes them through."""
    return _KIT_STOPS.get(stop_reason, stop_reason)


def status_of(kind: str | None) -> int:
    """The HTTP status the API answers an error ``type`` with (the one :func:`error_body`
    writes for it); 500 for a type it does not list."""
    return _STATUSES.get(kind or "", 500)


def error_body(status: int, kind: str | None, message: str) -> dict[str, Any]:
    chosen = kind or _KINDS.get(status, "api_error" if status >= 500 else "invalid_request_error")
    return {"type": "error", "error": {"type": chosen, "message": message}}


# ------------------------------------------------------------------ request


def _system(value: object) -> list[Message]:
    if value is None:
        return []
    text = (
        value
        if isinstance(value, str)
        else "\n\n".join(t for t in (text_of([b], "system") for b in _blocks(value, "system")) if t)
    )
    return [Message.system(text)]


def _blocks(value: object, where: str) -> list[dict[str, Any]]:
    if isinstance(value, str):
        return [{"type": "text", "text": value}]
    if not isinstance(value, list) or not all(isinstance(b, dict) for b in value):
        raise WireError(f"{where}: content must be a string or a list of blocks")
    return value


def _user(blocks: list[dict[str, Any]], names: Mapping[str, str], where: str) -> list[Message]:
    out: list[Message] = []
    texts: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "tool_result":
            call_id = block.get("tool_use_id")
            if not isinstance(call_id, str):
                raise WireError(f"{where}: a tool_result needs its tool_use_id")
            content = text_of(block.get("content"), f"{where}.tool_result")
            out.append(Message.tool(content, tool_call_id=call_id, name=names.get(call_id)))
        elif kind == "text":
            texts.append(text_of([block], where))
    if texts or not out:
        out.append(Message.user("".join(texts)))
    return out


def assistant_of(blocks: list[dict[str, Any]], where: str) -> Message:
    """An assistant message's text and tool calls -- in a request's transcript, and in an
    answer (:mod:`~agentkit.fakes.api._read_anthropic`), whose blocks have the same shape."""
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "text":
            texts.append(text_of([block], where))
        elif kind in ("tool_use", "server_tool_use"):
            call_id, name, arguments = block.get("id"), block.get("name"), block.get("input", {})
            if not isinstance(call_id, str) or not isinstance(name, str):
                raise WireError(f"{where}: a tool_use block needs an id and a name")
            if not isinstance(arguments, dict):
                raise WireError(f"{where}: the input of tool_use {call_id!r} must be an object")
            calls.append(ToolCall(call_id, name, arguments))
    return Message.assistant("".join(texts), tool_calls=tuple(calls))


def _tool(tool: dict[str, Any], where: str) -> tuple[object, object, object]:
    schema = tool.get("input_schema")
    if schema is None and tool.get("type", "custom") == "custom":
        # A tool of the client's own needs its schema; a server tool (web search...) has none.
        raise WireError(f"{where}.custom.input_schema: Field required")
    return tool.get("name"), tool.get("description"), schema


def parse(body: Any, *, count_only: bool = False) -> PortCall:
    request = Body(body)
    raw_messages = request.require("messages", list, "a list of messages")
    max_tokens = request.optional_int("max_tokens")
    if max_tokens is None and not count_only:
        raise WireError("max_tokens: Field required")
    if not raw_messages:
        raise WireError("messages: at least one message is required")
    messages = _system(request.fields.get("system"))
    last = len(raw_messages) - 1
    for index, raw in enumerate(raw_messages):
        where = f"messages.{index}"
        if not isinstance(raw, dict):
            raise WireError(f"{where}: must be an object")
        for key in ("role", "content"):
            if key not in raw:
                raise WireError(f"{where}.{key}: Field required")
        role = raw.get("role")
        blocks = _blocks(raw.get("content"), where)
        if raw["content"] in ("", []) and not (role == "assistant" and index == last):
            raise WireError(
                f"{where}: all messages must have non-empty content except for the optional "
                "final assistant message"
            )
        if role == "user":
            messages.extend(_user(blocks, tool_names(messages), where))
        elif role == "assistant":
            messages.append(assistant_of(blocks, where))
        elif role == "system":
            # claude 2.1.337 on its default model sends instructions as a
            # system-role message inside ``messages``, and the real API takes
            # it: refusing it would fail the CLI on a request it really makes.
            messages.append(Message.system(text_of(blocks, where)))
        else:
            raise WireError(f"{where}.role: must be 'user', 'assistant' or 'system'")
    return request.call(messages, request.tools(_tool), max_tokens)


def count_tokens(call: PortCall) -> dict[str, Any]:
    """``{"input_tokens": N}``: the kit's estimate of the request's messages
    (:func:`~agentkit.core.estimate.estimate_input_tokens`), the very figure a
    FakeLLM then reports as that request's input when its turn gives no usage."""
    return {"input_tokens": estimate_input_tokens(call.messages)}


# ------------------------------------------------------------------- answer


def _stop_reason(reply: Collected) -> str:
    reason = reply.finish_reason
    if reason in _NATIVE_STOPS:
        return str(reason)
    if reason in _STOP_REASONS:
        return _STOP_REASONS[str(reason)]
    return "tool_use" if reply.tool_calls else "end_turn"


def _usage(usage: Usage) -> dict[str, Any]:
    return {
        "input_tokens": usage.input_tokens,
        "cache_creation_input_tokens": usage.cache_write_tokens,
        "cache_read_input_tokens": usage.cached_input_tokens,
        "output_tokens": usage.output_tokens,
        "service_tier": "standard",  # the real API states it, and claude prints it on
    }


def read_usage(wire: dict[str, Any], where: str) -> Usage:
    """The kit's Usage of an answer's ``usage`` (what :func:`_usage` writes, read back: the
    API's three input counts are the kit's own split)."""
    raw = RawUsage(
        input_tokens=count(wire, "input_tokens", NAME, where),
        cached_input_tokens=count(wire, "cache_read_input_tokens", NAME, where),
        cache_write_tokens=count(wire, "cache_creation_input_tokens", NAME, where),
        output_tokens=count(wire, "output_tokens", NAME, where),
    )
    return usage_in(ANTHROPIC_API, raw, NAME, where)


SIGNATURE = "ZmFrZS10aGlua2luZy1zaWduYXR1cmUtZnJvbS1hZ2VudGtpdA=="
"""The ``signature`` of every thinking block: base64, like a real one, and verifying nothing."""


def _content(reply: Collected) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if reply.thoughts:
        blocks.append({"type": "thinking", "thinking": reply.reasoning, "signature": SIGNATURE})
    if reply.pieces or not reply.tool_calls:
        blocks.append({"type": "text", "text": reply.content})
    blocks.extend(
        {"type": "tool_use", "id": c.id, "name": c.name, "input": dict(c.arguments)}
        for c in reply.tool_calls
    )
    return blocks


def reply_body(call: PortCall, reply: Collected, ident: str) -> dict[str, Any]:
    return {
        "id": f"msg_{ident}",
        "type": "message",
        "role": "assistant",
        "model": call.model,
        "content": _content(reply),
        "stop_reason": _stop_reason(reply),
        "stop_sequence": None,
        "usage": _usage(reply.usage),
    }


def _event(data: dict[str, Any]) -> bytes:
    return frame(data, str(data["type"]))


def opening(call: PortCall, ident: str, usage: Usage | None = None) -> list[bytes]:
    start_usage = _usage(usage or Usage())
    start_usage["output_tokens"] = 1  # what the API reports before any output
    message: dict[str, Any] = {
        "id": f"msg_{ident}",
        "type": "message",
        "role": "assistant",
        "model": call.model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": start_usage,
    }
    return [
        _event({"type": "message_start", "message": message}),
        _event({"type": "ping"}),
    ]


def stream(call: PortCall, reply: Collected, ident: str) -> list[bytes]:
    """The whole event stream; for a broken reply, only as far as the port got."""
    frames = opening(call, ident, reply.usage)
    index = 0
    if reply.thoughts:
        frames += _thinking(reply)
        index = 1
    if reply.pieces or not reply.tool_calls:
        frames.append(
            _event(
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "text", "text": ""},
                }
            )
        )
        frames.extend(
            _event(
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": piece},
                }
            )
            for piece in reply.pieces
        )
        if reply.broken is not None:
            return frames
        frames.append(_event({"type": "content_block_stop", "index": index}))
        index += 1
    if reply.broken is not None:
        return frames
    for offset, call_ in enumerate(reply.tool_calls):
        at = index + offset
        frames.append(
            _event(
                {
                    "type": "content_block_start",
                    "index": at,
                    "content_block": {
                        "type": "tool_use",
                        "id": call_.id,
                        "name": call_.name,
                        "input": {},
                    },
                }
            )
        )
        frames.extend(
            _event(
                {
                    "type": "content_block_delta",
                    "index": at,
                    "delta": {"type": "input_json_delta", "partial_json": part},
                }
            )
            for part in pieces(json_text(call_.arguments))
        )
        frames.append(_event({"type": "content_block_stop", "index": at}))
    frames.append(
        _event(
            {
                "type": "message_delta",
                "delta": {"stop_reason": _stop_reason(reply), "stop_sequence": None},
                "usage": {"output_tokens": reply.usage.output_tokens},
            }
        )
    )
    frames.append(_event({"type": "message_stop"}))
    return frames


def _thinking(reply: Collected) -> list[bytes]:
    """The thinking block at index 0: its deltas, its signature, its end."""
    frames = [
        _event(
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "thinking", "thinking": "", "signature": ""},
            }
        )
    ]
    frames += [
        _event(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "thinking_delta", "thinking": thought},
            }
        )
        for thought in reply.thoughts
    ]
    frames.append(
        _event(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "signature_delta", "signature": SIGNATURE},
            }
        )
    )
    frames.append(_event({"type": "content_block_stop", "index": 0}))
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
    broken reply: its thinking block, its text so far, the block left open), then reports
    an ``error`` event -- as an API overloaded mid-answer does."""
    if shown is None or not (shown.pieces or shown.thoughts):
        frames = opening(call, ident)  # overloaded before any output: no block opened
    else:
        frames = stream(call, shown, ident)
    return [*frames, frame(error_body(status, kind, message), "error")]
