"""REJECTED by mypy: a tracer whose ``span()`` returns the span, not a context manager.

Every caller writes ``with ctx.trace.span(...) as span:``; a span object
without ``__enter__``/``__exit__`` fails there, at run time.
"""

from __future__ import annotations

from typing import Any

from agentkit.core.ports import TracePort
from agentkit.core.types import TraceContext


class BareSpan:
    def set(self, key: str, value: Any) -> None:
        pass

    def add_event(self, name: str, **fields: Any) -> None:
        pass


class BareSpanTracer:
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> BareSpan:
        return BareSpan()

    def current_span_id(self) -> TraceContext | None:
        return None

    def add_event_to_current_span(self, name: str, **fields: Any) -> None:
        pass


_trace: TracePort = BareSpanTracer()
