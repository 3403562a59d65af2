"""make_test_ctx: a REAL RunContext, with doubles behind only the ports a test names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_callable,
    check_protocol,
    check_str,
    check_type,
)

# RunContext and what it is built from (the Invoker, the middleware, meters and
# no-op defaults behind it) are imported by make_test_ctx when it is first
# called: importing agentkit.fakes.ctx for a FakeCtx or a RecordingTracer does
# not pay for them.
if TYPE_CHECKING:
    from agentkit.core.cancellation import CancellationToken
    from agentkit.core.invoker import ChatMiddleware, Invoker, ToolMiddleware
    from agentkit.core.ports import (
        Asker,
        Checkpointer,
        ClockPort,
        LLMPort,
        Meter,
        ObserverPort,
        TracePort,
    )
    from agentkit.core.pricing import PriceTable
    from agentkit.core.runtime import AutonomyLiteral, RunContext
    from agentkit.core.types import Budget, Scope

__all__ = ["make_test_ctx"]

_WHERE = "make_test_ctx"

# (keyword, members it must have, what it takes): the ports make_test_ctx puts on Services.
_PORTS = (
    ("observer", ("emit",), "an ObserverPort (an object with emit(event, **fields))"),
    (
        "trace",
        ("span", "current_span_id", "add_event_to_current_span"),
        "a TracePort (a RecordingTracer, say)",
    ),
    ("clock", ("now", "sleep"), "a ClockPort (a FakeClock, say)"),
    ("checkpointer", ("save", "load"), "a Checkpointer (async save(key, state) and load(key))"),
    ("asker", ("ask",), "an Asker (an object with async ask(question, *, tool_call))"),
)


def _sequence(value: object, what: str, item: str) -> tuple[Any, ...]:
    # A lone middleware or meter is the common slip; tuple() of it would fail
    # with "object is not iterable", or worse, iterate a str.
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise ArgumentTypeError(
            _WHERE,
            what,
            f"a sequence of {item}",
            value,
            f"wrap a single one in a list: {what}=[...]",
        )
    return tuple(value)


def _check_llm_wiring(
    llm: object,
    invoker: object,
    chat_middleware: tuple[Any, ...],
    tool_middleware: tuple[Any, ...],
    pricing: object,
) -> None:
    from agentkit.core.invoker import Invoker

    if llm is not None and invoker is not None:
        raise ArgumentTypeError(
            _WHERE,
            "invoker",
            "None when llm= is given",
            invoker,
            "pass llm= OR invoker=, not both -- with both, one of them would be silently "
            "ignored (llm= is wrapped in a new Invoker; invoker= is used as is)",
        )
    if invoker is not None and not isinstance(invoker, Invoker):
        hint = "it looks like an LLM: pass it as llm=" if hasattr(invoker, "stream") else ""
        raise ArgumentTypeError(
            _WHERE, "invoker", "an agentkit.core.invoker.Invoker", invoker, hint
        )
    if isinstance(llm, Invoker):
        raise ArgumentTypeError(
            _WHERE, "llm", "an LLMPort", llm, "it is an Invoker: pass it as invoker= instead"
        )
    if llm is not None and not callable(getattr(llm, "stream", None)):
        raise ArgumentTypeError(
            _WHERE,
            "llm",
            "an LLMPort (an object with a stream(*, messages, model, ...) method, a FakeLLM say)",
            llm,
        )
    if llm is None:
        given = [
            name
            for name, present in (
                ("chat_middleware", bool(chat_middleware)),
                ("tool_middleware", bool(tool_middleware)),
                ("pricing", pricing is not None),
            )
            if present
        ]
        if given:
            where = (
                "build your Invoker with them: Invoker(llm, chat_middleware=..., "
                "tool_middleware=..., pricing=...)"
                if invoker is not None
                else "pass llm= too, so make_test_ctx builds the Invoker they belong to"
            )
            raise ArgumentTypeError(
                _WHERE,
                given[0],
                "left unset without llm=",
                {
                    "chat_middleware": chat_middleware,
                    "tool_middleware": tool_middleware,
                    "pricing": pricing,
                }[given[0]],
                f"{', '.join(given)} only take effect on the Invoker make_test_ctx builds "
                f"from llm=; without llm= they would be silently dropped -- {where}",
            )


def _check_arguments(given: dict[str, Any]) -> None:
    """The value-typed keywords and the ports, each refused by name when wrong."""
    from agentkit.core.cancellation import CancellationToken
    from agentkit.core.types import Budget, Scope

    for name, kind, expected in (
        ("scope", Scope, "a Scope"),
        ("budget", Budget, "a Budget"),
        ("cancel", CancellationToken, "a CancellationToken"),
    ):
        if given[name] is not None:
            check_type(given[name], kind, _WHERE, name, f"{expected} or None")
    for name, members, expected in _PORTS:
        if given[name] is not None:
            check_protocol(given[name], _WHERE, name, f"{expected} or None", members)
    if given["pricing"] is not None:
        check_protocol(given["pricing"], _WHERE, "pricing", "a PriceTable or None", ("cost",))
    check_str(given["correlation_id"], _WHERE, "correlation_id")
    if given["autonomy"] not in ("auto", "ask"):
        raise ArgumentValueError(_WHERE, "autonomy", "'auto' or 'ask'", given["autonomy"])


def make_test_ctx(
    *,
    llm: LLMPort | None = None,
    invoker: Invoker | None = None,
    scope: Scope | None = None,
    budget: Budget | None = None,
    store: Any = None,
    vector: Any = None,
    checkpointer: Checkpointer | None = None,
    asker: Asker | None = None,
    observer: ObserverPort | None = None,
    trace: TracePort | None = None,
    cancel: CancellationToken | None = None,
    chat_middleware: Sequence[ChatMiddleware] = (),
    tool_middleware: Sequence[ToolMiddleware] = (),
    meters: Sequence[Meter] = (),
    correlation_id: str = "test-run",
    autonomy: AutonomyLiteral = "auto",
    clock: ClockPort | None = None,
    pricing: PriceTable | None = None,
) -> RunContext:
    """Build a RunContext for tests with the knobs the call site cares about.

    The context is the real :class:`~agentkit.core.runtime.RunContext`, so the
    code under test sees exactly the object it sees in production; only the
    ports behind it are doubles. Everything left unset gets the production
    default.

    Two ways to wire the LLM seam: pass ``invoker=`` (a fully built
    :class:`~agentkit.core.invoker.Invoker`) OR pass ``llm=`` and it is wrapped
    as ``Invoker(llm, chat_middleware, tool_middleware, pricing=pricing)``.
    Both at once is a TypeError, and so is ``chat_middleware=`` /
    ``tool_middleware=`` / ``pricing=`` without ``llm=``: there is no Invoker
    for them to go into, and dropping them silently would leave a test of a
    retry or a budget passing without the middleware ever running. Leaving
    both unset gives ``services.invoker = None``, which is fine for the
    capability tests (RequestBuilder, Compactor) that never call a model.

    ``scope`` defaults to the zero-tenant ``Scope()``; pass
    ``Scope(org_id, domain_id)`` for tenant-isolation tests. ``asker`` wires
    the human-in-the-loop transport: with one, a gated tool call parks and is
    awaited in place; without, it takes the suspend-and-resume path.

    ``observer`` / ``trace`` / ``checkpointer`` / ``store`` / ``vector``
    default to None HERE, and a None is omitted when constructing
    :class:`~agentkit.core.runtime.Services`, so its NoopObserver / NoopTrace
    defaults still apply -- passing None through would clobber them and
    break code that calls ``ctx.trace.span(...)``.

    ``clock`` is the one port that does NOT get the production default: left
    unset, it is a fresh :class:`~agentkit.core.clock.FakeClock` at t=0, not
    the SystemClock, so a retry's backoff or a timeout in code under test
    never waits real seconds because a test forgot ``clock=``. Pass your own
    ``FakeClock`` to assert on its ``sleeps`` (or read
    ``ctx.services.clock``), and ``clock=SystemClock()`` for the rare test
    that means to wait on the wall clock.

    ``pricing=`` is the PriceTable the built Invoker charges by (without it
    every call costs 0.0).
    """
    _check_arguments(locals())
    chat = _sequence(chat_middleware, "chat_middleware", "middleware callables")
    tool = _sequence(tool_middleware, "tool_middleware", "middleware callables")
    meter_list = _sequence(meters, "meters", "Meter")
    for name, items in (("chat_middleware", chat), ("tool_middleware", tool)):
        for index, middleware in enumerate(items):
            check_callable(middleware, _WHERE, f"{name}[{index}]", "a middleware callable")
    for index, meter in enumerate(meter_list):
        check_protocol(
            meter,
            _WHERE,
            f"meters[{index}]",
            "a Meter (an object with record(usage, cost_usd, *, model))",
            ("record",),
        )
    _check_llm_wiring(llm, invoker, chat, tool, pricing)
    from agentkit.core.clock import FakeClock
    from agentkit.core.invoker import Invoker
    from agentkit.core.runtime import RunContext, Services

    if llm is not None:
        invoker = Invoker(llm, chat, tool, pricing=pricing)

    services: dict[str, Any] = {
        name: value
        for name, value in (
            ("invoker", invoker),
            ("observer", observer),
            ("trace", trace),
            ("clock", FakeClock() if clock is None else clock),
            ("store", store),
            ("vector", vector),
            ("checkpointer", checkpointer),
            ("asker", asker),
        )
        if value is not None
    }
    run: dict[str, Any] = {
        name: value
        for name, value in (("scope", scope), ("budget", budget), ("cancel", cancel))
        if value is not None
    }
    return RunContext(
        services=Services(**services),
        meters=meter_list,
        correlation_id=correlation_id,
        autonomy=autonomy,
        **run,
    )
