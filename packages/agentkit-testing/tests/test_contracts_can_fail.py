"""Every check of every contract suite can fail, in both forms, on a realistic wrong implementation.

Each wrong implementation below is a mistake a user really makes (a fetcher
that raises on 404, a store that keeps the caller's list, an ``async def
record``), run through the public suite function AND through the pytest base
class. Both must report the check it breaks, with that check's rule (as
written in the port's docstring) and what the implementation did. Every
check has one, every port at least two.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import http.client
import os
import subprocess
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from agentkit.core.noop import NoopObserver, NoopSpan, NoopTrace
from agentkit.core.testing import contracts
from agentkit.core.testing.contracts import CheckFailure, ContractFactoryError, ContractViolation
from agentkit.core.testing.contracts._clock import CLOCK_SUITE
from agentkit.core.testing.contracts._spawn import SPAWN_SUITE
from agentkit.core.testing.contracts._suite import Suite
from agentkit.core.types import (
    ChatResponse,
    Delta,
    FetchResponse,
    MemoryItem,
    Message,
    SearchHit,
    ToolCall,
    ToolSchema,
    TraceContext,
    Usage,
)
from agentkit.fakes.cli import CliRun, FakeCodexCli
from agentkit.fakes.ctx import FakeCtx, RecordingTracer
from agentkit.fakes.io import FakeClock, FakeMemory, FakeSearch, FakeTool
from agentkit.fakes.llm import FakeLLM
from tests.support.contract_bases import CtxWith, ListMemory, StackTracer
from tests.support.contract_runs import PORTS, Wrong, run_class_form

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


# ------------------------------------------------------------------- fetch


class HttpClientFetch:
    """A correct fetcher over http.client: follows redirects, any status is a response."""

    follow = True
    decode_by_charset = True
    keep_headers = True
    raise_for_status = False

    async def fetch(self, url: str) -> FetchResponse:
        return await asyncio.to_thread(self._fetch, url, 5)

    def _fetch(self, url: str, hops: int) -> FetchResponse:
        parts = urllib.parse.urlsplit(url)
        connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
        try:
            connection.request("GET", parts.path or "/")
            reply = connection.getresponse()
            data = reply.read()
        finally:
            connection.close()
        location = reply.getheader("Location")
        if self.follow and reply.status in (301, 302, 303, 307, 308) and location and hops:
            return self._fetch(urllib.parse.urljoin(url, location), hops - 1)
        if self.raise_for_status and reply.status >= 400:
            raise OSError(f"HTTP {reply.status}")
        charset = reply.msg.get_content_charset() if self.decode_by_charset else None
        body = data.decode(charset or "utf-8", errors="replace")
        headers = dict(reply.getheaders()) if self.keep_headers else {}
        return FetchResponse(url, status=reply.status, body=body, headers=headers)


class RaisesOnErrorStatusFetch(HttpClientFetch):
    raise_for_status = True  # as urlopen does: an HTTPError for a 404


class DropsHeadersFetch(HttpClientFetch):
    keep_headers = False


class Utf8OnlyFetch(HttpClientFetch):
    decode_by_charset = False  # the Latin-1 page comes back mangled


class NoRedirectFetch(HttpClientFetch):
    """Returns a redirect as itself, as httpx does by default: correct too."""

    follow = False


class RedirectAsOkFetch(NoRedirectFetch):
    """Treats every answer below 400 as a success: a 302 comes back as an empty 200."""

    async def fetch(self, url: str) -> FetchResponse:
        got = await super().fetch(url)
        status = 200 if got.status < 400 else got.status
        return FetchResponse(url, status, got.body, got.headers)


class FirstStatusFetch(HttpClientFetch):
    """Follows redirects by hand but reports the first response's status."""

    async def fetch(self, url: str) -> FetchResponse:
        first = await asyncio.to_thread(NoRedirectFetch()._fetch, url, 0)
        final = await super().fetch(url)
        return FetchResponse(url, first.status, final.body, final.headers)


