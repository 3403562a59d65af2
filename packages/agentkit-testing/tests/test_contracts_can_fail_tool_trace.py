"""Tool, TracePort and Ctx: every check can fail, in both forms, on a realistic wrong
implementation.

The one-mistake-per-check table of these ports (the others' are beside this module,
``test_contracts_can_fail_*.py``). Each wrong implementation below is a mistake a user really
makes, run through the public suite function AND the pytest base class; both must report the
check it breaks, with that check's rule and what the implementation did. Every check has one,
every port at least two.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from agentkit.core.noop import NoopObserver, NoopSpan, NoopTrace
from agentkit.core.types import (
    ToolSchema,
    TraceContext,
)
from agentkit.fakes.ctx import FakeCtx, RecordingTracer
from agentkit.fakes.io import FakeTool
from tests.support.contract_bases import CtxWith, StackTracer
from tests.support.contract_runs import (
    Wrong,
    assert_fails_in_both_forms,
    assert_wrong_ones_cover,
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


@pytest.mark.agentkit(verify=False, real_processes=True)  # wrong on purpose; real children
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_a_wrong_implementation_fails_its_check_in_both_forms(case: Wrong) -> None:
    await assert_fails_in_both_forms(case)


def test_every_check_has_a_wrong_implementation_and_every_port_two() -> None:
    assert_wrong_ones_cover("tool_trace", CASES, every_check=True)
