"""McpTool: one tool of a FakeMcpServer -- its schema, and how it answers.

A tool answers the way FakeTool does, so a test moving from an in-process
tool to an MCP server keeps its material: a fixed value (``answer=``, the
same value every call), a callable ``answer(arguments)`` (sync or async; an
awaitable result is awaited), or a finite ``script=`` of answers, one per
call, each itself a value, a callable or an error. :class:`McpToolError` --
returned, scripted or raised by a callable -- is the tool's own failure: the
client gets a result with ``isError: true`` and the message, as the protocol
says a tool reports a failure the model may read and recover from.

How a value becomes the MCP result: a ``str`` is one text block; a mapping
is its JSON text and, as well, the result's ``structuredContent`` (checked
against ``output_schema`` when one is declared); any other JSON value
(a number, a list, ``None``) is its JSON text.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_int,
    check_mapping,
    check_number,
    check_str,
    check_values,
)

__all__ = ["McpTool", "McpToolError"]

_NO_ANSWER: Any = object()


class McpToolError(Exception):
    """The tool's own failure, sent to the client as a result with ``isError: true``.

    Return it as an answer, put it in a script, or raise it from a callable
    answer. Any OTHER exception a callable raises is answered the same way
    but also recorded as a violation (``answer_raised``): it is a bug in the
    test's material, not a failure the test scripted.
    """

    def __init__(self, message: str) -> None:
        check_str(message, "McpToolError", "message")
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class McpTool:
    """A declared tool: ``name``, ``description``, the JSON ``schema`` of its
    arguments (``inputSchema``), an optional ``output_schema``, and ONE of
    ``answer`` (a value or a callable, for every call) or ``script`` (one
    answer per call, in order; a call past its end is a violation and a
    JSON-RPC error). ``timeout`` (seconds, default the server's) bounds a
    callable answer. ``expected_calls`` (default None: any number) is how
    many calls the test claims the tool gets; a different count is a
    violation at verification.

    A value: two declarations with equal fields are equal (a callable answer
    compares by identity, as functions do).
    """

    name: str
    answer: Any = _NO_ANSWER
    script: Sequence[Any] | None = None
    description: str = ""
    schema: Mapping[str, Any] = field(default_factory=lambda: {"type": "object"})
    output_schema: Mapping[str, Any] | None = None
    timeout: float | None = None
    expected_calls: int | None = None

    def __post_init__(self) -> None:
        check_str(self.name, "McpTool", "name", empty=False)
        check_str(self.description, "McpTool", "description")
        schema = check_mapping(self.schema, "McpTool", "schema", "a JSON Schema mapping")
        if schema.get("type") != "object":
            raise ArgumentValueError(
                "McpTool",
                "schema",
                'a JSON Schema of an object ({"type": "object", ...})',
                self.schema,
                "MCP tool arguments are always an object",
            )
        if self.output_schema is not None:
            check_mapping(self.output_schema, "McpTool", "output_schema", "a JSON Schema or None")
        if self.timeout is not None:
            check_number(self.timeout, "McpTool", "timeout")
            if self.timeout <= 0 or math.isinf(self.timeout):
                raise ArgumentValueError(
                    "McpTool", "timeout", "a number of seconds > 0", self.timeout
                )
        if self.expected_calls is not None:
            check_int(self.expected_calls, "McpTool", "expected_calls")
        has_answer = self.answer is not _NO_ANSWER
        if self.script is None:
            if not has_answer:
                raise ArgumentTypeError(
                    "McpTool",
                    "answer",
                    "a value, a callable, an McpToolError, or script=[...]",
                    None,
                    f"write McpTool({self.name!r}, answer=...) or McpTool({self.name!r}, script=[...])",
                )
            return
        if has_answer:
            raise ArgumentValueError(
                "McpTool",
                "script",
                "None when answer= is given",
                self.script,
                "give answer= (every call) or script= (one answer per call), not both",
            )
        items = check_values(
            self.script, "McpTool", "script", "a list of answers (values, callables, errors)"
        )
        object.__setattr__(self, "script", items)

    @property
    def callable_answer(self) -> Callable[..., Any] | None:
        """The answer when it is a callable (an McpToolError is a value, not a callable)."""
        answer = self.answer
        if callable(answer) and not isinstance(answer, McpToolError):
            return answer  # type: ignore[no-any-return]
        return None

    def listing(self) -> dict[str, Any]:
        """This tool as ``tools/list`` shows it."""
        entry: dict[str, Any] = {"name": self.name, "inputSchema": _plain(self.schema)}
        if self.description:
            entry["description"] = self.description
        if self.output_schema is not None:
            entry["outputSchema"] = _plain(self.output_schema)
        return entry


def _plain(value: Any) -> Any:
    """A JSON-ready copy: mappings as dicts, sequences as lists (a schema may be read-only)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