class InventsFetch(HttpClientFetch):
    async def fetch(self, url: str) -> FetchResponse:
        try:
            return await super().fetch(url)
        except OSError:
            return FetchResponse(url, status=200, body="")


class DictFetch:
    async def fetch(self, url: str) -> Any:
        return {"url": url, "body": "hello"}


class OneShotFetch(HttpClientFetch):
    """Keeps a connection-like cursor: the second fetch of a page reads nothing."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    async def fetch(self, url: str) -> FetchResponse:
        got = await super().fetch(url)
        if url in self.seen:
            return FetchResponse(url, got.status, "", got.headers)
        self.seen.add(url)
        return got


# ------------------------------------------------------------------ search


HITS = [SearchHit(f"t{n}", f"https://example.test/{n}") for n in range(5)]


class IgnoresKSearch:
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return list(HITS)


class TupleSearch:
    async def search(self, query: str, k: int = 10) -> Any:
        return tuple(HITS[:k])


class ZeroMeansDefaultSearch:
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return HITS[: k or 10]  # 0 read as "not given"


class OffByOneSearch:
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return HITS[: k - 1] if k else []  # one short: the k-th hit is dropped


class PaddingSearch:
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return [HITS[n % len(HITS)] for n in range(k)]  # always k hits


# ------------------------------------------------------------------ memory


class NoneMeansAllMemory(ListMemory):
    """items[:k or None]: a limit of 0 reads as "no limit"."""

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        return await super().query(query, k or len(self.items), where)


class IgnoresKMemory(ListMemory):
    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        return await super().query(query, 100, where)


class InventingMemory(ListMemory):
    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        self.asked = getattr(self, "asked", 0) + 1
        found = await super().query(query, k, where)
        return [*found, MemoryItem(f"a related note ({self.asked})", "suggestions")][:k]


class FallbackMemory(ListMemory):
    """With no match, answers the most recent items: 'something is better than nothing'."""

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        return await super().query(query, k, where) or self.items[-k:]


class NamelessMemory(ListMemory):
    name = ""


class ForgetfulMemory(ListMemory):
    async def write(self, items: Sequence[MemoryItem]) -> None:
        self.written = list(items)  # recorded, never answered


class ReplacingMemory(ListMemory):
    async def write(self, items: Sequence[MemoryItem]) -> None:
        self.items = list(items)


class AliasingMemory(ListMemory):
    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        return self.items  # the store itself, not a copy

    async def write(self, items: Sequence[MemoryItem]) -> None:
        if isinstance(items, list) and not self.items:
            self.items = items  # keeps the caller's list
        else:
            self.items.extend(items)


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


def _weather_schema(parameters: Mapping[str, Any]) -> ToolSchema:
    return ToolSchema("weather", "the weather in a city", parameters)


def pythonish_schema_tool() -> FakeTool:
    # Python type names where JSON Schema has its own: "str", "dict".
    parameters = {"type": "dict", "properties": {"city": {"type": "str"}}}
    return FakeTool(name="weather", schema=_weather_schema(parameters))


def required_typo_tool() -> FakeTool:
    parameters = {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["City"],
    }
    return FakeTool(name="weather", schema=_weather_schema(parameters))


WEATHER_OUT = {
    "type": "object",
    "properties": {"celsius": {"type": "number"}, "sky": {"type": "string"}},
    "required": ["celsius", "sky"],
}


def text_result_tool() -> FakeTool:
    return FakeTool(
        name="weather",
        schema=_weather_schema({"type": "object", "properties": {"city": {"type": "string"}}}),
        output_schema=WEATHER_OUT,
        responder=lambda args: "12 degrees and cloudy",
    )


def string_number_tool() -> FakeTool:
    return FakeTool(
        name="weather",
        schema=_weather_schema({"type": "object", "properties": {"city": {"type": "string"}}}),
        output_schema=WEATHER_OUT,
        responder=lambda args: {"celsius": "12", "sky": "cloudy"},
    )


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


class NewTraceForChildTracer(StackTracer):
    def opened(self, name: str) -> TraceContext:
        return TraceContext(f"trace{len(self.stack)}", f"s{len(self.stack)}")


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


class FreshTracerCtx(FakeCtx):
    """A ctx whose trace property builds a new tracer on every read."""

    @property
    def trace(self) -> RecordingTracer:
        return RecordingTracer()


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


def codex(stdout: bytes = OUT, stderr: bytes = b"", code: int = 0) -> Callable[[], FakeCodexCli]:
    return lambda: FakeCodexCli([CliRun(stdout=stdout, stderr=stderr, returncode=code)])


class RaisingKillCli(FakeCodexCli):
    async def __call__(self, *args: Any, **kw: Any) -> Any:
        process = await super().__call__(*args, **kw)

        def kill() -> None:
            raise ProcessLookupError("no such process")

        process.kill = kill  # type: ignore[method-assign]
        return process


class DeafCli(FakeCodexCli):
    """terminate() and kill() do nothing: the 'process' runs to its recorded end."""

    async def __call__(self, *args: Any, **kw: Any) -> Any:
        process = await super().__call__(*args, **kw)
        process.terminate = process.kill = lambda: None  # type: ignore[method-assign]
        return process


class PipedStdinCli(FakeCodexCli):
    async def __call__(self, program: str, *args: str, **kw: Any) -> Any:
        kw["stdin"] = subprocess.PIPE
        process = await super().__call__(program, *args, **kw)
        if process.stdin is not None:
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


async def raw_asyncio_spawn(program: str, *args: str, **kw: Any) -> Any:
    """asyncio.create_subprocess_exec itself, used as a spawn."""
    return await asyncio.create_subprocess_exec(program, *args, **kw)


async def deaf_asyncio_spawn(program: str, *args: str, **kw: Any) -> Any:
    """A real spawn whose process's kill() forgets to signal (a wrapper that drops the call)."""
    process = await asyncio.create_subprocess_exec(program, *args, **kw)
    process.kill = lambda: None  # type: ignore[method-assign]
    return process


