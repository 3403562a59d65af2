"""Either access form works: ctx.spans and ctx.trace.spans equal the same tuples.

And every constructor of this package refuses wrong input at once, naming
the argument (an ArgumentTypeError / ArgumentValueError from
agentkit.core._internal.arguments, which are TypeError / ValueError).
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.types import Scope
from agentkit.fakes.ctx import (
    FakeCompactor,
    FakeCtx,
    FakeGrounder,
    RecordingSpan,
    RecordingTracer,
    make_test_ctx,
)
from agentkit.fakes.llm import FakeLLM


def _traced() -> FakeCtx:
    ctx = FakeCtx()
    with ctx.trace.span("outer", kind="server", a=1) as outer:
        outer.add_event("started")
        with ctx.trace.span("inner", b=2) as inner:
            inner.set("c", 3)
    return ctx


EXPECTED = [("outer", "server", {"a": 1}), ("inner", "internal", {"b": 2, "c": 3})]


def test_both_access_forms_compare_equal_to_the_same_tuples() -> None:
    ctx = _traced()
    assert ctx.spans == EXPECTED
    assert ctx.trace.spans == EXPECTED
    assert ctx.trace.spans == ctx.spans
    assert ctx.spans == ctx.trace.spans


def test_both_forms_fail_together_on_a_different_record() -> None:
    ctx = _traced()
    wrong = [("outer", "server", {"a": 1}), ("inner", "internal", {"b": 2})]
    assert ctx.spans != wrong
    assert ctx.trace.spans != wrong
    assert ctx.trace.spans[0] != ("outer", "internal", {"a": 1})
    assert ctx.trace.spans[0] != ("outer", "server")  # a shorter tuple is not the triple


def test_the_span_objects_stay_reachable_for_their_events() -> None:
    ctx = _traced()
    outer = ctx.trace.spans[0]
    assert isinstance(outer, RecordingSpan)
    assert outer.event_names == ["started"]
    assert ctx.trace.children(outer) == [("inner", "internal", {"b": 2, "c": 3})]


def test_spans_equal_by_what_they_recorded_and_are_unhashable() -> None:
    one, two = _traced(), _traced()
    assert one.trace.spans == two.trace.spans  # same run, same ids, same record
    assert one.trace.spans[0] != one.trace.spans[1]
    other = RecordingSpan("outer", "server", {"a": 1})
    assert other != one.trace.spans[0]  # same triple, but never started and no events
    assert other == ("outer", "server", {"a": 1})
    assert other != "outer"
    with pytest.raises(TypeError):
        hash(other)


def test_recording_tracer_spans_alone_compare_equal_too() -> None:
    tracer = RecordingTracer()
    with tracer.span("s", x=1):
        pass
    assert tracer.spans == [("s", "internal", {"x": 1})]


# -- wrong input refused at construction --------------------------------------------


class _NotAPort:
    pass


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"llm": object()}, "llm"),
        ({"llm": "gpt-4"}, "llm"),
        ({"scope": "org"}, "scope"),
        ({"budget": {"max_llm_calls": 1}}, "budget"),
        ({"cancel": True}, "cancel"),
        ({"observer": _NotAPort()}, "observer"),
        ({"trace": _NotAPort()}, "trace"),
        ({"clock": 0.0}, "clock"),
        ({"checkpointer": {}}, "checkpointer"),
        ({"asker": _NotAPort()}, "asker"),
        ({"correlation_id": 7}, "correlation_id"),
        ({"meters": [object()]}, "meters[0]"),
        ({"meters": "ledger"}, "meters"),
        ({"llm": FakeLLM(), "chat_middleware": [42]}, "chat_middleware[0]"),
        ({"llm": FakeLLM(), "pricing": {"m": 1.0}}, "pricing"),
    ],
)
def test_make_test_ctx_names_the_wrong_argument(kwargs: dict[str, Any], argument: str) -> None:
    with pytest.raises(ArgumentTypeError) as info:
        make_test_ctx(**kwargs)
    assert info.value.where == "make_test_ctx"
    assert info.value.argument == argument


def test_make_test_ctx_says_what_an_llm_is() -> None:
    with pytest.raises(TypeError, match=r"llm must be an LLMPort \(an object with a stream"):
        make_test_ctx(llm=cast(Any, object()))


def test_make_test_ctx_refuses_an_unknown_autonomy() -> None:
    with pytest.raises(ArgumentValueError, match="autonomy"):
        make_test_ctx(autonomy=cast(Any, "always"))


@pytest.mark.parametrize(
    ("build", "argument"),
    [
        (lambda: FakeCtx(scope=cast(Any, "org")), "scope"),
        (lambda: FakeCtx(scope=cast(Any, {"org_id": "o"})), "scope"),
        (lambda: FakeCompactor(sentinel=cast(Any, 1)), "sentinel"),
        (lambda: FakeCompactor(called=cast(Any, "no")), "called"),
        (lambda: FakeGrounder(block=cast(Any, None)), "block"),
        (lambda: FakeGrounder(calls=cast(Any, "x")), "calls"),
        (lambda: RecordingTracer(exporter=cast(Any, "print")), "exporter"),
        (lambda: RecordingSpan(cast(Any, 1), "internal", {}), "name"),
        (lambda: RecordingSpan("s", cast(Any, None), {}), "kind"),
        (lambda: RecordingSpan("s", "internal", cast(Any, [])), "attrs"),
    ],
)
def test_the_recorders_refuse_wrong_input(build: Any, argument: str) -> None:
    with pytest.raises(ArgumentTypeError) as info:
        build()
    assert info.value.argument == argument


def test_a_scope_is_accepted_and_kept() -> None:
    assert FakeCtx(scope=Scope("org", "dom")).scope == Scope("org", "dom")
