"""What a real provider would refuse, or a real model could not have sent, for the LLM doubles.

Two kinds of check, one per side of a model call:

- the request (:func:`unanswered_tool_calls`): a transcript in which an
  assistant's tool call has no tool-result message before the next model call.
  Every provider refuses it (a 400), so a double that answered it would let a
  broken tool loop pass against the fake and fail against the real thing;
- the scripted reply (:func:`reply_problems`): a tool call naming a tool the
  request did not offer, or with arguments that do not fit the offered tool's
  JSON Schema (checked with :func:`agentkit.core.schema.schema_errors`, the
  subset the tool loop checks real calls with). A script is a claim about what
  a model would send; a model held to the schema could not send these.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from agentkit.core.types import Message, ToolCall, ToolSchema

__all__ = [
    "UNANSWERED_FIX",
    "Problem",
    "reply_problems",
    "unanswered_text",
    "unanswered_tool_calls",
]

_SCHEMA_CHARS = 200


class Problem(NamedTuple):
    """One violation to record: its kind, what happened, and the fix."""

    kind: str
    detail: str
    fix: str


def unanswered_tool_calls(messages: Sequence[Message]) -> list[ToolCall]:
    """The tool calls of assistant messages that no tool message answers in time.

    A call is answered by a ``tool`` message with its id among the messages
    that follow its assistant message, up to the next message that is not a
    tool result: that is where every provider wants the results. A call still
    unanswered at the end of the transcript is unanswered too -- the request
    asks the model to go on without the result it asked for.
    """
    unanswered: list[ToolCall] = []
    pending: dict[str, ToolCall] = {}
    for message in messages:
        if message.role == "tool":
            if message.tool_call_id is not None:
                pending.pop(message.tool_call_id, None)
            continue
        if pending:
            unanswered.extend(pending.values())
            pending = {}
        if message.role == "assistant" and message.tool_calls:
            pending = {call.id: call for call in message.tool_calls}
    unanswered.extend(pending.values())
    return unanswered


def unanswered_text(unanswered: Sequence[ToolCall]) -> str:
    """What a refusal of a request with ``unanswered`` tool calls says."""
    calls = ", ".join(f"{call.id!r} ({call.name})" for call in unanswered)
    return (
        f"the request has an assistant tool call with no tool-result message before this "
        f"model call: {calls}; a real provider refuses such a request (HTTP 400)"
    )


UNANSWERED_FIX = (
    "append Message.tool(result, tool_call_id=call.id) for every tool call of an assistant "
    "message before asking the model again (a failed tool is answered with its error text)"
)


def _schema_text(parameters: Mapping[str, Any]) -> str:
    text = json.dumps(dict(parameters), sort_keys=True, default=str)
    return text if len(text) <= _SCHEMA_CHARS else text[: _SCHEMA_CHARS - 3] + "..."


def reply_problems(
    calls: Sequence[ToolCall], tools: Sequence[ToolSchema] | None, turn: str
) -> list[Problem]:
    """The violations of a reply's tool calls against the tools the request offered.

    ``turn`` names the reply in the report: "scripted turn 2", "the callable's
    turn at call 3", "the generated turn at call 1".
    """
    if not calls:
        return []
    # Imported here: a FakeLLM test whose replies call no tool never pays for the checker.
    from agentkit.core.schema import schema_errors

    offered = {tool.name: tool for tool in tools} if tools else {}
    problems: list[Problem] = []
    unoffered = [call for call in calls if call.name not in offered]
    if unoffered:
        names = sorted(offered)
        called = ", ".join(repr(call.name) for call in unoffered)
        problems.append(
            Problem(
                "unoffered_tool",
                f"{turn} calls {called}, but the request offered "
                + (f"only {names}" if names else "no tools"),
                "correct the tool name in the script (a typo?), or offer that tool to the "
                "agent; to script a model calling an unknown tool on purpose, build this "
                "double with verify=False",
            )
        )
    for call in calls:
        tool = offered.get(call.name)
        if tool is None:
            continue
        errors = schema_errors(tool.parameters, call.arguments)
        if errors:
            problems.append(
                Problem(
                    "invalid_tool_arguments",
                    f"{turn} calls {call.name!r} (id {call.id!r}) with "
                    f"arguments that do not fit its schema: {'; '.join(errors)} "
                    f"(arguments {_schema_text(call.arguments)}; schema "
                    f"{_schema_text(tool.parameters)})",
                    "correct the arguments in the script to what the tool's schema asks for, "
                    "or the tool's schema if it is the one that is wrong; to script a malformed "
                    "call on purpose (to test how the agent handles it), build this double "
                    "with verify=False",
                )
            )
    return problems
