"""Every check of every contract suite can fail, and says which rule and what happened.

One deliberately wrong implementation per check: each is a correct double
with ONE rule broken, run through the public suite function. The
ContractViolation must list that check, carry the check's rule (its
docstring) and describe what the implementation did.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from agentkit.core.noop import NoopObserver, NoopSpan, NoopTrace
from agentkit.core.testing.contracts import (
    CheckFailure,
    ContractFactoryError,
    ContractViolation,
    check_clock_port,
    check_ctx,
    check_fetch_port,
    check_llm_port,
    check_memory_source,
    check_search_port,
    check_spawn_port,
    check_tool,
    check_trace_port,
)
from agentkit.core.testing.contracts._clock import CLOCK_SUITE
from agentkit.core.testing.contracts._io import FETCH_SUITE, MEMORY_SUITE, SEARCH_SUITE, TOOL_SUITE
from agentkit.core.testing.contracts._llm import LLM_SUITE
from agentkit.core.testing.contracts._spawn import SPAWN_SUITE
from agentkit.core.testing.contracts._suite import Suite
from agentkit.core.testing.contracts._trace import CTX_SUITE, TRACE_SUITE
from agentkit.core.types import (
    ChatResponse,
    Delta,
    FetchResponse,
    MemoryItem,
    Scope,
    SearchHit,
    ToolSchema,
    TraceContext,
    Usage,
)
from agentkit.fakes.cli import CliRun, FakeCodexCli
from agentkit.fakes.ctx import FakeCtx, RecordingTracer
from agentkit.fakes.io import FakeClock, FakeMemory, FakeSearch, FakeTool
from agentkit.fakes.llm import FakeLLM

URL = "https://example.test/page"
OUT = b"one\ntwo\n"

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


class NegativeOkClock(FakeClock):
    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)


class UncancellableClock(FakeClock):
    async def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("negative")
        with contextlib.suppress(asyncio.CancelledError):  # swallows the cancel
            await asyncio.sleep(0)


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


# ------------------------------------------------------------------- fetch


class InventsFetch:
    async def fetch(self, url: str) -> FetchResponse:
        return FetchResponse(url, status=200, body="made up")


class DictFetch:
    async def fetch(self, url: str) -> Any:
        return {"url": url, "body": "hello"}


class OneShotFetch:
    def __init__(self) -> None:
        self.used = False

    async def fetch(self, url: str) -> FetchResponse:
        if url != URL:
            raise KeyError(url)
        body = "" if self.used else "hello"
        self.used = True
        return FetchResponse(url, body=body)


# ------------------------------------------------------- search and memory


HITS = [SearchHit(f"t{n}", f"https://example.test/{n}") for n in range(5)]


class IgnoresKSearch:
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return list(HITS)


class TupleSearch:
    async def search(self, query: str, k: int = 10) -> Any:
        return tuple(HITS[:k])


class IgnoresKMemory(FakeMemory):
    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        return await super().query(query, 100, where)


class InventingMemory(FakeMemory):
    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        self.invented = getattr(self, "invented", 0) + 1
        return [MemoryItem(f"hallucinated {self.invented}", "nowhere")][:k]


@dataclass
class NamelessMemory(FakeMemory):
    name: str = ""


# ------------------------------------------------------------------- tools


@dataclass(eq=False)
class StringFlagTool(FakeTool):
    side_effecting: Any = "no"


@dataclass(eq=False)
class MisnamedSchemaTool(FakeTool):
    schema: ToolSchema = field(default_factory=lambda: ToolSchema("other_name"))


class MutatingTool(FakeTool):
    # Narrower than FakeTool's Mapping on purpose: this broken tool writes into its args.
    async def run(self, args: dict[str, Any]) -> Any:  # type: ignore[override]
        args["seen"] = True
        return "ok"


# ------------------------------------------------------------------ traces


_GLOBAL: list[TraceContext] = []


class GlobalTracer:
    """Keeps its span stack in a module global, as a tracer over a global provider would."""

    @contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:
        _GLOBAL.append(TraceContext("t", f"s{len(_GLOBAL)}"))
        try:
            yield NoopSpan()
        finally:
            _GLOBAL.pop()

    def current_span_id(self) -> TraceContext | None:
        return _GLOBAL[-1] if _GLOBAL else None

    def add_event_to_current_span(self, name: str, **fields: Any) -> None:
        return None


class StickyTracer(NoopTrace):
    def current_span_id(self) -> TraceContext | None:
        return TraceContext("t", "s")


class NewTraceForChildTracer(GlobalTracer):
    def __init__(self) -> None:
        self.stack: list[TraceContext] = []

    @contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:
        self.stack.append(TraceContext(f"trace{len(self.stack)}", f"s{len(self.stack)}"))
        try:
            yield NoopSpan()
        finally:
            self.stack.pop()

    def current_span_id(self) -> TraceContext | None:
        return self.stack[-1] if self.stack else None


class AnsweringTracer(NoopTrace):
    def add_event_to_current_span(self, name: str, **fields: Any) -> None:
        return True  # type: ignore[return-value]


class SwallowingTracer(NoopTrace):
    @contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:  # type: ignore[override]
        with contextlib.suppress(BaseException):  # swallows whatever the body raised
            yield NoopSpan()


class SharedStackTracer(NewTraceForChildTracer):
    """One stack per tracer, not per task: another task sees this task's span."""


