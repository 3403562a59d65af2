"""ClockPort and LLMPort, the red team: mistakes seen in real code, and correct ones built otherwise.

The rows and what they must come to: ``tests.support.contract_runs``.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any

from agentkit.core.types import (
    ChatResponse,
    Delta,
    Usage,
)
from tests.support.contract_runs import (
    RedTeamTable,
    Right,
    Wrong,
)

# ----------------------------------------------------------------- clocks


class LoopClock:
    """Correct: the event loop's own clock, asyncio's sleep, the argument checked first."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    async def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"sleep() of a negative time: {seconds}")
        await asyncio.sleep(seconds)


class AnyioClock:
    """Correct: anyio's clock and sleep (no trio needed, asyncio underneath)."""

    def now(self) -> float:
        import anyio

        return anyio.current_time()

    async def sleep(self, seconds: float) -> None:
        import anyio

        if seconds < 0:
            raise ValueError(f"sleep() of a negative time: {seconds}")
        await anyio.sleep(seconds)


class BlockingClock(LoopClock):
    """time.sleep in an async def: the loop stands still while it 'sleeps'."""

    async def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("negative")
        time.sleep(seconds)  # noqa: ASYNC251  (the mistake on purpose)


class DatetimeClock(LoopClock):
    def now(self) -> float:
        return datetime.datetime.now()  # type: ignore[return-value]


class ClampingClock(LoopClock):
    """max(0, s): a negative sleep becomes sleep(0) instead of an error."""

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class SwallowingClock(LoopClock):
    """A backoff helper that 'handles' cancellation by returning early."""

    async def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("negative")
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(seconds)


class ManualClock:
    """A virtual clock that adds to its time and returns, never letting the loop run."""

    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("negative")
        self.t += seconds


class MillisecondSleepClock(LoopClock):
    """sleep() that takes milliseconds, as a JavaScript habit would have it."""

    async def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("negative")
        await asyncio.sleep(seconds / 1000)


# -------------------------------------------------------------------- llm


class EchoLLM:
    """Correct: streams the last user message back in two pieces, then one terminal delta."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail

    async def stream(self, **request: Any) -> AsyncIterator[Delta]:
        if self.fail:
            raise ConnectionError("provider unavailable")
        yield Delta("po")
        yield Delta("ng")
        yield Delta(usage=Usage(input_tokens=3, output_tokens=1), finish_reason="stop")

    async def chat(self, **request: Any) -> ChatResponse:
        parts = [d async for d in self.stream(**request)]
        last = parts[-1]
        return ChatResponse(
            "".join(d.content for d in parts), (), last.usage or Usage(), last.finish_reason
        )


class UsageEveryDeltaLLM(EchoLLM):
    """Passes the provider's running usage along on every chunk."""

    async def stream(self, **request: Any) -> AsyncIterator[Delta]:
        usage = Usage(input_tokens=3, output_tokens=1)
        yield Delta("po", usage=usage)
        yield Delta("ng", usage=usage)
        yield Delta(usage=usage, finish_reason="stop")


class FirstChunkChatLLM(EchoLLM):
    """chat() returns the first chunk only (a break in the wrong place)."""

    async def chat(self, **request: Any) -> ChatResponse:
        async for delta in self.stream(**request):
            return ChatResponse(delta.content, (), Usage(3, 1), "stop")
        raise AssertionError("unreachable")


class ErrorAsTextLLM(EchoLLM):
    """A failure becomes an apology streamed as the answer."""

    async def stream(self, **request: Any) -> AsyncIterator[Delta]:
        if self.fail:
            yield Delta("Sorry, the provider is unavailable.")
            yield Delta(usage=Usage(), finish_reason="error")
            return
        async for delta in super().stream(**request):
            yield delta


# ------------------------------------------------------------------ table


FAILING = {"failing_factory": lambda: EchoLLM(fail=True)}


def failing(cls: type[EchoLLM]) -> Mapping[str, Any]:
    return {"failing_factory": lambda: cls(fail=True)}


WRONG = [
    Wrong("clock", "sleep_zero_yields_to_the_loop", BlockingClock, "without"),
    Wrong("clock", "now_is_a_float", DatetimeClock, "datetime"),
    Wrong("clock", "negative_sleep_raises_value_error", ClampingClock, "returned"),
    Wrong("clock", "a_sleep_can_be_cancelled", SwallowingClock, "finished"),
    Wrong("clock", "sleep_zero_yields_to_the_loop", ManualClock, "without"),
    Wrong("clock", "sleep_moves_now_by_the_seconds_slept", MillisecondSleepClock, "only"),
    Wrong(
        "llm",
        "the_terminal_delta_carries_usage_and_finish_reason",
        UsageEveryDeltaLLM,
        "before the terminal one",
        failing(UsageEveryDeltaLLM),
    ),
    Wrong(
        "llm",
        "chat_equals_the_collected_stream",
        FirstChunkChatLLM,
        "content",
        failing(FirstChunkChatLLM),
    ),
    Wrong(
        "llm",
        "a_failure_before_the_first_delta_is_raised_before_any_delta",
        ErrorAsTextLLM,
        "did not raise",
        failing(ErrorAsTextLLM),
    ),
]

RIGHT = [
    Right("clock", LoopClock),
    Right("clock", AnyioClock),
    Right("llm", EchoLLM, FAILING),
]


class TestRedTeam(RedTeamTable):
    group = "clock_llm"
    wrong = WRONG
    right = RIGHT
