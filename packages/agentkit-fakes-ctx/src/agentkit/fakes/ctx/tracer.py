"""RecordingTracer and RecordingSpan: a TracePort that keeps every span for assertions."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from contextvars import ContextVar, Token
from types import MappingProxyType, TracebackType
from typing import Any, Literal, overload

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    check_mapping,
    check_str,
)
from agentkit.core.types import TraceContext
from agentkit.fakes.ctx.errors import SpanAlreadyEnded

__all__ = ["RecordingSpan", "RecordingTracer"]

# Which span is open, per tracer, in the current context. A ContextVar rather
# than a list on the tracer because asyncio tasks each run in a copy of the
# context they were created in: two tasks tracing concurrently through one
# tracer then each see their own open span, and a span one task opens can never
# become the parent of a span the other opens. A plain stack would interleave
# their pushes and pops and cross-parent them. One module-level variable
# (keyed by tracer) rather than one per tracer, because a ContextVar is never
# garbage-collected while a context refers to it.
_EMPTY: Mapping[int, RecordingSpan] = MappingProxyType({})
_OPEN: ContextVar[Mapping[int, RecordingSpan]] = ContextVar(
    "agentkit_fakes_ctx_open_spans", default=_EMPTY
)
_TRACER_KEYS = itertools.count(1)


def _require_str(value: object, what: str) -> str:
    return check_str(value, "RecordingTracer", what)


class RecordingSpan:
    """A span that records its name / kind / attributes / events.

    Drop-in for the production span surface: :meth:`set` and :meth:`add_event`.
    ``attrs`` starts as a copy of the keywords passed to ``span()`` and is
    mutated by :meth:`set`; ``events`` holds ``(name, fields)`` pairs in the
    order they were added.

    A span started by a :class:`RecordingTracer` also carries its ids
    (``trace_id``, ``span_id``, ``parent_id`` -- ``None`` for a root span),
    whether its block has closed (``ended``), and the exception the block
    raised, if any (``error``; ``error_type`` is its class). The exception is
    recorded and re-raised, never swallowed. A span constructed directly has
    empty ids: it was never started.

    It also compares equal to, unpacks and indexes as the ``(name, kind,
    attrs)`` tuple ``FakeCtx.spans`` lists -- "either access form works" --
    so ``ctx.trace.spans == [("step", "internal", {"n": 1})]`` and
    ``ctx.spans == [...]`` hold or fail together, while the span object
    (its events, ids, error) stays in ``ctx.trace.spans`` for the tests that
    need more than the triple. Two spans are equal when they recorded the
    same thing (the triple, the events and the ids); being mutable and
    compared by value, a span is not hashable, as the tuple it equals (it
    holds a dict) is not.

    Writing to a span after its block closed raises
    :class:`~agentkit.fakes.ctx.errors.SpanAlreadyEnded`, because a real
    tracer drops that write and the test would otherwise pass on an attribute
    production never records.
    """

    __slots__ = (
        "attrs",
        "ended",
        "error",
        "events",
        "kind",
        "name",
        "parent_id",
        "span_id",
        "trace_id",
    )

    def __init__(
        self,
        name: str,
        kind: str,
        attrs: Mapping[str, Any],
        *,
        trace_id: str = "",
        span_id: str = "",
        parent_id: str | None = None,
    ) -> None:
        self.name = check_str(name, "RecordingSpan", "name")
        self.kind = check_str(kind, "RecordingSpan", "kind")
        check_mapping(attrs, "RecordingSpan", "attrs", "a mapping of attributes")
        # A copy: set() must not write through into a dict the caller still holds.
        self.attrs: dict[str, Any] = {_require_str(k, "attribute key"): v for k, v in attrs.items()}
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.trace_id = trace_id
        self.span_id = span_id
        self.parent_id = parent_id
        self.ended = False
        self.error: BaseException | None = None

    def set(self, key: str, value: Any) -> None:
        _require_str(key, "attribute key")
        if self.ended:
            raise SpanAlreadyEnded(self.name, f"set({key!r}, ...)")
        self.attrs[key] = value

    def add_event(self, name: str, **fields: Any) -> None:
        _require_str(name, "event name")
        if self.ended:
            raise SpanAlreadyEnded(self.name, f"add_event({name!r})")
        self.events.append((name, dict(fields)))

    @property
    def context(self) -> TraceContext:
        """This span's ids as the TraceContext ``current_span_id()`` reports."""
        return TraceContext(trace_id=self.trace_id, span_id=self.span_id)

    @property
    def error_type(self) -> type[BaseException] | None:
        """The class of the exception the span's block raised, or None."""
        return None if self.error is None else type(self.error)

    @property
    def event_names(self) -> list[str]:
        """Just the events' names, in order: the common assertion."""
        return [name for name, _ in self.events]

    # The (name, kind, attrs) view. FakeCtx.spans lists spans as these tuples, and
    # "either access form works" -- ctx.spans or ctx.trace.spans -- so a span
    # unpacks and indexes the same way: ``name, kind, attrs = span``, ``span[0]``.
    def __iter__(self) -> Iterator[Any]:
        return iter((self.name, self.kind, self.attrs))

    def __len__(self) -> int:
        return 3

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RecordingSpan):
            return self is other or (
                (self.name, self.kind, self.attrs, self.events)
                == (other.name, other.kind, other.attrs, other.events)
                and (self.trace_id, self.span_id, self.parent_id)
                == (other.trace_id, other.span_id, other.parent_id)
            )
        if isinstance(other, tuple):
            return (self.name, self.kind, self.attrs) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    @overload
    def __getitem__(self, index: Literal[0, 1, -2, -3]) -> str: ...
    @overload
    def __getitem__(self, index: Literal[2, -1]) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: int) -> Any: ...
    def __getitem__(self, index: int) -> Any:
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(
                f"a RecordingSpan indexes as (name, kind, attrs) with an int, "
                f"got {type(index).__name__}"
            )
        return (self.name, self.kind, self.attrs)[index]

    def __repr__(self) -> str:
        state = "ended" if self.ended else "open"
        error = "" if self.error is None else f", error={type(self.error).__name__}"
        return (
            f"RecordingSpan({self.name!r}, kind={self.kind!r}, attrs={self.attrs!r}, "
            f"events={len(self.events)}, {state}{error})"
        )