async def forwards_only_the_pipes_spawn(
    program: str,
    *args: str,
    stdin: int | None = None,
    stdout: int | None = None,
    stderr: int | None = None,
    **ignored: Any,
) -> Any:
    """A wrapper that forwards the pipes and drops cwd, env, limit and start_new_session."""
    return await asyncio.create_subprocess_exec(
        program, *args, stdin=stdin, stdout=stdout, stderr=stderr
    )


# ---------------------------------------------------------------- services


class InPlaceCompactor:
    async def compact(self, messages: Sequence[Message]) -> list[Message]:
        kept = messages if isinstance(messages, list) else list(messages)
        del kept[1:-2]  # trims the caller's own transcript
        return kept


class SummaryTextCompactor:
    async def compact(self, messages: Sequence[Message]) -> list[Message]:
        return f"summary of {len(messages)} messages"  # type: ignore[return-value]


class IdentityCompactor:
    async def compact(self, messages: Sequence[Message]) -> list[Message]:
        return messages if isinstance(messages, list) else list(messages)


class NoneWhenNothingGrounder:
    async def ground(self, ctx: Any, task: str) -> str:
        return "agentkit is a test kit" if "agentkit" in task else None  # type: ignore[return-value]


class SharedStateGrounder:
    async def ground(self, ctx: Any, task: str) -> str:
        self.task = task
        await asyncio.sleep(0)  # the lookup
        return f"facts about: {self.task}"


class WordAsker:
    async def ask(self, question: str, *, tool_call: ToolCall) -> bool:
        return "yes"  # type: ignore[return-value]


class DenyOnCancelAsker:
    """Parks on a future, and answers 'no' when the wait is cancelled."""

    async def ask(self, question: str, *, tool_call: ToolCall) -> bool:
        try:
            parked: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            return await parked
        except asyncio.CancelledError:
            return False


