"""Tool, TracePort and Ctx, the red team: mistakes seen in real code, and correct ones built otherwise.

The rows and what they must come to: ``tests.support.contract_runs``.
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import json
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from agentkit.core.noop import NoopObserver, NoopSpan
from agentkit.core.types import (
    Scope,
    ToolSchema,
    TraceContext,
)
from tests.support.contract_bases import CtxWith, StackTracer
from tests.support.contract_runs import (
    RedTeamTable,
    Right,
    Wrong,
)

# ---------------------------------------------------------------- tools


class WeatherTool:
    """Correct: a plain class, a JSON Schema for its parameters and for its output."""

    name = "weather"
    description = "The weather in a city."
    side_effecting = False
    requires_approval = False
    parameters: Mapping[str, Any] = MappingProxyType(
        {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    )

    @property
    def output_schema(self) -> dict[str, Any] | None:
        return {
            "type": "object",
            "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}},
            "required": ["city", "celsius"],
        }

    @property
    def schema(self) -> ToolSchema:
        return ToolSchema(self.name, self.description, self.parameters)

    async def run(self, args: dict[str, Any]) -> Any:
        return {"city": args["city"], "celsius": 7.5}


class ShorthandParametersTool(WeatherTool):
    """{"city": "string"}: the shorthand some frameworks accept, not JSON Schema."""

    parameters = MappingProxyType({"city": "string"})


class PoppingTool(WeatherTool):
    async def run(self, args: dict[str, Any]) -> Any:
        return {"city": args.pop("city"), "celsius": 7.5}


class JsonTextTool(WeatherTool):
    """Serialises its answer itself: a str where the output schema says object."""

    async def run(self, args: dict[str, Any]) -> Any:
        return json.dumps({"city": args["city"], "celsius": 7.5})


class RenamedSchemaTool(WeatherTool):
    @property
    def schema(self) -> ToolSchema:
        return ToolSchema("get_weather", self.description, self.parameters)


class StringFlagTool(WeatherTool):
    side_effecting = "no"  # type: ignore[assignment]


class MissingFieldTool(WeatherTool):
    """Forgets a required output field when the city is unknown to it."""

    async def run(self, args: dict[str, Any]) -> Any:
        return {"city": args["city"]}


# ------------------------------------------------------------ trace, ctx

_CURRENT: contextvars.ContextVar[tuple[TraceContext, ...]] = contextvars.ContextVar(
    "red_team_spans", default=()
)


class ContextVarTracer:
    """Correct: one context variable per tracer instance, ids from a counter."""

    def __init__(self) -> None:
        self._stack: contextvars.ContextVar[tuple[TraceContext, ...]] = contextvars.ContextVar(
            f"tracer-{id(self)}", default=()
        )
        self._ids = itertools.count(1)

    @contextlib.contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:
        stack = self._stack.get()
        trace_id = stack[0].trace_id if stack else f"t{next(self._ids)}"
        token = self._stack.set((*stack, TraceContext(trace_id, f"s{next(self._ids)}")))
        try:
            yield NoopSpan()
        finally:
            self._stack.reset(token)

    def current_span_id(self) -> TraceContext | None:
        stack = self._stack.get()
        return stack[-1] if stack else None

    def add_event_to_current_span(self, name: str, **fields: Any) -> None:
        return None


class ClassStackTracer(StackTracer):
    """A mutable class attribute: every tracer shares one stack."""

    stack: list[TraceContext] = []  # noqa: RUF012  (the mistake on purpose)

    def __init__(self) -> None:
        """Keeps the class's list: no stack of its own."""

    def opened(self, name: str) -> TraceContext:
        parent = self.stack[-1] if self.stack else None
        trace_id = parent.trace_id if parent else f"t{len(self.stack)}"
        return TraceContext(trace_id, f"s{len(self.stack)}-{name}")


class LoggingTracer(ContextVarTracer):
    """Logs an exception raised in a span and carries on: the caller never sees it."""

    @contextlib.contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:
        with super().span(name, kind, **attrs) as span:
            try:
                yield span
            except Exception as exc:
                print(f"span {name} failed: {exc}")


class NoFinallyTracer(ContextVarTracer):
    """Resets the stack after the body, but not in a finally: an exception leaves it open."""

    @contextlib.contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:
        stack = self._stack.get()
        trace_id = stack[0].trace_id if stack else f"t{next(self._ids)}"
        self._stack.set((*stack, TraceContext(trace_id, f"s{next(self._ids)}")))
        yield NoopSpan()
        self._stack.set(stack)


def plain_ctx() -> CtxWith:
    """Correct: a dataclass holding one scope, one tracer and one observer."""
    return CtxWith(trace=ContextVarTracer())


class FreshObserverCtx:
    """Builds a new observer on every read (a property that should have been a field)."""

    def __init__(self) -> None:
        self.scope = Scope()
        self.trace = ContextVarTracer()

    @property
    def observer(self) -> NoopObserver:
        return NoopObserver()


def dict_scope_ctx() -> CtxWith:
    """A plain dict where the Scope belongs."""
    return CtxWith(scope={"user": "u1"})


# ------------------------------------------------------------------ table


WEATHER = {"args": {"city": "Oslo"}}


WRONG = [
    Wrong(
        "tool",
        "the_parameters_are_a_json_schema_object",
        ShorthandParametersTool,
        "type",
        WEATHER,
    ),
    Wrong("tool", "run_answers_valid_args_without_changing_them", PoppingTool, "city", WEATHER),
    Wrong("tool", "run_result_matches_the_output_schema", JsonTextTool, "str", WEATHER),
    Wrong(
        "tool", "the_schema_is_advertised_under_the_tools_name", RenamedSchemaTool, "get_weather"
    ),
    Wrong("tool", "the_properties_have_their_declared_types", StringFlagTool, "'no'", WEATHER),
    Wrong("tool", "run_result_matches_the_output_schema", MissingFieldTool, "celsius", WEATHER),
    Wrong("trace", "the_tracer_needs_no_global_provider", ClassStackTracer, "other"),
    Wrong("trace", "an_exception_in_a_span_propagates", LoggingTracer, "swallowed"),
    Wrong("trace", "an_exception_in_a_span_propagates", NoFinallyTracer, "current"),
    Wrong(
        "ctx",
        "the_ctx_trace_is_the_same_tracer_each_time",
        FreshObserverCtx,
        "a different observer on each read",
    ),
    Wrong("ctx", "scope_is_a_scope", dict_scope_ctx, "dict"),
]

RIGHT = [
    Right("tool", WeatherTool, WEATHER),
    Right("trace", ContextVarTracer),
    Right("ctx", plain_ctx),
]


class TestRedTeam(RedTeamTable):
    group = "tool_trace"
    wrong = WRONG
    right = RIGHT
