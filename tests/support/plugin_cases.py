"""A user's whole suite as one case, and the outcome the plugin promises for it, both ways.

A case is a small test suite a user might write (one test file, maybe a
conftest and other modules), the arguments it runs with, and whether it must
fail (a broken agent: the run fails, naming the violation) or pass (a correct
suite: green, without a word about doubles). The held-out set and the
ownership rules' set are both written as such cases and checked here alike.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.support.inner_session import INNER_INI

__all__ = ["Case", "broken", "check_case", "correct", "run_case"]


@dataclass(frozen=True)
class Case:
    """One user's suite, the arguments it runs with, and what must come of it."""

    source: str
    fails: bool
    """True: a broken agent, the run must fail; False: a correct suite, it must pass."""
    needles: tuple[str, ...] = ()
    """Text the output must hold (the violation kind, the test blamed)."""
    args: tuple[str, ...] = ()
    files: dict[str, str] = field(default_factory=dict)
    """Further files of the suite (a conftest, a second module), by path."""
    outcomes: dict[str, int] | None = None
    """The exact outcome counts, when they matter (an innocent test must pass)."""
    randomly: bool = False
    """Keep pytest-randomly on (a shuffled order), with a fixed seed."""
    absent: tuple[str, ...] = ()
    """Text the output must not hold (a test wrongly blamed, a false verdict)."""
    subprocess: bool = False
    """Run in a child process (threads that outlive the session, process pools)."""


def broken(source: str, **given: Any) -> Case:
    """A broken agent's suite: the run must fail."""
    return Case(source, fails=True, **given)


def correct(source: str, **given: Any) -> Case:
    """A correct suite: the run must pass without a word about doubles."""
    return Case(source, fails=False, **given)


def run_case(pytester: pytest.Pytester, head: str, case: Case) -> pytest.RunResult:
    pytester.makeini(INNER_INI)
    pytester.makepyfile(test_inner=head + textwrap.dedent(case.source))
    for path, text in case.files.items():
        target = pytester.path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    order = ("-p", "randomly", "--randomly-seed=3") if case.randomly else ("-p", "no:randomly")
    run = pytester.runpytest_subprocess if case.subprocess else pytester.runpytest
    return run(*order, "-p", "no:hypothesispytest", *case.args)


def check_case(pytester: pytest.Pytester, head: str, case: Case, *, name: str = "") -> None:
    """Run ``case`` and assert what it promises."""
    __tracebackhide__ = True
    result = run_case(pytester, head, case)
    text = result.stdout.str()
    if case.outcomes is not None:
        result.assert_outcomes(**case.outcomes)
    assert "INTERNALERROR" not in text, text
    for needle in case.absent:
        assert needle not in text, f"{needle!r} in:\n{text}"
    for needle in case.needles:
        assert needle in text, f"{needle!r} not in:\n{text}"
    if case.fails:
        assert result.ret != 0, text
    else:
        assert result.ret == 0, text
        assert "test-double violation" not in text, text
        assert "Traceback" not in text or "xfail" in name, text
