"""Frozen value types every agentkit port speaks.

They are frozen because they cross seams: a message handed to a model, a usage
charged to a meter, a hit returned by a search double. Anything that crosses a
seam and can be mutated afterwards turns one test's assertion into another
test's fixture, so none of them can be.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NoReturn, TypeVar

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_int,
    check_mapping,
    check_number,
    check_str,
    check_type,
)

__all__ = [
    "Budget",
    "ChatResponse",
    "Delta",
    "FetchResponse",
    "FrozenDict",
    "MemoryItem",
    "Message",
    "Role",
    "Scope",
    "SearchHit",
    "ToolCall",
    "ToolSchema",
    "TraceContext",
    "Usage",
]

Role = Literal["system", "user", "assistant", "tool"]
_ROLES = frozenset(("system", "user", "assistant", "tool"))

# Wrong input to these constructors is the caller's mistake: pytest shows the
# caller's line, not these frames (see agentkit.core._internal.arguments).

_K = TypeVar("_K")
_V = TypeVar("_V")


class FrozenDict(dict[_K, _V]):
    """A dict that refuses every change: the read-only mapping of the value types.

    A value type copies each mapping it is given into one of these
    (``ToolCall.arguments``, ``ToolSchema.parameters``, ...), so a caller's
    later change to its own dict cannot reach inside a recorded value. Being a
    dict, it reads at dict speed, compares equal to a dict with the same items,
    serialises with :mod:`json`, shows as a dict literal (so a value's ``repr``
    is code that builds it again), pickles and deep-copies. Changing it raises
    ``TypeError``, as ``types.MappingProxyType`` does. It hashes by its items
    when they are hashable, so a value holding one hashes too.

    Shallow, as a frozen dataclass is: a list inside stays a list.
    """

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(f"{type(self).__name__} is read-only: build a new value instead")

    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[type[FrozenDict[_K, _V]], tuple[dict[_K, _V]]]:
        # dict's own pickling refills the new object item by item, which is refused.
        return type(self), (dict(self),)

    def __copy__(self) -> FrozenDict[_K, _V]:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> FrozenDict[_K, _V]:
        return type(self)(copy.deepcopy(dict(self), memo))


_EMPTY: FrozenDict[str, Any] = FrozenDict()


def _empty() -> Mapping[str, Any]:
    return _EMPTY


def _frozen_mapping(value: Mapping[str, Any], where: str, argument: str) -> Mapping[str, Any]:
    """A read-only copy, so a caller's later mutation cannot reach inside."""
    check_mapping(value, where, argument, "a mapping")
    for key in value:
        if not isinstance(key, str):
            raise ArgumentTypeError(where, f"{argument} keys", "str", key)
    return FrozenDict(value)


def _check_strs(value: object, where: str, *names: str) -> None:
    """Check that each of the ``names`` attributes of ``value`` is a str."""
    for name in names:
        check_str(getattr(value, name), where, name)


def _optional_str(value: object, where: str, argument: str) -> None:
    if value is not None and not isinstance(value, str):
        raise ArgumentTypeError(where, argument, "a str or None", value)


def _tool_calls(value: object, where: str) -> tuple[ToolCall, ...]:
    """``tool_calls`` as a tuple of ToolCall (a list is accepted and frozen)."""
    if not isinstance(value, list | tuple):
        raise ArgumentTypeError(where, "tool_calls", "a tuple of ToolCall", value)
    for index, call in enumerate(value):
        if not isinstance(call, ToolCall):
            raise ArgumentTypeError(where, f"tool_calls[{index}]", "a ToolCall", call)
    return tuple(value)


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A model's request to run one tool with these arguments."""

    id: str
    name: str
    arguments: Mapping[str, Any] = field(default_factory=_empty)

    def __post_init__(self) -> None:
        _check_strs(self, "ToolCall", "id", "name")
        object.__setattr__(
            self, "arguments", _frozen_mapping(self.arguments, "ToolCall", "arguments")
        )


