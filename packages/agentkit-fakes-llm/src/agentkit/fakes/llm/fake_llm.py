"""FakeLLM: a deterministic, offline LLMPort."""

from __future__ import annotations

import asyncio
import enum
import inspect
from collections.abc import AsyncGenerator, Callable, Iterable, Mapping
from typing import Any, Self

from agentkit.core.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_bool,
    check_int,
    check_number,
    check_type,
    check_values,
    hide_argument_errors,
)
from agentkit.core.request import ChatModel, ChatRequest
from agentkit.core.types import Delta, Usage
from agentkit.core.verification import VerifyingDouble, Violation
from agentkit.core.verification.script import ScriptCursor, ScriptExhausted
from agentkit.fakes.llm._checks import (
    UNANSWERED_FIX,
    reply_problems,
    unanswered_text,
    unanswered_tool_calls,
)
from agentkit.fakes.llm._reply import Reply, estimate_usage, reply_for
from agentkit.fakes.llm.errors import (
    FakeLLMError,
    RefusedRequest,
    ResponseRuleError,
    UnmatchedRequest,
)
from agentkit.fakes.llm.turn import Turn

__all__ = ["FakeLLM"]

__tracebackhide__ = hide_argument_errors  # a wrong argument shows the caller's line


class _NotGiven(enum.Enum):
    """The type of :data:`NOT_GIVEN`: an argument the caller did not pass."""

    NOT_GIVEN = "NOT_GIVEN"

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = _NotGiven.NOT_GIVEN
"""The default of ``FakeLLM(responses=...)``: nothing given, so no answer is invented."""

ScriptItem = Turn | BaseException
"""One item of a FakeLLM script: a reply, or an exception raised at that call."""


def _check_rule_signature(rule: Callable[[ChatRequest], str | Turn]) -> None:
    """Refuse, at construction, a callable that cannot take the request as one argument."""
    try:
        signature = inspect.signature(rule)
    except (TypeError, ValueError):  # a builtin without a signature: it will tell at call time
        return
    try:
        signature.bind(None)
    except TypeError as exc:
        raise ArgumentTypeError(
            "FakeLLM",
            "responses",
            "a callable taking the request (a ChatRequest) as its one argument",
            rule,
            f"the callable {signature} cannot take the request ({exc}); write it as "
            "`lambda request: ...` or `def rule(request: ChatRequest) -> str: ...`",
        ) from None


def _turns_of(turns: object, where: str) -> tuple[Turn, ...]:
    """``turns`` as a tuple of Turn, or an argument error naming the bad entry."""
    items = check_values(turns, where, "turns", "an iterable of Turn objects")
    for index, turn in enumerate(items):
        if not isinstance(turn, Turn):
            raise ArgumentTypeError(
                where,
                f"turns[{index}]",
                "a Turn",
                turn,
                "write Turn('answer') or Turn(tool_calls=[ToolCall(...)])",
            )
    return items


def _script_of(turns: object, where: str) -> tuple[ScriptItem, ...]:
    """``turns`` as a tuple of Turn or exception instances, or an error naming the bad entry."""
    items = check_values(turns, where, "turns", "an iterable of Turn objects or exceptions")
    for index, item in enumerate(items):
        if not isinstance(item, Turn | BaseException):
            hint = (
                "an exception class: instantiate it, e.g. ConnectionError('503')"
                if isinstance(item, type) and issubclass(item, BaseException)
                else "write Turn('answer'), Turn(tool_calls=[ToolCall(...)]) or an exception "
                "instance to raise at that call"
            )
            raise ArgumentTypeError(where, f"turns[{index}]", "a Turn or an exception", item, hint)
    return items


def _describe(turn: ScriptItem) -> str:
    if isinstance(turn, BaseException):
        return f"raises {type(turn).__name__}({str(turn)[:30]!r})"
    if turn.tool_calls:
        return "tool calls " + ", ".join(repr(call.name) for call in turn.tool_calls)
    text = turn.content if len(turn.content) <= 40 else turn.content[:37] + "..."
    return f"content {text!r}"