class DictCheckpointer:
    """A correct checkpointer: a deep copy in and a deep copy out."""

    def __init__(self) -> None:
        self.states: dict[str, Any] = {}

    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        self.states[key] = copy.deepcopy(dict(state))

    async def load(self, key: str) -> Mapping[str, Any] | None:
        return copy.deepcopy(self.states.get(key))


class KeyErrorCheckpointer(DictCheckpointer):
    async def load(self, key: str) -> Mapping[str, Any] | None:
        return dict(self.states[key])


class ReferenceCheckpointer(DictCheckpointer):
    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        self.states[key] = state

    async def load(self, key: str) -> Mapping[str, Any] | None:
        return self.states.get(key)


class MergingCheckpointer(DictCheckpointer):
    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        self.states.setdefault(key, {}).update(state)


class OneSlotCheckpointer(DictCheckpointer):
    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        await super().save("only", state)

    async def load(self, key: str) -> Mapping[str, Any] | None:
        return await super().load("only")


class ReprCheckpointer(DictCheckpointer):
    async def load(self, key: str) -> Mapping[str, Any] | None:
        state = self.states.get(key)
        return None if state is None else {"state": repr(state)}


class AsyncMeter:
    async def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        self.last = (usage, cost_usd, model)


class FluentMeter:
    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        return self  # type: ignore[return-value]


class KnownModelsMeter:
    def __init__(self) -> None:
        self.by_model: dict[str, float] = {"m": 0.0}

    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        self.by_model[model] += cost_usd  # KeyError for a model not set up front


class PositiveCostMeter:
    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        if not cost_usd > 0:
            raise ValueError(f"cost must be positive, got {cost_usd}")


# ------------------------------------------------------------------- table


FAILS_ONCE = {"failing_factory": lambda: FakeLLM("pong", fail_times=1)}
SPAWN_OUT = {"stdout": OUT, "stderr": b"", "returncode": 0}
WEATHER_ARGS = {"args": {"city": "Oslo"}}


