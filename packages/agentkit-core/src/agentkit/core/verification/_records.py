"""The records every double shares: a violation, the error that lists them, and what a double is.

Kept apart from the ownership machinery so that a double, a report and a
test that reads ``.violations`` need nothing but these few classes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from agentkit.core._internal.failures import kit_failure

__all__ = [
    "DETAIL_LIMIT",
    "REPORT_LIMIT",
    "Verifiable",
    "VerificationError",
    "Violation",
    "clipped",
    "verify_all",
]

REPORT_LIMIT = 20
"""How many violations a report spells out; the rest are counted, so a loop that
misses 10,000 times gives a readable failure, not 30,000 lines."""

DETAIL_LIMIT = 2000
"""How many characters of one violation's text a report prints; the whole text
stays in ``.violations``, so a 10 MB detail is a readable failure too."""


def clipped(text: str, limit: int = DETAIL_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return (
        f"{text[:limit]}... ({len(text) - limit} more characters; the whole text is in .violations)"
    )


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken promise of one double, in words a test failure can show.

    ``double`` names the double (``"FakeLLM.script"``), ``created_at`` is where
    the test made it (``"tests/test_agent.py:12"``), ``kind`` is a short stable
    tag a test may assert on (``"unused_turns"``, ``"unknown_url"`` ...),
    ``detail`` says what was left unused or missed, and ``fix`` says what to
    change -- in the code under test or in the test's material.
    """

    double: str
    created_at: str
    kind: str
    detail: str
    fix: str

    def __str__(self) -> str:
        return (
            f"{self.double} (created at {self.created_at}) {self.kind}: {clipped(self.detail)}\n"
            f"    fix: {clipped(self.fix)}"
        )


@kit_failure
class VerificationError(AssertionError):
    """One or more doubles were not used as the test's material claims.

    An ``AssertionError`` because it is raised where a test asserts -- by a
    test calling ``assert_complete()`` or by the plugin -- after the code
    under test has finished, so no ``except Exception`` of that code can be
    in the way. ``violations`` holds every :class:`Violation` found, all at
    once and whole, so one run shows everything there is to fix; the message
    spells out at most :data:`REPORT_LIMIT` of them, each cut to
    :data:`DETAIL_LIMIT` characters.
    """

    __module__ = "agentkit.core.verification"  # what a traceback prints: the public path

    violations: tuple[Violation, ...]

    def __init__(self, violations: Iterable[Violation]) -> None:
        self.violations = tuple(violations)
        count = len(self.violations)
        lines = [f"{count} test-double violation{'' if count == 1 else 's'}:"]
        lines.extend(f"  - {violation}" for violation in self.violations[:REPORT_LIMIT])
        if count > REPORT_LIMIT:
            lines.append(f"  ... and {count - REPORT_LIMIT} more (all in .violations)")
        super().__init__("\n".join(lines))

    def __reduce__(self) -> tuple[type[VerificationError], tuple[tuple[Violation, ...]]]:
        # Rebuilt from the violations, not the message, so it survives pickling
        # (pytest-xdist, multiprocessing) with its structured fields intact.
        return (type(self), (self.violations,))


@runtime_checkable
class Verifiable(Protocol):
    """What the ownership registry and the plugin need of a double."""

    @property
    def verify_enabled(self) -> bool:
        """False when the double was built with ``verify=False``."""
        ...

    def violations(self) -> list[Violation]:
        """Every violation so far: recorded misses plus material left unused."""
        ...

    def assert_complete(self) -> None:
        """Raise :class:`VerificationError` if :meth:`violations` is not empty."""
        ...


def verify_all(doubles: Iterable[Verifiable]) -> None:
    """Raise ONE :class:`VerificationError` listing the violations of all ``doubles``."""
    found = [
        violation
        for double in doubles
        if double.verify_enabled
        for violation in double.violations()
    ]
    if found:
        raise VerificationError(found)
