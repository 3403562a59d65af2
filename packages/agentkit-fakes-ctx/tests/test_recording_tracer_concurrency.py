"""RecordingTracer under concurrent asyncio tasks: each task has its own open span.

A tracer that kept one stack for everyone would make the second task's outer
span a child of the first task's, and nest each inner span under whichever
span was pushed last. These tests open spans in two tasks with both open at
once (a barrier makes the overlap certain, not likely), so that tracer fails.
"""

from __future__ import annotations

import asyncio
import contextvars

from agentkit.fakes.ctx import RecordingSpan, RecordingTracer

TIMEOUT = 5.0


async def test_two_tasks_tracing_at_once_do_not_cross_parent() -> None:
    tracer = RecordingTracer()
    both_outer_open = asyncio.Barrier(2)
    both_inner_open = asyncio.Barrier(2)
    seen: dict[str, tuple[RecordingSpan, RecordingSpan]] = {}

    async def work(who: str) -> None:
        with tracer.span(f"outer-{who}") as outer:
            await both_outer_open.wait()
            with tracer.span(f"inner-{who}") as inner:
                await both_inner_open.wait()
                tracer.add_event_to_current_span(f"event-{who}")
                assert tracer.current_span() is inner
            assert tracer.current_span() is outer
        seen[who] = (outer, inner)

    await asyncio.wait_for(asyncio.gather(work("a"), work("b")), TIMEOUT)

    for who in ("a", "b"):
        outer, inner = seen[who]
        assert outer.parent_id is None
        assert inner.parent_id == outer.span_id
        assert inner.trace_id == outer.trace_id
        assert inner.events == [(f"event-{who}", {})]
        assert outer.events == []
    assert seen["a"][0].trace_id != seen["b"][0].trace_id
    assert tracer.orphan_events == []
    assert tracer.current_span_id() is None
    # Both outers were started before either inner: start order interleaves across tasks.
    assert [s.name for s in tracer.spans][:2] == ["outer-a", "outer-b"]


async def test_a_task_created_inside_a_span_parents_its_spans_on_it() -> None:
    tracer = RecordingTracer()

    async def child() -> RecordingSpan:
        with tracer.span("child") as span:
            await asyncio.sleep(0)
        return span

    with tracer.span("parent") as parent:
        task = asyncio.create_task(child())
    # The parent block has closed; the task still carries the context it was created in.
    child_span = await asyncio.wait_for(task, TIMEOUT)
    assert child_span.parent_id == parent.span_id
    assert child_span.trace_id == parent.trace_id


async def test_a_task_does_not_leak_its_open_span_to_the_caller() -> None:
    tracer = RecordingTracer()
    opened = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        with tracer.span("held"):
            opened.set()
            await release.wait()

    task = asyncio.create_task(holder())
    await asyncio.wait_for(opened.wait(), TIMEOUT)
    assert tracer.current_span_id() is None  # "held" is open, but in the other task
    with tracer.span("mine") as mine:
        pass
    assert mine.parent_id is None
    release.set()
    await asyncio.wait_for(task, TIMEOUT)


def test_exiting_in_another_context_than_entered_still_closes_the_span() -> None:
    tracer = RecordingTracer()
    with tracer.span("parent") as parent:
        scope = tracer.span("child")
        other = contextvars.copy_context()
        child = other.run(scope.__enter__)
        assert tracer.current_span() is parent  # entered over there, not here
        scope.__exit__(None, None, None)  # exited here: the token belongs to the other context
        assert child.ended
        assert tracer.current_span() is parent
    assert tracer.current_span() is None
    assert child.parent_id == parent.span_id
