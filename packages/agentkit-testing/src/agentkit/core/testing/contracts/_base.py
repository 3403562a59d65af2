"""The pytest face of a suite: a base class a user subclasses, one test method per check.

The class imports nothing from pytest at import time (only the plugin may):
pytest collects any ``Test*`` subclass, and the methods ask for the user's
``make_port`` fixture by name. Options come from the class attribute
``contract_options`` and, when the user defines one, a ``port_options``
fixture (for values known only at run time, such as a server's port); they
are refused as the function form's signature refuses them: an option the
suite does not take, or a required one missing, fails the test naming the
key. A check that needs an optional option nobody gave is skipped
(``pytest.skip``; ``unittest.SkipTest`` outside pytest).

Why each generated test's code is placed at the user's class: pytest reports
a skip at the innermost frame it does not hide, and the generated methods are
written here, so every skip (and every item location) would name this file,
or pytest's own ``unittest.py`` for a ``unittest.SkipTest``, instead of the
test a user must change. Each subclass gets its own copy of the method whose
code names the file and line of the ``class`` statement; that frame is shown
for a skip and hidden for everything else.

Why the methods are coroutines when pytest-asyncio is loaded: a module-level
``pytestmark = pytest.mark.asyncio`` marks every test in the module, and
pytest-asyncio warns (an error under ``filterwarnings = error``) for every
marked test that is not a coroutine. So each subclass made while
pytest-asyncio is loaded gets ``async def`` tests carrying the asyncio mark
themselves (they run in strict mode and auto mode alike); without it they
are plain tests that run the check in their own event loop.

Why a failure is raised with ``pytest.fail(..., pytrace=False)``: the
violation's message already says the check, the rule and what happened; the
frames under it are the suite's runner, which only bury that message.
"""

from __future__ import annotations

import asyncio
import os
import sys
import types
import unittest
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from agentkit.core.testing.contracts._errors import ContractViolation
from agentkit.core.testing.contracts._suite import Check, Suite

__all__ = ["ContractTests"]


class ContractTests:
    """Base of every ``<Port>Contract`` class; subclass one and define a ``make_port`` fixture.

    Every subclass of a class with a ``_suite`` (the port's checks, internal)
    gets one ``test_<check>`` method per check.
    """

    _suite: ClassVar[Suite]
    contract_options: ClassVar[Mapping[str, Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        suite: Suite | None = getattr(cls, "_suite", None)
        if suite is None:
            return
        coroutines = "pytest_asyncio" in sys.modules
        place = _class_statement(cls, sys._getframe(1))
        for check in suite.checks:
            name = f"test_{check.name}"
            if name not in cls.__dict__:
                setattr(cls, name, _placed(_method(check, coroutines), cls, place))


def _class_statement(cls: type, frame: types.FrameType | None) -> tuple[str, int] | None:
    """The file and line of the ``class`` statement that made ``cls``, if a frame shows it.

    The statement's frame is the nearest caller in the class's own module
    (an ``__init_subclass__`` of a user's intermediate base may sit between).
    """
    module = sys.modules.get(cls.__module__)
    path = getattr(module, "__file__", None)
    if not path:
        return None
    path = os.path.normcase(os.path.abspath(path))
    for _ in range(8):
        if frame is None:
            return None
        if os.path.normcase(os.path.abspath(frame.f_code.co_filename)) == path:
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back
    return None


def _placed(
    test: Callable[..., Any], cls: type, place: tuple[str, int] | None
) -> Callable[..., Any]:
    """A copy of ``test`` whose code says it is ``cls``'s method, written at ``place``.

    The line its one statement runs on is the ``class`` line, so a skip is
    reported there.
    """
    name = test.__name__
    qualname = f"{cls.__qualname__}.{name}"
    code = test.__code__.replace(co_name=name, co_qualname=qualname)
    if place is not None:
        path, line = place
        statement = max(n for *_, n in code.co_lines() if n is not None)
        first = max(1, line - (statement - code.co_firstlineno))
        code = code.replace(co_filename=path, co_firstlineno=first)
    copy = types.FunctionType(code, test.__globals__, name, test.__defaults__, test.__closure__)
    copy.__qualname__ = qualname
    copy.__doc__ = test.__doc__
    copy.__dict__.update(test.__dict__)  # the asyncio mark
    return copy


def _options(cls: type[ContractTests], request: Any) -> dict[str, Any]:
    where = f"{cls.__name__}"
    cls._suite.validate(cls.contract_options, where, "contract_options")
    options = dict(cls.contract_options)
    try:
        extra = request.getfixturevalue("port_options")
    except Exception as exc:  # pytest's FixtureLookupError: the user defined none
        if type(exc).__name__ != "FixtureLookupError":
            raise
        extra = {}
    cls._suite.validate(extra, where, "port_options")
    options.update(extra)
    cls._suite.validate(options, where, "contract_options")
    return options


async def _run(self: ContractTests, make_port: Any, request: Any, name: str) -> str | None:
    """Run one check; a failure is raised, a skip returned as its reason (None: it ran)."""
    __tracebackhide__ = True
    suite = type(self)._suite
    options = _options(type(self), request)
    try:
        skipped = await suite.run(make_port, options, only=[name])
    except ContractViolation as violation:
        pytest = sys.modules.get("pytest")
        if pytest is None:  # called outside pytest: the violation is the report
            raise
        failed = pytest.fail.Exception(str(violation), pytrace=False)
        failed.violation = violation
        raise failed from None
    if skipped:
        needs = suite.by_name(name).needs
        return f"{name} needs the option(s) {', '.join(needs)}"
    return None


def _skip_if(reason: str | None) -> None:
    """Skip the running test for ``reason``, if any: pytest's skip, or unittest's outside it."""
    __tracebackhide__ = True
    if reason is None:
        return
    pytest = sys.modules.get("pytest")
    if pytest is None:
        raise unittest.SkipTest(reason)
    pytest.skip(reason)


def _unless_skipped(excinfo: Any) -> bool:
    """Hide the generated test's frame, except as the place a skip is reported."""
    pytest = sys.modules.get("pytest")
    return pytest is None or not isinstance(excinfo.value, pytest.skip.Exception)


def _method(check: Check, coroutine: bool) -> Callable[..., Any]:
    name = check.name
    if coroutine:

        async def test(self: ContractTests, make_port: Any, request: Any) -> None:
            __tracebackhide__ = _unless_skipped
            _skip_if(await _run(self, make_port, request, name))

        test.pytestmark = [sys.modules["pytest"].mark.asyncio]  # type: ignore[attr-defined]
    else:

        def test(self: ContractTests, make_port: Any, request: Any) -> None:  # type: ignore[misc]
            __tracebackhide__ = _unless_skipped
            _skip_if(asyncio.run(_run(self, make_port, request, name)))

    test.__name__ = f"test_{name}"
    test.__qualname__ = f"ContractTests.test_{name}"
    test.__doc__ = check.rule
    return test
