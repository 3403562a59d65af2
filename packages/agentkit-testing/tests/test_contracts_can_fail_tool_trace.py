"""Tool, TracePort and Ctx: each check fails, in both forms, on a realistic wrong implementation.

The rows and what they must come to: ``tests.support.contract_runs``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from agentkit.core.noop import NoopObserver, NoopSpan, NoopTrace
from agentkit.core.types import (
    ToolSchema,
    TraceContext,
)
from agentkit.fakes.ctx import FakeCtx, RecordingTracer
from agentkit.fakes.io import FakeTool
from tests.support.contract_bases import CtxWith, StackTracer
from tests.support.contract_runs import (
    WrongTable,
    cases,
)

# ------------------------------------------------------------------- tools


@dataclass(eq=False)
class StringFlagTool(FakeTool):
    side_effecting: Any = "no"


@dataclass(eq=False)
class MisnamedSchemaTool(FakeTool):
    schema: ToolSchema = field(default_factory=lambda: ToolSchema("other_name"))


class MutatingTool(FakeTool):
    # Narrower than FakeTool's Mapping on purpose: this broken tool writes into its args.
    async def run(self, args: dict[str, Any]) -> Any:  # type: ignore[override]
        args["seen"] = True
        return "ok"


def _weather_schema(parameters: Mapping[str, Any]) -> ToolSchema:
    return ToolSchema("weather", "the weather in a city", parameters)


def pythonish_schema_tool() -> FakeTool:
    # Python type names where JSON Schema has its own: "str", "dict".
    parameters = {"type": "dict", "properties": {"city": {"type": "str"}}}
    return FakeTool(name="weather", schema=_weather_schema(parameters))


def required_typo_tool() -> FakeTool:
    parameters = {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["City"],
    }
    return FakeTool(name="weather", schema=_weather_schema(parameters))


WEATHER_OUT = {
    "type": "object",
    "properties": {"celsius": {"type": "number"}, "sky": {"type": "string"}},
    "required": ["celsius", "sky"],
}


def text_result_tool() -> FakeTool:
    return FakeTool(
        name="weather",
        schema=_weather_schema({"type": "object", "properties": {"city": {"type": "string"}}}),
        output_schema=WEATHER_OUT,
        responder=lambda args: "12 degrees and cloudy",
    )


def string_number_tool() -> FakeTool:
    return FakeTool(
        name="weather",
        schema=_weather_schema({"type": "object", "properties": {"city": {"type": "string"}}}),
        output_schema=WEATHER_OUT,
        responder=lambda args: {"celsius": "12", "sky": "cloudy"},
    )


# ------------------------------------------------------------------ traces


_GLOBAL: list[TraceContext] = []


class GlobalTracer:
    """Keeps its span stack in a module global, as a tracer over a global provider would."""

    @contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:
        _GLOBAL.append(TraceContext("t", f"s{len(_GLOBAL)}"))
        try:
            yield NoopSpan()
        finally:
            _GLOBAL.pop()

    def current_span_id(self) -> TraceContext | None:
        return _GLOBAL[-1] if _GLOBAL else None

    def add_event_to_current_span(self, name: str, **fields: Any) -> None:
        return None


class StickyTracer(NoopTrace):
    def current_span_id(self) -> TraceContext | None:
        return TraceContext("t", "s")


class NewTraceForChildTracer(StackTracer):
    def opened(self, name: str) -> TraceContext:
        return TraceContext(f"trace{len(self.stack)}", f"s{len(self.stack)}")


class AnsweringTracer(NoopTrace):
    def add_event_to_current_span(self, name: str, **fields: Any) -> None:
        return True  # type: ignore[return-value]


class SwallowingTracer(NoopTrace):
    @contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:  # type: ignore[override]
        with contextlib.suppress(BaseException):  # swallows whatever the body raised
            yield NoopSpan()


class SharedStackTracer(NewTraceForChildTracer):
    """One stack per tracer, not per task: another task sees this task's span."""


class FreshTracerCtx(FakeCtx):
    """A ctx whose trace property builds a new tracer on every read."""

    @property
    def trace(self) -> RecordingTracer:
        return RecordingTracer()


class AnsweringObserver(NoopObserver):
    def emit(self, event: str, **fields: Any) -> None:
        return event  # type: ignore[return-value]


class OrderedStackTracer(NewTraceForChildTracer):
    """One stack per tracer: a span closed while another task's span is on top fails."""

    @contextmanager
    def span(self, name: str, kind: str = "internal", **attrs: Any) -> Iterator[NoopSpan]:
        mine = TraceContext("t", f"s{len(self.stack)}-{name}-{id(attrs)}")
        self.stack.append(mine)
        try:
            yield NoopSpan()
        finally:
            if self.stack.pop() is not mine:
                raise RuntimeError("closed a span that was not the innermost one")


# ------------------------------------------------------------------- table


WEATHER_ARGS = {"args": {"city": "Oslo"}}


CASES = [
    *cases(
        "tool",
        ("the_properties_have_their_declared_types", StringFlagTool, "'no'", {}),
        ("the_schema_is_advertised_under_the_tools_name", MisnamedSchemaTool, "other", {}),
        ("the_parameters_are_a_json_schema_object", pythonish_schema_tool, "'dict'"),
        ("the_parameters_are_a_json_schema_object", required_typo_tool, "'City'"),
        ("run_answers_valid_args_without_changing_them", MutatingTool, "seen", {}),
        ("run_result_matches_the_output_schema", text_result_tool, "expected object, got string"),
        ("run_result_matches_the_output_schema", string_number_tool, "'celsius'"),
        options=WEATHER_ARGS,
    ),
    *cases(
        "trace",
        ("no_span_is_current_when_none_is_open", StickyTracer, "'s'"),
        (
            "a_span_opened_inside_another_is_its_child",
            NewTraceForChildTracer,
            "not the parent's child",
        ),
        ("the_tracer_needs_no_global_provider", GlobalTracer, "another"),
        ("events_and_attributes_are_always_accepted", AnsweringTracer, "bool True"),
        ("an_exception_in_a_span_propagates", SwallowingTracer, "swallowed"),
        ("spans_in_concurrent_tasks_do_not_see_each_other", SharedStackTracer, "another task"),
    ),
    *cases(
        "ctx",
        ("scope_is_a_scope", lambda: CtxWith(scope="org"), "str 'org'"),
        (
            "the_ctx_trace_nests_spans",
            lambda: CtxWith(trace=NewTraceForChildTracer()),
            "not the parent's child",
        ),
        ("the_ctx_trace_is_the_same_tracer_each_time", FreshTracerCtx, "another tracer"),
        (
            "observer_emit_is_always_accepted",
            lambda: CtxWith(observer=AnsweringObserver()),
            "str 'event'",
        ),
        ("spans_work_across_awaits", lambda: CtxWith(trace=OrderedStackTracer()), "RuntimeError"),
    ),
]


class TestTable(WrongTable):
    group = "tool_trace"
    wrong = CASES