class FakeLLM(VerifyingDouble, ChatModel):
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
    - a callable: called once per call with the request, one
      :class:`~agentkit.core.request.ChatRequest` (``request.messages``,
      ``request.tools``, ``request.last_user_text``, ...), so
      ``lambda request: ...`` works; a callable that cannot take one argument
      is a TypeError at construction. It returns the reply: a ``str``, or a
      :class:`~agentkit.fakes.llm.Turn` (tool calls, usage, finish reason),
      streamed exactly as a scripted Turn is, so a test can decide tool calls
      from the request. Whatever ``Exception`` it raises (and any other
      return) is re-raised, before the
      first delta, as :class:`~agentkit.fakes.llm.errors.ResponseRuleError`
      -- a BaseException with the original as ``__cause__`` -- because it is a
      bug in the test's rule, and the retry middleware must not retry it as a
      provider fault. Inject provider faults with ``fail_times``/``fail_exc``
      or an exception in a script;
    - nothing (``FakeLLM()``, the ``NOT_GIVEN`` default): the double
      answers nothing of its own and EXERCISES THE TOOLS instead, for a smoke
      test that needs no script. Its first call in a conversation calls every
      tool the request offers, once each, with arguments generated from the
      tool's JSON Schema; the call carrying their results is answered with a
      JSON object of those results by tool name (``"{}"`` when no tool is
      offered). The arguments are the same on every run for a given ``seed``
      (default 0), and are checked against the schema like scripted ones.

    :meth:`script` (or ``turns=``) replays a multi-step tool loop instead. A
    script item may also be an exception instance: that call raises it before
    its first delta (and it is that call's turn), so a provider failure at
    turn N can be scripted and retried by the real ``RetryMiddleware``.

    The two kinds differ ON PURPOSE once they run out of material: the
    single-answer forms have nothing to run out of -- call 1 and call 100
    both answer; repeating IS their meaning. A script is a finite, ordered
    claim about how many turns the run takes, so turn N+1 raises
    :class:`~agentkit.core.verification.script.ScriptExhausted` (through the shared
    :class:`~agentkit.core.verification.script.ScriptCursor`). ``repeat_last=True`` is the
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
    order, as the :class:`~agentkit.core.request.ChatRequest` it was (frozen:
    ``messages`` and ``tools`` are tuples, so a transcript the caller appends
    to afterwards does not rewrite the record).
    ``failures`` counts the injected failures (a call cancelled in its delay included).

    Strict verification (:mod:`agentkit.core.verification`): the double keeps
    a record of violations -- script turns left unused (``unused_turns``), a
    call past the end of the script (``script_exhausted``, recorded as well as
    raised, so a swallowed one still fails the test), a dict-form miss
    (``unmatched_request``, likewise), a responses callable that raised or
    returned something else than a str or Turn (``rule_error``, likewise, so
    ``gather(return_exceptions=True)`` cannot hide it), a scripted tool call
    naming a tool the request did not offer (``unoffered_tool``) or with
    arguments the offered tool's JSON Schema refuses
    (``invalid_tool_arguments``, checked with
    :func:`agentkit.core.schema.schema_errors`, naming the argument and the
    schema), and a request a real provider refuses (``unanswered_tool_call``,
    below). :meth:`assert_complete`
    raises one :class:`~agentkit.core.verification.VerificationError` listing
    them all; the pytest plugin calls it at teardown. ``verify=False`` opts
    this double out.

    Injected failures left unraised are NOT a violation, and that is a
    decision: ``fail_times=5`` under a retry of three attempts is the natural
    way to write "the provider keeps failing", and how many were raised is
    what such a test asserts on (:attr:`failures`).

    An unoffered tool call is recorded, NOT raised: a real model can call a
    tool it was not offered, and how an agent handles that is a legitimate
    thing to test, so the reply is delivered as scripted. What the record
    catches is the far commoner case of a misspelled tool name in the script,
    which the tool loop would otherwise reflect back as "unknown tool" to the
    next scripted turn, and the test would pass. A test that scripts an
    unknown tool on purpose builds the double with ``verify=False``; so does
    one that scripts malformed arguments on purpose.

    A request in which an assistant's tool call has no tool-result message
    before this model call is refused as every provider refuses it (an HTTP
    400): :class:`~agentkit.fakes.llm.errors.RefusedRequest`, an ``Exception``
    like the provider's, raised before the first delta and consuming no turn
    -- and recorded, so a loop that catches it and carries on still fails.

    A call's outcome is settled when it is asked for, before ``delay``: its
    turn is consumed (or its failure counted, its violation recorded) then,
    so a call cancelled while it waits (``asyncio.wait_for``) has had its
    turn, and the call log and the verdict never disagree.
    """

    def __init__(
        self,
        responses: Mapping[str, str]
        | Callable[[ChatRequest], str | Turn]
        | str
        | _NotGiven = NOT_GIVEN,
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
        where = "FakeLLM"
        check_bool(repeat_last, where, "repeat_last")
        if usage is not None:
            check_type(usage, Usage, where, "usage", "a Usage or None")
        _check_failure(fail_times, fail_exc)
        delay = check_number(delay, where, "delay")
        self.usage = usage
        self.fail_times = fail_times
        self.fail_exc = fail_exc
        self.delay = float(delay)
        self.failures = 0
        self.calls: list[ChatRequest] = []
        self._cursor: ScriptCursor[Reply | BaseException] | None = None
        self._fixed: Reply | None = None
        self._table: tuple[tuple[str, Reply], ...] = ()
        self._rule: Callable[[ChatRequest], str | Turn] | None = None
        self.turns: tuple[ScriptItem, ...] = ()
        self.seed: int | None = None
        _check_one_form(responses, turns, seed)
        if turns is not None:
            self.turns = _script_of(turns, where)
            self._cursor = ScriptCursor(
                [
                    item if isinstance(item, BaseException) else reply_for(item)
                    for item in self.turns
                ],
                repeat_last=repeat_last,
                what="turn",
                where=where,
            )
            self._init_verification(verify=verify, name="FakeLLM.script")
            return
        if repeat_last:
            raise ArgumentValueError(
                where,
                "repeat_last",
                "False for a single-answer form",
                repeat_last,
                "repeat_last=True applies to a script (FakeLLM.script / turns=); "
                "the single-answer forms already answer every call",
            )
        if responses is NOT_GIVEN:
            # No answer is invented: with nothing given, the double exercises the tools.
            self.seed = 0 if seed is None else seed
        elif isinstance(responses, str):
            self._fixed = reply_for(Turn(content=responses))
        elif isinstance(responses, Mapping):
            self._table = _table_of(responses)
        elif callable(responses):
            _check_rule_signature(responses)
            self._rule = responses
        else:
            raise ArgumentTypeError(
                where, "responses", "a str, a dict {substring: reply} or a callable", responses
            )
        self._init_verification(verify=verify, name="FakeLLM")

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
        """Replay ``turns`` in order, one per chat/stream call, then raise ScriptExhausted.

        ``repeat_last=True`` replays the final turn forever instead -- the
        escape hatch a reader needs at the moment the exception fires, so it
        comes first. Every other option is spelled out too (no ``**kw``), so a
        misspelled keyword is a type error and an IDE completes them; each
        means what it means on the constructor.
        """
        return cls(
            turns=_script_of(turns, "FakeLLM.script"),
            repeat_last=repeat_last,
            usage=usage,
            fail_times=fail_times,
            fail_exc=fail_exc,
            delay=delay,
            verify=verify,
        )

    @property
    def remaining(self) -> int | None:
        """Script turns not yet replayed (0 while repeating the last); None for the
        single-answer forms, which never run out."""
        return None if self._cursor is None else self._cursor.remaining

    def _leftovers(self) -> list[Violation]:
        cursor = self._cursor
        if cursor is None or cursor.repeat_last or cursor.remaining == 0:
            return []
        total = len(cursor.items)
        used = cursor.consumed
        unused = ", ".join(
            f"{used + n + 1}: {_describe(turn)}" for n, turn in enumerate(self.turns[used:][:3])
        )
        more = f" and {cursor.remaining - 3} more" if cursor.remaining > 3 else ""
        return [
            self._violation(
                "unused_turns",
                f"{cursor.remaining} of {total} scripted turns were never asked for "
                f"(the run stopped after {used}); unused turns {unused}{more}",
                "if the agent stopped early, fix the code under test; if the script claims "
                "more turns than the run takes, remove them (or pass repeat_last=True for "
                "a script meant to be cut off by a limit)",
            )
        ]

    def _check_reply(self, reply: Reply, request: ChatRequest, turn: str) -> Reply:
        for problem in reply_problems(reply.tool_calls, request.tools, turn):
            self._record_violation(*problem)
        return reply

    def _next_turn(
        self, cursor: ScriptCursor[Reply | BaseException], request: ChatRequest
    ) -> Reply | BaseException:
        try:
            reply = cursor.next()
        except ScriptExhausted as exc:
            self._record_violation(
                "script_exhausted",
                f"call {cursor.consumed + 1} asked for a turn past the end of the "
                f"{len(cursor.items)}-turn script: {exc}",
                "if the agent looped when it should have stopped, fix the code under test; "
                "if the run really takes more turns, script them (or pass repeat_last=True)",
            )
            raise
        if isinstance(reply, BaseException):
            return reply.with_traceback(None)
        return self._check_reply(reply, request, f"scripted turn {cursor.consumed}")

    def _select(self, request: ChatRequest) -> Reply | BaseException:
        if self._fixed is not None:
            return self._fixed
        if self._cursor is not None:
            return self._next_turn(self._cursor, request)
        if self._table:
            text = request.last_user_text
            if text is not None:
                for key, reply in self._table:
                    if key in text:
                        return reply
            keys = [key for key, _ in self._table]
            self._record_violation(
                "unmatched_request",
                "no response key matches "
                + ("a request with no user message" if text is None else f"{text!r}")
                + f" (keys tried: {keys})",
                "add a key for this prompt, fix the prompt the code under test sends, or use "
                "a callable for open-ended prompts",
            )
            raise UnmatchedRequest(text, keys)
        if self.seed is not None:
            return self._exercise(request, self.seed)
        return self._apply_rule(request)

    def _exercise(self, request: ChatRequest, seed: int) -> Reply:
        # Imported here: only an argument-less FakeLLM pays for the generator (and random).
        from agentkit.fakes.llm._exercise import exercise

        turn = exercise(request, seed)
        if turn is not None:
            return self._check_reply(
                reply_for(turn), request, f"the generated turn at call {len(self.calls)}"
            )
        reason = (
            "FakeLLM() with no responses exercises the tools a request offers, and this "
            "request offered none: there is nothing to answer with"
        )
        self._record_violation(
            "unmatched_request",
            f"call {len(self.calls)}: {reason}",
            "give the double the answer this request should get (FakeLLM('...'), a dict, a "
            "callable or FakeLLM.script), or offer the agent its tools",
        )
        raise UnmatchedRequest(request.last_user_text, (), reason)

    def _apply_rule(self, request: ChatRequest) -> Reply:
        rule = self._rule
        if rule is None:  # unreachable by construction; a clear error all the same
            raise RuntimeError("FakeLLM has no response rule")
        try:
            answer: object = rule(request)
        except Exception as exc:
            error = ResponseRuleError(
                f"the FakeLLM responses callable raised {type(exc).__name__}: {exc}", exc
            )
            error.__cause__ = exc
        else:
            if isinstance(answer, str):
                return reply_for(Turn(content=answer))
            if isinstance(answer, Turn):
                return self._check_reply(
                    reply_for(answer), request, f"the callable's turn at call {len(self.calls)}"
                )
            error = ResponseRuleError(
                "the FakeLLM responses callable must return a str or a Turn, "
                f"got {type(answer).__name__}"
            )
        # Recorded as well as raised, like a miss: a gather(return_exceptions=True) or an
        # except BaseException between the double and the test cannot hide a broken rule.
        self._record_violation(
            "rule_error",
            f"call {len(self.calls)}: {error}",
            "fix the responses callable (it is part of the test); to inject a provider "
            "fault, use fail_times= / fail_exc= or script an exception",
        )
        raise error

    def _refusal(self, request: ChatRequest) -> RefusedRequest | None:
        unanswered = unanswered_tool_calls(request.messages)
        if not unanswered:
            return None
        text = unanswered_text(unanswered)
        self._record_violation(
            "unanswered_tool_call", f"call {len(self.calls)}: {text}", UNANSWERED_FIX
        )
        return RefusedRequest(text, unanswered)

    def _failure(self) -> BaseException:
        self.failures += 1
        if self.fail_exc is None:
            return FakeLLMError(self.failures, self.fail_times)
        return self.fail_exc.with_traceback(None)

    async def stream_request(self, request: ChatRequest) -> AsyncGenerator[Delta, None]:
        """The streaming primitive: content in small chunks, then ONE terminal delta.

        The port's keyword ``stream`` and ``chat`` come from
        :class:`~agentkit.core.request.ChatModel`: ``stream`` builds the
        :class:`~agentkit.core.request.ChatRequest` and hands it here, and
        ``chat`` collects this stream, so the two can never disagree.

        The terminal delta carries the usage, the finish reason ("tool_calls"
        when the reply requests tools, else "stop") and the tool calls. Every
        failure -- injected, an unmatched request, an exhausted script, the
        responses callable's own -- is raised at the first ``__anext__``,
        before any delta, so it is a pre-stream failure a retry can re-invoke.

        Typed as the async generator it is (a subtype of the port's
        ``AsyncIterator``), so a caller that stops early can ``aclose()`` it.
        """
        self.calls.append(request)
        # The call's outcome is settled (and any turn consumed, any violation recorded)
        # BEFORE the delay: a call cancelled while it waits (asyncio.wait_for) has still
        # been asked for, so the call log and the verdict can never disagree.
        error: BaseException | None = self._refusal(request)
        reply: Reply | None = None
        if error is None and self.failures < self.fail_times:
            error = self._failure()
        if error is None:
            try:
                outcome = self._select(request)
            except (ScriptExhausted, UnmatchedRequest, ResponseRuleError) as exc:
                error = exc
            else:
                if isinstance(outcome, BaseException):
                    error = outcome  # a scripted provider failure at this call
                else:
                    reply = outcome
        if self.delay:
            await asyncio.sleep(self.delay)
        if error is not None:
            raise error
        assert reply is not None
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
        if turns is not None or responses is not NOT_GIVEN:
            raise ArgumentTypeError(
                "FakeLLM",
                "seed",
                "None unless FakeLLM exercises the tools (no responses, no turns)",
                seed,
                "seed= picks the generated tool arguments of FakeLLM() with no responses; "
                "a str, dict, callable or script already decides every reply",
            )
    if turns is not None and responses is not NOT_GIVEN:
        raise ArgumentTypeError(
            "FakeLLM",
            "turns",
            "None when responses is given",
            turns,
            "pass either responses (a single-answer rule) or turns (a script), not both",
        )


def _table_of(responses: Mapping[Any, Any]) -> tuple[tuple[str, Reply], ...]:
    """``{substring: reply}`` as the keyword table, refused when it could never answer."""
    if not responses:
        raise ArgumentValueError(
            "FakeLLM",
            "responses",
            "a non-empty dict {substring: reply}",
            responses,
            "the dict is empty: no request could ever match it",
        )
    table: list[tuple[str, Reply]] = []
    for key, value in responses.items():
        if not isinstance(key, str):
            raise ArgumentTypeError(
                "FakeLLM", "responses keys", "substrings of a prompt (str to str)", key
            )
        if not isinstance(value, str):
            raise ArgumentTypeError(
                "FakeLLM", f"responses[{key!r}]", "a reply str (str to str)", value
            )
        table.append((key, reply_for(Turn(content=value))))
    return tuple(table)