@dataclass(frozen=True, slots=True)
class Message:
    """One entry of a transcript.

    ``tool_calls`` is set on an assistant message that asked for tools;
    ``tool_call_id`` on the tool message that answers one of them.
    """

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.role, str) or self.role not in _ROLES:
            kind = ArgumentValueError if isinstance(self.role, str) else ArgumentTypeError
            raise kind("Message", "role", "one of 'system', 'user', 'assistant', 'tool'", self.role)
        check_str(self.content, "Message", "content")
        object.__setattr__(self, "tool_calls", _tool_calls(self.tool_calls, "Message"))
        _optional_str(self.tool_call_id, "Message", "tool_call_id")
        _optional_str(self.name, "Message", "name")

    @classmethod
    def system(cls, content: str) -> Message:
        return cls("system", content)

    @classmethod
    def user(cls, content: str) -> Message:
        return cls("user", content)

    @classmethod
    def assistant(cls, content: str = "", tool_calls: tuple[ToolCall, ...] = ()) -> Message:
        return cls("assistant", content, tool_calls=tool_calls)

    @classmethod
    def tool(cls, content: str, *, tool_call_id: str, name: str | None = None) -> Message:
        return cls("tool", content, tool_call_id=tool_call_id, name=name)


@dataclass(frozen=True, slots=True)
class ToolSchema:
    """What a model is told about a tool: its name, purpose and JSON-Schema parameters."""

    name: str
    description: str = ""
    parameters: Mapping[str, Any] = field(default_factory=lambda: FrozenDict(type="object"))

    def __post_init__(self) -> None:
        check_str(self.name, "ToolSchema", "name", empty=False)
        check_str(self.description, "ToolSchema", "description")
        object.__setattr__(
            self,
            "parameters",
            _frozen_mapping(self.parameters, "ToolSchema", "parameters (a JSON Schema)"),
        )


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts of one or more calls, in agentkit's split.

    ``input_tokens`` EXCLUDES cached input: the three input figures are disjoint
    (fresh input, input read from cache, input written to cache) so that each
    can be priced at its own rate and their sum is the whole prompt. Providers
    that report input inclusive of the cached prefix (OpenAI, Codex) are split
    into this form once, at the transport edge (see ``agentkit.core.pricing``),
    and never again.

    Usage is addable because meters add it up; it is never summed across the
    per-block or cumulative reports a single call emits (see the CLI cognitions).
    """

    input_tokens: int = 0
    cached_input_tokens: int = 0
    cache_write_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0

    def __post_init__(self) -> None:
        for name in (
            "input_tokens",
            "cached_input_tokens",
            "cache_write_tokens",
            "output_tokens",
            "reasoning_tokens",
        ):
            check_int(getattr(self, name), "Usage", name)

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(
            self.input_tokens + other.input_tokens,
            self.cached_input_tokens + other.cached_input_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
            self.output_tokens + other.output_tokens,
            self.reasoning_tokens + other.reasoning_tokens,
        )

    @property
    def prompt_tokens(self) -> int:
        """The whole prompt: fresh + cached + cache-written input."""
        return self.input_tokens + self.cached_input_tokens + self.cache_write_tokens

    @property
    def total_tokens(self) -> int:
        """Prompt plus output. Reasoning is reported inside output, so it is not added again."""
        return self.prompt_tokens + self.output_tokens


@dataclass(frozen=True, slots=True)
class Delta:
    """One piece of a streamed reply.

    Content arrives in many small deltas; the terminal delta carries the
    usage, the finish reason and any tool calls, once.

    ``reasoning`` is a piece of the model's visible reasoning (Anthropic's
    ``thinking`` blocks, an OpenAI Responses ``reasoning`` summary), kept
    apart from ``content`` because it is not the answer: an agent must not
    show it as the reply or feed it back as the assistant's text, yet a
    client such as a CLI prints it as a reasoning item of its own. Empty
    for the many models and ports that report none.
    """

    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage | None = None
    finish_reason: str | None = None
    reasoning: str = ""

    def __post_init__(self) -> None:
        _check_strs(self, "Delta", "content", "reasoning")
        object.__setattr__(self, "tool_calls", _tool_calls(self.tool_calls, "Delta"))
        if self.usage is not None:
            check_type(self.usage, Usage, "Delta", "usage", "a Usage or None")
        _optional_str(self.finish_reason, "Delta", "finish_reason")


@dataclass(frozen=True, slots=True)
class ChatResponse:
    """A whole reply: what a stream of deltas adds up to.

    ``reasoning`` is the deltas' reasoning text joined (see :class:`Delta`):
    never part of ``content``.
    """

    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    model: str = ""
    cost_usd: float = 0.0
    reasoning: str = ""

    def __post_init__(self) -> None:
        _check_strs(self, "ChatResponse", "content", "reasoning")
        object.__setattr__(self, "tool_calls", _tool_calls(self.tool_calls, "ChatResponse"))
        check_type(self.usage, Usage, "ChatResponse", "usage", "a Usage")
        _optional_str(self.finish_reason, "ChatResponse", "finish_reason")
        check_str(self.model, "ChatResponse", "model")
        check_number(self.cost_usd, "ChatResponse", "cost_usd")


@dataclass(frozen=True, slots=True)
class FetchResponse:
    """The result of fetching one URL."""

    url: str
    status: int = 200
    body: str = ""
    headers: Mapping[str, str] = field(default_factory=_empty)

    def __post_init__(self) -> None:
        check_str(self.url, "FetchResponse", "url")
        status = check_int(self.status, "FetchResponse", "status", minimum=100)
        if status > 599:
            raise ArgumentValueError(
                "FetchResponse", "status", "an HTTP status from 100 to 599", status
            )
        check_str(self.body, "FetchResponse", "body")
        headers = _frozen_mapping(self.headers, "FetchResponse", "headers")
        for name, value in headers.items():
            if not isinstance(value, str):
                raise ArgumentTypeError("FetchResponse", f"headers[{name!r}]", "a str", value)
        object.__setattr__(self, "headers", headers)


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One search result."""

    title: str
    url: str
    snippet: str = ""

    def __post_init__(self) -> None:
        _check_strs(self, "SearchHit", "title", "url", "snippet")


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """One retrievable piece of memory and where it came from."""

    text: str
    source: str
    score: float | None = None
    metadata: Mapping[str, Any] = field(default_factory=_empty)

    def __post_init__(self) -> None:
        _check_strs(self, "MemoryItem", "text", "source")
        if self.score is not None:
            check_number(self.score, "MemoryItem", "score", minimum=None)
        object.__setattr__(
            self, "metadata", _frozen_mapping(self.metadata, "MemoryItem", "metadata")
        )


