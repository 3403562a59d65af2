"""A second set of implementations, written the way users write them, run through both forms.

test_contracts_can_fail.py holds one wrong implementation per check. This
file holds more: each wrong one is a mistake seen in real code (a fetcher
that trusts UTF-8, a store whose ``k=0`` means "all", a tracer with a
class-level stack, a meter that divides by the token count), and each
correct one is built on a different library or design than the kit's own
(urllib, http.client, raw asyncio streams, requests, sqlite, anyio,
``asyncio.create_subprocess_exec``). Every wrong one must fail the check
named, with that check's rule and what it did, through the suite function
AND the pytest base class; every correct one must pass both, skipping
nothing it was not told to skip.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import datetime
import email.message
import http.client
import itertools
import json
import sqlite3
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import pytest

from agentkit.core.noop import NoopObserver, NoopSpan
from agentkit.core.testing.contracts import ContractViolation
from agentkit.core.types import (
    ChatResponse,
    Delta,
    FetchResponse,
    MemoryItem,
    Message,
    Scope,
    SearchHit,
    ToolSchema,
    TraceContext,
    Usage,
)
from tests.support.contract_bases import CtxWith, ListMemory, StackTracer
from tests.support.contract_runs import PORTS, Wrong, run_class_form

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


# ----------------------------------------------------------------- fetchers


def _charset(headers: email.message.Message) -> str:
    return headers.get_content_charset() or "utf-8"


class UrllibFetch:
    """Correct: urllib in a thread, an HTTPError read as the response it is."""

    async def fetch(self, url: str) -> FetchResponse:
        return await asyncio.to_thread(self._get, url)

    def _get(self, url: str) -> FetchResponse:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                status, headers, raw = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            with error:  # it holds the connection: unclosed, it warns when collected
                status, headers, raw = error.code, error.headers, error.read()
        return FetchResponse(url, status, raw.decode(_charset(headers)), dict(headers.items()))


class StreamsFetch:
    """Correct: HTTP/1.1 by hand over asyncio streams; a redirect returned as itself."""

    async def fetch(self, url: str) -> FetchResponse:
        parts = urllib.parse.urlsplit(url)
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port or 80)
        try:
            target = parts.path or "/"
            writer.write(
                f"GET {target} HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: close\r\n\r\n".encode()
            )
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
            await writer.wait_closed()
        head, _, body = raw.partition(b"\r\n\r\n")
        status_line, *lines = head.decode("iso-8859-1").split("\r\n")
        message = email.message.Message()
        for line in lines:
            name, _, value = line.partition(":")
            message[name.strip()] = value.strip()
        return FetchResponse(
            url, int(status_line.split()[1]), body.decode(_charset(message)), dict(message.items())
        )


class RequestsFetch:
    """Correct: requests in a thread, redirects followed, no raise_for_status()."""

    async def fetch(self, url: str) -> FetchResponse:
        requests = pytest.importorskip("requests")
        response = await asyncio.to_thread(requests.get, url, timeout=10)
        return FetchResponse(url, response.status_code, response.text, dict(response.headers))


class Httpx2Fetch:
    """Correct: an httpx-style async client (redirects returned as themselves by default)."""

    async def fetch(self, url: str) -> FetchResponse:
        httpx2 = pytest.importorskip("httpx2")
        async with httpx2.AsyncClient() as client:
            response = await client.get(url)
        return FetchResponse(url, response.status_code, response.text, dict(response.headers))


class Utf8Fetch(UrllibFetch):
    """Decodes every body as UTF-8, whatever charset the server declared."""

    def _get(self, url: str) -> FetchResponse:
        got = super()._get(url)
        try:
            response = urllib.request.urlopen(url, timeout=10)
        except urllib.error.HTTPError as error:
            response = error  # closed below: unclosed, it warns when collected
        with response:
            raw = response.read()
        return FetchResponse(url, got.status, raw.decode("utf-8", "replace"), got.headers)


class RaiseForStatusFetch(RequestsFetch):
    """The requests habit: raise_for_status() on every response."""

    async def fetch(self, url: str) -> FetchResponse:
        requests = pytest.importorskip("requests")
        response = await asyncio.to_thread(requests.get, url, timeout=10)
        response.raise_for_status()
        return FetchResponse(url, response.status_code, response.text, dict(response.headers))


class BytesReprFetch(UrllibFetch):
    """str(bytes) instead of bytes.decode(): the body reads "b'...'"."""

    def _get(self, url: str) -> FetchResponse:
        got = super()._get(url)
        return FetchResponse(url, got.status, str(got.body.encode()), got.headers)


class EmptyResponseOnErrorFetch(UrllibFetch):
    """Turns a connection error into a made-up empty 503."""

    def _get(self, url: str) -> FetchResponse:
        try:
            return super()._get(url)
        except OSError:
            return FetchResponse(url, 503, "", {})


class HostCacheFetch(UrllibFetch):
    """Caches by host: every page of a site gets the first page's answer."""

    def __init__(self) -> None:
        self.cache: dict[str, FetchResponse] = {}

    def _get(self, url: str) -> FetchResponse:
        host = urllib.parse.urlsplit(url).netloc
        if host not in self.cache:
            self.cache[host] = super()._get(url)
        cached = self.cache[host]
        return FetchResponse(url, cached.status, cached.body, cached.headers)


