"""The ports: every seam between agentkit and the outside world, as a Protocol.

Each is structural (``typing.Protocol``) so that a double needs no base class
from here: a test double conforms by having the right shape, and mypy checks
that shape (see each fakes package's ``_conformance`` module). Nothing here is
``runtime_checkable`` on purpose: ``isinstance`` checks only names, not
signatures, and a check that passes on a wrong double is worse than none.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from agentkit.core.types import (
        ChatResponse,
        Delta,
        FetchResponse,
        MemoryItem,
        Message,
        Scope,
        SearchHit,
        ToolCall,
        ToolSchema,
        TraceContext,
        Usage,
    )

__all__ = [
    "Asker",
    "Checkpointer",
    "ClockPort",
    "Compactor",
    "Ctx",
    "FetchPort",
    "Grounder",
    "LLMPort",
    "MemorySource",
    "Meter",
    "ObserverPort",
    "ProcessPort",
    "SearchPort",
    "Span",
    "SpawnPort",
    "StreamReaderPort",
    "StreamWriterPort",
    "Tool",
    "TracePort",
]


class LLMPort(Protocol):
    """A chat model. ``stream`` is the primitive; ``chat`` is its whole reply."""

    async def chat(
        self,
        *,
        messages: list[Message],
        model: str,
        tools: list[ToolSchema] | None = None,
        response_format: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        cache_hint: Any = None,
    ) -> ChatResponse: ...

    def stream(
        self,
        *,
        messages: list[Message],
        model: str,
        tools: list[ToolSchema] | None = None,
        response_format: dict[str, Any] | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        cache_hint: Any = None,
    ) -> AsyncIterator[Delta]: ...


class ClockPort(Protocol):
    """Time, so that backoff and timeouts can run on virtual time in tests."""

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class FetchPort(Protocol):
    async def fetch(self, url: str) -> FetchResponse: ...


class SearchPort(Protocol):
    async def search(self, query: str, k: int = 10) -> list[SearchHit]: ...


class MemorySource(Protocol):
    """A named store the agent can query and write to."""

    @property
    def name(self) -> str: ...

    async def query(
        self, query: str, k: int = 5, where: Mapping[str, Any] | None = None
    ) -> list[MemoryItem]: ...

    async def write(self, items: Sequence[MemoryItem]) -> None: ...


class Tool(Protocol):
    """Something the model can ask to run.

    ``side_effecting`` says the call changes the world; ``requires_approval``
    says a human must agree first when the run's autonomy asks.
    """

    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def schema(self) -> ToolSchema: ...
    @property
    def side_effecting(self) -> bool: ...
    @property
    def requires_approval(self) -> bool: ...
    @property
    def output_schema(self) -> dict[str, Any] | None: ...

    async def run(self, args: dict[str, Any]) -> Any: ...


class Span(Protocol):
    def set(self, key: str, value: Any) -> None: ...

    def add_event(self, name: str, **fields: Any) -> None: ...


class TracePort(Protocol):
    def span(
        self, name: str, kind: str = "internal", **attrs: Any
    ) -> AbstractContextManager[Span]: ...

    def current_span_id(self) -> TraceContext | None: ...

    def add_event_to_current_span(self, name: str, **fields: Any) -> None: ...


class ObserverPort(Protocol):
    """Structured events about a run (retries, approvals, stops), for logs and UIs."""

    def emit(self, event: str, **fields: Any) -> None: ...


class Ctx(Protocol):
    """The least a capability needs of a run: who it is for, and where to trace."""

    @property
    def scope(self) -> Scope: ...
    @property
    def trace(self) -> TracePort: ...
    @property
    def observer(self) -> ObserverPort: ...


class Compactor(Protocol):
    """Shrinks a transcript that has grown past its limit."""

    async def compact(self, messages: Sequence[Message]) -> list[Message]: ...


class Grounder(Protocol):
    """Finds the context block (documents, facts) a task should be answered against."""

    async def ground(self, ctx: Any, task: str) -> str: ...


class Asker(Protocol):
    """Asks a human whether a gated tool call may run; True means approved."""

    async def ask(self, question: str, *, tool_call: ToolCall) -> bool: ...


class Checkpointer(Protocol):
    """Stores a suspended run's state so that a later run can resume it."""

    async def save(self, key: str, state: Mapping[str, Any]) -> None: ...

    async def load(self, key: str) -> Mapping[str, Any] | None: ...


class Meter(Protocol):
    """Is told of every charged call: its usage and cost."""

    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None: ...


class StreamReaderPort(Protocol):
    """The part of ``asyncio.StreamReader`` a cognition reads a child's output with."""

    async def readline(self) -> bytes: ...

    async def read(self, n: int = -1) -> bytes: ...

    def at_eof(self) -> bool: ...


class StreamWriterPort(Protocol):
    """The part of ``asyncio.StreamWriter`` a cognition writes a child's stdin with."""

    def write(self, data: bytes) -> None: ...

    async def drain(self) -> None: ...

    def close(self) -> None: ...

    def is_closing(self) -> bool: ...


class ProcessPort(Protocol):
    """The part of ``asyncio.subprocess.Process`` a cognition uses."""

    @property
    def stdin(self) -> StreamWriterPort | None: ...
    @property
    def stdout(self) -> StreamReaderPort | None: ...
    @property
    def stderr(self) -> StreamReaderPort | None: ...
    @property
    def returncode(self) -> int | None: ...
    @property
    def pid(self) -> int: ...

    async def wait(self) -> int: ...

    def terminate(self) -> None: ...

    def kill(self) -> None: ...


class SpawnPort(Protocol):
    """The subprocess seam, shaped like ``asyncio.create_subprocess_exec``.

    A cognition spawns through this so that a test can hand it a double that
    replays a recording, while the cognition's own parsing still runs.
    ``limit`` is the StreamReader line limit the caller needs.
    """

    async def __call__(
        self,
        program: str,
        *args: str,
        stdin: int | None = None,
        stdout: int | None = None,
        stderr: int | None = None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        limit: int = 2**16,
        start_new_session: bool = False,
    ) -> ProcessPort: ...