class _SpanScope(AbstractContextManager[RecordingSpan]):
    """The context manager ``RecordingTracer.span()`` returns. Single use.

    The span is created on ``__enter__``, not by ``span()``, so that a span's
    ids and its place in ``tracer.spans`` follow the order blocks are entered
    in -- which is when a real tracer starts a span too.
    """

    def __init__(
        self, tracer: RecordingTracer, name: str, kind: str, attrs: dict[str, Any]
    ) -> None:
        self._tracer = tracer
        self._name = name
        self._kind = kind
        self._attrs = attrs
        self._span: RecordingSpan | None = None
        self._parent: RecordingSpan | None = None
        self._token: Token[Mapping[int, RecordingSpan]] | None = None

    def __enter__(self) -> RecordingSpan:
        if self._span is not None:
            raise RuntimeError(
                f"the context manager for span {self._name!r} was already entered; "
                "call tracer.span(...) again to open another span"
            )
        tracer = self._tracer
        open_spans = _OPEN.get()
        parent = open_spans.get(tracer._key)
        span = tracer._start(self._name, self._kind, self._attrs, parent)
        self._span = span
        self._parent = parent
        self._token = _OPEN.set(MappingProxyType({**open_spans, tracer._key: span}))
        return span

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        span = self._span
        token = self._token
        if span is None or token is None:
            raise RuntimeError(f"span {self._name!r} was exited without being entered")
        self._token = None
        span.ended = True
        span.error = exc
        try:
            _OPEN.reset(token)
        except ValueError:
            # Exited in another context than it was entered in (a span inside an
            # async generator finalised by another task): restore this tracer's
            # view here by hand, so the closed span does not stay "current".
            restored = dict(_OPEN.get())
            if self._parent is None or self._parent.ended:
                restored.pop(self._tracer._key, None)
            else:
                restored[self._tracer._key] = self._parent
            _OPEN.set(MappingProxyType(restored))
        exporter = self._tracer.exporter
        if exporter is not None:
            exporter(span)
        return None


