"""The loop's typed errors: each says what was wrong and carries what it was holding.

Only situations the loop cannot turn into a message for the model raise. A
model's bad call, a failing tool, a denial all become transcript entries; these
are the cases where the caller set the run up so that it cannot go on (nowhere
to park or store a gated call) or handed ``resume`` something it cannot resume.
"""

from __future__ import annotations

from agentkit.core.types import Message, ToolCall

__all__ = [
    "ApprovalUnavailable",
    "CheckpointAlreadyResumed",
    "CheckpointNotFound",
    "CheckpointerMissing",
    "InvalidCheckpoint",
    "ReactError",
]


class ReactError(Exception):
    """Base of every error the ReactAgent raises itself."""


class ApprovalUnavailable(ReactError):
    """A gated tool call needs a human, but the context has neither an asker nor a checkpointer.

    With an asker the call would park and wait; with a checkpointer the run
    would suspend and could be resumed. With neither, going on would either run
    a call nobody approved or silently drop it, so the run stops here instead,
    and the error keeps the call and the transcript so nothing is lost.
    """

    def __init__(self, tool_call: ToolCall, messages: tuple[Message, ...]) -> None:
        self.tool_call = tool_call
        self.messages = messages
        super().__init__(
            f"tool {tool_call.name!r} (call {tool_call.id!r}) requires approval under "
            "autonomy='ask', but the context has no asker (services.asker) to park the "
            "call on and no checkpointer (services.checkpointer) to suspend the run to; "
            "give it one of them, or run with autonomy='auto'"
        )


class CheckpointerMissing(ReactError):
    """``resume`` was called on a context with no checkpointer to load the run from."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(
            f"cannot resume checkpoint {key!r}: the context has no checkpointer "
            "(services.checkpointer); pass the one the run was suspended to"
        )


class CheckpointNotFound(ReactError, LookupError):
    """``resume`` was given a key the checkpointer has nothing stored under."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(f"no checkpoint stored under key {key!r}")


class InvalidCheckpoint(ReactError, ValueError):
    """The state stored under a key is not a suspended ReactAgent run this agent can resume."""

    def __init__(self, key: str, problem: str) -> None:
        self.key = key
        self.problem = problem
        super().__init__(f"checkpoint {key!r} cannot be resumed: {problem}")


class CheckpointAlreadyResumed(ReactError):
    """The checkpoint was resumed before.

    Resuming twice would run (or deny) the same pending call twice, and a gated
    call is exactly the kind that changes the world, so the second resume is
    refused rather than repeated.
    """

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(f"checkpoint {key!r} was already resumed; a run resumes once")
