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
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

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
    "DEFAULT_STREAM_LIMIT",
    "FetchPort",
    "Grounder",
    "LLMPort",
    "MemorySource",
    "Meter",
    "ObserverPort",
    "ProcessPort",
    "SearchPort",
    "Span",
    "SpawnOptions",
    "SpawnPort",
    "StreamReaderPort",
    "StreamWriterPort",
    "Tool",
    "TracePort",
    "check_spawn_options",
]


class LLMPort(Protocol):
    """A chat model. ``stream`` is the primitive; ``chat`` is its whole reply.

    Rules (each checked by ``check_llm_port`` in ``agentkit.core.testing.contracts``):

    - ``stream_yields_only_deltas``: stream() is an async iterator of Delta objects.
    - ``stream_ends_with_exactly_one_terminal_delta``: stream() yields content deltas, then
      exactly one terminal delta (the one with a finish_reason) as its last item; nothing
      follows it.
    - ``the_terminal_delta_carries_usage_and_finish_reason``: The last delta carries the call's
      usage and a non-empty finish_reason; no earlier delta carries usage (the Invoker charges a
      call once, on its terminal delta).
    - ``chat_equals_the_collected_stream``: chat() returns what stream() adds up to: the same
      content, tool calls, usage and finish reason.
    - ``a_failure_before_the_first_delta_is_raised_before_any_delta``: A call that fails before
      the model answers raises on the first step of the stream, before any delta, so a retry
      can re-invoke it without a half-delivered reply.
    - ``chat_raises_a_failure_before_the_first_delta``: chat() of a call that fails before the
      model answers raises; it returns no reply.
    """

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
    """Time, so that backoff and timeouts can run on virtual time in tests.

    Rules (each checked by ``check_clock_port``):

    - ``now_is_a_float``: now() returns the current time as a float (seconds).
    - ``time_never_goes_backwards``: now() never decreases: across sleep(0) and across a short
      sleep.
    - ``sleep_moves_now_by_the_seconds_slept``: await sleep(s) lets s seconds pass on now(): it
      advances by at least s, and by no more than s or the time really slept (whichever is
      more) with a margin; a sleep that only yields, or a clock counting in another unit than
      seconds, breaks this.
    - ``sleep_returns_none``: await sleep(seconds) returns None.
    - ``sleep_zero_yields_to_the_loop``: sleep(0) suspends the caller, so a task that is ready
      to run gets to run.
    - ``negative_sleep_raises_value_error``: sleep() of a negative time raises ValueError instead
      of returning at once (``asyncio.sleep`` alone returns at once: check the argument first).
    - ``a_sleep_can_be_cancelled``: A task sleeping on the clock can be cancelled: the
      CancelledError reaches it.
    """

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class FetchPort(Protocol):
    """Fetches one URL; an HTTP answer of any status is a response, only no answer raises.

    Rules (each checked by ``check_fetch_port`` against a loopback HTTP server, or the pages a
    ``ContractSite`` describes):

    - ``a_page_comes_back_as_served``: fetch(url) of a page returns a FetchResponse with the
      status the server sent, the URL asked for, and the body as text decoded by the charset
      the server declared.
    - ``the_headers_come_back``: The response's headers hold every header the server sent, with
      its value (names compared case-insensitively).
    - ``an_error_status_is_a_response``: A 404 or a 500 comes back as a FetchResponse with that
      status and the body the server sent; it is not raised.
    - ``a_redirect_is_answered_whole``: A redirect (301, 302, 307) is either followed, giving
      the status and body of the page it leads to, or returned as itself, with its status and
      its Location header; never a mix of the two (the redirect's status with another page's
      body, or a 200 with the redirect's empty body).
    - ``the_port_serves_more_than_one_fetch``: A FetchPort is reusable: fetching the same page
      twice gives the same status and body.
    - ``an_unknown_url_raises``: fetch(url) of a URL nothing answers (no server, a name that
      does not resolve) raises an Exception; it never invents a response.
    - ``a_known_url_gives_a_fetch_response``: fetch(url) of a URL the caller names as fetchable
      (the ``known_url`` option, e.g. a page of the real service) returns a FetchResponse.
    """

    async def fetch(self, url: str) -> FetchResponse: ...


