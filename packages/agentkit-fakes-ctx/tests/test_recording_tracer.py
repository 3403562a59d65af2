"""RecordingTracer / RecordingSpan: what a span records, nesting, ids, errors, export."""

from __future__ import annotations

import asyncio

import pytest

from agentkit.core.types import TraceContext
from agentkit.fakes.ctx import RecordingSpan, RecordingTracer
from agentkit.fakes.ctx.errors import SpanAlreadyEnded


def test_a_span_records_name_kind_and_the_attrs_it_was_opened_with() -> None:
    tracer = RecordingTracer()
    with tracer.span("llm.call", kind="client", model="m", attempt=1) as span:
        assert isinstance(span, RecordingSpan)
        assert (span.name, span.kind, span.attrs) == (
            "llm.call",
            "client",
            {"model": "m", "attempt": 1},
        )
    assert tracer.spans == [span]


def test_kind_defaults_to_internal() -> None:
    tracer = RecordingTracer()
    with tracer.span("step") as span:
        pass
    assert span.kind == "internal"


def test_set_mutates_attrs_and_add_event_appends_name_and_fields() -> None:
    tracer = RecordingTracer()
    with tracer.span("s", a=1) as span:
        span.set("a", 2)
        span.set("b", "x")
        span.add_event("retry", attempt=1, delay=0.5)
        span.add_event("done")
    assert span.attrs == {"a": 2, "b": "x"}
    assert span.events == [("retry", {"attempt": 1, "delay": 0.5}), ("done", {})]
    assert span.event_names == ["retry", "done"]


def test_a_directly_constructed_span_copies_its_attrs_and_has_no_ids() -> None:
    given = {"k": 1}
    span = RecordingSpan("s", "internal", given)
    span.set("k", 2)
    assert given == {"k": 1}  # the caller's dict is not written through
    assert (span.trace_id, span.span_id, span.parent_id, span.ended) == ("", "", None, False)


def test_spans_nest_and_record_their_parent() -> None:
    tracer = RecordingTracer()
    with tracer.span("run") as run:
        with tracer.span("step") as step, tracer.span("tool") as tool:
            pass
        with tracer.span("step") as step2:
            pass
    assert [s.name for s in tracer.spans] == ["run", "step", "tool", "step"]
    assert run.parent_id is None
    assert step.parent_id == run.span_id
    assert tool.parent_id == step.span_id
    assert step2.parent_id == run.span_id
    assert {s.trace_id for s in tracer.spans} == {run.trace_id}
    assert tracer.children(run) == [step, step2]
    assert tracer.named("step") == [step, step2]


def test_each_root_span_starts_a_new_trace() -> None:
    tracer = RecordingTracer()
    with tracer.span("a") as a:
        pass
    with tracer.span("b") as b:
        pass
    assert a.trace_id != b.trace_id
    assert b.parent_id is None


def test_ids_are_deterministic_and_w3c_shaped() -> None:
    def run() -> list[tuple[str, str, str | None]]:
        tracer = RecordingTracer()
        with tracer.span("a"), tracer.span("b"):
            pass
        with tracer.span("c"):
            pass
        return [(s.trace_id, s.span_id, s.parent_id) for s in tracer.spans]

    first = run()
    assert first == run()  # a fresh tracer gives the same ids for the same run
    for trace_id, span_id, _parent in first:
        assert len(trace_id) == 32
        assert int(trace_id, 16) != 0
        assert len(span_id) == 16
        assert int(span_id, 16) != 0
        assert trace_id == trace_id.lower()
    assert len({span_id for _t, span_id, _p in first}) == 3


def test_current_span_id_is_the_innermost_open_span() -> None:
    tracer = RecordingTracer()
    assert tracer.current_span_id() is None
    with tracer.span("outer") as outer:
        assert tracer.current_span_id() == TraceContext(outer.trace_id, outer.span_id)
        with tracer.span("inner") as inner:
            assert tracer.current_span_id() == inner.context
            assert tracer.current_span() is inner
        assert tracer.current_span_id() == outer.context
    assert tracer.current_span_id() is None
    assert tracer.current_span() is None


def test_add_event_to_current_span_lands_on_the_innermost_open_span() -> None:
    tracer = RecordingTracer()
    with tracer.span("outer") as outer:
        tracer.add_event_to_current_span("on-outer", n=1)
        with tracer.span("inner") as inner:
            tracer.add_event_to_current_span("on-inner", n=2)
    assert outer.events == [("on-outer", {"n": 1})]
    assert inner.events == [("on-inner", {"n": 2})]
    assert tracer.orphan_events == []


def test_add_event_with_no_open_span_is_kept_as_an_orphan() -> None:
    tracer = RecordingTracer()
    tracer.add_event_to_current_span("lost", why="no span")
    with tracer.span("s") as span:
        pass
    tracer.add_event_to_current_span("after")
    assert tracer.orphan_events == [("lost", {"why": "no span"}), ("after", {})]
    assert span.events == []


