"""claude's ``stream-json`` stdout, mapped to typed events -- no processes here.

Pure on purpose: what the claude cognition believes about a turn is decided
from the objects the CLI printed, so every rule below can be tested line by
line. The format is Claude Code 2.1.332's (cli-formats.md §1):

* **Forward compatibility.** The CLI adds message types, system subtypes and
  content-block types constantly (``rate_limit_event`` once crashed the
  official parser). Only ``type`` is a discriminator; an unknown type is kept
  as :class:`ClaudeOther`, an unknown system subtype as
  :class:`ClaudeSystem`, an unknown block as :class:`UnknownBlock` -- raw
  payload and all. Every other field is optional.
* **Usage comes from ``result`` only.** ``assistant`` lines arrive one per
  content block, each repeating the message-start usage; summing them
  over-counts. :class:`ClaudeResult` carries the turn's usage (main loop,
  per turn) in agentkit's split: claude reports input EXCLUSIVE of cache
  reads and writes (the Anthropic convention), so the four counts map
  straight across (``input_tokens``, ``cache_read_input_tokens`` ->
  ``cached_input_tokens``, ``cache_creation_input_tokens`` ->
  ``cache_write_tokens``, ``output_tokens``; thinking tokens, when reported,
  are ``reasoning_tokens``, already inside output).
* **Cost is cumulative.** ``total_cost_usd`` is the session's running total
  (across turns of a stream-json session and across ``--resume``). The
  turn's own cost is the sum of ``model_usage_since_last_result[*].costUSD``
  when the CLI sends it, else the difference from the previous result's
  total -- see :func:`turn_cost`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from agentkit.core.pricing import ANTHROPIC_API, RawUsage
from agentkit.core.types import Usage

__all__ = [
    "ClaudeAssistant",
    "ClaudeEvent",
    "ClaudeEventError",
    "ClaudeInit",
    "ClaudeOther",
    "ClaudeResult",
    "ClaudeSystem",
    "ClaudeUser",
    "ContentBlock",
    "TextBlock",
    "ThinkingBlock",
    "ToolResultBlock",
    "ToolUseBlock",
    "UnknownBlock",
    "claude_usage",
    "map_claude_event",
    "turn_cost",
]

_EMPTY: Mapping[str, Any] = MappingProxyType({})


class ClaudeEventError(ValueError):
    """A line that is a JSON object but not a readable claude event (bad field types)."""


def _view(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    # The parsed dict belongs to nobody else: wrap it, do not copy it (a
    # session's tool results can be megabytes).
    return obj if isinstance(obj, MappingProxyType) else MappingProxyType(obj)


def _str(obj: Mapping[str, Any], key: str) -> str | None:
    value = obj.get(key)
    return value if isinstance(value, str) else None


def _int(obj: Mapping[str, Any], key: str, where: str) -> int | None:
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ClaudeEventError(f"{where}: {key} must be an integer, got {value!r}")
    return value


# -------------------------------------------------------------------- blocks


@dataclass(frozen=True, slots=True)
class TextBlock:
    text: str


@dataclass(frozen=True, slots=True)
class ThinkingBlock:
    thinking: str


@dataclass(frozen=True, slots=True)
class ToolUseBlock:
    """A tool call (``tool_use``; also ``server_tool_use``, named in ``type``)."""

    id: str
    name: str
    input: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    type: str = "tool_use"


@dataclass(frozen=True, slots=True)
class ToolResultBlock:
    """A tool's answer, in a ``user`` line. ``content`` is a str or a block list, as sent."""

    tool_use_id: str
    content: Any = None
    is_error: bool = False


@dataclass(frozen=True, slots=True)
class UnknownBlock:
    type: str
    raw: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)


ContentBlock = TextBlock | ThinkingBlock | ToolUseBlock | ToolResultBlock | UnknownBlock


def _block(obj: Any) -> ContentBlock:
    if not isinstance(obj, Mapping):
        return UnknownBlock(type(obj).__name__, MappingProxyType({"value": obj}))
    kind = obj.get("type")
    if kind == "text" and isinstance(obj.get("text"), str):
        return TextBlock(obj["text"])
    if kind == "thinking" and isinstance(obj.get("thinking"), str):
        return ThinkingBlock(obj["thinking"])
    if kind in ("tool_use", "server_tool_use") and isinstance(obj.get("id"), str):
        raw_input = obj.get("input")
        return ToolUseBlock(
            obj["id"],
            _str(obj, "name") or "",
            _view(raw_input) if isinstance(raw_input, Mapping) else _EMPTY,
            kind,
        )
    if kind == "tool_result" and isinstance(obj.get("tool_use_id"), str):
        return ToolResultBlock(obj["tool_use_id"], obj.get("content"), obj.get("is_error") is True)
    return UnknownBlock(kind if isinstance(kind, str) else "", _view(obj))


