"""The part of JSON Schema a tool's schemas are checked with: shapes, types, required names.

agentkit-core and the test kit take no jsonschema dependency, and a tool's
schemas rarely use more than ``type``, ``properties``, ``required``,
``additionalProperties``, ``items`` and ``enum``. Those are checked; any
other keyword is left alone rather than guessed at, so a schema using more
of the standard is never refused for it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["JSON_TYPES", "instance_problems", "plain", "schema_problems"]

JSON_TYPES = frozenset(("object", "array", "string", "number", "integer", "boolean", "null"))


def plain(value: object) -> object:
    """``value`` as JSON holds it: every mapping a dict, every list or tuple a list.

    So that a value compares equal to what it would read back as from JSON,
    whichever mapping and sequence types an implementation hands over.
    """
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def _types(schema: Mapping[str, Any]) -> list[str] | None:
    declared = schema.get("type")
    if declared is None:
        return None
    return [declared] if isinstance(declared, str) else list(declared)


def schema_problems(schema: object, where: str) -> list[str]:
    """What makes ``schema`` no JSON Schema (empty when it is one, as far as checked)."""
    if not isinstance(schema, Mapping):
        return [f"{where} is {type(schema).__name__}, not a JSON object"]
    problems: list[str] = []
    try:
        json.dumps(plain(schema))
    except (TypeError, ValueError) as exc:
        problems.append(f"{where} is not JSON-serialisable: {exc}")
    declared = schema.get("type")
    types = _types(schema)
    if declared is not None and (
        types is None or not all(isinstance(t, str) and t in JSON_TYPES for t in types)
    ):
        problems.append(f"{where} has type {declared!r}, not one of {sorted(JSON_TYPES)}")
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
        for name in required:
            if name not in properties:
                problems.append(f"{where}.required names {name!r}, which is no property")
    if "items" in schema:
        problems += schema_problems(schema["items"], f"{where}.items")
    return problems


def _is(value: object, kind: str) -> bool:
    if kind == "object":
        return isinstance(value, Mapping)
    if kind == "array":
        return isinstance(value, list | tuple)
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    return value is None  # "null"


def instance_problems(value: object, schema: Mapping[str, Any], where: str) -> list[str]:
    """What makes ``value`` invalid against ``schema`` (empty when valid, as far as checked)."""
    types = _types(schema)
    if types is not None and not any(_is(value, t) for t in types):
        return [f"{where} is {type(value).__name__} {value!r:.80}, the schema says {types}"]
    if "enum" in schema and value not in list(schema["enum"]):
        return [f"{where} is {value!r:.80}, not one of {list(schema['enum'])}"]
    problems: list[str] = []
    if isinstance(value, Mapping):
        properties: Mapping[str, Any] = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                problems.append(f"{where} lacks the required {name!r}")
        for name, item in value.items():
            if name in properties:
                problems += instance_problems(item, properties[name], f"{where}[{name!r}]")
            elif schema.get("additionalProperties") is False:
                problems.append(f"{where} has {name!r}, which the schema does not allow")
    if isinstance(value, list | tuple) and isinstance(schema.get("items"), Mapping):
        for index, item in enumerate(value):
            problems += instance_problems(item, schema["items"], f"{where}[{index}]")
    return problems
