"""make_test_ctx: a real RunContext, production defaults for whatever the test leaves unset."""

from __future__ import annotations

from typing import Any

import pytest

from agentkit.core.cancellation import CancellationToken
from agentkit.core.clock import SystemClock
from agentkit.core.invoker import Invoker
from agentkit.core.meters import UsageMeter
from agentkit.core.middleware import BudgetExceeded, RetryMiddleware, budget_middleware
from agentkit.core.noop import NoopObserver, NoopTrace
from agentkit.core.pricing import ModelPrice, PriceTable
from agentkit.core.request import ChatRequest
from agentkit.core.runtime import RunContext
from agentkit.core.types import Budget, Message, Scope, ToolCall, Usage
from agentkit.fakes.ctx import RecordingTracer, make_test_ctx
from agentkit.fakes.ctx.observer import RecordingObserver
from agentkit.fakes.io import FakeClock, FakeTool
from agentkit.fakes.llm import FakeLLM

REQUEST = ChatRequest(messages=[Message.user("hello")], model="m")


class Saver:
    def __init__(self) -> None:
        self.saved: dict[str, Any] = {}

    async def save(self, key: str, state: Any) -> None:
        self.saved[key] = state

    async def load(self, key: str) -> Any:
        return self.saved.get(key)


class Approver:
    async def ask(self, question: str, *, tool_call: ToolCall) -> bool:
        return True


def test_the_defaults_are_the_production_defaults_but_the_clock() -> None:
    ctx = make_test_ctx()
    assert type(ctx) is RunContext
    assert ctx.services.invoker is None
    assert isinstance(ctx.trace, NoopTrace)
    assert isinstance(ctx.observer, NoopObserver)
    assert type(ctx.clock) is FakeClock  # virtual time unless a test asks for the wall clock
    assert ctx.clock.now() == 0.0
    assert ctx.services.store is None
    assert ctx.services.vector is None
    assert ctx.services.checkpointer is None
    assert ctx.services.asker is None
    assert ctx.scope == Scope()
    assert ctx.budget == Budget()
    assert ctx.cancel.cancelled is False
    assert ctx.meters == ()
    assert ctx.correlation_id == "test-run"
    assert ctx.autonomy == "auto"


async def test_a_retry_without_clock_never_waits_real_seconds() -> None:
    # The default clock is virtual: a RetryMiddleware that backs off twice in a test that
    # forgot clock= advances it instead of sleeping on the wall clock.
    llm = FakeLLM("ok", fail_times=2)
    ctx = make_test_ctx(llm=llm, chat_middleware=[RetryMiddleware()])
    assert ctx.services.invoker is not None
    response = await ctx.services.invoker.chat(ctx, REQUEST)
    assert response.content == "ok"
    clock = ctx.clock
    assert isinstance(clock, FakeClock)
    assert len(clock.sleeps) == 2
    assert clock.now() == sum(clock.sleeps) > 0


def test_each_context_gets_its_own_clock() -> None:
    assert make_test_ctx().clock is not make_test_ctx().clock


def test_the_wall_clock_only_when_asked_for() -> None:
    wall = SystemClock()
    assert make_test_ctx(clock=wall).clock is wall


def test_trace_and_observer_left_none_still_work() -> None:
    # None is omitted, not passed through: Services' NoopTrace/NoopObserver apply.
    ctx = make_test_ctx(trace=None, observer=None, clock=None)
    with ctx.trace.span("s", kind="internal", a=1) as span:
        span.set("b", 2)
        span.add_event("e")
    ctx.observer.emit("event", x=1)
    assert ctx.trace.current_span_id() is None


def test_every_knob_lands_where_it_belongs() -> None:
    tracer, observer, clock = RecordingTracer(), RecordingObserver(), FakeClock(start=100.0)
    saver, approver, token, meter = Saver(), Approver(), CancellationToken(), UsageMeter()
    store, vector = object(), object()
    scope, budget = Scope("org", "dom"), Budget(max_llm_calls=3)
    ctx = make_test_ctx(
        scope=scope,
        budget=budget,
        store=store,
        vector=vector,
        checkpointer=saver,
        asker=approver,
        observer=observer,
        trace=tracer,
        cancel=token,
        meters=[meter],
        correlation_id="case-7",
        autonomy="ask",
        clock=clock,
    )
    assert ctx.trace is tracer
    assert ctx.observer is observer
    assert ctx.clock is clock
    assert ctx.services.store is store
    assert ctx.services.vector is vector
    assert ctx.services.checkpointer is saver
    assert ctx.services.asker is approver
    assert ctx.cancel is token
    assert ctx.scope is scope
    assert ctx.budget is budget
    assert ctx.meters == (meter,)
    assert ctx.correlation_id == "case-7"
    assert ctx.autonomy == "ask"


def test_a_recording_tracer_records_through_the_run_context() -> None:
    ctx = make_test_ctx(trace=RecordingTracer())
    with ctx.trace.span("run"):
        pass
    tracer = ctx.trace
    assert isinstance(tracer, RecordingTracer)
    assert [s.name for s in tracer.spans] == ["run"]


def test_an_invoker_is_used_as_is() -> None:
    invoker = Invoker(FakeLLM("hi"))
    assert make_test_ctx(invoker=invoker).invoker is invoker


