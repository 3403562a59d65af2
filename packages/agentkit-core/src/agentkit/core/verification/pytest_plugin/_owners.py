"""The owners pytest runs: a test, a fixture broader than a test, a collection step, the session.

Each is made by the plugin when pytest starts it, runs (see
:func:`~agentkit.core.verification._ownership.running`) while pytest runs
it, and is judged when pytest ends it. What each keeps is all the plugin
needs at that moment: the doubles it owns, the certain errors witnessed
while it ran, and -- for an owner shared by several tests -- the tests whose
bodies must all have run before its unused material means anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from agentkit.core.verification._ownership import Owner
from agentkit.core.verification._records import Verifiable, Violation

__all__ = ["CollectOwner", "FixtureOwner", "SessionOwner", "Shared", "TestOwner"]


def _location(item: pytest.Item) -> str:
    path, line, _ = item.location
    return f"{path}:{(line or 0) + 1}"


class TestOwner(Owner):
    """One run of one test (a rerun is a new one): from its setup to its teardown.

    It keeps every double made while it runs -- by its function-scoped
    fixtures, its body, the tasks and threads it starts -- and every certain
    error that happens while it runs, whoever owns the double.
    """

    __test__ = False
    __slots__ = (
        "body",
        "expects_raise",
        "item",
        "passed",
        "started",
        "verify",
        "witnessed",
        "xfail",
    )

    def __init__(
        self,
        item: pytest.Item,
        parent: Owner | None,
        *,
        verify: bool,
        xfail: bool,
        expects_raise: bool,
    ) -> None:
        super().__init__(f"the test {item.nodeid}", parent)
        self.item = item
        self.verify = verify
        self.xfail = xfail
        self.expects_raise = expects_raise
        self.passed = True
        """Nothing has failed, been skipped or xfailed so far."""
        self.body = False
        """The test's body ran and passed (its call phase)."""
        self.witnessed: list[Violation] = []
        self.started = 0
        """The how-manieth test run of the session this is."""

    def witness(self, double: Verifiable, violation: Violation) -> bool:
        self.witnessed.append(violation)
        return True

    def site(self) -> str | None:
        return f"{_location(self.item)} (in {self.item.name})"


class FixtureOwner(Owner):
    """A fixture while pytest sets it up: of a test's scope it only names itself.

    A function-scoped fixture's doubles are its test's (they end together);
    one of a broader scope keeps its own, judged when pytest finalizes it, on
    ``tests``: the tests in its scope that request it.
    """

    __slots__ = ("argname", "born", "dynamic", "scope", "verify")

    def __init__(
        self, argname: str, scope: str, parent: Owner | None, *, verify: bool = True
    ) -> None:
        super().__init__(f"the {scope}-scoped fixture {argname!r}", parent)
        self.argname = argname
        self.scope = scope
        self.verify = verify
        self.born = 0
        """How many test runs had started when it was set up (see the plugin's ``started``)."""
        self.dynamic = False
        """Asked for by name at run time (``request.getfixturevalue``): judged on every test in
        its scope, since which others will ask for it cannot be known."""

    def adopt(self, double: Verifiable, started_by: Owner | None) -> None:
        if self.scope == "function" and self.parent is not None and not self.parent.ended:
            self.parent.adopt(double, started_by)
        else:
            self.doubles.append(double)

    def site(self) -> str | None:
        test = self.parent
        while test is not None and not isinstance(test, TestOwner):
            test = test.parent
        where = _location(test.item) if test is not None else "<unknown>"
        return f"{where} (the {self.scope}-scoped fixture {self.argname!r})"


class CollectOwner(Owner):
    """A collection step: importing a test module or conftest, building its parametrize lists."""

    __slots__ = ("where",)

    def __init__(self, where: str, parent: Owner | None) -> None:
        super().__init__(f"the collection of {where}", parent)
        self.where = where


class SessionOwner(Owner):
    """The session: what no test or fixture owns, judged when pytest ends the session.

    It takes doubles made outside any test (a hook, a session-start helper)
    and those made by work that outlived the test that started it, naming
    that test; and certain errors that happened while no test ran.
    """

    __slots__ = ("late", "witnessed")

    def __init__(self) -> None:
        super().__init__("the test session", None)
        self.late: list[tuple[Verifiable, Owner]] = []
        self.witnessed: list[Violation] = []

    def adopt(self, double: Verifiable, started_by: Owner | None) -> None:
        if started_by is not None:
            self.late.append((double, started_by))
        else:
            self.doubles.append(double)

    def witness(self, double: Verifiable, violation: Violation) -> bool:
        self.witnessed.append(violation)
        return True


@dataclass(eq=False)
class Shared:
    """A double more than one test may use, and the tests its unused material is judged on."""

    double: Verifiable
    origin: str
    """Whose it is, for the report (``"made by the module-scoped fixture 'llm'"``)."""
    tests: frozenset[str] | None
    """The node ids it is judged on; None: every test of the session."""
    left: set[str] = field(default_factory=set)
    """Those of ``tests`` that have not finished yet."""
