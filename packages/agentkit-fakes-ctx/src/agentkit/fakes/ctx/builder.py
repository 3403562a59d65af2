"""make_test_ctx: a REAL RunContext, with doubles behind only the ports a test names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from agentkit.core.invoker import Invoker
from agentkit.core.runtime import RunContext, Services

if TYPE_CHECKING:
    from agentkit.core.cancellation import CancellationToken
    from agentkit.core.invoker import ChatMiddleware, ToolMiddleware
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
    from agentkit.core.runtime import AutonomyLiteral
    from agentkit.core.types import Budget, Scope

__all__ = ["make_test_ctx"]


def _sequence(value: object, what: str) -> tuple[Any, ...]:
    # A lone middleware or meter is the common slip; tuple() of it would fail
    # with "object is not iterable", or worse, iterate a str.
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise TypeError(
            f"make_test_ctx: {what}= takes a sequence, got {type(value).__name__}; "
            f"wrap a single one in a list: {what}=[...]"
        )
    return tuple(value)


def _check_llm_wiring(
    llm: object,
    invoker: object,
    chat_middleware: tuple[Any, ...],
    tool_middleware: tuple[Any, ...],
    pricing: object,
) -> None:
    if llm is not None and invoker is not None:
        raise TypeError(
            "make_test_ctx: pass llm= OR invoker=, not both -- with both, one of them "
            "would be silently ignored (llm= is wrapped in a new Invoker; invoker= is used as is)"
        )
    if invoker is not None and not isinstance(invoker, Invoker):
        hint = " (it looks like an LLM: pass it as llm=)" if hasattr(invoker, "stream") else ""
        raise TypeError(
            f"make_test_ctx: invoker= takes an agentkit.core.invoker.Invoker, "
            f"got {type(invoker).__name__}{hint}"
        )
    if isinstance(llm, Invoker):
        raise TypeError("make_test_ctx: llm= got an Invoker; pass it as invoker= instead")
    if llm is not None and not callable(getattr(llm, "stream", None)):
        raise TypeError(
            f"make_test_ctx: llm= takes an LLMPort (an object with a stream() method), "
            f"got {type(llm).__name__}"
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
            raise TypeError(
                f"make_test_ctx: {', '.join(given)} only take effect on the Invoker "
                f"make_test_ctx builds from llm=; without llm= they would be silently "
                f"dropped -- {where}"
            )


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

    ``observer`` / ``trace`` / ``clock`` / ``checkpointer`` / ``store`` /
    ``vector`` default to None HERE, and a None is omitted when constructing
    :class:`~agentkit.core.runtime.Services`, so its NoopObserver / NoopTrace /
    SystemClock defaults still apply -- passing None through would clobber
    them and break code that calls ``ctx.trace.span(...)``.

    Beyond the documented knobs: ``clock=`` puts a ClockPort (a
    ``FakeClock``) on ``services.clock``, so a retry's backoff runs on
    virtual time; ``pricing=`` is the PriceTable the built Invoker charges by
    (without it every call costs 0.0).
    """
    chat = _sequence(chat_middleware, "chat_middleware")
    tool = _sequence(tool_middleware, "tool_middleware")
    meter_list = _sequence(meters, "meters")
    _check_llm_wiring(llm, invoker, chat, tool, pricing)
    if not isinstance(correlation_id, str):
        raise TypeError(
            f"make_test_ctx: correlation_id must be a str, got {type(correlation_id).__name__}"
        )

    if llm is not None:
        invoker = Invoker(llm, chat, tool, pricing=pricing)

    services: dict[str, Any] = {
        name: value
        for name, value in (
            ("invoker", invoker),
            ("observer", observer),
            ("trace", trace),
            ("clock", clock),
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
