"""Static conformance: each double of this package, assigned to the port it stands in for.

Never executed (everything is under ``TYPE_CHECKING``); ``mypy --strict``
checking this module is the test. A double whose signature drifts from its
Protocol -- a renamed keyword, a lost default, a sync method where the port
is async, a span() that stops being a context manager -- fails type-checking
here rather than in some consumer's test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentkit.core.ports import Compactor, Ctx, Grounder, ObserverPort, Span, TracePort
    from agentkit.core.runtime import RunContext
    from agentkit.fakes.ctx import (
        FakeCompactor,
        FakeCtx,
        FakeGrounder,
        RecordingSpan,
        RecordingTracer,
        make_test_ctx,
    )
    from agentkit.fakes.ctx.observer import RecordingObserver

    _ctx: Ctx = FakeCtx()
    _trace: TracePort = RecordingTracer()
    _span: Span = RecordingSpan("name", "internal", {})
    _observer: ObserverPort = RecordingObserver()
    _compactor: Compactor = FakeCompactor()
    _grounder: Grounder = FakeGrounder()
    _run: RunContext = make_test_ctx()
    _run_as_ctx: Ctx = make_test_ctx(trace=RecordingTracer())
