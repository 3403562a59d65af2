"""The OpenAI Responses API: ``POST /v1/responses`` (what codex speaks).

Request: ``instructions`` becomes a system message; ``input`` (a string, or
a list of items) becomes the transcript -- ``message`` items by role (text
parts joined), ``function_call`` and ``custom_tool_call`` items tool calls
on the assistant message they follow, ``function_call_output`` and
``custom_tool_call_output`` items tool messages; ``reasoning`` items carry
nothing the kit's Message holds and are left out. ``tools``: ``function``
tools become ToolSchemas from their ``parameters``, other tools (codex's
free-form ``custom`` tools, built-ins) a ToolSchema under their name.
``max_output_tokens``, ``temperature`` (default 1.0) and ``text.format``
(as ``response_format``) are passed on. A ``namespace`` tool (codex offers
each MCP server's tools as one: ``mcp__<server>`` holding ``<tool>``) is
offered as its tools, each under ``<namespace>__<tool>``, the name codex
itself gives such a tool; a call of that name goes out as a ``function_call``
carrying ``namespace`` and the inner name, and such a call in the input
comes back under the flat name.

State, as the API keeps it: a response is stored unless the request says
``"store": false``, and a request naming it in ``previous_response_id``
carries its conversation on -- that response's input (with what it carried
on in turn) and its output go before the new input, after the new
``instructions`` (the earlier ones are not carried over). An id the server
did not store is the API's 400 ``previous_response_not_found``. The store
is the server's (:class:`~agentkit.fakes.api.FakeApi` keeps it, and
``serve`` empties it with the request log).

Streamed answer: ``response.created``, ``response.in_progress``, then per
output item ``response.output_item.added``, its deltas and
``response.output_item.done`` -- a ``reasoning`` item first when the port
reasoned (:attr:`~agentkit.core.types.Delta.reasoning`: one summary part,
``response.reasoning_summary_part`` and ``reasoning_summary_text`` events,
one text delta per reasoning delta), a ``message`` item (``content_part`` and
``output_text`` events, one ``output_text.delta`` per content delta of the
port) and a ``function_call`` item per tool call (``custom_tool_call`` when
the tool was offered as ``custom``) -- and ``response.completed`` carrying
the usage (``response.incomplete`` when the port stopped for length or a content
filter: ``incomplete_details.reason`` ``max_output_tokens`` or ``content_filter``).
Every event has its ``sequence_number``. Usage: ``input_tokens`` is the
whole prompt (OpenAI counts cached input inside it),
``input_tokens_details.cached_tokens`` the cached part,
``output_tokens_details.reasoning_tokens`` the reasoning.

An answer's output items are read back by the same :func:`read_item` as a
request's input items, and its usage and finish reason by :func:`read_usage`
and :func:`kit_finish` beside what writes them, for
:mod:`~agentkit.fakes.api._read_openai_responses`, which reads a real
provider's answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from agentkit.core.types import Message, ToolCall, Usage
from agentkit.fakes.api._body import Body, arguments_of, missing, text_of, tool_names
from agentkit.fakes.api._call import Collected, PortCall, WireError, json_text, pieces
from agentkit.fakes.api._openai_chat import (
    CREATED,
    MAX_BODY,
    REQUEST_ID,
    error_body,
    error_code,
    inclusive_usage,
)
from agentkit.fakes.api._sse import frame

__all__ = [
    "MAX_BODY",
    "NAME",
    "REQUEST_ID",
    "error_body",
    "failed",
    "kit_finish",
    "opening",
    "parse",
    "previous_id",
    "read_item",
    "read_usage",
    "reply_body",
    "stream",
]

NAME = "OpenAI Responses"

_TEXT_PARTS = ("input_text", "output_text", "text")


# ------------------------------------------------------------------ request


def _append_call(messages: list[Message], call: ToolCall) -> None:
    """Put ``call`` on the assistant message it follows (a new one if there is none)."""
    last = messages[-1] if messages else None
    if last is not None and last.role == "assistant":
        messages[-1] = Message.assistant(last.content, tool_calls=(*last.tool_calls, call))
    else:
        messages.append(Message.assistant("", tool_calls=(call,)))


def read_item(item: object, index: int, messages: list[Message]) -> None:
    """Add an input item to ``messages`` -- and an answer's output item, which has the same
    shape: a ``message`` item's text, a ``function_call`` or ``custom_tool_call`` item a
    tool call (under its flat name when it names a namespace) on the assistant message."""
    where = f"input.{index}"
    if not isinstance(item, dict):
        raise WireError(f"{where}: must be an object")
    kind = item.get("type", "message")
    if kind == "message":
        for key in ("role", "content"):
            if item.get(key) is None:
                raise missing(f"input[{index}].{key}")
        role = item.get("role")
        text = text_of(item.get("content"), f"{where}.content", _TEXT_PARTS)
        if role in ("system", "developer"):
            messages.append(Message.system(text))
        elif role == "user":
            messages.append(Message.user(text))
        elif role == "assistant":
            messages.append(Message.assistant(text))
        else:
            raise WireError(f"{where}.role: {role!r} is not a role this API takes")
    elif kind in ("function_call", "custom_tool_call"):
        call_id, name = item.get("call_id"), item.get("name")
        if not isinstance(call_id, str) or not isinstance(name, str):
            raise WireError(f"{where}: a {kind} needs a call_id and a name")
        namespace = item.get("namespace")
        if isinstance(namespace, str) and namespace:
            name = f"{namespace}__{name}"
        if kind == "function_call":
            arguments = arguments_of(item.get("arguments", "{}"), where)
        else:
            arguments = {"input": str(item.get("input", ""))}
        _append_call(messages, ToolCall(call_id, name, arguments))
    elif kind in ("function_call_output", "custom_tool_call_output"):
        call_id = item.get("call_id")
        if not isinstance(call_id, str):
            raise WireError(f"{where}: a {kind} needs its call_id")
        if item.get("output") is None:
            raise missing(f"input[{index}].output")
        output = text_of(item.get("output"), f"{where}.output", _TEXT_PARTS)
        messages.append(
            Message.tool(output, tool_call_id=call_id, name=tool_names(messages).get(call_id))
        )


def _tool(tool: dict[str, Any], where: str) -> tuple[object, object, object]:
    """A ``function`` tool's parameters are its schema; any other tool (codex's free-form
    ``custom`` tools, built-ins) is offered under its name, or its type, with none."""
    kind = tool.get("type")
    parameters = tool.get("parameters") if kind == "function" else None
    return tool.get("name", kind), tool.get("description"), parameters


def _custom(tools: object) -> frozenset[str]:
    """The names of the offered ``custom`` tools, whose calls take free-form input (read after
    :meth:`~agentkit.fakes.api._body.Body.tools` has checked every entry)."""
    if not isinstance(tools, list):
        return frozenset()
    return frozenset(t.get("name", "custom") for t in tools if t.get("type") == "custom")


def _flatten(body: Any) -> tuple[Any, dict[str, tuple[str, str]]]:
    """``body`` with each ``namespace`` tool replaced by its tools under their flat names, and
    ``{flat name: (namespace, inner name)}``; an entry of another shape is left for
    :meth:`~agentkit.fakes.api._body.Body.tools` to refuse."""
    tools = body.get("tools") if isinstance(body, dict) else None
    if not isinstance(tools, list):
        return body, {}
    flat: list[Any] = []
    names: dict[str, tuple[str, str]] = {}
    for tool in tools:
        inner = tool.get("tools") if isinstance(tool, dict) else None
        if not (tool.get("type") == "namespace" and isinstance(inner, list)):
            flat.append(tool)
            continue
        for entry in inner:
            if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                full = f"{tool.get('name')}__{entry['name']}"
                names[full] = (str(tool.get("name")), entry["name"])
                entry = {**entry, "name": full}
            flat.append(entry)
    return ({**body, "tools": flat}, names) if names else (body, {})


def previous_id(body: Any) -> str | None:
    """The ``previous_response_id`` a request names (before it is parsed: the earlier
    conversation it names goes before its input)."""
    value = body.get("previous_response_id") if isinstance(body, dict) else None
    if value is not None and not isinstance(value, str):
        raise WireError("previous_response_id: must be a string", param="previous_response_id")
    return value


def parse(body: Any, earlier: Sequence[Message] = ()) -> PortCall:
    """The port call ``body`` stands for; ``earlier`` is the conversation of the response
    its ``previous_response_id`` names, which goes after this request's instructions
    (the API carries no instructions over) and before its input."""
    body, namespaced = _flatten(body)
    request = Body(body)
    messages: list[Message] = []
    instructions = request.fields.get("instructions")
    if isinstance(instructions, str) and instructions:
        messages.append(Message.system(instructions))
    carried_from = len(messages)
    messages.extend(earlier)
    store = request.fields.get("store", True)
    if not isinstance(store, bool):
        raise WireError("store: must be a boolean", param="store")
    raw_input = request.fields.get("input")
    if isinstance(raw_input, str):
        messages.append(Message.user(raw_input))
    elif isinstance(raw_input, list):
        for index, item in enumerate(raw_input):
            read_item(item, index, messages)
    elif raw_input is not None:
        raise WireError("input: must be a string or a list of items")
    tools = request.tools(_tool)
    text = request.fields.get("text")
    fmt = text.get("format") if isinstance(text, dict) else None
    call = request.call(
        messages,
        tools,
        request.optional_int("max_output_tokens"),
        response_format=fmt if isinstance(fmt, dict) and fmt.get("type") != "text" else None,
        custom_tools=_custom(request.fields.get("tools")),
        store=store,
        previous_response_id=previous_id(body),
        carried_from=carried_from,
    )
    return dataclasses.replace(call, namespaced=namespaced) if namespaced else call


# ------------------------------------------------------------------- answer


def _usage(reply: Collected) -> dict[str, Any]:
    usage = reply.usage
    return {
        "input_tokens": usage.prompt_tokens,
        "input_tokens_details": {"cached_tokens": usage.cached_input_tokens},
        "output_tokens": usage.output_tokens,
        "output_tokens_details": {"reasoning_tokens": usage.reasoning_tokens},
        "total_tokens": usage.total_tokens,
    }


def read_usage(wire: dict[str, Any], where: str) -> Usage:
    """The kit's Usage of a response's ``usage`` (what :func:`_usage` writes, read back)."""
    return inclusive_usage(wire, ("input_tokens", "output_tokens"), NAME, where)


def _response(
    call: PortCall, ident: str, status: str, output: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "id": f"resp_{ident}",
        "object": "response",
        "created_at": CREATED,
        "status": status,
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": call.max_tokens,
        "model": call.model,
        "output": output,
        "parallel_tool_calls": True,
        "temperature": call.temperature,
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "usage": None,
        "metadata": {},
        "previous_response_id": call.previous_response_id,
        "store": call.store,
    }


def _message_item(ident: str, text: str, status: str) -> dict[str, Any]:
    content = [] if status == "in_progress" else [_part(text)]
    return {
        "id": f"msg_{ident}",
        "type": "message",
        "role": "assistant",
        "status": status,
        "content": content,
    }


def _reasoning_item(ident: str, text: str | None) -> dict[str, Any]:
    summary = [] if text is None else [{"type": "summary_text", "text": text}]
    return {"id": f"rs_{ident}", "type": "reasoning", "summary": summary}


def _part(text: str) -> dict[str, Any]:
    return {"type": "output_text", "text": text, "annotations": [], "logprobs": []}


def _call_item(call: PortCall, ident: str, index: int, c: ToolCall, done: bool) -> dict[str, Any]:
    status = "completed" if done else "in_progress"
    if c.name in call.custom_tools:
        raw = c.arguments.get("input", "")
        return {
            "id": f"ctc_{ident}_{index}",
            "type": "custom_tool_call",
            "call_id": c.id,
            "name": c.name,
            "input": raw if isinstance(raw, str) else json_text(c.arguments),
            "status": status,
        }
    item = {
        "id": f"fc_{ident}_{index}",
        "type": "function_call",
        "call_id": c.id,
        "name": c.name,
        "arguments": json_text(c.arguments) if done else "",
        "status": status,
    }
    if c.name in call.namespaced:
        item["namespace"], item["name"] = call.namespaced[c.name]
    return item


def _output(call: PortCall, reply: Collected, ident: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if reply.thoughts:
        out.append(_reasoning_item(ident, reply.reasoning))
    if reply.pieces or not reply.tool_calls:
        out.append(_message_item(ident, reply.content, "completed"))
    out.extend(_call_item(call, ident, i, c, True) for i, c in enumerate(reply.tool_calls))
    return out


_INCOMPLETE = {"length": "max_output_tokens", "content_filter": "content_filter"}
"""``{kit finish reason: incomplete_details.reason}``: the reasons a response stops short."""
_KIT_INCOMPLETE = {wire: kit for kit, wire in _INCOMPLETE.items()}


def kit_finish(status: object, reason: object, called: bool) -> str | None:
    """The kit's finish reason for a response's ``status`` and ``incomplete_details.reason``
    (what :func:`_final` writes, read back): a completed response stopped (``tool_calls``
    when it ``called`` a tool), an incomplete one for its reason."""
    if status == "completed":
        return "tool_calls" if called else "stop"
    if status == "incomplete":
        return _KIT_INCOMPLETE.get(str(reason), str(reason) if reason else "length")
    return None


def _final(call: PortCall, reply: Collected, ident: str) -> dict[str, Any]:
    short = _INCOMPLETE.get(str(reply.finish_reason))
    response = _response(
        call, ident, "completed" if short is None else "incomplete", _output(call, reply, ident)
    )
    if short is not None:
        response["incomplete_details"] = {"reason": short}
    response["usage"] = _usage(reply)
    return response


def reply_body(call: PortCall, reply: Collected, ident: str) -> dict[str, Any]:
    return _final(call, reply, ident)


class _Events:
    """Numbers the events: every Responses event carries its ``sequence_number``."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def add(self, data: dict[str, Any]) -> None:
        data["sequence_number"] = len(self.frames)
        self.frames.append(frame(data, str(data["type"])))