@dataclass
class CtxWith:
    scope: Any = field(default_factory=Scope)
    trace: Any = field(default_factory=NoopTrace)
    observer: Any = field(default_factory=NoopObserver)


class AnsweringObserver(NoopObserver):
    def emit(self, event: str, **fields: Any) -> None:
        return event  # type: ignore[return-value]


class OrderedStackTracer(NewTraceForChildTracer):
    """One stack per tracer: a span closed while another task's span is on top fails."""

    @contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:
        mine = TraceContext("t", f"s{len(self.stack)}-{name}-{id(attrs)}")
        self.stack.append(mine)
        try:
            yield NoopSpan()
        finally:
            if self.stack.pop() is not mine:
                raise RuntimeError("closed a span that was not the innermost one")


# ------------------------------------------------------------------- spawn


class WrongBytesProcessCli(FakeCodexCli):
    pass


def codex(stdout: bytes = OUT, stderr: bytes = b"", code: int = 0) -> Callable[[], FakeCodexCli]:
    return lambda: FakeCodexCli([CliRun(stdout=stdout, stderr=stderr, returncode=code)])


class RaisingKillCli(FakeCodexCli):
    async def __call__(self, *args: Any, **kw: Any) -> Any:
        process = await super().__call__(*args, **kw)

        def kill() -> None:
            raise ProcessLookupError("no such process")

        process.kill = kill  # type: ignore[method-assign]
        return process


class PipedStdinCli(FakeCodexCli):
    async def __call__(self, program: str, *args: str, **kw: Any) -> Any:
        kw["stdin"] = subprocess.PIPE
        process = await super().__call__(program, *args, **kw)
        assert process.stdin is not None
        process.stdin.close()
        return process


class EarlyExitCli(FakeCodexCli):
    """wait() returns the code before stdout has reached EOF."""

    async def __call__(self, *args: Any, **kw: Any) -> Any:
        process = await super().__call__(*args, **kw)

        async def wait() -> int:
            return 0

        process.wait = wait  # type: ignore[method-assign]
        return process


# ------------------------------------------------------------------- table

Run = Callable[[Callable[[], Any]], Any]

CASES: list[tuple[Suite, str, Callable[[], Any], Run, str]] = [
    (CLOCK_SUITE, "now_is_a_float", IntClock, check_clock_port, "returned int 5"),
    (CLOCK_SUITE, "time_never_goes_backwards", BackwardsClock, check_clock_port, "went from"),
    (CLOCK_SUITE, "sleep_returns_none", ChattySleepClock, check_clock_port, "returned int 0"),
    (CLOCK_SUITE, "sleep_zero_yields_to_the_loop", NonYieldingClock, check_clock_port, "without"),
    (
        CLOCK_SUITE,
        "negative_sleep_raises_value_error",
        NegativeOkClock,
        check_clock_port,
        "returned",
    ),
    (CLOCK_SUITE, "a_sleep_can_be_cancelled", UncancellableClock, check_clock_port, "finished"),
]
LLM_CASES: list[tuple[str, Callable[[], Any], str]] = [
    ("stream_yields_only_deltas", lambda: FakeLLMWith(lambda d: [*d[:-1], "text", d[-1]]), "str"),
    ("stream_ends_with_exactly_one_terminal_delta", lambda: FakeLLMWith(_split_terminal), "2 of"),
    ("stream_ends_with_exactly_one_terminal_delta", lambda: FakeLLMWith(_after_terminal), "late"),
    ("the_terminal_delta_carries_usage_and_finish_reason", lambda: FakeLLMWith(_no_usage), "usage"),
    ("chat_equals_the_collected_stream", lambda: DisagreeingChat("pong"), "something else"),
]
FAILING: list[tuple[str, Callable[[], Any], str]] = [
    (
        "a_failure_before_the_first_delta_is_raised_before_any_delta",
        lambda: FailsAfterADelta("pong"),
        "after 1 delta",
    ),
    ("a_failure_before_the_first_delta_is_raised_before_any_delta", NeverFails, "did not raise"),
    ("chat_raises_a_failure_before_the_first_delta", NeverFails, "instead of raising"),
]


