"""Strict verification: what every double shares to make a broken agent fail its test.

A double that holds finite material (a script of turns, a list of CLI runs) or
that can be asked for something it does not have (a URL, a dict-form LLM
prompt) knows things the test body does not: that two turns were never asked
for, that a tool swallowed a ``KeyError`` for a mistyped URL. Raising at the
moment of the miss is not enough -- the code under test may catch it (the tool
loop turns every tool failure into a tool message, by design) and the test goes
green. So each double also *records* the violation, and the record is checked
once more after the test body has run: by :meth:`VerifyingDouble.assert_complete`
when a test calls it, and by the pytest plugin at teardown for every double
created during the test.

What lives here is what all doubles share -- the :class:`Violation` record, the
one :class:`VerificationError` that lists all of them, the
:class:`VerifyingDouble` mixin, and the registry (:func:`collect_doubles`) the
plugin reads -- so that a fakes package needs nothing but agentkit-core and no
fakes package imports pytest.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Protocol, runtime_checkable

from agentkit.core.arguments import check_bool, hide_argument_errors
from agentkit.core.failures import kit_failure

__all__ = [
    "Verifiable",
    "VerificationError",
    "VerifyingDouble",
    "Violation",
    "collect_doubles",
    "creation_site",
    "verify_all",
]

__tracebackhide__ = hide_argument_errors  # a wrong argument shows the caller's line


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
        return f"{self.double} (created at {self.created_at}) {self.kind}: {self.detail}\n    fix: {self.fix}"


@kit_failure
class VerificationError(AssertionError):
    """One or more doubles were not used as the test's material claims.

    An ``AssertionError`` because it is raised where a test asserts -- by a
    test calling ``assert_complete()`` or by the plugin at teardown -- after the
    code under test has finished, so no ``except Exception`` of that code can
    be in the way. ``violations`` holds every :class:`Violation` found, all at
    once, so one run shows everything there is to fix.
    """

    violations: tuple[Violation, ...]

    def __init__(self, violations: Iterable[Violation]) -> None:
        self.violations = tuple(violations)
        count = len(self.violations)
        lines = [f"{count} test-double violation{'' if count == 1 else 's'}:"]
        lines.extend(f"  - {violation}" for violation in self.violations)
        super().__init__("\n".join(lines))

    def __reduce__(self) -> tuple[type[VerificationError], tuple[tuple[Violation, ...]]]:
        # Rebuilt from the violations, not the message, so it survives pickling
        # (pytest-xdist, multiprocessing) with its structured fields intact.
        return (type(self), (self.violations,))


@runtime_checkable
class Verifiable(Protocol):
    """What the registry and the plugin need of a double."""

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


_KIT_PREFIXES = ("agentkit.core.", "agentkit.fakes.", "agentkit.agents.")


def creation_site(skip: int = 1) -> str:
    """``"file:line"`` of the first frame outside the kit, looking up from the caller.

    A violation names where the test made the double, not the kit's own
    constructor: the frames of ``agentkit.*`` modules are passed over.
    """
    frame: FrameType | None = sys._getframe(skip)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if not (isinstance(module, str) and module.startswith(_KIT_PREFIXES)):
            return f"{frame.f_code.co_filename}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown>"


_collectors: list[tuple[list[Verifiable], bool]] = []


@contextmanager
def collect_doubles(*, isolate: bool = False) -> Iterator[list[Verifiable]]:
    """Collect every double created (with verification on) while the block runs.

    The pytest plugin wraps each test in one. Outside any block nothing is
    kept, so a double made at import time or in a script costs no memory.
    Blocks nest; a double is collected by every open block up to and
    including the innermost one opened with ``isolate=True``. The plugin
    isolates each test, so the doubles of a test run by ``pytester`` inside
    another test are that inner test's business alone.
    """
    check_bool(isolate, "collect_doubles", "isolate")
    bucket: list[Verifiable] = []
    entry = (bucket, isolate)
    _collectors.append(entry)
    try:
        yield bucket
    finally:
        # By identity: list.remove compares by equality, and two empty buckets are equal,
        # so a nested block would otherwise unregister the outer one.
        for index in range(len(_collectors) - 1, -1, -1):
            if _collectors[index] is entry:
                del _collectors[index]
                break


def _register(double: Verifiable) -> None:
    for bucket, isolated in reversed(_collectors):
        bucket.append(double)
        if isolated:
            break


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


class VerifyingDouble:
    """Mixin giving a double a violation record, ``assert_complete`` and registration.

    A double calls :meth:`_init_verification` from its constructor (or
    ``__post_init__``), :meth:`_record_violation` at each miss, and overrides
    :meth:`_leftovers` to report material still unused when verification runs
    (unconsumed turns, unspawned runs) -- computed then, not at the miss.
    """

    _verify: bool
    _created_at: str
    _recorded: list[Violation]
    _double_name: str

    def _init_verification(self, *, verify: bool, name: str | None = None) -> None:
        self._double_name = name if name is not None else type(self).__name__
        self._verify = check_bool(verify, self._double_name, "verify")
        self._created_at = creation_site(2)
        self._recorded = []
        if verify and _collectors:
            _register(self)

    @property
    def verify_enabled(self) -> bool:
        return self._verify

    @property
    def created_at(self) -> str:
        """Where the test created this double (``file:line``)."""
        return self._created_at

    def _violation(self, kind: str, detail: str, fix: str) -> Violation:
        return Violation(self._double_name, self._created_at, kind, detail, fix)

    def _record_violation(self, kind: str, detail: str, fix: str) -> None:
        self._recorded.append(self._violation(kind, detail, fix))

    def _leftovers(self) -> list[Violation]:
        """Violations that only exist once the test is over (material left unused)."""
        return []

    def violations(self) -> list[Violation]:
        return [*self._recorded, *self._leftovers()]

    def assert_complete(self) -> None:
        """Raise :class:`VerificationError` listing every violation of this double.

        Call it at the end of a test that does not run under the pytest
        plugin (which calls it for you at teardown).
        """
        __tracebackhide__ = True
        found = self.violations()
        if found:
            raise VerificationError(found)
