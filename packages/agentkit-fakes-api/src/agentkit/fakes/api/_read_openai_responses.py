"""An OpenAI Responses answer read back into the kit's types: the inverse of
:mod:`agentkit.fakes.api._openai_responses`'s answer, for any server speaking the API.

A response's output items are read as the same items in a request's input
are (:func:`~agentkit.fakes.api._openai_responses.read_item`): ``message``
items are the content, ``function_call`` and ``custom_tool_call`` items
the tool calls; a ``reasoning`` item's summary (or, where a model streams
its raw reasoning, its ``reasoning_text`` content) is the reasoning; built-in
tool items (web search...) hold nothing the kit's answer carries and are
skipped. The finish reason comes from the ``status`` and
``incomplete_details`` (:func:`~agentkit.fakes.api._openai_responses.kit_finish`).

A stream ends with the whole response -- ``response.completed`` or
``response.incomplete`` -- which is read as a body is (its items gathered
from ``response.output_item.done`` when a server leaves its ``output``
empty); ``response.failed`` or an ``error`` event ends it with the
provider's error.
"""

from __future__ import annotations

from typing import Any

from agentkit.core.types import ChatResponse, Message
from agentkit.fakes.api._call import WireError
from agentkit.fakes.api._openai_chat import status_of
from agentkit.fakes.api._openai_responses import NAME, kit_finish, read_item, read_usage
from agentkit.fakes.api._reading import Failure, Folding, UnreadableAnswer, field

__all__ = ["ResponsesFolding", "read_response"]

_READ_ITEMS = frozenset(("message", "function_call", "custom_tool_call"))
_TERMINAL = frozenset(("response.completed", "response.incomplete"))
_REASONING_DELTAS = frozenset(
    ("response.reasoning_summary_text.delta", "response.reasoning_text.delta")
)


def _texts(item: dict[str, Any], key: str, kind: str, where: str) -> list[str]:
    parts = item.get(key) or []
    if not isinstance(parts, list):
        raise UnreadableAnswer(NAME, f"{where}.{key}", "expected a list of parts")
    texts: list[str] = []
    for part in parts:
        if isinstance(part, dict) and part.get("type") == kind:
            text = part.get("text")
            if not isinstance(text, str):
                raise UnreadableAnswer(NAME, f"{where}.{key}", f"a {kind} part without text")
            texts.append(text)
    return texts


def _reasoning(item: dict[str, Any], where: str) -> str:
    """A reasoning item's text: its summary parts, else its raw reasoning parts."""
    texts = _texts(item, "summary", "summary_text", where) or _texts(
        item, "content", "reasoning_text", where
    )
    return "\n\n".join(texts)


def _failure(error: dict[str, Any]) -> Failure:
    code, message = error.get("code"), error.get("message")
    code = code if isinstance(code, str) and code else None
    return Failure(status_of(code, code), code, message if isinstance(message, str) else "")


def read_response(response: object, where: str) -> ChatResponse:
    """The kit's answer a ``response`` object holds (a whole body, or a stream's last event)."""
    if not isinstance(response, dict):
        raise UnreadableAnswer(NAME, where, f"expected a response object, got {response!r:.80}")
    if response.get("status") == "failed":
        raise _failure(field(response, "error", NAME, where))
    output = response.get("output") or []
    if not isinstance(output, list):
        raise UnreadableAnswer(NAME, f"{where}.output", "expected a list of items")
    messages: list[Message] = []
    thoughts: list[str] = []
    for index, item in enumerate(output):
        at = f"{where}.output.{index}"
        if not isinstance(item, dict):
            raise UnreadableAnswer(NAME, at, f"expected an item object, got {item!r:.80}")
        if item.get("type") == "reasoning":
            thoughts.append(_reasoning(item, at))
        elif item.get("type") in _READ_ITEMS:
            try:
                read_item(item, index, messages)
            except WireError as exc:
                raise UnreadableAnswer(NAME, at, str(exc)) from None
    calls = tuple(c for m in messages for c in m.tool_calls)
    details = field(response, "incomplete_details", NAME, where)
    model = response.get("model")
    return ChatResponse(
        content="".join(m.content for m in messages if m.role == "assistant"),
        tool_calls=calls,
        usage=read_usage(field(response, "usage", NAME, where), f"{where}.usage"),
        finish_reason=kit_finish(response.get("status"), details.get("reason"), bool(calls)),
        model=model if isinstance(model, str) else "",
        reasoning="\n\n".join(t for t in thoughts if t),
    )


class ResponsesFolding(Folding):
    """A Responses event stream, read at its terminal event."""

    WIRE = NAME

    def __init__(self) -> None:
        super().__init__()
        self._items: dict[int, dict[str, Any]] = {}

    def take(self, name: str | None, data: str, where: str) -> None:
        event = self.loads(data, where)
        if not isinstance(event, dict):
            raise UnreadableAnswer(NAME, where, f"expected an event object, got {event!r:.80}")
        kind = event.get("type", name)
        if isinstance(event.get("response"), dict):
            self.identify(event["response"])
        if kind == "response.output_text.delta":
            self.text(content=self._delta(event, where))
        elif kind in _REASONING_DELTAS:
            self.text(reasoning=self._delta(event, where))
        elif kind == "response.output_item.done":
            index = event.get("output_index", len(self._items))
            if isinstance(index, bool) or not isinstance(index, int):
                raise UnreadableAnswer(NAME, f"{where}.output_index", "not an item index")
            self._items[index] = field(event, "item", NAME, where)
        elif kind in _TERMINAL:
            response = field(event, "response", NAME, where)
            if not response.get("output") and self._items:
                response = {**response, "output": [i for _, i in sorted(self._items.items())]}
            self.answer = read_response(response, f"{where}.response")
            self.done = True
        elif kind == "response.failed":
            self.failure = _failure(
                field(field(event, "response", NAME, where), "error", NAME, where)
            )
            self.done = True
        elif kind == "error":
            inner = event.get("error")  # a server may nest it; the API puts it in the event
            self.failure = _failure(inner if isinstance(inner, dict) else event)
            self.done = True

    def _delta(self, event: dict[str, Any], where: str) -> str:
        delta = event.get("delta", "")
        if not isinstance(delta, str):
            raise UnreadableAnswer(NAME, f"{where}.delta", f"expected a string, got {delta!r:.80}")
        return delta
