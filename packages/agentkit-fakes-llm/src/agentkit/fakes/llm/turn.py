"""Turn: one scripted model reply."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    check_str,
    check_type,
    check_values,
)
from agentkit.core.types import ToolCall, Usage

__all__ = ["Turn"]


@dataclass(frozen=True, slots=True, init=False)
class Turn:
    """One scripted reply for ``FakeLLM.script`` -- a final answer, or a turn that requests tools.

    Frozen because a script is a recording: two doubles built from the same
    list of turns must not be able to affect each other through it.

    ``usage`` is what the reply reports. On :class:`~agentkit.fakes.llm.FakeLLM`
    it is agentkit's own (cache-exclusive) :class:`~agentkit.core.types.Usage`
    and reaches the caller unchanged; on
    :class:`~agentkit.fakes.llm.ScriptedAdapter` it is read as the provider's
    RAW report in the runtime's mode convention (see that class). ``None``
    means "the double decides" -- each double documents its default.

    ``tool_calls`` accepts any iterable of :class:`~agentkit.core.types.ToolCall`
    and is stored as a tuple, so ``Turn(tool_calls=[call])`` is not a trap --
    and type-checks, since the constructor is written out to take an
    ``Iterable`` while the field stays a tuple.

    ``finish_reason`` is what the terminal delta reports; ``None`` derives it
    as a provider does: "tool_calls" when the turn requests tools, else
    "stop". Give it to script a reply cut short ("length") or filtered
    ("content_filter").

    ``reasoning`` is the model's visible reasoning, streamed before the
    content as one :attr:`~agentkit.core.types.Delta.reasoning` delta: what a
    thinking model shows apart from its answer (behind
    ``agentkit.fakes.api``, an Anthropic ``thinking`` block or an OpenAI
    ``reasoning`` summary a real CLI prints). Empty: no reasoning delta.
    """

    content: str
    tool_calls: tuple[ToolCall, ...]
    usage: Usage | None
    finish_reason: str | None
    reasoning: str

    def __init__(
        self,
        content: str = "",
        tool_calls: Iterable[ToolCall] = (),
        usage: Usage | None = None,
        finish_reason: str | None = None,
        reasoning: str = "",
    ) -> None:
        check_str(content, "Turn", "content")
        check_str(reasoning, "Turn", "reasoning")
        calls = check_values(tool_calls, "Turn", "tool_calls", "an iterable of ToolCall")
        for index, call in enumerate(calls):
            if not isinstance(call, ToolCall):
                raise ArgumentTypeError(
                    "Turn",
                    f"tool_calls[{index}]",
                    "a ToolCall",
                    call,
                    "write ToolCall(id, name, arguments)",
                )
        if usage is not None:
            check_type(usage, Usage, "Turn", "usage", "a Usage or None")
        if finish_reason is not None:
            check_str(finish_reason, "Turn", "finish_reason", empty=False)
        object.__setattr__(self, "content", content)
        object.__setattr__(self, "tool_calls", calls)
        object.__setattr__(self, "usage", usage)
        object.__setattr__(self, "finish_reason", finish_reason)
        object.__setattr__(self, "reasoning", reasoning)