def _open(events: _Events, call: PortCall, ident: str) -> None:
    events.add({"type": "response.created", "response": _response(call, ident, "in_progress", [])})
    events.add(
        {"type": "response.in_progress", "response": _response(call, ident, "in_progress", [])}
    )


def opening(call: PortCall, ident: str) -> list[bytes]:
    events = _Events()
    _open(events, call, ident)
    return events.frames


def _reasoning_events(events: _Events, ident: str, reply: Collected) -> None:
    item = _reasoning_item(ident, None)
    events.add({"type": "response.output_item.added", "output_index": 0, "item": item})
    where = {"item_id": item["id"], "output_index": 0, "summary_index": 0}
    events.add(
        {
            "type": "response.reasoning_summary_part.added",
            **where,
            "part": {"type": "summary_text", "text": ""},
        }
    )
    for thought in reply.thoughts:
        events.add({"type": "response.reasoning_summary_text.delta", **where, "delta": thought})
    text = reply.reasoning
    events.add({"type": "response.reasoning_summary_text.done", **where, "text": text})
    events.add(
        {
            "type": "response.reasoning_summary_part.done",
            **where,
            "part": {"type": "summary_text", "text": text},
        }
    )
    events.add(
        {
            "type": "response.output_item.done",
            "output_index": 0,
            "item": _reasoning_item(ident, text),
        }
    )