def _blocks(content: Any) -> tuple[ContentBlock, ...]:
    if isinstance(content, str):
        return (TextBlock(content),)
    if isinstance(content, Sequence):
        return tuple(_block(b) for b in content)
    return ()


# -------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class ClaudeInit:
    """``system``/``init``: emitted at the start of EVERY turn, same session_id."""

    session_id: str | None
    model: str | None = None
    cwd: str | None = None
    tools: tuple[str, ...] = ()
    version: str | None = None


@dataclass(frozen=True, slots=True)
class ClaudeSystem:
    """Any other ``system`` subtype (api_retry, status, thinking_tokens, ...)."""

    subtype: str
    session_id: str | None = None
    raw: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)


@dataclass(frozen=True, slots=True)
class ClaudeAssistant:
    """One ``assistant`` line: usually ONE completed content block of a message.

    ``error`` is the envelope's error kind on the CLI's synthetic messages
    (``authentication_failed``, ``server_error``, ...), with ``api_error``
    (``connection_failed``) when given.
    """

    message_id: str | None
    blocks: tuple[ContentBlock, ...] = ()
    model: str | None = None
    session_id: str | None = None
    parent_tool_use_id: str | None = None
    error: str | None = None
    api_error: str | None = None
    is_api_error: bool = False

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.blocks if isinstance(b, TextBlock))

    @property
    def tool_uses(self) -> tuple[ToolUseBlock, ...]:
        return tuple(b for b in self.blocks if isinstance(b, ToolUseBlock))


@dataclass(frozen=True, slots=True)
class ClaudeUser:
    """A ``user`` line: tool results, or a replayed/injected user message."""

    blocks: tuple[ContentBlock, ...] = ()
    session_id: str | None = None
    parent_tool_use_id: str | None = None
    is_replay: bool = False

    @property
    def tool_results(self) -> tuple[ToolResultBlock, ...]:
        return tuple(b for b in self.blocks if isinstance(b, ToolResultBlock))


@dataclass(frozen=True, slots=True)
class ClaudeResult:
    """``result``: the end of one turn, with the turn's usage and the running cost.

    ``result`` (the final text) is absent on error subtypes, which carry
    ``errors`` instead; ``is_error`` can be true with subtype ``success``
    (API, auth and connection failures).
    """

    subtype: str
    is_error: bool = False
    result: str | None = None
    errors: tuple[str, ...] = ()
    usage: Usage = field(default_factory=Usage)
    total_cost_usd: float | None = None
    num_turns: int | None = None
    stop_reason: str | None = None
    terminal_reason: str | None = None
    session_id: str | None = None
    api_error_status: int | None = None
    api_error: str | None = None
    raw: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)


@dataclass(frozen=True, slots=True)
class ClaudeOther:
    """A line of a type this mapping does not model (stream_event, rate_limit_event,
    control_response, keep_alive, anything new): kept whole, never an error."""

    type: str
    raw: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)


ClaudeEvent = ClaudeInit | ClaudeSystem | ClaudeAssistant | ClaudeUser | ClaudeResult | ClaudeOther


# ------------------------------------------------------------------- mapping


def claude_usage(obj: Any) -> Usage:
    """A claude ``usage`` object -> agentkit :class:`Usage` (exclusive convention).

    Missing or null counts are 0; a count of the wrong type raises
    :class:`ClaudeEventError`.
    """
    if obj is None:
        return Usage()
    if not isinstance(obj, Mapping):
        raise ClaudeEventError(f"result: usage must be an object, got {obj!r}")

    def count(key: str) -> int:
        value = _int(obj, key, "result.usage")
        if value is not None and value < 0:
            raise ClaudeEventError(f"result.usage: {key} must be >= 0, got {value}")
        return value or 0

    details = obj.get("output_tokens_details")
    thinking = 0
    if isinstance(details, Mapping):
        thinking = _int(details, "thinking_tokens", "result.usage.output_tokens_details") or 0
    raw = RawUsage(
        input_tokens=count("input_tokens"),
        cached_input_tokens=count("cache_read_input_tokens"),
        cache_write_tokens=count("cache_creation_input_tokens"),
        output_tokens=count("output_tokens"),
        reasoning_tokens=max(thinking, 0),
    )
    return ANTHROPIC_API.normalise(raw)


