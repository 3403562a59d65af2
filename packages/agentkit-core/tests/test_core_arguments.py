"""agentkit.core.arguments, and agentkit-core's constructors refusing wrong input through it.

A wrong argument accepted at construction resurfaces later as something else
(a NaN backoff as a sleep that never returns, a list where a mapping goes as
an AttributeError three calls on). Each case below is one clearly wrong input
to a public constructor of agentkit-core, refused at once with an
ArgumentTypeError (a TypeError) or ArgumentValueError (a ValueError) whose
``where`` and ``argument`` name the call and the argument.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from agentkit.core import arguments
from agentkit.core.arguments import (
    ArgumentError,
    ArgumentTypeError,
    ArgumentValueError,
    check_bool,
    check_int,
    check_number,
    check_protocol,
    check_values,
    describe,
    hide_argument_errors,
)
from agentkit.core.invoker import Invoker
from agentkit.core.meters import UsageMeter
from agentkit.core.middleware import RetryMiddleware
from agentkit.core.noop import NullCtx
from agentkit.core.pricing import ModelPrice, PriceTable
from agentkit.core.request import ChatRequest
from agentkit.core.runtime import RunContext, Services
from agentkit.core.types import Budget, FetchResponse, Message, ToolCall, Usage


def _make(factory: Callable[..., object], *args: Any, **kwargs: Any) -> Callable[[], object]:
    return lambda: factory(*args, **kwargs)


CASES: list[tuple[str, Callable[[], object], type[ArgumentError], str, str]] = [
    (
        "Usage(input_tokens=-1)",
        _make(Usage, input_tokens=-1),
        ArgumentValueError,
        "Usage",
        "input_tokens",
    ),
    (
        "Usage(output_tokens=1.5)",
        _make(Usage, output_tokens=1.5),
        ArgumentTypeError,
        "Usage",
        "output_tokens",
    ),
    (
        "Usage(cached_input_tokens=True)",
        _make(Usage, cached_input_tokens=True),
        ArgumentTypeError,
        "Usage",
        "cached_input_tokens",
    ),
    ("Message(role='robot')", _make(Message, "robot"), ArgumentValueError, "Message", "role"),
    (
        "Message(content=None)",
        _make(Message, "user", None),
        ArgumentTypeError,
        "Message",
        "content",
    ),
    (
        "ToolCall(arguments=[])",
        _make(ToolCall, "c", "t", []),
        ArgumentTypeError,
        "ToolCall",
        "arguments",
    ),
    (
        "FetchResponse(status='200')",
        _make(FetchResponse, "u", "200"),
        ArgumentTypeError,
        "FetchResponse",
        "status",
    ),
    (
        "Budget(max_cost_usd=nan)",
        _make(Budget, max_cost_usd=math.nan),
        ArgumentValueError,
        "Budget",
        "max_cost_usd",
    ),
    ("Invoker(None)", _make(Invoker, None), ArgumentTypeError, "Invoker", "llm"),
    (
        "RunContext(autonomy='maybe')",
        _make(RunContext, autonomy="maybe"),
        ArgumentValueError,
        "RunContext",
        "autonomy",
    ),
    ("Services(clock=1)", _make(Services, clock=1), ArgumentTypeError, "Services", "clock"),
    (
        "ChatRequest(max_tokens=1.5)",
        _make(ChatRequest, [], "m", max_tokens=1.5),
        ArgumentTypeError,
        "ChatRequest",
        "max_tokens",
    ),
    (
        "RetryMiddleware(initial_backoff=nan)",
        _make(RetryMiddleware, initial_backoff=math.nan),
        ArgumentValueError,
        "RetryMiddleware",
        "initial_backoff",
    ),
    (
        "RetryMiddleware(max_attempts=0)",
        _make(RetryMiddleware, max_attempts=0),
        ArgumentValueError,
        "RetryMiddleware",
        "max_attempts",
    ),
    (
        "ModelPrice(input=inf)",
        _make(ModelPrice, math.inf, 1.0),
        ArgumentValueError,
        "ModelPrice",
        "input",
    ),
    ("PriceTable([])", _make(PriceTable, []), ArgumentTypeError, "PriceTable", "prices"),
    (
        "UsageMeter(calls=-1)",
        _make(UsageMeter, calls=-1),
        ArgumentValueError,
        "UsageMeter",
        "calls",
    ),
    (
        "UsageMeter(calls=1.5)",
        _make(UsageMeter, calls=1.5),
        ArgumentTypeError,
        "UsageMeter",
        "calls",
    ),
    (
        "UsageMeter(by_model=[])",
        _make(UsageMeter, by_model=[]),
        ArgumentTypeError,
        "UsageMeter",
        "by_model",
    ),
    (
        "UsageMeter(by_model={'m': 1})",
        _make(UsageMeter, by_model={"m": 1}),
        ArgumentTypeError,
        "UsageMeter",
        "by_model['m']",
    ),
    ("NullCtx(scope=1)", _make(NullCtx, scope=1), ArgumentTypeError, "NullCtx", "scope"),
    ("NullCtx(trace=None)", _make(NullCtx, trace=None), ArgumentTypeError, "NullCtx", "trace"),
    (
        "NullCtx(observer='x')",
        _make(NullCtx, observer="x"),
        ArgumentTypeError,
        "NullCtx",
        "observer",
    ),
]


@pytest.mark.parametrize(
    ("make", "error", "where", "argument"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_core_constructors_refuse_wrong_input_naming_the_argument(
    make: Callable[[], object], error: type[ArgumentError], where: str, argument: str
) -> None:
    with pytest.raises(error) as info:
        make()
    assert (info.value.where, info.value.argument) == (where, argument)
    assert str(info.value).startswith(f"{where}: {argument} must be ")


def test_the_two_errors_are_the_builtin_kinds_a_caller_already_catches() -> None:
    assert issubclass(ArgumentTypeError, TypeError)
    assert issubclass(ArgumentValueError, ValueError)
    error = ArgumentValueError("Thing", "size", "an int >= 1", 0, "pass 1 or more")
    assert str(error) == "Thing: size must be an int >= 1, got int 0; pass 1 or more"
    assert (error.where, error.argument, error.expected, error.got, error.hint) == (
        "Thing",
        "size",
        "an int >= 1",
        0,
        "pass 1 or more",
    )


@pytest.mark.parametrize("bad", [True, 2.0, "3", None])
def test_check_int_takes_a_real_int_only(bad: object) -> None:
    with pytest.raises(ArgumentTypeError, match="n must be an int >= 0"):
        check_int(bad, "f", "n")
    assert check_int(3, "f", "n") == 3


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, -0.5])
def test_check_number_refuses_non_finite_and_below_minimum(bad: float) -> None:
    with pytest.raises(ArgumentValueError, match="x must be a finite number >= 0"):
        check_number(bad, "f", "x")
    assert check_number(2, "f", "x") == 2.0
    assert check_number(-3, "f", "x", minimum=None) == -3.0


def test_check_bool_refuses_truthy_stand_ins() -> None:
    for bad in (1, "yes", None):
        with pytest.raises(ArgumentTypeError):
            check_bool(bad, "f", "flag")
    assert check_bool(False, "f", "flag") is False


@pytest.mark.parametrize("bad", ["abc", b"abc", {"a": 1}, 3])
def test_check_values_refuses_what_would_iterate_as_the_wrong_thing(bad: object) -> None:
    with pytest.raises(ArgumentTypeError):
        check_values(bad, "f", "items", "a list")
    assert check_values(iter([1, 2]), "f", "items", "a list") == (1, 2)


def test_check_protocol_names_the_missing_members() -> None:
    with pytest.raises(ArgumentTypeError, match="it has no emit") as info:
        check_protocol(object(), "f", "observer", "an ObserverPort", ("emit",))
    assert info.value.hint == "it has no emit"


def test_describe_keeps_a_huge_or_broken_value_short() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    assert describe(Broken()) == "Broken <unrepresentable>"
    assert len(describe("x" * 10_000)) < 100


def test_argument_frames_are_hidden_from_pytest_only_for_argument_errors() -> None:
    class Info:
        def __init__(self, value: BaseException) -> None:
            self.value = value

    assert hide_argument_errors(Info(ArgumentTypeError("f", "a", "b", 1))) is True
    assert hide_argument_errors(Info(RuntimeError("other"))) is False
    assert arguments.__tracebackhide__ is hide_argument_errors


def test_an_argument_error_survives_pickling_with_its_message() -> None:
    error = ArgumentTypeError("Thing", "size", "an int", "3")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is ArgumentTypeError
    assert str(copy) == str(error)
    assert (copy.where, copy.argument, copy.got) == ("Thing", "size", "3")
