"""FakeLLM: a deterministic, offline LLMPort."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Iterable, Mapping, Sequence
from typing import Any, Literal, Self

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_bool,
    check_int,
    check_number,
    check_type,
)
from agentkit.core.request import ChatModel, ChatRequest
from agentkit.core.types import Delta, Usage
from agentkit.core.verification import VerifyingDouble, Violation
from agentkit.core.verification.script import ScriptExhausted
from agentkit.fakes.llm._checks import UNANSWERED_FIX, unanswered_text, unanswered_tool_calls
from agentkit.fakes.llm._function import FunctionAnswer, ModelFunction, Streamed
from agentkit.fakes.llm._reply import Reply, estimate_usage
from agentkit.fakes.llm._responders import (
    FixedAnswer,
    KeywordTable,
    Responder,
    ScriptedTurns,
    ScriptItem,
)
from agentkit.fakes.llm.errors import (
    FakeLLMError,
    RefusedRequest,
    ResponseRuleError,
    UnmatchedRequest,
)

__all__ = ["FakeLLM"]


class FakeLLM(VerifyingDouble, ChatModel):
    """Deterministic offline LLM: an ``LLMPort`` whose every answer the test decides.

    How it answers is chosen once, by how it is built:

    - ``FakeLLM("text")`` answers every call with that text;
    - ``FakeLLM({substring: reply})`` answers by the first key the LAST user
      message contains; a request no key matches raises ``UnmatchedRequest``;
    - ``FakeLLM(function)`` is a function model: the function gets the
      :class:`~agentkit.core.request.ChatRequest` and returns a ``str`` or a
      :class:`~agentkit.fakes.llm.Turn` -- or is an ``async def`` returning
      one, or an async generator yielding ``str`` and ``ToolCall`` pieces to
      stream. What it raises is a ``ResponseRuleError``: a bug in the test;
    - :meth:`script` (or ``turns=``) replays one turn per call, then raises
      ``ScriptExhausted``;
    - ``FakeLLM()`` (``responses`` left None) and :meth:`exercise_tools`
      call the tools the request offers with generated arguments, then sum up.

    Around the answer, every form shares: ``calls`` records every request, in
    order, failed ones included; ``usage`` is reported by every reply whose
    Turn carries none (else it is estimated at four characters a token);
    ``fail_times`` makes the first that many calls raise ``fail_exc``
    (default ``FakeLLMError``) before the first delta, consuming no turn;
    ``failures`` counts the provider failures raised, injected and scripted;
    ``delay`` is awaited on the real event loop before the first delta, for
    timeouts and cancellation. A request a provider refuses (a tool call
    with no tool result before the next call) raises ``RefusedRequest``.

    Strict verification records what a test must not pass with -- unused
    turns, a call past the script, a miss, a broken function, a tool call the
    request did not offer or whose arguments break its schema, a refused
    request, a tool that failed while exercised -- and :meth:`assert_complete`
    (called by the pytest plugin at teardown) raises them all; ``verify=False``
    opts out. Injected failures left unraised are not a violation: how many
    were raised is what such a test asserts on (:attr:`failures`).

    A call's outcome is settled when it is asked for, before ``delay``, so a
    call cancelled while it waits has had its turn, and the call log and the
    verdict never disagree.
    """

    def __init__(
        self,
        responses: Mapping[str, str] | ModelFunction | str | None = None,
        *,
        usage: Usage | None = None,
        fail_times: int = 0,
        fail_exc: BaseException | None = None,
        delay: float = 0.0,
        turns: Iterable[ScriptItem] | None = None,
        repeat_last: bool = False,
        seed: int | None = None,
        verify: bool = True,
    ) -> None:
        check_bool(repeat_last, "FakeLLM", "repeat_last")
        _check_one_form(responses, turns, seed)
        responder = _responder(responses, turns, repeat_last, seed)
        name = "FakeLLM.script" if turns is not None else "FakeLLM"
        self._setup(responder, name, usage, fail_times, fail_exc, delay, verify)

    def _setup(
        self,
        responder: Responder,
        name: str,
        usage: Usage | None,
        fail_times: int,
        fail_exc: BaseException | None,
        delay: float,
        verify: bool,
    ) -> None:
        """What every form shares: the options around the answer, the records, verification."""
        if usage is not None:
            check_type(usage, Usage, "FakeLLM", "usage", "a Usage or None")
        _check_failure(fail_times, fail_exc)
        self.usage = usage
        self.fail_times = fail_times
        self.fail_exc = fail_exc
        self.delay = float(check_number(delay, "FakeLLM", "delay"))
        self.failures = 0
        self.calls: list[ChatRequest] = []
        self._injected = 0
        self._responder = responder
        self.turns: tuple[ScriptItem, ...] = (
            responder.turns if isinstance(responder, ScriptedTurns) else ()
        )
        self.seed: int | None = getattr(responder, "seed", None)
        self._init_verification(verify=verify, name=name)

    @classmethod
    def script(
        cls,
        turns: Iterable[ScriptItem],
        *,
        repeat_last: bool = False,
        usage: Usage | None = None,
        fail_times: int = 0,
        fail_exc: BaseException | None = None,
        delay: float = 0.0,
        verify: bool = True,
    ) -> Self:
        """Replay ``turns`` in order, one per call, then raise ScriptExhausted.

        A script is a finite, ordered claim about how many calls the run
        makes: a call past its end is recorded (``script_exhausted``) and
        raises :class:`~agentkit.core.verification.script.ScriptExhausted`, and turns never
        asked for are reported at teardown (``unused_turns``).
        ``repeat_last=True`` replays the final turn forever instead -- the
        escape hatch a reader needs at the moment the exception fires, so it
        comes first. An item may be an exception instance: that call raises
        it before its first delta, a provider failure at turn N (counted in
        :attr:`failures`). Every other option means what it means on the
        constructor, spelled out (no ``**kw``) so a misspelled keyword is a
        type error.
        """
        check_bool(repeat_last, "FakeLLM.script", "repeat_last")
        responder = ScriptedTurns(turns, repeat_last=repeat_last, where="FakeLLM.script")
        self = cls.__new__(cls)
        self._setup(responder, "FakeLLM.script", usage, fail_times, fail_exc, delay, verify)
        return self

    @classmethod
    def exercise_tools(
        cls,
        *,
        call_tools: Literal["all"] | Sequence[str] = "all",
        output_text: str | None = None,
        output_args: Any = None,
        seed: int = 0,
        usage: Usage | None = None,
        fail_times: int = 0,
        fail_exc: BaseException | None = None,
        delay: float = 0.0,
        verify: bool = True,
    ) -> Self:
        """Call the tools the request offers, then answer: pydantic-ai's ``TestModel``.

        The first call of a conversation calls each tool of ``call_tools``
        (``"all"``: every tool offered), once, in the order offered, with
        arguments generated from its JSON Schema -- the same on every run for
        a given ``seed``, and checked against the schema like scripted ones.
        A name the request does not offer is recorded (``unoffered_tool``).
        The call carrying the results answers ``output_text``, or
        ``output_args`` as JSON (a structured output), or else a JSON object
        of the results by tool name. A tool that failed while exercised (the
        tool loop answered its call with ``error: ...``) is recorded
        (``tool_failed``), so the smoke test fails on it. With nothing to
        call and no output given, the call is an ``UnmatchedRequest``.
        ``FakeLLM()`` is ``FakeLLM.exercise_tools()``.
        """
        from agentkit.fakes.llm._exercise import ToolExerciser  # only this form pays for it

        responder = ToolExerciser(
            seed=seed, call_tools=call_tools, output_text=output_text, output_args=output_args
        )
        self = cls.__new__(cls)
        self._setup(responder, "FakeLLM", usage, fail_times, fail_exc, delay, verify)
        return self

    @property
    def remaining(self) -> int | None:
        """Script turns not yet replayed (0 while repeating the last); None for the
        forms that never run out."""
        return self._responder.remaining

    def _leftovers(self) -> list[Violation]:
        return [self._violation(*problem) for problem in self._responder.leftovers()]

    def _refusal(self, request: ChatRequest) -> RefusedRequest | None:
        unanswered = unanswered_tool_calls(request.messages)
        if not unanswered:
            return None
        text = unanswered_text(unanswered)
        self._record_violation(
            "unanswered_tool_call", f"call {len(self.calls)}: {text}", UNANSWERED_FIX
        )
        return RefusedRequest(text, unanswered)

    def _injected_failure(self) -> BaseException:
        self._injected += 1
        self.failures += 1
        if self.fail_exc is None:
            return FakeLLMError(self._injected, self.fail_times)
        return self.fail_exc.with_traceback(None)

    async def _settle(self, request: ChatRequest) -> Reply | Streamed | BaseException:
        """The call's outcome: the reply, or the exception its first ``__anext__`` raises."""
        refused = self._refusal(request)
        if refused is not None:
            return refused
        if self._injected < self.fail_times:
            return self._injected_failure()
        try:
            outcome = await self._responder.answer(request, len(self.calls), self._record_violation)
        except (ScriptExhausted, UnmatchedRequest, ResponseRuleError) as exc:
            return exc  # recorded by the responder; raised to the caller as the finding it is
        if isinstance(outcome, BaseException):
            self.failures += 1  # a scripted provider failure at this call
        return outcome

    async def stream_request(self, request: ChatRequest) -> AsyncGenerator[Delta, None]:
        """The streaming primitive: content in small chunks, then ONE terminal delta.

        The port's keyword ``stream`` and ``chat`` come from
        :class:`~agentkit.core.request.ChatModel`: ``stream`` builds the
        :class:`~agentkit.core.request.ChatRequest` and hands it here, and
        ``chat`` collects this stream, so the two can never disagree.

        The terminal delta carries the usage, the finish reason ("tool_calls"
        when the reply requests tools, else "stop") and the tool calls. Every
        failure -- injected, scripted, an unmatched request, an exhausted
        script, the responses callable's own -- is raised at the first
        ``__anext__``, before any delta, so it is a pre-stream failure a retry
        can re-invoke; only a streaming callable can fail mid-stream, where it
        fails.

        Typed as the async generator it is (a subtype of the port's
        ``AsyncIterator``), so a caller that stops early can ``aclose()`` it.
        """
        self.calls.append(request)
        # The call's outcome is settled (and any turn consumed, any violation recorded)
        # BEFORE the delay: a call cancelled while it waits (asyncio.wait_for) has still
        # been asked for, so the call log and the verdict can never disagree.
        outcome = await self._settle(request)
        if self.delay:
            await asyncio.sleep(self.delay)
        if isinstance(outcome, BaseException):
            raise outcome
        if isinstance(outcome, Streamed):
            async for delta in outcome:
                yield delta
            reply = outcome.reply
            assert reply is not None  # set when the stream ended
        else:
            reply = outcome
            for delta in reply.deltas:
                yield delta
        usage = reply.usage
        if usage is None:
            usage = (
                self.usage
                if self.usage is not None
                else estimate_usage(request.messages, reply.output_tokens, reply.reasoning_tokens)
            )
        yield Delta(tool_calls=reply.tool_calls, usage=usage, finish_reason=reply.finish_reason)


