"""Refusing wrong input at the door: the argument checks every public constructor shares.

A wrong argument accepted by a constructor does not go away; it resurfaces
later, somewhere else, as something else -- ``FakeFetch([])`` as an
``AttributeError`` inside the agent's tool three calls later, a NaN backoff as
a sleep that never returns. So every public constructor of the kit checks its
arguments first and raises at once, with the argument named and what it takes:
an :class:`ArgumentTypeError` (a ``TypeError``) for the wrong kind of value, an
:class:`ArgumentValueError` (a ``ValueError``) for the right kind with a wrong
value (negative, NaN, empty). Both carry the pieces as fields -- ``where``,
``argument``, ``expected``, ``got`` -- so a test can assert on them.

Short tracebacks. The mistake is the caller's, so the caller's line is what a
test report should show, not the kit's validation code. Every module with a
checked constructor sets ``__tracebackhide__ = hide_argument_errors`` at module
level: pytest asks that predicate for each frame of the module and hides the
frame when the error passing through is one of these two. The predicate is
module-wide (rather than a ``__tracebackhide__ = True`` in each function)
because the ``__init__`` that ``dataclasses`` generates has no source of its
own and shares its module's globals; only a module-level name reaches it.
Other errors keep every frame, and ``pytest --full-trace`` shows all frames
always. Outside pytest the name is inert.

The checks are cheap on purpose (a type test and a comparison or two, no
imports beyond :mod:`math`): value types are built on every model call.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

__all__ = [
    "ArgumentError",
    "ArgumentTypeError",
    "ArgumentValueError",
    "check_bool",
    "check_callable",
    "check_int",
    "check_mapping",
    "check_number",
    "check_protocol",
    "check_str",
    "check_type",
    "check_values",
    "describe",
    "hide_argument_errors",
]

T = TypeVar("T")


def hide_argument_errors(excinfo: Any) -> bool:
    """True when the error passing through a frame is an :class:`ArgumentError`.

    pytest calls a module's ``__tracebackhide__`` with the ``ExceptionInfo``
    of the failure when it is callable; this one hides the kit's frames
    between a caller's wrong argument and the error naming it.
    """
    value = getattr(excinfo, "value", None)
    return isinstance(value, ArgumentError)


__tracebackhide__ = hide_argument_errors


def describe(value: object, limit: int = 80) -> str:
    """``type repr`` of ``value``, the repr cut to ``limit`` characters (a huge value stays short)."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        text = "<unrepresentable>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{type(value).__name__} {text}"


class ArgumentError(Exception):
    """Base of the two argument errors: a public constructor was given wrong input.

    ``where`` is the callable (``"FakeFetch"``), ``argument`` the argument as
    the caller wrote it (``"fixtures"``, ``"tools[0]"``), ``expected`` what it
    takes, ``got`` the value given, and ``hint`` an optional next step.
    """

    where: str
    argument: str
    expected: str
    got: object
    hint: str

    def __init__(
        self, where: str, argument: str, expected: str, got: object, hint: str = ""
    ) -> None:
        self.where = where
        self.argument = argument
        self.expected = expected
        self.got = got
        self.hint = hint
        message = f"{where}: {argument} must be {expected}, got {describe(got)}"
        super().__init__(f"{message}; {hint}" if hint else message)

    def __reduce__(self) -> tuple[type[ArgumentError], tuple[str, str, str, object, str]]:
        # Rebuilt from the fields, not the message: pickled across processes (pytest-xdist,
        # multiprocessing) the error keeps them, and unpickling does not fail on the
        # constructor's five arguments.
        return (type(self), (self.where, self.argument, self.expected, self.got, self.hint))


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong kind (a list where a mapping goes, a bool where an int goes)."""


class ArgumentValueError(ArgumentError, ValueError):
    """An argument of the right kind with a value that cannot work (negative, NaN, empty)."""


def check_type(
    value: object, kind: type[T] | tuple[type, ...], where: str, argument: str, expected: str
) -> T:
    """``value`` if it is an instance of ``kind``, else :class:`ArgumentTypeError`."""
    if not isinstance(value, kind):
        raise ArgumentTypeError(where, argument, expected, value)
    return value  # type: ignore[return-value]


def check_str(value: object, where: str, argument: str, *, empty: bool = True) -> str:
    """A str (``empty=False``: a non-empty one)."""
    if not isinstance(value, str):
        raise ArgumentTypeError(where, argument, "a str" if empty else "a non-empty str", value)
    if not empty and not value:
        raise ArgumentValueError(where, argument, "a non-empty str", value)
    return value


def check_bool(value: object, where: str, argument: str) -> bool:
    """A real bool: ``1`` or ``"yes"`` would be truthy and mean something unintended."""
    if not isinstance(value, bool):
        raise ArgumentTypeError(where, argument, "a bool (True or False)", value)
    return value


def check_int(value: object, where: str, argument: str, *, minimum: int | None = 0) -> int:
    """An int (never a bool, never a float, not even 2.0) at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(where, argument, _int_wanted(minimum), value)
    if minimum is not None and value < minimum:
        raise ArgumentValueError(where, argument, _int_wanted(minimum), value)
    return value


def _int_wanted(minimum: int | None) -> str:
    return "an int" if minimum is None else f"an int >= {minimum}"


def check_number(value: object, where: str, argument: str, *, minimum: float | None = 0.0) -> float:
    """A finite int or float (never a bool, NaN or infinity) at least ``minimum``."""
    wanted = "a finite number" if minimum is None else f"a finite number >= {minimum:g}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ArgumentTypeError(where, argument, wanted, value)
    if not math.isfinite(value) or (minimum is not None and value < minimum):
        raise ArgumentValueError(where, argument, wanted, value)
    return float(value)


def check_mapping(value: object, where: str, argument: str, expected: str) -> Mapping[Any, Any]:
    """A Mapping (a dict, a MappingProxyType, ...)."""
    if not isinstance(value, Mapping):
        raise ArgumentTypeError(where, argument, expected, value)
    return value


def check_values(value: object, where: str, argument: str, expected: str) -> tuple[Any, ...]:
    """A list-like of values as a tuple: any iterable but a str, bytes or a mapping.

    A str would iterate its characters and a dict its keys -- both usually a
    single item where a list of them was meant -- so both are refused.
    """
    if isinstance(value, str | bytes | bytearray | Mapping) or not isinstance(value, Iterable):
        raise ArgumentTypeError(where, argument, expected, value)
    return tuple(value)


def check_callable(value: object, where: str, argument: str, expected: str) -> Callable[..., Any]:
    """A callable."""
    if not callable(value):
        raise ArgumentTypeError(where, argument, expected, value)
    return value


def check_protocol(
    value: object, where: str, argument: str, expected: str, members: Iterable[str]
) -> None:
    """Refuse ``value`` unless it has every attribute in ``members``, naming the missing ones.

    A structural check, for ports (a Tool, an LLMPort): what a Protocol would
    be checked against, without ``isinstance`` on a runtime-checkable Protocol
    (slower, and silent about which member is missing).
    """
    missing = [name for name in members if not hasattr(value, name)]
    if missing:
        raise ArgumentTypeError(where, argument, expected, value, f"it has no {', '.join(missing)}")