def _cost(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ClaudeEventError(f"{where} must be a number, got {value!r}")
    cost = float(value)
    if not math.isfinite(cost) or cost < 0:
        raise ClaudeEventError(f"{where} must be a finite number >= 0, got {value!r}")
    return cost


def _result(obj: Mapping[str, Any]) -> ClaudeResult:
    errors = obj.get("errors")
    return ClaudeResult(
        subtype=_str(obj, "subtype") or "",
        is_error=obj.get("is_error") is True,
        result=_str(obj, "result"),
        errors=tuple(str(e) for e in errors) if isinstance(errors, list) else (),
        usage=claude_usage(obj.get("usage")),
        total_cost_usd=_cost(obj.get("total_cost_usd"), "result.total_cost_usd"),
        num_turns=_int(obj, "num_turns", "result"),
        stop_reason=_str(obj, "stop_reason"),
        terminal_reason=_str(obj, "terminal_reason"),
        session_id=_str(obj, "session_id"),
        api_error_status=_int(obj, "api_error_status", "result"),
        api_error=_str(obj, "api_error"),
        raw=_view(obj),
    )


def map_claude_event(obj: Mapping[str, Any]) -> ClaudeEvent:
    """One parsed stdout object -> its event. Raises :class:`ClaudeEventError` on bad types."""
    kind = obj.get("type")
    session_id = _str(obj, "session_id")
    if kind == "system":
        subtype = _str(obj, "subtype") or ""
        if subtype == "init":
            tools = obj.get("tools")
            return ClaudeInit(
                session_id=session_id,
                model=_str(obj, "model"),
                cwd=_str(obj, "cwd"),
                tools=tuple(t for t in tools if isinstance(t, str))
                if isinstance(tools, list)
                else (),
                version=_str(obj, "claude_code_version"),
            )
        return ClaudeSystem(subtype, session_id, _view(obj))
    if kind == "assistant":
        message = obj.get("message")
        if not isinstance(message, Mapping):
            raise ClaudeEventError("assistant: message must be an object")
        return ClaudeAssistant(
            message_id=_str(message, "id"),
            blocks=_blocks(message.get("content")),
            model=_str(message, "model"),
            session_id=session_id,
            parent_tool_use_id=_str(obj, "parent_tool_use_id"),
            error=_str(obj, "error"),
            api_error=_str(obj, "api_error"),
            is_api_error=obj.get("is_api_error_message") is True,
        )
    if kind == "user":
        message = obj.get("message")
        content = message.get("content") if isinstance(message, Mapping) else None
        return ClaudeUser(
            blocks=_blocks(content),
            session_id=session_id,
            parent_tool_use_id=_str(obj, "parent_tool_use_id"),
            is_replay=obj.get("isReplay") is True,
        )
    if kind == "result":
        return _result(obj)
    return ClaudeOther(kind if isinstance(kind, str) else "", _view(obj))


def turn_cost(result: ClaudeResult, previous_total: float | None) -> float | None:
    """This turn's cost as the CLI reports it, or None when it reports none.

    1. ``model_usage_since_last_result``: per-model figures since the previous
       result -- the turn's own cost, right even on the first turn of a
       ``--resume`` (whose ``total_cost_usd`` includes the earlier runs).
       Used only when every figure is a number; otherwise:
    2. Else ``total_cost_usd`` minus ``previous_total`` (the previous result's
       total in the same process; 0 for the first). A total that went DOWN
       (a ``/clear`` restarts it) is charged whole: over-charging one turn is
       the side to err on, an under-charge is a budget that never trips.
    """
    since = result.raw.get("model_usage_since_last_result")
    if isinstance(since, Mapping) and since:
        costs = [
            figures.get("costUSD") if isinstance(figures, Mapping) else None
            for figures in since.values()
        ]
        if all(
            isinstance(c, int | float) and not isinstance(c, bool) and math.isfinite(c) and c >= 0
            for c in costs
        ):
            return float(sum(c for c in costs if isinstance(c, int | float)))
    if result.total_cost_usd is None:
        return None
    base = previous_total or 0.0
    delta = result.total_cost_usd - base
    return result.total_cost_usd if delta < 0 else delta
