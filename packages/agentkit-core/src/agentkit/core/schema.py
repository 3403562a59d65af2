"""A small JSON-Schema checker for tool arguments and structured output, stdlib only.

It lives in core because both sides of the seam use it: the tool loop checks a
model's arguments with it, and the LLM doubles check a scripted tool call's
arguments with it (a script is a claim about what a real model would send).

The loop checks a model's tool arguments against the tool's advertised schema
BEFORE running the tool, so that a model's malformed call comes back to it as
a readable error it can correct, instead of reaching the tool as a KeyError
three frames down. The subset is the part models actually get wrong: missing
required keys, wrong JSON types, values outside an ``enum``, keys a closed
object does not allow, and the same again inside nested objects and arrays.
Keywords outside that subset are ignored, never guessed at: this is a guard,
not a validator to rely on for anything the schema does not say plainly.

:func:`schema_problems` checks the other side, a schema itself: that it is a
JSON object whose types are JSON type names and whose ``required`` names
properties it has. The contract suites hold a tool's advertised schemas to it.
One checker for both, so that what the loop accepts and what the suites call
valid never disagree (``1.0`` is an integer to both, as JSON Schema says).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from agentkit.core._internal.arguments import check_mapping

__all__ = ["schema_errors", "schema_problems"]

_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list, tuple),
    "object": (Mapping,),
    "null": (type(None),),
}


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return type(value).__name__


def _is_type(value: Any, name: str) -> bool:
    # bool is an int subclass in Python but never an integer or number in JSON.
    if isinstance(value, bool) and name in ("integer", "number"):
        return False
    if name == "integer" and isinstance(value, float):
        return value.is_integer()
    expected = _JSON_TYPES.get(name)
    return expected is not None and isinstance(value, expected)


def _check(schema: Mapping[str, Any], value: Any, path: str, errors: list[str]) -> None:
    where = path or "arguments"
    declared = schema.get("type")
    if declared is not None:
        names: Sequence[str] = [declared] if isinstance(declared, str) else list(declared)
        known = [n for n in names if n in _JSON_TYPES]
        if known and not any(_is_type(value, n) for n in known):
            errors.append(f"{where}: expected {' or '.join(known)}, got {_type_name(value)}")
            return
    enum = schema.get("enum")
    if isinstance(enum, Sequence) and not isinstance(enum, str) and value not in enum:
        errors.append(f"{where}: {value!r} is not one of {list(enum)!r}")
    if isinstance(value, Mapping):
        _check_object(schema, value, path, errors)
    elif isinstance(value, (list, tuple)):
        items = schema.get("items")
        if isinstance(items, Mapping):
            for index, item in enumerate(value):
                _check(items, item, f"{where}[{index}]", errors)


def _check_object(
    schema: Mapping[str, Any], value: Mapping[str, Any], path: str, errors: list[str]
) -> None:
    prefix = f"{path}." if path else ""
    required = schema.get("required")
    if isinstance(required, Sequence) and not isinstance(required, str):
        for key in required:
            if key not in value:
                errors.append(f"missing required argument {prefix + str(key)!r}")
    properties = schema.get("properties")
    props: Mapping[str, Any] = properties if isinstance(properties, Mapping) else {}
    for key, item in value.items():
        sub = props.get(key)
        if isinstance(sub, Mapping):
            _check(sub, item, f"{prefix}{key}", errors)
        elif schema.get("additionalProperties") is False:
            allowed = sorted(props) or "none"
            errors.append(f"unexpected argument {prefix + str(key)!r} (allowed: {allowed})")


def schema_errors(schema: Mapping[str, Any], value: Any) -> list[str]:
    """Every way ``value`` breaks ``schema`` (within the subset above); empty when it fits."""
    check_mapping(schema, "schema_errors", "schema", "a JSON Schema mapping")
    errors: list[str] = []
    _check(schema, value, "", errors)
    return errors


def _as_json(value: object) -> object:
    """A read-only mapping (a ToolSchema's parameters) serialises as the object it holds."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} {value!r:.80} is not a JSON value")


def schema_problems(schema: object, where: str = "schema") -> list[str]:
    """What makes ``schema`` no JSON Schema (within the subset above); empty when it is one.

    ``where`` names the schema in each problem (``"schema.parameters"``), and
    nested schemas are named by their path under it.
    """
    if not isinstance(schema, Mapping):
        return [f"{where} is {type(schema).__name__}, not a JSON object"]
    problems: list[str] = []
    try:
        json.dumps(schema, default=_as_json)
    except (TypeError, ValueError) as exc:
        problems.append(f"{where} is not JSON-serialisable: {exc}")
    declared = schema.get("type")
    names = [declared] if isinstance(declared, str) else declared
    if declared is not None and (
        not isinstance(names, Sequence)
        or not all(isinstance(n, str) and n in _JSON_TYPES for n in names)
    ):
        problems.append(f"{where} has type {declared!r}, not one of {sorted(_JSON_TYPES)}")
    properties = schema.get("properties", {})
    if not isinstance(properties, Mapping):
        problems.append(f"{where}.properties is {type(properties).__name__}, not an object")
        properties = {}
    for name, sub in properties.items():
        problems += schema_problems(sub, f"{where}.properties.{name}")
    required = schema.get("required", [])
    if not isinstance(required, Sequence) or isinstance(required, str):
        problems.append(f"{where}.required is {required!r}, not a list of names")
    else:
        problems += [
            f"{where}.required names {name!r}, which is no property"
            for name in required
            if name not in properties
        ]
    if "items" in schema:
        problems += schema_problems(schema["items"], f"{where}.items")
    return problems
