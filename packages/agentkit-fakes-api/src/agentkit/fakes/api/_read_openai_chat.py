"""An OpenAI Chat Completions answer read back into the kit's types: the inverse of
:mod:`agentkit.fakes.api._openai_chat`'s answer, for any server speaking the API.

The first choice's message is the answer: its ``content`` (a string, or
text parts), its ``reasoning_content`` (or ``reasoning``, as other
OpenAI-compatible servers name it) and its ``tool_calls`` (read as a
request's assistant message's are, by
:func:`~agentkit.fakes.api._openai_chat.read_tool_calls`); its
``finish_reason`` is already the kit's name. A stream's chunks are added up
into that message -- each tool call gathered by its ``index``, its arguments
from their pieces -- and read the same way at ``data: [DONE]``; a chunk
holding an ``error`` object ends it with the provider's error.
"""

from __future__ import annotations

from typing import Any

from agentkit.core.types import ChatResponse
from agentkit.fakes.api._body import text_of
from agentkit.fakes.api._call import WireError
from agentkit.fakes.api._openai_chat import NAME, read_tool_calls, read_usage, status_of
from agentkit.fakes.api._reading import Failure, Folding, UnreadableAnswer, field

__all__ = ["ChatFolding", "error_failure", "read_completion"]

_REASONING = ("reasoning_content", "reasoning")


def _optional_text(value: dict[str, Any], key: str, where: str) -> str:
    text = value.get(key)
    if text is None:
        return ""
    if not isinstance(text, str):
        raise UnreadableAnswer(NAME, f"{where}.{key}", f"expected a string, got {text!r:.80}")
    return text


def _reasoning(message: dict[str, Any], where: str) -> str:
    for key in _REASONING:
        if message.get(key) is not None:
            return _optional_text(message, key, where)
    return ""


def _first_choice(body: object, where: str) -> dict[str, Any]:
    choices = body.get("choices") if isinstance(body, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise UnreadableAnswer(NAME, f"{where}.choices", "expected a list holding a choice")
    return choices[0]


def read_completion(body: object, where: str) -> ChatResponse:
    """The kit's answer a ``chat.completion`` object holds (a whole body, or a stream
    added up)."""
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        raise error_failure(body["error"])
    choice = _first_choice(body, where)
    at = f"{where}.choices.0.message"
    message = field(choice, "message", NAME, f"{where}.choices.0")
    try:
        content = text_of(message.get("content"), f"{at}.content")
        calls = read_tool_calls(message.get("tool_calls"), at)
    except WireError as exc:
        raise UnreadableAnswer(NAME, at, str(exc)) from None
    assert isinstance(body, dict)
    finish = choice.get("finish_reason")
    model = body.get("model")
    return ChatResponse(
        content=content,
        tool_calls=calls,
        usage=read_usage(field(body, "usage", NAME, where), f"{where}.usage"),
        finish_reason=finish if isinstance(finish, str) else None,
        model=model if isinstance(model, str) else "",
        reasoning=_reasoning(message, at),
    )


def error_failure(error: dict[str, Any]) -> Failure:
    """An OpenAI ``error`` object (``type``, ``code``, ``message``) as the failure it reports."""
    kind, code, message = error.get("type"), error.get("code"), error.get("message")
    kind = kind if isinstance(kind, str) and kind else None
    code = code if isinstance(code, str) and code else None
    text = message if isinstance(message, str) else ""
    return Failure(status_of(kind, code), kind or code, text)


class ChatFolding(Folding):
    """A chunk stream added up into the ``chat.completion`` it stands for."""

    WIRE = NAME

    def __init__(self) -> None:
        super().__init__()
        self._model: object = None
        self._content: list[str] = []
        self._reasoning: list[str] = []
        self._calls: dict[int, dict[str, Any]] = {}
        self._finish: object = None
        self._usage: object = None

    def take(self, name: str | None, data: str, where: str) -> None:
        if data.strip() == "[DONE]":
            self.answer = read_completion(self._completion(), where)
            self.done = True
            return
        chunk = self.loads(data, where)
        if not isinstance(chunk, dict):
            raise UnreadableAnswer(NAME, where, f"expected a chunk object, got {chunk!r:.80}")
        if chunk.get("error") is not None:
            self.failure = error_failure(field(chunk, "error", NAME, where))
            self.done = True
            return
        self.identify(chunk)
        self._model = chunk.get("model", self._model)
        if chunk.get("usage") is not None:
            self._usage = field(chunk, "usage", NAME, where)
        choices = chunk.get("choices") or []
        if not isinstance(choices, list):
            raise UnreadableAnswer(NAME, f"{where}.choices", "expected a list")
        for choice in choices:
            if isinstance(choice, dict) and choice.get("index", 0) == 0:
                self._choice(choice, where)

    def _choice(self, choice: dict[str, Any], where: str) -> None:
        delta = field(choice, "delta", NAME, where)
        content = _optional_text(delta, "content", where)
        reasoning = _reasoning(delta, where)
        self._content.append(content)
        self._reasoning.append(reasoning)
        self.text(content=content, reasoning=reasoning)
        calls = delta.get("tool_calls") or []
        if not isinstance(calls, list):
            raise UnreadableAnswer(NAME, f"{where}.tool_calls", "expected a list")
        for piece in calls:
            self._call_piece(piece, where)
        if choice.get("finish_reason") is not None:
            self._finish = choice["finish_reason"]

    def _call_piece(self, piece: object, where: str) -> None:
        if not isinstance(piece, dict):
            raise UnreadableAnswer(NAME, f"{where}.tool_calls", f"not a tool call: {piece!r:.80}")
        index = piece.get("index")
        if index is None:
            index = self._unindexed(piece.get("id"))
        if isinstance(index, bool) or not isinstance(index, int):
            raise UnreadableAnswer(NAME, f"{where}.tool_calls", f"not an index: {index!r:.40}")
        slot = self._calls.setdefault(index, {"id": None, "name": None, "arguments": []})
        if piece.get("id") is not None:
            slot["id"] = piece["id"]
        function = field(piece, "function", NAME, f"{where}.tool_calls")
        if function.get("name") is not None:
            slot["name"] = function["name"]
        slot["arguments"].append(_optional_text(function, "arguments", where))

    def _unindexed(self, ident: object) -> int:
        """Where a tool call piece without ``index`` goes (OpenAI always sends one; some
        compatible servers do not): a new call when it brings a new id, else the last call."""
        last = max(self._calls, default=-1)
        if last < 0 or (ident is not None and ident != self._calls[last]["id"]):
            return last + 1
        return last

    def _completion(self) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": "".join(self._content)}
        if any(self._reasoning):
            message["reasoning_content"] = "".join(self._reasoning)
        if self._calls:
            message["tool_calls"] = [
                {
                    "id": slot["id"],
                    "type": "function",
                    "function": {"name": slot["name"], "arguments": "".join(slot["arguments"])},
                }
                for _, slot in sorted(self._calls.items())
            ]
        return {
            "object": "chat.completion",
            "model": self._model,
            "choices": [{"index": 0, "message": message, "finish_reason": self._finish}],
            "usage": self._usage,
        }
