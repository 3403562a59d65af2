"""The kit's side of one wire request, and the port's reply collected for the wire.

Every wire format is turned into one :class:`PortCall` -- the keywords of
:meth:`~agentkit.core.ports.LLMPort.stream` -- so the brain (usually a
FakeLLM) sees the same request types an in-process agent would send, and its
call log and strict checks work unchanged (reading a body into one is
:mod:`agentkit.fakes.api._body`'s). The reply is collected in full before the
first byte is written (see :func:`collect`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from agentkit.core._internal.arguments import ArgumentError
from agentkit.core.ports import LLMPort
from agentkit.core.request import ChatRequest, stream_of
from agentkit.core.types import Delta, Message, ToolCall, ToolSchema, Usage

__all__ = [
    "Collected",
    "NotADelta",
    "PortCall",
    "WireError",
    "broken_after",
    "collect",
    "json_text",
    "pieces",
]


class WireError(Exception):
    """The request body cannot be read as the API's request: a 400, as the real API answers.

    ``param`` and ``code`` fill the OpenAI error body's fields of those names
    where the real API sets them (``previous_response_not_found``).
    """

    def __init__(self, message: str, *, param: str | None = None, code: str | None = None) -> None:
        self.param = param
        self.code = code
        super().__init__(message)


class NotADelta(TypeError):
    """The port yielded something that is not a :class:`~agentkit.core.types.Delta`."""


@dataclass(frozen=True, slots=True)
class PortCall:
    """The kit request one wire request stands for, plus what the wire answer needs.

    :attr:`request` is the core :class:`~agentkit.core.request.ChatRequest`,
    built (and checked) once here: a value the kit refuses (``max_tokens``
    of 0) is the client's bad request, a :class:`WireError`.
    """

    messages: list[Message]
    model: str
    tools: list[ToolSchema] | None
    temperature: float
    max_tokens: int | None
    response_format: dict[str, Any] | None = None
    stream: bool = False
    include_usage: bool = False
    """Chat Completions: ``stream_options.include_usage`` asked for a usage chunk."""
    custom_tools: frozenset[str] = frozenset()
    """Responses: offered tools of type ``custom`` (free-form input, not JSON arguments)."""
    namespaced: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Responses: ``{flat name: (namespace, inner name)}`` of the tools offered inside a
    ``namespace`` tool, whose calls name the two apart (codex's MCP tools)."""
    store: bool = False
    """Responses: keep this response's conversation for a later ``previous_response_id``."""
    previous_response_id: str | None = None
    """Responses: the stored response this request carries on from."""
    carried_from: int = 0
    """Responses: where in :attr:`messages` the conversation a later response carries on
    starts -- after this request's ``instructions``, which the API does not carry over."""
    request: ChatRequest = field(init=False)

    def __post_init__(self) -> None:
        try:
            request = ChatRequest(
                self.messages,
                self.model,
                self.tools,
                self.response_format,
                self.temperature,
                self.max_tokens,
            )
        except ArgumentError as exc:
            raise WireError(str(exc)) from None
        object.__setattr__(self, "request", request)

    def conversation(self, reply: Collected) -> tuple[Message, ...]:
        """What a response answering this call with ``reply`` carries into the next one:
        the input (with what it carried on), then the reply as an assistant message."""
        answer = Message.assistant(reply.content, tool_calls=reply.tool_calls)
        return (*self.messages[self.carried_from :], answer)


@dataclass(slots=True)
class Collected:
    """A port's reply, added up, with where (if anywhere) it broke off."""

    pieces: list[str] = field(default_factory=list)
    thoughts: list[str] = field(default_factory=list)
    """The port's reasoning deltas (:attr:`~agentkit.core.types.Delta.reasoning`), in order."""
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    broken: BaseException | None = None
    """Raised by the port after its first delta: the stream is cut after ``pieces``."""

    @property
    def content(self) -> str:
        return "".join(self.pieces)

    @property
    def reasoning(self) -> str:
        return "".join(self.thoughts)


async def collect(llm: LLMPort, call: PortCall) -> Collected:
    """Run ``call`` through ``llm`` (:func:`~agentkit.core.request.stream_of`) to its end.

    Collected in full, not relayed delta by delta, because both providers
    state the input usage in the stream's FIRST event while the port reports
    usage in its LAST delta. Content deltas keep their boundaries (each
    becomes one wire delta event). What the port raises before its first
    delta propagates (it becomes an error status); what it raises after is
    kept in :attr:`Collected.broken` (it becomes a cut stream).
    """
    out = Collected()
    stream = stream_of(llm, call.request)
    produced = False
    try:
        async for delta in stream:
            produced = True
            if not isinstance(delta, Delta):
                raise NotADelta(
                    f"the port yielded {type(delta).__name__} {delta!r:.80}, not a Delta"
                )
            _add(out, delta)
    except BaseException as exc:
        stop = KeyboardInterrupt | SystemExit | asyncio.CancelledError | NotADelta
        if not produced or isinstance(exc, stop):
            raise
        out.broken = exc
    finally:
        closer: Callable[[], Any] | None = getattr(stream, "aclose", None)
        if closer is not None:
            await closer()
    return out


def broken_after(deltas: tuple[Delta, ...], exc: BaseException) -> Collected:
    """The reply of a port that produced ``deltas`` and then raised ``exc``."""
    out = Collected()
    for delta in deltas:
        _add(out, delta)
    out.broken = exc
    return out


def _add(out: Collected, delta: Delta) -> None:
    if delta.reasoning:
        out.thoughts.append(delta.reasoning)
    if delta.content:
        out.pieces.append(delta.content)
    if delta.tool_calls:
        out.tool_calls += delta.tool_calls
    if delta.usage is not None:
        out.usage = out.usage + delta.usage
    if delta.finish_reason is not None:
        out.finish_reason = delta.finish_reason


def json_text(value: Mapping[str, Any]) -> str:
    """Compact JSON, as the providers write it: in bodies, stream events and tool arguments."""
    # json.dumps takes a dict as it is; only another Mapping is copied into one.
    plain = value if isinstance(value, dict) else dict(value)
    return json.dumps(plain, separators=(",", ":"), ensure_ascii=False)


def pieces(text: str, parts: int = 3) -> list[str]:
    """``text`` in up to ``parts`` pieces, as a real stream splits a tool call's JSON."""
    if not text:
        return [""]
    size = max(1, -(-len(text) // parts))
    return [text[i : i + size] for i in range(0, len(text), size)]
