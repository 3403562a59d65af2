"""The TracePort and Ctx contracts: nesting, independence, and nothing swallowed."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from agentkit.core.ports import Ctx, TracePort
from agentkit.core.testing.contracts._base import ContractTests
from agentkit.core.testing.contracts._suite import Broken, Factory, Maker, Suite, describe_got
from agentkit.core.types import Scope, TraceContext

__all__ = [
    "CTX_SUITE",
    "TRACE_SUITE",
    "CtxContract",
    "TracePortContract",
    "check_ctx",
    "check_trace_port",
]

TRACE_SUITE = Suite(
    "TracePort", ("span", "current_span_id", "add_event_to_current_span"), TracePort
)


class _Boom(Exception):
    pass


async def _no_span_open(trace: TracePort) -> None:
    current = trace.current_span_id()
    if current is not None:
        raise Broken(f"current_span_id() with no span open is {describe_got(current)}")


async def _nesting(trace: TracePort) -> None:
    with trace.span("outer"):
        outer = trace.current_span_id()
        if outer is not None and not isinstance(outer, TraceContext):
            raise Broken(f"current_span_id() in a span is {describe_got(outer)}")
        with trace.span("inner", kind="client", model="m") as inner:
            inner.set("tokens", 3)
            child = trace.current_span_id()
            if (child is None) != (outer is None):
                raise Broken(f"outer span id {outer!r} but inner span id {child!r}")
            if child is not None and outer is not None:
                if child.span_id == outer.span_id:
                    raise Broken("the inner span has the outer span's span_id")
                if child.trace_id != outer.trace_id:
                    raise Broken(
                        f"the inner span is in trace {child.trace_id!r}, its parent in "
                        f"{outer.trace_id!r}: it is not the parent's child"
                    )
        back = trace.current_span_id()
        if back != outer:
            raise Broken(f"after the inner span closed the current span is {back!r}, not {outer!r}")
    await _no_span_open(trace)


@TRACE_SUITE.check()
async def no_span_is_current_when_none_is_open(
    make: Maker[TracePort], options: Mapping[str, Any]
) -> None:
    await _no_span_open(await make())


@TRACE_SUITE.check()
async def a_span_opened_inside_another_is_its_child(
    make: Maker[TracePort], options: Mapping[str, Any]
) -> None:
    await _nesting(await make())


@TRACE_SUITE.check()
async def the_tracer_needs_no_global_provider(
    make: Maker[TracePort], options: Mapping[str, Any]
) -> None:
    first, second = await make(), await make()
    with first.span("only-in-first"):
        leaked = second.current_span_id()
    if leaked is not None:
        raise Broken(f"a span open in one tracer is current in another: {leaked!r}")


@TRACE_SUITE.check()
async def events_and_attributes_are_always_accepted(
    make: Maker[TracePort], options: Mapping[str, Any]
) -> None:
    # Any: the rule is about what an untyped implementation really returns.
    trace: Any = await make()
    results: list[object] = [trace.add_event_to_current_span("no-span", n=1)]
    with trace.span("bare") as span:
        results.append(span.set("k", {"nested": [1, 2]}))
        results.append(span.add_event("e", n=1, why="x"))
        results.append(trace.add_event_to_current_span("in-span"))
    with trace.span("full", "server", a=1, b="two") as span:
        results.append(span.add_event("bare"))
    returned = [r for r in results if r is not None]
    if returned:
        raise Broken(f"returned {describe_got(returned[0])} instead of None")


@TRACE_SUITE.check()
async def an_exception_in_a_span_propagates(
    make: Maker[TracePort], options: Mapping[str, Any]
) -> None:
    trace = await make()
    for error in (_Boom("inside"), asyncio.CancelledError()):
        try:
            with trace.span("outer"), trace.span("inner"):
                raise error
        except BaseException as exc:
            if exc is not error:
                raise Broken(f"{type(error).__name__} came out as {describe_got(exc)}") from None
        else:
            raise Broken(f"the span swallowed {type(error).__name__}")
        await _no_span_open(trace)


@TRACE_SUITE.check()
async def spans_in_concurrent_tasks_do_not_see_each_other(
    make: Maker[TracePort], options: Mapping[str, Any]
) -> None:
    trace = await make()
    seen: dict[str, object] = {}
    gate = asyncio.Event()

    async def holder() -> None:
        with trace.span("held"):
            seen["holder"] = trace.current_span_id()
            await gate.wait()

    async def looker() -> None:
        await asyncio.sleep(0)
        seen["looker"] = trace.current_span_id()
        gate.set()

    await asyncio.gather(holder(), looker())
    if seen["looker"] is not None:
        raise Broken(f"another task's span was current in this one: {seen['looker']!r}")


async def check_trace_port(factory: Factory, *, skip: Sequence[str] = ()) -> list[str]:
    """Run every TracePort check on tracers ``factory`` makes."""
    return await TRACE_SUITE.run(factory, {}, skip=skip)


class TracePortContract(ContractTests):
    """Subclass with a ``make_port`` fixture making a fresh tracer."""

    _suite = TRACE_SUITE


# ----------------------------------------------------------------------- Ctx

CTX_SUITE = Suite("Ctx", ("scope", "trace", "observer"), Ctx)


@CTX_SUITE.check()
async def scope_is_a_scope(make: Maker[Ctx], options: Mapping[str, Any]) -> None:
    ctx = await make()
    if not isinstance(ctx.scope, Scope):
        raise Broken(f"scope is {describe_got(ctx.scope)}")


@CTX_SUITE.check()
async def the_ctx_trace_nests_spans(make: Maker[Ctx], options: Mapping[str, Any]) -> None:
    ctx = await make()
    await _no_span_open(ctx.trace)
    await _nesting(ctx.trace)


@CTX_SUITE.check()
async def the_ctx_trace_is_the_same_tracer_each_time(
    make: Maker[Ctx], options: Mapping[str, Any]
) -> None:
    ctx = await make()
    first, second = ctx.trace, ctx.trace
    if first is not second:
        raise Broken(
            f"ctx.trace gave {describe_got(first)}, then another tracer {describe_got(second)}"
        )
    if ctx.observer is not ctx.observer:
        raise Broken("ctx.observer gave a different observer on each read")


@CTX_SUITE.check()
async def observer_emit_is_always_accepted(make: Maker[Ctx], options: Mapping[str, Any]) -> None:
    ctx: Any = await make()
    for result in (ctx.observer.emit("event"), ctx.observer.emit("event", attempt=1, error="x")):
        if result is not None:
            raise Broken(f"emit() returned {describe_got(result)}")


@CTX_SUITE.check()
async def spans_work_across_awaits(make: Maker[Ctx], options: Mapping[str, Any]) -> None:
    ctx = await make()

    async def step(n: int) -> int:
        with ctx.trace.span("step", n=n) as span:
            await asyncio.sleep(0)
            span.set("result", n * 2)
            return n * 2

    results = await asyncio.gather(step(1), step(2))
    if list(results) != [2, 4]:
        raise Broken(f"the steps returned {results!r}, not [2, 4]")
    await _no_span_open(ctx.trace)


async def check_ctx(factory: Factory, *, skip: Sequence[str] = ()) -> list[str]:
    """Run every Ctx check on contexts ``factory`` makes."""
    return await CTX_SUITE.run(factory, {}, skip=skip)


class CtxContract(ContractTests):
    """Subclass with a ``make_port`` fixture making a fresh Ctx."""

    _suite = CTX_SUITE
