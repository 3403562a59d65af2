"""RunContext and Services: what one agent run carries.

The context is real in tests too (``make_test_ctx`` builds this class), so
that code under test sees exactly the object it sees in production and only
the ports behind it are doubles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from agentkit.core._internal.arguments import (
    ArgumentValueError,
    check_protocol,
    check_str,
    check_type,
    check_values,
)
from agentkit.core.cancellation import CancellationToken, RunCancelled
from agentkit.core.clock import SystemClock
from agentkit.core.invoker import Invoker
from agentkit.core.meters import UsageMeter
from agentkit.core.middleware import BudgetExceeded
from agentkit.core.noop import NoopObserver, NoopSpan, NoopTrace, NullCtx
from agentkit.core.types import Budget, Scope, Usage

if TYPE_CHECKING:
    from agentkit.core.ports import Asker, Checkpointer, ClockPort, Meter, ObserverPort, TracePort

__all__ = [
    "AutonomyLiteral",
    "CancellationToken",
    "Invoker",
    "NoopObserver",
    "NoopSpan",
    "NoopTrace",
    "NullCtx",
    "RunCancelled",
    "RunContext",
    "Services",
    "SystemClock",
]

AutonomyLiteral = Literal["auto", "ask"]
"""``auto`` runs every tool; ``ask`` gates tools with ``requires_approval`` on a human."""


def _noop_trace() -> TracePort:
    return NoopTrace()


def _noop_observer() -> ObserverPort:
    return NoopObserver()


def _system_clock() -> ClockPort:
    return SystemClock()


@dataclass
class Services:
    """The ports a run uses. Observer, trace and clock default to working objects."""

    invoker: Invoker | None = None
    observer: ObserverPort = field(default_factory=_noop_observer)
    trace: TracePort = field(default_factory=_noop_trace)
    clock: ClockPort = field(default_factory=_system_clock)
    store: Any = None
    vector: Any = None
    checkpointer: Checkpointer | None = None
    asker: Asker | None = None

    def __post_init__(self) -> None:
        if self.invoker is not None:
            check_type(
                self.invoker,
                Invoker,
                "Services",
                "invoker",
                "an agentkit.core.invoker.Invoker or None",
            )
        for name, members, expected in _SERVICE_PORTS:
            value = getattr(self, name)
            if value is not None or name in ("observer", "trace", "clock"):
                check_protocol(value, "Services", name, expected, members)


# (field, members it must have, what it takes): the ports a Services holds.
_SERVICE_PORTS = (
    ("observer", ("emit",), "an ObserverPort (an object with emit(event, **fields))"),
    ("trace", ("span", "current_span_id", "add_event_to_current_span"), "a TracePort"),
    ("clock", ("now", "sleep"), "a ClockPort (an object with now() and async sleep(seconds))"),
    ("checkpointer", ("save", "load"), "a Checkpointer (async save and load) or None"),
    ("asker", ("ask",), "an Asker (an object with async ask(question, *, tool_call)) or None"),
)


@dataclass
class RunContext:
    """One run: its services, tenant, budget, cancellation and meters.

    ``ledger`` adds up every call charged to the run and is what the budget
    is checked against; ``meters`` are told of the same charges.
    """

    services: Services = field(default_factory=Services)
    scope: Scope = field(default_factory=Scope)
    budget: Budget = field(default_factory=Budget)
    cancel: CancellationToken = field(default_factory=CancellationToken)
    meters: Sequence[Meter] = ()
    correlation_id: str = "run"
    autonomy: AutonomyLiteral = "auto"
    ledger: UsageMeter = field(default_factory=UsageMeter)

    def __post_init__(self) -> None:
        where = "RunContext"
        check_type(self.services, Services, where, "services", "a Services")
        check_type(self.scope, Scope, where, "scope", "a Scope")
        check_type(self.budget, Budget, where, "budget", "a Budget")
        check_type(self.cancel, CancellationToken, where, "cancel", "a CancellationToken")
        meters = check_values(self.meters, where, "meters", "a sequence of Meter")
        for index, meter in enumerate(meters):
            check_protocol(
                meter,
                where,
                f"meters[{index}]",
                "a Meter (an object with record(usage, cost_usd, *, model))",
                ("record",),
            )
        self.meters = meters
        check_str(self.correlation_id, where, "correlation_id")
        if self.autonomy not in ("auto", "ask"):
            raise ArgumentValueError(where, "autonomy", "'auto' or 'ask'", self.autonomy)
        check_type(self.ledger, UsageMeter, where, "ledger", "a UsageMeter")

    @property
    def trace(self) -> TracePort:
        return self.services.trace

    @property
    def observer(self) -> ObserverPort:
        return self.services.observer

    @property
    def clock(self) -> ClockPort:
        return self.services.clock

    @property
    def invoker(self) -> Invoker | None:
        return self.services.invoker

    def require_invoker(self) -> Invoker:
        """The invoker, or a clear error for a context built without one."""
        if self.services.invoker is None:
            raise RuntimeError(
                "this RunContext has no invoker: build it with an Invoker "
                "(make_test_ctx(llm=...) in tests)"
            )
        return self.services.invoker

    def charge(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        """Record one call's usage and cost on the ledger and every meter."""
        self.ledger.record(usage, cost_usd, model=model)
        for meter in self.meters:
            meter.record(usage, cost_usd, model=model)

    def check_budget(self) -> None:
        """Raise :class:`BudgetExceeded` if the ledger is at or past a limit."""
        budget = self.budget
        ledger = self.ledger
        if budget.max_llm_calls is not None and ledger.calls >= budget.max_llm_calls:
            raise BudgetExceeded("max_llm_calls", budget.max_llm_calls, ledger.calls)
        if budget.max_total_tokens is not None:
            spent = ledger.usage.total_tokens
            if spent >= budget.max_total_tokens:
                raise BudgetExceeded("max_total_tokens", budget.max_total_tokens, spent)
        if budget.max_cost_usd is not None and ledger.cost_usd >= budget.max_cost_usd:
            raise BudgetExceeded("max_cost_usd", budget.max_cost_usd, ledger.cost_usd)
