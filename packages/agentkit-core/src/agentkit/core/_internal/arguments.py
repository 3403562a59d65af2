"""The argument checks every public constructor of the kit runs: internal, see :mod:`agentkit.core._internal`.

Why every constructor refuses wrong input at once, and the errors it raises,
are told in :mod:`agentkit.core.errors` (public: a test catches them); the
checks that raise them live here. Each takes the value, ``where`` (the
callable) and ``argument`` (as the caller wrote it) and returns the value,
narrowed, or raises an :class:`ArgumentTypeError` / :class:`ArgumentValueError`.

The checks are cheap on purpose (a type test and a comparison or two, no
imports beyond :mod:`math`): value types are built on every model call.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from agentkit.core._internal.describe import describe
from agentkit.core.errors import ArgumentError, ArgumentTypeError, ArgumentValueError

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
]

T = TypeVar("T")


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