class OneConnectionFetch:
    """One http.client connection, closed after the first answer and never reopened."""

    def __init__(self) -> None:
        self.connection: http.client.HTTPConnection | None = None
        self.used = False

    async def fetch(self, url: str) -> FetchResponse:
        return await asyncio.to_thread(self._get, url)

    def _get(self, url: str) -> FetchResponse:
        parts = urllib.parse.urlsplit(url)
        if self.connection is None:
            self.connection = http.client.HTTPConnection(parts.netloc, timeout=10)
        if self.used:
            raise ConnectionError("connection already closed")
        self.connection.request("GET", parts.path or "/")
        response = self.connection.getresponse()
        raw = response.read()
        self.connection.close()
        self.used = True
        return FetchResponse(
            url, response.status, raw.decode(_charset(response.msg)), dict(response.getheaders())
        )


class StatusOfTheRedirectFetch(UrllibFetch):
    """Follows a redirect, but reports the redirect's own 3xx status with the page's body."""

    def _get(self, url: str) -> FetchResponse:
        got = super()._get(url)
        path = urllib.parse.urlsplit(url).path
        codes = {"/moved": 301, "/found": 302, "/temporary": 307}
        return FetchResponse(url, codes.get(path, got.status), got.body, got.headers)


class FinalUrlFetch(UrllibFetch):
    """Reports the URL the page was finally served from (geturl()), not the one asked for."""

    def _get(self, url: str) -> FetchResponse:
        got = super()._get(url)
        return FetchResponse(url + "?served", got.status, got.body, got.headers)


# ---------------------------------------------------------------- search

DOCS = [
    SearchHit(f"agentkit page {n}", f"https://agentkit.test/{n}", f"snippet {n}") for n in range(4)
]


class ListSearch:
    """Correct: a filter over a list, the limit sliced."""

    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return [h for h in DOCS if query in h.title][:k]


class ZeroMeansAllSearch(ListSearch):
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return [h for h in DOCS if query in h.title][: k or None]


class TupleSearch(ListSearch):
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return tuple(await super().search(query, k))  # type: ignore[return-value]


class LastHitsSearch(ListSearch):
    """hits[-k:]: the k least relevant."""

    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        hits = [h for h in DOCS if query in h.title]
        return hits[-k:] if k else []


class PaddingSearch(ListSearch):
    """Always k hits: cycles the hits it has to fill the page."""

    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        hits = [h for h in DOCS if query in h.title]
        return list(itertools.islice(itertools.cycle(hits), k))


class DictSearch(ListSearch):
    async def search(self, query: str, k: int = 10) -> list[SearchHit]:
        return [{"title": h.title, "url": h.url} for h in await super().search(query, k)]  # type: ignore[misc]


# ---------------------------------------------------------------- memory


class SqliteMemory:
    """Correct: an in-memory sqlite table, LIKE for the query, rows copied out."""

    name = "sqlite"

    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("create table items (text text, source text)")

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        rows = self.db.execute(
            "select text, source from items where text like ? order by rowid limit ?",
            (f"%{query}%", k),
        )
        return [MemoryItem(text, source) for text, source in rows]

    async def write(self, items: Sequence[MemoryItem]) -> None:
        self.db.executemany("insert into items values (?, ?)", [(i.text, i.source) for i in items])


