"""The Ctx and TracePort contract suites, run against the real null objects AND the doubles.

NullCtx / NoopTrace are what production code gets when nobody listens;
FakeCtx / RecordingTracer are what a test hands it instead. Code written
against the port must not be able to tell them apart by behaviour -- only
by what the recorder remembers -- so each passes the same public suites
(:mod:`agentkit.core.testing.contracts`) a user runs on their own tracer.
(make_test_ctx's RunContext is a Ctx too, with either tracer.)
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agentkit.core.noop import NoopTrace, NullCtx
from agentkit.core.ports import Ctx, TracePort
from agentkit.core.testing.contracts import CtxContract, TracePortContract
from agentkit.core.types import Scope
from agentkit.fakes.ctx import FakeCtx, RecordingTracer, make_test_ctx

CTXS: dict[str, Callable[[], Ctx]] = {
    "NullCtx": NullCtx,
    "FakeCtx": FakeCtx,
    "make_test_ctx": make_test_ctx,
    "make_test_ctx-recording": lambda: make_test_ctx(trace=RecordingTracer()),
}
TRACES: dict[str, Callable[[], TracePort]] = {
    "NoopTrace": NoopTrace,
    "RecordingTracer": RecordingTracer,
    "NullCtx.trace": lambda: NullCtx().trace,
    "FakeCtx.trace": lambda: FakeCtx().trace,
}


class TestEveryCtxPassesTheCtxContract(CtxContract):
    @pytest.fixture(params=list(CTXS), ids=list(CTXS))
    def make_port(self, request: pytest.FixtureRequest) -> Callable[[], Ctx]:
        return CTXS[request.param]


class TestEveryTracerPassesTheTracePortContract(TracePortContract):
    @pytest.fixture(params=list(TRACES), ids=list(TRACES))
    def make_port(self, request: pytest.FixtureRequest) -> Callable[[], TracePort]:
        return TRACES[request.param]


@pytest.mark.parametrize("make", list(CTXS.values()), ids=list(CTXS))
def test_ctx_scope_is_the_zero_tenant_default(make: Callable[[], Ctx]) -> None:
    # Not a port rule (a Ctx may be for any tenant): the default these give.
    assert make().scope == Scope()
