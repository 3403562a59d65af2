"""How a FakeLLM answers: one small responder per form, chosen at construction.

FakeLLM itself settles what every call shares (the call log, a refused
request, injected failures, the delay, the terminal delta and its usage). What
the reply IS comes from its one responder, picked once when the double is
built, so the hot path never asks which form it is:

- :class:`FixedAnswer` -- ``FakeLLM("text")``: one reply for every call;
- :class:`KeywordTable` -- ``FakeLLM({substring: reply})``: the reply picked
  by the last user message;
- :class:`~agentkit.fakes.llm._function.FunctionAnswer` --
  ``FakeLLM(callable)``: the test's own function model, sync, async or
  streaming;
- :class:`ScriptedTurns` -- ``FakeLLM.script(turns)``: one turn per call, a
  finite claim about the run;
- :class:`~agentkit.fakes.llm._exercise.ToolExerciser` -- ``FakeLLM()`` and
  ``FakeLLM.exercise_tools(...)``: every offered tool called, then a summary.

A responder's :meth:`Responder.answer` returns the call's outcome: a
:class:`~agentkit.fakes.llm._reply.Reply` to stream, a
:class:`~agentkit.fakes.llm._function.Streamed` reply the test's function
yields piece by piece, or an exception instance that the call raises as a
provider failure would (a scripted one). A finding of the kit -- a miss, a run
past the script, a broken function -- is recorded through ``record`` and
raised (a BaseException, see :mod:`agentkit.fakes.llm.errors`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError, check_values
from agentkit.core.request import ChatRequest
from agentkit.core.verification.script import ScriptCursor, ScriptExhausted
from agentkit.fakes.llm._checks import Problem, reply_problems
from agentkit.fakes.llm._reply import Reply, reply_for
from agentkit.fakes.llm.errors import UnmatchedRequest
from agentkit.fakes.llm.turn import Turn

if TYPE_CHECKING:
    from agentkit.fakes.llm._function import Streamed

__all__ = [
    "FixedAnswer",
    "KeywordTable",
    "Outcome",
    "Record",
    "Responder",
    "ScriptItem",
    "ScriptedTurns",
    "checked",
    "script_of",
    "turns_of",
]

ScriptItem: TypeAlias = "Turn | BaseException"
"""One item of a FakeLLM script: a reply, or an exception raised at that call."""

Record: TypeAlias = "Callable[[str, str, str], None]"
"""The double's violation recorder: ``record(kind, detail, fix)``."""

Outcome: TypeAlias = "Reply | Streamed | BaseException"
"""What one call gets: a reply, a reply streamed as the test's function yields it, or a
provider failure to raise before the first delta."""


def checked(reply: Reply, request: ChatRequest, turn: str, record: Record) -> Reply:
    """``reply``, its tool calls checked against the tools ``request`` offered.

    A problem is recorded, not raised: the reply is delivered as written (see
    :func:`~agentkit.fakes.llm._checks.reply_problems`). ``turn`` names the
    reply in the report ("scripted turn 2", "the callable's turn at call 3").
    """
    for problem in reply_problems(reply.tool_calls, request.tools, turn):
        record(*problem)
    return reply


class Responder(ABC):
    """One form of answer. Subclasses say what a call gets, and what is left over."""

    __slots__ = ()

    @abstractmethod
    async def answer(self, request: ChatRequest, call: int, record: Record) -> Outcome:
        """The outcome of call number ``call`` (1-based, failed calls counted)."""

    @property
    def remaining(self) -> int | None:
        """Material not yet used; None for a form that never runs out."""
        return None

    def leftovers(self) -> list[Problem]:
        """Material the run never asked for, as violations to record at verification."""
        return []


class FixedAnswer(Responder):
    """``FakeLLM("text")``: every call answers the same text, for ever.

    Nothing to run out of, nothing left over: repeating is what it means.
    """

    __slots__ = ("reply",)

    def __init__(self, text: str) -> None:
        self.reply = reply_for(Turn(content=text))

    async def answer(self, request: ChatRequest, call: int, record: Record) -> Outcome:
        return self.reply


