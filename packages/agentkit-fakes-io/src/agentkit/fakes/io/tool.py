"""FakeTool: a Tool that answers from a static value or a callable, recording every call."""

from __future__ import annotations

import copy
import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agentkit.core._internal.arguments import (
    ArgumentValueError,
    check_bool,
    check_mapping,
    check_str,
    check_type,
)
from agentkit.core.types import ToolSchema

__all__ = ["FakeTool"]


def _default_schema() -> ToolSchema:
    """The placeholder default; replaced in ``__post_init__`` by one carrying the tool's name."""
    return _DEFAULT_SCHEMA


_DEFAULT_SCHEMA = ToolSchema("fake_tool", "fake tool for unit tests", {"type": "object"})


@dataclass(eq=False)
class FakeTool:
    """A Tool-Protocol-conforming fake.

    Construct with a static ``responder`` value, returned verbatim (the same
    object) from every run, OR with a callable ``responder(args) -> Any``
    that may be sync or async (an awaitable result is awaited). Any callable
    is called -- to return a function itself, use ``responder=lambda args: fn``.
    Any exception the callable raises propagates, letting a test exercise
    the error path.

    Every run call is appended to :attr:`calls` as a DEEP COPY of its args
    (any Mapping -- a ToolCall's read-only arguments too -- recorded as a dict), taken before the responder runs: a responder, or the code under
    test, that mutates the args afterwards cannot rewrite the record, and a
    call that raised is recorded too. So ``assert tool.calls == [{"x": 1},
    {"x": 2}]`` says what the tool was actually sent.

    The default ``schema`` is the permissive ``{"type": "object"}`` (any
    JSON object accepted) under the tool's OWN name and description, so a
    ``FakeTool(name="search")`` advertises itself as ``search``; pass
    ``schema=`` to advertise a real shape.

    An explicit ``schema`` must carry the tool's own ``name``: a model
    offered ``search`` that calls ``search`` must reach this tool, and a
    schema naming another tool would send it elsewhere. Every field is
    checked at construction (a TypeError or ValueError naming it).

    It verifies nothing at teardown, and that is a decision: a responder is a
    rule that answers every call, with nothing to leave over or to miss. A
    tool the agent never called shows in :attr:`calls` (assert
    ``tool.calls``); a scripted call to a tool the request did not offer is
    the scripted LLM's to report.

    Compared and hashed by identity (``eq=False``), like any live object: two
    tools with the same fields are still two tools, and a registry may key
    on one.
    """

    name: str = "fake_tool"
    description: str = "fake tool for unit tests"
    responder: Any = None
    side_effecting: bool = False
    requires_approval: bool = False
    output_schema: dict[str, Any] | None = None
    schema: ToolSchema = field(default_factory=_default_schema)
    calls: list[dict[str, Any]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        check_str(self.name, "FakeTool", "name", empty=False)
        check_str(self.description, "FakeTool", "description")
        check_bool(self.side_effecting, "FakeTool", "side_effecting")
        check_bool(self.requires_approval, "FakeTool", "requires_approval")
        if self.output_schema is not None:
            check_mapping(
                self.output_schema, "FakeTool", "output_schema", "a JSON Schema dict or None"
            )
        check_type(self.schema, ToolSchema, "FakeTool", "schema", "a ToolSchema")
        if self.schema is _DEFAULT_SCHEMA:
            self.schema = ToolSchema(self.name, self.description, {"type": "object"})
        elif self.schema.name != self.name:
            raise ArgumentValueError(
                "FakeTool",
                "schema",
                f"a ToolSchema named {self.name!r} (the tool's name)",
                self.schema,
                f"write ToolSchema({self.name!r}, ...) or FakeTool(name={self.schema.name!r})",
            )

    async def run(self, args: Mapping[str, Any]) -> Any:
        check_mapping(args, "FakeTool.run", "args", "a mapping of arguments")
        # Copied into a plain dict first: a ToolCall hands its arguments over as a read-only
        # mappingproxy, which deepcopy cannot copy, and the record is a dict either way.
        self.calls.append(copy.deepcopy(dict(args)))
        responder = self.responder
        if not callable(responder):
            return responder
        result = responder(args)
        if inspect.isawaitable(result):
            return await result
        return result
