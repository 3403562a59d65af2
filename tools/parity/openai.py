"""What the OpenAI Responses API streams, built for the mock: one response as SSE.

codex POSTs ``/v1/responses`` (the mock is configured as a custom model
provider with ``wire_api = "responses"``) and reads Server-Sent Events:
``response.created``, then per output item ``response.output_item.added``,
its deltas, ``response.output_item.done``, and finally
``response.completed`` carrying the usage (``input_tokens``,
``input_tokens_details.cached_tokens``, ``output_tokens``,
``output_tokens_details.reasoning_tokens``, ``total_tokens``). Output items
are ``reasoning`` (a summary codex shows as a reasoning item),
``message`` (``output_text`` content: the agent's answer) and
``function_call`` (a tool call -- codex runs the shell command it names and
sends the output back in the next request as a ``function_call_output``).

A ``response.failed`` event, an HTTP error status, or a stream cut off
before ``response.completed`` fail the turn (with retries disabled by the
provider configuration the suite passes).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tools.parity.mock_api import JsonReply, Request, Sse

__all__ = [
    "FunctionCall",
    "Message",
    "Reasoning",
    "error_reply",
    "function_outputs",
    "response_failed",
    "response_stream",
]


@dataclass(frozen=True, slots=True)
class Reasoning:
    summary: str


@dataclass(frozen=True, slots=True)
class Message:
    text: str


@dataclass(frozen=True, slots=True)
class FunctionCall:
    call_id: str
    name: str
    arguments: Mapping[str, Any]


def _item(index: int, response_id: str, part: Reasoning | Message | FunctionCall) -> dict[str, Any]:
    if isinstance(part, Reasoning):
        return {
            "type": "reasoning",
            "id": f"rs_{response_id}_{index}",
            "summary": [{"type": "summary_text", "text": part.summary}],
        }
    if isinstance(part, Message):
        return {
            "type": "message",
            "id": f"msg_{response_id}_{index}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": part.text, "annotations": []}],
        }
    return {
        "type": "function_call",
        "id": f"fc_{response_id}_{index}",
        "call_id": part.call_id,
        "name": part.name,
        "arguments": json.dumps(dict(part.arguments), separators=(",", ":")),
        "status": "completed",
    }


def _response(response_id: str, model: str, status: str, output: list[Any]) -> dict[str, Any]:
    return {
        "id": response_id,
        "object": "response",
        "created_at": 1_800_000_000,
        "status": status,
        "model": model,
        "output": output,
    }


def response_stream(
    parts: Sequence[Reasoning | Message | FunctionCall],
    *,
    response_id: str,
    model: str,
    input_tokens: int = 1200,
    cached_tokens: int = 0,
    output_tokens: int = 40,
    reasoning_tokens: int = 0,
    break_after: int | None = None,
) -> Sse:
    """One successful response, item by item, ending in ``response.completed``."""
    events: list[tuple[str, Mapping[str, Any]]] = [
        (
            "response.created",
            {
                "type": "response.created",
                "response": _response(response_id, model, "in_progress", []),
            },
        )
    ]
    done: list[dict[str, Any]] = []
    for index, part in enumerate(parts):
        item = _item(index, response_id, part)
        events.append(
            (
                "response.output_item.added",
                {"type": "response.output_item.added", "output_index": index, "item": item},
            )
        )
        if isinstance(part, Message):
            events.append(
                (
                    "response.output_text.delta",
                    {
                        "type": "response.output_text.delta",
                        "item_id": item["id"],
                        "output_index": index,
                        "content_index": 0,
                        "delta": part.text,
                    },
                )
            )
        events.append(
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": index, "item": item},
            )
        )
        done.append(item)
    completed = _response(response_id, model, "completed", done)
    completed["usage"] = {
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": cached_tokens},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": reasoning_tokens},
        "total_tokens": input_tokens + output_tokens,
    }
    events.append(("response.completed", {"type": "response.completed", "response": completed}))
    return Sse(tuple(events), break_after=break_after)


def response_failed(*, response_id: str, model: str, code: str, message: str) -> Sse:
    """A stream that starts, then reports ``response.failed`` with an error."""
    failed = _response(response_id, model, "failed", [])
    failed["error"] = {"code": code, "message": message}
    return Sse(
        (
            (
                "response.created",
                {
                    "type": "response.created",
                    "response": _response(response_id, model, "in_progress", []),
                },
            ),
            ("response.failed", {"type": "response.failed", "response": failed}),
        )
    )


def error_reply(status: int, kind: str, message: str, *, code: str | None = None) -> JsonReply:
    """An API error answer in the OpenAI shape: ``{"error": {"message", "type", "code"}}``."""
    return JsonReply(
        status,
        {"error": {"message": message, "type": kind, "param": None, "code": code}},
        headers={"x-request-id": f"req_parity_{status}"},
    )


def function_outputs(request: Request) -> list[Mapping[str, Any]]:
    """The ``function_call_output`` items codex sent back in ``request``."""
    body = request.body if isinstance(request.body, dict) else {}
    items = body.get("input")
    if not isinstance(items, list):
        return []
    return [i for i in items if isinstance(i, dict) and i.get("type") == "function_call_output"]
