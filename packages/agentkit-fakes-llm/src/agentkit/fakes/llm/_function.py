"""``FakeLLM(callable)``: the test's own function model -- sync, async or streaming.

The callable gets the request, one :class:`~agentkit.core.request.ChatRequest`,
and answers in one of three ways, told apart by what it returns (so a
``functools.partial`` or an object with an async ``__call__`` works as well as
a plain ``def``):

- a ``str`` or a :class:`~agentkit.fakes.llm.Turn`: the reply, streamed
  exactly as a scripted Turn is;
- an awaitable of either (an ``async def``): awaited, then the same;
- an async iterator (an ``async def`` that ``yield``\\ s, like pydantic-ai's
  ``stream_function``): each ``str`` it yields is one content delta, passed on
  as it comes, and each :class:`~agentkit.core.types.ToolCall` is a tool call
  of the reply, delivered in the terminal delta as a provider delivers them.

The callable is part of the TEST, not of the provider it stands in for, so
what it raises, or a return of any other type, is a bug in the test: it is
recorded (``rule_error``) and raised as
:class:`~agentkit.fakes.llm.errors.ResponseRuleError`, a BaseException the
retry middleware and the tool loop's ``except Exception`` sites pass through
(a ``gather(return_exceptions=True)`` cannot hide the record either). Before
the first delta for the first two ways; a streaming callable fails where it
fails, mid-stream, as a real stream can. Inject provider faults with
``fail_times`` / ``fail_exc`` or a scripted exception instead.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import NoReturn, TypeAlias

from agentkit.core._internal.arguments import ArgumentTypeError
from agentkit.core.request import ChatRequest
from agentkit.core.types import Delta, ToolCall
from agentkit.fakes.llm._reply import Reply, reply_for
from agentkit.fakes.llm._responders import Outcome, Record, Responder, checked
from agentkit.fakes.llm.errors import ResponseRuleError
from agentkit.fakes.llm.turn import Turn

__all__ = ["RULE_ERROR_FIX", "FunctionAnswer", "ModelFunction", "Streamed"]

ModelFunction: TypeAlias = (
    "Callable[[ChatRequest], str | Turn | Awaitable[str | Turn] | AsyncIterator[str | ToolCall]]"
)
"""A function model: the request in; a reply, an awaitable reply, or a stream of pieces out."""

RULE_ERROR_FIX = (
    "fix the responses callable (it is part of the test); to inject a provider "
    "fault, use fail_times= / fail_exc= or script an exception"
)


def _check_signature(function: Callable[..., object]) -> None:
    """Refuse, at construction, a callable that cannot take the request as one argument."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin without a signature: it will tell at call time
        return
    try:
        signature.bind(None)
    except TypeError as exc:
        raise ArgumentTypeError(
            "FakeLLM",
            "responses",
            "a callable taking the request (a ChatRequest) as its one argument",
            function,
            f"the callable {signature} cannot take the request ({exc}); write it as "
            "`lambda request: ...` or `def rule(request: ChatRequest) -> str: ...`",
        ) from None


def _broken(record: Record, call: int, message: str, cause: BaseException | None) -> NoReturn:
    """Record the function's bug and raise it as the BaseException that reaches the test."""
    error = ResponseRuleError(message, cause)
    error.__cause__ = cause
    record("rule_error", f"call {call}: {error}", RULE_ERROR_FIX)
    raise error


class Streamed:
    """A reply the test's function yields piece by piece; :attr:`reply` once it has ended.

    Iterating gives the content deltas as the function yields them; the tool
    calls it yields are collected, checked against the offered tools, and,
    when the stream ends, :attr:`reply` holds the whole reply (its tool calls
    and output size) for the terminal delta.
    """

    __slots__ = ("_call", "_pieces", "_record", "_request", "reply")

    def __init__(
        self,
        pieces: AsyncIterator[object],
        request: ChatRequest,
        call: int,
        record: Record,
    ) -> None:
        self._pieces = pieces
        self._request = request
        self._call = call
        self._record = record
        self.reply: Reply | None = None

    async def __aiter__(self) -> AsyncIterator[Delta]:
        content: list[str] = []
        calls: list[ToolCall] = []
        call = self._call
        try:
            async for piece in self._pieces:
                if isinstance(piece, str):
                    if piece:
                        content.append(piece)
                        yield Delta(content=piece)
                elif isinstance(piece, ToolCall):
                    calls.append(piece)
                else:
                    _broken(
                        self._record,
                        call,
                        "the FakeLLM streaming callable must yield str (content) or ToolCall "
                        f"pieces, got {type(piece).__name__}",
                        None,
                    )
        except Exception as exc:  # a ResponseRuleError of ours is a BaseException: it passes
            _broken(
                self._record,
                call,
                f"the FakeLLM streaming callable raised {type(exc).__name__}: {exc}",
                exc,
            )
        turn = Turn("".join(content), tool_calls=calls)
        self.reply = checked(
            reply_for(turn), self._request, f"the callable's stream at call {call}", self._record
        )


class FunctionAnswer(Responder):
    """``FakeLLM(callable)``: the test's function decides each reply (see the module)."""

    __slots__ = ("function",)

    def __init__(self, function: ModelFunction) -> None:
        _check_signature(function)
        self.function = function

    async def answer(self, request: ChatRequest, call: int, record: Record) -> Outcome:
        try:
            answer: object = self.function(request)
            if inspect.isawaitable(answer):
                answer = await answer
        except Exception as exc:
            _broken(
                record,
                call,
                f"the FakeLLM responses callable raised {type(exc).__name__}: {exc}",
                exc,
            )
        if isinstance(answer, str):
            return reply_for(Turn(content=answer))
        if isinstance(answer, Turn):
            return checked(
                reply_for(answer), request, f"the callable's turn at call {call}", record
            )
        if isinstance(answer, AsyncIterator):
            return Streamed(answer, request, call, record)
        _broken(
            record,
            call,
            "the FakeLLM responses callable must return a str or a Turn, got "
            f"{type(answer).__name__} (an async def may return one, an async generator "
            "may yield str and ToolCall pieces)",
            None,
        )
