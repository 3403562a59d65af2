"""ScriptedAdapter and scripted_runtime: a CallRuntime on scripted transport facts.

FakeLLM stands in for the whole model. These stand in for the provider only,
so that the real :class:`~agentkit.core.call_runtime.CallRuntime` still does the
part under test: normalising the provider's usage convention and pricing it.
"""

from __future__ import annotations

from collections.abc import Iterable

from agentkit.core._internal.arguments import check_bool
from agentkit.core.call_runtime import CallRuntime, TransportFacts
from agentkit.core.pricing import OPENAI_API, Mode, PriceTable, RawUsage
from agentkit.core.request import ChatRequest
from agentkit.core.types import Usage
from agentkit.core.verification import VerifyingDouble, Violation
from agentkit.core.verification.script import ScriptCursor, ScriptExhausted
from agentkit.fakes.llm._checks import reply_problems
from agentkit.fakes.llm._responders import turns_of
from agentkit.fakes.llm.turn import Turn

__all__ = ["ScriptedAdapter", "ScriptedAdapterExhausted", "scripted_runtime"]


class ScriptedAdapterExhausted(ScriptExhausted):
    """A runtime requested more transport turns than the script supplied.

    A subclass of :class:`~agentkit.core.verification.script.ScriptExhausted`, hence a
    BaseException, for the same reason: a call the script did not claim is a
    defect in the code under test (a retry that should not have fired, a loop
    that should have stopped), and no ``except Exception`` on the way up may
    turn it into a plausible answer.
    """


def _raw(usage: Usage | None) -> RawUsage:
    if usage is None:
        return RawUsage()
    return RawUsage(
        input_tokens=usage.input_tokens,
        cached_input_tokens=usage.cached_input_tokens,
        cache_write_tokens=usage.cache_write_tokens,
        output_tokens=usage.output_tokens,
        reasoning_tokens=usage.reasoning_tokens,
    )


class ScriptedAdapter(VerifyingDouble):
    """A finite sequence of transport facts; exhaustion fails loudly.

    Each :meth:`send` returns the next :class:`~agentkit.fakes.llm.Turn` as
    :class:`~agentkit.core.call_runtime.TransportFacts`. ``Turn.usage`` is read as
    the PROVIDER'S RAW report, in the convention of the runtime's mode: under
    ``OPENAI_API`` its ``input_tokens`` INCLUDES ``cached_input_tokens`` (and
    ``cache_write_tokens``), under ``ANTHROPIC_API`` it excludes them. That
    is the point of the double: the test writes down what the provider would
    say, and the real runtime's normalisation is what gets checked. A Turn
    without usage reports zero tokens (``RawUsage()``) -- the adapter reports
    what it is given and invents nothing, so a cost test must say its usage.
    The facts carry the turn's ``finish_reason`` (``None`` unless given, and
    the runtime derives it) and no ``model``, so the runtime bills the
    requested model.

    ``calls`` records every send, the one that found the script exhausted
    included, as the :class:`~agentkit.core.request.ChatRequest` it was.

    ``repeat_last=True`` sends the final turn forever, for a runtime driven
    until a limit cuts it. Strict verification works as on FakeLLM's script
    form: turns never sent (``unused_turns``), a send past the end
    (``script_exhausted``, recorded as well as raised) and a scripted tool
    call naming a tool the send did not offer (``unoffered_tool``, recorded,
    not raised -- see FakeLLM) are violations; :meth:`assert_complete` raises
    them all at once, and ``verify=False`` opts out.
    """

    def __init__(
        self, turns: Iterable[Turn], *, repeat_last: bool = False, verify: bool = True
    ) -> None:
        check_bool(repeat_last, "ScriptedAdapter", "repeat_last")
        items = turns_of(turns, "ScriptedAdapter")
        self._cursor: ScriptCursor[Turn] = ScriptCursor(
            items,
            repeat_last=repeat_last,
            what="transport turn",
            exhausted=ScriptedAdapterExhausted,
            where="ScriptedAdapter",
        )
        self.calls: list[ChatRequest] = []
        self._init_verification(verify=verify, name="ScriptedAdapter")

    def _leftovers(self) -> list[Violation]:
        cursor = self._cursor
        if cursor.repeat_last or cursor.remaining == 0:
            return []
        return [
            self._violation(
                "unused_turns",
                f"{cursor.remaining} of {len(cursor.items)} scripted transport turns were never "
                f"sent (the run stopped after {cursor.consumed})",
                "if the code under test stopped early, fix it; if the script claims more "
                "turns than the run takes, remove them (or pass repeat_last=True)",
            )
        ]

    @property
    def turns(self) -> tuple[Turn, ...]:
        return self._cursor.items

    @property
    def remaining(self) -> int:
        """Turns not yet sent; zero after the last is the normal end of a consumed script."""
        return self._cursor.remaining

    async def send(self, request: ChatRequest) -> TransportFacts:
        self.calls.append(request)
        cursor = self._cursor
        try:
            turn = cursor.next(len(self.calls))
        except ScriptExhausted as exc:
            self._record_violation(
                "script_exhausted",
                str(exc),
                "if a retry or a loop fired that should not have, fix the code under test; "
                "if the run really takes more turns, script them (or pass repeat_last=True)",
            )
            raise
        for problem in reply_problems(
            turn.tool_calls, request.tools, f"scripted transport turn {cursor.consumed}"
        ):
            self._record_violation(*problem)
        return TransportFacts(
            content=turn.content,
            tool_calls=turn.tool_calls,
            usage=_raw(turn.usage),
            finish_reason=turn.finish_reason,
        )


def scripted_runtime(
    turns: Iterable[Turn],
    pricing: PriceTable,
    *,
    mode: Mode = OPENAI_API,
    default_model: str | None = None,
    repeat_last: bool = False,
    verify: bool = True,
) -> CallRuntime:
    """Create a runtime wired to one scripted mode and an explicit price table.

    The price table is required, never defaulted: a runtime that priced an
    unlisted model at zero would be a budget that silently never trips.
    ``mode`` and ``default_model`` go to
    :class:`~agentkit.core.call_runtime.CallRuntime` (spelled out, not
    ``**kw``, so a misspelled keyword is a type error); the adapter is
    ``runtime.adapter``. The runtime meters nothing: put it behind an Invoker
    (``make_test_ctx(llm=runtime)``) and the run's context is charged.
    ``repeat_last`` and ``verify`` go to the :class:`ScriptedAdapter`.
    """
    adapter = ScriptedAdapter(turns, repeat_last=repeat_last, verify=verify)
    return CallRuntime(adapter, pricing, mode=mode, default_model=default_model)
