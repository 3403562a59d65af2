"""The function tool's typed errors: one for the function, one for the arguments."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["ToolArgumentsError", "ToolDefinitionError"]


class ToolDefinitionError(TypeError):
    """A function cannot become a tool as written; raised when the tool is built.

    ``function`` is the function's name, ``parameter`` the parameter at fault
    (``None`` when the fault is the tool as a whole, e.g. its name) and
    ``reason`` what is wrong with it. A TypeError, because the mistake is in
    the code handed over -- a missing annotation, a ``*args`` -- and it is
    better met on the line that builds the tool than by a model at run time.
    """

    def __init__(self, function: str, parameter: str | None, reason: str) -> None:
        self.function = function
        self.parameter = parameter
        self.reason = reason
        where = f"parameter {parameter!r} of {function}" if parameter else function
        super().__init__(f"cannot make a tool of {where}: {reason}")


class ToolArgumentsError(ValueError):
    """Arguments passed to a function tool's ``run`` that break its schema.

    The tool loop checks a model's arguments against the schema before it runs
    a tool, so this is met only by code calling ``run`` directly; it carries
    the same error texts the loop would have sent back to the model.
    """

    def __init__(self, tool: str, errors: Sequence[str]) -> None:
        self.tool = tool
        self.errors = tuple(errors)
        super().__init__(f"invalid arguments for tool {tool!r}: " + "; ".join(self.errors))