async def _fetch(factory: Callable[[], Any]) -> Any:
    return await check_fetch_port(factory, known_url=URL)


async def _spawn(factory: Callable[[], Any]) -> Any:
    return await check_spawn_port(factory, stdout=OUT, stderr=b"", returncode=0)


CASES += [
    (FETCH_SUITE, "a_known_url_gives_a_fetch_response", DictFetch, _fetch, "dict"),
    (FETCH_SUITE, "the_port_serves_more_than_one_fetch", OneShotFetch, _fetch, "changed"),
    (FETCH_SUITE, "an_unknown_url_raises", InventsFetch, _fetch, "instead of raising"),
    (SEARCH_SUITE, "search_returns_a_list_of_search_hits", TupleSearch, check_search_port, "tuple"),
    (SEARCH_SUITE, "search_returns_at_most_k_hits", IgnoresKSearch, check_search_port, "5 hits"),
    (MEMORY_SUITE, "name_is_a_non_empty_str", NamelessMemory, check_memory_source, "str ''"),
    (
        MEMORY_SUITE,
        "query_returns_at_most_k_memory_items",
        lambda: IgnoresKMemory(default=[MemoryItem(f"m{n}", "s") for n in range(4)]),
        check_memory_source,
        "4 items",
    ),
    (
        MEMORY_SUITE,
        "query_returns_nothing_it_was_not_given",
        InventingMemory,
        check_memory_source,
        "hallucinated",
    ),
    (TOOL_SUITE, "the_properties_have_their_declared_types", StringFlagTool, check_tool, "'no'"),
    (
        TOOL_SUITE,
        "the_schema_is_advertised_under_the_tools_name",
        MisnamedSchemaTool,
        check_tool,
        "other_name",
    ),
    (TOOL_SUITE, "run_answers_valid_args_without_changing_them", MutatingTool, check_tool, "seen"),
    (TRACE_SUITE, "no_span_is_current_when_none_is_open", StickyTracer, check_trace_port, "'s'"),
    (
        TRACE_SUITE,
        "a_span_opened_inside_another_is_its_child",
        NewTraceForChildTracer,
        check_trace_port,
        "not the parent's child",
    ),
    (TRACE_SUITE, "the_tracer_needs_no_global_provider", GlobalTracer, check_trace_port, "another"),
    (
        TRACE_SUITE,
        "events_and_attributes_are_always_accepted",
        AnsweringTracer,
        check_trace_port,
        "bool True",
    ),
    (
        TRACE_SUITE,
        "an_exception_in_a_span_propagates",
        SwallowingTracer,
        check_trace_port,
        "swallowed",
    ),
    (
        TRACE_SUITE,
        "spans_in_concurrent_tasks_do_not_see_each_other",
        SharedStackTracer,
        check_trace_port,
        "another task",
    ),
    (CTX_SUITE, "scope_is_a_scope", lambda: CtxWith(scope="org"), check_ctx, "str 'org'"),
    (
        CTX_SUITE,
        "the_ctx_trace_nests_spans",
        lambda: CtxWith(trace=NewTraceForChildTracer()),
        check_ctx,
        "not the parent's child",
    ),
    (
        CTX_SUITE,
        "observer_emit_is_always_accepted",
        lambda: CtxWith(observer=AnsweringObserver()),
        check_ctx,
        "str 'event'",
    ),
    (
        CTX_SUITE,
        "spans_work_across_awaits",
        lambda: CtxWith(trace=OrderedStackTracer()),
        check_ctx,
        "RuntimeError",
    ),
    (
        SPAWN_SUITE,
        "piped_streams_are_readers_and_an_unpiped_stdin_is_none",
        lambda: PipedStdinCli([CliRun(stdout=OUT)]),
        _spawn,
        "stdin=DEVNULL gave stdin",
    ),
    (SPAWN_SUITE, "stdout_gives_the_programs_bytes_then_eof", codex(b"other\n"), _spawn, "other"),
    (
        SPAWN_SUITE,
        "stdout_eof_comes_before_the_exit_code",
        lambda: EarlyExitCli([CliRun(stdout=OUT)]),
        _spawn,
        "while stdout had not reached EOF",
    ),
    (SPAWN_SUITE, "stderr_is_readable_after_stdout_eof", codex(stderr=b"oops\n"), _spawn, "oops"),
    (
        SPAWN_SUITE,
        "terminate_and_kill_after_exit_are_harmless",
        lambda: RaisingKillCli([CliRun(stdout=OUT)]),
        _spawn,
        "ProcessLookupError",
    ),
]


