"""What FakeApi keeps, for a test to assert on: every HTTP request, and every forwarded call."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentkit.core.request import ChatRequest
    from agentkit.core.types import ChatResponse
    from agentkit.fakes.api.errors import ApiError, BrokenStream

__all__ = ["ApiRequest", "Exchange"]


@dataclass(frozen=True, slots=True)
class ApiRequest:
    """One HTTP request exactly as it arrived, and what it was answered.

    ``headers`` has lower-cased names (HTTP names are case-insensitive, and a
    test should not care how a client spells them), and a real-looking
    provider key in one is replaced by ``[REDACTED]`` (the server reports it:
    a test should send a made-up key); ``body`` is the raw bytes
    after any ``Content-Encoding`` was undone; ``status`` is the HTTP status
    the server answered with (``0`` when the connection was closed without a
    status line, as a scripted :class:`~agentkit.fakes.api.BrokenStream` on a
    plain request does). ``side`` is True for a side request, answered apart
    from the brain (a reachability probe, a token count, a model call the
    server's ``side_requests`` picked out): no turn of the script.
    """

    method: str
    path: str
    headers: Mapping[str, str]
    body: bytes
    status: int
    side: bool = False

    @property
    def route(self) -> str:
        """The path without its query string (claude adds ``?beta=true``)."""
        return self.path.split("?", 1)[0]

    @property
    def json(self) -> Any:
        """The body parsed as JSON; ``None`` when it is empty or not JSON."""
        if not self.body:
            return None
        try:
            return json.loads(self.body)
        except ValueError:
            return None


@dataclass(frozen=True, slots=True)
class Exchange:
    """One model call a FakeApi forwarded to the provider (``upstream=``), at the model level.

    ``request`` is the call as the FakeApi parsed it (the kit's
    :class:`~agentkit.core.request.ChatRequest`: messages, tools, model...),
    ``answer`` what the provider answered: a
    :class:`~agentkit.core.types.ChatResponse` (content, tool calls,
    reasoning, usage, finish reason), or the provider's error as the
    :class:`~agentkit.fakes.api.ApiError` a brain would raise for a client to
    see it again, or the :class:`~agentkit.fakes.api.BrokenStream` of a stream
    cut off. ``wire`` is the API it went through (``"anthropic"``,
    ``"openai_chat"``, ``"openai_responses"``), ``stream`` whether it was
    streamed. No header, no key: nothing of the transport is kept.
    """

    wire: str
    request: ChatRequest
    answer: ChatResponse | ApiError | BrokenStream
    stream: bool
