"""A suspended run as JSON-serialisable state, and back.

A checkpoint outlives the process that wrote it (a UI answers tomorrow, a
worker resumes on another machine), so the state is plain JSON values only:
strings, numbers, lists and dicts. Messages and tool calls are written field by
field here rather than pickled, so a checkpoint is readable, diffable and does
not depend on the class layout of the version that wrote it; ``format`` names
the layout so that a later version can tell what it is reading.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast, get_args

from agentkit.agents.react.errors import InvalidCheckpoint
from agentkit.core._internal.arguments import (
    check_bool,
    check_int,
    check_str,
    check_type,
)
from agentkit.core.types import Message, Role, ToolCall

__all__ = [
    "CHECKPOINT_FORMAT",
    "SuspendedRun",
    "message_from_state",
    "message_to_state",
    "tool_call_from_state",
    "tool_call_to_state",
]

CHECKPOINT_FORMAT = "agentkit.react.checkpoint/v1"
_ROLES = frozenset(get_args(Role))


def plain_data(value: Any) -> Any:
    """A deep copy made of dicts and lists only (a ToolCall's arguments are read-only mappings)."""
    if isinstance(value, Mapping):
        return {str(k): plain_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_data(v) for v in value]
    return value


def tool_call_to_state(call: ToolCall) -> dict[str, Any]:
    return {"id": call.id, "name": call.name, "arguments": plain_data(call.arguments)}


def tool_call_from_state(data: Any) -> ToolCall:
    if not isinstance(data, Mapping):
        raise ValueError(f"a tool call must be an object, got {type(data).__name__}")
    call_id, name, arguments = data.get("id"), data.get("name"), data.get("arguments", {})
    if not isinstance(call_id, str) or not isinstance(name, str):
        raise ValueError(f"a tool call needs string 'id' and 'name', got {dict(data)!r}")
    if not isinstance(arguments, Mapping):
        raise ValueError(f"tool call {call_id!r} has non-object arguments {arguments!r}")
    return ToolCall(call_id, name, arguments)


def message_to_state(message: Message) -> dict[str, Any]:
    return {
        "role": message.role,
        "content": message.content,
        "tool_calls": [tool_call_to_state(c) for c in message.tool_calls],
        "tool_call_id": message.tool_call_id,
        "name": message.name,
    }


def message_from_state(data: Any) -> Message:
    if not isinstance(data, Mapping):
        raise ValueError(f"a message must be an object, got {type(data).__name__}")
    role, content = data.get("role"), data.get("content", "")
    if not isinstance(role, str) or role not in _ROLES:
        raise ValueError(f"message role {role!r} is not one of {sorted(_ROLES)}")
    if not isinstance(content, str):
        raise ValueError(f"message content must be a string, got {type(content).__name__}")
    calls = data.get("tool_calls", [])
    if not isinstance(calls, list):
        raise ValueError("message tool_calls must be a list")
    tool_call_id, name = data.get("tool_call_id"), data.get("name")
    if tool_call_id is not None and not isinstance(tool_call_id, str):
        raise ValueError("message tool_call_id must be a string or null")
    if name is not None and not isinstance(name, str):
        raise ValueError("message name must be a string or null")
    return Message(
        cast("Role", role),
        content,
        tool_calls=tuple(tool_call_from_state(c) for c in calls),
        tool_call_id=tool_call_id,
        name=name,
    )


@dataclass(frozen=True, slots=True)
class SuspendedRun:
    """Where a run stopped to wait for a human.

    ``messages`` is the transcript up to and including the assistant message
    that asked for ``pending`` (and the tool messages of the calls before it in
    that message); ``remaining`` are the calls after it in the same message,
    still to be handled once the pending one is; ``iteration`` is the step the
    run was in. Resuming handles ``pending``, then ``remaining``, then goes on
    with step ``iteration + 1`` -- exactly the order an uninterrupted run takes.
    """

    task: str
    model: str
    iteration: int
    messages: tuple[Message, ...]
    pending: ToolCall
    remaining: tuple[ToolCall, ...] = ()
    resumed: bool = False

    def __post_init__(self) -> None:
        where = "SuspendedRun"
        check_str(self.task, where, "task")
        check_str(self.model, where, "model", empty=False)
        check_int(self.iteration, where, "iteration", minimum=1)
        check_type(self.pending, ToolCall, where, "pending", "a ToolCall")
        for field_name, kind, items in (
            ("messages", Message, self.messages),
            ("remaining", ToolCall, self.remaining),
        ):
            check_type(items, tuple, where, field_name, f"a tuple of {kind.__name__}")
            for index, item in enumerate(items):
                check_type(item, kind, where, f"{field_name}[{index}]", f"a {kind.__name__}")
        check_bool(self.resumed, where, "resumed")

    def to_state(self) -> dict[str, Any]:
        return {
            "format": CHECKPOINT_FORMAT,
            "status": "resumed" if self.resumed else "suspended",
            "task": self.task,
            "model": self.model,
            "iteration": self.iteration,
            "messages": [message_to_state(m) for m in self.messages],
            "pending": tool_call_to_state(self.pending),
            "remaining": [tool_call_to_state(c) for c in self.remaining],
        }

    @classmethod
    def from_state(cls, key: str, state: Mapping[str, Any]) -> SuspendedRun:
        """Read a stored state back; anything malformed is an :class:`InvalidCheckpoint`."""
        if not isinstance(state, Mapping):
            raise InvalidCheckpoint(key, f"state is a {type(state).__name__}, not an object")
        if state.get("format") != CHECKPOINT_FORMAT:
            raise InvalidCheckpoint(
                key, f"format is {state.get('format')!r}, expected {CHECKPOINT_FORMAT!r}"
            )
        status = state.get("status")
        if status not in ("suspended", "resumed"):
            raise InvalidCheckpoint(key, f"status {status!r} is not 'suspended' or 'resumed'")
        task, model, iteration = state.get("task"), state.get("model"), state.get("iteration")
        if not isinstance(task, str) or not isinstance(model, str):
            raise InvalidCheckpoint(key, "'task' and 'model' must be strings")
        if isinstance(iteration, bool) or not isinstance(iteration, int) or iteration < 1:
            raise InvalidCheckpoint(key, f"'iteration' must be an int >= 1, got {iteration!r}")
        messages, remaining = state.get("messages"), state.get("remaining", [])
        if not isinstance(messages, Sequence) or isinstance(messages, str):
            raise InvalidCheckpoint(key, "'messages' must be a list")
        if not isinstance(remaining, Sequence) or isinstance(remaining, str):
            raise InvalidCheckpoint(key, "'remaining' must be a list")
        try:
            return cls(
                task=task,
                model=model,
                iteration=iteration,
                messages=tuple(message_from_state(m) for m in messages),
                pending=tool_call_from_state(state.get("pending")),
                remaining=tuple(tool_call_from_state(c) for c in remaining),
                resumed=status == "resumed",
            )
        except ValueError as exc:
            raise InvalidCheckpoint(key, str(exc)) from exc