class SearchPort(Protocol):
    """Searches; ``k`` is the most hits the caller wants.

    Rules (each checked by ``check_search_port``):

    - ``search_returns_a_list_of_search_hits``: search(query, k) returns a list of SearchHit.
    - ``search_returns_at_most_k_hits``: search(query, k) returns at most k hits, for k = 1 and
      k = 2.
    - ``a_limit_of_zero_gives_no_hits``: search(query, 0) returns an empty list (0 is a limit,
      not "no limit").
    - ``the_limit_takes_the_first_hits``: search(query, k) gives the first k hits of a search
      with a larger k: one hit for k = 1 when there are any, and for a k past the end every hit
      once, nothing repeated or padded.
    """

    async def search(self, query: str, k: int = 10) -> list[SearchHit]: ...


class MemorySource(Protocol):
    """A named store the agent can query and write to.

    Rules (each checked by ``check_memory_source``; the read-back rules are for a store that
    keeps what is written, and a fixture double whose answers are fixed is run with
    ``keeps_writes=False``):

    - ``name_is_a_non_empty_str``: name is a non-empty str: the agent names the store it
      queries by it.
    - ``query_returns_at_most_k_memory_items``: query(query, k) returns a list of at most k
      MemoryItem, for k = 1 and k = 2.
    - ``a_limit_of_zero_gives_no_items``: query(query, 0) returns an empty list, also when
      items match (0 is a limit, not "no limit"; sqlite's LIMIT -1 and ``items[:k or None]``
      mean "all").
    - ``query_returns_nothing_it_was_not_given``: After a write, a query returns only items the
      store held before or was given: it invents none.
    - ``a_query_nothing_matches_returns_nothing_new``: A query that no item mentions returns no
      item the store was not already answering it with before a write; it does not fall back
      to what was written.
    - ``what_is_written_is_read_back``: After write(items), a query for them returns every
      written item (text and source).
    - ``a_second_write_keeps_the_first``: Writing twice keeps both writes' items: a write adds
      to the store, it does not replace it.
    - ``the_store_cannot_be_changed_through_the_callers_copy``: Changing the list given to
      write(), or the list a query returned, does not change what a later query returns.
    """

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

    Rules (each checked by ``check_tool``, with ``args`` valid for the tool):

    - ``the_properties_have_their_declared_types``: name is a non-empty str, description a
      str, schema a ToolSchema, side_effecting and requires_approval bools, output_schema a
      dict or None.
    - ``the_schema_is_advertised_under_the_tools_name``: schema.name equals name: the model
      calls the tool by the name its schema advertises.
    - ``the_parameters_are_a_json_schema_object``: schema.parameters is a JSON Schema of type
      "object": JSON-serialisable, its properties each a schema with a known JSON type, every
      required name one of its properties, and the given args valid against it.
    - ``run_answers_valid_args_without_changing_them``: await run(args) returns for arguments
      its schema accepts, and leaves the caller's dict unchanged.
    - ``run_result_matches_the_output_schema``: When output_schema is given, what run(args)
      returns is valid against it (type, properties, required names, items).
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
    """Spans around the work of a run.

    Rules (each checked by ``check_trace_port``):

    - ``no_span_is_current_when_none_is_open``: current_span_id() is None while no span is open.
    - ``a_span_opened_inside_another_is_its_child``: A span opened inside another is its child
      (same trace, its own span id), and closing it makes the parent current again; a tracer
      that tracks no ids reports None throughout.
    - ``the_tracer_needs_no_global_provider``: Two tracers are independent: a span open in one
      is not current in the other (no global provider or shared state is needed, or leaks).
    - ``events_and_attributes_are_always_accepted``: span() takes kind and attrs optionally;
      set(), add_event() and add_event_to_current_span() accept any values and return None,
      with or without a span open.
    - ``an_exception_in_a_span_propagates``: An exception (or a cancellation) raised in a span's
      body propagates unchanged, and the span is closed: nothing is left current.
    - ``spans_in_concurrent_tasks_do_not_see_each_other``: A span open in one task is not the
      current span of another task running meanwhile.
    """

    def span(
        self, name: str, kind: str = "internal", **attrs: Any
    ) -> AbstractContextManager[Span]: ...

    def current_span_id(self) -> TraceContext | None: ...

    def add_event_to_current_span(self, name: str, **fields: Any) -> None: ...