class RowTupleMemory(SqliteMemory):
    """Hands back sqlite's rows as they come: tuples."""

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        rows = self.db.execute(
            "select text, source from items where text like ? limit ?", (f"%{query}%", k)
        )
        return list(rows)


class ZeroMeansAllMemory(SqliteMemory):
    """LIMIT -1 for k=0 (sqlite's "no limit"), so a caller asking for none gets all."""

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        return await super().query(query, k or -1, where)


class ReplacingMemory(SqliteMemory):
    """write() = "delete from items" then insert: the store is the last write."""

    async def write(self, items: Sequence[MemoryItem]) -> None:
        self.db.execute("delete from items")
        await super().write(items)


class RecentFallbackMemory(SqliteMemory):
    """Nothing matches? Then the most recent items, to be helpful."""

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        found = await super().query(query, k, where)
        if found:
            return found
        rows = self.db.execute("select text, source from items order by rowid desc limit ?", (k,))
        return [MemoryItem(text, source) for text, source in rows]


class SharedListMemory(ListMemory):
    """Hands its own list back when everything matches."""

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]:
        if all(query in i.text for i in self.items) and len(self.items) <= k:
            return self.items
        return [i for i in self.items if query in i.text][:k]


class UnnamedMemory(SqliteMemory):
    name = ""


# ---------------------------------------------------------------- tools


