"""Checking a model's final answer before the loop accepts it.

An output validator takes the final text and returns the value the run
produces (parsed JSON, a model object), or raises to reject it. A rejected
answer is not an error of the run: the loop reflects the reason back to the
model as a message and asks again, which is how a model that wrapped its JSON
in prose gets a chance to fix it. That reflection sits behind an
``except Exception``; a double's ScriptExhausted (a BaseException) is not one,
so "the model was asked more times than the test claims" still reaches the
test instead of becoming one more reflected message.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from agentkit.core._internal.arguments import check_mapping
from agentkit.core.schema import schema_errors

__all__ = ["OutputValidator", "json_output", "schema_of_response_format"]

OutputValidator = Callable[[str], Any]
"""Final text -> the run's output; raise (any Exception) to send the model back to try again."""


def schema_of_response_format(response_format: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The JSON Schema inside a response_format, in the shapes providers use, if any.

    ``{"type": "json_schema", "json_schema": {"schema": {...}}}`` (OpenAI),
    ``{"schema": {...}}``, or a bare schema (``{"type": "object", ...}``).
    ``{"type": "json_object"}`` asks for any JSON object.
    """
    inner = response_format.get("json_schema")
    if isinstance(inner, Mapping) and isinstance(inner.get("schema"), Mapping):
        schema: Mapping[str, Any] = inner["schema"]
        return schema
    if isinstance(response_format.get("schema"), Mapping):
        bare: Mapping[str, Any] = response_format["schema"]
        return bare
    kind = response_format.get("type")
    if kind == "json_object":
        return {"type": "object"}
    if kind in ("object", "array", "string", "number", "integer", "boolean"):
        return response_format
    return None


def json_output(schema: Mapping[str, Any] | None = None) -> OutputValidator:
    """A validator that parses the text as JSON and checks it against ``schema``."""
    if schema is not None:
        check_mapping(schema, "json_output", "schema", "a JSON Schema mapping or None")

    def validate(text: str) -> Any:
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"the reply is not valid JSON ({exc})") from exc
        if schema is not None:
            errors = schema_errors(schema, value)
            if errors:
                raise ValueError("the reply does not match the schema: " + "; ".join(errors))
        return value

    return validate
