"""One behavioural contract for Ctx and TracePort, run against the real null objects AND the doubles.

NullCtx / NoopTrace are what production code gets when nobody listens;
FakeCtx / RecordingTracer are what a test hands it instead. Code written
against the port must not be able to tell them apart by behaviour -- only
by what the recorder remembers -- so every check here runs against all of
them. (make_test_ctx's RunContext is a Ctx too, with either tracer.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from agentkit.core.noop import NoopTrace, NullCtx
from agentkit.core.ports import Ctx, TracePort
from agentkit.core.types import Scope, TraceContext
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
}


@pytest.fixture(params=list(CTXS), ids=list(CTXS))
def ctx(request: pytest.FixtureRequest) -> Ctx:
    return CTXS[request.param]()


@pytest.fixture(params=list(TRACES), ids=list(TRACES))
def trace(request: pytest.FixtureRequest) -> TracePort:
    return TRACES[request.param]()


class Boom(Exception):
    pass


# --- Ctx ---------------------------------------------------------------------


def test_ctx_scope_is_the_zero_tenant_default(ctx: Ctx) -> None:
    assert ctx.scope == Scope()


def test_ctx_span_context_manager_works_and_nests(ctx: Ctx) -> None:
    with ctx.trace.span("outer") as outer:
        with ctx.trace.span("inner", kind="client", model="m") as inner:
            inner.set("tokens", 3)
        outer.set("done", True)


def test_ctx_set_and_add_event_are_accepted(ctx: Ctx) -> None:
    with ctx.trace.span("s", a=1) as span:
        assert span.set("k", {"nested": [1, 2]}) is None  # type: ignore[func-returns-value]
        assert span.add_event("e", n=1, why="x") is None  # type: ignore[func-returns-value]
        assert span.add_event("bare") is None  # type: ignore[func-returns-value]


def test_ctx_an_exception_in_a_span_body_propagates(ctx: Ctx) -> None:
    with pytest.raises(Boom), ctx.trace.span("outer"), ctx.trace.span("inner"):
        raise Boom
    # and the trace is still usable afterwards, with nothing left open
    assert ctx.trace.current_span_id() is None
    with ctx.trace.span("after") as span:
        span.set("ok", True)


def test_ctx_a_base_exception_in_a_span_body_propagates(ctx: Ctx) -> None:
    with pytest.raises(asyncio.CancelledError), ctx.trace.span("s"):
        raise asyncio.CancelledError


def test_ctx_observer_emit_is_accepted(ctx: Ctx) -> None:
    assert ctx.observer.emit("event") is None  # type: ignore[func-returns-value]
    assert ctx.observer.emit("event", attempt=1, error="x") is None  # type: ignore[func-returns-value]


async def test_ctx_spans_work_across_awaits(ctx: Ctx) -> None:
    async def step(n: int) -> int:
        with ctx.trace.span("step", n=n) as span:
            await asyncio.sleep(0)
            span.set("result", n * 2)
            return n * 2

    results = await asyncio.wait_for(asyncio.gather(step(1), step(2)), 5)
    assert list(results) == [2, 4]


# --- TracePort ---------------------------------------------------------------


def test_trace_current_span_id_is_none_with_nothing_open(trace: TracePort) -> None:
    assert trace.current_span_id() is None


def test_trace_current_span_id_is_none_or_the_open_span(trace: TracePort) -> None:
    # A NoopTrace reports no span; a recording one reports a distinct id per open span.
    # Either way, leaving a span restores what was current before it.
    with trace.span("outer"):
        outer = trace.current_span_id()
        assert outer is None or isinstance(outer, TraceContext)
        with trace.span("inner"):
            inner = trace.current_span_id()
            assert (inner is None) == (outer is None)
            if inner is not None and outer is not None:
                assert inner.span_id != outer.span_id
                assert inner.trace_id == outer.trace_id
        assert trace.current_span_id() == outer
    assert trace.current_span_id() is None


def test_trace_add_event_to_current_span_is_always_safe(trace: TracePort) -> None:
    assert trace.add_event_to_current_span("no-span", n=1) is None  # type: ignore[func-returns-value]
    with trace.span("s"):
        assert trace.add_event_to_current_span("in-span") is None  # type: ignore[func-returns-value]


def test_trace_kind_and_attrs_are_optional(trace: TracePort) -> None:
    with trace.span("bare") as span:
        span.set("k", "v")
    with trace.span("full", "server", a=1, b="two") as span:
        span.add_event("e")


def test_trace_an_exception_in_a_span_body_propagates(trace: TracePort) -> None:
    with pytest.raises(Boom, match="inside"), trace.span("s"):
        raise Boom("inside")
    assert trace.current_span_id() is None


def test_trace_a_span_does_not_swallow_the_value_of_its_body(trace: TracePort) -> None:
    def compute() -> int:
        with trace.span("compute"):
            return 41 + 1

    assert compute() == 42