class WeatherTool:
    """Correct: a plain class, a JSON Schema for its parameters and for its output."""

    name = "weather"
    description = "The weather in a city."
    side_effecting = False
    requires_approval = False
    parameters: Mapping[str, Any] = MappingProxyType(
        {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    )

    @property
    def output_schema(self) -> dict[str, Any] | None:
        return {
            "type": "object",
            "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}},
            "required": ["city", "celsius"],
        }

    @property
    def schema(self) -> ToolSchema:
        return ToolSchema(self.name, self.description, self.parameters)

    async def run(self, args: dict[str, Any]) -> Any:
        return {"city": args["city"], "celsius": 7.5}


class ShorthandParametersTool(WeatherTool):
    """{"city": "string"}: the shorthand some frameworks accept, not JSON Schema."""

    parameters = MappingProxyType({"city": "string"})


class PoppingTool(WeatherTool):
    async def run(self, args: dict[str, Any]) -> Any:
        return {"city": args.pop("city"), "celsius": 7.5}


class JsonTextTool(WeatherTool):
    """Serialises its answer itself: a str where the output schema says object."""

    async def run(self, args: dict[str, Any]) -> Any:
        return json.dumps({"city": args["city"], "celsius": 7.5})


class RenamedSchemaTool(WeatherTool):
    @property
    def schema(self) -> ToolSchema:
        return ToolSchema("get_weather", self.description, self.parameters)


class StringFlagTool(WeatherTool):
    side_effecting = "no"  # type: ignore[assignment]


class MissingFieldTool(WeatherTool):
    """Forgets a required output field when the city is unknown to it."""

    async def run(self, args: dict[str, Any]) -> Any:
        return {"city": args["city"]}


# ------------------------------------------------------------ trace, ctx

_CURRENT: contextvars.ContextVar[tuple[TraceContext, ...]] = contextvars.ContextVar(
    "red_team_spans", default=()
)


class ContextVarTracer:
    """Correct: one context variable per tracer instance, ids from a counter."""

    def __init__(self) -> None:
        self._stack: contextvars.ContextVar[tuple[TraceContext, ...]] = contextvars.ContextVar(
            f"tracer-{id(self)}", default=()
        )
        self._ids = itertools.count(1)

    @contextlib.contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:
        stack = self._stack.get()
        trace_id = stack[0].trace_id if stack else f"t{next(self._ids)}"
        token = self._stack.set((*stack, TraceContext(trace_id, f"s{next(self._ids)}")))
        try:
            yield NoopSpan()
        finally:
            self._stack.reset(token)

    def current_span_id(self) -> TraceContext | None:
        stack = self._stack.get()
        return stack[-1] if stack else None

    def add_event_to_current_span(self, name: str, **fields: Any) -> None:
        return None


class ClassStackTracer(StackTracer):
    """A mutable class attribute: every tracer shares one stack."""

    stack: list[TraceContext] = []  # noqa: RUF012  (the mistake on purpose)

    def __init__(self) -> None:
        """Keeps the class's list: no stack of its own."""

    def opened(self, name: str) -> TraceContext:
        parent = self.stack[-1] if self.stack else None
        trace_id = parent.trace_id if parent else f"t{len(self.stack)}"
        return TraceContext(trace_id, f"s{len(self.stack)}-{name}")


class LoggingTracer(ContextVarTracer):
    """Logs an exception raised in a span and carries on: the caller never sees it."""

    @contextlib.contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:
        with super().span(name, kind, **attrs) as span:
            try:
                yield span
            except Exception as exc:
                print(f"span {name} failed: {exc}")


class NoFinallyTracer(ContextVarTracer):
    """Resets the stack after the body, but not in a finally: an exception leaves it open."""

    @contextlib.contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:
        stack = self._stack.get()
        trace_id = stack[0].trace_id if stack else f"t{next(self._ids)}"
        self._stack.set((*stack, TraceContext(trace_id, f"s{next(self._ids)}")))
        yield NoopSpan()
        self._stack.set(stack)


def plain_ctx() -> CtxWith:
    """Correct: a dataclass holding one scope, one tracer and one observer."""
    return CtxWith(trace=ContextVarTracer())


class FreshObserverCtx:
    """Builds a new observer on every read (a property that should have been a field)."""

    def __init__(self) -> None:
        self.scope = Scope()
        self.trace = ContextVarTracer()

    @property
    def observer(self) -> NoopObserver:
        return NoopObserver()


def dict_scope_ctx() -> CtxWith:
    """A plain dict where the Scope belongs."""
    return CtxWith(scope={"user": "u1"})


# ------------------------------------------------------------------ spawn


async def exec_spawn(program: str, *args: str, **kw: Any) -> Any:
    """Correct: asyncio.create_subprocess_exec, signals after exit made harmless."""
    process = await asyncio.create_subprocess_exec(program, *args, **kw)
    return _Harmless(process)


class _Harmless:
    """asyncio's Process with terminate()/kill() after exit raising nothing."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process

    def __getattr__(self, name: str) -> Any:
        return getattr(self._process, name)

    def terminate(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self._process.terminate()

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self._process.kill()


async def merged_stderr_spawn(program: str, *args: str, **kw: Any) -> Any:
    """stderr=STDOUT 'so nothing is lost': the diagnostics land in the JSON stream."""
    kw["stderr"] = subprocess.STDOUT
    return await exec_spawn(program, *args, **kw)


async def terminate_is_kill_spawn(program: str, *args: str, **kw: Any) -> Any:
    """terminate() sends SIGKILL: the child never gets to clean up."""
    process = await exec_spawn(program, *args, **kw)
    process.terminate = process.kill
    return process


async def inherited_env_spawn(program: str, *args: str, **kw: Any) -> Any:
    """Drops the env it was given: the child inherits this process's environment."""
    kw.pop("env", None)
    return await exec_spawn(program, *args, **kw)


async def no_session_spawn(program: str, *args: str, **kw: Any) -> Any:
    """Forgets start_new_session, so a signal to the group reaches the caller too."""
    kw.pop("start_new_session", None)
    return await exec_spawn(program, *args, **kw)


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


# --------------------------------------------------- compactor, grounder, asker


class KeepLastCompactor:
    """Correct: the system message and the last four, in a new list."""

    async def compact(self, messages: Sequence[Message]) -> list[Message]:
        head = [m for m in messages[:1] if m.role == "system"]
        return [*head, *list(messages)[-4:]]


class SliceCompactor:
    """messages[-4:]: a tuple in, a tuple out."""

    async def compact(self, messages: Sequence[Message]) -> list[Message]:
        return messages[-4:]  # type: ignore[return-value]


class DictMessagesCompactor(KeepLastCompactor):
    """Returns the provider's dict shape instead of Message objects."""

    async def compact(self, messages: Sequence[Message]) -> list[Message]:
        kept = await super().compact(messages)
        return [{"role": m.role, "content": m.content} for m in kept]  # type: ignore[misc]


class DictGrounder:
    """Correct: a dict of known topics; nothing known is the empty string."""

    async def ground(self, ctx: Any, task: str) -> str:
        await asyncio.sleep(0)
        return "agentkit is a test kit" if "agentkit" in task else ""


class ListGrounder:
    """Returns the documents it found, not the block made of them."""

    async def ground(self, ctx: Any, task: str) -> str:
        return ["agentkit is a test kit"] if "agentkit" in task else []  # type: ignore[return-value]


class LastTaskGrounder:
    """Keeps the task on self across an await: two grounds at once answer each other's."""

    async def ground(self, ctx: Any, task: str) -> str:
        self.task = task
        await asyncio.sleep(0.01)
        return "agentkit is a test kit" if "agentkit" in self.task else ""


class QueueAsker:
    """Correct: an asyncio.Queue a UI answers through (the answer option plays the UI)."""

    def __init__(self) -> None:
        self.answers: asyncio.Queue[bool] = asyncio.Queue()

    async def ask(self, question: str, *, tool_call: Any) -> bool:
        return await self.answers.get()


async def _approve(asker: Any) -> None:
    await asker.answers.put(True)


class IntAsker(QueueAsker):
    """Answers 1/0 from a form field."""

    async def ask(self, question: str, *, tool_call: Any) -> bool:
        return int(await self.answers.get())  # type: ignore[return-value]


class TimeoutDenyAsker(QueueAsker):
    """Treats any interruption, a cancel included, as "denied"."""

    async def ask(self, question: str, *, tool_call: Any) -> bool:
        try:
            return await self.answers.get()
        except asyncio.CancelledError:
            return False


# --------------------------------------------------- checkpointer, meter


class SqliteCheckpointer:
    """Correct: JSON text in sqlite, so what is saved and loaded are copies by construction."""

    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("create table states (key text primary key, state text)")

    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        self.db.execute(
            "insert or replace into states values (?, ?)", (key, json.dumps(dict(state)))
        )

    async def load(self, key: str) -> Mapping[str, Any] | None:
        row = self.db.execute("select state from states where key = ?", (key,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))


class EmptyDictCheckpointer(SqliteCheckpointer):
    """An unsaved key loads as {} ("nothing saved yet")."""

    async def load(self, key: str) -> Mapping[str, Any] | None:
        return await super().load(key) or {}


class ShallowCopyCheckpointer:
    """dict(state): a shallow copy, so the nested messages list is still the caller's."""

    def __init__(self) -> None:
        self.states: dict[str, dict[str, Any]] = {}

    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        self.states[key] = dict(state)

    async def load(self, key: str) -> Mapping[str, Any] | None:
        state = self.states.get(key)
        return None if state is None else dict(state)


class AppendingCheckpointer(SqliteCheckpointer):
    """'insert' without 'or replace' and a read of the first row: the first save wins."""

    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("create table states (key text, state text)")

    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        self.db.execute("insert into states values (?, ?)", (key, json.dumps(dict(state))))

    async def load(self, key: str) -> Mapping[str, Any] | None:
        row = self.db.execute(
            "select state from states where key = ? order by rowid", (key,)
        ).fetchone()
        return None if row is None else dict(json.loads(row[0]))


class TotalsMeter:
    """Correct: running totals per model."""

    def __init__(self) -> None:
        self.cost: dict[str, float] = {}

    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        self.cost[model] = self.cost.get(model, 0.0) + cost_usd


class PerTokenMeter(TotalsMeter):
    """Tracks cost per output token: divides by zero on a zero Usage."""

    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        super().record(usage, cost_usd, model=model)
        self.per_token = cost_usd / usage.output_tokens


class ChainingMeter(TotalsMeter):
    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        super().record(usage, cost_usd, model=model)
        return True  # type: ignore[return-value]


# ------------------------------------------------------------------ table


SEARCH = {"query": "agentkit"}
WEATHER = {"args": {"city": "Oslo"}}
FAILING = {"failing_factory": lambda: EchoLLM(fail=True)}
ASK = {"answer": _approve}


def fn(spawn: Callable[..., Any]) -> Callable[[], Any]:
    """A factory of a function-form implementation, named after it."""

    def make() -> Any:
        return spawn

    make.__name__ = spawn.__name__
    return make


def failing(cls: type[EchoLLM]) -> Mapping[str, Any]:
    return {"failing_factory": lambda: cls(fail=True)}


WRONG = [
    Wrong("clock", "sleep_zero_yields_to_the_loop", BlockingClock, "without"),
    Wrong("clock", "now_is_a_float", DatetimeClock, "datetime"),
    Wrong("clock", "negative_sleep_raises_value_error", ClampingClock, "returned"),
    Wrong("clock", "a_sleep_can_be_cancelled", SwallowingClock, "finished"),
    Wrong("clock", "sleep_zero_yields_to_the_loop", ManualClock, "without"),
    Wrong("clock", "sleep_moves_now_by_the_seconds_slept", MillisecondSleepClock, "only"),
    Wrong("fetch", "a_page_comes_back_as_served", Utf8Fetch, "caf"),
    Wrong("fetch", "an_error_status_is_a_response", RaiseForStatusFetch, "HTTPError"),
    Wrong("fetch", "a_page_comes_back_as_served", BytesReprFetch, "b'h"),
    Wrong("fetch", "an_unknown_url_raises", EmptyResponseOnErrorFetch, "status=503"),
    Wrong("fetch", "a_page_comes_back_as_served", HostCacheFetch, "caf"),
    Wrong("fetch", "the_port_serves_more_than_one_fetch", OneConnectionFetch, "ConnectionError"),
    Wrong("fetch", "a_redirect_is_answered_whole", StatusOfTheRedirectFetch, "Location"),
    Wrong("fetch", "a_page_comes_back_as_served", FinalUrlFetch, "?served"),
    Wrong("search", "a_limit_of_zero_gives_no_hits", ZeroMeansAllSearch, "search('agentkit', 0)"),
    Wrong("search", "search_returns_a_list_of_search_hits", TupleSearch, "tuple ("),
    Wrong("search", "the_limit_takes_the_first_hits", LastHitsSearch, "not the first 1"),
    Wrong("search", "the_limit_takes_the_first_hits", PaddingSearch, "repeated"),
    Wrong("search", "search_returns_a_list_of_search_hits", DictSearch, "item 0 is dict"),
    Wrong("memory", "query_returns_at_most_k_memory_items", RowTupleMemory, "item 0 is tuple"),
    Wrong("memory", "a_limit_of_zero_gives_no_items", ZeroMeansAllMemory, "query('agentkit', 0)"),
    Wrong("memory", "a_second_write_keeps_the_first", ReplacingMemory, "lacks"),
    Wrong("memory", "a_query_nothing_matches_returns_nothing_new", RecentFallbackMemory, "no item"),
    Wrong(
        "memory", "the_store_cannot_be_changed_through_the_callers_copy", SharedListMemory, "query"
    ),
    Wrong("memory", "name_is_a_non_empty_str", UnnamedMemory, "str ''"),
    Wrong(
        "tool",
        "the_parameters_are_a_json_schema_object",
        ShorthandParametersTool,
        "type",
        WEATHER,
    ),
    Wrong("tool", "run_answers_valid_args_without_changing_them", PoppingTool, "city", WEATHER),
    Wrong("tool", "run_result_matches_the_output_schema", JsonTextTool, "str", WEATHER),
    Wrong(
        "tool", "the_schema_is_advertised_under_the_tools_name", RenamedSchemaTool, "get_weather"
    ),
    Wrong("tool", "the_properties_have_their_declared_types", StringFlagTool, "'no'", WEATHER),
    Wrong("tool", "run_result_matches_the_output_schema", MissingFieldTool, "celsius", WEATHER),
    Wrong("trace", "the_tracer_needs_no_global_provider", ClassStackTracer, "other"),
    Wrong("trace", "an_exception_in_a_span_propagates", LoggingTracer, "swallowed"),
    Wrong("trace", "an_exception_in_a_span_propagates", NoFinallyTracer, "current"),
    Wrong(
        "ctx",
        "the_ctx_trace_is_the_same_tracer_each_time",
        FreshObserverCtx,
        "a different observer on each read",
    ),
    Wrong("ctx", "scope_is_a_scope", dict_scope_ctx, "dict"),
    Wrong("spawn", "stderr_is_readable_after_stdout_eof", fn(merged_stderr_spawn), "None"),
    Wrong("spawn", "terminate_ends_a_running_process", fn(terminate_is_kill_spawn), "-9"),
    Wrong("spawn", "cwd_env_and_session_reach_the_child", fn(inherited_env_spawn), "lacked"),
    Wrong("spawn", "cwd_env_and_session_reach_the_child", fn(no_session_spawn), "session"),
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
    Wrong("compactor", "compact_returns_a_list_of_messages", SliceCompactor, "tuple"),
    Wrong(
        "compactor", "compact_returns_a_list_of_messages", DictMessagesCompactor, "item 0 is dict"
    ),
    Wrong("grounder", "ground_returns_a_str", ListGrounder, "list"),
    Wrong("grounder", "concurrent_grounds_do_not_mix", LastTaskGrounder, "beside"),
    Wrong("asker", "ask_answers_with_a_bool", IntAsker, "int 1", ASK),
    Wrong("asker", "a_cancelled_ask_raises_cancelled_error", TimeoutDenyAsker, "False", ASK),
    Wrong("checkpointer", "load_of_an_unsaved_key_is_none", EmptyDictCheckpointer, "{}"),
    Wrong(
        "checkpointer",
        "the_saved_state_cannot_be_changed_through_a_copy",
        ShallowCopyCheckpointer,
        "changed",
    ),
    Wrong("checkpointer", "a_second_save_replaces_the_first", AppendingCheckpointer, "not"),
    Wrong("meter", "record_takes_any_model_and_zero_charges", PerTokenMeter, "ZeroDivision"),
    Wrong("meter", "record_returns_none", ChainingMeter, "bool True"),
]


@dataclass(frozen=True)
class Right:
    port: str
    make: Callable[[], Any]
    options: Mapping[str, Any] = field(default_factory=dict)
    skipped: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.port}-{getattr(self.make, '__name__', 'lambda')}"