def cases(
    port: str, *rows: tuple[Any, ...], options: Mapping[str, Any] | None = None
) -> list[Wrong]:
    """A port's rows ``(check, make, got)``, with ``options`` unless a row ends with its own."""
    return [
        Wrong(port, check, make, got, own[0] if own else options or {})
        for check, make, got, *own in rows
    ]


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
    *cases(
        "fetch",
        ("a_page_comes_back_as_served", DictFetch, "dict"),
        ("a_page_comes_back_as_served", Utf8OnlyFetch, "caf"),
        ("the_headers_come_back", DropsHeadersFetch, "gave headers {}"),
        ("an_error_status_is_a_response", RaisesOnErrorStatusFetch, "HTTP 404"),
        ("a_redirect_is_answered_whole", RedirectAsOkFetch, "gave body ''"),
        ("a_redirect_is_answered_whole", FirstStatusFetch, "without its Location"),
        ("the_port_serves_more_than_one_fetch", OneShotFetch, "changed"),
        ("an_unknown_url_raises", InventsFetch, "instead of raising"),
        (
            "a_known_url_gives_a_fetch_response",
            DictFetch,
            "dict",
            {"known_url": "https://example.test/page"},
        ),
    ),
    *cases(
        "search",
        ("search_returns_a_list_of_search_hits", TupleSearch, "tuple"),
        ("search_returns_at_most_k_hits", IgnoresKSearch, "5 hits"),
        ("a_limit_of_zero_gives_no_hits", ZeroMeansDefaultSearch, "returned 5 hit"),
        ("the_limit_takes_the_first_hits", OffByOneSearch, "not the first 1"),
        ("the_limit_takes_the_first_hits", PaddingSearch, "repeated"),
    ),
    *cases(
        "memory",
        ("name_is_a_non_empty_str", NamelessMemory, "str ''"),
        ("query_returns_at_most_k_memory_items", IgnoresKMemory, "3 items"),
        ("a_limit_of_zero_gives_no_items", NoneMeansAllMemory, "returned 3 item(s)"),
        ("query_returns_nothing_it_was_not_given", InventingMemory, "related note"),
        ("a_query_nothing_matches_returns_nothing_new", FallbackMemory, "contract item"),
        ("a_query_nothing_matches_returns_nothing_new", InventingMemory, "related"),
        ("what_is_written_is_read_back", ForgetfulMemory, "lacks"),
        ("a_second_write_keeps_the_first", ReplacingMemory, "lacks"),
        (
            "the_store_cannot_be_changed_through_the_callers_copy",
            AliasingMemory,
            "changed the store",
        ),
    ),
    *cases(
        "tool",
        ("the_properties_have_their_declared_types", StringFlagTool, "'no'", {}),
        ("the_schema_is_advertised_under_the_tools_name", MisnamedSchemaTool, "other", {}),
        ("the_parameters_are_a_json_schema_object", pythonish_schema_tool, "'dict'"),
        ("the_parameters_are_a_json_schema_object", required_typo_tool, "'City'"),
        ("run_answers_valid_args_without_changing_them", MutatingTool, "seen", {}),
        ("run_result_matches_the_output_schema", text_result_tool, "expected object, got string"),
        ("run_result_matches_the_output_schema", string_number_tool, "'celsius'"),
        options=WEATHER_ARGS,
    ),
    *cases(
        "trace",
        ("no_span_is_current_when_none_is_open", StickyTracer, "'s'"),
        (
            "a_span_opened_inside_another_is_its_child",
            NewTraceForChildTracer,
            "not the parent's child",
        ),
        ("the_tracer_needs_no_global_provider", GlobalTracer, "another"),
        ("events_and_attributes_are_always_accepted", AnsweringTracer, "bool True"),
        ("an_exception_in_a_span_propagates", SwallowingTracer, "swallowed"),
        ("spans_in_concurrent_tasks_do_not_see_each_other", SharedStackTracer, "another task"),
    ),
    *cases(
        "ctx",
        ("scope_is_a_scope", lambda: CtxWith(scope="org"), "str 'org'"),
        (
            "the_ctx_trace_nests_spans",
            lambda: CtxWith(trace=NewTraceForChildTracer()),
            "not the parent's child",
        ),
        ("the_ctx_trace_is_the_same_tracer_each_time", FreshTracerCtx, "another tracer"),
        (
            "observer_emit_is_always_accepted",
            lambda: CtxWith(observer=AnsweringObserver()),
            "str 'event'",
        ),
        ("spans_work_across_awaits", lambda: CtxWith(trace=OrderedStackTracer()), "RuntimeError"),
    ),
    *cases(
        "spawn",
        (
            "piped_streams_are_readers_and_an_unpiped_stdin_is_none",
            lambda: PipedStdinCli([CliRun(stdout=OUT)]),
            "stdin=DEVNULL gave stdin",
        ),
        ("stdout_gives_the_programs_bytes_then_eof", codex(b"other\n"), "other"),
        (
            "stdout_eof_comes_before_the_exit_code",
            lambda: EarlyExitCli([CliRun(stdout=OUT)]),
            "while stdout had not reached EOF",
        ),
        ("stderr_is_readable_after_stdout_eof", codex(stderr=b"oops\n"), "oops"),
        (
            "terminate_and_kill_after_exit_are_harmless",
            lambda: RaisingKillCli([CliRun(stdout=OUT)]),
            "ProcessLookupError",
        ),
        (
            "terminate_and_kill_after_exit_are_harmless",
            lambda: raw_asyncio_spawn,
            "ProcessLookupError",
            {},
        ),
        ("terminate_ends_a_running_process", lambda: DeafCli([CliRun(stdout=OUT)]), "expected -15"),
        ("kill_ends_a_running_process", lambda: DeafCli([CliRun(stdout=OUT)]), "expected -9"),
        ("kill_ends_a_running_process", lambda: deaf_asyncio_spawn, "still running 5 s later", {}),
        (
            "the_line_limit_reaches_the_streams",
            lambda: forwards_only_the_pipes_spawn,
            "without ValueError",
            {},
        ),
        (
            "cwd_env_and_session_reach_the_child",
            lambda: forwards_only_the_pipes_spawn,
            "not cwd=",
            {},
        ),
        options=SPAWN_OUT,
    ),
    *cases(
        "compactor",
        ("compact_returns_a_list_of_messages", SummaryTextCompactor, "str 'summary"),
        ("compact_leaves_the_callers_transcript_unchanged", InPlaceCompactor, "went from 13 to 3"),
        ("compact_returns_a_new_list", IdentityCompactor, "very list"),
        ("compact_returns_a_new_list", InPlaceCompactor, "very list"),
    ),
    *cases(
        "grounder",
        ("ground_returns_a_str", NoneWhenNothingGrounder, "NoneType"),
        ("concurrent_grounds_do_not_mix", SharedStateGrounder, "beside"),
    ),
    *cases(
        "asker",
        ("ask_answers_with_a_bool", WordAsker, "str 'yes'"),
        ("a_cancelled_ask_raises_cancelled_error", DenyOnCancelAsker, "bool False"),
    ),
    *cases(
        "checkpointer",
        ("load_of_an_unsaved_key_is_none", KeyErrorCheckpointer, "KeyError"),
        ("a_saved_state_loads_back_equal", ReprCheckpointer, "'state'"),
        ("a_second_save_replaces_the_first", MergingCheckpointer, "first_only"),
        (
            "the_saved_state_cannot_be_changed_through_a_copy",
            ReferenceCheckpointer,
            "changed by the caller",
        ),
        ("keys_are_independent", OneSlotCheckpointer, "99"),
    ),
    *cases(
        "meter",
        ("record_returns_none", AsyncMeter, "coroutine"),
        ("record_returns_none", FluentMeter, "FluentMeter"),
        ("record_takes_any_model_and_zero_charges", KnownModelsMeter, "KeyError"),
        ("record_takes_any_model_and_zero_charges", PositiveCostMeter, "must be positive"),
    ),
]