async def test_llm_is_wrapped_in_an_invoker_that_charges_the_run() -> None:
    llm = FakeLLM("hi there", usage=Usage(input_tokens=10, output_tokens=5))
    meter = UsageMeter()
    ctx = make_test_ctx(llm=llm, meters=[meter])
    invoker = ctx.require_invoker()
    assert invoker.llm is llm
    assert invoker.chat_middleware == ()
    assert invoker.tool_middleware == ()
    assert invoker.pricing is None
    response = await invoker.chat(ctx, REQUEST)
    assert response.content == "hi there"
    assert ctx.ledger.calls == 1
    assert meter.usage == Usage(input_tokens=10, output_tokens=5)
    assert ctx.ledger.cost_usd == 0.0


async def test_pricing_prices_the_calls_of_the_built_invoker() -> None:
    pricing = PriceTable({"m": ModelPrice(input=1.0, output=2.0)})
    llm = FakeLLM("x", usage=Usage(input_tokens=1_000_000, output_tokens=1_000_000))
    ctx = make_test_ctx(llm=llm, pricing=pricing)
    assert ctx.require_invoker().pricing is pricing
    await ctx.require_invoker().chat(ctx, REQUEST)
    assert ctx.ledger.cost_usd == pytest.approx(3.0)


async def test_chat_middleware_and_clock_are_wired_a_retry_runs_on_virtual_time() -> None:
    clock = FakeClock()
    observer = RecordingObserver()
    llm = FakeLLM("ok", fail_times=2)
    ctx = make_test_ctx(
        llm=llm,
        chat_middleware=[RetryMiddleware(max_attempts=3, initial_backoff=1.0)],
        clock=clock,
        observer=observer,
    )
    response = await ctx.require_invoker().chat(ctx, REQUEST)
    assert response.content == "ok"
    assert clock.sleeps == [1.0, 2.0]
    assert observer.names == ["llm.retry", "llm.retry"]


async def test_budget_middleware_sees_the_budget() -> None:
    ctx = make_test_ctx(
        llm=FakeLLM("ok"), chat_middleware=[budget_middleware], budget=Budget(max_llm_calls=1)
    )
    await ctx.require_invoker().chat(ctx, REQUEST)
    with pytest.raises(BudgetExceeded, match="max_llm_calls"):
        await ctx.require_invoker().chat(ctx, REQUEST)


async def test_tool_middleware_is_wired() -> None:
    seen: list[str] = []

    async def record(ctx: RunContext, tool: Any, args: dict[str, Any], call_next: Any) -> Any:
        seen.append(tool.name)
        return await call_next(ctx, tool, args)

    ctx = make_test_ctx(llm=FakeLLM("ok"), tool_middleware=[record])
    tool = FakeTool(responder=42)
    assert await ctx.require_invoker().run_tool(ctx, tool, {"x": 1}) == 42
    assert seen == ["fake_tool"]


def test_llm_and_invoker_together_is_an_error() -> None:
    with pytest.raises(TypeError, match="pass llm= OR invoker=, not both"):
        make_test_ctx(llm=FakeLLM(), invoker=Invoker(FakeLLM()))


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"chat_middleware": [budget_middleware]}, "chat_middleware"),
        ({"tool_middleware": [lambda *a: None]}, "tool_middleware"),
        ({"pricing": PriceTable()}, "pricing"),
    ],
)
def test_middleware_or_pricing_without_llm_is_an_error(kwargs: dict[str, Any], named: str) -> None:
    with pytest.raises(TypeError, match=f"{named} only take effect.*pass llm= too"):
        make_test_ctx(**kwargs)
    with pytest.raises(TypeError, match=f"{named} only take effect.*build your Invoker with them"):
        make_test_ctx(invoker=Invoker(FakeLLM()), **kwargs)


def test_every_dropped_knob_is_named() -> None:
    async def passthrough(ctx: RunContext, tool: Any, args: dict[str, Any], call_next: Any) -> Any:
        return await call_next(ctx, tool, args)

    with pytest.raises(TypeError, match="chat_middleware, tool_middleware, pricing only"):
        make_test_ctx(
            chat_middleware=[budget_middleware], tool_middleware=[passthrough], pricing=PriceTable()
        )


def test_a_misplaced_llm_or_invoker_is_named() -> None:
    with pytest.raises(TypeError, match="looks like an LLM: pass it as llm="):
        make_test_ctx(invoker=FakeLLM())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="it is an Invoker: pass it as invoker= instead"):
        make_test_ctx(llm=Invoker(FakeLLM()))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="llm must be an LLMPort"):
        make_test_ctx(llm="gpt")  # type: ignore[arg-type]
    with pytest.raises(
        TypeError, match=r"invoker must be an agentkit\.core\.invoker\.Invoker, got str 'inv'$"
    ):
        make_test_ctx(invoker="inv")  # type: ignore[arg-type]


def test_a_single_middleware_or_meter_must_be_wrapped_in_a_sequence() -> None:
    with pytest.raises(
        TypeError,
        match=r"chat_middleware must be a sequence of .*, got RetryMiddleware .*\[\.\.\.\]",
    ):
        make_test_ctx(llm=FakeLLM(), chat_middleware=RetryMiddleware())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"meters must be a sequence of Meter, got UsageMeter"):
        make_test_ctx(meters=UsageMeter())  # type: ignore[arg-type]


def test_run_context_validation_still_applies() -> None:
    with pytest.raises(ValueError, match="autonomy must be 'auto' or 'ask'"):
        make_test_ctx(autonomy="never")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="correlation_id must be a str"):
        make_test_ctx(correlation_id=7)  # type: ignore[arg-type]


def test_each_call_builds_a_fresh_context() -> None:
    a, b = make_test_ctx(), make_test_ctx()
    assert a is not b
    assert a.ledger is not b.ledger
    assert a.cancel is not b.cancel
