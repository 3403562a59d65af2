"""The errors a public constructor raises for wrong input: public, for a test to catch and read.

A wrong argument accepted by a constructor does not go away; it resurfaces
later, somewhere else, as something else -- ``FakeFetch([])`` as an
``AttributeError`` inside the agent's tool three calls later, a NaN backoff as
a sleep that never returns. So every public constructor of the kit checks its
arguments first and raises at once, with the argument named and what it takes:
an :class:`ArgumentTypeError` (a ``TypeError``) for the wrong kind of value, an
:class:`ArgumentValueError` (a ``ValueError``) for the right kind with a wrong
value (negative, NaN, empty). Both carry the pieces as fields -- ``where``,
``argument``, ``expected``, ``got`` -- so a test can assert on them.
(``agentkit.core.testing`` re-exports the three.)

Short tracebacks. The mistake is the caller's, so the caller's line is what a
test report should show, not the kit's validation code. :class:`ArgumentError`
is a kit failure (:func:`agentkit.core._internal.failures.kit_failure`): when
one ends a test, the agentkit pytest plugin unlinks the kit's frames from its
traceback, as for every failure the kit raises on purpose. Other errors keep
every frame.
"""

from __future__ import annotations

from agentkit.core._internal.describe import describe
from agentkit.core._internal.failures import kit_failure

__all__ = ["ArgumentError", "ArgumentTypeError", "ArgumentValueError"]


@kit_failure
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
