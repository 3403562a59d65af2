"""One model call's request, built once and handed on whole.

The :class:`~agentkit.core.ports.LLMPort` takes a request as seven keywords,
because that is the shape every provider SDK has. Everything behind the port
-- the Invoker and its middleware, pricing, a double's call log and its rules
-- works on one :class:`ChatRequest` instead, built once. A new request field
is then added in three places (here, and the port's ``chat`` and ``stream``),
not in every module that passes a request on.

:class:`ChatModel` is the base for a model written against that object: it
implements :meth:`ChatModel.stream_request` and inherits the port's keyword
``stream`` and ``chat`` -- ``chat`` being the stream collected, in this one
place, so that the two can never disagree. :func:`stream_of` is how a caller
holding a request reaches any LLMPort: a ChatModel gets the object itself, any
other port its keywords.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncGenerator, AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    check_int,
    check_mapping,
    check_number,
    check_str,
)
from agentkit.core.deltas import collect_response
from agentkit.core.types import ChatResponse, Delta, FrozenDict, Message, ToolSchema

if TYPE_CHECKING:
    from agentkit.core.ports import LLMPort

__all__ = ["ChatModel", "ChatRequest", "stream_of"]


def _messages(value: object) -> tuple[Message, ...]:
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise ArgumentTypeError("ChatRequest", "messages", "a sequence of Message", value)
    for index, message in enumerate(value):
        if not isinstance(message, Message):
            raise ArgumentTypeError("ChatRequest", f"messages[{index}]", "a Message", message)
    return tuple(value)


def _tools(value: object) -> tuple[ToolSchema, ...] | None:
    if value is None:
        return None
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise ArgumentTypeError("ChatRequest", "tools", "a sequence of ToolSchema or None", value)
    for index, schema in enumerate(value):
        if not isinstance(schema, ToolSchema):
            raise ArgumentTypeError("ChatRequest", f"tools[{index}]", "a ToolSchema", schema)
    return tuple(value)


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """One model call: the LLMPort's keywords as one frozen value, plus ``metadata``.

    ``messages`` and ``tools`` are stored as tuples and ``response_format`` as
    a read-only mapping (:class:`~agentkit.core.types.FrozenDict`): the request is what a double records and a test
    asserts on afterwards, so a transcript the caller goes on appending to
    must not rewrite it. ``metadata`` travels with the request for
    middleware and traces (the ReAct iteration, the prompt version) and is
    never sent to the model.
    """

    messages: Sequence[Message]
    model: str
    tools: Sequence[ToolSchema] | None = None
    response_format: Mapping[str, Any] | None = None
    temperature: float = 0.0
    max_tokens: int | None = None
    cache_hint: Any = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        where = "ChatRequest"
        object.__setattr__(self, "messages", _messages(self.messages))
        check_str(self.model, where, "model")
        object.__setattr__(self, "tools", _tools(self.tools))
        if self.response_format is not None:
            check_mapping(self.response_format, where, "response_format", "a mapping or None")
            object.__setattr__(self, "response_format", FrozenDict(self.response_format))
        check_number(self.temperature, where, "temperature")
        if self.max_tokens is not None:
            check_int(self.max_tokens, where, "max_tokens", minimum=1)
        check_mapping(self.metadata, where, "metadata", "a dict")

    @property
    def last_user_text(self) -> str | None:
        """The content of the last user message: the question being asked now (None without one)."""
        for message in reversed(self.messages):
            if message.role == "user":
                return message.content
        return None

    def keywords(self) -> dict[str, Any]:
        """The request as the LLMPort's keywords, with fresh mutable copies for the callee."""
        return {
            "messages": list(self.messages),
            "model": self.model,
            "tools": None if self.tools is None else list(self.tools),
            "response_format": None if self.response_format is None else dict(self.response_format),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "cache_hint": self.cache_hint,
        }


class ChatModel(abc.ABC):
    """An LLMPort written against :class:`ChatRequest`: implement :meth:`stream_request`.

    The port's keyword ``stream`` and ``chat`` are written here, once, for
    every model of the kit: each builds the request and hands it on, and
    ``chat`` is the stream collected (:func:`agentkit.core.deltas.collect_response`).
    A model whose provider answers whole (no stream) overrides
    :meth:`chat_request` as well, and derives its stream from that.
    """

    __slots__ = ()

    @abc.abstractmethod
    def stream_request(self, request: ChatRequest) -> AsyncGenerator[Delta, None]:
        """The reply to ``request`` as deltas: content, then one terminal delta.

        An async generator (``async def`` with ``yield``), so that a caller
        that stops early can ``aclose()`` the stream.
        """

    async def chat_request(self, request: ChatRequest) -> ChatResponse:
        """The whole reply to ``request``: its stream, collected."""
        return await collect_response(self.stream_request(request), model=request.model)

    def stream(
        self,
        *,
        messages: list[Message],
        model: str,
        tools: list[ToolSchema] | None = None,
        response_format: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        cache_hint: Any = None,
    ) -> AsyncGenerator[Delta, None]:
        """The LLMPort's streaming primitive: :meth:`stream_request` on the keywords."""
        return self.stream_request(
            ChatRequest(
                messages, model, tools, response_format, temperature, max_tokens, cache_hint
            )
        )

    async def chat(
        self,
        *,
        messages: list[Message],
        model: str,
        tools: list[ToolSchema] | None = None,
        response_format: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        cache_hint: Any = None,
    ) -> ChatResponse:
        """The LLMPort's whole reply: :meth:`chat_request` on the keywords."""
        return await self.chat_request(
            ChatRequest(
                messages, model, tools, response_format, temperature, max_tokens, cache_hint
            )
        )


def stream_of(llm: LLMPort, request: ChatRequest) -> AsyncIterator[Delta]:
    """The deltas ``llm`` answers ``request`` with.

    A :class:`ChatModel` is handed the request object itself (nothing is
    taken apart and rebuilt); any other LLMPort gets its keywords.
    """
    if isinstance(llm, ChatModel):
        return llm.stream_request(request)
    return llm.stream(**request.keywords())