def _failure(violation: ContractViolation, check: str) -> CheckFailure:
    for failure in violation.failures:
        if failure.check == check:
            return failure
    raise AssertionError(f"{check} did not fail; the failures were {violation.failures}")


@pytest.mark.agentkit(verify=False, real_processes=True)  # wrong on purpose; real children
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_the_function_form_reports_the_broken_rule(case: Wrong) -> None:
    port = PORTS[case.port]
    with pytest.raises(ContractViolation) as caught:
        await port.function(case.make, **case.options)
    failure = _failure(caught.value, case.check)
    assert failure.rule == port.suite.by_name(case.check).rule
    assert case.got in failure.got
    message = str(caught.value)
    assert case.check in message
    assert failure.rule in message
    assert failure.got in message


@pytest.mark.agentkit(verify=False, real_processes=True)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_the_class_form_reports_the_broken_rule(case: Wrong) -> None:
    port = PORTS[case.port]
    with pytest.raises(pytest.fail.Exception) as caught:
        await run_class_form(port.contract, case.check, case.make, case.options)
    message = str(caught.value)
    rule = port.suite.by_name(case.check).rule
    assert case.check in message
    assert rule in message
    assert case.got in message
    assert caught.value.pytrace is False  # the message is the report: no runner frames


def test_every_check_has_a_wrong_implementation_and_every_port_two() -> None:
    covered = {(PORTS[c.port].suite.port, c.check) for c in CASES}
    every = {(p.suite.port, name) for p in PORTS.values() for name in p.suite.names()}
    assert every - covered == set()
    per_port = {key: len({c.make for c in CASES if c.port == key}) for key in PORTS}
    assert min(per_port.values()) >= 2, per_port


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


URL = "https://example.test/page"


