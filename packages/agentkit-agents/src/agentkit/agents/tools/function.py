"""FunctionTool and @tool: a real tool from a plain, annotated function.

A tool the model can call needs a name, a description and a JSON Schema of
its parameters, and every one of those is already in a well-written function:
its name, its docstring, its type hints. Writing them out again by hand -- a
class with six properties and a schema dict -- is where they drift apart: the
schema says ``limit`` is optional, the function requires it, and the model
finds out at run time. So the schema is derived, once, when the tool is
built, and anything that cannot be derived faithfully (a parameter without a
type hint, ``*args``, an annotation with no JSON counterpart, a docstring
describing a parameter the function does not have) is refused there, with a
:class:`~agentkit.agents.tools.errors.ToolDefinitionError` naming the
parameter.

::

    @tool
    async def weather(city: str, unit: Literal["C", "F"] = "C") -> dict[str, str]:
        \"\"\"Current weather for a city.

        Args:
            city: The city's name, e.g. "Paris".
            unit: Celsius or Fahrenheit.
        \"\"\"

    ReactAgent([weather], model="m")

A :class:`FunctionTool` satisfies :class:`agentkit.core.ports.Tool`; it is
still callable as the function it wraps, with the same signature for the type
checker, so its own unit tests call it directly. ``run`` checks the model's
arguments against the schema, converts them to the annotated types (an enum
member, a dataclass instance, a tuple) and calls the function -- sync or
async; a sync function runs on the event loop, so keep it quick or make it
async. A dataclass or enum it returns is handed back as plain JSON data.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import json
import re
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar, overload

from agentkit.agents.tools._annotations import Shape, UnsupportedAnnotation, shape_of
from agentkit.agents.tools._docstring import parse_docstring
from agentkit.agents.tools.errors import ToolArgumentsError, ToolDefinitionError
from agentkit.core.schema import schema_errors
from agentkit.core.types import ToolSchema

__all__ = ["FunctionTool", "tool"]

P = ParamSpec("P")
R = TypeVar("R")

# What the major providers accept as a function name; a tool outside it is refused by them.
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _function_name(fn: object) -> str:
    name = getattr(fn, "__name__", None)
    return name if isinstance(name, str) else type(fn).__name__


def _json_default(value: Any) -> tuple[bool, Any]:
    """(True, the JSON form) of a default a schema may show; (False, None) otherwise."""
    if isinstance(value, enum.Enum):
        value = value.value
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False, None
    return True, value


def _plain_result(value: Any) -> Any:
    """A returned dataclass / enum / tuple as the JSON-ready data the tool message is made of."""
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain_result(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: _plain_result(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain_result(v) for v in value]
    return value


class FunctionTool(Generic[P, R]):
    """A :class:`~agentkit.core.ports.Tool` made from ``fn``'s name, docstring and type hints.

    ``name`` and ``description`` override the function's name and its
    docstring's summary; ``side_effecting``, ``requires_approval`` and
    ``output_schema`` mean what they do on any Tool (the loop gates a tool
    that requires approval, and checks a result against ``output_schema``).
    Every parameter needs an annotation; one with a default is optional in
    the schema and shows the default when it is JSON. The schema is closed
    (``additionalProperties: false``), so a model's misspelt argument comes
    back to it as an error instead of reaching the function as a TypeError.
    """

    def __init__(
        self,
        fn: Callable[P, R],
        *,
        name: str | None = None,
        description: str | None = None,
        side_effecting: bool = False,
        requires_approval: bool = False,
        output_schema: dict[str, Any] | None = None,
    ) -> None:
        if not callable(fn):
            raise ToolDefinitionError(repr(fn), None, "fn must be a callable")
        label = _function_name(fn)
        for flag, value in (
            ("side_effecting", side_effecting),
            ("requires_approval", requires_approval),
        ):
            if not isinstance(value, bool):
                raise ToolDefinitionError(label, None, f"{flag} must be a bool, got {value!r}")
        if output_schema is not None and not isinstance(output_schema, dict):
            raise ToolDefinitionError(
                label, None, f"output_schema must be a dict or None, got {output_schema!r}"
            )
        if description is not None and not isinstance(description, str):
            raise ToolDefinitionError(
                label, None, f"description must be a str, got {description!r}"
            )
        try:
            signature = inspect.signature(fn, eval_str=True)
        except NameError as exc:
            raise ToolDefinitionError(
                label,
                None,
                f"its annotations do not resolve: {exc} (under postponed annotations a "
                "name is looked up in the function's module, so a class defined inside "
                "another function cannot be used)",
            ) from None
        except ValueError as exc:
            raise ToolDefinitionError(
                label, None, f"it has no inspectable signature: {exc}"
            ) from None
        docs = parse_docstring(inspect.getdoc(fn))
        self._shapes: dict[str, Shape] = {}
        properties: dict[str, Any] = {}
        required: list[str] = []
        for param in signature.parameters.values():
            properties[param.name] = self._parameter(label, param, docs.params.get(param.name))
            if param.default is inspect.Parameter.empty:
                required.append(param.name)
        stale = sorted(set(docs.params) - set(signature.parameters))
        if stale:
            raise ToolDefinitionError(
                label, stale[0], "the docstring describes it but the function has no such parameter"
            )
        tool_name = label if name is None else name
        if not isinstance(tool_name, str) or not _NAME.match(tool_name):
            raise ToolDefinitionError(
                label,
                None,
                f"the tool name {tool_name!r} must be 1-64 letters, digits, '_' or '-' "
                "(pass name= to choose one)",
            )
        parameters: dict[str, Any] = {
            "type": "object",
            "properties": properties,
            "additionalProperties": False,
        }
        if required:
            parameters["required"] = required
        self._fn = fn
        self._name = tool_name
        self._description = docs.description if description is None else description
        self._schema = ToolSchema(tool_name, self._description, parameters)
        self._side_effecting = side_effecting
        self._requires_approval = requires_approval
        self._output_schema = output_schema

    def _parameter(self, label: str, param: inspect.Parameter, doc: str | None) -> dict[str, Any]:
        kind = param.kind
        if kind is inspect.Parameter.VAR_POSITIONAL or kind is inspect.Parameter.VAR_KEYWORD:
            star = "*" if kind is inspect.Parameter.VAR_POSITIONAL else "**"
            raise ToolDefinitionError(
                label,
                param.name,
                f"{star}{param.name} cannot be described to a model; name each parameter",
            )
        if kind is inspect.Parameter.POSITIONAL_ONLY:
            raise ToolDefinitionError(
                label, param.name, "it is positional-only; a model passes arguments by name"
            )
        if param.annotation is inspect.Parameter.empty:
            raise ToolDefinitionError(
                label,
                param.name,
                "it has no type annotation, so there is no schema to show the model",
            )
        try:
            shape = shape_of(param.annotation)
        except UnsupportedAnnotation as exc:
            inner = f" (at {exc.where})" if exc.where else ""
            raise ToolDefinitionError(label, param.name, f"{exc.reason}{inner}") from None
        self._shapes[param.name] = shape
        schema = dict(shape.schema)
        if doc:
            schema["description"] = doc
        if param.default is not inspect.Parameter.empty:
            shown, value = _json_default(param.default)
            if shown:
                schema["default"] = value
        return schema

    # -- the Tool protocol -------------------------------------------------------

    @property
    def name(self) -> str:
        return self._name

    @property
    def description(self) -> str:
        return self._description

    @property
    def schema(self) -> ToolSchema:
        return self._schema

    @property
    def side_effecting(self) -> bool:
        return self._side_effecting

    @property
    def requires_approval(self) -> bool:
        return self._requires_approval

    @property
    def output_schema(self) -> dict[str, Any] | None:
        return self._output_schema

    async def run(self, args: dict[str, Any]) -> Any:
        """Check ``args`` against the schema, convert them, call the function, await if async."""
        errors = schema_errors(self._schema.parameters, args)
        if errors:
            raise ToolArgumentsError(self._name, errors)
        kwargs = {key: self._shapes[key].convert(value) for key, value in args.items()}
        result: Any = self._fn(**kwargs)  # type: ignore[call-arg]
        if inspect.isawaitable(result):
            result = await result
        return _plain_result(result)

    # -- still the function --------------------------------------------------------

    @property
    def fn(self) -> Callable[P, R]:
        """The function the tool was made from."""
        return self._fn

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """Call the function itself, as if it had not been made a tool."""
        return self._fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"FunctionTool({_function_name(self._fn)}, name={self._name!r})"


@overload
def tool(fn: Callable[P, R], /) -> FunctionTool[P, R]: ...


@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    side_effecting: bool = False,
    requires_approval: bool = False,
    output_schema: dict[str, Any] | None = None,
) -> Callable[[Callable[P, R]], FunctionTool[P, R]]: ...


def tool(
    fn: Callable[P, R] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    side_effecting: bool = False,
    requires_approval: bool = False,
    output_schema: dict[str, Any] | None = None,
) -> FunctionTool[P, R] | Callable[[Callable[P, R]], FunctionTool[P, R]]:
    """Make ``fn`` a :class:`FunctionTool`: ``@tool`` bare, or ``@tool(name=..., ...)``."""
    if fn is not None:
        # The options go along: `tool(fn, name="x")` (an untyped caller's spelling) must not
        # drop the name it was given and register the tool under the function's own.
        return FunctionTool(
            fn,
            name=name,
            description=description,
            side_effecting=side_effecting,
            requires_approval=requires_approval,
            output_schema=output_schema,
        )

    def decorate(inner: Callable[P, R]) -> FunctionTool[P, R]:
        return FunctionTool(
            inner,
            name=name,
            description=description,
            side_effecting=side_effecting,
            requires_approval=requires_approval,
            output_schema=output_schema,
        )

    return decorate
