"""FakeTool: a Tool that answers from a static value or a callable, recording every call."""

from __future__ import annotations

import copy
import inspect
from dataclasses import dataclass, field
from typing import Any

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
    dict, taken before the responder runs: a responder, or the code under
    test, that mutates the args afterwards cannot rewrite the record, and a
    call that raised is recorded too. So ``assert tool.calls == [{"x": 1},
    {"x": 2}]`` says what the tool was actually sent.

    The default ``schema`` is the permissive ``{"type": "object"}`` (any
    JSON object accepted) under the tool's OWN name and description, so a
    ``FakeTool(name="search")`` advertises itself as ``search``; pass
    ``schema=`` to advertise a real shape.

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
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"FakeTool.name must be a non-empty str, got {self.name!r}")
        if not isinstance(self.schema, ToolSchema):
            raise TypeError(f"FakeTool.schema must be a ToolSchema, got {self.schema!r}")
        if self.schema is _DEFAULT_SCHEMA:
            self.schema = ToolSchema(self.name, self.description, {"type": "object"})

    async def run(self, args: dict[str, Any]) -> Any:
        self.calls.append(copy.deepcopy(args))
        responder = self.responder
        if not callable(responder):
            return responder
        result = responder(args)
        if inspect.isawaitable(result):
            return await result
        return result
