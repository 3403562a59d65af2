"""Turn: one scripted model reply."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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
    """

    content: str
    tool_calls: tuple[ToolCall, ...]
    usage: Usage | None

    def __init__(
        self, content: str = "", tool_calls: Iterable[ToolCall] = (), usage: Usage | None = None
    ) -> None:
        __tracebackhide__ = True
        if not isinstance(content, str):
            raise TypeError(f"Turn.content must be a str, got {type(content).__name__}")
        if not isinstance(tool_calls, Iterable):
            raise TypeError(
                f"Turn.tool_calls must be an iterable of ToolCall, got {type(tool_calls).__name__}"
            )
        object.__setattr__(self, "content", content)
        object.__setattr__(self, "usage", usage)
        calls = tuple(tool_calls)
        for call in calls:
            if not isinstance(call, ToolCall):
                raise TypeError(
                    f"Turn.tool_calls must hold ToolCall objects, got {type(call).__name__}: "
                    f"{call!r}"
                )
        object.__setattr__(self, "tool_calls", calls)
        if self.usage is not None and not isinstance(self.usage, Usage):
            raise TypeError(f"Turn.usage must be a Usage or None, got {type(self.usage).__name__}")
