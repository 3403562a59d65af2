"""FakeLLM: a deterministic, offline LLMPort."""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncGenerator, Callable, Iterable, Sequence
from typing import Any, Self

from agentkit.core.deltas import collect_response
from agentkit.core.invoker import ChatRequest
from agentkit.core.script import ScriptCursor
from agentkit.core.types import ChatResponse, Delta, Message, ToolSchema, Usage
from agentkit.fakes.llm._reply import Reply, estimate_usage, reply_for
from agentkit.fakes.llm.errors import FakeLLMError, UnmatchedRequest
from agentkit.fakes.llm.turn import Turn

__all__ = ["FakeLLM"]

_DEFAULT_RESPONSES = "{}"


def _last_user_text(messages: Sequence[Message]) -> str | None:
    for message in reversed(messages):
        if message.role == "user":
            return message.content
    return None


class FakeLLM:
    """Deterministic offline LLM.

    ``responses`` is a rule for turning a request into a reply:

    - a ``str``: every call answers it;
    - a ``dict`` ``{substring: reply}``: the LAST user message of the request
      is searched for each key in insertion order, and the first key it
      contains picks the reply. The last user message because that is the
      question being asked now; earlier turns of the transcript would make an
      early key answer every later question. A request no key matches raises
      :class:`~agentkit.fakes.llm.errors.UnmatchedRequest` (a BaseException,
      for the reason ScriptExhausted is one), never a default reply;
    - a callable: called once per call with the
      :class:`~agentkit.core.invoker.ChatRequest` the model was sent
      (``messages``, ``model``, ``tools``, ``response_format``,
      ``temperature``, ``max_tokens``, ``cache_hint``) and must return the
      reply ``str``; whatever it raises propagates, before the first delta.

    :meth:`script` (or ``turns=``) replays a multi-step tool loop instead.

    The two kinds differ ON PURPOSE once they run out of material: the
    single-answer forms have nothing to run out of -- call 1 and call 100
    both answer; repeating IS their meaning. A script is a finite, ordered
    claim about how many turns the run takes, so turn N+1 raises
    :class:`~agentkit.core.script.ScriptExhausted` (through the shared
    :class:`~agentkit.core.script.ScriptCursor`). ``repeat_last=True`` is the
    deliberate never-terminating script.

    ``usage`` is reported by every reply whose Turn carries none. Without it
    the usage is estimated, deterministically, at four characters a token
    (rounded up): input from the ``content`` of every message sent, output
    from the reply's content plus each tool call's name and JSON arguments.

    ``fail_times`` makes the first that many calls raise ``fail_exc``
    (default :class:`~agentkit.fakes.llm.errors.FakeLLMError`) BEFORE the
    first delta, which is the failure a retry may re-invoke (``fail_exc``
    without ``fail_times`` is a ValueError: it would inject nothing). A failed call
    consumes no script turn: the turn is what the retry gets.

    ``delay`` is awaited with ``asyncio.sleep`` before the first delta of
    every call -- real event-loop time, not a ClockPort, because it exists to
    exercise what real time governs: ``asyncio.timeout``/``wait_for`` around a
    call, cancellation while a call is in flight, concurrent calls
    overlapping.

    ``calls`` records every call the model was sent, failed ones included, in
    order, as a dict of the stream keywords (the ``messages`` and ``tools``
    lists are copies, so a transcript the caller appends to afterwards does
    not rewrite the record). ``failures`` counts the injected failures raised.
    """

    __slots__ = (
        "_cursor",
        "_fixed",
        "_rule",
        "_table",
        "calls",
        "delay",
        "fail_exc",
        "fail_times",
        "failures",
        "turns",
        "usage",
    )

    def __init__(
        self,
        responses: dict[str, str] | Callable[..., str] | str = _DEFAULT_RESPONSES,
        *,
        usage: Usage | None = None,
        fail_times: int = 0,
        fail_exc: BaseException | None = None,
        delay: float = 0.0,
        turns: Iterable[Turn] | None = None,
        repeat_last: bool = False,
    ) -> None:
        if usage is not None and not isinstance(usage, Usage):
            raise TypeError(f"usage must be a Usage or None, got {type(usage).__name__}")
        if isinstance(fail_times, bool) or not isinstance(fail_times, int) or fail_times < 0:
            raise ValueError(f"fail_times must be an int >= 0, got {fail_times!r}")
        if fail_exc is not None and not isinstance(fail_exc, BaseException):
            raise TypeError(
                f"fail_exc must be an exception instance, got {fail_exc!r}"
                + (" (a class: instantiate it)" if isinstance(fail_exc, type) else "")
            )
        if fail_exc is not None and fail_times == 0:
            # Alone, fail_exc injects nothing: every call would answer, and a test of the
            # error path it was written for would pass without that path ever running.
            raise ValueError(
                "fail_exc has no effect without fail_times >= 1: pass fail_times=n to make "
                "the first n calls raise it"
            )
        if not isinstance(delay, int | float) or not math.isfinite(delay) or delay < 0:
            raise ValueError(f"delay must be a finite number of seconds >= 0, got {delay!r}")
        self.usage = usage
        self.fail_times = fail_times
        self.fail_exc = fail_exc
        self.delay = float(delay)
        self.failures = 0
        self.calls: list[dict[str, Any]] = []
        self._cursor: ScriptCursor[Reply] | None = None
        self._fixed: Reply | None = None
        self._table: tuple[tuple[str, Reply], ...] = ()
        self._rule: Callable[..., str] | None = None
        self.turns: tuple[Turn, ...] = ()

        if turns is not None:
            if not (isinstance(responses, str) and responses == _DEFAULT_RESPONSES):
                raise ValueError(
                    "pass either responses (a single-answer rule) or turns (a script), not both"
                )
            self.turns = tuple(turns)
            for turn in self.turns:
                if not isinstance(turn, Turn):
                    raise TypeError(f"turns must hold Turn objects, got {type(turn).__name__}")
            self._cursor = ScriptCursor(
                [reply_for(turn) for turn in self.turns], repeat_last=repeat_last, what="turn"
            )
            return
        if repeat_last:
            raise ValueError(
                "repeat_last=True applies to a script (FakeLLM.script / turns=); "
                "the single-answer forms already answer every call"
            )
        if isinstance(responses, str):
            self._fixed = reply_for(Turn(content=responses))
        elif isinstance(responses, dict):
            if not responses:
                raise ValueError("responses dict is empty: no request could ever match it")
            table: list[tuple[str, Reply]] = []
            for key, value in responses.items():
                if not isinstance(key, str) or not isinstance(value, str):
                    raise TypeError(f"responses dict must map str to str, got {key!r}: {value!r}")
                table.append((key, reply_for(Turn(content=value))))
            self._table = tuple(table)
        elif callable(responses):
            self._rule = responses
        else:
            raise TypeError(
                "responses must be a str, a dict {substring: reply} or a callable, "
                f"got {type(responses).__name__}"
            )

    @classmethod
    def script(cls, turns: Iterable[Turn], *, repeat_last: bool = False, **kw: Any) -> Self:
        """Replay ``turns`` in order, one per chat/stream call, then raise ScriptExhausted.

        ``repeat_last=True`` replays the final turn forever instead. Spelled out
        as a real keyword rather than left to ``**kw`` so it shows up in a
        signature and an IDE completion -- it is the escape hatch a reader
        needs at the moment the exception fires. ``**kw`` takes the other
        constructor options (``usage``, ``fail_times``, ``fail_exc``, ``delay``).
        """
        return cls(turns=turns, repeat_last=repeat_last, **kw)

    @property
    def remaining(self) -> int | None:
        """Script turns not yet replayed (0 while repeating the last); None for the
        single-answer forms, which never run out."""
        return None if self._cursor is None else self._cursor.remaining

    def _select(self, request: dict[str, Any]) -> Reply:
        if self._fixed is not None:
            return self._fixed
        if self._cursor is not None:
            return self._cursor.next()
        if self._table:
            text = _last_user_text(request["messages"])
            if text is not None:
                for key, reply in self._table:
                    if key in text:
                        return reply
            raise UnmatchedRequest(text, [key for key, _ in self._table])
        rule = self._rule
        if rule is None:  # unreachable by construction; a clear error all the same
            raise RuntimeError("FakeLLM has no response rule")
        tools = request["tools"]
        answer = rule(
            ChatRequest(
                messages=tuple(request["messages"]),
                model=request["model"],
                tools=None if tools is None else tuple(tools),
                response_format=request["response_format"],
                temperature=request["temperature"],
                max_tokens=request["max_tokens"],
                cache_hint=request["cache_hint"],
            )
        )
        if not isinstance(answer, str):
            raise TypeError(
                f"the FakeLLM responses callable must return a str, got {type(answer).__name__}"
            )
        return reply_for(Turn(content=answer))

    def _failure(self) -> BaseException:
        self.failures += 1
        if self.fail_exc is None:
            return FakeLLMError(self.failures, self.fail_times)
        return self.fail_exc.with_traceback(None)

    async def stream(
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
        """The streaming primitive: content in small chunks, then ONE terminal delta.

        The terminal delta carries the usage, the finish reason ("tool_calls"
        when the reply requests tools, else "stop") and the tool calls. Every
        failure -- injected, an unmatched request, an exhausted script, the
        responses callable's own -- is raised at the first ``__anext__``,
        before any delta, so it is a pre-stream failure a retry can re-invoke.

        Typed as the async generator it is (a subtype of the port's
        ``AsyncIterator``), so a caller that stops early can ``aclose()`` it.
        """
        sent = list(messages)
        request: dict[str, Any] = {
            "messages": sent,
            "model": model,
            "tools": None if tools is None else list(tools),
            "response_format": None if response_format is None else dict(response_format),
            "temperature": temperature,
            "max_tokens": max_tokens,
            "cache_hint": cache_hint,
        }
        self.calls.append(request)
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.failures < self.fail_times:
            raise self._failure()
        reply = self._select(request)
        for delta in reply.deltas:
            yield delta
        usage = reply.usage
        if usage is None:
            usage = (
                self.usage if self.usage is not None else estimate_usage(sent, reply.output_tokens)
            )
        yield Delta(tool_calls=reply.tool_calls, usage=usage, finish_reason=reply.finish_reason)

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
        """The whole reply: :meth:`stream` collected, so the two can never disagree."""
        return await collect_response(
            self.stream(
                messages=messages,
                model=model,
                tools=tools,
                response_format=response_format,
                temperature=temperature,
                max_tokens=max_tokens,
                cache_hint=cache_hint,
            ),
            model=model,
        )
