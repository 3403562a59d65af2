"""Context doubles for agentkit: FakeCtx, RecordingTracer, RecordingSpan, FakeCompactor,
FakeGrounder, and make_test_ctx.

``make_test_ctx`` builds a REAL :class:`~agentkit.core.runtime.RunContext`;
the rest record what the code under test did, for assertion. The recorder's
own error (``SpanAlreadyEnded``) is in :mod:`agentkit.fakes.ctx.errors`, and
the observer FakeCtx records with (``RecordingObserver``) in
:mod:`agentkit.fakes.ctx.observer`.
"""

from typing import TYPE_CHECKING

from agentkit.core.lazy import lazy_exports
from agentkit.fakes.ctx.builder import make_test_ctx
from agentkit.fakes.ctx.compactor import FakeCompactor
from agentkit.fakes.ctx.fake_ctx import FakeCtx
from agentkit.fakes.ctx.grounder import FakeGrounder
from agentkit.fakes.ctx.tracer import RecordingSpan, RecordingTracer

if TYPE_CHECKING:
    from agentkit.fakes.ctx._version import __version__ as __version__
else:
    # __version__ reads the installed metadata: paid only by code that asks for it.
    __getattr__, __dir__ = lazy_exports(
        __name__, {"__version__": "agentkit.fakes.ctx._version"}, globals()
    )

__all__ = [
    "FakeCompactor",
    "FakeCtx",
    "FakeGrounder",
    "RecordingSpan",
    "RecordingTracer",
    "make_test_ctx",
]
