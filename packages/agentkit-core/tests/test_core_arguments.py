"""agentkit.core._internal.arguments, and agentkit-core's constructors refusing wrong input through it.

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
import traceback
from collections.abc import Callable
from typing import Any

import pytest

from agentkit.core import errors
from agentkit.core._internal import arguments
from agentkit.core._internal.arguments import (
    ArgumentError,
    ArgumentTypeError,
    ArgumentValueError,
    check_bool,
    check_int,
    check_number,
    check_protocol,
    check_values,
    describe,
)
from agentkit.core._internal.failures import hide_kit_frames
from agentkit.core.invoker import Invoker
from agentkit.core.meters import UsageMeter
from agentkit.core.middleware import RetryMiddleware
from agentkit.core.noop import NullCtx
from agentkit.core.pricing import ModelPrice, PriceTable
from agentkit.core.request import ChatRequest
from agentkit.core.runtime import RunContext, Services
from agentkit.core.types import Budget, FetchResponse, Message, ToolCall, Usage


def _case(
    error: type[ArgumentError],
    argument: str,
    factory: Callable[..., object],
    *args: Any,
    **kwargs: Any,
) -> Any:
    """``factory(*args, **kwargs)`` must raise ``error`` naming the factory and ``argument``."""
    shown = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return pytest.param(
        lambda: factory(*args, **kwargs),
        error,
        factory.__name__,
        argument,
        id=f"{factory.__name__}({', '.join(shown)})",
    )


CASES = [
    _case(ArgumentValueError, "input_tokens", Usage, input_tokens=-1),
    _case(ArgumentTypeError, "output_tokens", Usage, output_tokens=1.5),
    _case(ArgumentTypeError, "cached_input_tokens", Usage, cached_input_tokens=True),
    _case(ArgumentValueError, "role", Message, "robot"),
    _case(ArgumentTypeError, "content", Message, "user", None),
    _case(ArgumentTypeError, "arguments", ToolCall, "c", "t", []),
    _case(ArgumentTypeError, "status", FetchResponse, "u", "200"),
    _case(ArgumentValueError, "max_cost_usd", Budget, max_cost_usd=math.nan),
    _case(ArgumentTypeError, "llm", Invoker, None),
    _case(ArgumentValueError, "autonomy", RunContext, autonomy="maybe"),
    _case(ArgumentTypeError, "clock", Services, clock=1),
    _case(ArgumentTypeError, "max_tokens", ChatRequest, [], "m", max_tokens=1.5),
    _case(ArgumentValueError, "initial_backoff", RetryMiddleware, initial_backoff=math.nan),
    _case(ArgumentValueError, "max_attempts", RetryMiddleware, max_attempts=0),
    _case(ArgumentValueError, "input", ModelPrice, math.inf, 1.0),
    _case(ArgumentTypeError, "prices", PriceTable, []),
    _case(ArgumentValueError, "calls", UsageMeter, calls=-1),
    _case(ArgumentTypeError, "calls", UsageMeter, calls=1.5),
    _case(ArgumentTypeError, "by_model", UsageMeter, by_model=[]),
    _case(ArgumentTypeError, "by_model['m']", UsageMeter, by_model={"m": 1}),
    _case(ArgumentTypeError, "scope", NullCtx, scope=1),
    _case(ArgumentTypeError, "trace", NullCtx, trace=None),
    _case(ArgumentTypeError, "observer", NullCtx, observer="x"),
]


@pytest.mark.parametrize(("make", "error", "where", "argument"), CASES)
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


def test_the_checks_raise_the_public_errors() -> None:
    # One class each: what a test catches from agentkit.core.errors is what the checks raise.
    assert arguments.ArgumentError is errors.ArgumentError
    assert arguments.ArgumentTypeError is errors.ArgumentTypeError
    assert arguments.ArgumentValueError is errors.ArgumentValueError


def test_an_argument_error_loses_the_kits_frames_and_keeps_the_callers() -> None:
    # The one frame-hiding mechanism (the plugin's hide_kit_frames) shortens argument errors
    # too: the constructor's and the check's frames go, this test's line stays.
    try:
        UsageMeter(usage="lots")  # type: ignore[arg-type]
    except ArgumentTypeError as caught:
        error: BaseException = caught
    else:
        raise AssertionError("UsageMeter took a str budget")
    files = [
        frame.filename.replace("\\", "/") for frame in traceback.extract_tb(error.__traceback__)
    ]
    assert any("agentkit/core/" in name for name in files), files
    hide_kit_frames(error)
    after = [frame.filename for frame in traceback.extract_tb(error.__traceback__)]
    assert after == [__file__], after


def test_an_argument_error_survives_pickling_with_its_message() -> None:
    error = ArgumentTypeError("Thing", "size", "an int", "3")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is ArgumentTypeError
    assert str(copy) == str(error)
    assert (copy.where, copy.argument, copy.got) == ("Thing", "size", "3")
