"""Context doubles for agentkit: FakeCtx, RecordingTracer, RecordingSpan, FakeCompactor,
FakeGrounder, and make_test_ctx.

``make_test_ctx`` builds a REAL :class:`~agentkit.core.runtime.RunContext`;
the rest record what the code under test did, for assertion. The recorder's
own error (``SpanAlreadyEnded``) is in :mod:`agentkit.fakes.ctx.errors`, and
the observer FakeCtx records with (``RecordingObserver``) in
:mod:`agentkit.fakes.ctx.observer`.
"""

from agentkit.fakes.ctx.builder import make_test_ctx
from agentkit.fakes.ctx.compactor import FakeCompactor
from agentkit.fakes.ctx.fake_ctx import FakeCtx
from agentkit.fakes.ctx.grounder import FakeGrounder
from agentkit.fakes.ctx.tracer import RecordingSpan, RecordingTracer

__all__ = [
    "FakeCompactor",
    "FakeCtx",
    "FakeGrounder",
    "RecordingSpan",
    "RecordingTracer",
    "make_test_ctx",
]
