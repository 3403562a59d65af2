"""Production null objects: a trace, an observer and a ctx that record nothing.

They are not test doubles (those are the Fake* classes, which record); they
are what a run uses when nobody is listening, so that code can always call
``ctx.trace.span(...)`` and ``ctx.observer.emit(...)`` without a None check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from agentkit.core._internal.arguments import check_protocol, check_type
from agentkit.core.types import Scope, TraceContext

__all__ = ["NoopObserver", "NoopSpan", "NoopTrace", "NullCtx"]


class NoopSpan:
    """A span that absorbs attributes and events. Also its own context manager."""

    __slots__ = ()

    def set(self, key: str, value: Any) -> None:
        return None

    def add_event(self, name: str, **fields: Any) -> None:
        return None

    def __enter__(self) -> NoopSpan:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None


_NOOP_SPAN = NoopSpan()


class NoopTrace:
    """A TracePort that records nothing; ``current_span_id`` is always None."""

    __slots__ = ()

    def span(self, name: str, kind: str = "internal", **attrs: Any) -> NoopSpan:
        return _NOOP_SPAN

    def current_span_id(self) -> TraceContext | None:
        return None

    def add_event_to_current_span(self, name: str, **fields: Any) -> None:
        return None


class NoopObserver:
    """An ObserverPort that drops every event."""

    __slots__ = ()

    def emit(self, event: str, **fields: Any) -> None:
        return None


@dataclass
class NullCtx:
    """A Ctx that absorbs every operation and records nothing.

    Use it where a capability needs a ctx and the test does not look at what
    was traced; use ``agentkit.fakes.ctx.FakeCtx`` where it does.
    """

    scope: Scope = field(default_factory=Scope)
    trace: NoopTrace = field(default_factory=NoopTrace)
    observer: NoopObserver = field(default_factory=NoopObserver)

    def __post_init__(self) -> None:
        check_type(self.scope, Scope, "NullCtx", "scope", "an agentkit.core.types.Scope")
        check_protocol(self.trace, "NullCtx", "trace", "a TracePort", ("span", "current_span_id"))
        check_protocol(self.observer, "NullCtx", "observer", "an ObserverPort", ("emit",))