def test_a_body_exception_is_recorded_and_re_raised() -> None:
    tracer = RecordingTracer()
    with pytest.raises(KeyError, match="boom"), tracer.span("outer"), tracer.span("inner"):
        raise KeyError("boom")
    outer, inner = tracer.spans
    assert inner.error_type is KeyError
    assert isinstance(inner.error, KeyError)
    assert outer.error is inner.error  # it passed through both blocks
    assert outer.ended
    assert inner.ended
    assert tracer.current_span_id() is None  # the stack unwound


def test_a_base_exception_is_recorded_and_re_raised_too() -> None:
    tracer = RecordingTracer()
    with pytest.raises(asyncio.CancelledError), tracer.span("s"):
        raise asyncio.CancelledError
    (span,) = tracer.spans
    assert span.error_type is asyncio.CancelledError


def test_a_clean_exit_records_no_error() -> None:
    tracer = RecordingTracer()
    with tracer.span("s") as span:
        ended_inside = span.ended
    assert ended_inside is False
    assert span.ended
    assert span.error is None
    assert span.error_type is None


def test_writing_to_an_ended_span_is_refused_loudly() -> None:
    tracer = RecordingTracer()
    with tracer.span("s") as span:
        span.set("ok", 1)
    with pytest.raises(SpanAlreadyEnded, match=r"set\('late', \.\.\.\) on span 's'"):
        span.set("late", 2)
    with pytest.raises(SpanAlreadyEnded, match="add_event"):
        span.add_event("late")
    assert span.attrs == {"ok": 1}
    assert span.events == []


def test_the_exporter_gets_each_span_as_it_closes_inner_first() -> None:
    exported: list[tuple[str, bool]] = []
    tracer = RecordingTracer(exporter=lambda span: exported.append((span.name, span.ended)))
    with tracer.span("outer"):
        with tracer.span("inner"):
            assert exported == []
        assert exported == [("inner", True)]
    assert exported == [("inner", True), ("outer", True)]


def test_the_exporter_sees_the_error_of_a_failed_span() -> None:
    errors: list[type[BaseException] | None] = []
    tracer = RecordingTracer(exporter=lambda span: errors.append(span.error_type))
    with pytest.raises(ValueError, match="bad"), tracer.span("s"):
        raise ValueError("bad")
    assert errors == [ValueError]


def test_an_exporter_failure_propagates_after_the_span_is_closed() -> None:
    def exporter(span: RecordingSpan) -> None:
        raise RuntimeError("exporter down")

    tracer = RecordingTracer(exporter=exporter)
    with pytest.raises(RuntimeError, match="exporter down"), tracer.span("s"):
        pass
    assert tracer.spans[0].ended
    assert tracer.current_span_id() is None


def test_a_span_context_manager_is_single_use() -> None:
    tracer = RecordingTracer()
    scope = tracer.span("s")
    with scope:
        pass
    with pytest.raises(RuntimeError, match="already entered"), scope:
        pass
    assert len(tracer.spans) == 1


def test_a_span_is_started_on_enter_not_on_the_span_call() -> None:
    tracer = RecordingTracer()
    first = tracer.span("first")
    with tracer.span("second"):
        pass
    with first:
        pass
    assert [s.name for s in tracer.spans] == ["second", "first"]


def test_two_tracers_do_not_see_each_others_spans() -> None:
    a, b = RecordingTracer(), RecordingTracer()
    with a.span("a-outer") as a_outer, b.span("b-outer") as b_outer:
        with a.span("a-inner") as a_inner:
            assert b.current_span() is b_outer
        assert a.current_span() is a_outer
    assert a_inner.parent_id == a_outer.span_id
    assert [s.name for s in a.spans] == ["a-outer", "a-inner"]
    assert [s.name for s in b.spans] == ["b-outer"]


def test_a_span_unpacks_and_indexes_as_name_kind_attrs() -> None:
    tracer = RecordingTracer()
    with tracer.span("s", kind="client", x=1) as span:
        pass
    name, kind, attrs = span
    assert (name, kind, attrs) == ("s", "client", {"x": 1})
    assert (span[0], span[1], span[2], span[-1]) == ("s", "client", {"x": 1}, {"x": 1})
    assert len(span) == 3
    with pytest.raises(IndexError):
        span[3]
    with pytest.raises(TypeError, match="with an int"):
        span["name"]  # type: ignore[call-overload]


def test_bad_input_is_a_type_error() -> None:
    tracer = RecordingTracer()
    with pytest.raises(TypeError, match="span name must be a str"):
        tracer.span(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="span kind must be a str"):
        tracer.span("s", kind=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="event name must be a str"):
        tracer.add_event_to_current_span(b"e")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="exporter must be a callable"):
        RecordingTracer(exporter="print")  # type: ignore[arg-type]
    with tracer.span("s") as span:
        with pytest.raises(TypeError, match="attribute key must be a str"):
            span.set(1, "v")  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="event name must be a str"):
            span.add_event(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="attrs must be a mapping"):
        RecordingSpan("s", "internal", [("k", 1)])  # type: ignore[arg-type]
