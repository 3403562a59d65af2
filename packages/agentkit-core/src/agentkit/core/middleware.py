"""Chat middleware: retry before the first delta, and budget enforcement."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    check_int,
    check_number,
)
from agentkit.core.cancellation import RunCancelled

if TYPE_CHECKING:
    from agentkit.core.invoker import ChatHandler
    from agentkit.core.request import ChatRequest
    from agentkit.core.runtime import RunContext
    from agentkit.core.types import Delta

__all__ = ["BudgetExceeded", "RetryMiddleware", "budget_middleware"]


class BudgetExceeded(Exception):
    """A run reached one of its Budget's limits.

    ``axis`` names the limit (``max_cost_usd``, ``max_total_tokens``,
    ``max_llm_calls``); ``limit`` and ``spent`` are its figures.
    """

    def __init__(self, axis: str, limit: float, spent: float) -> None:
        self.axis = axis
        self.limit = limit
        self.spent = spent
        super().__init__(f"budget exceeded: {axis} limit {limit}, spent {spent}")


def budget_middleware(
    ctx: RunContext, request: ChatRequest, call_next: ChatHandler
) -> AsyncIterator[Delta]:
    """Refuse the call, with :class:`BudgetExceeded`, once the run is at a limit.

    A plain function, not a generator: it acts once, before the call, and so
    adds nothing per streamed chunk.
    """
    ctx.check_budget()
    return call_next(ctx, request)


@dataclass(frozen=True)
class RetryMiddleware:
    """Re-invoke a call that failed BEFORE its first delta; never one that failed after.

    Before the first delta nothing has reached the caller, so a retry is
    invisible to it. After, the caller has seen part of a reply, and a retry
    would hand it a second, different beginning: that failure propagates.
    Backoff is slept on ``ctx.clock``, so a test on a FakeClock retries
    instantly while recording each backoff. Budget and cancellation errors
    are never retried, and neither is any BaseException (ScriptExhausted,
    CancelledError).
    """

    max_attempts: int = 3
    initial_backoff: float = 0.5
    multiplier: float = 2.0
    max_backoff: float = 30.0
    retry_on: tuple[type[Exception], ...] = (Exception,)

    def __post_init__(self) -> None:
        check_int(self.max_attempts, "RetryMiddleware", "max_attempts", minimum=1)
        # NaN and infinity are refused here rather than surfacing mid-retry as a
        # nan-second sleep (every comparison with NaN is False) or one that never ends.
        check_number(self.initial_backoff, "RetryMiddleware", "initial_backoff")
        check_number(self.multiplier, "RetryMiddleware", "multiplier", minimum=1.0)
        check_number(self.max_backoff, "RetryMiddleware", "max_backoff")
        retry_on: object = self.retry_on
        if isinstance(retry_on, type):
            retry_on = (retry_on,)
        if not isinstance(retry_on, tuple) or not retry_on:
            raise ArgumentTypeError(
                "RetryMiddleware",
                "retry_on",
                "a non-empty tuple of Exception subclasses",
                self.retry_on,
            )
        for index, kind in enumerate(retry_on):
            # A BaseException (ScriptExhausted, CancelledError) is never a provider fault.
            if not (isinstance(kind, type) and issubclass(kind, Exception)):
                raise ArgumentTypeError(
                    "RetryMiddleware", f"retry_on[{index}]", "an Exception subclass", kind
                )
        object.__setattr__(self, "retry_on", retry_on)

    def backoff(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        return float(min(self.initial_backoff * self.multiplier ** (attempt - 1), self.max_backoff))

    async def __call__(
        self, ctx: RunContext, request: ChatRequest, call_next: ChatHandler
    ) -> AsyncIterator[Delta]:
        attempt = 1
        while True:
            stream = call_next(ctx, request)
            try:
                first = await anext(stream)
            except StopAsyncIteration:
                return
            except (BudgetExceeded, RunCancelled):
                raise
            except self.retry_on as exc:
                if attempt >= self.max_attempts:
                    raise
                delay = self.backoff(attempt)
                ctx.observer.emit(
                    "llm.retry", attempt=attempt, delay=delay, error=f"{type(exc).__name__}: {exc}"
                )
                await ctx.clock.sleep(delay)
                attempt += 1
                continue
            yield first
            async for delta in stream:
                yield delta
            return