@pytest.mark.parametrize(
    ("run", "returned", "port"),
    [
        (lambda f: contracts.check_clock_port(f), FakeSearch(HITS), "ClockPort"),
        (lambda f: contracts.check_llm_port(f), FakeClock(), "LLMPort"),
        (lambda f: contracts.check_fetch_port(f), "https://example.test", "FetchPort"),
        (lambda f: contracts.check_search_port(f), None, "SearchPort"),
        (lambda f: contracts.check_memory_source(f), FakeSearch(HITS), "MemorySource"),
        (lambda f: contracts.check_tool(f), FakeMemory(), "Tool"),
        (lambda f: contracts.check_trace_port(f), FakeCtx(), "TracePort"),
        (lambda f: contracts.check_ctx(f), RecordingTracer(), "Ctx"),
        (lambda f: contracts.check_spawn_port(f), 42, "SpawnPort"),
        (lambda f: contracts.check_compactor(f), FakeClock(), "Compactor"),
        (lambda f: contracts.check_grounder(f), FakeClock(), "Grounder"),
        (lambda f: contracts.check_asker(f), FakeClock(), "Asker"),
        (lambda f: contracts.check_checkpointer(f), FakeClock(), "Checkpointer"),
        (lambda f: contracts.check_meter(f), FakeClock(), "Meter"),
    ],
    ids=lambda v: v if isinstance(v, str) and not v.startswith("http") else None,
)
async def test_a_factory_of_the_wrong_kind_is_refused_with_a_typed_error(
    run: Callable[[Callable[[], Any]], Any], returned: object, port: str
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

    assert await contracts.check_clock_port(make) == []
    with pytest.raises(ContractFactoryError, match="not callable"):
        await contracts.check_clock_port(FakeClock())  # type: ignore[arg-type]


async def test_a_skipped_check_is_not_run_and_a_misspelt_skip_is_refused() -> None:
    skip = ["now_is_a_float", "sleep_moves_now_by_the_seconds_slept"]
    assert await contracts.check_clock_port(IntClock, skip=skip) == skip
    with pytest.raises(KeyError, match="no check 'now_is_float'"):
        await contracts.check_clock_port(FakeClock, skip=["now_is_float"])


# ----------------------------------------- the class form refuses what the function refuses


async def test_an_unknown_option_key_fails_the_class_form_naming_it() -> None:
    from agentkit.core._internal.arguments import ArgumentValueError

    with pytest.raises(ArgumentValueError) as caught:
        await run_class_form(
            contracts.FetchPortContract,
            "a_page_comes_back_as_served",
            HttpClientFetch,
            {"knwon_url": URL},
        )
    text = str(caught.value)
    assert "contract_options['knwon_url']" in text
    assert "did you mean 'known_url'?" in text
    with pytest.raises(TypeError, match="knwon_url"):
        await contracts.check_fetch_port(HttpClientFetch, knwon_url=URL)  # type: ignore[call-arg]


async def test_a_port_options_fixture_is_checked_too() -> None:
    from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError

    class Request:
        def __init__(self, value: object) -> None:
            self.value = value

        def getfixturevalue(self, name: str) -> object:
            return self.value

    tests: Any = type("TestUsers", (contracts.SearchPortContract,), {})()
    with pytest.raises(ArgumentValueError, match=r"port_options\['qeury'\]"):
        await tests.test_search_returns_at_most_k_hits(
            lambda: FakeSearch(HITS), Request({"qeury": "x"})
        )
    with pytest.raises(ArgumentTypeError, match="port_options"):
        await tests.test_search_returns_at_most_k_hits(lambda: FakeSearch(HITS), Request(["query"]))


def test_a_required_option_missing_is_refused_like_a_missing_keyword() -> None:
    from agentkit.core._internal.arguments import ArgumentValueError

    suite = Suite(
        "Demo", (), CLOCK_SUITE.protocol, options=("needed",), required_options=("needed",)
    )
    with pytest.raises(ArgumentValueError, match="required option 'needed'"):
        suite.validate({}, "TestDemo", "contract_options")
    suite.validate({"needed": 1}, "TestDemo", "contract_options")


@pytest.mark.agentkit(real_processes=True)
async def test_asyncios_own_process_gets_the_same_answer_every_run() -> None:
    # Its terminate() after wait() races the transport's closing; the check lets the loop
    # settle first, so the answer does not depend on when the exit was seen.
    answers = set()
    for _ in range(10):
        with pytest.raises(ContractViolation) as caught:
            await contracts.check_spawn_port(lambda: raw_asyncio_spawn)
        answers.add(tuple(f.check for f in caught.value.failures))
    assert answers == {("terminate_and_kill_after_exit_are_harmless",)}


def _block_until_exited(pid: int) -> None:
    """Block the loop's thread until the child has exited (up to 10 s)."""
    for _ in range(1000):
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT):
                return
        except ChildProcessError:  # already reaped by asyncio's watcher thread
            return
        time.sleep(0.01)


