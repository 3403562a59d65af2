"""The typed records the LLM doubles keep of what they were sent.

TypedDicts rather than ``dict[str, Any]``: a test reading
``llm.calls[0]["messages"]`` gets ``list[Message]`` back, and a misspelled key
(``llm.calls[0]["mesages"]``) is a type error instead of a KeyError at run
time. Dicts rather than dataclasses because a record is compared whole in
tests (``llm.calls == [{"messages": [...], ...}]``) and that must keep working.
"""

from __future__ import annotations

from typing import Any, TypedDict

from agentkit.core.types import Message, ToolSchema

__all__ = ["AdapterCall", "LLMCall"]


class LLMCall(TypedDict):
    """One call a :class:`~agentkit.fakes.llm.FakeLLM` was sent: the stream() keywords.

    ``messages`` and ``tools`` are copies of what the caller passed, so a
    transcript the caller appends to afterwards does not rewrite the record.
    """

    messages: list[Message]
    model: str
    tools: list[ToolSchema] | None
    response_format: dict[str, Any] | None
    temperature: float
    max_tokens: int | None
    cache_hint: Any


class AdapterCall(TypedDict):
    """One ``send`` a :class:`~agentkit.fakes.llm.ScriptedAdapter` received (copies)."""

    messages: list[Message]
    model: str
    tools: list[ToolSchema] | None
    options: dict[str, Any]
