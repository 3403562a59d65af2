"""A reply, precomputed: its content deltas, tool calls and size.

The stream hot path is benchmarked, so everything that can be decided before
the first delta is decided here, once per distinct reply: the content is cut
into chunks and each chunk wrapped in its :class:`~agentkit.core.types.Delta`
ahead of time. Streaming a reply is then a loop over a tuple of ready-made,
immutable objects -- nothing is allocated per chunk at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from agentkit.core.estimate import estimate_input_tokens, estimate_tokens
from agentkit.core.types import Delta, Message, ToolCall, Usage
from agentkit.fakes.llm.turn import Turn

__all__ = ["CHUNK_PATTERN", "Reply", "chunk", "estimate_tokens", "estimate_usage", "reply_for"]

CHUNK_PATTERN = r"\s{0,8}\S{1,8}|\s{1,8}"
"""One chunk: up to 8 non-space characters with up to 8 spaces before them, or a run of up
to 8 spaces. Word-like, as a tokenizer's pieces are (leading space attached), yet bounded, so a
long JSON blob with no spaces still streams in many small deltas; and the chunks of a text
always concatenate back to exactly that text. Kept as text: compiled by ``re`` (and cached
there) when a reply is first chunked, not when the module is imported."""


def estimate_usage(
    messages: Sequence[Message], output_tokens: int, reasoning_tokens: int = 0
) -> Usage:
    """The default Usage of a reply: input from the request
    (:func:`~agentkit.core.estimate.estimate_input_tokens`), output from the reply."""
    return Usage(
        input_tokens=estimate_input_tokens(messages),
        output_tokens=output_tokens,
        reasoning_tokens=reasoning_tokens,
    )


@lru_cache(maxsize=256)
def chunk(text: str) -> tuple[Delta, ...]:
    """The content deltas of ``text``; empty text streams no content delta at all.

    Cached because the same reply is streamed again and again (a str-form
    double, a repeated turn, a benchmark); the deltas are frozen, so sharing
    them between calls and doubles is safe.
    """
    return tuple(Delta(content=piece) for piece in re.findall(CHUNK_PATTERN, text))


def _tool_call_chars(call: ToolCall) -> int:
    return len(call.name) + len(json.dumps(dict(call.arguments), sort_keys=True, default=str))


@dataclass(frozen=True, slots=True)
class Reply:
    """Everything about one reply that does not depend on the request."""

    deltas: tuple[Delta, ...]
    tool_calls: tuple[ToolCall, ...]
    finish_reason: str
    output_tokens: int
    usage: Usage | None
    reasoning_tokens: int = 0


def reply_for(turn: Turn) -> Reply:
    """Precompute ``turn``; ``finish_reason``, unless the turn gives one, is "tool_calls"
    when it requests tools, else "stop". Reasoning, when the turn has some, is one delta
    before the content, and counted inside the output tokens as providers count it."""
    chars = len(turn.content) + len(turn.reasoning)
    for call in turn.tool_calls:
        chars += _tool_call_chars(call)
    deltas = chunk(turn.content)
    if turn.reasoning:
        deltas = (Delta(reasoning=turn.reasoning), *deltas)
    return Reply(
        deltas=deltas,
        tool_calls=turn.tool_calls,
        finish_reason=turn.finish_reason or ("tool_calls" if turn.tool_calls else "stop"),
        output_tokens=estimate_tokens(chars),
        usage=turn.usage,
        reasoning_tokens=estimate_tokens(len(turn.reasoning)) if turn.reasoning else 0,
    )
