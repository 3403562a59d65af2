"""FakeCtx: the least Ctx a capability needs, recording what it traced and observed."""

from __future__ import annotations

from typing import Any

from agentkit.core._internal.arguments import check_type
from agentkit.core.types import Scope
from agentkit.fakes.ctx.observer import RecordingObserver
from agentkit.fakes.ctx.tracer import RecordingTracer

__all__ = ["FakeCtx"]


class FakeCtx:
    """Minimal :class:`~agentkit.core.ports.Ctx` that RECORDS spans + observations.

    Use it when a test needs to assert on what spans were opened (a
    RequestBuilder stamping ``agentkit.prompt.version`` on its span is only
    testable with a tracer that captures attributes). Distinct from
    :class:`agentkit.core.noop.NullCtx`, which absorbs everything and records
    nothing; both are valid -- pick by whether the test looks at the record.

    ``trace`` is a :class:`RecordingTracer`; ``observer`` a
    :class:`~agentkit.fakes.ctx.observer.RecordingObserver` whose
    ``(event, fields)`` records are also ``ctx.observations``. ``scope``
    defaults to the zero-tenant ``Scope()``.

    The three are read-only properties: a test that swapped ``ctx.trace`` for
    another tracer would leave ``ctx.spans`` reporting the old one.

    It verifies nothing at teardown: a recorder holds no material to leave
    unused and answers every call; what it recorded is for the test to
    assert on.
    """

    __slots__ = ("_observer", "_scope", "_trace")

    def __init__(self, *, scope: Scope | None = None) -> None:
        if scope is not None:
            check_type(scope, Scope, "FakeCtx", "scope", "an agentkit.core.types.Scope or None")
        self._scope = Scope() if scope is None else scope
        self._trace = RecordingTracer()
        self._observer = RecordingObserver()

    @property
    def scope(self) -> Scope:
        return self._scope

    @property
    def trace(self) -> RecordingTracer:
        return self._trace

    @property
    def observer(self) -> RecordingObserver:
        return self._observer

    @property
    def observations(self) -> list[tuple[str, dict[str, Any]]]:
        """Every ``observer.emit(event, **fields)``, as ``(event, fields)``, in order."""
        return self._observer.observations

    @property
    def spans(self) -> list[tuple[str, str, dict[str, Any]]]:
        """``ctx.trace.spans`` as ``(name, kind, attrs)`` tuples, in start order.

        A convenience alias, so a test can assert on ``ctx.spans`` directly
        instead of reaching through ``ctx.trace.spans``: the two compare equal
        to the same list of tuples (each :class:`RecordingSpan` equals its
        triple), and ``ctx.trace.spans`` keeps the span objects for a test
        that needs their events or ids. Built fresh on each access, with a
        copy of each span's attributes: asserting on it, or editing the
        result, cannot change what was recorded.
        """
        return [(span.name, span.kind, dict(span.attrs)) for span in self._trace.spans]

    def __repr__(self) -> str:
        return (
            f"FakeCtx(scope={self._scope!r}, spans={len(self._trace.spans)}, "
            f"observations={len(self._observer.observations)})"
        )