NO_KNOWN_URL = ("a_known_url_gives_a_fetch_response",)

RIGHT = [
    Right("clock", LoopClock),
    Right("clock", AnyioClock),
    Right("fetch", UrllibFetch, skipped=NO_KNOWN_URL),
    Right("fetch", StreamsFetch, skipped=NO_KNOWN_URL),
    Right("fetch", RequestsFetch, skipped=NO_KNOWN_URL),
    Right("fetch", Httpx2Fetch, skipped=NO_KNOWN_URL),
    Right("search", ListSearch, SEARCH),
    Right("memory", SqliteMemory),
    Right("tool", WeatherTool, WEATHER),
    Right("trace", ContextVarTracer),
    Right("ctx", plain_ctx),
    Right("spawn", fn(exec_spawn)),
    Right("llm", EchoLLM, FAILING),
    Right("compactor", KeepLastCompactor),
    Right("grounder", DictGrounder),
    Right("asker", QueueAsker, ASK),
    Right("checkpointer", SqliteCheckpointer),
    Right("meter", TotalsMeter),
]


# ---------------------------------------------------------------- the runs


@pytest.mark.agentkit(verify=False, real_processes=True)  # wrong on purpose; real children
@pytest.mark.parametrize("wrong", WRONG, ids=[w.id for w in WRONG])
async def test_a_wrong_implementation_fails_its_check_in_both_forms(wrong: Wrong) -> None:
    port = PORTS[wrong.port]
    rule = port.suite.by_name(wrong.check).rule
    with pytest.raises(ContractViolation) as caught:
        await port.function(wrong.make, **wrong.options)
    failures = {f.check: f for f in caught.value.failures}
    assert wrong.check in failures, f"{wrong.check} passed; failures: {list(failures)}"
    assert failures[wrong.check].rule == rule
    assert wrong.got in failures[wrong.check].got, failures[wrong.check].got
    with pytest.raises(pytest.fail.Exception) as failed:
        await run_class_form(port.contract, wrong.check, wrong.make, wrong.options)
    message = str(failed.value)
    assert wrong.check in message
    assert rule in message
    assert wrong.got in message


@pytest.mark.agentkit(real_processes=True)
@pytest.mark.parametrize("right", RIGHT, ids=[r.id for r in RIGHT])
async def test_a_correct_implementation_passes_both_forms(right: Right) -> None:
    port = PORTS[right.port]
    assert await port.function(right.make, **right.options) == list(right.skipped)
    for check in port.suite.names():
        if check not in right.skipped:
            await run_class_form(port.contract, check, right.make, right.options)


def test_every_port_has_a_correct_one_and_at_least_two_mistakes() -> None:
    assert {r.port for r in RIGHT} == set(PORTS)
    per_port = {key: sum(w.port == key for w in WRONG) for key in PORTS}
    assert min(per_port.values()) >= 2, per_port
    assert len({w.make for w in WRONG}) == len(WRONG)  # each a mistake of its own