@dataclass(frozen=True, slots=True)
class TraceContext:
    """Identifies a span: the trace it belongs to and its own id."""

    trace_id: str
    span_id: str

    def __post_init__(self) -> None:
        _check_strs(self, "TraceContext", "trace_id", "span_id")


@dataclass(frozen=True, slots=True)
class Scope:
    """Which tenant a run acts for. ``Scope()`` is the zero-tenant default."""

    org_id: str | None = None
    domain_id: str | None = None

    def __post_init__(self) -> None:
        _optional_str(self.org_id, "Scope", "org_id")
        _optional_str(self.domain_id, "Scope", "domain_id")


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits on a run's spend. ``None`` means no limit on that axis.

    Checked before each model call (see ``agentkit.core.middleware``), so a run
    stops before the call that would start over budget, not after it.
    """

    max_cost_usd: float | None = None
    max_total_tokens: int | None = None
    max_llm_calls: int | None = None

    def __post_init__(self) -> None:
        # NaN and infinity are refused: every comparison with NaN is False, so a NaN
        # limit would never trip, and "no limit" is spelled None.
        if self.max_cost_usd is not None:
            check_number(self.max_cost_usd, "Budget", "max_cost_usd")
        if self.max_total_tokens is not None:
            check_int(self.max_total_tokens, "Budget", "max_total_tokens")
        if self.max_llm_calls is not None:
            check_int(self.max_llm_calls, "Budget", "max_llm_calls")