class ObserverPort(Protocol):
    """Structured events about a run (retries, approvals, stops), for logs and UIs."""

    def emit(self, event: str, **fields: Any) -> None: ...


class Ctx(Protocol):
    """The least a capability needs of a run: who it is for, and where to trace.

    Rules (each checked by ``check_ctx``):

    - ``scope_is_a_scope``: scope is a Scope (who the run is for).
    - ``the_ctx_trace_nests_spans``: ctx.trace is a TracePort: nothing is current at first, and
      a span opened inside another is its child.
    - ``the_ctx_trace_is_the_same_tracer_each_time``: Reading ctx.trace twice gives the same
      tracer (and ctx.observer the same observer): a span opened through one read is current
      through the next.
    - ``observer_emit_is_always_accepted``: ctx.observer.emit(event, **fields) accepts any
      fields and returns None.
    - ``spans_work_across_awaits``: A span may stay open across awaits, in concurrent tasks, and
      the body's value comes out.
    """

    @property
    def scope(self) -> Scope: ...
    @property
    def trace(self) -> TracePort: ...
    @property
    def observer(self) -> ObserverPort: ...


class Compactor(Protocol):
    """Shrinks a transcript that has grown past its limit.

    Rules (each checked by ``check_compactor``):

    - ``compact_returns_a_list_of_messages``: compact(messages) returns a list of Message, for
      a list and for a tuple of messages.
    - ``compact_leaves_the_callers_transcript_unchanged``: compact() does not change the
      sequence it is given: the caller's transcript is the same after the call.
    - ``compact_returns_a_new_list``: The list compact() returns is not the list it was given,
      so the caller appending to one does not change the other.
    """

    async def compact(self, messages: Sequence[Message]) -> list[Message]: ...


class Grounder(Protocol):
    """Finds the context block (documents, facts) a task should be answered against.

    Rules (each checked by ``check_grounder``):

    - ``ground_returns_a_str``: ground(ctx, task) returns a str for every task, the empty
      string when it found nothing (never None).
    - ``concurrent_grounds_do_not_mix``: Two ground() calls awaited at once each return the
      block the same task gets alone: no state is shared between calls.
    """

    async def ground(self, ctx: Any, task: str) -> str: ...


class Asker(Protocol):
    """Asks a human whether a gated tool call may run; True means approved.

    Rules (each checked by ``check_asker``; an asker a person answers needs the ``answer``
    option, a coroutine that answers one question):

    - ``ask_answers_with_a_bool``: ask(question, tool_call=...) returns True or False, never
      another value, truthy or not.
    - ``a_cancelled_ask_raises_cancelled_error``: Cancelling a task waiting in ask() ends it
      with CancelledError: the asker does not turn the cancel into an answer.
    """

    async def ask(self, question: str, *, tool_call: ToolCall) -> bool: ...


class Checkpointer(Protocol):
    """Stores a suspended run's state so that a later run can resume it.

    Rules (each checked by ``check_checkpointer``, with a plain-JSON state):

    - ``load_of_an_unsaved_key_is_none``: load(key) of a key never saved returns None; it
      does not raise.
    - ``a_saved_state_loads_back_equal``: load(key) after save(key, state) returns a mapping
      equal to state.
    - ``a_second_save_replaces_the_first``: Saving a key again replaces its state: load returns
      the second state, with nothing of the first merged in.
    - ``the_saved_state_cannot_be_changed_through_a_copy``: Changing the mapping given to
      save(), or the one load() returned, does not change what the next load() returns.
    - ``keys_are_independent``: Saving under one key leaves every other key's state as it was.
    """

    async def save(self, key: str, state: Mapping[str, Any]) -> None: ...

    async def load(self, key: str) -> Mapping[str, Any] | None: ...


