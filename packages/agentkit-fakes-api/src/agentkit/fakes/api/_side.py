"""Side requests: what a real client asks beside the conversation, answered apart from it.

A CLI makes requests of its own besides the conversation under test: claude
probes ``HEAD /api/hello`` to see that its API is reachable (unless
``CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC`` is set), counts tokens, and may
ask a model for a title, a summary or a quota check. Answered by the test's
brain, those would consume its scripted turns (or fail it with
ScriptExhausted) though the test never meant them. So:

* endpoints that are not a model call (the reachability probe, token
  counting) are answered by the server itself;
* model calls a test marks as side calls (``FakeApi(side_requests=...)``, a
  predicate on the kit's :class:`~agentkit.core.request.ChatRequest`) are
  answered by :class:`TextAnswer` (or a port the test gives), never by the
  brain.

Either way the request is kept in ``FakeApi.requests`` with ``side=True`` and
is no part of the brain's script or its verification.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator

from agentkit.core._internal.arguments import check_str
from agentkit.core.estimate import estimate_input_tokens, estimate_tokens
from agentkit.core.request import ChatModel, ChatRequest
from agentkit.core.types import Delta, Usage

__all__ = ["HELLO", "TextAnswer"]

HELLO = "/api/hello"
"""claude's reachability probe (``HEAD``): answered 200 with no body."""


class TextAnswer(ChatModel):
    """Answers every call with ``text``, its usage estimated as FakeLLM estimates it."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = check_str(text, "FakeApi", "side_answer")

    async def stream_request(self, request: ChatRequest) -> AsyncGenerator[Delta, None]:
        if self.text:
            yield Delta(content=self.text)
        usage = Usage(
            input_tokens=estimate_input_tokens(request.messages),
            output_tokens=estimate_tokens(len(self.text)),
        )
        yield Delta(usage=usage, finish_reason="stop")
