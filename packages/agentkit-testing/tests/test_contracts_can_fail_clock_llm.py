"""ClockPort and LLMPort: each check fails, in both forms, on a realistic wrong implementation.

The rows and what they must come to: ``tests.support.contract_runs``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from agentkit.core.testing import contracts
from agentkit.core.testing.contracts import ContractViolation
from agentkit.core.testing.contracts._clock import CLOCK_SUITE
from agentkit.core.types import (
    ChatResponse,
    Delta,
    Usage,
)
from agentkit.fakes.io import FakeClock
from agentkit.fakes.llm import FakeLLM
from tests.support.contract_runs import (
    WrongTable,
    cases,
)

# ----------------------------------------------------------------- clocks


class BackwardsClock(FakeClock):
    def now(self) -> float:
        self._t = getattr(self, "_t", 100.0) - 1.0
        return self._t


class IntClock(FakeClock):
    def now(self) -> float:
        return 5


class ChattySleepClock(FakeClock):
    async def sleep(self, seconds: float) -> None:
        await super().sleep(seconds)
        return 0  # type: ignore[return-value]


class NonYieldingClock:
    def now(self) -> float:
        return 0.0

    async def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("negative")


class OnlyYieldingClock(FakeClock):
    """A virtual clock whose sleep yields but forgets to move the time on."""

    async def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("negative")
        await asyncio.sleep(0)


class MillisecondClock:
    """A real clock in the wrong unit: milliseconds."""

    def now(self) -> float:
        return time.monotonic() * 1000.0

    async def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("negative")
        await asyncio.sleep(seconds)


class NegativeOkClock(FakeClock):
    async def sleep(self, seconds: float) -> None:
        await super().sleep(max(seconds, 0.0))


class UncancellableClock(FakeClock):
    async def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("negative")
        self._t = getattr(self, "_t", 0.0)
        with contextlib.suppress(asyncio.CancelledError):  # swallows the cancel
            await super().sleep(seconds)


# -------------------------------------------------------------------- LLMs


class FakeLLMWith(FakeLLM):
    """A FakeLLM whose stream is rewritten by ``edit``."""

    def __init__(self, edit: Callable[[list[Delta]], list[Any]], **kw: Any) -> None:
        super().__init__("pong", **kw)
        self.edit = edit

    async def stream(self, **request: Any) -> AsyncIterator[Delta]:  # type: ignore[override]
        deltas = [d async for d in super().stream(**request)]
        for delta in self.edit(deltas):
            yield delta


def _split_terminal(deltas: list[Delta]) -> list[Delta]:
    last = deltas[-1]
    return [*deltas[:-1], Delta(finish_reason="stop"), Delta(usage=last.usage, finish_reason="x")]


def _after_terminal(deltas: list[Delta]) -> list[Delta]:
    return [*deltas, Delta(content="late")]


def _no_usage(deltas: list[Delta]) -> list[Delta]:
    return [*deltas[:-1], Delta(finish_reason="stop")]


class DisagreeingChat(FakeLLM):
    async def chat(self, **request: Any) -> ChatResponse:
        return ChatResponse(content="something else", usage=Usage(), finish_reason="stop")


class FailsAfterADelta(FakeLLM):
    async def stream(self, **request: Any) -> AsyncIterator[Delta]:  # type: ignore[override]
        yield Delta(content="half")
        raise ConnectionError("the provider hung up")


class NeverFails(FakeLLM):
    def __init__(self) -> None:
        super().__init__("pong")


# ------------------------------------------------------------------- table


FAILS_ONCE = {"failing_factory": lambda: FakeLLM("pong", fail_times=1)}


CASES = [
    *cases(
        "clock",
        ("now_is_a_float", IntClock, "returned int 5"),
        ("time_never_goes_backwards", BackwardsClock, "went from"),
        ("sleep_moves_now_by_the_seconds_slept", OnlyYieldingClock, "only"),
        ("sleep_moves_now_by_the_seconds_slept", MillisecondClock, "in seconds?"),
        ("sleep_returns_none", ChattySleepClock, "returned int 0"),
        ("sleep_zero_yields_to_the_loop", NonYieldingClock, "without"),
        ("negative_sleep_raises_value_error", NegativeOkClock, "returned"),
        ("a_sleep_can_be_cancelled", UncancellableClock, "finished"),
    ),
    *cases(
        "llm",
        (
            "stream_yields_only_deltas",
            lambda: FakeLLMWith(lambda d: [*d[:-1], "text", d[-1]]),
            "str",
        ),
        (
            "stream_ends_with_exactly_one_terminal_delta",
            lambda: FakeLLMWith(_split_terminal),
            "2 of",
        ),
        (
            "stream_ends_with_exactly_one_terminal_delta",
            lambda: FakeLLMWith(_after_terminal),
            "late",
        ),
        (
            "the_terminal_delta_carries_usage_and_finish_reason",
            lambda: FakeLLMWith(_no_usage),
            "usage",
        ),
        ("chat_equals_the_collected_stream", lambda: DisagreeingChat("pong"), "something else"),
        (
            "a_failure_before_the_first_delta_is_raised_before_any_delta",
            lambda: FakeLLM("pong"),
            "after 1 delta",
            {"failing_factory": lambda: FailsAfterADelta("pong")},
        ),
        (
            "chat_raises_a_failure_before_the_first_delta",
            lambda: FakeLLM("pong"),
            "instead of raising",
            {"failing_factory": NeverFails},
        ),
        options=FAILS_ONCE,
    ),
]


class TestTable(WrongTable):
    group = "clock_llm"
    wrong = CASES


async def test_the_violation_lists_every_broken_rule_and_names_the_first() -> None:
    with pytest.raises(ContractViolation) as caught:
        await contracts.check_clock_port(IntClock)  # a stopped clock in the wrong type
    violation = caught.value
    assert violation.port == "ClockPort"
    assert (violation.check, violation.got) == ("now_is_a_float", "now() returned int 5")
    assert violation.rule == CLOCK_SUITE.by_name("now_is_a_float").rule
    assert [f.check for f in violation.failures] == [
        "now_is_a_float",
        "sleep_moves_now_by_the_seconds_slept",
    ]
    assert isinstance(violation, AssertionError)


async def test_a_skipped_check_is_not_run_and_a_misspelt_skip_is_refused() -> None:
    skip = ["now_is_a_float", "sleep_moves_now_by_the_seconds_slept"]
    assert await contracts.check_clock_port(IntClock, skip=skip) == skip
    with pytest.raises(KeyError, match="no check 'now_is_float'"):
        await contracts.check_clock_port(FakeClock, skip=["now_is_float"])