class Meter(Protocol):
    """Is told of every charged call: its usage and cost.

    Rules (each checked by ``check_meter``):

    - ``record_returns_none``: record(usage, cost_usd, model=...) returns None at once: it is a
      plain method (an async record returns a coroutine nobody awaits, and records nothing).
    - ``record_takes_any_model_and_zero_charges``: record() takes a model it has never seen, a
      zero Usage and a zero cost without raising.
    """

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


DEFAULT_STREAM_LIMIT = 2**16
"""A spawn's stream line limit when its caller passes no ``limit``: asyncio's own (64 KiB)."""


class SpawnPort(Protocol):
    """The subprocess seam, shaped like ``asyncio.create_subprocess_exec``.

    A cognition spawns through this so that a test can hand it a double that
    replays a recording, while the cognition's own parsing still runs.
    ``limit`` is the StreamReader line limit the caller needs.

    Rules for the spawn and the process it returns (each checked by ``check_spawn_port``; a
    double that replays output is built to replay the bytes the check expects):

    - ``piped_streams_are_readers_and_an_unpiped_stdin_is_none``: With stdout=PIPE and
      stderr=PIPE the process has readers for both; stdin that is not piped is None.
    - ``stdout_gives_the_programs_bytes_then_eof``: readline() gives the program's stdout line
      by line, then b"" at EOF, and at_eof() is True.
    - ``stdout_eof_comes_before_the_exit_code``: A process gives stdout EOF before its exit
      code: with stdout drained meanwhile, wait() returns only once stdout is at EOF, and
      returns the program's exit code, which returncode then holds.
    - ``stderr_is_readable_after_stdout_eof``: After stdout EOF, stderr reads the program's
      whole stderr (a cognition reads it once, last).
    - ``terminate_and_kill_after_exit_are_harmless``: terminate() and kill() on a process that
      has exited and been waited for raise nothing and change nothing: returncode and wait()
      still give the exit code (asyncio's own process raises ProcessLookupError here).
    - ``terminate_ends_a_running_process``: terminate() while the child still runs ends it
      within seconds: wait() returns -15 (killed by SIGTERM) and returncode holds it. (A
      spawn running its own program in place of the check's sleeper, a real child it
      substitutes or a double replaying no stdout, may have ended before the signal came:
      it then gives its whole recorded output and exit code.)
    - ``kill_ends_a_running_process``: kill() while the child still runs ends it within
      seconds: wait() returns -9 (killed by SIGKILL) and returncode holds it (with the same
      exception for a program that ended before the signal came).
    - ``the_line_limit_reaches_the_streams``: The limit passed to the spawn is the streams'
      line limit: readline() of a line longer than it raises ValueError, as asyncio's does.
    - ``cwd_env_and_session_reach_the_child``: cwd, env and start_new_session reach the child:
      it runs in that directory, sees that environment, and leads a session of its own. (A
      double that replays output has no child to look at; it replays its bytes.)
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
        limit: int = DEFAULT_STREAM_LIMIT,
        start_new_session: bool = False,
    ) -> ProcessPort: ...


class SpawnOptions(TypedDict, total=False):
    """The keywords of a :class:`SpawnPort` call, as one type.

    A spawn that forwards the call (a wrapper, a recorder) or picks out the
    keywords it needs takes ``**options: Unpack[SpawnOptions]``, so the
    keywords are listed here once, not again in every such spawn. mypy still
    checks each keyword at a call, and the spawn against :class:`SpawnPort`;
    :func:`check_spawn_options` refuses at run time what mypy would. A key
    left out takes the port's default (``limit``: :data:`DEFAULT_STREAM_LIMIT`).
    """

    stdin: int | None
    stdout: int | None
    stderr: int | None
    cwd: str | None
    env: Mapping[str, str] | None
    limit: int
    start_new_session: bool


def check_spawn_options(options: Mapping[str, object], where: str) -> None:
    """Refuse a keyword :class:`SpawnPort` does not take, with the TypeError Python raises.

    mypy checks the keywords of a ``**options: Unpack[SpawnOptions]`` spawn,
    but at run time such a spawn takes any keyword: an untyped caller's
    ``limt=`` must fail there as against a spelled-out signature, not be dropped.
    """
    for name in options:
        if name not in SpawnOptions.__optional_keys__:
            raise TypeError(f"{where}() got an unexpected keyword argument {name!r}")