class KeywordTable(Responder):
    """``FakeLLM({substring: reply})``: the first key the LAST user message contains answers.

    The last user message because that is the question being asked now; the
    earlier turns of a transcript would make an early key answer every later
    question. Keys are tried in insertion order. A request no key matches is
    recorded (``unmatched_request``) and raised as
    :class:`~agentkit.fakes.llm.errors.UnmatchedRequest`, never answered with
    a default: a plausible answer to the wrong question is a green test.
    """

    __slots__ = ("keys", "table")

    def __init__(self, responses: Mapping[Any, Any]) -> None:
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
        self.table = tuple(table)
        self.keys = [key for key, _ in table]

    async def answer(self, request: ChatRequest, call: int, record: Record) -> Outcome:
        text = request.last_user_text
        if text is not None:
            for key, reply in self.table:
                if key in text:
                    return reply
        record(
            "unmatched_request",
            "no response key matches "
            + ("a request with no user message" if text is None else f"{text!r}")
            + f" (keys tried: {self.keys})",
            "add a key for this prompt, fix the prompt the code under test sends, or use "
            "a callable for open-ended prompts",
        )
        raise UnmatchedRequest(text, self.keys)


def turns_of(turns: object, where: str) -> tuple[Turn, ...]:
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


def script_of(turns: object, where: str) -> tuple[ScriptItem, ...]:
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


def _describe(item: ScriptItem) -> str:
    if isinstance(item, BaseException):
        return f"raises {type(item).__name__}({str(item)[:30]!r})"
    if item.tool_calls:
        return "tool calls " + ", ".join(repr(call.name) for call in item.tool_calls)
    text = item.content if len(item.content) <= 40 else item.content[:37] + "..."
    return f"content {text!r}"


class ScriptedTurns(Responder):
    """``FakeLLM.script(turns)``: one item per call, in order; then the script has run out.

    A script is a finite, ordered claim about how many calls the run makes,
    so it differs ON PURPOSE from the single-answer forms: call N+1 is
    recorded (``script_exhausted``) and raises
    :class:`~agentkit.core.verification.script.ScriptExhausted` through the shared
    :class:`~agentkit.core.verification.script.ScriptCursor`, and turns never asked for
    are reported at verification (``unused_turns``). ``repeat_last=True`` is
    the deliberate never-ending script. An exception item is raised at its
    call, before the first delta, as a provider failure there.
    """

    __slots__ = ("cursor", "turns")

    def __init__(self, turns: Iterable[ScriptItem], *, repeat_last: bool, where: str) -> None:
        self.turns = script_of(turns, where)
        self.cursor: ScriptCursor[Reply | BaseException] = ScriptCursor(
            [item if isinstance(item, BaseException) else reply_for(item) for item in self.turns],
            repeat_last=repeat_last,
            what="turn",
            where=where,
        )

    @property
    def remaining(self) -> int | None:
        return self.cursor.remaining

    async def answer(self, request: ChatRequest, call: int, record: Record) -> Outcome:
        cursor = self.cursor
        try:
            item = cursor.next(call)
        except ScriptExhausted as exc:
            record(
                "script_exhausted",
                str(exc),
                "if the agent looped when it should have stopped, fix the code under test; "
                "if the run really takes more turns, script them (or pass repeat_last=True)",
            )
            raise
        if isinstance(item, BaseException):
            return item.with_traceback(None)
        return checked(item, request, f"scripted turn {cursor.consumed}", record)

    def leftovers(self) -> list[Problem]:
        cursor = self.cursor
        if cursor.repeat_last or cursor.remaining == 0:
            return []
        used = cursor.consumed
        unused = ", ".join(
            f"{used + n + 1}: {_describe(item)}" for n, item in enumerate(self.turns[used:][:3])
        )
        more = f" and {cursor.remaining - 3} more" if cursor.remaining > 3 else ""
        return [
            Problem(
                "unused_turns",
                f"{cursor.remaining} of {len(cursor.items)} scripted turns were never asked for "
                f"(the run stopped after {used}); unused turns {unused}{more}",
                "if the agent stopped early, fix the code under test; if the script claims "
                "more turns than the run takes, remove them (or pass repeat_last=True for "
                "a script meant to be cut off by a limit)",
            )
        ]
