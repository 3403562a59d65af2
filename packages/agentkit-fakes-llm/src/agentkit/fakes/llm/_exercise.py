"""The tool-exercising model: call the offered tools once, then sum up what came back.

For a smoke test that needs no script: does the agent offer its tools, run
them with arguments that fit their schemas, hand the results back and stop?
:class:`ToolExerciser` is the responder (its settings are pydantic-ai
``TestModel``'s); :func:`arguments_for` generates the arguments. They are
drawn from a :class:`random.Random` seeded by the double's ``seed`` and the
tool's name, so a run is the same every time and one tool's arguments do not
depend on which other tools were offered.

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

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_int,
    check_str,
    check_values,
)
from agentkit.core.request import ChatRequest
from agentkit.core.types import Message, ToolCall
from agentkit.fakes.llm._reply import reply_for
from agentkit.fakes.llm._responders import Outcome, Record, Responder, checked
from agentkit.fakes.llm.errors import UnmatchedRequest
from agentkit.fakes.llm.turn import Turn

__all__ = ["CALL_ID_PREFIX", "TOOL_ERROR_PREFIX", "ToolExerciser", "arguments_for"]

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


TOOL_ERROR_PREFIX = "error:"
"""How agentkit's tool loop answers a call whose tool failed (raised, refused its
arguments, broke its output schema): a tool message starting so, handed to the model."""


def _tool_names(call_tools: object) -> tuple[str, ...] | None:
    """``call_tools`` as the tool names to call, or None for every offered tool."""
    if call_tools == "all":
        return None
    if isinstance(call_tools, str):
        raise ArgumentValueError(
            "FakeLLM.exercise_tools",
            "call_tools",
            "'all' or a list of tool names",
            call_tools,
            f"write call_tools=[{call_tools!r}] to call that one tool",
        )
    names = check_values(call_tools, "FakeLLM.exercise_tools", "call_tools", "'all' or tool names")
    for index, name in enumerate(names):
        check_str(name, "FakeLLM.exercise_tools", f"call_tools[{index}]", empty=False)
    return names


class ToolExerciser(Responder):
    """``FakeLLM()`` / ``FakeLLM.exercise_tools(...)``: call the offered tools, then sum up.

    The settings are pydantic-ai's ``TestModel``'s. ``call_tools`` is
    ``"all"`` (every tool the request offers) or the names of the tools to
    call; a name the request does not offer is recorded (``unoffered_tool``),
    not skipped in silence. The first call of a conversation calls them, once
    each, in the order offered. The call carrying their results answers the
    final text: ``output_text`` if given, ``output_args`` as JSON if given (a
    structured output), else a JSON object of the results by tool name.

    A tool that failed while exercised -- its result is the tool loop's
    ``error: ...`` message -- is recorded (``tool_failed``, naming the tool
    and its error): the smoke test exists to find it, and the JSON summary
    alone would let the test pass.

    A request with nothing to call (no tool offered, or none of
    ``call_tools``) answers the final text straight away when one is given,
    and is otherwise an :class:`~agentkit.fakes.llm.errors.UnmatchedRequest`:
    the double invents no answer.
    """

    __slots__ = ("call_tools", "final", "seed")

    def __init__(
        self,
        *,
        seed: int,
        call_tools: object = "all",
        output_text: object = None,
        output_args: object = None,
    ) -> None:
        where = "FakeLLM.exercise_tools"
        self.seed = check_int(seed, where, "seed", minimum=None)
        self.call_tools = _tool_names(call_tools)
        self.final: str | None = None
        if output_text is not None:
            if output_args is not None:
                raise ArgumentTypeError(
                    where,
                    "output_args",
                    "None when output_text is given",
                    output_args,
                    "the final answer is either a text (output_text) or a structured "
                    "output (output_args), not both",
                )
            self.final = check_str(output_text, where, "output_text")
        elif output_args is not None:
            try:
                self.final = json.dumps(output_args)
            except (TypeError, ValueError) as exc:
                raise ArgumentTypeError(
                    where, "output_args", "a JSON-serialisable value", output_args, str(exc)
                ) from None

    async def answer(self, request: ChatRequest, call: int, record: Record) -> Outcome:
        ours = _our_calls(request.messages)
        if ours:
            return reply_for(Turn(self._summary(request.messages, ours, call, record)))
        calls = self._calls(request, call, record)
        if calls:
            return checked(
                reply_for(Turn(tool_calls=calls)),
                request,
                f"the generated turn at call {call}",
                record,
            )
        if self.final is not None:
            return reply_for(Turn(self.final))
        reason = (
            "FakeLLM() with no responses exercises the tools a request offers, and this "
            "request offered none"
            + ("" if self.call_tools is None else f" of call_tools {list(self.call_tools)}")
            + ": there is nothing to answer with"
        )
        record(
            "unmatched_request",
            f"call {call}: {reason}",
            "give the double the answer this request should get (FakeLLM('...'), a dict, a "
            "callable, FakeLLM.script, or output_text= here), or offer the agent its tools",
        )
        raise UnmatchedRequest(request.last_user_text, (), reason)

    def _calls(self, request: ChatRequest, call: int, record: Record) -> list[ToolCall]:
        offered = list(request.tools or ())
        wanted = self.call_tools
        if wanted is not None:
            names = {tool.name for tool in offered}
            missing = [name for name in wanted if name not in names]
            if missing:
                record(
                    "unoffered_tool",
                    f"call {call}: call_tools names {missing}, but the request offered "
                    + (f"only {sorted(names)}" if names else "no tools"),
                    "correct the names in call_tools (a typo?), or offer those tools to the agent",
                )
            offered = [tool for tool in offered if tool.name in wanted]
        calls = []
        for index, tool in enumerate(offered):
            rng = random.Random(f"{self.seed}:{tool.name}")
            arguments = arguments_for(tool.parameters, rng)
            if not isinstance(arguments, Mapping):  # a schema whose top level is not an object
                arguments = {}
            calls.append(ToolCall(f"{CALL_ID_PREFIX}{index}", tool.name, arguments))
        return calls

    def _summary(
        self, messages: Sequence[Message], ours: Mapping[str, str], call: int, record: Record
    ) -> str:
        results: dict[str, str] = {}
        for message in messages:
            name = ours.get(message.tool_call_id or "")
            if message.role == "tool" and name is not None:
                results[name] = message.content
                if message.content.startswith(TOOL_ERROR_PREFIX):
                    record(
                        "tool_failed",
                        f"call {call}: tool {name!r}, exercised with generated arguments, "
                        f"failed: {message.content[:300]}",
                        "fix the tool (or the arguments its schema allows); to leave it out of "
                        "the smoke test, list the others in FakeLLM.exercise_tools(call_tools=[...])",
                    )
        return self.final if self.final is not None else json.dumps(results)
