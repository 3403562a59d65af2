from __future__ import annotations

import asyncio

import pytest

from agentkit.core.cancellation import CancellationToken, RunCancelled
from agentkit.core.clock import SystemClock
from agentkit.core.meters import UsageMeter
from agentkit.core.middleware import BudgetExceeded
from agentkit.core.noop import NoopObserver, NoopTrace, NullCtx
from agentkit.core.runtime import RunContext, Services
from agentkit.core.types import Budget, Scope, Usage


def test_services_default_to_working_null_objects() -> None:
    services = Services()
    assert isinstance(services.trace, NoopTrace)
    assert isinstance(services.observer, NoopObserver)
    assert isinstance(services.clock, SystemClock)
    assert services.invoker is None
    # Each Services gets its own objects, not one shared default.
    assert Services().trace is not services.trace


def test_run_context_exposes_its_services() -> None:
    ctx = RunContext()
    with ctx.trace.span("s", kind="internal", a=1) as span:
        span.set("k", "v")
        span.add_event("e", x=1)
    ctx.observer.emit("event", x=1)
    assert ctx.trace.current_span_id() is None
    assert ctx.invoker is None
    assert ctx.scope == Scope()


def test_require_invoker_explains_what_is_missing() -> None:
    with pytest.raises(RuntimeError, match="no invoker"):
        RunContext().require_invoker()


def test_autonomy_is_validated() -> None:
    with pytest.raises(ValueError, match="autonomy"):
        RunContext(autonomy="sometimes")  # type: ignore[arg-type]


def test_charge_records_on_ledger_and_every_meter() -> None:
    watcher = UsageMeter()
    ctx = RunContext(meters=[watcher])
    ctx.charge(Usage(input_tokens=3, output_tokens=4), 0.5, model="m")
    ctx.charge(Usage(input_tokens=1), 0.25, model="n")
    for meter in (ctx.ledger, watcher):
        assert meter.calls == 2
        assert meter.usage == Usage(input_tokens=4, output_tokens=4)
        assert meter.cost_usd == pytest.approx(0.75)
        assert meter.by_model == {"m": Usage(input_tokens=3, output_tokens=4), "n": Usage(1)}


def test_meter_refuses_negative_cost() -> None:
    with pytest.raises(ValueError, match="cost_usd"):
        UsageMeter().record(Usage(), -1.0, model="m")


@pytest.mark.parametrize(
    ("budget", "axis"),
    [
        (Budget(max_llm_calls=2), "max_llm_calls"),
        (Budget(max_total_tokens=20), "max_total_tokens"),
        (Budget(max_cost_usd=1.0), "max_cost_usd"),
    ],
)
def test_check_budget_trips_at_the_limit(budget: Budget, axis: str) -> None:
    ctx = RunContext(budget=budget)
    ctx.charge(Usage(input_tokens=5, output_tokens=5), 0.5, model="m")
    ctx.check_budget()  # under every limit
    ctx.charge(Usage(input_tokens=5, output_tokens=5), 0.5, model="m")
    with pytest.raises(BudgetExceeded) as info:
        ctx.check_budget()
    assert info.value.axis == axis
    assert info.value.spent >= info.value.limit


def test_no_budget_never_trips() -> None:
    ctx = RunContext()
    ctx.charge(Usage(input_tokens=10**9), 10**6, model="m")
    ctx.check_budget()


async def test_cancellation_token_flags_raises_and_wakes_waiters() -> None:
    token = CancellationToken()
    cancelled_at_start = token.cancelled
    assert not cancelled_at_start
    token.raise_if_cancelled()
    waiter = asyncio.ensure_future(token.wait())
    await asyncio.sleep(0)
    assert not waiter.done()
    token.cancel("user pressed stop")
    token.cancel("second reason is ignored")
    await asyncio.wait_for(waiter, timeout=5)
    assert token.cancelled
    assert token.reason == "user pressed stop"
    with pytest.raises(RunCancelled, match="user pressed stop"):
        token.raise_if_cancelled()


def test_null_ctx_absorbs_everything() -> None:
    ctx = NullCtx()
    with ctx.trace.span("outer") as span, ctx.trace.span("inner"):
        span.set("a", 1)
        ctx.trace.add_event_to_current_span("e")
    assert ctx.trace.current_span_id() is None
    ctx.observer.emit("x")
    assert ctx.scope == Scope()


def test_noop_span_does_not_swallow_exceptions() -> None:
    with pytest.raises(KeyError), NoopTrace().span("s"):
        raise KeyError("boom")


async def test_system_clock_is_real_time() -> None:
    clock = SystemClock()
    before = clock.now()
    await clock.sleep(0.0)
    assert clock.now() >= before
    with pytest.raises(ValueError, match="negative"):
        await clock.sleep(-1)