class RecordingTracer:
    """In-process TracePort that records every span.

    Satisfies :class:`~agentkit.core.ports.TracePort` structurally:

    - ``span(name, kind="internal", **attrs)`` -- a context manager yielding a
      :class:`RecordingSpan`; spans nest, and each records its parent's id;
    - ``current_span_id()`` -- the open span's TraceContext, or None;
    - ``add_event_to_current_span(name, **fields)`` -- an event on the open span.

    ``spans`` lists every span, in the order they were started.
    ``exporter``, if given, is called with each span as its block closes --
    inner before outer, like an OpenTelemetry SpanExporter fed per span. An
    exception the exporter raises propagates: it is the test's own callback.

    "The open span" is per asyncio task (a ContextVar), so concurrent tasks
    tracing through one tracer never parent each other's spans; a task
    created inside a span sees that span as its parent, as in OpenTelemetry.

    Ids are synthetic and deterministic -- the same run gives the same ids on
    every tracer -- and shaped like W3C trace-context ids (32 / 16 lowercase
    hex digits, never all zero), so code that formats a ``traceparent`` from
    ``current_span_id()`` gets a well-formed one. Each root span starts a new
    trace; a child shares its parent's ``trace_id``.

    ``add_event_to_current_span`` with no span open does not fail -- the port
    promises it is always safe to call, and ``NoopTrace`` ignores it -- but it
    does not lose the event either: it lands in ``orphan_events``, where a test
    can assert it is empty (or find the event that missed its span).
    """

    def __init__(self, *, exporter: Callable[[RecordingSpan], None] | None = None) -> None:
        if exporter is not None and not callable(exporter):
            raise ArgumentTypeError(
                "RecordingTracer",
                "exporter",
                "a callable taking a RecordingSpan, or None",
                exporter,
            )
        self.exporter = exporter
        self.spans: list[RecordingSpan] = []
        self.orphan_events: list[tuple[str, dict[str, Any]]] = []
        self._key = next(_TRACER_KEYS)
        self._span_ids = itertools.count(1)
        self._trace_ids = itertools.count(1)

    def span(
        self, name: str, kind: str = "internal", **attrs: Any
    ) -> AbstractContextManager[RecordingSpan]:
        _require_str(name, "span name")
        _require_str(kind, "span kind")
        return _SpanScope(self, name, kind, attrs)

    def _start(
        self, name: str, kind: str, attrs: dict[str, Any], parent: RecordingSpan | None
    ) -> RecordingSpan:
        trace_id = f"{next(self._trace_ids):032x}" if parent is None else parent.trace_id
        span = RecordingSpan(
            name,
            kind,
            attrs,
            trace_id=trace_id,
            span_id=f"{next(self._span_ids):016x}",
            parent_id=None if parent is None else parent.span_id,
        )
        self.spans.append(span)
        return span

    def current_span(self) -> RecordingSpan | None:
        """The span open in this task, or None."""
        return _OPEN.get().get(self._key)

    def current_span_id(self) -> TraceContext | None:
        span = self.current_span()
        return None if span is None else span.context

    def add_event_to_current_span(self, name: str, **fields: Any) -> None:
        _require_str(name, "event name")
        span = self.current_span()
        if span is None:
            self.orphan_events.append((name, dict(fields)))
        else:
            span.add_event(name, **fields)

    def named(self, name: str) -> list[RecordingSpan]:
        """Every span called ``name``, in start order."""
        return [span for span in self.spans if span.name == name]

    def children(self, span: RecordingSpan) -> list[RecordingSpan]:
        """The spans ``span`` is the direct parent of, in start order."""
        return [child for child in self.spans if child.parent_id == span.span_id]
