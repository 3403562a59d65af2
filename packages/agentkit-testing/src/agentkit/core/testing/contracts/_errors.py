"""The errors a contract suite raises, and the record of one broken rule they carry.

Apart from the suites so that a test that only catches or asserts on a
:class:`ContractViolation` -- and a star import of
:mod:`agentkit.core.testing`, which binds both errors -- loads these classes
and none of the runner, its checks or its dataclasses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agentkit.core._internal.arguments import describe
from agentkit.core._internal.failures import kit_failure

__all__ = ["CheckFailure", "ContractFactoryError", "ContractViolation"]


@dataclass(frozen=True, slots=True)
class CheckFailure:
    """One broken rule: the check's name, the rule it enforces, what the implementation did."""

    check: str
    rule: str
    got: str


@kit_failure
class ContractViolation(AssertionError):
    """An implementation broke one or more rules of its port's contract.

    An AssertionError so that pytest reports it as a plain test failure.
    ``failures`` lists every broken rule; ``check``, ``rule`` and ``got`` are
    the first one's, for the common case of a single check.
    """

    __module__ = "agentkit.core.testing.contracts"  # what a traceback prints: the public path

    def __init__(self, port: str, failures: Sequence[CheckFailure]) -> None:
        self.port = port
        self.failures = tuple(failures)
        first = self.failures[0]
        self.check = first.check
        self.rule = first.rule
        self.got = first.got
        lines = [f"{port} contract: {len(self.failures)} check(s) failed"]
        for failure in self.failures:
            lines.append(f"- {failure.check}: {failure.rule}")
            lines.append(f"    got: {failure.got}")
        super().__init__("\n".join(lines))


@kit_failure
class ContractFactoryError(TypeError):
    """A factory handed to a suite did not make the port the suite checks.

    Raised before any check runs, so that a wrong factory reads as that, not
    as an AttributeError deep inside the first check.
    """

    __module__ = "agentkit.core.testing.contracts"  # what a traceback prints: the public path

    def __init__(
        self, factory: object, port: str, returned: object, missing: Sequence[str]
    ) -> None:
        self.factory = factory
        self.port = port
        self.returned = returned
        self.missing = tuple(missing)
        name = getattr(factory, "__qualname__", None) or repr(factory)
        super().__init__(
            f"factory {name} must return a {port}, but returned {describe(returned)}"
            f" (missing: {', '.join(self.missing)})"
        )
