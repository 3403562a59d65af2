"""FakeCtx: a Ctx that records its spans and observations."""

from __future__ import annotations

import pytest

from agentkit.core.types import Scope
from agentkit.fakes.ctx import FakeCtx, RecordingTracer
from agentkit.fakes.ctx.observer import RecordingObserver


def test_defaults() -> None:
    ctx = FakeCtx()
    assert ctx.scope == Scope()
    assert isinstance(ctx.trace, RecordingTracer)
    assert isinstance(ctx.observer, RecordingObserver)
    assert ctx.spans == []
    assert ctx.observations == []


def test_scope_is_passed_through() -> None:
    scope = Scope(org_id="org", domain_id="dom")
    assert FakeCtx(scope=scope).scope is scope


def test_scope_must_be_a_scope() -> None:
    with pytest.raises(TypeError, match=r"scope must be an agentkit\.core\.types\.Scope"):
        FakeCtx(scope="org")  # type: ignore[arg-type]


def test_each_ctx_has_its_own_tracer_and_observer() -> None:
    a, b = FakeCtx(), FakeCtx()
    with a.trace.span("only-a"):
        a.observer.emit("only-a")
    assert b.spans == []
    assert b.observations == []


def test_spans_mirror_the_tracer_as_name_kind_attrs_tuples() -> None:
    ctx = FakeCtx()
    with ctx.trace.span("build", kind="internal", version="v1") as span:
        span.set("grounded", True)
        with ctx.trace.span("ground", kind="client"):
            pass
    assert ctx.spans == [
        ("build", "internal", {"version": "v1", "grounded": True}),
        ("ground", "client", {}),
    ]
    assert [s.name for s in ctx.trace.spans] == [name for name, _k, _a in ctx.spans]


def test_spans_is_a_snapshot_that_cannot_rewrite_the_record() -> None:
    ctx = FakeCtx()
    with ctx.trace.span("s", x=1):
        pass
    ctx.spans[0][2]["x"] = 99
    ctx.spans.clear()
    assert ctx.spans == [("s", "internal", {"x": 1})]


def test_the_observer_records_event_and_fields_on_the_ctx() -> None:
    ctx = FakeCtx()
    fields = {"attempt": 1}
    ctx.observer.emit("retry", **fields)
    ctx.observer.emit("stopped")
    fields["attempt"] = 2
    assert ctx.observations == [("retry", {"attempt": 1}), ("stopped", {})]
    assert ctx.observer.names == ["retry", "stopped"]
    assert ctx.observations is ctx.observer.observations


def test_an_event_name_must_be_a_str() -> None:
    with pytest.raises(TypeError, match="event name must be a str"):
        FakeCtx().observer.emit(3)  # type: ignore[arg-type]


def test_the_ports_are_read_only() -> None:
    ctx = FakeCtx()
    with pytest.raises(AttributeError):
        ctx.trace = RecordingTracer()  # type: ignore[misc]


def test_repr_counts_what_was_recorded() -> None:
    ctx = FakeCtx()
    with ctx.trace.span("s"):
        ctx.observer.emit("e")
    assert repr(ctx) == "FakeCtx(scope=Scope(org_id=None, domain_id=None), spans=1, observations=1)"