def _responder(
    responses: object, turns: Iterable[ScriptItem] | None, repeat_last: bool, seed: int | None
) -> Responder:
    """The one responder the constructor's arguments pick (see the class docstring)."""
    if turns is not None:
        return ScriptedTurns(turns, repeat_last=repeat_last, where="FakeLLM")
    if repeat_last:
        raise ArgumentValueError(
            "FakeLLM",
            "repeat_last",
            "False for a single-answer form",
            repeat_last,
            "repeat_last=True applies to a script (FakeLLM.script / turns=); "
            "the single-answer forms already answer every call",
        )
    if responses is None:
        # No answer is invented: with nothing given, the double exercises the tools.
        from agentkit.fakes.llm._exercise import ToolExerciser  # only this form pays for it

        return ToolExerciser(seed=0 if seed is None else seed)
    if isinstance(responses, str):
        return FixedAnswer(responses)
    if isinstance(responses, Mapping):
        return KeywordTable(responses)
    if callable(responses):
        return FunctionAnswer(responses)
    raise ArgumentTypeError(
        "FakeLLM", "responses", "a str, a dict {substring: reply} or a callable", responses
    )


def _check_failure(fail_times: int, fail_exc: BaseException | None) -> None:
    """``fail_times`` a count, ``fail_exc`` an exception instance that it makes raise."""
    check_int(fail_times, "FakeLLM", "fail_times")
    if fail_exc is None:
        return
    if not isinstance(fail_exc, BaseException):
        raise ArgumentTypeError(
            "FakeLLM",
            "fail_exc",
            "an exception instance or None",
            fail_exc,
            "a class: instantiate it" if isinstance(fail_exc, type) else "",
        )
    if fail_times == 0:
        # Alone, fail_exc injects nothing: every call would answer, and a test of the
        # error path it was written for would pass without that path ever running.
        raise ArgumentValueError(
            "FakeLLM",
            "fail_exc",
            "None unless fail_times >= 1",
            fail_exc,
            "fail_exc has no effect without fail_times >= 1: pass fail_times=n to make "
            "the first n calls raise it",
        )


def _check_one_form(responses: object, turns: object, seed: int | None) -> None:
    """One way to answer: ``responses``, ``turns`` (a script) or ``seed`` (the tools), not two."""
    if seed is not None:
        check_int(seed, "FakeLLM", "seed", minimum=None)
        if turns is not None or responses is not None:
            raise ArgumentTypeError(
                "FakeLLM",
                "seed",
                "None unless FakeLLM exercises the tools (no responses, no turns)",
                seed,
                "seed= picks the generated tool arguments of FakeLLM() with no responses; "
                "a str, dict, callable or script already decides every reply",
            )
    if turns is not None and responses is not None:
        raise ArgumentTypeError(
            "FakeLLM",
            "turns",
            "None when responses is given",
            turns,
            "pass either responses (a single-answer rule) or turns (a script), not both",
        )
