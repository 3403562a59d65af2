"""Context doubles for agentkit: FakeCtx, RecordingTracer, RecordingSpan, FakeCompactor,
FakeGrounder, and make_test_ctx.

``make_test_ctx`` builds a REAL :class:`~agentkit.core.runtime.RunContext`;
the rest record what the code under test did, for assertion. The recorder's
own error (``SpanAlreadyEnded``) is in :mod:`agentkit.fakes.ctx.errors`, and
the observer FakeCtx records with (``RecordingObserver``) in
:mod:`agentkit.fakes.ctx.observer`.
"""

from typing import TYPE_CHECKING

from agentkit.fakes.ctx.builder import make_test_ctx as make_test_ctx
from agentkit.fakes.ctx.compactor import FakeCompactor as FakeCompactor
from agentkit.fakes.ctx.fake_ctx import FakeCtx as FakeCtx
from agentkit.fakes.ctx.grounder import FakeGrounder as FakeGrounder
from agentkit.fakes.ctx.tracer import RecordingSpan as RecordingSpan
from agentkit.fakes.ctx.tracer import RecordingTracer as RecordingTracer

if TYPE_CHECKING:
    from agentkit.fakes.ctx._version import __version__ as __version__
else:
    # __version__ reads the installed metadata: paid only by code that asks for it.
    from agentkit.core._internal.lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "__version__": "agentkit.fakes.ctx._version",
        },
        globals(),
    )

__all__ = [
    "make_test_ctx",
    "FakeCompactor",
    "FakeCtx",
    "FakeGrounder",
    "RecordingSpan",
    "RecordingTracer",
]
