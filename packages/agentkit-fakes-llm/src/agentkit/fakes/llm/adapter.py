"""ScriptedAdapter and scripted_runtime: a CallRuntime on scripted transport facts.

FakeLLM stands in for the whole model. These stand in for the provider only,
so that the real :class:`~agentkit.core.pricing.CallRuntime` still does the
part under test: normalising the provider's usage convention and pricing it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from agentkit.core.pricing import (
    OPENAI_API,
    CallRuntime,
    Mode,
    PriceTable,
    RawUsage,
    TransportFacts,
)
from agentkit.core.script import ScriptCursor, ScriptExhausted
from agentkit.core.types import Message, ToolSchema, Usage
from agentkit.fakes.llm.turn import Turn

__all__ = ["ScriptedAdapter", "ScriptedAdapterExhausted", "scripted_runtime"]


class ScriptedAdapterExhausted(ScriptExhausted):
    """A runtime requested more transport turns than the script supplied.

    A subclass of :class:`~agentkit.core.script.ScriptExhausted`, hence a
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


class ScriptedAdapter:
    """A finite sequence of transport facts; exhaustion fails loudly.

    Each :meth:`send` returns the next :class:`~agentkit.fakes.llm.Turn` as
    :class:`~agentkit.core.pricing.TransportFacts`. ``Turn.usage`` is read as
    the PROVIDER'S RAW report, in the convention of the runtime's mode: under
    ``OPENAI_API`` its ``input_tokens`` INCLUDES ``cached_input_tokens`` (and
    ``cache_write_tokens``), under ``ANTHROPIC_API`` it excludes them. That
    is the point of the double: the test writes down what the provider would
    say, and the real runtime's normalisation is what gets checked. A Turn
    without usage reports zero tokens (``RawUsage()``) -- the adapter reports
    what it is given and invents nothing, so a cost test must say its usage.
    The facts carry no ``finish_reason`` and no ``model``, so the runtime
    derives the first and bills the requested model.

    ``calls`` records every send, the one that found the script exhausted
    included, as a dict of ``messages`` (a copy), ``model``, ``tools`` (a copy
    or None) and ``options`` (a copy).
    """

    __slots__ = ("_cursor", "calls")

    def __init__(self, turns: Iterable[Turn]) -> None:
        items = tuple(turns)
        for turn in items:
            if not isinstance(turn, Turn):
                raise TypeError(f"ScriptedAdapter takes Turn objects, got {type(turn).__name__}")
        self._cursor: ScriptCursor[Turn] = ScriptCursor(
            items, what="transport turn", exhausted=ScriptedAdapterExhausted
        )
        self.calls: list[dict[str, Any]] = []

    @property
    def turns(self) -> tuple[Turn, ...]:
        return self._cursor.items

    @property
    def remaining(self) -> int:
        """Turns not yet sent; zero after the last is the normal end of a consumed script."""
        return self._cursor.remaining

    async def send(
        self,
        *,
        messages: list[Message],
        model: str,
        tools: list[ToolSchema] | None = None,
        options: Mapping[str, Any],
    ) -> TransportFacts:
        self.calls.append(
            {
                "messages": list(messages),
                "model": model,
                "tools": None if tools is None else list(tools),
                "options": dict(options),
            }
        )
        turn = self._cursor.next()
        return TransportFacts(
            content=turn.content, tool_calls=turn.tool_calls, usage=_raw(turn.usage)
        )


def scripted_runtime(
    turns: Iterable[Turn],
    pricing: PriceTable,
    *,
    mode: Mode = OPENAI_API,
    **runtime_options: Any,
) -> CallRuntime:
    """Create a runtime wired to one scripted mode and an explicit price table.

    The price table is required, never defaulted: a runtime that priced an
    unlisted model at zero would be a budget that silently never trips.
    ``runtime_options`` go to :class:`~agentkit.core.pricing.CallRuntime`
    (``meters``, ``default_model``); the adapter is ``runtime.adapter``.
    """
    return CallRuntime(ScriptedAdapter(turns), pricing, mode=mode, **runtime_options)