def substituting_spawn_exited_before_the_signal() -> Callable[..., Any]:
    """A correct spawn that runs its own program in place of argv (as a recording replay does).

    It hands the process back only once the child has exited, before the
    loop has seen that: the race a busy machine makes now and then, made
    every time. A signal then finds nothing to end, which is no fault of the
    spawn's.
    """

    async def spawn(program: str, *args: str, **kw: Any) -> Any:
        process = await asyncio.create_subprocess_exec(*contracts.program_argv(OUT), **kw)
        _block_until_exited(process.pid)  # no await: the loop must not see the exit first
        assert process.returncode is None  # the loop has not seen the exit yet
        return process

    return spawn


@pytest.mark.agentkit(real_processes=True)
async def test_a_child_that_ended_before_the_signal_fails_no_check() -> None:
    only = ["terminate_ends_a_running_process", "kill_ends_a_running_process"]
    for _ in range(3):
        assert (
            await SPAWN_SUITE.run(substituting_spawn_exited_before_the_signal, SPAWN_OUT, only=only)
            == []
        )


@pytest.mark.agentkit(verify=False)
async def test_a_double_that_ignores_the_signal_is_not_excused_as_having_ended() -> None:
    # Its whole recording comes back after kill(), as from a child that ended first; but it
    # is no child the loop started, so the excuse a real child gets does not cover it.
    with pytest.raises(ContractViolation) as caught:
        await SPAWN_SUITE.run(
            lambda: DeafCli([CliRun(stdout=OUT)]), SPAWN_OUT, only=["kill_ends_a_running_process"]
        )
    assert "expected -9" in caught.value.got


# --------------------------------------- the correct bases of the wrong ones pass


async def test_a_fetcher_over_http_client_passes_on_a_real_loopback_server() -> None:
    assert await contracts.check_fetch_port(HttpClientFetch) == [
        "a_known_url_gives_a_fetch_response"
    ]


async def test_a_fetcher_returning_redirects_as_themselves_passes() -> None:
    assert await contracts.check_fetch_port(NoRedirectFetch) == [
        "a_known_url_gives_a_fetch_response"
    ]


async def test_a_store_that_keeps_writes_passes_every_check() -> None:
    assert await contracts.check_memory_source(ListMemory) == []


async def test_a_checkpointer_that_copies_in_and_out_passes() -> None:
    assert await contracts.check_checkpointer(DictCheckpointer) == []


class TestAFetcherAgainstTheServedSite(contracts.FetchPortContract):
    @pytest.fixture
    def make_port(self) -> object:
        return HttpClientFetch


async def test_the_served_site_answers_what_it_describes() -> None:
    with contracts.serve_contract_site() as site:
        assert site.base_url.startswith("http://127.0.0.1:")
        fetcher = HttpClientFetch()
        for url, expected in site.responses().items():
            got = await fetcher.fetch(url)
            assert (got.status, got.body) == (expected.status, expected.body), url
            assert {k.lower(): v for k, v in got.headers.items()}.items() >= {
                k.lower(): v for k, v in expected.headers.items()
            }.items()
