"""Token counts without a tokenizer: the kit's one estimate, about four characters a token.

The doubles need token figures that are deterministic, grow with the text
and cost nothing to compute: FakeLLM reports them as a reply's default
usage, and FakeApi answers the Anthropic token-count endpoint with them.
Both use these functions, so a client that counts a request's tokens before
sending it is told the very figure the scripted reply then reports as its
input.
"""

from __future__ import annotations

from collections.abc import Iterable

from agentkit.core.types import Message

__all__ = ["estimate_input_tokens", "estimate_tokens"]


def estimate_tokens(chars: int) -> int:
    """About four characters per token, rounded up: the usual rule of thumb."""
    return (chars + 3) // 4


def estimate_input_tokens(messages: Iterable[Message]) -> int:
    """The input tokens of a request: the ``content`` of every message it sends.

    A growing transcript costs more per call, as it does on a real model, so
    a token budget trips without a test spelling out any usage.
    """
    return estimate_tokens(sum(len(message.content) for message in messages))
