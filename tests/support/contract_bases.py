"""Correct implementations that the contract tables' wrong ones are built on.

The one-mistake-per-check table and the red team each write wrong stores,
tracers and ctxs; where both get a port wrong in ways that share a correct
skeleton, the skeleton lives here once and each wrong one adds its mistake.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from agentkit.core.noop import NoopObserver, NoopSpan, NoopTrace
from agentkit.core.types import MemoryItem, Scope, TraceContext

__all__ = ["CtxWith", "ListMemory", "StackTracer"]


class ListMemory:
    """A correct store: keeps what is written, answers items sharing a word with the query.

    The wrong stores of both tables are this one with one method changed.
    """

    name = "notes"

    def __init__(self) -> None:
        self.items: list[MemoryItem] = []

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        words = set(query.lower().split())
        return [i for i in self.items if words & set(i.text.lower().split())][:k]

    async def write(self, items: Sequence[MemoryItem]) -> None:
        self.items.extend(items)


class StackTracer:
    """A tracer whose open spans are one list: its top is the current span.

    The wrong tracers of both tables are this one with their mistake added:
    where the list lives (one per tracer is itself a mistake when tasks run
    at once) and what context a span opened inside another gets (``opened``).
    """

    stack: list[TraceContext]

    def __init__(self) -> None:
        self.stack = []

    def opened(self, name: str) -> TraceContext:
        """The context of a span named ``name`` opened now: one trace, its own span id."""
        return TraceContext("t", f"s{len(self.stack)}")

    @contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:
        self.stack.append(self.opened(name))
        try:
            yield NoopSpan()
        finally:
            self.stack.pop()

    def current_span_id(self) -> TraceContext | None:
        return self.stack[-1] if self.stack else None

    def add_event_to_current_span(self, name: str, **fields: Any) -> None:
        return None


@dataclass
class CtxWith:
    """A ctx of the three parts the Ctx suite checks, each one given or a correct no-op.

    So a ctx that gets one part wrong is written as that part alone.
    """

    scope: Any = field(default_factory=Scope)
    trace: Any = field(default_factory=NoopTrace)
    observer: Any = field(default_factory=NoopObserver)