def _message_events(events: _Events, ident: str, reply: Collected, at: int) -> None:
    item_id = f"msg_{ident}"
    events.add(
        {
            "type": "response.output_item.added",
            "output_index": at,
            "item": _message_item(ident, "", "in_progress"),
        }
    )
    where = {"item_id": item_id, "output_index": at, "content_index": 0}
    events.add({"type": "response.content_part.added", **where, "part": _part("")})
    for piece in reply.pieces:
        events.add({"type": "response.output_text.delta", **where, "delta": piece, "logprobs": []})
    if reply.broken is not None:
        return
    text = reply.content
    events.add({"type": "response.output_text.done", **where, "text": text, "logprobs": []})
    events.add({"type": "response.content_part.done", **where, "part": _part(text)})
    events.add(
        {
            "type": "response.output_item.done",
            "output_index": at,
            "item": _message_item(ident, text, "completed"),
        }
    )


def stream(call: PortCall, reply: Collected, ident: str) -> list[bytes]:
    """The whole event stream; for a broken reply, only as far as the port got."""
    events = _Events()
    _open(events, call, ident)
    at = 0
    if reply.thoughts:
        _reasoning_events(events, ident, reply)
        at = 1
    if reply.pieces or not (reply.tool_calls or reply.broken):
        _message_events(events, ident, reply, at)
        at += 1
    if reply.broken is not None:
        return events.frames
    for index, c in enumerate(reply.tool_calls):
        added = _call_item(call, ident, index, c, False)
        events.add({"type": "response.output_item.added", "output_index": at, "item": added})
        if added["type"] == "function_call":
            arguments = json_text(c.arguments)
            for part in pieces(arguments):
                events.add(
                    {
                        "type": "response.function_call_arguments.delta",
                        "item_id": added["id"],
                        "output_index": at,
                        "delta": part,
                    }
                )
            events.add(
                {
                    "type": "response.function_call_arguments.done",
                    "item_id": added["id"],
                    "output_index": at,
                    "arguments": arguments,
                }
            )
        events.add(
            {
                "type": "response.output_item.done",
                "output_index": at,
                "item": _call_item(call, ident, index, c, True),
            }
        )
        at += 1
    final = _final(call, reply, ident)
    kind = "response.incomplete" if final["status"] == "incomplete" else "response.completed"
    events.add({"type": kind, "response": final})
    return events.frames


def failed(
    call: PortCall,
    ident: str,
    status: int,
    kind: str | None,
    message: str,
    shown: Collected | None = None,
) -> list[bytes]:
    """A stream that starts, shows what the port produced before failing (``shown``, a
    broken reply: its reasoning item, its message item's text deltas, left open), then
    reports ``response.failed`` with an error code and message."""
    events = _Events()
    if shown is None:
        _open(events, call, ident)
    else:
        events.frames = stream(call, shown, ident)  # numbered from 0 on: the next follows
    response = _response(call, ident, "failed", [])
    response["error"] = {"code": error_code(status, kind), "message": message}
    events.add({"type": "response.failed", "response": response})
    return events.frames
