"""RequestBuilder: turns a run's transcript into the ChatRequest for its next model call.

The transcript is the run's record and is never rewritten here; the request is
a view of it. The builder puts the system prompt first, the Grounder's block
(the documents or facts the task is to be answered against) after it, and the
transcript after that -- compacted by the Compactor when it has grown past the
builder's limit. Every build runs in a span stamped with
``agentkit.prompt.version``, so that a trace says which prompt produced which
reply: change the prompt, bump the version, and the traces of the two can be
told apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass
from typing import TYPE_CHECKING

from agentkit.core._internal.arguments import (
    ArgumentValueError,
    check_int,
    check_number,
    check_protocol,
    check_str,
)
from agentkit.core.request import ChatRequest
from agentkit.core.types import Message

if TYPE_CHECKING:
    from agentkit.core.ports import Compactor, Ctx, Grounder

__all__ = ["PROMPT_VERSION_ATTR", "RequestBuilder"]

PROMPT_VERSION_ATTR = "agentkit.prompt.version"


def _chars(messages: Sequence[Message]) -> int:
    return sum(len(m.content) + sum(len(str(c.arguments)) for c in m.tool_calls) for m in messages)


@dataclass(frozen=True)
class RequestBuilder:
    """Builds each model call's request: system prompt, grounding, (compacted) transcript.

    ``max_messages`` and ``max_chars`` are the limits past which the transcript
    is handed to ``compactor`` (``max_chars`` counts content characters, a
    cheap stand-in for tokens). A limit needs a compactor and a compactor needs
    a limit: either alone would mean a transcript that silently grows past what
    was asked, or a compactor that never runs, so both are refused at
    construction.
    """

    system_prompt: str
    _: KW_ONLY
    model: str
    grounder: Grounder | None = None
    compactor: Compactor | None = None
    max_messages: int | None = None
    max_chars: int | None = None
    prompt_version: str = "v1"
    temperature: float = 0.0
    max_tokens: int | None = None

    def __post_init__(self) -> None:
        where = "RequestBuilder"
        check_str(self.system_prompt, where, "system_prompt")
        check_str(self.model, where, "model", empty=False)
        check_str(self.prompt_version, where, "prompt_version", empty=False)
        if self.grounder is not None:
            check_protocol(
                self.grounder, where, "grounder", "a Grounder (with ground) or None", ("ground",)
            )
        if self.compactor is not None:
            check_protocol(
                self.compactor,
                where,
                "compactor",
                "a Compactor (with compact) or None",
                ("compact",),
            )
        for name, limit in (("max_messages", self.max_messages), ("max_chars", self.max_chars)):
            if limit is not None:
                check_int(limit, where, name, minimum=1)
        check_number(self.temperature, where, "temperature")
        if self.max_tokens is not None:
            check_int(self.max_tokens, where, "max_tokens", minimum=1)
        has_limit = self.max_messages is not None or self.max_chars is not None
        if has_limit and self.compactor is None:
            raise ArgumentValueError(
                where,
                "compactor",
                "a Compactor when max_messages / max_chars is given",
                None,
                "max_messages / max_chars need a compactor to shrink the transcript with",
            )
        if self.compactor is not None and not has_limit:
            raise ArgumentValueError(
                where,
                "max_messages",
                "an int >= 1 (or max_chars) when a compactor is given",
                None,
                "a compactor needs a limit: pass max_messages or max_chars",
            )

    def over_limit(self, transcript: Sequence[Message]) -> bool:
        """Whether ``transcript`` is past either limit (and so would be compacted)."""
        if self.max_messages is not None and len(transcript) > self.max_messages:
            return True
        return self.max_chars is not None and _chars(transcript) > self.max_chars

    async def build(self, ctx: Ctx, transcript: Sequence[Message], task: str) -> ChatRequest:
        """The request for the next model call on ``transcript``, for ``task``."""
        with ctx.trace.span(
            "request_builder.build",
            kind="internal",
            **{PROMPT_VERSION_ATTR: self.prompt_version, "agentkit.prompt.model": self.model},
        ) as span:
            head: list[Message] = []
            if self.system_prompt:
                head.append(Message.system(self.system_prompt))
            grounded = False
            if self.grounder is not None:
                block = await self.grounder.ground(ctx, task)
                if not isinstance(block, str):
                    raise TypeError(
                        f"grounder {type(self.grounder).__name__}.ground returned "
                        f"{type(block).__name__}, expected str"
                    )
                if block.strip():
                    head.append(Message.system(block))
                    grounded = True
            body = list(transcript)
            compacted = False
            if self.compactor is not None and self.over_limit(body):
                before = len(body)
                body = list(await self.compactor.compact(body))
                bad = [type(m).__name__ for m in body if not isinstance(m, Message)]
                if bad:
                    raise TypeError(
                        f"compactor {type(self.compactor).__name__}.compact returned non-Message "
                        f"items: {bad}"
                    )
                compacted = True
                span.set("agentkit.prompt.compacted_from", before)
                ctx.observer.emit("request_builder.compacted", before=before, after=len(body))
            messages = head + body
            span.set("agentkit.prompt.grounded", grounded)
            span.set("agentkit.prompt.compacted", compacted)
            span.set("agentkit.prompt.messages", len(messages))
            return ChatRequest(
                messages=messages,
                model=self.model,
                temperature=self.temperature,
                max_tokens=self.max_tokens,
                metadata={PROMPT_VERSION_ATTR: self.prompt_version},
            )
