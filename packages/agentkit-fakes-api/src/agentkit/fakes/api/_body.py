"""Reading a request body: what every API's request shares, and the checks each codec uses.

Every API's request is a JSON object naming its ``model``, with a list of
``tools`` (objects, each a name, a description and a JSON Schema, spelled
differently by each API), a ``temperature`` (1.0 when absent, every API's
default) and a ``stream`` flag. :class:`Body` reads those in one place; a
codec reads its transcript and its own options and says where a tool
entry keeps its name, description and parameters. A body that does not
read is a :class:`~agentkit.fakes.api._call.WireError`: a 400, as the real
API answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from agentkit.core.types import Message, ToolSchema
from agentkit.fakes.api._call import PortCall, WireError

__all__ = ["Body", "ToolFields", "arguments_of", "missing", "text_of", "tool_names"]

ToolFields = Callable[[dict[str, Any], str], tuple[object, object, object]]
"""Where an API's tool entry keeps its name, description and parameters (given the entry
and where it stands, for an error that names it)."""


class Body:
    """A request's JSON object, its model read: the parts every API's request shares."""

    __slots__ = ("fields", "model")

    def __init__(self, body: Any) -> None:
        if not isinstance(body, dict):
            raise WireError("the request body must be a JSON object")
        self.fields: dict[str, Any] = body
        self.model: str = _require(body, "model", str, "a model name")

    def require(self, key: str, kind: type | tuple[type, ...], what: str) -> Any:
        """The field ``key``, which must be a ``kind`` (``what`` names it in the error)."""
        return _require(self.fields, key, kind, what)

    def optional_int(self, *keys: str) -> int | None:
        """The first of ``keys`` the request holds, which must be an integer; else None."""
        for key in keys:
            value = self.fields.get(key)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise WireError(f"{key}: must be an integer")
            return value
        return None

    def tools(self, fields: ToolFields) -> list[ToolSchema] | None:
        """``tools`` as ToolSchemas; None when the request offers none."""
        value = self.fields.get("tools")
        if value is None:
            return None
        if not isinstance(value, list):
            raise WireError("tools: must be a list")
        out: list[ToolSchema] = []
        for index, tool in enumerate(value):
            where = f"tools.{index}"
            if not isinstance(tool, dict):
                raise WireError(f"{where}: must be an object")
            name, description, parameters = fields(tool, where)
            out.append(_tool_schema(name, description, parameters, where))
        return out

    def call(
        self,
        messages: list[Message],
        tools: list[ToolSchema] | None,
        max_tokens: int | None,
        *,
        response_format: dict[str, Any] | None = None,
        include_usage: bool = False,
        custom_tools: frozenset[str] = frozenset(),
        store: bool = False,
        previous_response_id: str | None = None,
        carried_from: int = 0,
    ) -> PortCall:
        """The port call this request stands for, from what the codec read of it."""
        return PortCall(
            messages=messages,
            model=self.model,
            tools=tools,
            temperature=_number(self.fields, "temperature", 1.0),
            max_tokens=max_tokens,
            response_format=response_format,
            stream=self.fields.get("stream") is True,
            include_usage=include_usage,
            custom_tools=custom_tools,
            store=store,
            previous_response_id=previous_response_id,
            carried_from=carried_from,
        )


def missing(where: str) -> WireError:
    """An OpenAI API's refusal of a request without a field it requires (``where``)."""
    return WireError(
        f"Missing required parameter: '{where}'.", param=where, code="missing_required_parameter"
    )


def tool_names(messages: list[Message]) -> dict[str, str]:
    """``{tool call id: tool name}`` of every assistant tool call so far (names tool results)."""
    return {call.id: call.name for m in messages for call in m.tool_calls}


def text_of(value: object, where: str, kinds: tuple[str, ...] = ("text",)) -> str:
    """The text of a content field: a str, or a list of parts whose type is in ``kinds``.

    Parts of other types (images, documents) carry no text the kit's Message
    could hold and are left out.
    """
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if not isinstance(value, list):
        raise WireError(f"{where}: expected a string or a list of content parts")
    texts: list[str] = []
    for part in value:
        if not isinstance(part, dict):
            raise WireError(f"{where}: a content part is not an object")
        if part.get("type") in kinds:
            text = part.get("text")
            if not isinstance(text, str):
                raise WireError(f"{where}: a {part.get('type')} part has no string text")
            texts.append(text)
    return "".join(texts)


def arguments_of(raw: object, where: str) -> dict[str, Any]:
    """A tool call's JSON arguments (a JSON string on the OpenAI wire) as a dict."""
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, str):
        raise WireError(f"{where}: arguments must be a JSON string")
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise WireError(f"{where}: arguments are not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise WireError(f"{where}: arguments must be a JSON object")
    return value


def _require(body: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    value = body.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise WireError(f"{key}: {what} is required")
    return value


def _number(body: Mapping[str, Any], key: str, default: float) -> float:
    value = body.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise WireError(f"{key}: must be a number")
    return float(value)


def _tool_schema(name: object, description: object, parameters: object, where: str) -> ToolSchema:
    if not isinstance(name, str) or not name:
        raise WireError(f"{where}: a tool needs a name")
    if parameters is None:
        parameters = {"type": "object"}
    if not isinstance(parameters, dict):
        raise WireError(f"{where}: the parameters of tool {name!r} must be a JSON Schema object")
    return ToolSchema(
        name, description if isinstance(description, str) else "", parameters=parameters
    )
