"""What the Anthropic Messages API streams, built for the mock: one assistant message as SSE.

claude POSTs ``/v1/messages`` with ``"stream": true`` and reads Server-Sent
Events: ``message_start`` (the message, with its input usage), then per
content block ``content_block_start`` / ``content_block_delta``... /
``content_block_stop``, then ``message_delta`` (``stop_reason`` and the
output token count) and ``message_stop``; ``ping`` may come anywhere.
Deltas are ``text_delta``, ``thinking_delta`` + ``signature_delta`` for a
thinking block, ``input_json_delta`` for a ``tool_use`` block's input.

Errors are a JSON body ``{"type":"error","error":{"type":...,"message":...}}``
with the HTTP status: 401 ``authentication_error``, 529
``overloaded_error``. The ids and token counts here are scripted, so a
recording's model text and usage come from the scenario while every line's
shape comes from the CLI.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tools.parity.mock_api import JsonReply, Request, Sse

__all__ = [
    "Text",
    "Thinking",
    "ToolUse",
    "assistant_turns",
    "error_reply",
    "is_auxiliary",
    "message_stream",
    "tool_results",
    "user_texts",
]


@dataclass(frozen=True, slots=True)
class Text:
    text: str


@dataclass(frozen=True, slots=True)
class Thinking:
    thinking: str
    signature: str = "c2lnbmF0dXJlLWZyb20tdGhlLXBhcml0eS1tb2Nr"


@dataclass(frozen=True, slots=True)
class ToolUse:
    id: str
    name: str
    input: Mapping[str, Any]


def _pieces(text: str, parts: int = 3) -> list[str]:
    """``text`` in up to ``parts`` deltas, as a real stream splits it."""
    if not text:
        return [""]
    size = max(1, -(-len(text) // parts))
    return [text[i : i + size] for i in range(0, len(text), size)]


def message_stream(
    blocks: Sequence[Text | Thinking | ToolUse],
    *,
    message_id: str,
    model: str,
    input_tokens: int = 120,
    output_tokens: int = 30,
    cache_read_input_tokens: int = 0,
    cache_creation_input_tokens: int = 0,
    stop_reason: str | None = None,
    break_after: int | None = None,
) -> Sse:
    """One assistant message as the API streams it.

    ``stop_reason`` defaults to ``tool_use`` when a block is a tool call,
    else ``end_turn``.
    """
    if stop_reason is None:
        stop_reason = "tool_use" if any(isinstance(b, ToolUse) for b in blocks) else "end_turn"
    events: list[tuple[str, Mapping[str, Any]]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": message_id,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {
                        "input_tokens": input_tokens,
                        "cache_creation_input_tokens": cache_creation_input_tokens,
                        "cache_read_input_tokens": cache_read_input_tokens,
                        "output_tokens": 1,
                        "service_tier": "standard",
                    },
                },
            },
        ),
        ("ping", {"type": "ping"}),
    ]
    for index, block in enumerate(blocks):
        start: dict[str, Any]
        deltas: list[dict[str, Any]]
        if isinstance(block, Text):
            start = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": p} for p in _pieces(block.text)]
        elif isinstance(block, Thinking):
            start = {"type": "thinking", "thinking": "", "signature": ""}
            deltas = [{"type": "thinking_delta", "thinking": p} for p in _pieces(block.thinking)]
            deltas.append({"type": "signature_delta", "signature": block.signature})
        else:
            start = {"type": "tool_use", "id": block.id, "name": block.name, "input": {}}
            raw = json.dumps(dict(block.input), separators=(",", ":"))
            deltas = [{"type": "input_json_delta", "partial_json": p} for p in _pieces(raw)]
        events.append(
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": start},
            )
        )
        events.extend(
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": d})
            for d in deltas
        )
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": output_tokens},
            },
        )
    )
    events.append(("message_stop", {"type": "message_stop"}))
    return Sse(tuple(events), break_after=break_after)


def error_reply(status: int, kind: str, message: str) -> JsonReply:
    """An API error answer: ``authentication_error`` (401), ``overloaded_error`` (529), ..."""
    return JsonReply(
        status,
        {"type": "error", "error": {"type": kind, "message": message}},
        headers={"request-id": f"req_parity_{status}"},
    )


def is_auxiliary(request: Request) -> bool:
    """A side request (a title, a quota probe...) rather than the conversation's own call.

    The CLI makes small calls of its own on a cheaper model or without the
    tool list; they are answered with a short text and kept out of the
    scenario's turn counting.
    """
    body = request.body if isinstance(request.body, dict) else {}
    model = str(body.get("model", ""))
    return "haiku" in model or not body.get("tools")


def _messages(request: Request) -> list[Mapping[str, Any]]:
    body = request.body if isinstance(request.body, dict) else {}
    messages = body.get("messages")
    return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []


def assistant_turns(request: Request) -> int:
    """How many assistant messages the conversation in ``request`` already holds.

    0 for the first call of a run, 1 after one tool round trip, ...; a
    scenario picks its answer by it.
    """
    return sum(1 for m in _messages(request) if m.get("role") == "assistant")


def tool_results(request: Request) -> list[Mapping[str, Any]]:
    """The ``tool_result`` blocks the CLI sent back in ``request``."""
    out: list[Mapping[str, Any]] = []
    for message in _messages(request):
        content = message.get("content")
        if isinstance(content, list):
            out.extend(b for b in content if isinstance(b, dict) and b.get("type") == "tool_result")
    return out


def user_texts(request: Request) -> list[str]:
    """The plain-text user messages of the conversation, in order (tool results left out)."""
    texts: list[str] = []
    for message in _messages(request):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            parts = [
                str(b.get("text", ""))
                for b in content
                if isinstance(b, dict) and b.get("type") == "text"
            ]
            if parts and not any(
                isinstance(b, dict) and b.get("type") == "tool_result" for b in content
            ):
                texts.append("".join(parts))
    return texts
