"""The tool-exercising model: call every offered tool once, then sum up what came back.

For a smoke test that needs no script: does the agent offer its tools, run
them with arguments that fit their schemas, hand the results back and stop?
The first call of a conversation asks for every tool the request offers, in
the order offered, with arguments generated from each tool's JSON Schema. The
next call -- the one carrying the tool results -- answers with a JSON object
of those results by tool name. A request that offers no tool, before any was
called, has nothing to exercise: the double answers nothing it was not given. The arguments are drawn from a
:class:`random.Random` seeded by the double's ``seed`` and the tool's name, so
a run is the same every time and one tool's arguments do not depend on which
other tools were offered.

The generator covers the schema subset :mod:`agentkit.core.schema` checks
(types, ``enum``, ``const``, nested objects and arrays, numeric and length
bounds), plus ``anyOf``/``oneOf`` (the first alternative). The double checks
every generated call as it checks a scripted one, so a schema beyond the
subset that the generator gets wrong is a recorded violation, not a silent
pass.
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Mapping, Sequence
from typing import Any

from agentkit.core.request import ChatRequest
from agentkit.core.types import Message, ToolCall
from agentkit.fakes.llm.turn import Turn

__all__ = ["CALL_ID_PREFIX", "arguments_for", "exercise"]

CALL_ID_PREFIX = "exercise_"
_MAX_DEPTH = 8


def _bound(schema: Mapping[str, Any], low: str, high: str) -> tuple[float | None, float | None]:
    lo = schema.get(low)
    hi = schema.get(high)
    lo = lo if isinstance(lo, int | float) and not isinstance(lo, bool) else None
    hi = hi if isinstance(hi, int | float) and not isinstance(hi, bool) else None
    return lo, hi


def _integer(schema: Mapping[str, Any], rng: random.Random) -> int:
    lo, hi = _bound(schema, "minimum", "maximum")
    xlo, xhi = _bound(schema, "exclusiveMinimum", "exclusiveMaximum")
    low = int(lo) if lo is not None else (int(xlo) + 1 if xlo is not None else 0)
    high = int(hi) if hi is not None else (int(xhi) - 1 if xhi is not None else low + 100)
    return rng.randint(low, max(low, high))


def _number(schema: Mapping[str, Any], rng: random.Random) -> float:
    lo, hi = _bound(schema, "minimum", "maximum")
    low = float(lo) if lo is not None else 0.0
    high = float(hi) if hi is not None else low + 100.0
    return round(rng.uniform(low, max(low, high)), 2)


def _string(schema: Mapping[str, Any], rng: random.Random) -> str:
    shortest, longest = _bound(schema, "minLength", "maxLength")
    low = int(shortest) if shortest is not None else 1
    high = int(longest) if longest is not None else max(low, 8)
    length = rng.randint(low, max(low, high)) if high > low else low
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(length))


def _type_of(schema: Mapping[str, Any]) -> str:
    declared = schema.get("type")
    if isinstance(declared, str):
        return declared
    if isinstance(declared, Sequence) and declared:
        named = [t for t in declared if isinstance(t, str) and t != "null"]
        return named[0] if named else "null"
    if "properties" in schema or "required" in schema:
        return "object"
    if "items" in schema:
        return "array"
    return "string"


def arguments_for(schema: Mapping[str, Any], rng: random.Random, depth: int = 0) -> Any:
    """A value that fits ``schema``, drawn from ``rng``."""
    if "const" in schema:
        return schema["const"]
    enum = schema.get("enum")
    if isinstance(enum, Sequence) and not isinstance(enum, str) and enum:
        return rng.choice(list(enum))
    for combinator in ("anyOf", "oneOf"):
        options = schema.get(combinator)
        if isinstance(options, Sequence) and options and isinstance(options[0], Mapping):
            return arguments_for(options[0], rng, depth + 1)
    kind = _type_of(schema)
    if kind == "object":
        return _object(schema, rng, depth)
    if kind == "array":
        items = schema.get("items")
        shortest, _ = _bound(schema, "minItems", "maxItems")
        count = max(int(shortest) if shortest is not None else 1, 1)
        if depth >= _MAX_DEPTH or not isinstance(items, Mapping):
            return ["x"] * count if not isinstance(items, Mapping) else []
        return [arguments_for(items, rng, depth + 1) for _ in range(count)]
    if kind == "integer":
        return _integer(schema, rng)
    if kind == "number":
        return _number(schema, rng)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "null":
        return None
    return _string(schema, rng)


def _object(schema: Mapping[str, Any], rng: random.Random, depth: int) -> dict[str, Any]:
    properties = schema.get("properties")
    props: Mapping[str, Any] = properties if isinstance(properties, Mapping) else {}
    required = schema.get("required")
    names = [str(k) for k in props]
    if isinstance(required, Sequence) and not isinstance(required, str):
        names += [str(k) for k in required if k not in props]
    if depth >= _MAX_DEPTH:
        return {}
    result: dict[str, Any] = {}
    for name in names:
        sub = props.get(name)
        result[name] = arguments_for(sub if isinstance(sub, Mapping) else {}, rng, depth + 1)
    return result


def _our_calls(messages: Sequence[Message]) -> dict[str, str]:
    """``{call id: tool name}`` of every tool call this model made in the transcript."""
    ours: dict[str, str] = {}
    for message in messages:
        for call in message.tool_calls:
            if call.id.startswith(CALL_ID_PREFIX):
                ours[call.id] = call.name
    return ours


def exercise(request: ChatRequest, seed: int) -> Turn | None:
    """This model's turn for ``request``: every offered tool called, or the results summed up.

    None when there is nothing to exercise (no tool offered, none called
    before): the double has no answer of its own, and says so.
    """
    ours = _our_calls(request.messages)
    if not ours and not request.tools:
        return None
    if ours:
        results: dict[str, str] = {}
        for message in request.messages:
            if message.role == "tool" and message.tool_call_id in ours:
                results[ours[message.tool_call_id]] = message.content
        return Turn(json.dumps(results))
    calls = []
    for index, tool in enumerate(request.tools or ()):
        rng = random.Random(f"{seed}:{tool.name}")
        arguments = arguments_for(tool.parameters, rng)
        if not isinstance(arguments, Mapping):  # a schema whose top level is not an object
            arguments = {}
        calls.append(ToolCall(f"{CALL_ID_PREFIX}{index}", tool.name, arguments))
    return Turn(tool_calls=calls)
