"""The types of the agentkit_testing plugin's fixtures, for a test's annotations.

A fixture arrives as a test function's argument, and pytest cannot tell a type
checker what it is: the test's annotation is all mypy sees. The doubles have
their own classes (``fake_clock: FakeClock``); ``make_ctx`` is a factory, and
``Callable[..., RunContext]`` would let a misspelled keyword through to run
time. :class:`MakeCtx` spells out its keywords, so mypy rejects
``make_ctx(lmm=...)`` where it is written::

    from agentkit.core.testing.fixtures import MakeCtx

    async def test_the_agent(make_ctx: MakeCtx) -> None:
        ctx = make_ctx(llm=FakeLLM("hi"))

Importing this module imports neither pytest nor the run context.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

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

__all__ = ["MakeCtx"]


class MakeCtx(Protocol):
    """The ``make_ctx`` fixture: :func:`~agentkit.fakes.ctx.make_test_ctx`'s keywords.

    Every keyword is :func:`~agentkit.fakes.ctx.make_test_ctx`'s, with its
    default, except ``clock`` and ``trace``, which default to the ``fake_clock``
    and ``recording_tracer`` fixtures of the same test (a keyword given wins).
    A test pins that the two signatures stay the same.
    """

    def __call__(
        self,
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
    ) -> RunContext: ...
