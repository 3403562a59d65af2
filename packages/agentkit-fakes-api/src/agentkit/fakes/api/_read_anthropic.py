"""An Anthropic Messages answer read back into the kit's types: the inverse of
:mod:`agentkit.fakes.api._anthropic`'s answer, for any server speaking the API.

A message's ``text`` blocks are the content, its ``thinking`` blocks the
reasoning and its ``tool_use`` blocks the tool calls (read as a request's
assistant message is, by :func:`~agentkit.fakes.api._anthropic.assistant_of`);
other blocks -- ``redacted_thinking``, a server tool's use and results --
hold nothing the kit's answer carries and are skipped. A stream is added
up into the message it stands for (``message_start``'s message, each
block from its ``content_block_start`` and deltas, ``message_delta``'s stop
reason and usage) and read the same way once ``message_stop`` arrives; an
``error`` event ends it with the provider's error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agentkit.core.types import ChatResponse
from agentkit.fakes.api._anthropic import NAME, assistant_of, kit_finish, read_usage, status_of
from agentkit.fakes.api._call import WireError
from agentkit.fakes.api._reading import Failure, Folding, UnreadableAnswer, field

__all__ = ["AnthropicFolding", "read_message"]

_OWN_BLOCKS = frozenset(("text", "tool_use"))


def _text(value: object, key: str, where: str) -> str:
    """``value[key]``, a string (absent reads as empty)."""
    text = value.get(key, "") if isinstance(value, dict) else None
    if not isinstance(text, str):
        raise UnreadableAnswer(NAME, f"{where}.{key}", f"expected a string, got {text!r:.80}")
    return text


def read_message(message: object, where: str) -> ChatResponse:
    """The kit's answer a ``message`` object holds (a whole body, or a stream added up)."""
    if not isinstance(message, dict):
        raise UnreadableAnswer(NAME, where, f"expected a message object, got {message!r:.80}")
    blocks = message.get("content")
    if not isinstance(blocks, list) or not all(isinstance(b, dict) for b in blocks):
        raise UnreadableAnswer(NAME, f"{where}.content", "expected a list of content blocks")
    reasoning = "".join(
        _text(b, "thinking", f"{where}.content") for b in blocks if b.get("type") == "thinking"
    )
    try:
        said = assistant_of([b for b in blocks if b.get("type") in _OWN_BLOCKS], where)
    except WireError as exc:
        raise UnreadableAnswer(NAME, f"{where}.content", str(exc)) from None
    stop = message.get("stop_reason")
    model = message.get("model")
    return ChatResponse(
        content=said.content,
        tool_calls=said.tool_calls,
        usage=read_usage(field(message, "usage", NAME, where), f"{where}.usage"),
        finish_reason=kit_finish(stop) if isinstance(stop, str) else None,
        model=model if isinstance(model, str) else "",
        reasoning=reasoning,
    )


class AnthropicFolding(Folding):
    """A Messages event stream added up into its message."""

    WIRE = NAME

    def __init__(self) -> None:
        super().__init__()
        self._message: dict[str, Any] | None = None
        self._blocks: dict[int, dict[str, Any]] = {}
        self._inputs: dict[int, list[str]] = {}

    def take(self, name: str | None, data: str, where: str) -> None:
        event = self.loads(data, where)
        if not isinstance(event, dict):
            raise UnreadableAnswer(NAME, where, f"expected an event object, got {event!r:.80}")
        handler = _HANDLERS.get(str(event.get("type", name)))
        if handler is not None:  # ping, and event types newer than this reader: skipped
            handler(self, event, where)

    def _start(self, event: dict[str, Any], where: str) -> None:
        self._message = dict(field(event, "message", NAME, where))
        self.identify(self._message)

    def _started(self, where: str) -> dict[str, Any]:
        if self._message is None:
            raise UnreadableAnswer(NAME, where, "an event before message_start")
        return self._message

    def _block(self, event: dict[str, Any], where: str) -> int:
        index = event.get("index")
        if isinstance(index, bool) or not isinstance(index, int):
            raise UnreadableAnswer(NAME, f"{where}.index", f"not a block index: {index!r:.40}")
        return index

    def _block_start(self, event: dict[str, Any], where: str) -> None:
        self._started(where)
        index = self._block(event, where)
        block = dict(field(event, "content_block", NAME, where))
        self._blocks[index] = block
        if block.get("type") == "tool_use":
            self._inputs[index] = []

    def _block_delta(self, event: dict[str, Any], where: str) -> None:
        index = self._block(event, where)
        block = self._blocks.get(index)
        if block is None:
            raise UnreadableAnswer(NAME, where, f"a delta of block {index}, which never started")
        delta = field(event, "delta", NAME, where)
        kind = delta.get("type")
        if kind == "text_delta":
            text = _text(delta, "text", where)
            block["text"] = _text(block, "text", where) + text
            self.text(content=text)
        elif kind == "thinking_delta":
            thought = _text(delta, "thinking", where)
            block["thinking"] = _text(block, "thinking", where) + thought
            self.text(reasoning=thought)
        elif kind == "input_json_delta" and index in self._inputs:
            self._inputs[index].append(_text(delta, "partial_json", where))
        # signature_delta, citations_delta and newer deltas carry nothing the kit's answer holds

    def _block_stop(self, event: dict[str, Any], where: str) -> None:
        index = self._block(event, where)
        parts = self._inputs.pop(index, None)
        if parts is not None and "".join(parts).strip():
            self._blocks[index]["input"] = self.loads("".join(parts), f"{where} (tool input)")

    def _delta(self, event: dict[str, Any], where: str) -> None:
        message = self._started(where)
        delta = field(event, "delta", NAME, where)
        for key in ("stop_reason", "stop_sequence"):
            if key in delta:
                message[key] = delta[key]
        usage = field(event, "usage", NAME, where)
        # The counts given here are the message's final ones; the others stand from the start.
        given = {k: v for k, v in usage.items() if v is not None}
        message["usage"] = {**field(message, "usage", NAME, where), **given}

    def _stop(self, event: dict[str, Any], where: str) -> None:
        message = self._started(where)
        message["content"] = [self._blocks[i] for i in sorted(self._blocks)]
        self.answer = read_message(message, where)
        self.done = True

    def _error(self, event: dict[str, Any], where: str) -> None:
        error = field(event, "error", NAME, where)
        kind = error.get("type")
        kind = kind if isinstance(kind, str) and kind else None
        self.failure = Failure(status_of(kind), kind, _text(error, "message", where))
        self.done = True


_HANDLERS: dict[str, Callable[[AnthropicFolding, dict[str, Any], str], None]] = {
    "message_start": AnthropicFolding._start,
    "content_block_start": AnthropicFolding._block_start,
    "content_block_delta": AnthropicFolding._block_delta,
    "content_block_stop": AnthropicFolding._block_stop,
    "message_delta": AnthropicFolding._delta,
    "message_stop": AnthropicFolding._stop,
    "error": AnthropicFolding._error,
}