async def _llm(factory: Callable[[], Any]) -> Any:
    return await check_llm_port(factory, failing_factory=lambda: FakeLLM("pong", fail_times=1))


async def _llm_failing(factory: Callable[[], Any]) -> Any:
    return await check_llm_port(lambda: FakeLLM("pong"), failing_factory=factory)


CASES += [(LLM_SUITE, name, make, _llm, got) for name, make, got in LLM_CASES]
CASES += [(LLM_SUITE, name, make, _llm_failing, got) for name, make, got in FAILING]


def _failure(violation: ContractViolation, check: str) -> CheckFailure:
    for failure in violation.failures:
        if failure.check == check:
            return failure
    raise AssertionError(f"{check} did not fail; the failures were {violation.failures}")


@pytest.mark.agentkit(verify=False)  # the wrong doubles are wrong on purpose
@pytest.mark.parametrize(
    ("suite", "check", "make", "run", "got"),
    CASES,
    ids=[f"{c[0].port}-{c[1]}-{n}" for n, c in enumerate(CASES)],
)
async def test_a_wrong_implementation_fails_the_check_it_breaks(
    suite: Suite, check: str, make: Callable[[], Any], run: Run, got: str
) -> None:
    with pytest.raises(ContractViolation) as caught:
        await run(make)
    failure = _failure(caught.value, check)
    assert failure.rule == suite.by_name(check).rule
    assert got in failure.got
    message = str(caught.value)
    assert check in message
    assert failure.rule in message
    assert failure.got in message


def test_every_check_of_every_suite_has_a_wrong_implementation() -> None:
    suites = [CLOCK_SUITE, LLM_SUITE, FETCH_SUITE, SEARCH_SUITE, MEMORY_SUITE, TOOL_SUITE]
    suites += [TRACE_SUITE, CTX_SUITE, SPAWN_SUITE]
    covered = {(case[0].port, case[1]) for case in CASES}
    every = {(s.port, name) for s in suites for name in s.names()}
    assert every - covered == set()


async def test_the_violation_lists_every_broken_rule_and_names_the_first() -> None:
    with pytest.raises(ContractViolation) as caught:
        await check_clock_port(IntClock)
    violation = caught.value
    assert violation.port == "ClockPort"
    assert (violation.check, violation.got) == ("now_is_a_float", "now() returned int 5")
    assert violation.rule == CLOCK_SUITE.by_name("now_is_a_float").rule
    assert [f.check for f in violation.failures] == ["now_is_a_float"]
    assert isinstance(violation, AssertionError)


@pytest.mark.parametrize(
    ("run", "returned", "port"),
    [
        (lambda f: check_clock_port(f), FakeSearch(HITS), "ClockPort"),
        (lambda f: check_llm_port(f), FakeClock(), "LLMPort"),
        (lambda f: check_fetch_port(f, known_url=URL), "https://example.test", "FetchPort"),
        (lambda f: check_search_port(f), None, "SearchPort"),
        (lambda f: check_memory_source(f), FakeSearch(HITS), "MemorySource"),
        (lambda f: check_tool(f), FakeMemory(), "Tool"),
        (lambda f: check_trace_port(f), FakeCtx(), "TracePort"),
        (lambda f: check_ctx(f), RecordingTracer(), "Ctx"),
        (lambda f: check_spawn_port(f), 42, "SpawnPort"),
    ],
    ids=lambda v: v if isinstance(v, str) and not v.startswith("http") else None,
)
async def test_a_factory_of_the_wrong_kind_is_refused_with_a_typed_error(
    run: Run, returned: object, port: str
) -> None:
    def wrong_factory() -> object:
        return returned

    with pytest.raises(ContractFactoryError) as caught:
        await run(wrong_factory)
    error = caught.value
    assert (error.port, error.returned, error.factory) == (port, returned, wrong_factory)
    assert "wrong_factory" in str(error)
    assert f"must return a {port}" in str(error)
    assert type(returned).__name__ in str(error)


async def test_an_async_factory_is_awaited_and_a_non_callable_refused() -> None:
    async def make() -> FakeClock:
        return FakeClock()

    assert await check_clock_port(make) == []
    with pytest.raises(ContractFactoryError, match="not callable"):
        await check_clock_port(FakeClock())  # type: ignore[arg-type]


async def test_a_skipped_check_is_not_run_and_a_misspelt_skip_is_refused() -> None:
    assert await check_clock_port(IntClock, skip=["now_is_a_float"]) == ["now_is_a_float"]
    with pytest.raises(KeyError, match="no check 'now_is_float'"):
        await check_clock_port(FakeClock, skip=["now_is_float"])
